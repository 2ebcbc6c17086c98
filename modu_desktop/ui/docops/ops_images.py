"""Pictures into the text: drag-and-drop, paste, or a picker dialog; checked, uploaded, and the
Markdown ``![alt]({baseUrl}img/uploads/upload_….ext)`` inserted at the cursor.

* :class:`ImageUploader` — Qt-side controller over ``core.images.upload_image``: one upload at a
  time, ``started``/``finished`` signals for progress and the result; understands files,
  ``QMimeData`` (local file URLs or pasted image data, encoded as PNG) and raw bytes.
* :class:`EditorImageHelper` — an event filter for a ``QPlainTextEdit``/``QTextEdit``: picture
  files dropped on it and pictures pasted into it are uploaded and their Markdown inserted where
  the cursor was when the upload started (the text typed meanwhile is kept). A refused or failed
  upload inserts nothing and reports the reason through ``finished``.
* :class:`ImagePickerDialog` — "Insert picture…": choose a file (or drop one on the dialog),
  edit the alt text, Upload; on success ``markdown`` holds the text to insert; on failure the
  choice and the alt text stay.

Wiring (main window): ``helper = EditorImageHelper(ImageUploader(ctx.client),
editor_pane.editor)``; connect ``helper.uploader.finished`` to the status bar /
a banner (``res.user_message()``) and ``started`` to a busy indicator; a menu action
``Insert picture…`` → ``md = await pick_and_upload(uploader, parent)`` then insert ``md`` at the
cursor. The preview resolves ``/img/uploads/…`` like the other site images (the uploaded bytes
are also kept in ``uploader.recent`` by site path, for a resolver that wants them before the
next pull).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QEvent, QIODevice, QMimeData, QObject, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QGuiApplication,
    QImage,
    QImageIOHandler,
    QImageReader,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.docops.images import (
    MAX_BYTES,
    SHRINKABLE_KINDS,
    SITE_LONGEST_PX,
    ImageUpload,
    check_image,
    default_alt,
    larger_than_needed,
    size_text,
    upload_image,
)
from modu_desktop.core.docops.ops import Text
from modu_desktop.i18n import tr
from modu_desktop.ui.docops.ops_delete import OpDialog
from modu_desktop.ui.kit.asyncutil import run_dialog
from modu_desktop.ui.kit.operation import operations_for

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
    reader = QImageReader(str(path))
    reader.setAutoTransform(True)
    if QImageReader.allocationLimit() < 1024:
        QImageReader.setAllocationLimit(1024)  # MB; a 50-megapixel photo needs ~200
    size = reader.size()
    if size.isValid() and max(size.width(), size.height()) > longest:
        # decode straight to the smaller size (JPEG decoders do this cheaply)
        scale = longest / max(size.width(), size.height())
        reader.setScaledSize(
            QSize(max(1, round(size.width() * scale)), max(1, round(size.height() * scale)))
        )
    image = reader.read()
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


_HANDLED = (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop, QEvent.Type.KeyPress)


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
    ) -> None:
        super().__init__(parent)
        self.client = client
        self.max_bytes = max_bytes
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
            res = await upload_image(self.client, data, name, alt=alt, max_bytes=self.max_bytes)
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


def mime_has_picture(mime: QMimeData) -> bool:
    if mime.hasImage():
        return True
    if mime.hasUrls():
        return any(
            u.isLocalFile() and u.toLocalFile().lower().endswith(IMAGE_SUFFIXES)
            for u in mime.urls()
        )
    return False


def insert_markdown(editor: QPlainTextEdit | QTextEdit, position: int, markdown: str) -> None:
    """Insert at ``position`` (clamped), as one undo step, and put the cursor after it."""
    cursor = editor.textCursor()
    end = len(editor.toPlainText())
    cursor.setPosition(max(0, min(position, end)))
    cursor.beginEditBlock()
    cursor.insertText(markdown)
    cursor.endEditBlock()
    editor.setTextCursor(cursor)


class EditorImageHelper(QObject):
    """Drop / paste pictures into an editor. ``tasks`` keeps the running uploads."""

    def __init__(
        self,
        uploader: ImageUploader,
        editor: QPlainTextEdit | QTextEdit,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent or editor)
        self.uploader = uploader
        self.editor = editor
        self.tasks: list[asyncio.Task[Any]] = []
        editor.installEventFilter(self)
        editor.viewport().installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        # Look at the event type before touching the editor: while the editor is being
        # destroyed its children still send events here, and the editor is half gone.
        if event.type() not in _HANDLED or self.editor.isReadOnly():
            return False
        if isinstance(event, (QDragEnterEvent, QDragMoveEvent)):
            mime = event.mimeData()
            if mime is not None and mime_has_picture(mime):
                event.acceptProposedAction()
                return True
        elif isinstance(event, QDropEvent):
            mime = event.mimeData()
            if mime is not None and mime_has_picture(mime):
                pos = self.editor.cursorForPosition(event.position().toPoint()).position()
                event.acceptProposedAction()
                self.handle_mime(mime, pos)
                return True
        elif (
            isinstance(event, QKeyEvent)
            and obj is self.editor
            and event.type() == QEvent.Type.KeyPress
            and event.matches(QKeySequence.StandardKey.Paste)
        ):
            mime = QGuiApplication.clipboard().mimeData()
            if mime is not None and mime_has_picture(mime):
                self.handle_mime(mime, self.editor.textCursor().position())
                return True
        return False

    async def _offer_shrink(self, offer: ShrinkOffer) -> str | None:
        """Ask: the smaller copy ("autoShrink", the default), the original ("original", when
        allowed) or nothing (None)."""
        from PySide6.QtWidgets import QMessageBox

        from modu_desktop.ui.kit.asyncutil import ask

        buttons = [
            ("autoShrink", QMessageBox.ButtonRole.AcceptRole, tr("Make it smaller and upload"))
        ]
        if offer.original_allowed:
            buttons.append(
                ("original", QMessageBox.ButtonRole.ActionRole, tr("Upload it as it is"))
            )
        buttons.append(("cancel", QMessageBox.ButtonRole.RejectRole, tr("Cancel")))
        choice = await ask(
            self.editor.window(),
            tr("Picture larger than the site needs"),
            tr("{name} is larger than the site needs.", name=offer.path.name),
            buttons,
            object_name="shrinkQuestion",
            default="autoShrink",
            informative=offer.describe()
            + " "
            + tr("A smaller picture loads faster for visitors, often on a phone."),
        )
        return None if choice in (None, "cancel") else choice

    def handle_mime(self, mime: QMimeData, position: int) -> asyncio.Task[Any]:
        # Copy what we need now: the clipboard / drag data may be gone when the task runs.
        copy = QMimeData()
        if mime.hasUrls():
            copy.setUrls(mime.urls())
        if mime.hasImage():
            copy.setImageData(mime.imageData())
        task = operations_for(self.editor).run(
            self._upload_and_insert(copy, position), name="image-upload"
        )
        self.tasks.append(task)
        return task

    async def _upload_and_insert(self, mime: QMimeData, position: int) -> list[ImageUpload]:
        # Track the insertion point through edits made while uploading.
        doc = self.editor.document()
        anchor = QTextCursor(doc)
        anchor.setPosition(max(0, min(position, doc.characterCount() - 1)))
        files = [u.toLocalFile() for u in mime.urls() if u.isLocalFile()] if mime.hasUrls() else []
        if not files:
            results = await self.uploader.upload_mime(mime)
        else:
            results = []
            for f in files:
                offer = await self.uploader.shrink_offer(f)
                if offer is None:
                    results.append(await self.uploader.upload_file(f))
                    continue
                choice = await self._offer_shrink(offer)
                if choice == "autoShrink":
                    alt = default_alt(offer.path.name)
                    results.append(
                        await self.uploader.upload_bytes(offer.data, offer.upload_name, alt)
                    )
                elif choice == "original":
                    results.append(await self.uploader.upload_file(f))
        parts = [r.markdown for r in results if r.ok and r.markdown]
        if parts:
            insert_markdown(self.editor, anchor.position(), "\n".join(parts))
        return results


class ImagePickerDialog(OpDialog):
    """Choose a picture, set its alt text, upload; ``markdown`` is the text to insert."""

    def __init__(
        self, uploader: ImageUploader, parent: QWidget | None = None, *, path: str = ""
    ) -> None:
        super().__init__(parent)
        self.setObjectName("opsImageDialog")
        self.uploader = uploader
        self.markdown: str | None = None
        self.setWindowTitle(self.t("Insert picture"))
        self.setAccessibleName(self.t("Insert picture"))
        self.setAcceptDrops(True)
        lay = QVBoxLayout(self)
        hint = QLabel(
            self.t(
                "PNG, JPEG, GIF, WebP or SVG, up to {mb} MB. You can also drop a file here."
            ).format(mb=uploader.max_bytes // (1024 * 1024))
        )
        hint.setWordWrap(True)
        lay.addWidget(hint)
        form = QFormLayout()
        row = QHBoxLayout()
        self.path_edit = QLineEdit(path)
        self.path_edit.setObjectName("opsImagePathEdit")
        browse = QPushButton(self.t("&Browse…"))
        browse.setObjectName("opsBrowseButton")
        browse.clicked.connect(self._browse)
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        form.addRow(self.t("&File:"), row)
        self.alt_edit = QLineEdit(default_alt(path) if path else "")
        self.alt_edit.setObjectName("opsAltEdit")
        self.alt_edit.setPlaceholderText(self.t("What the picture shows (for screen readers)"))
        form.addRow(self.t("&Description:"), self.alt_edit)
        lay.addLayout(form)
        self.add_status_widgets(lay)
        self.shrink_button = QPushButton(tr("Make it smaller and upload"))
        self.shrink_button.setObjectName("autoShrinkButton")
        self.shrink_button.setAccessibleName(
            tr("Make the photo smaller (2000 px, JPEG) and upload it")
        )
        self.shrink_button.hide()
        self.shrink_button.clicked.connect(self.start_shrunk)
        self.original_button = QPushButton(tr("Upload it as it is"))
        self.original_button.setObjectName("uploadOriginalButton")
        self.original_button.hide()
        self.original_button.clicked.connect(self.start_original)
        row = QHBoxLayout()
        row.addWidget(self.shrink_button)
        row.addWidget(self.original_button)
        row.addStretch(1)
        lay.addLayout(row)
        self.offer: ShrinkOffer | None = None  # the smaller copy offered for this file
        self.upload_button, self.cancel_button = self.add_op_buttons(
            lay, "&Upload and insert", "opsUploadButton"
        )
        self.inputs = [
            self.path_edit,
            browse,
            self.alt_edit,
            self.upload_button,
            self.cancel_button,
        ]
        self.path_edit.textChanged.connect(self._path_changed)

    def _path_changed(self, text: str) -> None:
        self.shrink_button.hide()
        self.original_button.hide()
        self.offer = None
        if not self.alt_edit.isModified():
            self.alt_edit.setText(default_alt(text) if text else "")

    def _browse(self) -> None:
        f, _ = QFileDialog.getOpenFileName(
            self,
            self.t("Insert picture"),
            "",
            self.t("Pictures (*.png *.jpg *.jpeg *.gif *.webp *.svg)"),
        )
        if f:
            self.path_edit.setText(f)

    def dragEnterEvent(self, event: Any) -> None:  # noqa: N802 (Qt API)
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: Any) -> None:  # noqa: N802 (Qt API)
        urls = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if urls:
            self.path_edit.setText(urls[0])
            event.acceptProposedAction()

    def start(self) -> asyncio.Task[Any]:
        path = self.path_edit.text().strip()
        alt = self.alt_edit.text()
        if not path:
            self.show_status(self.t("Choose a picture first."), "error")

            async def nothing() -> None:
                return None

            return self.run_job(nothing(), name="image-upload.nothing")
        return self.run_op(
            lambda: self._upload_or_offer(path, alt),
            self.t("Uploading {name}…").format(name=Path(path).name),
        )

    async def _upload_or_offer(self, path: str, alt: str) -> ImageUpload | None:
        """Upload, unless the photo is larger than the site needs: then None, and the offer
        (before, after, two buttons) is shown instead."""
        self.offer = await self.uploader.shrink_offer(path)
        if self.offer is not None:
            return None
        return await self.uploader.upload_file(path, alt)

    def start_shrunk(self) -> asyncio.Task[Any]:
        path = self.path_edit.text().strip()
        alt = self.alt_edit.text().strip() or default_alt(path)
        self.shrink_button.hide()
        self.original_button.hide()
        offer = self.offer
        if offer is not None and str(offer.path) == str(Path(path)):
            return self.run_op(
                lambda: self.uploader.upload_bytes(offer.data, offer.upload_name, alt),
                tr("Uploading the smaller copy of {name}…", name=offer.path.name),
            )
        return self.run_op(
            lambda: self.uploader.upload_file_shrunk(path, alt),
            tr("Making {name} smaller and uploading it…", name=Path(path).name),
        )

    def start_original(self) -> asyncio.Task[Any]:
        path = self.path_edit.text().strip()
        alt = self.alt_edit.text()
        self.shrink_button.hide()
        self.original_button.hide()
        return self.run_op(
            lambda: self.uploader.upload_file(path, alt),
            self.t("Uploading {name}…").format(name=Path(path).name),
        )

    def on_result(self, res: ImageUpload | None) -> None:
        if res is None and self.offer is not None:  # larger than the site needs: ask
            self.show_status(
                tr("{name} is larger than the site needs.", name=self.offer.path.name)
                + " "
                + self.offer.describe(),
                "warning",
            )
            self.shrink_button.show()
            self.original_button.setVisible(self.offer.original_allowed)
            self.shrink_button.setDefault(True)
            self.shrink_button.setFocus()
            return
        if res is None:
            return
        if res.ok:
            self.markdown = res.markdown
        self.show_outcome(res)
        if is_shrinkable_refusal(res, self.uploader.max_bytes):
            size = res.check.size if res.check is not None else 0
            self.show_status(
                tr(
                    "{name} is {size}; pictures can be at most {mb} MB. The app can make it "
                    "smaller for you (longest side 2000 px, JPEG) and upload that.",
                    name=Path(self.path_edit.text().strip()).name,
                    size=f"{size / (1024 * 1024):.1f} MB",
                    mb=self.uploader.max_bytes // (1024 * 1024),
                ),
                "warning",
            )
            self.shrink_button.show()
            self.shrink_button.setDefault(True)
            self.shrink_button.setFocus()


async def pick_and_upload(
    uploader: ImageUploader, parent: QWidget | None = None, *, path: str = ""
) -> str | None:
    """The picker dialog; the Markdown to insert, or None if cancelled."""
    dlg = ImagePickerDialog(uploader, parent, path=path)
    await run_dialog(dlg)
    md = dlg.markdown
    dlg.deleteLater()
    return md
