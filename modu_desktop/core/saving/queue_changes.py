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
from dataclasses import dataclass, field
from typing import Any

from modu_desktop.core.saving.queue_item import _ID_RE, PENDING, Fatal, Retryable

CHANGE_KIND = "changes"

__all__ = ["CHANGE_KIND", "ChangeItem", "ChangeSender", "ChangesLanded", "is_change_body"]


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
