"""Places in the document text two ways: Python string offsets and ``QTextDocument`` positions,
which count a character beyond the Basic Multilingual Plane (an emoji) as two."""

from __future__ import annotations


def u16(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (QTextDocument positions)."""
    return len(text.encode("utf-16-le")) // 2


class Positions:
    """Python string offsets of one text → QTextDocument positions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.plain = len(text) == u16(text)

    def __call__(self, offset: int) -> int:
        return offset if self.plain else u16(self.text[:offset])


def string_offset(text: str, position: int) -> int:
    """A QTextDocument position in ``text`` → a Python string offset."""
    if len(text) == u16(text):
        return position
    count = 0
    for i, ch in enumerate(text):
        if count >= position:
            return i
        count += 2 if ord(ch) > 0xFFFF else 1
    return len(text)
