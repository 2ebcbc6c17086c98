"""Where a place of the document is, as the page editor shows it (Qt-free): :func:`card_place`.

The publish check finds places by offset; a staff member working on cards finds them by the
card they are in (a text box under a heading, a block and its item, the page settings) and by
the words there, so each place is told as the card that holds it and a short quote of its line
as the card shows it (Markdown marks, a block line's ``key:`` and quotes taken off).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from modu_desktop.core.brochure import syntax
from modu_desktop.core.pageedit.segments import CARD_KINDS, split_cards

__all__ = ["CardPlace", "card_place", "QUOTE_CHARS"]

QUOTE_CHARS = 28  # a quote longer than this is cut around the place, with "…"

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_TEXT_MARKS = re.compile(r"^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,9}[.)]\s+)")
_KEY = re.compile(r"^\s*(?:-\s+)?([A-Za-z0-9_-]+):\s*")
_ITEM = re.compile(r"^-\s")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")


@dataclass(frozen=True, slots=True)
class CardPlace:
    """A place told the way the cards show it."""

    kind: str  # "front_matter" | "text" | "block" | "raw"
    block: str = ""  # a block card's kind ("cards", "split", …)
    heading: str = ""  # a text card: the heading the place is under, in that card
    item: int = 0  # a block card: the place's item, 1-based (0: the block's own lines)
    key: str = ""  # a block or the page settings: the key of the place's line
    quote: str = ""  # a short piece of the place's line as the card shows it


def card_place(text: str, offset: int) -> CardPlace:
    """The card that holds ``offset`` of ``text`` and a quote of its line. A place between
    cards (a blank line) belongs to the card after it."""
    offset = max(0, min(offset, len(text)))
    segments = split_cards(text)
    seg = next((s for s in segments if s.start <= offset < s.end), None)
    if seg is None or seg.kind not in (*CARD_KINDS, "front_matter"):
        after = [s for s in segments if s.kind in CARD_KINDS and s.start >= offset]
        before = [s for s in segments if s.kind in CARD_KINDS and s.end <= offset]
        seg = after[0] if after else (before[-1] if before else None)
        if seg is None:
            return CardPlace("text")
        offset = seg.start if seg.start >= offset else max(seg.start, seg.end - 1)
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line = text[line_start : line_end if line_end >= 0 else len(text)].rstrip("\r")
    column = offset - line_start
    if seg.kind == "front_matter":
        key, quote = _field_quote(line, column)
        return CardPlace("front_matter", key=key, quote=quote)
    if seg.kind == "block":
        return _block_place(seg.name, seg.start, text, offset, line, column)
    if seg.kind == "raw":
        return CardPlace("raw", quote=_quote(line.strip(), max(0, column - _indent(line))))
    heading = ""
    for previous in text[seg.start : line_end if line_end >= 0 else len(text)].split("\n"):
        m = _HEADING.match(previous)
        if m:
            heading = _plain(m.group(2))
    marks = _TEXT_MARKS.match(line)
    cut = marks.end() if marks else 0
    shown = line[cut:]
    at = max(0, column - cut)
    plain = _plain(shown)
    at = max(0, at - (len(shown) - len(plain)) * at // max(1, len(shown)))
    return CardPlace("text", heading=heading, quote=_quote(plain, at))


def _block_place(
    name: str, start: int, text: str, offset: int, line: str, column: int
) -> CardPlace:
    kind = syntax.directive_kind(name)
    body = text[start:offset].split("\n")
    item = 0
    if kind != "split":  # a split's items are numbered per side; its name is enough
        item = sum(1 for ln in body[1:] if _ITEM.match(ln))
    if len(body) == 1:  # the opener line itself
        return CardPlace("block", block=kind, quote="")
    key, quote = _field_quote(line, column)
    if line.strip() == ":::":
        quote = ""
    return CardPlace("block", block=kind, item=item, key=key, quote=quote)


def _field_quote(line: str, column: int) -> tuple[str, str]:
    """A ``key: value`` line → the key and a quote of its value (without the quotes around
    it); another line → no key and a quote of the line."""
    m = _KEY.match(line)
    if m is None:
        stripped = line.strip()
        if stripped.startswith("- "):
            stripped = stripped[2:]
        return "", _quote(stripped, max(0, column - _indent(line)))
    value = line[m.end() :].rstrip()
    at = max(0, column - m.end())
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value, at = value[1:-1], max(0, at - 1)
    return m.group(1), _quote(value, at)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _plain(text: str) -> str:
    """Markdown marks a text box does not show taken out (emphasis, link addresses)."""
    text = _LINK.sub(lambda m: m.group(1), text)
    for mark in ("**", "__", "~~", "`"):
        text = text.replace(mark, "")
    return text.strip()


def _quote(text: str, at: int) -> str:
    """``text`` when short, else about :data:`QUOTE_CHARS` characters around index ``at``."""
    text = " ".join(text.split())
    if len(text) <= QUOTE_CHARS:
        return text
    start = max(0, min(at - QUOTE_CHARS // 3, len(text) - QUOTE_CHARS))
    piece = text[start : start + QUOTE_CHARS].strip()
    return ("…" if start > 0 else "") + piece + ("…" if start + QUOTE_CHARS < len(text) else "")
