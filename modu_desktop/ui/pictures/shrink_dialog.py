"""그림 줄이기: a picture larger than the site needs made smaller with Qt, then committed at its
own path (``library_source.LibrarySource.shrink`` over ``core/changes/pictures.shrink_picture``;
the original stays in 기록, the pages naming it are unchanged).

**Too large** is the upload's rule (``core/pictures/uploads.larger_than_needed``): a photo
whose longest side is over 2,000 px (the site's widest layout shows 1,860) or that weighs over
1 MB (a page opened on a phone waits for every byte). JPEG, PNG and WebP only: a GIF may move,
an SVG has no pixels. :func:`why_too_large` says which, in plain words; :func:`shrink_sides`
lists the longest sides offered (2,000 px first when it is larger, else a step down).

**Making it** (:func:`make_smaller`) runs in a worker thread (``QImage`` is reentrant): read
upright by its EXIF orientation, decoded straight to the smaller size where the format can,
scaled smoothly, written in its own format — JPEG and WebP at quality 85, PNG as PNG (its
transparency kept). The dialog shows before → after (pixels and file size) for the side
chosen; a copy that is not lighter is not offered. 취소 is the default button.
"""

from __future__ import annotations

import asyncio
import posixpath
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt, Signal
from PySide6.QtGui import QImageReader
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from modu_desktop.core.changes.outcome import ChangeOutcome
from modu_desktop.core.pictures.library import LibraryPicture
from modu_desktop.core.pictures.pixels import PixelSize
from modu_desktop.core.pictures.uploads import (
    SITE_BYTES,
    SITE_LONGEST_PX,
    larger_than_needed,
    size_text,
)
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.asyncutil import run_dialog_while_loading
from modu_desktop.ui.kit.change_outcome import landed, outcome_report
from modu_desktop.ui.kit.fit import fit_to_screen
from modu_desktop.ui.kit.op_dialog import OpDialog
from modu_desktop.ui.pictures.image_reading import read_at_most

if TYPE_CHECKING:
    from modu_desktop.ui.pictures.library_source import LibrarySource

__all__ = [
    "ShrinkPictureDialog",
    "make_smaller",
    "shrink_and_wait",
    "shrink_sides",
    "too_large",
    "why_too_large",
]

QUALITY = 85  # JPEG and WebP: no visible loss in a photo, a third of the bytes of 100
SIDES = (SITE_LONGEST_PX, 1600, 1200, 800)
_KINDS = {".jpg": "jpeg", ".jpeg": "jpeg", ".png": "png", ".webp": "webp"}


def picture_kind(path: str) -> str | None:
    return _KINDS.get(posixpath.splitext(path)[1].lower())


def too_large(picture: LibraryPicture, pixels: PixelSize | None) -> bool:
    """Whether the site would be better served by a smaller copy that can be made."""
    size = picture.size or 0
    w, h = (pixels.width, pixels.height) if pixels is not None else (0, 0)
    kind = picture_kind(picture.path)
    return larger_than_needed(kind, size, w, h) and bool(shrink_sides(pixels, size))


def shrink_sides(pixels: PixelSize | None, size: int) -> list[int]:
    """The longest sides offered, largest first (the first is the one proposed)."""
    if pixels is None:  # heavy, size not known yet: the usual limit, then steps down
        return list(SIDES) if size > SITE_BYTES else []
    longest = max(pixels.width, pixels.height)
    return [s for s in SIDES if s < longest]


def why_too_large(picture: LibraryPicture, pixels: PixelSize | None) -> list[str]:
    """Why the picture is larger than the site needs, one sentence per reason."""
    out = []
    if pixels is not None and max(pixels.width, pixels.height) > SITE_LONGEST_PX:
        out.append(
            tr(
                "{width}×{height} pixels: the widest page of the site shows pictures at most "
                "1,860 pixels wide, so the rest only makes the page slower to open.",
                width=pixels.width,
                height=pixels.height,
            )
        )
    if (picture.size or 0) > SITE_BYTES:
        out.append(
            tr(
                "{size}: a picture over 1 MB makes its page slow to open, on a phone most of all.",
                size=size_text(picture.size or 0),
            )
        )
    return out


@dataclass(frozen=True)
class Smaller:
    data: bytes
    width: int
    height: int


def make_smaller(data: bytes, longest: int) -> Smaller | None:
    """``data`` with its longest side at most ``longest`` px, in its own format (see the
    module docstring); None when no reader takes it. Safe in a worker thread."""
    buf = QBuffer()
    buf.setData(QByteArray(data))
    buf.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buf)
    fmt = bytes(reader.format().data()).decode("ascii", "replace").lower()
    image = read_at_most(reader, longest)
    buf.close()
    if image.isNull() or fmt not in ("jpeg", "png", "webp"):
        return None
    if max(image.width(), image.height()) > longest:
        image = image.scaled(
            longest,
            longest,
            Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
    out = QBuffer()
    out.open(QIODevice.OpenModeFlag.WriteOnly)
    quality = -1 if fmt == "png" else QUALITY
    if not image.save(out, fmt.upper(), quality):  # type: ignore[call-overload]
        return None
    return Smaller(bytes(out.data().data()), image.width(), image.height())


class ShrinkPictureDialog(OpDialog):
    """Making one picture smaller (see the module docstring). ``shrunk(ChangeOutcome)`` is
    emitted once it was sent."""

    shrunk = Signal(object)

    def __init__(
        self,
        source: LibrarySource,
        picture: LibraryPicture,
        pixels: PixelSize | None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("shrinkPictureDialog")
        self.setWindowTitle(tr("Make a picture smaller"))
        self.source, self.picture, self.pixels = source, picture, pixels
        self.original: bytes | None = None
        self.smaller: Smaller | None = None
        self.outcome: ChangeOutcome | None = None
        lay = QVBoxLayout(self)
        head = self._label("shrinkName", picture.name)
        font = head.font()
        font.setBold(True)
        head.setFont(font)
        lay.addWidget(head)
        why = why_too_large(picture, pixels)
        lay.addWidget(
            self._label(
                "shrinkWhy",
                "\n".join([tr("Larger than the site needs:"), *(f"• {w}" for w in why)]),
            )
        )
        form = QFormLayout()
        self.side = QComboBox()
        self.side.setObjectName("shrinkSide")
        self.side.setAccessibleName(tr("Longest side after making it smaller"))
        for side in shrink_sides(pixels, picture.size or 0):
            self.side.addItem(tr("{n} pixels", n=f"{side:,}"), side)
        self.side.currentIndexChanged.connect(lambda _i: self._remake())
        label = QLabel(tr("Longest &side:"))
        label.setBuddy(self.side)
        form.addRow(label, self.side)
        lay.addLayout(form)
        self.result_line = self._label("shrinkResult", tr("Making the smaller copy…"))
        lay.addWidget(self.result_line)
        lay.addWidget(
            self._label(
                "shrinkNote",
                tr(
                    "The pages that show it keep showing it, lighter. The original stays in "
                    "the history."
                ),
            )
        )
        lay.addStretch(1)
        self.add_status_widgets(lay)
        self.action, self.cancel = self.add_op_buttons(
            lay, tr("Make smaller"), "shrinkButton", default=False
        )
        self.action.setAutoDefault(False)
        self.action.setEnabled(False)
        self.cancel.setDefault(True)
        self.inputs = [self.side]
        fit_to_screen(self, 560, 380)

    def _label(self, name: str, text: str) -> QLabel:
        label = QLabel(text)
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        return label

    def before_words(self) -> str:
        px, size = self.pixels, size_text(self.picture.size or 0)
        return f"{px.width}×{px.height} · {size}" if px is not None else size

    async def load(self) -> Smaller | None:
        """Read the picture and make the smaller copy for the side proposed."""
        self.original = await self.source.picture_bytes(self.picture)
        return await self._make()

    def _remake(self) -> None:
        if self.original is not None:
            self.run_job(self._make(), name="picture-library.shrink.make")

    async def _make(self) -> Smaller | None:
        side, data = self.side.currentData(), self.original
        self.smaller = None
        self.action.setEnabled(False)
        if not isinstance(side, int) or data is None:
            return None
        self.result_line.setText(tr("Making the smaller copy…"))
        loop = asyncio.get_running_loop()
        made = await loop.run_in_executor(None, make_smaller, data, side)
        if side != self.side.currentData():  # another side was chosen meanwhile
            return None
        if made is None:
            self.result_line.setText(
                tr("This picture cannot be read, so it cannot be made smaller.")
            )
        elif len(made.data) >= len(data):
            self.result_line.setText(tr("Made smaller, this picture would not be any lighter."))
        else:
            self.smaller = made
            after = f"{made.width}×{made.height} · {size_text(len(made.data))}"
            self.result_line.setText(
                tr("Now {before} → smaller {after}", before=self.before_words(), after=after)
            )
            self.action.setEnabled(self.outcome is None)
        return self.smaller

    def start(self) -> asyncio.Task[Any]:
        made = self.smaller
        assert made is not None
        return self.run_op(
            lambda: self.source.shrink(self.picture, made.data, made.width),
            tr("Saving the smaller picture…"),
        )

    def on_result(self, res: Any) -> None:
        from modu_desktop.ui.pictures.library_source import NotSent

        if isinstance(res, NotSent):
            self.show_status(res.text(), "error")
            return
        outcome: ChangeOutcome = res
        self.show_status(*outcome_report(outcome, self.source.server_now()))
        if not landed(outcome):
            return
        self.outcome = outcome
        self.action.hide()
        self.side.setEnabled(False)
        self.cancel.setText(tr("Close"))
        self.cancel.setDefault(True)
        self.shrunk.emit(outcome)


async def shrink_and_wait(
    source: LibrarySource,
    picture: LibraryPicture,
    pixels: PixelSize | None,
    parent: QWidget | None = None,
) -> ChangeOutcome | None:
    """Show 그림 줄이기 (window-modal) and wait until it is closed: the outcome when the
    smaller picture was sent, None when nothing was."""
    dialog = ShrinkPictureDialog(source, picture, pixels, parent)
    await run_dialog_while_loading(dialog, dialog.load)
    return dialog.outcome
