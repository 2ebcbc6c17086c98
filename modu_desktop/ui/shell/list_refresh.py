"""The document list, kept current: read again every ``refresh_s`` seconds while nothing else
reads it, when the app comes to the front (at most every 5 s), and when an operation changed it.
One request when nothing changed; a refresh that shows our lock's sha changed wakes the open
document's heartbeat at once."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication

from modu_desktop.i18n import tr
from modu_desktop.ui.doclist.panel import rows_from_snapshot
from modu_desktop.ui.editing.session_words import offline
from modu_desktop.ui.kit.operation import error_text

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.core.publish.status import PublishBoard
    from modu_desktop.ui.doclist.panel import DocListPanel
    from modu_desktop.ui.kit.context import AppContext
    from modu_desktop.ui.kit.names import WindowNames
    from modu_desktop.ui.kit.operation import Operations
    from modu_desktop.ui.publish.deploy_status import DeployStatus

log = logging.getLogger(__name__)

ACTIVATION_PAUSE_S = 5.0  # coming to the front this soon after a refresh reads nothing more


class ListWindow(Protocol):
    ctx: AppContext
    ops: Operations
    doc_list: DocListPanel

    @property
    def doc(self) -> EditSession | None: ...

    def set_connection(
        self, ok: bool, message: str | None = None, *, offline: bool = False
    ) -> None: ...

    names: WindowNames
    board: PublishBoard
    deploy: DeployStatus


class ListRefresh(QObject):
    listed = Signal(object)  # the list was read again: its RepoSnapshot (the picture library)

    def __init__(
        self, win: ListWindow, *, stopped: Callable[[], bool], closed: Callable[[], bool]
    ) -> None:
        super().__init__(win.doc_list)
        self.win = win
        self.stopped = stopped  # the window is closing: read nothing more
        self.closed = closed  # the window has closed: leave its widgets alone
        self.refreshing = False
        self._last = 0.0
        self._site_seen = False  # the site's builds were read once since the window opened
        self.timer = QTimer(self)
        self.timer.setInterval(int(win.ctx.options.refresh_s * 1000))
        self.timer.timeout.connect(self._idle)
        self.timer.start()
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication) and win.ctx.options.refresh_on_activate:
            app.applicationStateChanged.connect(self._app_state_changed)

    def _app_state_changed(self, state: Qt.ApplicationState) -> None:
        if (
            state == Qt.ApplicationState.ApplicationActive
            and time.monotonic() - self._last > ACTIVATION_PAUSE_S
        ):
            self.win.ops.run(self.refresh())

    def _idle(self) -> None:
        if not self.refreshing and not self.stopped():
            self.win.ops.run(self.refresh())

    def stop(self) -> None:
        self.timer.stop()

    def when_listed(self, fn: Callable[[Any], None]) -> None:
        """Call ``fn(snapshot)`` after each refresh that read the list."""
        self.listed.connect(fn)

    def _site_due(self, asked: bool) -> bool:
        """Whether the site's builds are read with this refresh: at the window's first (a
        build may have failed while it was closed), when asked, and while a failed build of
        ours is not explained yet — so the one who broke the site is told on every path."""
        if self.win.ctx.viewer:
            return False
        stop = self.win.board.stop
        unexplained = bool(self.win.board.open_failures()) or (
            stop is not None and stop.failure is None
        )
        return asked or not self._site_seen or unexplained

    async def refresh(self, *, asked: bool = False) -> bool:
        """Re-read the document list (one request when nothing changed). ``asked``: the person
        asked for it (새로 고침): the site's builds are read again too."""
        win, doc_list = self.win, self.win.doc_list
        if self.refreshing or self.stopped():
            return False
        self.refreshing = True
        if not doc_list.rows:
            doc_list.set_loading(True)
        else:
            doc_list.refresh_button.setEnabled(False)
        try:
            snap = await win.ctx.store.refresh()
            locks = snap.locks
            shas = {doc_id: entry.sha for doc_id, entry in locks.items()}
            views = await win.ctx.locks.list_locks(shas) if shas else []
        except Exception as exc:
            log.info("refresh failed: %s", exc)
            cut_off = offline(exc)  # an outage reads the same in the list as in the status bar
            doc_list.set_loading(False)
            msg = error_text(exc)
            doc_list.set_error(tr("not connected to GitHub") if cut_off else msg)
            win.set_connection(False, msg, offline=cut_off)
            return False
        finally:
            self.refreshing = False
            self._last = time.monotonic()
            if not self.closed():
                doc_list.refresh_button.setEnabled(True)
        doc_list.set_loading(False)
        doc_list.set_rows(rows_from_snapshot(snap, views), win.ctx.server_now())
        win.set_connection(True)
        # the badges (and who we are) name people as they go by: read once, then kept a week
        await win.names.learn_now([win.ctx.login, *(v.holder for v in views)])
        if self._site_due(asked):
            self._site_seen = True
            await win.deploy.look_at_site()
        self.listed.emit(snap)
        session = win.doc
        if session is not None:  # our lock changed on the server? check now
            entry = locks.get(session.doc_id)
            session.lock_seen(entry.sha if entry is not None else None)
        return True
