"""The save queue's runner (Qt-free): sends what the spool holds whenever something is due, and
settles a queued save that failed.

:class:`QueueRunner` runs :meth:`SaveSpool.run_once` in an asyncio task: at once when woken
(:meth:`~QueueRunner.poke` after ``SaveService`` queued a save, :meth:`~QueueRunner.retry_now`),
otherwise when the spool says the next item is due (the backoff lives in the spool), and at least
every ``max_wait_s``. What happened goes to its listeners (:class:`QueueListener`): the window
turns it into Qt signals (``ui/recovery/save_queue.py``), the scale simulation into a rebase of
the open session. A pass that raises is logged and reported as an error; the queue never dies.

:func:`settle_failed` puts a failed queued save (a conflict, or too many failures) through the
one conflict path (``conflicts.resolve_conflict``) with the caller's question: the window asks
with its conflict screen, the simulation answers "keep mine".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Protocol

from modu_desktop.core.atomic import FileProblem
from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.core.saving.conflicts import (
    AskConflict,
    Resolution,
    queued_conflict,
    resolve_conflict,
)
from modu_desktop.core.saving.queue import ChangeItem, RunReport, SaveSpool, SpoolItem
from modu_desktop.core.saving.service import SaveService, Target

log = logging.getLogger(__name__)

__all__ = ["QueueListener", "QueueRunner", "next_wait", "settle_failed"]


class QueueListener(Protocol):
    """Told what the runner did. A listener must not raise; the runner logs it if one does."""

    def counts_changed(self, pending: int, failed: int) -> None:
        """The "waiting to save (N)" and "not saved (N)" counts changed."""

    def committed(self, item: SpoolItem) -> None:
        """A queued save is on GitHub (``item.result_sha``, ``item.commit_sha``)."""

    def failed(self, item: SpoolItem) -> None:
        """A queued save will not go out by itself (``item.failure``): it waits for the user."""

    def problems_found(self, problems: list[FileProblem]) -> None:
        """Damaged queue files were found and set aside."""

    def change_landed(self, item: ChangeItem) -> None:
        """A change of many pages that waited was sent (what became of each page: its item)."""

    def change_failed(self, item: ChangeItem) -> None:
        """A change of many pages that waited could not be made (``item.failure``)."""


def next_wait(due_in: float | None, min_wait_s: float, max_wait_s: float) -> float:
    """How long the loop sleeps when nobody wakes it: until the next item is due, but not less
    than ``min_wait_s`` (no busy loop) nor more than ``max_wait_s``."""
    if due_in is None:
        return max_wait_s
    return min(max(due_in, min_wait_s), max_wait_s)


class QueueRunner:
    """Runs one :class:`SaveSpool` in the background of the running asyncio loop."""

    def __init__(
        self,
        spool: SaveSpool,
        *,
        min_wait_s: float = 0.2,
        max_wait_s: float = 30.0,
    ) -> None:
        self.spool = spool
        self.min_wait_s = min_wait_s
        self.max_wait_s = max_wait_s
        self.listeners: list[QueueListener] = []
        self._task: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None
        self._stopping = False
        self._counts = (-1, -1)
        self._problems_seen = 0

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

    def poke(self) -> None:
        """Something was queued from outside (``SaveService``): tell the counts, try it soon."""
        self._tell_counts()
        if self._wake is not None:
            self._wake.set()

    def retry_now(self) -> int:
        """ "Retry now": every pending item becomes due at once. Returns how many."""
        n = 0
        for item in self.spool.pending_items():
            if item.state == "pending" and self.spool.retry_now(item.id):
                n += 1
        self.poke()
        return n

    def pending_count(self) -> int:
        return self.spool.pending_count()

    def failed_items(self) -> list[SpoolItem]:
        return self.spool.failed_items()

    # -- running -------------------------------------------------------------------------------

    async def run_once(self) -> RunReport:
        """One pass over the due items, told to the listeners. (The loop calls this.)"""
        try:
            report = await self.spool.run_once()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # never let the queue die: report and retry later
            log.error("save queue pass failed", exc_info=True)
            report = RunReport(errors=[repr(exc)])
        for listener in list(self.listeners):
            for item in report.committed:
                _quietly(listener.committed, item)
            for item in report.failed:
                _quietly(listener.failed, item)
            for change in report.changes_landed:
                _quietly(listener.change_landed, change)
            for change in report.changes_failed:
                _quietly(listener.change_failed, change)
        self._tell_counts()
        return report

    async def _loop(self) -> None:
        wake = self._wake
        assert wake is not None
        while not self._stopping:
            wake.clear()
            await self.run_once()
            wait = next_wait(self.spool.next_due_in(), self.min_wait_s, self.max_wait_s)
            with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                await asyncio.wait_for(wake.wait(), timeout=wait)

    def _tell_counts(self) -> None:
        try:
            counts = (self.spool.pending_count(), len(self.spool.failed_items()))
        except OSError:
            return
        problems = self.spool.problems[self._problems_seen :]
        listeners = list(self.listeners)
        if problems:  # damaged files found (and set aside) by any spool operation
            self._problems_seen += len(problems)
            for listener in listeners:
                _quietly(listener.problems_found, list(problems))
        if counts != self._counts:
            self._counts = counts
            for listener in listeners:
                _quietly(listener.counts_changed, *counts)


def _quietly(tell: Callable[..., None], *args: object) -> None:
    try:
        tell(*args)
    except Exception:
        log.warning("save queue listener failed", exc_info=True)


async def settle_failed(
    runner: QueueRunner, item: SpoolItem, store: DocumentStore, ask: AskConflict
) -> Resolution:
    """A failed queued save through the one conflict path, with its text intact: ``ask`` is
    shown the current version. Keep mine is saved now over that version (queued again when
    GitHub is away; asked again when someone saved once more meanwhile); take theirs and saved
    as new drop it from the queue; cancel leaves it in "not saved". Raises, the item untouched,
    when the current version cannot be read (``conflicts.OtherRepository`` for a save of
    another repository or branch)."""
    saves = SaveService(
        store,
        Target(item.api_host, item.repo, item.branch),
        runner.spool,
        on_queued=lambda _item: runner.poke(),
    )
    found = await queued_conflict(saves, item)
    try:
        return await resolve_conflict(
            saves, found, ask, login=item.login, message=item.message, queued=item
        )
    finally:
        runner.poke()
