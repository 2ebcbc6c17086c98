"""Parsing of brochure documents for the preview (Qt-free).

A brochure page is front matter, Markdown, and container directives::

    :::cards
    title: 5대 핵심 교육 미션
    columns: 3

    - title: AI·SW 전문인력 양성
      icon: 🎯
    :::

This module splits a document into Markdown runs and :class:`Block` objects. It mirrors the
site's remark plugin (``key: value`` meta lines, ``- key: value`` items with indented sub-keys,
``left:``/``right:`` sections for ``split``) but never throws away text: lines it cannot read are
kept in :attr:`Block.extra`, and an unclosed block is ended at the first line that cannot belong
to a block, so the Markdown after it still renders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

BLOCK_TYPES: tuple[str, ...] = (
    "hero",
    "stats",
    "cards",
    "timeline",
    "quote",
    "cta",
    "chapters",
    "roadmap",
    "badges",
    "chapter-header",
    "kpi",
    "strategy",
    "alphagrid",
    "panel",
    "stepper",
    "split",
    "datatable",
)
"""The 17 directive names of the site; ``chapterheader`` is an alias of ``chapter-header``."""

ALIASES = {"chapterheader": "chapter-header"}

ADMONITIONS: tuple[str, ...] = (
    "note",
    "tip",
    "info",
    "warning",
    "caution",
    "danger",
    "important",
    "success",
)
"""Docusaurus admonitions: ``:::tip[Title]`` … ``:::`` with Markdown inside."""

_OPENER = re.compile(r"^\s{0,3}:::\s*([A-Za-z][\w-]*)(.*)$")
_CLOSER = re.compile(r"^\s{0,3}:::+\s*$")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_KEY = re.compile(r"^([A-Za-z0-9_-]+):(?:\s+(.*)|\s*)$")
_ITEM = re.compile(r"^\s{0,1}-(?:\s+(.*)|\s*)$")
_SUBKEY = re.compile(r"^\s{2,}([A-Za-z0-9_-]+):(?:\s+(.*)|\s*)$")
_BLOCKISH = re.compile(r"^(\s*$|\s+\S|-(\s|$)|[A-Za-z0-9_-]+:(\s|$))")


@dataclass(slots=True)
class FrontMatter:
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


Segment = str | Block


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def split_front_matter(text: str) -> tuple[FrontMatter, str]:
    """Split ``---`` front matter from the body. Tolerates a BOM and CRLF (already normalised)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return FrontMatter({}, ""), text
    for idx in range(1, len(lines)):
        if lines[idx].strip() in ("---", "..."):
            values: dict[str, str] = {}
            for raw in lines[1:idx]:
                if raw.lstrip().startswith("#"):
                    continue
                m = _KEY.match(raw.strip())
                if m:
                    values[m.group(1)] = _unquote(m.group(2) or "")
            return FrontMatter(values, "\n".join(lines[: idx + 1])), "\n".join(lines[idx + 1 :])
    return FrontMatter({}, ""), text


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
    canonical = ALIASES.get(lname, lname)
    if canonical in BLOCK_TYPES:
        kind = canonical
    elif canonical in ADMONITIONS:
        kind = "admonition"
    else:
        kind = ""
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


def _unclosed_end(lines: list[str], start: int, stop: int) -> int:
    """End (exclusive) of an unclosed block body: the first line that cannot be block content."""
    idx = start
    while idx < stop and _BLOCKISH.match(lines[idx]):
        idx += 1
    # Give trailing blank lines back to the Markdown that follows.
    while idx > start and not lines[idx - 1].strip():
        idx -= 1
    return idx


def split_segments(body: str, *, unquote: bool = True) -> list[Segment]:
    """Split a document body (front matter removed) into Markdown strings and blocks.

    ``:::`` inside fenced code stays code. Adjacent Markdown lines are joined into one string.
    ``unquote=False``: block values keep their quotes, as on the site.
    """
    lines = body.split("\n")
    out: list[Segment] = []
    md: list[str] = []
    fence: str | None = None
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if fence is not None:
            md.append(line)
            stripped = line.strip()
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:
                fence = None
            i += 1
            continue
        m_fence = _FENCE.match(line)
        if m_fence:
            fence = m_fence.group(1)
            md.append(line)
            i += 1
            continue
        m_open = _OPENER.match(line)
        if not m_open:
            md.append(line)
            i += 1
            continue
        name = m_open.group(1)
        j = i + 1
        while j < n and not _CLOSER.match(lines[j]) and not _OPENER.match(lines[j]):
            j += 1
        closed = j < n and bool(_CLOSER.match(lines[j]))
        # An admonition holds Markdown: unclosed, it runs to the next fence.
        admonition = name.lower() in ADMONITIONS
        end = j if closed or admonition else _unclosed_end(lines, i + 1, j)
        if md:
            out.append("\n".join(md))
            md = []
        out.append(
            parse_block(
                name,
                lines[i + 1 : end],
                closed=closed,
                line=i,
                label=m_open.group(2),
                unquote=unquote,
            )
        )
        i = j + 1 if closed else end
    if md:
        out.append("\n".join(md))
    return out
