"""Parsing of brochure documents for the preview (Qt-free).

A brochure page is front matter, Markdown, and container directives::

    :::cards
    title: 5대 핵심 교육 미션
    columns: 3

    - title: AI·SW 전문인력 양성
      icon: 🎯
    :::

This module splits a document into Markdown runs and :class:`Block` objects, reading each block's
values: where blocks are comes from :mod:`modu_desktop.core.brochure.syntax`, what they hold is
read here as the site's remark plugin reads it (``key: value`` meta lines, ``- key: value`` items
with indented sub-keys, ``left:``/``right:`` sections for ``split``). No text is thrown away:
lines it cannot read are kept in :attr:`Block.extra`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from modu_desktop.core.brochure.syntax import (
    BlockPart,
    FrontMatterPart,
    Lines,
    directive_kind,
    split_document,
)

_KEY = re.compile(r"^([A-Za-z0-9_-]+):(?:\s+(.*)|\s*)$")
_ITEM = re.compile(r"^\s{0,1}-(?:\s+(.*)|\s*)$")
_SUBKEY = re.compile(r"^\s{2,}([A-Za-z0-9_-]+):(?:\s+(.*)|\s*)$")


@dataclass(slots=True)
class FrontMatterValues:
    """The front matter as the preview reads it: plain ``key: value`` lines, quotes removed.
    (Editing it is :mod:`modu_desktop.core.brochure.frontmatter`'s job.)"""

    values: dict[str, str]
    raw: str  # the whole front matter block including the --- lines ("" when absent)


@dataclass(slots=True)
class Block:
    name: str  # as written (lower-cased), e.g. "cards"
    kind: str  # canonical name, or "" for an unknown block
    props: dict[str, str] = field(default_factory=dict)
    items: list[dict[str, str]] = field(default_factory=list)
    rows: list[str] = field(default_factory=list)  # datatable rows, raw text after "- "
    left: list[dict[str, str]] = field(default_factory=list)  # split
    right: list[dict[str, str]] = field(default_factory=list)  # split
    extra: list[str] = field(default_factory=list)  # lines that could not be read
    raw: str = ""  # body text between the fences
    closed: bool = True
    line: int = 0  # 0-based line number of the opening fence
    label: str = ""  # text after the name on the opening line (admonition title)


BodyPart = str | Block
"""A run of Markdown, or a block."""


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def split_front_matter(text: str) -> tuple[FrontMatterValues, str]:
    """Split ``---`` front matter from the body (the BOM is dropped)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    parts = split_document(text)
    if not parts or not isinstance(parts[0], FrontMatterPart):
        return FrontMatterValues({}, ""), text
    raw = parts[0].text
    values: dict[str, str] = {}
    for line in Lines.of(raw).contents[1:-1]:
        if line.lstrip().startswith("#"):
            continue
        m = _KEY.match(line.strip())
        if m:
            values[m.group(1)] = _unquote(m.group(2) or "")
    body = text[len(raw) :]
    for brk in ("\r\n", "\n", "\r"):
        if body.startswith(brk):
            body = body[len(brk) :]
            break
    return FrontMatterValues(values, raw), body


def _keep(value: str) -> str:
    return value.strip()


def _parse_items(
    lines: list[str], *, rows: list[str] | None = None, unquote: bool = True
) -> tuple[list[dict[str, str]], list[str]]:
    """Parse ``- key: value`` items with indented sub-keys. Returns (items, unreadable lines)."""
    unq = _unquote if unquote else _keep
    items: list[dict[str, str]] = []
    extra: list[str] = []
    current: dict[str, str] | None = None
    last_key: str | None = None
    for line in lines:
        if not line.strip():
            continue
        m_item = _ITEM.match(line)
        if m_item:
            rest = (m_item.group(1) or "").strip()
            if rows is not None:
                rows.append(rest)
                current, last_key = None, None
                continue
            current = {}
            items.append(current)
            m_kv = _KEY.match(rest)
            if m_kv:
                last_key = m_kv.group(1)
                current[last_key] = unq(m_kv.group(2) or "")
            elif rest:
                last_key = "text"
                current["text"] = unq(rest)
            else:
                last_key = None
            continue
        if current is not None:
            m_sub = _SUBKEY.match(line)
            if m_sub:
                last_key = m_sub.group(1)
                current[last_key] = unq(m_sub.group(2) or "")
                continue
            if line[:1].isspace() and last_key is not None:
                # A wrapped value: continuation of the previous key.
                joined = (current.get(last_key, "") + " " + line.strip()).strip()
                current[last_key] = joined
                continue
        extra.append(line)
    return items, extra


def _parse_meta(
    lines: list[str], props: dict[str, str], extra: list[str], *, unquote: bool = True
) -> None:
    unq = _unquote if unquote else _keep
    last_key: str | None = None
    for line in lines:
        if not line.strip():
            continue
        m = _KEY.match(line.strip()) if not line[:1].isspace() else None
        if m:
            last_key = m.group(1)
            props[last_key] = unq(m.group(2) or "")
        elif line[:1].isspace() and last_key is not None:
            props[last_key] = (props[last_key] + " " + line.strip()).strip()
        else:
            extra.append(line)


def parse_block(
    name: str,
    body_lines: list[str],
    *,
    closed: bool = True,
    line: int = 0,
    label: str = "",
    unquote: bool = True,
) -> Block:
    """Parse the body of one ``:::name`` block. ``unquote=False`` keeps quotes around values
    as the site's remark plugin does (``num: "①"`` shows ``"①"`` on the site)."""
    lname = name.lower()
    kind = directive_kind(lname)
    label = label.strip()
    if label.startswith("[") and label.endswith("]"):
        label = label[1:-1].strip()
    block = Block(
        name=lname, kind=kind, raw="\n".join(body_lines), closed=closed, line=line, label=label
    )
    if kind in ("", "admonition"):
        return block
    if kind == "split":
        meta: list[str] = []
        left: list[str] = []
        right: list[str] = []
        section = meta
        for ln in body_lines:
            token = ln.strip().lower()
            if token == "left:":
                section = left
                continue
            if token == "right:":
                section = right
                continue
            section.append(ln)
        _parse_meta(meta, block.props, block.extra, unquote=unquote)
        block.left, extra_l = _parse_items(left, unquote=unquote)
        block.right, extra_r = _parse_items(right, unquote=unquote)
        block.extra.extend(extra_l + extra_r)
        return block
    meta_lines: list[str] = []
    list_lines: list[str] = []
    started = False
    for ln in body_lines:
        if not started and ln.strip().startswith("-") and not ln[:1].isspace():
            started = True
        (list_lines if started else meta_lines).append(ln)
    _parse_meta(meta_lines, block.props, block.extra, unquote=unquote)
    if kind == "datatable":
        items, extra = _parse_items(list_lines, rows=block.rows, unquote=unquote)
    else:
        items, extra = _parse_items(list_lines, unquote=unquote)
    block.items = items
    block.extra.extend(extra)
    return block


def split_segments(body: str, *, unquote: bool = True) -> list[BodyPart]:
    """Split a document body (front matter removed) into Markdown strings and blocks.

    ``:::`` inside fenced code stays code. The lines between blocks make one string.
    ``unquote=False``: block values keep their quotes, as on the site.
    """
    lines = list(Lines.of(body).contents)
    out: list[BodyPart] = []
    next_line = 0
    for part in split_document(body, front_matter=False):
        if not isinstance(part, BlockPart):
            continue
        if part.first_line > next_line:
            out.append("\n".join(lines[next_line : part.first_line]))
        body_end = part.last_line if part.closed else part.last_line + 1
        out.append(
            parse_block(
                part.name,
                lines[part.first_line + 1 : body_end],
                closed=part.closed,
                line=part.first_line,
                label=part.label,
                unquote=unquote,
            )
        )
        next_line = part.last_line + 1
    if next_line < len(lines):
        out.append("\n".join(lines[next_line:]))
    return out
