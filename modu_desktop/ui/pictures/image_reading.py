"""Reading a picture no larger than needed: the one way the thumbnails, the upload's making
smaller and 그림 줄이기 decode a picture (Qt's own image reader; safe in a worker thread)."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QImage, QImageReader


def read_at_most(reader: QImageReader, longest: int) -> QImage:
    """The reader's picture turned upright by its EXIF orientation, its longest side at most
    ``longest`` px: decoded straight to that size where the format can (JPEG does it cheaply),
    never enlarged. A null image when the reader cannot read it."""
    reader.setAutoTransform(True)
    size = reader.size()
    if size.isValid() and max(size.width(), size.height()) > longest:
        scale = longest / max(size.width(), size.height())
        reader.setScaledSize(
            QSize(max(1, round(size.width() * scale)), max(1, round(size.height() * scale)))
        )
    return reader.read()
