""" "Notify me when it is free" (편집 가능해지면 알려 주기) from the locked-document dialog.

:class:`FreeWatcher` polls with :meth:`DocumentStore.refresh` - a conditional tree read, one
request (a 304) while nothing changed - and classifies the document's lock from the lock blob
(read once per sha, then cached). When the lock file is gone, or its last heartbeat is older
than the stale limit in *server* time, it emits ``becameFree(doc_id, reason)`` and stops.

:class:`FreeNotifier` owns the watchers of a window and tells the user: a system notification
through ``QSystemTrayIcon.showMessage`` when the platform has a tray, otherwise an in-app
banner (the ``banner`` callable, e.g. ``MainWindow.show_notice``). Clicking the notification
(``messageClicked``) emits ``openRequested(doc_id)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QStyle, QSystemTrayIcon

from modu_desktop.core.locks.model import LockStatus
from modu_desktop.i18n import tr

log = logging.getLogger(__name__)

REASON_RELEASED = "released"
REASON_STALE = "stale"


class FreeWatcher(QObject):
    """Watches one document's lock until it is free. ``checks`` counts polls (for tests)."""

    becameFree = Signal(str, str)  # doc_id, REASON_RELEASED | REASON_STALE
    checkFailed = Signal(str)

    def __init__(
        self,
        store: Any,
        locks: Any,
        doc_id: str,
        *,
        interval_s: float = 30.0,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.locks = locks
        self.doc_id = doc_id
        self.interval_s = interval_s
        self.checks = 0
        self.reason: str | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if not self.running and self.reason is None:
            self._task = asyncio.ensure_future(self._loop())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    def cancel(self) -> None:
        """Stop without waiting (from a slot)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    async def check(self) -> str | None:
        """One poll: the reason the document is free now, or None while it is held."""
        self.checks += 1
        snap = await self.store.refresh()
        entry = (getattr(snap, "locks", None) or {}).get(self.doc_id)
        if entry is None:
            return REASON_RELEASED
        sha = entry if isinstance(entry, str) else getattr(entry, "sha", None)
        view = await self.locks.view_of(self.doc_id, sha)
        if view.status is LockStatus.FREE:
            return REASON_RELEASED
        if view.status is LockStatus.STALE:
            return REASON_STALE
        return None

    async def _loop(self) -> None:
        while True:
            try:
                reason = await self.check()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # offline: keep watching
                log.info("watching %s: %s", self.doc_id, exc)
                self.checkFailed.emit(str(exc))
                reason = None
            if reason is not None:
                self.reason = reason
                self._task = None
                self.becameFree.emit(self.doc_id, reason)
                return
            await asyncio.sleep(self.interval_s)


class FreeNotifier(QObject):
    """Watchers for a window plus the notification. ``notified(doc_id, reason, channel)`` with
    channel ``"tray"`` or ``"banner"``."""

    notified = Signal(str, str, str)
    openRequested = Signal(str)

    def __init__(
        self,
        store: Any,
        locks: Any,
        *,
        banner: Callable[[str], None] | None = None,
        interval_s: float = 30.0,
        use_tray: bool | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.locks = locks
        self.banner = banner
        self.interval_s = interval_s
        self.use_tray = QSystemTrayIcon.isSystemTrayAvailable() if use_tray is None else use_tray
        self.watchers: dict[str, FreeWatcher] = {}
        self.tray: QSystemTrayIcon | None = None
        self._last_doc: str | None = None
        self.messages: list[tuple[str, str]] = []  # (title, text) shown, newest last

    def watch(self, doc_id: str) -> FreeWatcher:
        """Start watching ``doc_id`` (again); returns its watcher."""
        old = self.watchers.get(doc_id)
        if old is not None and old.running:
            return old
        w = FreeWatcher(self.store, self.locks, doc_id, interval_s=self.interval_s, parent=self)
        w.becameFree.connect(self._free)
        self.watchers[doc_id] = w
        w.start()
        return w

    def is_watching(self, doc_id: str) -> bool:
        w = self.watchers.get(doc_id)
        return w is not None and w.running

    async def stop(self) -> None:
        for w in list(self.watchers.values()):
            await w.stop()
        self.watchers.clear()
        if self.tray is not None:
            self.tray.hide()
            self.tray.deleteLater()
            self.tray = None

    def _free(self, doc_id: str, reason: str) -> None:
        self.watchers.pop(doc_id, None)
        title = tr("Document is free")
        doc = self.store.title_of(doc_id)
        if reason == REASON_STALE:
            text = tr(
                "Whoever was editing “{doc}” stopped responding; you can edit it now.", doc=doc
            )
        else:
            text = tr("“{doc}” is free now; you can edit it.", doc=doc)
        self.messages.append((title, text))
        self._last_doc = doc_id
        channel = "banner"
        if self.use_tray and self._show_tray(title, text):
            channel = "tray"
        if self.banner is not None:
            # Shown with a tray too: the window keeps a visible trace of the notification.
            with contextlib.suppress(RuntimeError):
                self.banner(text)
        self.notified.emit(doc_id, reason, channel)

    def _show_tray(self, title: str, text: str) -> bool:
        try:
            if self.tray is None:
                app = QApplication.instance()
                icon = QIcon()
                if isinstance(app, QApplication):
                    icon = app.windowIcon()
                    if icon.isNull():
                        info = QStyle.StandardPixmap.SP_MessageBoxInformation
                        icon = app.style().standardIcon(info)
                self.tray = QSystemTrayIcon(icon, self)
                self.tray.messageClicked.connect(self._clicked)
                self.tray.show()
            self.tray.showMessage(title, text, QSystemTrayIcon.MessageIcon.Information, 10000)
            return True
        except RuntimeError:
            log.info("tray notification failed", exc_info=True)
            return False

    def _clicked(self) -> None:
        if self._last_doc:
            self.openRequested.emit(self._last_doc)
