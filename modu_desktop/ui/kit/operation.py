"""Run a core coroutine from a widget: one helper for busy state, errors and the task registry.

In the spirit of Anki's ``CollectionOp``: a window owns one :class:`Operations`; every
background job of that window goes through :meth:`Operations.run`::

    self.ops.run(self.save(), name="save", busy=self.act_save)
    self.ops.run(store.refresh(), on_done=self._show_rows, failure="Could not list the documents")

* **busy / progress in place** — ``busy`` (a ``QAction`` or ``QWidget``, or a callable taking a
  bool) is disabled while the job runs and enabled again afterwards, whatever happened;
* **one error path** — an exception other than cancellation becomes one plain sentence
  (:func:`error_text`: the core's ``user_message``, else a timeout or the exception's text) and
  goes to the window's ``report_error``, prefixed with ``failure`` when given; it is also logged;
* **calls back on the UI thread** — ``on_done(result)`` runs on the qasync loop, which is Qt's;
* **owns the task registry** — :meth:`cancel_all` (window shutdown) cancels and awaits every job
  still running, except the caller.

A dialog over the window runs its jobs through the same helper: :func:`operations_for` finds
the window's ``Operations`` from the dialog's parents, ``busy`` is the dialog's own busy state
(where the user is looking) and ``report`` its own result line, so an error is worded once
(:func:`error_text`), shown once, in the dialog, and the window's shutdown cancels the job.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from modu_desktop.core.account.auth import DeviceFlowError
from modu_desktop.core.github.errors import GitHubError
from modu_desktop.core.locks.wire import InvalidDocId
from modu_desktop.i18n import tr

log = logging.getLogger(__name__)
T = TypeVar("T")

Busy = QAction | QWidget | Callable[[bool], None] | None


def error_text(exc: BaseException) -> str:
    """One plain sentence for the user in the current language (never a traceback, never the
    token): a GitHub or document-name error's own sentence, else the exception's text."""
    if isinstance(exc, GitHubError | InvalidDocId | DeviceFlowError):
        return exc.user_message()
    if isinstance(exc, asyncio.TimeoutError | TimeoutError):
        return tr("GitHub did not answer in time.")
    return str(exc) or type(exc).__name__


def _set_busy(busy: Busy, on: bool) -> None:
    if busy is None:
        return
    with contextlib.suppress(RuntimeError):  # the widget went away meanwhile
        if isinstance(busy, QAction | QWidget):
            busy.setEnabled(not on)
        else:
            busy(on)


class Operations:
    """The background jobs of one window (see the module docstring)."""

    def __init__(self, report_error: Callable[[str], None]) -> None:
        self.report_error = report_error
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def tasks(self) -> set[asyncio.Task[Any]]:
        return set(self._tasks)

    def run(
        self,
        coro: Coroutine[Any, Any, T],
        *,
        name: str | None = None,
        busy: Busy = None,
        on_done: Callable[[T], None] | None = None,
        failure: str | None = None,
        report: Callable[[str], None] | None = None,
    ) -> asyncio.Task[T]:
        """Run ``coro`` as one of this window's jobs. ``report``: where its error sentence goes
        (a dialog's own result line), instead of the window's notice."""
        task = asyncio.ensure_future(coro)
        if name:
            task.set_name(name)
        self._tasks.add(task)
        _set_busy(busy, True)

        def done(t: asyncio.Task[T]) -> None:
            self._tasks.discard(t)
            _set_busy(busy, False)
            if t.cancelled():
                return
            exc = t.exception()
            if exc is not None:
                log.error("operation %s failed", t.get_name(), exc_info=exc)
                text = error_text(exc)
                with contextlib.suppress(RuntimeError):  # a dialog that went away meanwhile
                    (report or self.report_error)(f"{failure}: {text}" if failure else text)
                return
            if on_done is not None:
                on_done(t.result())

        task.add_done_callback(done)
        return task

    async def cancel_all(self) -> None:
        me = asyncio.current_task()
        pending = [t for t in self._tasks if t is not me and not t.done()]
        for t in pending:
            t.cancel()
        for t in pending:
            with contextlib.suppress(BaseException):
                await t


def _log_only(text: str) -> None:
    log.info("operation failed outside a window: %s", text)


_detached: Operations | None = None


def operations_for(widget: QWidget | None) -> Operations:
    """The ``Operations`` of the window ``widget`` lives in (the nearest parent with an ``ops``
    attribute that is one). A widget outside any window (a test, the sign-in before the window
    exists) gets one shared registry whose errors go only to the log: such callers pass
    ``report`` to show them."""
    w = widget
    while w is not None:
        ops = getattr(w, "ops", None)
        if isinstance(ops, Operations):
            return ops
        w = w.parentWidget()
    global _detached
    if _detached is None:
        _detached = Operations(_log_only)
    return _detached
