"""Hosts the document operations (new, import, delete, move up/down, insert picture, the
picture library) in the main window. The dialogs and controllers live beside it
(``ui/docops/ops_*.py`` over ``core/docops/ops.py``) and in ``ui/pictures`` (over
``core/pictures``); this module only wires them to the window's menus, the list and the open
document. In viewer mode the actions that write stay hidden.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.docops.newdoc import NewDocRequest
from modu_desktop.core.docops.ops import DocOps, OpResult
from modu_desktop.core.documents.naming import encode_text
from modu_desktop.core.pictures.uploads import ImageUpload
from modu_desktop.i18n import tr
from modu_desktop.ui.docops import ops_delete, ops_import, ops_reorder
from modu_desktop.ui.editing.doc_dialogs import ask_new_document
from modu_desktop.ui.kit.changes import ChangeBus, Changes, Landed
from modu_desktop.ui.kit.shortcuts import bind
from modu_desktop.ui.pictures.dialog import pick_and_upload
from modu_desktop.ui.pictures.editor_drop import EditorImageHelper
from modu_desktop.ui.pictures.library_host import LibraryWindow, PictureLibraryEntry
from modu_desktop.ui.pictures.uploader import ImageUploader
from modu_desktop.ui.publish.landed_pages import WindowPages

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.core.locks.model import HeldLock
    from modu_desktop.core.pictures.mirror import RepoImageMirror
    from modu_desktop.ui.doclist.panel import DocListPanel
    from modu_desktop.ui.editing.editor import EditorPane
    from modu_desktop.ui.kit.context import AppContext
    from modu_desktop.ui.kit.operation import Operations

log = logging.getLogger(__name__)


class OpsWindow(LibraryWindow, Protocol):
    """What the document operations use of the window (and the picture library, which they
    host)."""

    ctx: AppContext
    ops: Operations
    changes: ChangeBus
    editor_pane: EditorPane
    doc_list: DocListPanel
    images: RepoImageMirror
    document_menu: QMenu

    @property
    def doc(self) -> EditSession | None: ...

    def addAction(self, action: QAction) -> None: ...  # noqa: N802 - Qt API

    def show_notice(self, text: str, kind: str = "info", topic: str | None = None) -> None: ...

    def resolve_notice(self, *topics: str) -> None: ...

    def lock_status(self) -> tuple[str, str]: ...

    def set_lock_status(self, text: str, kind: str = "info") -> None: ...

    async def refresh_list(self) -> bool: ...

    async def open_with_lock(self, doc_id: str, held: HeldLock) -> bool: ...

    async def forget_open_document(self) -> None: ...


class OpsHost(QObject):
    def __init__(self, win: OpsWindow, parent: QWidget) -> None:
        super().__init__(parent)
        self.win = win
        self.parent_widget = parent  # dialogs open over it
        self.available = not win.ctx.viewer  # viewer mode: no writes at all
        self.images_available = self.available
        self.ops: DocOps | None = None
        self.reorder: ops_reorder.ReorderController | None = None
        self.uploader: ImageUploader | None = None
        self.image_helper: EditorImageHelper | None = None
        self.actions: dict[str, QAction] = {}
        self.created_titles: dict[str, str] = {}  # pages made here the list may not show yet
        self._picker_open = False  # the picker dialog shows its own upload result
        self._status_before_upload: tuple[str, str] | None = None
        # viewers look at it too, change nothing; a rename that landed reaches the open page
        self.library = PictureLibraryEntry(win, self, follow=WindowPages(win))
        if not self.available:
            return
        win.changes.subscribe(self._changed)
        self.ops = DocOps(win.ctx.store, win.ctx.locks, win.ctx.login)
        self.reorder = ops_reorder.ReorderController(self.ops, self)
        self.reorder.finished.connect(self._moved)
        self.reorder.busy.connect(self._busy)
        self._place_reorder_bar()
        self.uploader = ImageUploader(
            win.ctx.client,
            self,
            listing=lambda: snap.images if (snap := win.ctx.store.snapshot) is not None else (),
            page=lambda: win.doc.path if win.doc is not None else None,
        )
        self.uploader.finished.connect(self._uploaded)
        self.uploader.started.connect(self._upload_started)
        self.image_helper = EditorImageHelper(self.uploader, win.editor_pane.editor)
        # the text cards' 그림 button: the same picker and upload as Document → 그림 넣기
        win.editor_pane.page_editor.picture_provider = lambda _card: win.ops.run(
            self.insert_picture()
        )

    def _place_reorder_bar(self) -> None:
        """▲ / ▼ under the list, for the page chosen in it (or the open one); what came of a
        move is said in the window's notice, as for the menu's."""
        assert self.reorder is not None
        self.win.doc_list.add_list_bar(ops_reorder.ReorderBar(self.reorder, self._selected))

    # ------------------------------------------------------------------ menus
    def build_menu(self) -> None:
        win = self.win
        menu = win.document_menu
        self.library.add_to(menu)
        win.doc_list.add_tool(self.library.button())
        if not (self.available or self.images_available):
            return
        menu.addSeparator()

        def add(key: str, text: str, shortcut: str | None, slot: Callable[[], object]) -> None:
            a = QAction(text, menu)
            a.setObjectName(key)
            if shortcut:
                bind(a, shortcut)
            a.triggered.connect(lambda _c=False: slot())
            win.addAction(a)
            menu.addAction(a)
            self.actions[key] = a

        if self.available:
            add(
                "newDocumentAction",
                tr("&New document…"),
                "new",
                lambda: win.ops.run(self.new_document()),
            )
            add(
                "importAction",
                tr("&Import Markdown files…"),
                None,
                lambda: win.ops.run(self.import_files()),
            )
            menu.addSeparator()
            add(
                "moveUpAction",
                tr("Move &up in the menu"),
                "moveUp",
                lambda: self.move("up"),
            )
            add(
                "moveDownAction",
                tr("Move &down in the menu"),
                "moveDown",
                lambda: self.move("down"),
            )
            menu.addSeparator()
            add(
                "deleteAction",
                tr("&Delete document…"),
                None,
                lambda: win.ops.run(self.delete()),
            )
        if self.images_available:
            menu.addSeparator()
            add(
                "insertPictureAction",
                tr("Insert &picture…"),
                "insertPicture",
                lambda: win.ops.run(self.insert_picture()),
            )

    def _changed(self, changes: Changes) -> None:
        if changes.open_doc:
            self.update_actions()

    def update_actions(self) -> None:
        d = self.win.doc
        pic = self.actions.get("insertPictureAction")
        if pic is not None:
            pic.setEnabled(bool(d and d.editable))

    def detach(self) -> None:
        """Before the window goes: unhook the picture helper from the editor (its event filter
        must not run while the editor is being destroyed)."""
        helper, self.image_helper = self.image_helper, None
        if helper is not None:
            with contextlib.suppress(RuntimeError):
                self.win.editor_pane.editor.removeEventFilter(helper)
            with contextlib.suppress(RuntimeError):
                helper.setParent(None)
                helper.deleteLater()

    # ------------------------------------------------------------------ operations
    def _selected(self) -> str | None:
        win = self.win
        return win.doc_list.selected_doc_id() or (win.doc.doc_id if win.doc else None)

    async def new_document(self) -> str | None:
        assert self.ops is not None
        res = await ops_import.new_document(self.ops, self.parent_widget)
        if res is None or not res.ok or not res.doc_id:
            return None
        await self.win.refresh_list()
        if res.held is not None:
            await self.win.open_with_lock(res.doc_id, res.held)
        return str(res.doc_id)

    async def create_from_text(self, from_doc: str, text: str) -> str | None:
        """Save ``text`` as a new page, not published, with the title, menu place and address
        the user chose (a different title and the next free place are proposed), the core's id
        rules, clash check and lock. Returns the new page's docId."""
        win = self.win
        snap = win.ctx.store.snapshot
        docs = snap.docs if snap is not None else []
        asked = await ask_new_document(self.parent_widget, docs, from_doc, text)
        if asked is None or self.ops is None:
            return None
        chosen, text = asked
        req = NewDocRequest(chosen.doc_id, chosen.title, chosen.position, verbatim=text)
        res = await self.ops.create(req, keep_lock=False)
        if not res.ok or res.doc_id is None:
            win.show_notice(
                tr(
                    "Could not create “{new}”: {msg} Your text is still here.",
                    new=chosen.title,
                    msg=res.user_message(),
                ),
                "error",
            )
            return None
        self.created_titles[res.doc_id] = chosen.title  # until the list shows it
        win.changes.publish(Changes(doc_list=True))
        return res.doc_id

    async def import_files(self, paths: list[str] | None = None) -> int:
        assert self.ops is not None
        results = await ops_import.import_files(self.ops, paths or [], self.parent_widget)
        if results:
            await self.win.refresh_list()
        return sum(1 for r in results.values() if r.ok)

    async def delete(self) -> bool:
        win = self.win
        assert self.ops is not None
        doc_id = self._selected()
        snap = win.ctx.store.snapshot
        summary = snap.doc(doc_id) if snap is not None and doc_id else None
        if summary is None:
            win.show_notice(tr("Select a document in the list first."), "info")
            return False
        open_doc = win.doc if win.doc is not None and win.doc.doc_id == doc_id else None
        held = open_doc.held if open_doc is not None else None
        res = await ops_delete.delete_document(self.ops, summary, self.parent_widget, held=held)
        if res is None or not res.ok:
            return False
        if open_doc is not None:
            await win.forget_open_document()  # the lock file went with the document
        await win.refresh_list()
        win.show_notice(res.user_message(), "info")
        return True

    def move(self, direction: str) -> None:
        doc_id = self._selected()
        if doc_id is None:
            self.win.show_notice(tr("Select a document in the list first."), "info")
            return
        assert self.reorder is not None
        self.win.ops.run(self.reorder.move(doc_id, direction))

    def _busy(self, busy: bool) -> None:
        for key in ("moveUpAction", "moveDownAction"):
            a = self.actions.get(key)
            if a is not None:
                a.setEnabled(not busy)

    def _moved(self, res: OpResult) -> None:
        win = self.win
        win.show_notice(res.user_message(), "info" if res.ok else "warning")
        if res.ok:
            doc = win.doc
            shas = (res.details or {}).get("shas") or {}
            positions = (res.details or {}).get("positions") or {}
            landed = None
            if doc is not None and doc.path in shas and doc.doc_id in positions:
                # Only sidebar_position changed on the server: carry it into our text and
                # build on the new version, so the next save neither conflicts nor undoes it.
                win.editor_pane.apply_field("sidebar_position", positions[doc.doc_id])
                text: str | None = win.editor_pane.text()
                if git_blob_sha(encode_text(text or "")) != shas[doc.path]:
                    text = None  # unsaved typing: it stays unsaved, now over the moved version
                landed = Landed(doc.doc_id, doc.path, shas[doc.path], text)
            win.changes.publish(Changes(doc_list=True, landed=landed))

    async def insert_picture(self) -> str | None:
        win = self.win
        if win.doc is None or not win.doc.editable or self.uploader is None:
            return None
        self._picker_open = True
        try:
            md = await pick_and_upload(
                self.uploader, self.parent_widget, choose_existing=self.library.choose
            )
        finally:
            self._picker_open = False
        if md:
            win.editor_pane.insert_markdown(md)
        return md

    def _upload_started(self, name: str) -> None:
        self._status_before_upload = self.win.lock_status()
        self.win.set_lock_status(tr("Uploading {name}…", name=name))

    def _uploaded(self, res: ImageUpload) -> None:
        """One upload, one message in one place: a success in the status bar (clearing an
        earlier upload error), a refusal in the picker dialog if it is open, else in the
        notice. Never the same text in two places."""
        win = self.win
        text = res.user_message()
        before, self._status_before_upload = self._status_before_upload, None
        if res.ok:
            win.set_lock_status(text, "ok")
            win.resolve_notice("upload")
            if self.uploader is not None:
                for site_path, data in dict(self.uploader.recent).items():
                    win.images.remember(site_path, data)
            return
        if before is not None:
            win.set_lock_status(*before)  # "Uploading…" is over; the lock state again
        if not self._picker_open:
            win.show_notice(text, "warning", topic="upload")
