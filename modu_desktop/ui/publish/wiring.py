"""The window's publishing hooks (issue 16): the check before a save, the failed-deploy notice
with "restore the previous version", and 기록 (the document's history) in a dock.

:class:`Publishing` is made once by the window; the window calls :meth:`check` at the top of
its save, gives :meth:`deploy_failed` to the deploy watcher and nothing else. The restore
writes go through ``core.history`` (the lock checked first, the sha last seen sent).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from modu_desktop.core.documents.history import (
    DocHistory,
    RestoreRefused,
    Version,
    restore_previous,
    restore_version,
)
from modu_desktop.core.documents.store import SaveResult
from modu_desktop.core.github.types import WorkflowRun
from modu_desktop.core.publish.check import check_text, tree_paths
from modu_desktop.core.publish.failure import deploy_failure
from modu_desktop.i18n import tr
from modu_desktop.ui.publish.history_panel import HistoryPanel, when
from modu_desktop.ui.publish.publish_check_panel import check_before_save, replace_editor_text
from modu_desktop.ui.shell.operation import error_text

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.ui.shell.window_api import PublishApi

log = logging.getLogger(__name__)


class Publishing(QObject):
    def __init__(self, win: PublishApi, parent: QWidget) -> None:
        super().__init__(parent)
        self.win = win
        self.parent_widget = parent
        self._history: DocHistory | None = None  # one per window: its caches live as long
        self._failed: tuple[str, str] | None = None  # (doc_id, the commit whose deploy failed)
        self.history_panel: HistoryPanel | None = None
        self.history_dock: QDockWidget | None = None
        notice = win.deploy_notice
        notice.hide()
        notice.restoreRequested.connect(lambda: win.ops.run(self.restore_previous()))
        notice.openRunRequested.connect(lambda url: QDesktopServices.openUrl(url))
        win.editor_pane.textEdited.connect(self._text_changed)
        self.history_action = QAction(tr("&History…"), parent)
        self.history_action.setObjectName("historyAction")
        self.history_action.triggered.connect(lambda _c=False: win.ops.run(self.open_history()))
        win.addAction(self.history_action)

    @property
    def history(self) -> DocHistory:
        if self._history is None:
            self._history = DocHistory(self.win.ctx.client, self.win.ctx.store)
        return self._history

    def update_actions(self) -> None:
        self.history_action.setEnabled(self.win.doc is not None)
        s = self.win.doc
        if self._failed is not None and (s is None or s.doc_id != self._failed[0]):
            self._failed = None
            self.win.deploy_notice.hide()
        self._restore_allowed()

    # -- before a save -----------------------------------------------------------------------

    async def check(self, s: EditSession, text: str) -> str | None:
        """The text to save (as typed, or fixed in the check panel), or None: do not save."""
        try:
            paths: set[str] | None = await tree_paths(
                self.win.ctx.client, self.win.ctx.settings.branch
            )
        except Exception:
            paths = None  # the check then skips the picture-path rule
        before: str | None = None
        try:  # the text as last saved (blob cache), to warn only about new surprises
            before = (await self.win.ctx.store.read_blob(s.base_sha)).decode("utf-8")
        except Exception:
            before = None
        return await check_before_save(
            self.parent_widget,
            text,
            path=s.path,
            repo_paths=paths,
            title=s.title,
            editor=self.win.editor_pane.editor,
            before=before,
        )

    # -- a failed deploy ---------------------------------------------------------------------

    def deploy_failed(self, commit_sha: str, run: WorkflowRun) -> None:
        s = self.win.doc
        if s is None:
            return
        self._failed = (s.doc_id, commit_sha)
        self.win.ops.run(self._show_failure(s, run), name="deploy-failure")

    async def _show_failure(self, s: EditSession, run: WorkflowRun) -> None:
        failure = await deploy_failure(self.win.ctx.client, run)
        if self.win.doc is not s:
            return
        problems = check_text(self.win.editor_pane.text(), path=s.path).findings
        notice = self.win.deploy_notice
        notice.show_failure(failure, doc_title=s.title, problems=problems)
        self._restore_allowed()
        notice.show()

    def _text_changed(self) -> None:
        self._restore_allowed()
        dock, panel = self.history_dock, self.history_panel
        if panel is not None and dock is not None and dock.isVisible():
            panel.set_current_text(self.win.editor_pane.text())

    def _restore_allowed(self) -> None:
        """Restore is disabled while the editor has unsaved changes (they would be lost)."""
        s = self.win.doc
        ok = s is not None and s.editable and not self.win.editor_pane.is_modified()
        self.win.deploy_notice.restore_button.setEnabled(ok)

    async def _lock_ok(self) -> str | None:
        s = self.win.doc
        if s is None or s.held is None or not s.editable:
            return tr("You do not hold the lock on this document.")
        ver = await self.win.ctx.locks.verify(s.held)
        return None if ver.ok else ver.reason

    async def restore_previous(self) -> bool:
        s, failed = self.win.doc, self._failed
        if s is None or failed is None or failed[0] != s.doc_id:
            return False
        if self.win.editor_pane.is_modified():
            return False
        notice = self.win.deploy_notice
        notice.restore_started()
        try:
            res = await restore_previous(
                self.win.ctx.store,
                self.history,
                s.path,
                failed[1],
                s.base_sha,
                self.win.ctx.login,
                lock_ok=self._lock_ok,
            )
        except Exception as exc:
            notice.restore_done(False, error_text(exc))
            return False
        if not isinstance(res, SaveResult):
            notice.restore_done(False, _refusal(res))
            return False
        text = (await self.win.ctx.store.read_blob(res.sha)).decode("utf-8")
        self._restored(s, res, text)
        self._failed = None
        notice.restore_done(True)
        return True

    # -- 기록 --------------------------------------------------------------------------------

    async def open_history(self) -> None:
        s = self.win.doc
        if s is None:
            return
        if self.history_panel is None:
            self.history_panel = HistoryPanel()
            self.history_panel.restoreRequested.connect(
                lambda v, t: self.win.ops.run(self.restore_version(v, t))
            )
            dock = QDockWidget(tr("History"), self.parent_widget)
            dock.setObjectName("historyDock")
            dock.setWidget(self.history_panel)
            # Two columns of text need room: beside the editor in a wide window, under it (the
            # whole width) in a narrow one, so the window never grows past the screen.
            main = self.parent_widget.window()
            wide = main.width() >= 1200
            area = Qt.DockWidgetArea.RightDockWidgetArea
            if not wide:
                area = Qt.DockWidgetArea.BottomDockWidgetArea
            self.win.addDockWidget(area, dock)
            if isinstance(main, QMainWindow):
                size, along = (main.width() // 2, Qt.Orientation.Horizontal)
                if not wide:
                    size, along = (main.height() * 11 // 20, Qt.Orientation.Vertical)
                main.resizeDocks([dock], [size], along)
            self.history_dock = dock
        assert self.history_dock is not None
        self.history_dock.show()
        self.history_dock.raise_()
        await self.history_panel.load(
            self.history, s.path, self.win.editor_pane.text(), title=s.title
        )

    async def restore_version(self, version: Version, text: str) -> bool:
        s = self.win.doc
        if s is None or not s.editable:
            return False
        try:
            res = await restore_version(
                self.win.ctx.store,
                s.doc_id,
                version,
                text,
                s.base_sha,
                self.win.ctx.login,
                lock_ok=self._lock_ok,
            )
        except Exception as exc:
            self.win.show_notice(error_text(exc), "error")
            return False
        if not isinstance(res, SaveResult):
            self.win.show_notice(_refusal(res), "error")
            return False
        self._restored(s, res, text)
        self.win.show_notice(
            tr("The version of {date} is the current text now.", date=when(version)), "info"
        )
        if self.history_panel is not None:
            await self.history_panel.load(self.history, s.path, text, title=s.title)
        return True

    def _restored(self, s: EditSession, res: SaveResult, text: str | None) -> None:
        """A restore landed: the editor shows it (one undo step), the session builds on it,
        and its deploy is watched like a save's."""
        if text is not None:
            replace_editor_text(self.win.editor_pane.editor, text)
        s.rebase(res.sha)
        if self.win.drafts is not None and text is not None:
            self.win.drafts.committed(text, res.sha)
        self.win.editor_pane.set_modified(False)
        if res.commit_sha:
            self.win.deploy.watch(res.commit_sha)
        self.win.ops.run(self.win.refresh_list())
        self._restore_allowed()


def _refusal(res: object) -> str:
    if isinstance(res, RestoreRefused):
        return res.reason
    return tr("Someone saved this document meanwhile; nothing was restored.")
