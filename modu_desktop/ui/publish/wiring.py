"""The window's publishing hooks: the check before a save, what the site's build is doing
(every widget rendered from the window's one ``PublishBoard``), the failed-publish notice with
"fix it" and "restore the previous version" for the page that broke the build, and 기록 (the
document's history) in a dock.

:class:`Publishing` is made once by the window; the window calls :meth:`check` at the top of
its save and gives :meth:`explain` to the deploy watcher. :meth:`render` draws the status bar's
publishing label, the editor's saved/unsaved label and publishing line, the list's marks and
the notice, all from ``board.status(doc)``; the board calls it after every change and the
window's clock every half minute (relative times: "방금", "3분 전"). The restore writes go
through ``core.documents.history`` (the lock checked first, the sha last seen sent).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Qt, SignalInstance
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QPlainTextEdit, QWidget

from modu_desktop.core.documents.history import (
    DocHistory,
    RestoreRefused,
    Version,
    restore_previous,
    restore_version,
)
from modu_desktop.core.documents.store import SaveResult
from modu_desktop.core.github.types import WorkflowRun
from modu_desktop.core.locks.news import with_title
from modu_desktop.core.publish.blame import BrokenPage, broken_pages
from modu_desktop.core.publish.check import Finding, check_text, tree_paths
from modu_desktop.core.publish.failure import deploy_failure
from modu_desktop.core.publish.status import DocStatus, PublishBoard, SiteStop
from modu_desktop.core.publish.status import PublishPhase as State
from modu_desktop.core.text import Text
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.banners import show_state
from modu_desktop.ui.kit.changes import ChangeBus, Changes, Landed
from modu_desktop.ui.kit.operation import error_text
from modu_desktop.ui.publish.deploy_notice import FailedDeployNotice
from modu_desktop.ui.publish.history_panel import HistoryPanel, when
from modu_desktop.ui.publish.publish_check_panel import (
    check_before_save,
    put_cursor,
    replace_editor_text,
)
from modu_desktop.ui.publish.status_words import status_bar_words
from modu_desktop.ui.publish.undo_change import undo_from_history

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.ui.kit.context import AppContext
    from modu_desktop.ui.kit.operation import Operations

log = logging.getLogger(__name__)


class PublishEditor(Protocol):
    """What publishing uses of the editor: its text, where its cursor goes, its lines."""

    textEdited: SignalInstance

    @property
    def editor(self) -> QPlainTextEdit: ...

    @property
    def raw_view(self) -> bool: ...

    def text(self) -> str: ...

    def is_modified(self) -> bool: ...

    def set_modified(self, modified: bool) -> None: ...

    def show_line(self, line: int, column: int = 1) -> None: ...

    def show_status(self, status: DocStatus | None, now: float | None = None) -> None: ...


class PublishMarks(Protocol):
    """The document list, which marks the pages that stop the site's build."""

    def set_publish_marks(self, marks: dict[str, str]) -> None: ...


class PublishWindow(Protocol):
    """What publishing uses of the window."""

    ctx: AppContext
    ops: Operations
    changes: ChangeBus
    board: PublishBoard
    deploy_notice: FailedDeployNotice
    status_deploy: QLabel

    @property
    def editor_pane(self) -> PublishEditor: ...

    @property
    def doc_list(self) -> PublishMarks: ...

    @property
    def doc(self) -> EditSession | None: ...

    def label(self, doc_id: str) -> str: ...

    def learn_names(self, logins: Iterable[str | None]) -> None: ...

    def show_notice(self, text: str, kind: str = "info", topic: str | None = None) -> None: ...

    async def open_document(self, doc_id: str) -> bool: ...

    def addAction(self, action: QAction) -> None: ...  # noqa: N802 - Qt API

    def addDockWidget(self, area: Qt.DockWidgetArea, dock: QDockWidget) -> None: ...  # noqa: N802


class Publishing(QObject):
    def __init__(self, win: PublishWindow, parent: QWidget) -> None:
        super().__init__(parent)
        self.win = win
        self.board = win.board
        self.parent_widget = parent
        self._history: DocHistory | None = None  # one per window: its caches live as long
        self._dismissed: int | None = None  # the stop (its run id) the user closed
        self._restored: int | None = None  # the stop whose page was restored from here
        self._findings: dict[tuple[int, str], tuple[Finding, ...]] = {}
        self.history_panel: HistoryPanel | None = None
        self.history_dock: QDockWidget | None = None
        notice = win.deploy_notice
        notice.hide()
        notice.restoreRequested.connect(lambda: win.ops.run(self.restore_page()))
        notice.fixRequested.connect(lambda: win.ops.run(self.fix_page()))
        notice.openRunRequested.connect(lambda url: QDesktopServices.openUrl(url))
        notice.dismissed.connect(self._notice_closed)
        win.editor_pane.textEdited.connect(self._text_changed)
        self.history_action = QAction(tr("&History…"), parent)
        self.history_action.setObjectName("historyAction")
        self.history_action.triggered.connect(lambda _c=False: win.ops.run(self.open_history()))
        win.addAction(self.history_action)
        self.board.subscribe(self.render)
        win.changes.subscribe(self._changed)

    @property
    def history(self) -> DocHistory:
        if self._history is None:
            self._history = DocHistory(self.win.ctx.client, self.win.ctx.store)
        return self._history

    def _changed(self, changes: Changes) -> None:
        if changes.open_doc:
            self.update_actions()

    def update_actions(self) -> None:
        self.history_action.setEnabled(self.win.doc is not None)
        self.render()

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
            show_place=self.win.editor_pane.show_line,
            current=self.win.editor_pane.text,
            in_cards=not self.win.editor_pane.raw_view,
        )

    # -- a failed build ----------------------------------------------------------------------

    async def explain(self, run: WorkflowRun) -> SiteStop:
        """Why run ``run`` failed: its log, the pages it names, who saved them last and when
        (as of the failed build), and what the check finds on those pages."""
        ctx = self.win.ctx
        try:
            failure = await deploy_failure(ctx.client, run)
        except Exception as exc:  # read again by the deploy watcher's next look
            log.info("the failed run's log could not be read: %s", exc)
            return SiteStop(run.id, run.html_url, (), None, run)
        snap = ctx.store.snapshot
        docs = snap.docs if snap is not None else ()
        pages = await broken_pages(failure, docs=docs, history=self.history, at=run.head_sha)
        self.win.learn_names(p.saved_by for p in pages)  # who saved it, by name
        loop = asyncio.get_running_loop()
        for page in pages[:3] if run.head_sha else ():
            try:
                text = await self.history.text_at(str(run.head_sha), page.path)
            except Exception:
                text = None
            if text is not None:  # the check reads the whole page: not on the UI thread
                result = await loop.run_in_executor(None, partial(check_text, text, path=page.path))
                self._findings[(run.id, page.path)] = result.findings
        return SiteStop(run.id, run.html_url, pages, failure, run)

    def my_page(self, stop: SiteStop | None) -> BrokenPage | None:
        """The breaking page this person saved (the first, when several), or None."""
        if stop is None:
            return None
        mine = stop.mine(self.win.ctx.login) or tuple(
            p  # who saved it is unknown (its history could not be read): saved from here?
            for p in stop.pages
            if p.saved_by is None and self.board.status(p.doc_id).commit_sha is not None
        )
        return mine[0] if mine else None

    def render(self) -> None:
        """Every widget that shows publishing, from the board (see the module's docstring)."""
        win, board = self.win, self.board
        now = win.ctx.server_now()
        s = win.doc
        status = board.status(s.doc_id if s is not None else None)
        win.editor_pane.show_status(status if s is not None else None, now)
        shown, title, others = status, None, 0
        pages, open_id = board.last_save, s.doc_id if s is not None else None
        # the open page changed with others in one commit, or nothing saved of it but others
        together = len(pages) > 1 and open_id in pages
        if together or (status.publishing is State.NONE and pages and open_id not in pages):
            shown = board.last_save_status() or status
            title = win.label(open_id if together and open_id else pages[0])
            others = len(pages) - 1
        text, kind = status_bar_words(shown, title, others)
        show_state(win.status_deploy, text, kind)
        stop = board.stop
        marks = {}
        if stop is not None:
            for p in stop.pages:
                if p.doc_id:
                    marks[p.doc_id] = tr("The site cannot be built with this page.")
        win.doc_list.set_publish_marks(marks)
        self._render_notice(now)

    def _render_notice(self, now: float) -> None:
        notice, stop = self.win.deploy_notice, self.board.stop
        if stop is None:
            notice.stop = None
            notice.hide()
            return
        if stop.run_id == self._dismissed:
            return
        page = self.my_page(stop)
        found = self._findings.get((stop.run_id, page.path), ()) if page is not None else ()
        notice.show_stop(stop, login=self.win.ctx.login, now=now, page=page, problems=found)
        self._restore_allowed()

    def _notice_closed(self) -> None:
        stop = self.board.stop
        self._dismissed = stop.run_id if stop is not None else None

    def _text_changed(self) -> None:
        self._restore_allowed()
        dock, panel = self.history_dock, self.history_panel
        if panel is not None and dock is not None and dock.isVisible():
            panel.set_current_text(self.win.editor_pane.text())

    def _restore_allowed(self) -> None:
        """Restore is disabled while the page is open here with unsaved changes (they would be
        lost) or cannot be saved here."""
        page = self.my_page(self.board.stop)
        s = self.win.doc
        stop = self.board.stop
        ok = page is not None and page.doc_id is not None
        ok = ok and stop is not None and stop.run_id != self._restored
        if ok and s is not None and page is not None and s.doc_id == page.doc_id:
            ok = s.editable and not self.win.editor_pane.is_modified()
        self.win.deploy_notice.restore_button.setEnabled(ok)

    async def _open_page(self, page: BrokenPage) -> EditSession | None:
        s = self.win.doc
        if page.doc_id is None:
            return None
        if s is None or s.doc_id != page.doc_id:
            if not await self.win.open_document(page.doc_id):
                return None
            s = self.win.doc
        return s if s is not None and s.doc_id == page.doc_id else None

    async def fix_page(self) -> bool:
        """고치기: open the page that stops the build, the cursor on the line the build names."""
        page = self.my_page(self.board.stop)
        if page is None or await self._open_page(page) is None:
            return False
        if page.line:
            put_cursor(self.win.editor_pane.editor, page.line, page.column or 1)
        return True

    async def _lock_ok(self) -> Text | None:
        s = self.win.doc
        if s is None or not await s.ensure_lock() or s.held is None:
            return Text("You do not hold the lock on this document.")
        ver = await self.win.ctx.locks.verify(s.held)
        return None if ver.ok else with_title(ver.text, s.title)

    async def restore_page(self) -> bool:
        """이전 버전으로 되돌리기, for the page this person broke: its version before the breaking
        change, as one normal save — refused when the page changed after that change."""
        notice = self.win.deploy_notice
        page = self.my_page(self.board.stop)
        if page is None or page.commit_sha is None:
            return False
        s = await self._open_page(page)
        if s is None or not s.editable:
            notice.restore_done(False, tr("You do not hold the lock on this document."))
            return False
        if self.win.editor_pane.is_modified():
            self._restore_allowed()
            return False
        notice.restore_started()
        try:
            at_break = await self.history.blob_sha_at(page.commit_sha, s.path)
            if at_break != s.base_sha:
                notice.restore_done(
                    False,
                    tr(
                        "“{doc}” was saved again after that change, so it was not restored. "
                        "Fix it, or pick a version in its history.",
                        doc=page.label,
                    ),
                )
                return False
            res = await restore_previous(
                self.win.ctx.store,
                self.history,
                s.path,
                page.commit_sha,
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
        stop = self.board.stop
        self._restored = stop.run_id if stop is not None else None
        self._restored_text(s, res, text)
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
            self.history_panel.undoChangeRequested.connect(
                lambda v: self.win.ops.run(undo_from_history(self.win, v, reload=self._reload))
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
        panel = self.history_panel
        await panel.load(self.history, s.path, self.win.editor_pane.text(), title=s.title)
        logins = [v.author_login for v in panel.versions]
        if await self.win.ctx.people.learn(self.win.ctx.client, logins):  # said by name
            await panel.load(self.history, s.path, self.win.editor_pane.text(), title=s.title)

    async def _reload(self) -> None:
        """The history again, after a change of many pages was undone."""
        s = self.win.doc
        if s is not None and self.history_panel is not None:
            text = self.win.editor_pane.text()
            await self.history_panel.load(self.history, s.path, text, title=s.title)

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
        self._restored_text(s, res, text)
        self.win.show_notice(
            tr("The version of {date} is the current text now.", date=when(version)), "info"
        )
        if self.history_panel is not None:
            await self.history_panel.load(self.history, s.path, text, title=s.title)
        return True

    def _restored_text(self, s: EditSession, res: SaveResult, text: str) -> None:
        """A restore landed: the editor shows it (one undo step); the window builds on it
        and follows its deploy like a save's."""
        replace_editor_text(self.win.editor_pane.editor, text)
        self.win.editor_pane.set_modified(False)
        landed = Landed(s.doc_id, s.path, res.sha, text, res.commit_sha)
        self.win.changes.publish(Changes(doc_list=True, landed=landed))
        self._restore_allowed()


def _refusal(res: object) -> str:
    if isinstance(res, RestoreRefused):
        return res.reason()
    return tr("Someone saved this document meanwhile; nothing was restored.")
