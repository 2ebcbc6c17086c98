"""A document as the page editor's cards (Qt-free): :func:`split_document`.

The segments follow each other without holes or overlaps, so joining their texts gives the
document back byte for byte:

- ``front_matter`` — the ``---`` lines at the top (edited in 페이지 설정, not a card);
- ``block`` — one brochure block, opener to closer (a card with its form);
- ``text`` — Markdown a text card holds exactly (``blocks``: its paragraphs, lists, … with
  offsets into the segment's own text);
- ``raw`` — Markdown a card cannot hold, an unknown or unclosed block: a "원문" card;
- ``gap`` — the line breaks and blank lines between two of the above (no card).
"""

from __future__ import annotations

from dataclasses import dataclass

from modu_desktop.core.brochure import block_model
from modu_desktop.core.pageedit.reading import SourceBlock, read_pieces

__all__ = ["Segment", "split_document", "CARD_KINDS"]

CARD_KINDS = ("block", "text", "raw")


@dataclass(frozen=True, slots=True)
class Segment:
    kind: str  # "front_matter" | "block" | "text" | "raw" | "gap"
    start: int
    end: int
    name: str = ""  # a block's directive name as written (lower case)
    blocks: tuple[SourceBlock, ...] = ()  # text: offsets relative to ``start``

    def text(self, document: str) -> str:
        return document[self.start : self.end]


def _block_parts(text: str) -> list[tuple[str, int, int, str]]:
    """(kind, first line, last line, name) of the front matter and every brochure block, in
    order. One place to ask, so the shared block scanner can take its place."""
    parts: list[tuple[str, int, int, str]] = []
    fm = block_model.front_matter_lines(text)
    if fm:
        parts.append(("front_matter", 0, fm - 1, ""))
    for span in block_model.block_spans(text):
        parts.append(("block" if span.closed else "raw", span.start, span.end, span.name))
    return parts


def split_document(text: str) -> list[Segment]:
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def end_of(line: int) -> int:
        return starts[line] + len(lines[line])

    out: list[Segment] = []
    pos = 0

    def run(upto: int) -> None:
        """The text between ``pos`` and ``upto``: text, raw and gap segments."""
        nonlocal pos
        base, chunk = pos, text[pos:upto]
        for piece in read_pieces(chunk) if chunk.strip() else []:
            a, b = base + piece.start, base + piece.end
            if a > pos:
                out.append(Segment("gap", pos, a))
            if piece.kind == "rich":
                rel = tuple(
                    SourceBlock(sb.block, sb.start - piece.start, sb.end - piece.start)
                    for sb in piece.blocks
                )
                out.append(Segment("text", a, b, blocks=rel))
            else:
                out.append(Segment("raw", a, b))
            pos = b
        if upto > pos:
            out.append(Segment("gap", pos, upto))
            pos = upto

    for kind, first, last, name in _block_parts(text):
        a, b = starts[first], end_of(last)
        run(a)
        out.append(Segment(kind, a, b, name=name))
        pos = b
    run(len(text))
    return out
