"""A page as the pieces of text a person reads on its cards, each with its Markdown
(Qt-free): :func:`read_page`.

The page is cut as the page editor cuts it (:func:`modu_desktop.core.pageedit.segments.
split_cards`) and each card read as it reads it: the page settings by
:mod:`modu_desktop.core.brochure.frontmatter` (the words people write: title, menu name,
description), a brochure block by :mod:`modu_desktop.core.brochure.block_model` (its fields
and items, named by :mod:`modu_desktop.core.brochure.catalog`; addresses, icons and choices
are not words and are left out), a text box by the page editor's model (headings,
paragraphs, list items, quotes and table cells without their marks), a 원문 card line by line
as written. Each character of each field keeps the piece of Markdown it came from
(:mod:`modu_desktop.core.search.inline_map`), so a hit can be marked on the card and replaced
in the Markdown without touching any other byte.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator

from markdown_it.token import Token

from modu_desktop.core.brochure import block_model, catalog
from modu_desktop.core.brochure import frontmatter as fm
from modu_desktop.core.pageedit.model import (
    CODE,
    Block,
    Heading,
    InlinePicture,
    Inlines,
    LineBreak,
    ListBlock,
    Paragraph,
    Quote,
    Table,
    TextRun,
    plain_text,
)
from modu_desktop.core.pageedit.segments import CardSpan, split_cards
from modu_desktop.core.preview.markdown import parse
from modu_desktop.core.search.inline_map import align_visible, trace_inline
from modu_desktop.core.search.model import FieldKind, PageField, Place

__all__ = ["read_page", "SETTING_KEYS"]

SETTING_KEYS = ("title", "nav_label", "sidebar_label", "description")
"""The page settings people write in words (an address, a theme or a number is not searched:
changing one word of it would move or break the page)."""

# Block fields that hold no words: addresses, emoji, layout choices.
_NOT_WORDS = {"icon", "link", "buttonLink", "align"}
_WORD_KINDS = {"text", "long", "pipes"}
_KEY_LINE = re.compile(r"^([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*:([ \t]*)(.*)$")


def read_page(text: str) -> tuple[PageField, ...]:
    """Every field of ``text`` a person reads, in page order."""
    out: list[PageField] = []
    for seg in split_cards(text):
        piece = seg.text(text)
        if seg.kind == "front_matter":
            out.extend(_settings(piece, seg.start))
        elif seg.kind == "text":
            out.extend(_text_card(text, seg))
        elif seg.kind == "block":
            out.extend(_block_card(piece, seg.start))
        elif seg.kind == "raw":
            out.extend(_raw_card(piece, seg.start))
    return tuple(out)


# ------------------------------------------------------------------------------ page settings
def _settings(piece: str, base: int) -> Iterator[PageField]:
    parsed = fm.parse(piece)
    if not parsed.has_block:
        return
    at = base + (1 if parsed.bom else 0) + len(parsed.prefix) + len(parsed.open_fence)
    seen: set[str] = set()
    for ln in parsed.lines:
        start, at = at, at + len(ln.raw)
        key = ln.key
        if key is None or ln.continuation or key in seen:
            continue
        seen.add(key)
        name = key.replace("-", "_")
        value = ln.value or ""
        if name not in SETTING_KEYS or not value.strip():
            continue
        if not ln.quote and value[:1] in ("|", ">"):  # a block of lines: not one setting
            continue
        m = _KEY_LINE.match(ln.raw.rstrip("\r\n"))
        if m is None:
            continue
        raw_value = m.group(3)[: len(m.group(3)) - len(ln.comment)]
        value_start = start + m.start(3)
        inner = raw_value[1:-1] if ln.quote else raw_value
        pieces = _unquote_map(inner, ln.quote)
        starts = ends = None
        if pieces is not None and "".join(c for c, _, _ in pieces) == value:
            skip = value_start + (1 if ln.quote else 0)
            starts = tuple(skip + a for _, a, _ in pieces)
            ends = tuple(skip + b for _, _, b in pieces)
        yield PageField(
            Place("settings", key=name),
            value,
            FieldKind.SETTING,
            0,
            starts,
            ends,
            quote=ln.quote,
            value_start=value_start,
            value_end=value_start + len(raw_value),
        )


def _unquote_map(inner: str, quote: str) -> list[tuple[str, int, int]] | None:
    """Each character of a quoted YAML scalar's value and where it is written."""
    if not quote:
        return [(c, i, i + 1) for i, c in enumerate(inner)]
    out: list[tuple[str, int, int]] = []
    i = 0
    while i < len(inner):
        c = inner[i]
        if quote == "'" and inner.startswith("''", i):
            out.append(("'", i, i + 2))
            i += 2
        elif quote == '"' and c == "\\":
            return None  # escapes: the value is replaced as a whole, never traced
        else:
            out.append((c, i, i + 1))
            i += 1
    return out


# ---------------------------------------------------------------------------------- text box
def _text_card(text: str, seg: CardSpan) -> Iterator[PageField]:
    piece = seg.text(text)
    # one parse of the card; each of its blocks reads the same there as alone (read_pieces)
    tokens = parse(piece)
    by_line: dict[int, list[Token]] = {}
    i = 0
    while i < len(tokens):
        end = _close(tokens, i)
        where = tokens[i].map
        if where is not None:
            by_line[where[0]] = tokens[i : end + 1]
        i = end + 1
    lines = _PageLines(piece, seg.start)
    heading = ""
    for source in seg.blocks:
        own = by_line.get(piece.count("\n", 0, source.start), [])
        for line_kind, content, token, cell in _pairs(source.block, own):
            shown = plain_text(content)
            if line_kind == "heading":
                heading = shown
            if not shown.strip():
                continue
            place = Place("text", heading=heading, line=line_kind)
            yield _markdown_field(place, content, shown, token, cell, lines, seg.start)


_Pair = tuple[str, Inlines, Token | None, int]  # line kind, content, inline token, cell (or -1)


def _pairs(block: Block, tokens: list[Token]) -> list[_Pair]:
    """The model's runs of inline content beside the parser's inline tokens, in order (a token
    is None when the two do not line up: that run is searched but not traced)."""
    inline = [t for t in tokens if t.type == "inline"]
    if isinstance(block, Paragraph | Heading):
        kind = "heading" if isinstance(block, Heading) else "paragraph"
        return [(kind, block.content, inline[0] if len(inline) == 1 else None, -1)]
    if isinstance(block, Quote):
        used = [t for t in inline if t.content.strip()]
        same = len(used) == len(block.paragraphs)
        return [
            ("quote", p.content, used[n] if same else None, -1)
            for n, p in enumerate(block.paragraphs)
        ]
    if isinstance(block, Table):
        rows = [block.header, *block.rows]
        cells = _table_cells(tokens)
        out: list[_Pair] = []
        for r, row in enumerate(rows):
            got = cells[r] if r < len(cells) else []
            for c, content in enumerate(row):
                out.append(("cell", content, got[c] if c < len(got) else None, c))
        return out
    if isinstance(block, ListBlock):
        out = []
        start = next((i for i, t in enumerate(tokens) if t.type.endswith("list_open")), None)
        if start is not None:
            _list_pairs(block, tokens, start, out)
        return out
    return []


def _table_cells(tokens: list[Token]) -> list[list[Token]]:
    rows: list[list[Token]] = []
    for tok in tokens:
        if tok.type == "tr_open":
            rows.append([])
        elif tok.type == "inline" and rows:
            rows[-1].append(tok)
    return rows


def _close(tokens: list[Token], i: int) -> int:
    depth = 0
    for j in range(i, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            return j
    return len(tokens) - 1


def _list_pairs(block: ListBlock, tokens: list[Token], i: int, out: list[_Pair]) -> None:
    """A list's items (and the lists inside them) in page order; ``tokens[i]`` opens it."""
    k = i + 1
    for item in block.items:
        while k < len(tokens) and tokens[k].type != "list_item_open":
            k += 1
        inline: Token | None = None
        nested: list[int] = []
        end = _close(tokens, k) if k < len(tokens) else k
        m = k + 1
        while m < end:
            tok = tokens[m]
            if tok.type == "paragraph_open" and inline is None and not nested:
                inline = tokens[m + 1]
            elif tok.type.endswith("list_open"):
                nested.append(m)
            m = _close(tokens, m) + 1
        out.append(("item", item.content, inline, -1))
        for n, child in enumerate(item.children):
            if n < len(nested):
                _list_pairs(child, tokens, nested[n], out)
            else:  # not where the parser has it: searched, not traced
                _list_pairs(child, [], 0, out)
        k = end + 1


_Source = tuple[str, Callable[[int], int]]  # the run's Markdown, offset in it → offset in the page


class _PageLines:
    """A chunk of the page split in lines (line breaks ``\\n``; a ``\\r`` before one is not
    part of the line, as the parser reads it) with each line's offset in the page."""

    def __init__(self, chunk: str, base: int) -> None:
        raw = chunk.split("\n")
        self.text = [ln[:-1] if ln.endswith("\r") else ln for ln in raw]
        self.start = []
        at = base
        for ln in raw:
            self.start.append(at)
            at += len(ln) + 1


def _markdown_field(
    place: Place,
    content: Inlines,
    shown: str,
    token: Token | None,
    cell: int,
    lines: _PageLines,
    card_start: int,
) -> PageField:
    runs, styles, code = _runs(content)
    starts = ends = None
    if token is not None and token.map is not None:
        mapped = _cell_source(token, cell, lines) if cell >= 0 else _paragraph_source(token, lines)
        if mapped is not None:
            view, to_page = mapped
            traced = trace_inline(token.children or [], view)
            aligned = align_visible(shown, traced) if traced is not None else None
            if aligned is not None:
                starts = tuple(to_page(a) for a, _ in aligned)
                ends = tuple(to_page(b) for _, b in aligned)
    return PageField(
        place,
        shown,
        FieldKind.MARKDOWN,
        card_start,
        starts,
        ends,
        runs=runs,
        styles=styles,
        in_table=cell >= 0,
        code=code,
    )


def _runs(content: Inlines) -> tuple[tuple[int, ...], tuple[str, ...], tuple[bool, ...]]:
    runs: list[int] = []
    styles: list[str] = []
    code: list[bool] = []
    for n, node in enumerate(content):
        if isinstance(node, TextRun):
            styles.append(",".join(sorted(node.marks)) + "|" + (node.link or ""))
            code.append(CODE in node.marks)
            runs.extend([n] * len(node.text))
        elif isinstance(node, LineBreak):
            styles.append("\n")
            code.append(False)
            runs.append(n)
        elif isinstance(node, InlinePicture):
            styles.append("picture:" + node.src)
            code.append(False)
            runs.extend([n] * len(node.alt))
    return tuple(runs), tuple(styles), tuple(code)


def _paragraph_source(token: Token, lines: _PageLines) -> _Source | None:
    """The inline run's Markdown (the token's content: its lines without their indentation or
    quote marks) and a function from an offset in it to an offset in the page."""
    assert token.map is not None
    first = token.map[0]
    content = token.content
    parts = content.split("\n")
    cuts: list[int] = []  # where each of the content's lines starts in its page line
    for k, part in enumerate(parts):
        n = first + k
        if n >= len(lines.text):
            return None
        line = lines.text[n]
        if k < len(parts) - 1 and line.endswith(part):
            cuts.append(len(line) - len(part))
            continue
        trimmed = line.rstrip(" \t")
        if trimmed.endswith(part) and (k > 0 or not _heading_close(line)):
            cuts.append(len(trimmed) - len(part))
            continue
        at = line.find(part)
        if at < 0 or line.find(part, at + 1) >= 0:
            return None
        cuts.append(at)
    line_starts = []
    at = 0
    for part in parts:
        line_starts.append(at)
        at += len(part) + 1

    def to_page(offset: int) -> int:
        k = bisect.bisect_right(line_starts, offset) - 1
        return lines.start[first + k] + cuts[k] + (offset - line_starts[k])

    return content, to_page


_ATX_CLOSE = re.compile(r"[ \t]#+[ \t]*$")


def _heading_close(line: str) -> bool:
    return line.lstrip().startswith("#") and bool(_ATX_CLOSE.search(line))


def _cell_source(token: Token, cell: int, lines: _PageLines) -> _Source | None:
    """A table cell's Markdown as written in its row (``\\|`` kept) and where it starts."""
    assert token.map is not None
    row = token.map[0]
    if row >= len(lines.text):
        return None
    line = lines.text[row]
    bounds = _cell_bounds(line)
    if cell >= len(bounds):
        return None
    a, b = bounds[cell]
    raw = line[a:b]
    lead = len(raw) - len(raw.lstrip())
    view = raw.strip()
    start = lines.start[row] + a + lead

    def to_page(offset: int) -> int:
        return start + offset

    return view, to_page


def _cell_bounds(line: str) -> list[tuple[int, int]]:
    """Where each cell of a table row is (the site's rule: ``|`` separates, ``\\|`` does not;
    the pipes at the row's ends do not start or end a cell)."""
    cuts = [i for i, c in enumerate(line) if c == "|" and not _escaped(line, i)]
    stripped = line.strip()
    bounds: list[tuple[int, int]] = []
    prev = -1
    for cut in [*cuts, len(line)]:
        bounds.append((prev + 1, cut))
        prev = cut
    if stripped.startswith("|"):
        bounds = bounds[1:]
    if stripped.endswith("|") and len(stripped) > 1 and bounds:
        bounds = bounds[:-1]
    return bounds


def _escaped(line: str, i: int) -> bool:
    n = 0
    while i - n - 1 >= 0 and line[i - n - 1] == "\\":
        n += 1
    return n % 2 == 1


# ---------------------------------------------------------------------------- brochure block
def _block_card(piece: str, base: int) -> Iterator[PageField]:
    try:
        model = block_model.parse(piece)
    except block_model.NotABlock:
        yield from _raw_card(piece, base)
        return
    items = [it.values() for _n, body in model.lists() for it in body.items]
    try:
        spec: catalog.BlockSpec | None = catalog.spec_for(model.kind, items)
    except KeyError:
        spec = None
    entry = spec.entry if spec is not None else model.kind
    lines = piece.split("\n")
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln) + 1)
    columns = model.columns() if model.kind == "datatable" else []
    for n, prefix, line, section, item in _block_lines(model):
        if n >= len(lines) or lines[n] != prefix + line.render():
            continue  # the model and the text disagree: nothing of this line is traced
        page_at = base + starts[n] + len(prefix)
        if isinstance(line, block_model.Row):
            yield from _row_cells(line, page_at, entry, item, columns, base)
            continue
        if not isinstance(line, block_model.Field) or not _words(spec, line.key, section, item):
            continue
        if not line.value.strip():
            continue
        at = page_at + len(line.indent) + len(line.key) + 1 + len(line.sep) + len(line.quote)
        place = Place("block", key=line.key, block=entry, section=section, item=item)
        yield PageField(
            place,
            line.value,
            FieldKind.VALUE,
            base,
            tuple(range(at, at + len(line.value))),
            tuple(range(at + 1, at + 1 + len(line.value))),
            quote=line.quote,
            value_start=at,
            value_end=at + len(line.value),
        )


_Walked = tuple[int, str, "block_model.Field | block_model.Row | block_model.Raw", str, int]


def _block_lines(model: block_model.BlockModel) -> Iterator[_Walked]:
    """Every line of the block with its number (as :meth:`BlockModel.lines` writes them), what
    comes before the model's line on it (an item's dash), its split section and its item."""
    n = 1
    for ln in model.meta:
        yield n, "", ln, "", 0
        n += 1
    lists: list[tuple[str, block_model.ItemList]] = []
    if model.kind == "split":
        for sec in model.sections:
            lists.append((sec.name, sec.body))
    elif model.body is not None:
        lists.append(("", model.body))
    for section, body in lists:
        if model.kind == "split":
            n += 1  # the "left:" / "right:" line
        n += len(body.pre)
        for number, (lead, item) in enumerate(zip(body.leads, body.items, strict=True), 1):
            n += len(lead)
            yield n, item.dash, item.head, section, number
            n += 1
            for ln in item.lines:
                yield n, "", ln, section, number
                n += 1
        n += len(body.tail)


def _words(spec: catalog.BlockSpec | None, key: str, section: str, item: int) -> bool:
    if key in _NOT_WORDS:
        return False
    if spec is None:
        return True
    if section:
        specs = spec.left_fields if section == "left" else spec.right_fields
    else:
        specs = spec.item_fields if item else spec.fields
    for f in specs:
        if f.key == key:
            return f.kind in _WORD_KINDS
    return True  # a key the guide does not know: written by someone, so words


def _row_cells(
    row: block_model.Row, at: int, entry: str, item: int, columns: list[str], base: int
) -> Iterator[PageField]:
    prev = 0
    for c, cut in enumerate([*(i for i, ch in enumerate(row.text) if ch == "|"), None]):
        end = len(row.text) if cut is None else cut
        raw = row.text[prev:end]
        value = raw.strip()
        if value:
            start = at + prev + (len(raw) - len(raw.lstrip()))
            place = Place(
                "block",
                block=entry,
                item=item,
                column=c + 1,
                column_name=columns[c] if c < len(columns) else "",
            )
            yield PageField(
                place,
                value,
                FieldKind.VALUE,
                base,
                tuple(range(start, start + len(value))),
                tuple(range(start + 1, start + 1 + len(value))),
                value_start=start,
                value_end=start + len(value),
            )
        prev = end + 1


# ------------------------------------------------------------------------------------ 원문
def _raw_card(piece: str, base: int) -> Iterator[PageField]:
    at = base
    for raw in piece.split("\n"):
        line = raw[:-1] if raw.endswith("\r") else raw
        shown = line.rstrip()
        if shown.strip():
            yield PageField(
                Place("raw", line="raw"),
                shown,
                FieldKind.RAW,
                base,
                tuple(range(at, at + len(shown))),
                tuple(range(at + 1, at + 1 + len(shown))),
            )
        at += len(raw) + 1
