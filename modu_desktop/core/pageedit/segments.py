"""A document as the page editor's cards (Qt-free): :func:`split_cards`.

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

from modu_desktop.core.brochure import syntax
from modu_desktop.core.pageedit.reading import SourceBlock, read_pieces

__all__ = ["CardSpan", "split_cards", "CARD_KINDS"]

CARD_KINDS = ("block", "text", "raw")


@dataclass(frozen=True, slots=True)
class CardSpan:
    kind: str  # "front_matter" | "block" | "text" | "raw" | "gap"
    start: int
    end: int
    name: str = ""  # a block's directive name as written (lower case)
    blocks: tuple[SourceBlock, ...] = ()  # text: offsets relative to ``start``

    def text(self, document: str) -> str:
        return document[self.start : self.end]


def split_cards(text: str) -> list[CardSpan]:
    out: list[CardSpan] = []
    for part in syntax.split_document(text):
        if isinstance(part, syntax.FrontMatterPart):
            out.append(CardSpan("front_matter", part.start, part.end))
        elif isinstance(part, syntax.BlockPart):
            # an admonition, an unknown name or a block without its closing line: as written
            kind = "block" if part.is_brochure_block and part.closed else "raw"
            out.append(CardSpan(kind, part.start, part.end, name=part.name))
        else:
            out.extend(_run(part.text, part.start))
    return out


def _run(chunk: str, base: int) -> list[CardSpan]:
    """A run of Markdown (at ``base`` in the document) as text, raw and gap segments."""
    out: list[CardSpan] = []
    pos = 0
    for piece in read_pieces(chunk) if chunk.strip().strip("\ufeff") else []:
        if piece.start > pos:
            out.append(CardSpan("gap", base + pos, base + piece.start))
        a, b = base + piece.start, base + piece.end
        if piece.kind == "rich":
            rel = tuple(
                SourceBlock(sb.block, sb.start - piece.start, sb.end - piece.start)
                for sb in piece.blocks
            )
            out.append(CardSpan("text", a, b, blocks=rel))
        else:
            out.append(CardSpan("raw", a, b))
        pos = piece.end
    if len(chunk) > pos:
        out.append(CardSpan("gap", base + pos, base + len(chunk)))
    return out
