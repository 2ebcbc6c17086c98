"""Editing again, in the window: after someone took the lock over (the red lock banner) or in a
document opened read-only (the read-only banner), 편집 권한 가져오기 asks the question asked at
opening and takes the lock; when 편집 가능해지면 알려 주기 finds the page free, its notice offers
지금 편집하기. The unsaved text on screen stays, or is shown beside the current version on the
conflict screen when the page changed meanwhile (``EditSession.take_back``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QPushButton, QWidget

from modu_desktop.i18n import tr
from modu_desktop.ui.editing.drafts_controller import DraftsController, drafts_for
from modu_desktop.ui.kit.preedit import commit_preedit

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.ui.editing.editor import EditorPane
    from modu_desktop.ui.kit.banners import Banner
    from modu_desktop.ui.kit.context import AppContext
    from modu_desktop.ui.kit.operation import Operations


class RegainingWindow(Protocol):
    ctx: AppContext
    ops: Operations
    editor_pane: EditorPane
    drafts: DraftsController | None
    lock_banner: Banner
    readonly_banner: Banner
    notice: Banner

    @property
    def doc(self) -> EditSession | None: ...

    async def open_document(self, doc_id: str) -> bool: ...


class Regaining:
    def __init__(self, win: RegainingWindow, parent: QWidget, *, freed: SignalInstance) -> None:
        """``freed(doc_id, reason, channel)``: notify-when-free has just said a page is free."""
        self.win = win
        self.parent = parent
        self._free: str | None = None  # the document the notice says is free
        self.take_buttons: list[QPushButton] = []
        if not win.ctx.viewer:
            for banner in (win.lock_banner, win.readonly_banner):
                b = banner.add_button("takeEditingButton", tr("Take editing back"))
                b.clicked.connect(lambda: win.ops.run(self.take_back(), name="take-back"))
                self.take_buttons.append(b)
        self.edit_now_button = win.notice.add_button(
            "editNowButton", tr("Edit now"), per_message=True
        )
        self.edit_now_button.clicked.connect(lambda: win.ops.run(self.edit_now(), name="edit-now"))
        freed.connect(lambda doc_id, _reason, _channel: self.offer_edit_now(doc_id))

    async def take_back(self) -> bool:
        """편집 권한 가져오기: the open document editable here again, its unsaved text kept."""
        commit_preedit()
        s = self.win.doc
        if s is None or s.editable:
            return False
        pane = self.win.editor_pane
        await s.take_back(pane.text() if pane.is_modified() else None)
        return s.editable

    def offer_edit_now(self, doc_id: str) -> None:
        """The notice just said ``doc_id`` is free: it offers 지금 편집하기 with it."""
        s = self.win.doc
        if s is not None and s.doc_id == doc_id and s.editable:
            return  # already editing it here
        self._free = doc_id
        self.edit_now_button.show()

    async def edit_now(self) -> bool:
        """지금 편집하기: the free document taken back here (or opened, when another is shown)."""
        doc_id, self._free = self._free, None
        self.win.notice.hide()
        if doc_id is None:
            return False
        s = self.win.doc
        if s is not None and s.doc_id == doc_id:
            return s.editable or await self.take_back()
        return await self.win.open_document(doc_id)

    def editing_again(self) -> None:
        """The lock is ours again (taken back, or resumed after a pause): the editor takes
        typing, the banners that said otherwise go, typing is kept in a draft again."""
        win, s = self.win, self.win.doc
        if s is None or not s.editable:
            return
        win.editor_pane.set_read_only(False)
        win.lock_banner.hide()
        win.readonly_banner.hide()
        if win.drafts is None:
            win.drafts = drafts_for(win.ctx.workspace, s, self.parent)
