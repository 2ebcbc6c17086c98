"""One change of many pages waiting in the save queue as one item (Qt-free).

A replacement across pages (or a picture's rename, or the undoing of one) that could not reach
GitHub waits in the same on-disk queue as the saves (:class:`~modu_desktop.core.saving.queue.
SaveSpool`), as ONE item: a :class:`ChangeItem` holding the whole prepared change — every file
over the blob sha the person reviewed, the pages' titles, the pages already left out — and who
makes it (login, session, installation, so that one's own locks do not keep a page out).

The queue does not know what a change is made of: ``body`` is the change as its room writes it
(``core/changes/outcome.PreparedChange.as_json``), and the spool's ``change_sender`` (made by
``core/changes/send.make_change_sender``) sends it with the same checks as at once on the head
it then finds — a page someone holds or that changed since is left out and reported, never
overwritten. Sending twice commits once: a file that already reads as asked is not written
again, so an item that may have landed (a lost answer, a crash while sending) is simply sent
again. Its outcomes: :class:`ChangesLanded` (with what became of each page), or the spool's
``Retryable`` (offline, busy: later) and ``Fatal`` (refused: failed, nothing changed).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from modu_desktop.core.saving.queue_item import (
    _ID_RE,
    _MAX_RETRY_AFTER_S,
    DONE,
    FAILED,
    PENDING,
    SENDING,
    STATES,
    Fatal,
    Retryable,
)

CHANGE_KIND = "changes"

__all__ = [
    "CHANGE_KIND",
    "ChangeItem",
    "ChangeQueueing",
    "ChangeSender",
    "ChangesLanded",
    "is_change_body",
]


@dataclass(frozen=True)
class ChangesLanded:
    """The change was sent: ``result`` is what became of it (the changes room's outcome as
    JSON: committed pages, pages left out); ``commit_sha`` None when nothing was committed."""

    result: dict[str, Any]
    commit_sha: str | None = None


@dataclass
class ChangeItem:
    """One queued change of many pages. ``state`` is the folder it was read from (not stored);
    ``pages``: how many pages it would change, for the queue's count and its words."""

    id: str
    api_host: str
    repo: str
    branch: str
    login: str
    session_id: str
    body: dict[str, Any]
    created_at: float
    pages: int = 0
    install_id: str | None = None
    stale_s: float = 900.0
    attempts: int = 0
    last_error: str | None = None
    next_attempt_at: float = 0.0
    result: dict[str, Any] | None = None
    commit_sha: str | None = None
    failure: str | None = None  # "exhausted" | "fatal"
    finished_at: float | None = None
    state: str = PENDING
    kind: str = field(default=CHANGE_KIND, init=False)

    @property
    def target(self) -> tuple[str, str, str, str]:
        """Never the target of a save: a change is never merged with another item."""
        return (self.api_host, self.repo, self.branch, f"{CHANGE_KIND}:{self.id}")

    def to_json(self) -> dict[str, Any]:
        body = dataclasses.asdict(self)
        body.pop("state")
        return body

    @classmethod
    def from_json(cls, body: dict[str, Any], state: str) -> ChangeItem:
        for name in ("id", "api_host", "repo", "branch", "login", "session_id"):
            if not isinstance(body.get(name), str):
                raise ValueError(f"{name} must be a string")
        if not _ID_RE.match(body["id"]):
            raise ValueError("malformed id")
        change = body.get("body")
        if not isinstance(change, dict) or not isinstance(change.get("files"), list):
            raise ValueError("body must hold the change's files")
        for name in ("created_at", "next_attempt_at", "stale_s"):
            value = body.get(name)
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise ValueError(f"{name} must be a number")
        attempts = body.get("attempts")
        if not isinstance(attempts, int) or isinstance(attempts, bool) or attempts < 0:
            raise ValueError("attempts must be a non-negative integer")
        if body.get("result") is not None and not isinstance(body["result"], dict):
            raise ValueError("result must be an object or null")
        names = {f.name for f in dataclasses.fields(cls) if f.init} - {"state"}
        return cls(**{k: v for k, v in body.items() if k in names}, state=state)


def is_change_body(body: dict[str, Any]) -> bool:
    """Whether a queue file's body is a change of many pages (else it is one save)."""
    return body.get("kind") == CHANGE_KIND


ChangeSender = Callable[[ChangeItem], Awaitable[ChangesLanded | Retryable | Fatal]]


class _Report(Protocol):
    @property
    def changes_landed(self) -> list[ChangeItem]: ...
    @property
    def changes_failed(self) -> list[ChangeItem]: ...


class _Delays(Protocol):
    def delay(self, attempt: int) -> float: ...


class _Spool(Protocol):
    """The parts of the spool a queued change goes through (``SaveSpool`` has them)."""

    @property
    def change_sender(self) -> ChangeSender | None: ...
    @property
    def max_attempts(self) -> int: ...
    @property
    def backoff(self) -> _Delays: ...
    @property
    def clock(self) -> Callable[[], float]: ...
    @property
    def _lock(self) -> AbstractContextManager[Any]: ...

    def _new_id(self, now: float) -> str: ...
    def _write(self, item: Any, state: str) -> None: ...
    def _transition(self, item: Any, source: str, dest: str) -> None: ...
    def _read_one(self, item_id: str, state: str) -> Any: ...
    def _is_due(self, item: Any) -> bool: ...
    def _all(self, *states: str) -> list[Any]: ...


class ChangeQueueing:
    """The save queue's part for changes of many pages (``SaveSpool`` has it): queue one,
    list them, send one."""

    def enqueue_change(
        self: _Spool,
        *,
        api_host: str,
        repo: str,
        branch: str,
        login: str,
        session_id: str,
        body: dict[str, Any],
        pages: int,
        install_id: str | None = None,
        stale_s: float = 900.0,
    ) -> ChangeItem:
        """Queue a change of many pages as one item (on disk, fsynced, when this returns)."""
        now = self.clock()
        item = ChangeItem(
            self._new_id(now), api_host.rstrip("/"), repo, branch, login, session_id, body, now
        )
        item.pages, item.install_id, item.stale_s, item.next_attempt_at = (
            pages,
            install_id,
            stale_s,
            now,
        )
        with self._lock:
            self._write(item, PENDING)
        return item

    def change_items(self: _Spool, *states: str) -> list[ChangeItem]:
        """The queued changes of many pages in ``states`` (all states when none is named)."""
        with self._lock:
            return [i for i in self._all(*(states or STATES)) if isinstance(i, ChangeItem)]

    def _recover_changes(self: _Spool) -> None:
        """At start, a change found being sent goes back to wait: sent again, what landed is
        not written twice. Call with the lock held."""
        for change in (i for i in self._all(SENDING) if isinstance(i, ChangeItem)):
            change.next_attempt_at = self.clock()
            change.last_error = change.last_error or "interrupted while sending"
            self._transition(change, SENDING, PENDING)

    async def _process_change(self: _Spool, queued: ChangeItem, report: _Report) -> None:
        """Send one queued change: to the report's ``changes_landed`` when it was sent, to its
        ``changes_failed`` when it cannot be for good; back to wait otherwise (not due, no
        sender: nothing)."""
        if self.change_sender is None:
            return
        with self._lock:
            item = self._read_one(queued.id, PENDING)
            if not isinstance(item, ChangeItem) or not self._is_due(item):
                return
            item.attempts += 1
            self._transition(item, PENDING, SENDING)
        try:
            outcome = await self.change_sender(dataclasses.replace(item))
        except Exception as exc:  # harmless to send again: nothing is written twice
            outcome = Retryable(f"sender raised {exc!r}")
        item.finished_at = self.clock()
        if isinstance(outcome, ChangesLanded):
            item.result, item.commit_sha, item.last_error = outcome.result, outcome.commit_sha, None
            with self._lock:
                self._transition(item, SENDING, DONE)
            report.changes_landed.append(item)
            return
        item.last_error = outcome.reason
        if isinstance(outcome, Retryable) and item.attempts < self.max_attempts:
            delay = self.backoff.delay(item.attempts)
            if outcome.retry_after is not None:
                delay = max(delay, min(outcome.retry_after, _MAX_RETRY_AFTER_S))
            item.finished_at, item.next_attempt_at = None, self.clock() + delay
            with self._lock:
                self._transition(item, SENDING, PENDING)
            return
        item.failure = "fatal" if isinstance(outcome, Fatal) else "exhausted"
        with self._lock:
            self._transition(item, SENDING, FAILED)
        report.changes_failed.append(item)
