"""What the window itself does when an operation changed something (``kit.changes``): the open
document builds on a version that landed on GitHub (its base sha, its draft, its unsaved mark),
that version's build is followed, the list is read again, the window's actions follow the open
document. And the open document's state on the board: the editor's side (clean, unsaved,
checking, saving, read-only) and "waiting to save" while its save waits on this computer."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Protocol

from modu_desktop.core.publish.site import document_page_url
from modu_desktop.core.publish.status import EditPhase, PublishBoard
from modu_desktop.core.saving.drafts import DraftKey
from modu_desktop.ui.kit.changes import Changes, Landed

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.ui.editing.drafts_controller import DraftsController
    from modu_desktop.ui.editing.editor import EditorPane
    from modu_desktop.ui.kit.context import AppContext
    from modu_desktop.ui.kit.operation import Operations
    from modu_desktop.ui.publish.deploy_status import DeployStatus
    from modu_desktop.ui.publish.wiring import Publishing


class FollowingWindow(Protocol):
    ctx: AppContext
    ops: Operations
    editor_pane: EditorPane
    drafts: DraftsController | None
    board: PublishBoard
    deploy: DeployStatus
    publishing: Publishing

    @property
    def doc(self) -> EditSession | None: ...

    def update_title(self) -> None: ...

    def update_actions(self) -> None: ...

    async def refresh_list(self) -> bool: ...


class Following:
    def __init__(self, win: FollowingWindow) -> None:
        self.win = win
        self.queued_text: str | None = None  # the open document's save waiting on this computer

    def changed(self, changes: Changes) -> None:
        if changes.landed is not None:
            self.landed(changes.landed)
        if changes.open_doc:
            self.win.update_actions()
        if changes.doc_list:
            self.win.ops.run(self.win.refresh_list())

    def landed(self, landed: Landed) -> None:
        """A version of a document is on GitHub: the open editor builds on it, or that
        document's draft of exactly that text goes; its build is followed like any save's."""
        win, s = self.win, self.win.doc
        if s is not None and s.path == landed.path:
            s.rebase(landed.sha)
            if win.drafts is not None and landed.text is None:
                win.drafts.rebase(s.base_sha)
            elif win.drafts is not None and landed.text is not None:
                win.drafts.committed(landed.text, landed.sha)
            if landed.text is not None and win.editor_pane.text() == landed.text:
                win.editor_pane.set_modified(False)
            if self.queued_text is not None and self.queued_text == landed.text:
                self.queued_text = None
            win.update_title()
        elif landed.text is not None and (drafts := win.ctx.workspace.drafts) is not None:
            t = win.ctx.workspace.target
            key = DraftKey(t.api_host, t.repo, t.branch, landed.doc_id)
            with contextlib.suppress(OSError):
                drafts.discard(key, only_if_text=landed.text)
        if landed.commit_sha:
            st = win.ctx.settings
            url = None
            if landed.text is not None:
                url = document_page_url(st.api_url, st.owner, st.name, landed.path, landed.text)
            win.deploy.watch(landed.doc_id, landed.commit_sha, url)
        self.sync_phase()

    def sync_phase(self) -> None:
        """The open document's editor side, into the board (the widgets then render it)."""
        win, s = self.win, self.win.doc
        if s is None:
            return
        pane = win.editor_pane
        phase = pane.phase()
        if not s.editable:
            phase = EditPhase.READ_ONLY
        elif (
            phase is EditPhase.UNSAVED
            and self.queued_text is not None
            and pane.text() == self.queued_text
        ):
            phase = EditPhase.QUEUED
        win.board.set_phase(s.doc_id, phase)
        win.publishing.render()  # the editor's own label may have been drawn meanwhile
