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

Wiring (main window): ``helper = EditorImageHelper(ImageUploader(ctx.client, base_url=…,
lang=ctx.lang), editor_pane.editor)``; connect ``helper.uploader.finished`` to the status bar /
a banner (``res.user_message(lang)``) and ``started`` to a busy indicator; a menu action
``Insert picture…`` → ``md = await pick_and_upload(uploader, parent)`` then insert ``md`` at the
cursor. The preview resolves ``/img/uploads/…`` like the other site images (the uploaded bytes
are also kept in ``uploader.recent`` by site path, for a resolver that wants them before the
next pull).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QEvent, QIODevice, QMimeData, QObject, Signal
from PySide6.QtGui import (
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QGuiApplication,
    QImage,
    QKeyEvent,
    QKeySequence,
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

from modu_desktop.core.images import (
    MAX_BYTES,
    ImageUpload,
    check_image,
    default_alt,
    upload_image,
)
from modu_desktop.core.ops import Text
from modu_desktop.ui.docops.ops_delete import OpDialog
from modu_desktop.ui.shell.asyncutil import run_dialog, spawn

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg")
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
        base_url: str = "/",
        lang: str = "en",
        max_bytes: int = MAX_BYTES,
    ) -> None:
        super().__init__(parent)
        self.client = client
        self.base_url = base_url
        self.lang = lang
        self.max_bytes = max_bytes
        self.busy = False
        self.recent: dict[str, bytes] = {}  # site path → bytes of pictures uploaded here

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
                self.client, data, name, alt=alt, base_url=self.base_url, max_bytes=self.max_bytes
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

    def handle_mime(self, mime: QMimeData, position: int) -> asyncio.Task[Any]:
        # Copy what we need now: the clipboard / drag data may be gone when the task runs.
        copy = QMimeData()
        if mime.hasUrls():
            copy.setUrls(mime.urls())
        if mime.hasImage():
            copy.setImageData(mime.imageData())
        task = spawn(self._upload_and_insert(copy, position), name="image-upload")
        self.tasks.append(task)
        return task

    async def _upload_and_insert(self, mime: QMimeData, position: int) -> list[ImageUpload]:
        # Track the insertion point through edits made while uploading.
        doc = self.editor.document()
        anchor = QTextCursor(doc)
        anchor.setPosition(max(0, min(position, doc.characterCount() - 1)))
        results = await self.uploader.upload_mime(mime)
        parts = [r.markdown for r in results if r.ok and r.markdown]
        if parts:
            insert_markdown(self.editor, anchor.position(), "\n".join(parts))
        return results


class ImagePickerDialog(OpDialog):
    """Choose a picture, set its alt text, upload; ``markdown`` is the text to insert."""

    def __init__(
        self, uploader: ImageUploader, parent: QWidget | None = None, *, path: str = ""
    ) -> None:
        super().__init__(parent, lang=uploader.lang)
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

            return spawn(nothing())
        return self.run_op(
            lambda: self.uploader.upload_file(path, alt),
            self.t("Uploading {name}…").format(name=Path(path).name),
        )

    def on_result(self, res: ImageUpload) -> None:
        if res.ok:
            self.markdown = res.markdown
        super().on_result(res)


async def pick_and_upload(
    uploader: ImageUploader, parent: QWidget | None = None, *, path: str = ""
) -> str | None:
    """The picker dialog; the Markdown to insert, or None if cancelled."""
    dlg = ImagePickerDialog(uploader, parent, path=path)
    await run_dialog(dlg)
    md = dlg.markdown
    dlg.deleteLater()
    return md
