"""One queued save (Qt-free): the sender's outcomes, SpoolItem with its base chain, how a newer save
supersedes or rebases on an older one, and how a server sha is judged (see core/saving/queue.py)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

from modu_desktop.core.atomic import git_blob_sha

PENDING, SENDING, DONE, FAILED = "pending", "sending", "done", "failed"
STATES = (PENDING, SENDING, DONE, FAILED)
_ID_RE = re.compile(r"^\d{13}-\d{4}-[0-9a-f]{8}$")
_MAX_REBASES = 3
_MAX_RETRY_AFTER_S = 3600.0


@dataclass(frozen=True)
class Committed:
    """The write was applied; ``new_sha`` is the file's new blob sha."""

    new_sha: str
    commit_sha: str | None = None


@dataclass(frozen=True)
class NotAtBase:
    """The server's file is not at our base (``their_sha`` None: the file is absent)."""

    their_sha: str | None


@dataclass(frozen=True)
class Retryable:
    """Definitely not applied (offline before sending, rate limit, 5xx known to be harmless)."""

    reason: str
    retry_after: float | None = None


@dataclass(frozen=True)
class Uncertain:
    """May or may not have been applied (timeout or reset after the request went out)."""

    reason: str


@dataclass(frozen=True)
class Fatal:
    """Will never succeed as is (no permission, validation error)."""

    reason: str


SendOutcome = Committed | NotAtBase | Retryable | Uncertain | Fatal


_STR_FIELDS = ("id", "api_host", "repo", "branch", "path", "doc_id", "text", "message", "login")


_OPT_STR_FIELDS = (
    "base_sha",
    "last_error",
    "result_sha",
    "commit_sha",
    "their_sha",
    "failure",
)


class SaveRequest(TypedDict):
    """What to save where: the keyword arguments of ``SaveSpool.enqueue`` (and of the UI's
    ``SaveQueue.enqueue``, which passes them on)."""

    api_host: str
    repo: str
    branch: str
    path: str
    doc_id: str
    text: str
    base_sha: str | None
    message: str
    login: str


@dataclass
class SpoolItem:
    """One queued save. ``state`` is the directory the item was read from (not stored)."""

    id: str
    api_host: str
    repo: str
    branch: str
    path: str
    doc_id: str
    text: str
    base_sha: str | None
    message: str
    login: str
    created_at: float
    attempts: int = 0
    last_error: str | None = None
    next_attempt_at: float = 0.0
    verify_first: bool = False
    accept_shas: list[str] = field(default_factory=list)
    supersedes: list[str] = field(default_factory=list)
    result_sha: str | None = None
    commit_sha: str | None = None
    their_sha: str | None = None
    failure: str | None = None  # "conflict" | "exhausted" | "fatal"
    finished_at: float | None = None
    state: str = PENDING

    @property
    def target(self) -> tuple[str, str, str, str]:
        return (self.api_host, self.repo, self.branch, self.path)

    def content_bytes(self) -> bytes:
        """The exact bytes to send (UTF-8 of ``text``); the sender must send these."""
        return self.text.encode("utf-8")

    def blob_sha(self) -> str:
        """Git blob sha of :meth:`content_bytes` (the server's sha once written)."""
        return git_blob_sha(self.content_bytes())

    def to_json(self) -> dict[str, Any]:
        body = dataclasses.asdict(self)
        body.pop("state")
        return body

    @classmethod
    def from_json(cls, body: dict[str, Any], state: str) -> SpoolItem:
        for name in _STR_FIELDS:
            if not isinstance(body.get(name), str):
                raise ValueError(f"{name} must be a string")
        for name in _OPT_STR_FIELDS:
            if body.get(name) is not None and not isinstance(body.get(name), str):
                raise ValueError(f"{name} must be a string or null")
        for name in ("created_at", "next_attempt_at"):
            if not _is_number(body.get(name)):
                raise ValueError(f"{name} must be a number")
        if body.get("finished_at") is not None and not _is_number(body.get("finished_at")):
            raise ValueError("finished_at must be a number or null")
        attempts = body.get("attempts")
        if not isinstance(attempts, int) or isinstance(attempts, bool) or attempts < 0:
            raise ValueError("attempts must be a non-negative integer")
        if not isinstance(body.get("verify_first"), bool):
            raise ValueError("verify_first must be a boolean")
        for name in ("accept_shas", "supersedes"):
            value = body.get(name)
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ValueError(f"{name} must be a list of strings")
        if not _ID_RE.match(body["id"]):
            raise ValueError("malformed id")
        names = {f.name for f in dataclasses.fields(cls)} - {"state"}
        known = {k: v for k, v in body.items() if k in names}
        return cls(**known, state=state)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _unique(values: list[str | None], exclude: str | None) -> list[str]:
    seen: list[str] = []
    for v in values:
        if v is not None and v != exclude and v not in seen:
            seen.append(v)
    return seen


def merge_superseded(older: SpoolItem, newer: SpoolItem) -> SpoolItem:
    """The item that replaces ``older`` when ``newer`` (same target) is saved after it.

    Newest text always wins. See the module docstring for the choice of base."""
    chain: list[str | None] = [older.base_sha, *older.accept_shas, older.blob_sha()]
    if newer.base_sha in chain:
        base = older.base_sha
        accept = _unique([*chain, newer.base_sha, *newer.accept_shas], exclude=base)
        verify = older.verify_first or newer.verify_first
    else:
        base, accept, verify = newer.base_sha, list(newer.accept_shas), newer.verify_first
    supersedes = _unique([*older.supersedes, older.id, *newer.supersedes], exclude=None)
    return dataclasses.replace(
        newer, base_sha=base, accept_shas=accept, verify_first=verify, supersedes=supersedes
    )


def rebase_on_done(done: SpoolItem, newer: SpoolItem) -> SpoolItem:
    """A save based on a state that one of our own committed saves replaced is rebased onto
    that commit (the editor may not have heard of it yet): its text descends from ours."""
    if done.result_sha is None or newer.base_sha == done.result_sha:
        return newer
    chain: list[str | None] = [done.base_sha, *done.accept_shas, done.blob_sha()]
    if newer.base_sha not in chain:
        return newer
    accept = _unique([*chain, *newer.accept_shas], exclude=None)
    rebased = dataclasses.replace(newer, accept_shas=accept)
    rebase(rebased, done.result_sha)
    return rebased


def rebase(item: SpoolItem, new_base: str | None) -> None:
    """Point ``item`` at a newer base of its own chain; the old base stays in the chain
    (``accept_shas``) so later saves based on it are still recognised as ours."""
    if new_base == item.base_sha:
        return
    item.accept_shas = _unique([item.base_sha, *item.accept_shas], exclude=new_base)
    item.base_sha = new_base


_DONE, _SEND, _CONFLICT = "done", "send", "conflict"


def judge(item: SpoolItem, server_sha: str | None) -> str:
    """Compare the server's current blob sha with the item: "done", "send" or "conflict"."""
    if server_sha is not None and server_sha == item.blob_sha():
        return _DONE
    if server_sha == item.base_sha:
        return _SEND
    if server_sha is not None and server_sha in item.accept_shas:
        return _SEND
    return _CONFLICT


Sender = Callable[[SpoolItem], Awaitable[SendOutcome]]


Reader = Callable[[SpoolItem], Awaitable[str | None]]
