"""Uploading pictures from the window: one upload at a time, photos made smaller on request.

* :class:`ImageUploader` — the Qt-side controller over
  :func:`~modu_desktop.core.pictures.uploads.upload_image`: ``started``/``finished`` signals
  for progress and the result; files, raw bytes and ``QMimeData`` (local file URLs or pasted
  image data, encoded as PNG). It hands the upload the repository's last listing, so a picture
  already on the site is offered again instead of uploaded twice, and a new one gets a free name.
* :func:`shrink_picture` / :class:`ShrinkOffer` — a photo larger than the site needs, made
  smaller with Qt's own image classes in a worker thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QIODevice, QMimeData, QObject, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QImage,
    QImageIOHandler,
    QImageReader,
    QPainter,
)

from modu_desktop.core.pictures.uploads import (
    MAX_BYTES,
    SHRINKABLE_KINDS,
    SITE_LONGEST_PX,
    ImageUpload,
    RepoFile,
    check_image,
    default_alt,
    larger_than_needed,
    size_text,
    upload_image,
)
from modu_desktop.core.text import Text
from modu_desktop.i18n import tr
from modu_desktop.ui.pictures.image_reading import read_at_most

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg")
SHRINK_LONGEST_PX = SITE_LONGEST_PX
SHRINK_QUALITY = 85
SHRINKABLE = SHRINKABLE_KINDS


@dataclass(frozen=True)
class ShrinkOffer:
    """A photo larger than the site needs, and the smaller copy the app made of it."""

    path: Path
    before_bytes: int
    before_px: tuple[int, int]
    data: bytes  # the smaller copy (JPEG)
    after_px: tuple[int, int]
    original_allowed: bool  # the original is under the upload limit

    @property
    def upload_name(self) -> str:
        return f"{self.path.stem}.jpg"

    def describe(self) -> str:
        """Before and after, in one sentence."""
        (w, h), (w2, h2) = self.before_px, self.after_px
        return tr(
            "Now {w}×{h} px, {size}; made smaller {w2}×{h2} px, {size2}.",
            w=w,
            h=h,
            size=size_text(self.before_bytes),
            w2=w2,
            h2=h2,
            size2=size_text(len(self.data)),
        )


def picture_size(source: str | Path | bytes) -> tuple[int, int] | None:
    """(width, height) as the picture is shown (EXIF orientation applied), from its header."""
    if isinstance(source, bytes):
        image = QImage()
        if not image.loadFromData(source):
            return None
        return image.width(), image.height()
    reader = QImageReader(str(source))
    reader.setAutoTransform(True)
    size = reader.size()
    if not size.isValid():
        return None
    w, h = size.width(), size.height()
    if reader.transformation() & QImageIOHandler.Transformation.TransformationRotate90:
        w, h = h, w
    return w, h


class ShrinkError(Exception):
    """The picture could not be read to make it smaller."""


def shrink_picture(
    path: str | Path,
    *,
    longest: int = SHRINK_LONGEST_PX,
    quality: int = SHRINK_QUALITY,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """A JPEG of the picture at ``path`` with its longest side at most ``longest`` px
    (turned upright by its EXIF orientation; transparency on white), at ``quality``; lower
    quality, then fewer pixels, until it fits ``max_bytes``. Qt's own image classes only.
    Safe to run in a worker thread (QImage is reentrant)."""
    if QImageReader.allocationLimit() < 1024:
        QImageReader.setAllocationLimit(1024)  # MB; a 50-megapixel photo needs ~200
    reader = QImageReader(str(path))
    image = read_at_most(reader, longest)
    if image.isNull():
        raise ShrinkError(reader.errorString())
    attempts = [(longest, quality), (longest, 75), (int(longest * 0.8), 75), (1200, 70)]
    for side, q in attempts:
        img = image
        if max(img.width(), img.height()) > side:
            img = img.scaled(
                side,
                side,
                Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        if img.hasAlphaChannel():
            flat = QImage(img.size(), QImage.Format.Format_RGB32)
            flat.fill(QColor("#ffffff"))
            painter = QPainter(flat)
            painter.drawImage(0, 0, img)
            painter.end()
            img = flat
        buf = QBuffer()
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        img.save(buf, "JPEG", q)  # type: ignore[call-overload]
        data = bytes(buf.data().data())
        buf.close()
        if len(data) <= max_bytes:
            return data
    raise ShrinkError("still too large")


def is_shrinkable_refusal(res: ImageUpload, max_bytes: int = MAX_BYTES) -> bool:
    """A photo refused only for its size: offer "자동으로 줄여서 올리기"."""
    check = res.check
    return not res.ok and check is not None and check.kind in SHRINKABLE and check.size > max_bytes


def _image_bytes(image: QImage) -> bytes:
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, "PNG")  # type: ignore[call-overload]  # the stubs say bytes; only str works
    data = bytes(buf.data().data())
    buf.close()
    return data


class ImageUploader(QObject):
    """Uploads one picture at a time; emits ``started(name)`` and ``finished(ImageUpload)``."""

    started = Signal(str)
    finished = Signal(object)

    def __init__(
        self,
        client: Any,
        parent: QObject | None = None,
        *,
        max_bytes: int = MAX_BYTES,
        listing: Callable[[], Iterable[RepoFile]] = tuple,
        page: Callable[[], str | None] = lambda: None,
    ) -> None:
        super().__init__(parent)
        self.client = client
        self.max_bytes = max_bytes
        self.listing = listing  # the repository's files as last listed
        self.page = page  # the open page's path: where a picture already there is written from
        self.busy = False
        self.recent: dict[str, bytes] = {}  # address in the document → bytes uploaded here

    def _refusal(self, text: Text) -> ImageUpload:
        res = ImageUpload(False, text)
        self.finished.emit(res)
        return res

    async def upload_bytes(self, data: bytes, name: str, alt: str | None = None) -> ImageUpload:
        if self.busy:
            return self._refusal(
                Text("Another picture is still uploading; try again when it is done.")
            )
        check = check_image(data, name, max_bytes=self.max_bytes)
        if not check.ok:  # refused before any request
            res = ImageUpload(False, check.text, check)
            self.finished.emit(res)
            return res
        self.busy = True
        self.started.emit(name)
        try:
            res = await upload_image(
                self.client,
                data,
                name,
                alt=alt,
                max_bytes=self.max_bytes,
                existing=self.listing(),
                doc_path=self.page() or "docs/page.md",
            )
        finally:
            self.busy = False
        if res.ok and res.site_url:
            self.recent[res.site_url] = data
        self.finished.emit(res)
        return res

    async def upload_file(self, path: str | Path, alt: str | None = None) -> ImageUpload:
        p = Path(path)
        try:
            size = p.stat().st_size
            if size > self.max_bytes:
                with p.open("rb") as fh:
                    head = fh.read(4096)
                check = check_image(head, p.name, max_bytes=self.max_bytes, total_size=size)
                res = ImageUpload(False, check.text, check)
                self.finished.emit(res)
                return res
            data = p.read_bytes()
        except OSError as exc:
            return self._refusal(
                Text("Could not read {name}: {v}.", name=p.name, v=exc.strerror or exc)
            )
        return await self.upload_bytes(data, p.name, alt)

    async def shrink_offer(self, path: str | Path) -> ShrinkOffer | None:
        """The smaller copy to offer when the photo at ``path`` is larger than the site needs
        (made in a worker thread); None when it is not, or when it cannot be made smaller."""
        p = Path(path)
        try:
            size = p.stat().st_size
            with p.open("rb") as fh:
                head = fh.read(4096)
        except OSError:
            return None
        check = check_image(head, p.name, max_bytes=max(self.max_bytes, size), total_size=size)
        dims = picture_size(p)
        if dims is None or not larger_than_needed(check.kind, size, *dims):
            return None
        try:
            data = await asyncio.get_running_loop().run_in_executor(
                None, lambda: shrink_picture(p, max_bytes=self.max_bytes)
            )
        except ShrinkError:
            return None
        after = picture_size(data) or dims
        if len(data) >= size and max(after) >= max(dims):
            return None  # no smaller after all
        return ShrinkOffer(p, size, dims, data, after, size <= self.max_bytes)

    async def upload_file_shrunk(self, path: str | Path, alt: str | None = None) -> ImageUpload:
        """Make the photo smaller (longest side 2000 px, JPEG ~85) in a worker thread, then
        upload it as ``<name>.jpg``; the alt text defaults to the original file name."""
        p = Path(path)
        try:
            data = await asyncio.get_running_loop().run_in_executor(
                None, lambda: shrink_picture(p, max_bytes=self.max_bytes)
            )
        except ShrinkError:
            return self._refusal(
                Text(
                    "{name} could not be made smaller; please make it smaller yourself.",
                    name=p.name,
                )
            )
        alt_text = alt if alt and alt.strip() else default_alt(p.name)
        return await self.upload_bytes(data, f"{p.stem}.jpg", alt_text)

    async def upload_mime(self, mime: QMimeData) -> list[ImageUpload]:
        """Local files first (each one checked: a dropped .exe is refused with its reason);
        otherwise pasted image data as PNG."""
        out: list[ImageUpload] = []
        files = [u.toLocalFile() for u in mime.urls() if u.isLocalFile()] if mime.hasUrls() else []
        if files:
            for f in files:
                out.append(await self.upload_file(f))
            return out
        if mime.hasImage():
            image = QImage(mime.imageData())
            if not image.isNull():
                out.append(await self.upload_bytes(_image_bytes(image), "pasted.png", alt=""))
        return out
