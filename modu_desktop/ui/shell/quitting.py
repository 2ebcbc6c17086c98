"""How the window goes: Quit, closing the window, SIGTERM/SIGINT, OS logout and Sign out take
one path. The open document is closed (asking about unsaved changes when interactive), an open
still under way finishes first (cancelled mid-request it could leave a lock on GitHub that
nobody releases), every lock is released within its bound, then the window says it is done."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QDialog, QWidget

from modu_desktop.ui.kit.preedit import commit_preedit

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.ui.docops.ops_host import OpsHost
    from modu_desktop.ui.kit.context import AppContext
    from modu_desktop.ui.kit.operation import Operations
    from modu_desktop.ui.recovery.nothing_lost import NothingLost
    from modu_desktop.ui.shell.list_refresh import ListRefresh


class QuittingWindow(Protocol):
    ctx: AppContext
    ops: Operations
    ops_host: OpsHost
    nothing_lost: NothingLost
    list_refresh: ListRefresh
    finished: SignalInstance
    signOutRequested: SignalInstance

    @property
    def doc(self) -> EditSession | None: ...

    async def close_document(self, *, interactive: bool = True) -> bool: ...


class Quitting:
    def __init__(self, win: QuittingWindow, widget: QWidget) -> None:
        self.win = win
        self.widget = widget  # the window itself: hidden when done, its dialogs closed
        self.closing = False  # the window is going: nothing new starts
        self.closed = False  # it has gone: every lock released (or its bound reached)
        self.open_task: asyncio.Task[bool] | None = None  # an open under way

    async def shutdown(self, *, interactive: bool) -> bool:
        """Close the document (asking if interactive) and release every lock (bounded)."""
        win = self.win
        if self.closed:
            return True
        await self._settle_open()
        if win.doc is not None and not await win.close_document(interactive=interactive):
            return False
        self.closing = True
        win.list_refresh.stop()
        win.ops_host.detach()
        await win.nothing_lost.aclose()
        await win.ops.cancel_all()
        self.closed = True
        return True

    async def _settle_open(self) -> None:
        """An open in progress must finish (or be cancelled by its own dialogs) before we quit:
        cancelling it mid-request could leave a lock acquired on GitHub that nobody releases."""
        task = self.open_task
        if task is None or task.done() or task is asyncio.current_task():
            return
        for dlg in self.widget.findChildren(QDialog):
            if dlg.isVisible():
                dlg.reject()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(task), self.win.ctx.options.release_timeout_s)

    def request_quit(self, interactive: bool = True) -> None:
        """Quit menu, window close, SIGTERM/SIGINT, OS logout: same path."""
        commit_preedit()
        self.win.ops.run(self._quit(interactive), name="quit")

    async def _quit(self, interactive: bool) -> None:
        if self.closing and not self.closed:
            return
        if await self.shutdown(interactive=interactive):
            self.widget.hide()
            self.win.finished.emit()

    async def sign_out(self) -> None:
        if await self.shutdown(interactive=True):
            if self.win.ctx.token_store is not None:
                self.win.ctx.token_store.clear()
            self.widget.hide()
            self.win.signOutRequested.emit()
