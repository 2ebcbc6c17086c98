"""Markdown → the text card's model, as the site reads it (Qt-free).

The text is read by the site's own reading (:func:`modu_desktop.core.preview.markdown.parse`:
CommonMark, GFM and MDX's differences). :func:`read_pieces` cuts a run of Markdown into pieces
at its top-level blocks: consecutive blocks a card can hold exactly form one ``rich`` piece,
everything else (code, raw HTML or JSX, footnotes, link definitions, task lists, admonitions,
text directives with labels, …) a ``raw`` piece that is shown and kept as written. A block
counts as one a card can hold only when it reads the same on its own as in its place, so a card
written back alone never changes its meaning.

:func:`from_markdown` is the whole text as one model, or None when any part of it is raw.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from markdown_it.token import Token

from modu_desktop.core.pageedit.model import (
    BOLD,
    CODE,
    ITALIC,
    STRIKE,
    Block,
    Heading,
    Inline,
    InlinePicture,
    Inlines,
    LineBreak,
    ListBlock,
    ListItem,
    Paragraph,
    Quote,
    RichText,
    Rule,
    Table,
    TextRun,
    normalise_block,
    normalise_inlines,
)
from modu_desktop.core.preview.markdown import parse

__all__ = ["Piece", "SourceBlock", "from_markdown", "read_pieces", "read_blocks"]


class Unrepresentable(Exception):
    """The tokens hold something a text card cannot show exactly."""


@dataclass(frozen=True, slots=True)
class SourceBlock:
    """One top-level block of a rich piece and where its text is (offsets in the run)."""

    block: Block
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Piece:
    """A part of a run of Markdown: ``kind`` "rich" (``blocks`` hold it) or "raw"; ``start``
    and ``end`` are offsets in the run, from the first character of the first line to the end
    of the last line (without its line break)."""

    kind: str
    start: int
    end: int
    blocks: tuple[SourceBlock, ...] = ()

    @property
    def model(self) -> RichText:
        return RichText(tuple(b.block for b in self.blocks))


_TAG_MARKS = {
    "strong": BOLD,
    "b": BOLD,
    "em": ITALIC,
    "i": ITALIC,
    "del": STRIKE,
    "s": STRIKE,
}
_OPEN_TAG = re.compile(r"^<([a-z]+)\s*>$")
_CLOSE_TAG = re.compile(r"^</([a-z]+)\s*>$")
_BR_TAG = re.compile(r"^<br\s*/?>$", re.IGNORECASE)
_CONTAINER = re.compile(r"^\s{0,3}:{2,}")


def _inlines(children: list[Token] | None) -> Inlines:
    out: list[Inline] = []
    counts = {BOLD: 0, ITALIC: 0, STRIKE: 0}
    link: str | None = None

    def marks() -> frozenset[str]:
        return frozenset(m for m, n in counts.items() if n > 0)

    for tok in children or []:
        kind = tok.type
        if kind == "text":
            out.append(TextRun(tok.content, marks(), link))
        elif kind == "softbreak":
            out.append(TextRun(" ", marks(), link))
        elif kind == "hardbreak":
            out.append(LineBreak())
        elif kind in ("strong_open", "em_open", "s_open"):
            counts[{"strong_open": BOLD, "em_open": ITALIC, "s_open": STRIKE}[kind]] += 1
        elif kind in ("strong_close", "em_close", "s_close"):
            counts[{"strong_close": BOLD, "em_close": ITALIC, "s_close": STRIKE}[kind]] -= 1
        elif kind == "link_open":
            if link is not None or tok.attrs.get("title"):
                raise Unrepresentable("link")
            link = str(tok.attrs.get("href", ""))
        elif kind == "link_close":
            link = None
        elif kind == "code_inline":
            out.append(TextRun(tok.content, marks() | {CODE}, link))
        elif kind == "image":
            if link is not None or tok.attrs.get("title"):
                raise Unrepresentable("linked picture")
            alt = "".join(
                c.content for c in tok.children or [] if c.type in ("text", "code_inline")
            )
            out.append(InlinePicture(str(tok.attrs.get("src", "")), alt))
        elif kind == "html_inline":
            content = tok.content.strip()
            if _BR_TAG.match(content):
                out.append(LineBreak())
                continue
            opened, closed = _OPEN_TAG.match(content), _CLOSE_TAG.match(content)
            tag = (opened or closed).group(1) if (opened or closed) else ""  # type: ignore[union-attr]
            if tag not in _TAG_MARKS:
                raise Unrepresentable(content)
            counts[_TAG_MARKS[tag]] += 1 if opened else -1
            if counts[_TAG_MARKS[tag]] < 0:
                raise Unrepresentable(content)
        elif kind == "text_directive":
            if not tok.meta.get("simple", True):
                raise Unrepresentable("directive")
            # Docusaurus writes a bare text directive (the ``:1`` of ``1:1``) back as text
            out.append(TextRun(":" + tok.meta["name"], marks(), link))
        else:
            raise Unrepresentable(kind)
    if any(counts.values()) or link is not None:
        raise Unrepresentable("unbalanced")
    return normalise_inlines(out)


def _close_index(tokens: list[Token], i: int) -> int:
    """Index of the token that closes the one opened at ``i``."""
    if tokens[i].nesting != 1:
        return i
    depth = 0
    for j in range(i, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            return j
    raise Unrepresentable("unclosed")


def _block(tokens: list[Token], i: int, j: int) -> Block:
    """The block made of ``tokens[i..j]`` (an opening token and its closing one)."""
    tok = tokens[i]
    kind = tok.type
    if kind == "paragraph_open":
        return Paragraph(_inlines(tokens[i + 1].children))
    if kind == "heading_open":
        return Heading(int(tok.tag[1]), _inlines(tokens[i + 1].children))
    if kind == "hr":
        return Rule()
    if kind in ("bullet_list_open", "ordered_list_open"):
        return _list(tokens, i, j)
    if kind == "blockquote_open":
        paras: list[Paragraph] = []
        k = i + 1
        while k < j:
            end = _close_index(tokens, k)
            if tokens[k].type != "paragraph_open":
                raise Unrepresentable(tokens[k].type)
            paras.append(Paragraph(_inlines(tokens[k + 1].children)))
            k = end + 1
        return Quote(tuple(paras))
    if kind == "table_open":
        return _table(tokens, i, j)
    raise Unrepresentable(kind)


def _list(tokens: list[Token], i: int, j: int) -> ListBlock:
    ordered = tokens[i].type == "ordered_list_open"
    start = int(tokens[i].attrs.get("start", 1) or 1) if ordered else 1
    items: list[ListItem] = []
    k = i + 1
    while k < j:
        item_end = _close_index(tokens, k)
        if tokens[k].type != "list_item_open" or "checked" in (tokens[k].meta or {}):
            raise Unrepresentable("list item")
        content: Inlines = ()
        children: list[ListBlock] = []
        m = k + 1
        first = True
        while m < item_end:
            end = _close_index(tokens, m)
            kind = tokens[m].type
            if kind == "paragraph_open" and first and not children:
                content = _inlines(tokens[m + 1].children)
            elif kind in ("bullet_list_open", "ordered_list_open"):
                children.append(_list(tokens, m, end))
            else:
                raise Unrepresentable(f"{kind} in a list item")
            first = False
            m = end + 1
        items.append(ListItem(content, tuple(children)))
        k = item_end + 1
    return ListBlock(ordered, tuple(items), start)


_ALIGN = re.compile(r"text-align:\s*(left|center|right)")


def _table(tokens: list[Token], i: int, j: int) -> Table:
    rows: list[tuple[Inlines, ...]] = []
    align: list[str] = []
    cells: list[Inlines] = []
    in_head = False
    for k in range(i + 1, j):
        tok = tokens[k]
        if tok.type == "thead_open":
            in_head = True
        elif tok.type == "thead_close":
            in_head = False
        elif tok.type == "tr_open":
            cells = []
        elif tok.type == "tr_close":
            rows.append(tuple(cells))
        elif tok.type in ("th_open", "td_open"):
            if in_head:
                m = _ALIGN.search(str(tok.attrs.get("style", "")))
                align.append(m.group(1) if m else "")
        elif tok.type == "inline":
            cells.append(_inlines(tok.children))
    if not rows:
        raise Unrepresentable("table")
    width = len(align)
    header, body = rows[0], rows[1:]
    body = [r + ((),) * (width - len(r)) for r in body]
    return Table(tuple(align), header, tuple(body))


def read_blocks(text: str) -> tuple[Block, ...]:
    """Every block of ``text``; raises :class:`Unrepresentable` when any is not a card's."""
    tokens = parse(text)
    blocks: list[Block] = []
    i = 0
    while i < len(tokens):
        if tokens[i].type.startswith("footnote"):
            raise Unrepresentable("footnote")
        j = _close_index(tokens, i)
        block = normalise_block(_block(tokens, i, j))
        if block is not None:
            blocks.append(block)
        i = j + 1
    return tuple(blocks)


@lru_cache(maxsize=512)
def _alone(text: str) -> tuple[Block, ...] | None:
    try:
        return read_blocks(text)
    except Unrepresentable:
        return None


def from_markdown(text: str) -> RichText | None:
    """``text`` as one card's model, or None when a card cannot hold all of it."""
    if _has_container(text.split("\n")):
        return None
    blocks = _alone(text)
    return None if blocks is None else RichText(blocks)


def _has_container(lines: list[str]) -> bool:
    return any(_CONTAINER.match(line) for line in lines)


_OPENER = re.compile(r"^\s{0,3}(:{3,})\s*[A-Za-z]")
_CLOSER = re.compile(r"^\s{0,3}:{3,}\s*$")


def _container_lines(lines: list[str]) -> list[bool]:
    """Which lines belong to a ``:::name`` … ``:::`` container (nested ones counted)."""
    out = [False] * len(lines)
    depth = 0
    for n, line in enumerate(lines):
        if _OPENER.match(line):
            depth += 1
        if depth > 0 or _CONTAINER.match(line):
            out[n] = True
        if _CLOSER.match(line) and depth > 0:
            depth -= 1
    return out


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for m in re.finditer("\n", text):
        starts.append(m.end())
    return starts


def read_pieces(text: str) -> list[Piece]:
    """``text`` (a run of Markdown between brochure blocks) as rich and raw pieces, in order.
    Blank lines between pieces belong to none of them."""
    lines = text.split("\n")
    starts = _line_starts(text)

    def line_end(n: int) -> int:  # offset of the end of line n (before its line break)
        return starts[n] + len(lines[n])

    try:
        tokens = parse(text)
    except Exception:  # the reading never fails on text; if it does, keep the text as written
        tokens = []
    # top-level blocks: (first line, last line, block or None)
    found: list[tuple[int, int, Block | None]] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        try:
            j = _close_index(tokens, i)
        except Unrepresentable:
            j = len(tokens) - 1
        if tok.map is None:  # footnote lists and the like: their lines stay uncovered
            i = j + 1
            continue
        first, last = tok.map[0], tok.map[1] - 1
        while last > first and not lines[last].strip():
            last -= 1
        block: Block | None
        try:
            block = _block(tokens, i, j)
        except Unrepresentable:
            block = None
        if block is not None:
            source = text[starts[first] : line_end(last)]
            alone = None if _has_container(lines[first : last + 1]) else _alone(source)
            norm = normalise_block(block)
            if alone is None or alone != ((norm,) if norm is not None else ()):
                block = None  # reads differently on its own: not a card's to rewrite
        found.append((first, last, block))
        i = j + 1
    # a container directive (an admonition, an unknown ``:::name``) is raw as a whole
    inside = _container_lines(lines)
    found = [(f, la, None if any(inside[f : la + 1]) else b) for f, la, b in found]
    # lines that no block covers and that are not blank are raw (link definitions, …)
    covered = [False] * len(lines)
    for first, last, _b in found:
        for n in range(first, last + 1):
            covered[n] = True
    spans: list[tuple[int, int, Block | None, bool]] = [(f, la, b, b is None) for f, la, b in found]
    n = 0
    while n < len(lines):
        if not covered[n] and lines[n].strip():
            m = n
            while m + 1 < len(lines) and not covered[m + 1] and lines[m + 1].strip():
                m += 1
            spans.append((n, m, None, True))
            n = m + 1
        else:
            n += 1
    spans.sort(key=lambda s: s[0])
    pieces: list[Piece] = []
    for first, last, block, raw in spans:
        start, end = starts[first], line_end(last)
        prev = pieces[-1] if pieces else None
        if raw:
            if prev is not None and prev.kind == "raw":
                pieces[-1] = Piece("raw", prev.start, end)
            else:
                pieces.append(Piece("raw", start, end))
            continue
        assert block is not None
        norm = normalise_block(block)
        src = (SourceBlock(norm, start, end),) if norm is not None else ()
        if prev is not None and prev.kind == "rich":
            pieces[-1] = Piece("rich", prev.start, end, prev.blocks + src)
        else:
            pieces.append(Piece("rich", start, end, src))
    return pieces
