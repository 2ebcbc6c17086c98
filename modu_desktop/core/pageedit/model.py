"""The document model of a text card (Qt-free): what staff need for the running text of a page,
and no more.

Blocks: :class:`Paragraph`, :class:`Heading` (levels 2–4 are the ones the site styles; other
levels read from a document are kept), :class:`ListBlock` (bulleted or numbered, nested),
:class:`Quote` (paragraphs), :class:`Table` (a header row and rows of cells), :class:`Rule` (a
dividing line). Inline content: :class:`Text` runs with marks (bold, italic, strikethrough, code)
and an optional link, :class:`Picture`, :class:`LineBreak`.

Everything is frozen and hashable, so two readings of the same text compare equal and a
paragraph the user did not change is recognised by equality. :func:`normalise_inlines` gives the
one spelling of a run of inline content that the site's HTML would show the same way: adjacent
runs with the same marks merged, white space moved out of marks and trimmed at line ends, empty
runs dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BOLD = "bold"
ITALIC = "italic"
STRIKE = "strike"
CODE = "code"


@dataclass(frozen=True, slots=True)
class TextRun:
    text: str
    marks: frozenset[str] = frozenset()
    link: str | None = None


@dataclass(frozen=True, slots=True)
class LineBreak:
    """A line break inside a paragraph (줄바꿈)."""


@dataclass(frozen=True, slots=True)
class InlinePicture:
    src: str
    alt: str = ""


Inline = TextRun | LineBreak | InlinePicture
Inlines = tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Paragraph:
    content: Inlines


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    content: Inlines


@dataclass(frozen=True, slots=True)
class ListItem:
    content: Inlines
    children: tuple[ListBlock, ...] = ()


@dataclass(frozen=True, slots=True)
class ListBlock:
    ordered: bool
    items: tuple[ListItem, ...]
    start: int = 1


@dataclass(frozen=True, slots=True)
class Quote:
    paragraphs: tuple[Paragraph, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """``align`` per column: "" (none), "left", "center" or "right". ``header`` is the first
    row (the site draws it bold); every row has as many cells as ``align`` has entries."""

    align: tuple[str, ...]
    header: tuple[Inlines, ...]
    rows: tuple[tuple[Inlines, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Rule:
    """A dividing line (``---``)."""


Block = Paragraph | Heading | ListBlock | Quote | Table | Rule


@dataclass(frozen=True, slots=True)
class RichText:
    blocks: tuple[Block, ...] = field(default_factory=tuple)


# -------------------------------------------------------------------------------- normalising


def normalise_inlines(content: Inlines | list[Inline]) -> Inlines:
    """The one spelling of ``content``: see the module docstring."""
    pieces: list[Inline] = []
    for node in content:
        if isinstance(node, TextRun):
            text = node.text
            for ch in "\t\n\r\f\v":
                text = text.replace(ch, " ")
            if not text:
                continue
            plain = TextRun(text)
            if not node.marks and node.link is None:
                pieces.append(plain)
                continue
            # white space at the edges of a marked run goes outside it
            core = text.strip(" ")
            if not core:
                pieces.append(plain)
                continue
            lead = text[: len(text) - len(text.lstrip(" "))]
            trail = text[len(text.rstrip(" ")) :]
            if lead:
                pieces.append(TextRun(lead))
            pieces.append(TextRun(core, frozenset(node.marks), node.link))
            if trail:
                pieces.append(TextRun(trail))
        else:
            pieces.append(node)
    # merge neighbours with the same marks and link
    merged: list[Inline] = []
    for node in pieces:
        last = merged[-1] if merged else None
        if (
            isinstance(node, TextRun)
            and isinstance(last, TextRun)
            and last.marks == node.marks
            and last.link == node.link
        ):
            merged[-1] = TextRun(last.text + node.text, last.marks, last.link)
        else:
            merged.append(node)
    # trim at the start, the end and around line breaks; no break at either end
    lines: list[list[Inline]] = [[]]
    for node in merged:
        if isinstance(node, LineBreak):
            lines.append([])
        else:
            lines[-1].append(node)
    trimmed = [_trim_line(line) for line in lines]
    while trimmed and not trimmed[0]:
        trimmed.pop(0)
    while trimmed and not trimmed[-1]:
        trimmed.pop()
    out: list[Inline] = []
    for n, line in enumerate(trimmed):
        if n:
            out.append(LineBreak())
        out.extend(line)
    return tuple(out)


def _trim_line(line: list[Inline]) -> list[Inline]:
    nodes = list(line)
    while nodes and isinstance(nodes[0], TextRun):
        first = nodes[0]
        assert isinstance(first, TextRun)
        text = first.text.lstrip(" ")
        if text:
            nodes[0] = TextRun(text, first.marks, first.link)
            break
        nodes.pop(0)
    while nodes and isinstance(nodes[-1], TextRun):
        last = nodes[-1]
        assert isinstance(last, TextRun)
        text = last.text.rstrip(" ")
        if text:
            nodes[-1] = TextRun(text, last.marks, last.link)
            break
        nodes.pop()
    return nodes


def normalise_block(block: Block) -> Block | None:
    """``block`` with its inline content normalised; None when nothing of it would show (an
    empty paragraph or heading, a table without columns)."""
    if isinstance(block, Paragraph):
        content = normalise_inlines(block.content)
        return Paragraph(content) if content else None
    if isinstance(block, Heading):
        content = normalise_inlines(block.content)
        return Heading(block.level, content) if content else None
    if isinstance(block, ListBlock):
        return ListBlock(block.ordered, tuple(_norm_item(i) for i in block.items), block.start)
    if isinstance(block, Quote):
        paras = [normalise_block(p) for p in block.paragraphs]
        kept = tuple(p for p in paras if isinstance(p, Paragraph))
        return Quote(kept) if kept else None
    if isinstance(block, Table):
        width = max([len(block.align), len(block.header), *(len(r) for r in block.rows)])
        if width == 0:
            return None
        align = tuple(block.align) + ("",) * (width - len(block.align))

        def row(cells: tuple[Inlines, ...]) -> tuple[Inlines, ...]:
            norm = tuple(normalise_inlines(c) for c in cells)
            return norm + ((),) * (width - len(norm))

        return Table(align, row(block.header), tuple(row(r) for r in block.rows))
    return block


def _norm_item(item: ListItem) -> ListItem:
    children = tuple(
        c for c in (normalise_block(ch) for ch in item.children) if isinstance(c, ListBlock)
    )
    return ListItem(normalise_inlines(item.content), children)


def normalise(model: RichText) -> RichText:
    blocks = [normalise_block(b) for b in model.blocks]
    return RichText(tuple(b for b in blocks if b is not None))


def plain_text(content: Inlines) -> str:
    """What a run of inline content reads as (a picture by its description)."""
    out = []
    for node in content:
        if isinstance(node, TextRun):
            out.append(node.text)
        elif isinstance(node, LineBreak):
            out.append("\n")
        else:
            out.append(node.alt)
    return "".join(out)
