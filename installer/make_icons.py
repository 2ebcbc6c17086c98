"""Draw the Modu Desktop app icon with Qt and write the PNG set, a Windows .ico and a macOS .icns.

Run from the repository root (results are committed; re-run only when the design changes):

    uv run python installer/make_icons.py

No Pillow: every size is painted directly with QPainter (crisp at 16 px, not a downscale), the
.ico holds 32-bit DIBs for the small sizes and a PNG for 256 px (the Windows Vista+ layout), and
the .icns holds PNG payloads (the macOS 10.7+ `ic07`…`ic14` types).
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt  # noqa: E402
from PySide6.QtGui import (  # noqa: E402
    QBrush,
    QColor,
    QGuiApplication,
    QImage,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
)

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "icons"
NAME = "modu-desktop"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512, 1024)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# icns type -> pixel size (all PNG payloads)
ICNS_TYPES = (
    ("ic11", 32),  # 16x16@2x
    ("ic12", 64),  # 32x32@2x
    ("ic07", 128),
    ("ic13", 256),  # 128x128@2x
    ("ic08", 256),
    ("ic14", 512),  # 256x256@2x
    ("ic09", 512),
    ("ic10", 1024),  # 512x512@2x
)

BLUE_TOP = QColor("#2f6bf2")
BLUE_BOTTOM = QColor("#123c9c")
PAGE = QColor("#ffffff")
FOLD = QColor("#c9d8ff")
LINE = QColor("#9fb6ea")
ACCENT = QColor("#ffb627")


def paint(size: int) -> QImage:
    """Paint the icon at `size` px: a blue rounded tile, a white page with text lines, a pencil."""
    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.scale(size / 1024.0, size / 1024.0)
    small = size <= 32

    # Tile (macOS-style margin: the tile covers ~80 % of the canvas, less at tiny sizes).
    margin = 40.0 if small else 100.0
    tile = QRectF(margin, margin, 1024 - 2 * margin, 1024 - 2 * margin)
    grad = QLinearGradient(tile.topLeft(), tile.bottomLeft())
    grad.setColorAt(0.0, BLUE_TOP)
    grad.setColorAt(1.0, BLUE_BOTTOM)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(grad))
    p.drawRoundedRect(tile, tile.width() * 0.225, tile.width() * 0.225)

    # Page with a folded corner.
    s = tile.width() / 824.0  # design units were drawn for the 824 px tile
    ox, oy = tile.left(), tile.top()

    def pt(x: float, y: float) -> QPointF:
        return QPointF(ox + x * s, oy + y * s)

    fold = 120.0
    page = QPainterPath()
    page.moveTo(pt(210, 150))
    page.lineTo(pt(614 - fold, 150))
    page.lineTo(pt(614, 150 + fold))
    page.lineTo(pt(614, 674))
    page.lineTo(pt(210, 674))
    page.closeSubpath()
    p.setBrush(PAGE)
    p.drawPath(page)
    corner = QPainterPath()
    corner.moveTo(pt(614 - fold, 150))
    corner.lineTo(pt(614 - fold, 150 + fold))
    corner.lineTo(pt(614, 150 + fold))
    corner.closeSubpath()
    p.setBrush(FOLD)
    p.drawPath(corner)

    # Text lines (fewer and thicker when small so they stay visible).
    p.setBrush(LINE)
    rows = (300, 430, 560) if small else (300, 380, 460, 540)
    bar_h = 56.0 if small else 40.0
    widths = (330, 260, 300, 200)
    for row, width in zip(rows, widths, strict=False):
        p.drawRoundedRect(QRectF(pt(262, row), pt(262 + width, row + bar_h)), 16 * s, 16 * s)

    # Pencil across the lower right corner.
    p.save()
    p.translate(pt(600, 600))
    p.rotate(-45)
    body_w, body_h = 360.0 * s, 92.0 * s
    p.setBrush(ACCENT)
    p.setPen(QPen(QColor("#0b2a70"), max(1.0, 10 * s)) if not small else Qt.PenStyle.NoPen)
    p.drawRoundedRect(QRectF(-body_w / 2, -body_h / 2, body_w, body_h), 14 * s, 14 * s)
    tip = QPainterPath()
    tip.moveTo(QPointF(-body_w / 2, -body_h / 2))
    tip.lineTo(QPointF(-body_w / 2 - 90 * s, 0))
    tip.lineTo(QPointF(-body_w / 2, body_h / 2))
    tip.closeSubpath()
    p.setBrush(QColor("#f4d9a6"))
    p.drawPath(tip)
    p.setBrush(QColor("#0b2a70"))
    p.setPen(Qt.PenStyle.NoPen)
    nib = QPainterPath()
    nib.moveTo(QPointF(-body_w / 2 - 58 * s, -20 * s))
    nib.lineTo(QPointF(-body_w / 2 - 90 * s, 0))
    nib.lineTo(QPointF(-body_w / 2 - 58 * s, 20 * s))
    nib.closeSubpath()
    p.drawPath(nib)
    p.restore()

    p.end()
    return img.convertToFormat(QImage.Format.Format_ARGB32)


def png_bytes(img: QImage) -> bytes:
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not img.save(buf, "PNG"):
        raise RuntimeError("PNG encoding failed")
    buf.close()
    return bytes(data.data())


def dib_bytes(img: QImage) -> bytes:
    """A 32-bit BGRA DIB for an .ico entry: BITMAPINFOHEADER, bottom-up pixels, 1-bit AND mask."""
    w, h = img.width(), img.height()
    argb = img.convertToFormat(QImage.Format.Format_ARGB32)
    header = struct.pack("<IiiHHIIiiII", 40, w, h * 2, 1, 32, 0, w * h * 4, 0, 0, 0, 0)
    rows = []
    for y in range(h - 1, -1, -1):
        row = bytearray()
        for x in range(w):
            c = argb.pixel(x, y)  # 0xAARRGGBB
            row += struct.pack("<I", c)  # little endian -> B G R A
        rows.append(bytes(row))
    mask_stride = ((w + 31) // 32) * 4
    mask = bytes(mask_stride * h)  # all zero: the alpha channel decides
    return header + b"".join(rows) + mask


def write_ico(path: Path, images: dict[int, QImage]) -> None:
    payloads = [
        (size, png_bytes(images[size]) if size >= 256 else dib_bytes(images[size]))
        for size in ICO_SIZES
    ]
    out = bytearray(struct.pack("<HHH", 0, 1, len(payloads)))
    offset = 6 + 16 * len(payloads)
    for size, data in payloads:
        dim = 0 if size >= 256 else size
        out += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    for _, data in payloads:
        out += data
    path.write_bytes(bytes(out))


def write_icns(path: Path, images: dict[int, QImage]) -> None:
    body = bytearray()
    for ostype, size in ICNS_TYPES:
        data = png_bytes(images[size])
        body += ostype.encode("ascii") + struct.pack(">I", len(data) + 8) + data
    path.write_bytes(b"icns" + struct.pack(">I", len(body) + 8) + bytes(body))


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    OUT.mkdir(parents=True, exist_ok=True)
    images = {size: paint(size) for size in PNG_SIZES}
    for size, img in images.items():
        (OUT / f"{NAME}-{size}.png").write_bytes(png_bytes(img))
    (OUT / f"{NAME}.png").write_bytes(png_bytes(images[512]))
    write_ico(OUT / f"{NAME}.ico", images)
    write_icns(OUT / f"{NAME}.icns", images)
    for f in sorted(OUT.glob(f"{NAME}*")):
        print(f"{f.relative_to(ROOT)}  {f.stat().st_size} bytes")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
