"""A picture's size in pixels, read from its header (Qt-free).

``imagesize`` (pure Python, MIT) reads PNG, JPEG (turned by its EXIF orientation, as browsers
show it), GIF, WebP and SVG without decoding the picture. It is always handed the bytes as a
file object: given a string it would open a path or a URL. An SVG that gives only a ``viewBox``
is measured by it, as a browser does for its proportions.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import imagesize

_VIEWBOX = re.compile(rb"""<svg\b[^>]*?\sviewBox\s*=\s*["']([^"']*)["']""", re.IGNORECASE)


@dataclass(frozen=True)
class PixelSize:
    width: int
    height: int

    def __str__(self) -> str:
        return f"{self.width}×{self.height}"


def pixel_size(data: bytes) -> PixelSize | None:
    """The picture's width and height as shown, or None when its header says neither (not a
    picture, cut short, an SVG without a size)."""
    try:
        width, height = imagesize.get(io.BytesIO(data))
    except Exception:  # a damaged header is "no size", never an error for the listing
        width, height = -1, -1
    if width > 0 and height > 0:
        return PixelSize(round(width), round(height))
    m = _VIEWBOX.search(data[:4096])
    if m is None:
        return None
    numbers = re.split(rb"[\s,]+", m.group(1).strip())
    try:
        w, h = float(numbers[2]), float(numbers[3])
    except (IndexError, ValueError):
        return None
    return PixelSize(round(w), round(h)) if w > 0 and h > 0 else None
