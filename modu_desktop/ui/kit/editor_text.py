"""The one way to read a Qt text editor's characters: as they are, without Qt's plain-text
conversions (which turn non-breaking spaces into spaces)."""

from __future__ import annotations

from PySide6.QtGui import QTextDocument


def raw_text(doc: QTextDocument) -> str:
    """The document's characters as they are; paragraphs separated by ``\\n``."""
    return doc.toRawText().replace("\u2029", "\n")
