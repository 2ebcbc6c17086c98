"""Pictures dropped on or pasted into the raw editor: uploaded, and their Markdown inserted
where the cursor was when the upload started (the text typed meanwhile is kept). A refused or
failed upload inserts nothing and reports the reason through the uploader's ``finished``."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import QEvent, QMimeData, QObject
from PySide6.QtGui import (
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QPlainTextEdit,
    QTextEdit,
)

from modu_desktop.core.pictures.uploads import (
    ImageUpload,
    default_alt,
)
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.operation import operations_for
from modu_desktop.ui.pictures.uploader import IMAGE_SUFFIXES, ImageUploader, ShrinkOffer

_HANDLED = (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop, QEvent.Type.KeyPress)


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
