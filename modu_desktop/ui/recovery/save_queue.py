"""The durable save queue in the app: :class:`~modu_desktop.core.saving.queue.SaveSpool` wired to
the
real GitHub client, driven by an asyncio task, with a status-bar widget.

* the sender and reader over the GitHub client are the core's (``core/saving/service.py``).
* :class:`SaveQueue` - runs ``run_once`` whenever something is due (backoff lives in the spool),
  wakes up at once on :meth:`SaveQueue.enqueue` / :meth:`SaveQueue.retry_now`, and reports
  through Qt signals.
* :class:`SaveQueueStatus` - "waiting to save (N)" / "저장 대기 중 (N)" with "Retry now", and
  "not saved (N)" with a button that opens the conflict screen (:func:`resolve_failed`).

A save goes to the queue only when GitHub cannot be reached or answered unclearly
(:func:`is_queueable_error`); a conflict or a permission problem is shown at once as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Unpack

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.core.github.client import GitHubClient
from modu_desktop.core.saving.conflicts import (
    Conflict,
    ConflictDecision,
    Resolution,
    queued_conflict,
    resolve_conflict,
)
from modu_desktop.core.saving.queue import RunReport, SaveRequest, SaveSpool, SpoolItem
from modu_desktop.core.saving.service import (
    SaveService,
    Target,
    is_queueable_error,
    make_reader,
    make_sender,
    outcome_for_error,
)
from modu_desktop.i18n import tr

log = logging.getLogger(__name__)

__all__ = [
    "SaveQueue",
    "SaveQueueStatus",
    "is_queueable_error",
    "make_reader",
    "make_sender",
    "outcome_for_error",
    "resolve_failed",
]


# -- the queue ------------------------------------------------------------------------------------


class SaveQueue(QObject):
    """Runs a :class:`SaveSpool` in the background of the qasync loop.

    Signals: ``countsChanged(pending, failed)``, ``itemCommitted(SpoolItem)``,
    ``itemFailed(SpoolItem)``, ``problemsFound(list)`` (damaged spool files set aside),
    ``changeLanded(ChangeItem)`` / ``changeFailed(ChangeItem)`` (a change of many pages that
    waited was sent, or could not be).
    """

    countsChanged = Signal(int, int)
    itemCommitted = Signal(object)
    itemFailed = Signal(object)
    problemsFound = Signal(object)
    changeLanded = Signal(object)
    changeFailed = Signal(object)

    def __init__(
        self,
        spool: SaveSpool,
        *,
        min_wait_s: float = 0.2,
        max_wait_s: float = 30.0,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.spool = spool
        self.min_wait_s = min_wait_s
        self.max_wait_s = max_wait_s
        self._task: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None
        self._stopping = False
        self._counts = (-1, -1)
        self._problems_seen = 0
        self.last_report: RunReport | None = None

    @classmethod
    def for_client(
        cls,
        root: str | Path,
        client: GitHubClient,
        *,
        parent: QObject | None = None,
        **spool_kw: Any,
    ) -> SaveQueue:
        spool = SaveSpool(root, make_sender(client), make_reader(client), **spool_kw)
        return cls(spool, parent=parent)

    # -- control -------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the background loop (inside a running asyncio loop)."""
        if self.running:
            return
        self._stopping = False
        self._wake = asyncio.Event()
        self._task = asyncio.ensure_future(self._loop())

    async def stop(self) -> None:
        """Stop the loop; an item being sent is cancelled and re-verified at the next start."""
        self._stopping = True
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    def wake(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def poke(self) -> None:
        """Something was queued from outside (``SaveService``): show the count, try it soon."""
        self._emit_counts()
        self.wake()

    def enqueue(self, **request: Unpack[SaveRequest]) -> SpoolItem:
        """Queue a save (durable when this returns) and try it soon."""
        item = self.spool.enqueue(**request)
        self._emit_counts()
        self.wake()
        return item

    def retry_now(self) -> int:
        """ "Retry now": every pending item becomes due at once. Returns how many."""
        n = 0
        for item in self.spool.pending_items():
            if item.state == "pending" and self.spool.retry_now(item.id):
                n += 1
        self.wake()
        return n

    def pending_count(self) -> int:
        return self.spool.pending_count()

    def failed_items(self) -> list[SpoolItem]:
        return self.spool.failed_items()

    def pending_for(self, api_host: str, repo: str, branch: str, path: str) -> SpoolItem | None:
        """The queued (not yet committed) save of one document, if any."""
        target = (api_host.rstrip("/"), repo, branch, path)
        found = [i for i in self.spool.pending_items() if i.target == target]
        return found[-1] if found else None

    # -- running -------------------------------------------------------------------------------

    async def run_once(self) -> RunReport:
        """One pass over the due items; emits the signals. (The loop calls this.)"""
        try:
            report = await self.spool.run_once()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # never let the queue die: report and retry later
            log.error("save queue pass failed", exc_info=True)
            report = RunReport(errors=[repr(exc)])
        self.last_report = report
        for item in report.committed:
            self.itemCommitted.emit(item)
        for item in report.failed:
            self.itemFailed.emit(item)
        for change in report.changes_landed:
            self.changeLanded.emit(change)
        for change in report.changes_failed:
            self.changeFailed.emit(change)
        self._emit_counts()
        return report

    async def _loop(self) -> None:
        assert self._wake is not None
        while not self._stopping:
            self._wake.clear()
            await self.run_once()
            due = self.spool.next_due_in()
            wait = (
                self.max_wait_s if due is None else min(max(due, self.min_wait_s), self.max_wait_s)
            )
            with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    def _emit_counts(self) -> None:
        try:
            counts = (self.spool.pending_count(), len(self.spool.failed_items()))
        except OSError:
            return
        problems = self.spool.problems[self._problems_seen :]
        if problems:  # damaged files found (and set aside) by any spool operation
            self._problems_seen += len(problems)
            self.problemsFound.emit(list(problems))
        if counts != self._counts:
            self._counts = counts
            self.countsChanged.emit(*counts)


# -- status bar widget ----------------------------------------------------------------------------


class SaveQueueStatus(QWidget):
    """ "waiting to save (N)" + "Retry now"; "not saved (N)" + "Show". Hidden when both are 0."""

    retryRequested = Signal()
    showFailedRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("saveQueueStatus")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        self.label = QLabel("")
        self.label.setObjectName("saveQueueLabel")
        self.retry_button = QToolButton()
        self.retry_button.setObjectName("saveQueueRetryButton")
        self.retry_button.setText(tr("Retry now"))
        self.retry_button.setAccessibleName(self.retry_button.text())
        self.retry_button.clicked.connect(self.retryRequested.emit)
        self.failed_label = QLabel("")
        self.failed_label.setObjectName("saveQueueFailedLabel")
        self.failed_button = QToolButton()
        self.failed_button.setObjectName("saveQueueFailedButton")
        self.failed_button.setText(tr("Show"))
        self.failed_button.setAccessibleName(tr("Show the saves that failed"))
        self.failed_button.clicked.connect(self.showFailedRequested.emit)
        for w in (self.label, self.retry_button, self.failed_label, self.failed_button):
            lay.addWidget(w)
        self.pending = 0
        self.failed = 0
        self.set_counts(0, 0)

    def set_counts(self, pending: int, failed: int) -> None:
        self.pending, self.failed = pending, failed
        self.label.setText(tr("waiting to save ({n})", n=pending))
        self.label.setAccessibleName(self.label.text())
        self.failed_label.setText(tr("not saved ({n})", n=failed))
        self.label.setVisible(pending > 0)
        self.retry_button.setVisible(pending > 0)
        self.failed_label.setVisible(failed > 0)
        self.failed_button.setVisible(failed > 0)
        self.setVisible(pending > 0 or failed > 0)

    def bind(self, queue: SaveQueue) -> None:
        """Follow ``queue``'s counts; "Retry now" calls ``queue.retry_now()``."""
        queue.countsChanged.connect(self.set_counts)
        self.retryRequested.connect(queue.retry_now)
        self.set_counts(queue.pending_count(), len(queue.failed_items()))


# -- failed items: the conflict screen ------------------------------------------------------------


SaveAsNew = Callable[[str, str], Awaitable[str | None]]


async def resolve_failed(
    parent: QWidget | None,
    queue: SaveQueue,
    item: SpoolItem,
    store: DocumentStore,
    *,
    save_as_new: SaveAsNew | None = None,
    title: str | None = None,
) -> Resolution:
    """A failed queued save on the conflict screen, with its text intact, through the one
    conflict path (``core/saving/conflicts.py``) and the same dialog as a live save
    (``doc_dialogs.decide_conflict``: Enter = save mine as a new document, Esc = cancel).

    Keep mine: saved now over the version shown (queued again when GitHub is away; shown again
    when someone saved once more meanwhile). Take theirs: dropped. Save as new:
    ``save_as_new(doc_id, text)`` (the window's "new document" flow), then dropped. Cancel: it
    stays in "not saved". Raises (the item untouched) when the current version cannot be read.
    """
    from modu_desktop.ui.editing.doc_dialogs import decide_conflict

    async def no_new_document(_doc_id: str, _text: str) -> str | None:
        return None

    saves = SaveService(
        store,
        Target(item.api_host, item.repo, item.branch),
        queue.spool,
        on_queued=lambda _item: queue.poke(),
    )
    found = await queued_conflict(saves, item)

    async def ask(conflict: Conflict) -> ConflictDecision:
        decision, _new_id = await decide_conflict(
            parent, title or item.doc_id, conflict, save_as_new or no_new_document
        )
        return decision

    try:
        return await resolve_conflict(
            saves, found, ask, login=item.login, message=item.message, queued=item
        )
    finally:
        queue.poke()
