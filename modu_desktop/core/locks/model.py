"""What a lock means to us (Qt-free): ``LockStatus`` from our point of view, the ``LockView`` of one
document, who we are when we claim (``Claimant``), the ``HeldLock`` we hold, the outcomes of
acquire / heartbeat / release and the ``LockCode`` of what happened (the results that carry
them: ``results.py``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Protocol

from modu_desktop.core.locks.wire import (
    LOCK_DIR,
    LOCK_SUFFIX,
    LockRecord,
)

# --------------------------------------------------------------------------------------------
# Classification


class LockStatus(enum.Enum):
    FREE = "free"
    MINE_THIS_SESSION = "mine_this_session"
    MINE_OTHER_SESSION = "mine_other_session"
    HELD = "held"
    STALE = "stale"
    MALFORMED = "malformed"


@dataclass(frozen=True)
class LockView:
    """What is on the server for one document, classified from our point of view."""

    doc_id: str
    status: LockStatus
    sha: str | None
    record: LockRecord | None
    server_now: float
    stale_s: float
    same_install: bool = False  # the lock names this installation's id (this computer)

    @property
    def path(self) -> str:
        return f"{LOCK_DIR}/{self.doc_id}{LOCK_SUFFIX}"

    @property
    def holder(self) -> str | None:
        return None if self.record is None else self.record.editing_by

    @property
    def started_at(self) -> int | None:
        return None if self.record is None else self.record.started_at

    @property
    def last_heartbeat(self) -> int | None:
        return None if self.record is None else self.record.last_heartbeat

    @property
    def age_s(self) -> float | None:
        """Seconds since the last heartbeat, in server time (None if unknown)."""
        beat = self.last_heartbeat
        return None if beat is None else self.server_now - beat

    @property
    def is_stale(self) -> bool:
        age = self.age_s
        return age is not None and age >= self.stale_s

    @property
    def malformed_reason(self) -> str | None:
        return None if self.record is None else self.record.malformed


def classify(
    doc_id: str,
    sha: str | None,
    record: LockRecord | None,
    *,
    login: str,
    session_id: str,
    server_now: float,
    stale_s: float,
    install_id: str | None = None,
) -> LockView:
    if record is None or sha is None:
        status = LockStatus.FREE
        record = None
    elif record.is_malformed:
        status = LockStatus.MALFORMED
    else:
        age = server_now - (record.last_heartbeat or 0)
        mine = record.editing_by.casefold() == login.casefold()  # GitHub logins ignore case
        if mine and record.session_id == session_id:
            status = LockStatus.MINE_THIS_SESSION
        elif age >= stale_s:
            status = LockStatus.STALE
        elif mine:
            status = LockStatus.MINE_OTHER_SESSION
        else:
            status = LockStatus.HELD
    same_install = bool(record and install_id and record.install_id == install_id)
    return LockView(doc_id, status, sha, record, server_now, stale_s, same_install)


@dataclass(frozen=True)
class Claimant:
    """Who we are when we claim a lock: the login, this window's session id and this
    installation's id (they tell our claims apart), and the client written into the file."""

    login: str
    session_id: str
    install_id: str | None
    client_name: str
    client_version: str


# --------------------------------------------------------------------------------------------
# Holding and outcomes


@dataclass
class HeldLock:
    """A lock this session holds. ``sha`` is the blob sha we last wrote (mutated by heartbeats)."""

    doc_id: str
    sha: str
    started_at: int
    last_heartbeat: int
    misses: int = 0
    last_error: str | None = None  # the last miss's error, for the log

    @property
    def path(self) -> str:
        return f"{LOCK_DIR}/{self.doc_id}{LOCK_SUFFIX}"


class AcquireOutcome(enum.Enum):
    ACQUIRED = "acquired"  # created a new lock
    REUSED = "reused"  # it was already ours in this session
    TOOK_OVER = "took_over"  # replaced a stale / foreign / malformed lock with its seen sha
    BLOCKED = "blocked"  # someone (or we elsewhere) holds it: the UI must ask
    LOST_RACE = "lost_race"  # someone else wrote the lock between our read and our write
    FAILED = "failed"  # network / permission error; nothing changed as far as we know


class HeartbeatOutcome(enum.Enum):
    OK = "ok"
    LOST = "lost"  # someone else holds it now
    RELEASED = "released"  # the lock file is gone
    MISSED = "missed"  # could not reach the server; still ours as far as we know


class ReleaseOutcome(enum.Enum):
    RELEASED = "released"
    ALREADY_GONE = "already_gone"
    NOT_OURS = "not_ours"  # someone else holds it now: left alone
    FAILED = "failed"


class LockCode(enum.Enum):
    """What happened, one step finer than an outcome: the code a result carries (the CLI's JSON
    ``code``, what the benchmark counts), worded by ``core/locks/news.py`` in either language."""

    # acquire and take over
    ACQUIRED = "acquired"
    ALREADY_YOURS = "already_yours"
    TOOK_OVER = "took_over"
    TOOK_OVER_UNREADABLE = "took_over_unreadable"
    HELD_BY_OTHER = "held_by_other"
    LOCKED_AT_SAME_MOMENT = "locked_at_same_moment"
    TAKEN_FIRST = "taken_first"
    TAKEN_FIRST_BY_YOU_ELSEWHERE = "taken_first_by_you_elsewhere"
    KEPT_CHANGING = "kept_changing"
    COULD_NOT_LOCK = "could_not_lock"
    COULD_NOT_READ = "could_not_read"
    COULD_NOT_TAKE_OVER = "could_not_take_over"
    # heartbeat
    RENEWED = "renewed"
    MISSED = "missed"
    MISSED_EXPIRED = "missed_expired"
    # the lock is no longer ours (a heartbeat, a verify or a take-back learnt it)
    TAKEN_FROM_YOU = "taken_from_you"
    TAKEN_FROM_YOU_ELSEWHERE = "taken_from_you_elsewhere"
    REPLACED_BY_UNREADABLE = "replaced_by_unreadable"
    RELEASED_BY_OTHER = "released_by_other"
    LOST_WHILE_OFFLINE = "lost_while_offline"
    # release
    RELEASED = "released"
    RELEASED_FROM = "released_from"
    NOT_LOCKED = "not_locked"
    RELEASED_MEANWHILE = "released_meanwhile"
    CLAIMED_AGAIN = "claimed_again"
    NOT_YOURS = "not_yours"
    CHANGED_WHILE_RELEASING = "changed_while_releasing"
    COULD_NOT_RELEASE = "could_not_release"
    # verify
    STILL_YOURS = "still_yours"
    COULD_NOT_CHECK = "could_not_check"


def view_to_json(view: LockView) -> dict[str, Any]:
    """A JSON-ready description (used by ``locks list --json``)."""
    rec = view.record
    return {
        "docId": view.doc_id,
        "path": view.path,
        "status": view.status.value,
        "holder": view.holder,
        "startedAt": view.started_at,
        "lastHeartbeat": view.last_heartbeat,
        "ageSeconds": None if view.age_s is None else int(view.age_s),
        "stale": view.is_stale,
        "malformed": view.malformed_reason is not None,
        "malformedReason": view.malformed_reason,
        "claimedBy": rec.claimed_by if rec else None,
        "client": rec.client if rec else None,
        "sessionId": rec.session_id if rec else None,
        "installId": rec.install_id if rec else None,
        "host": rec.host if rec else None,  # old locks only
        "sha": view.sha,
    }


class LockObserver(Protocol):
    """Told about every lock a :class:`LockManager` comes to hold or stops holding (the
    held-lock records of ``core/locks/held.py`` follow the manager this way). An observer must not
    raise; the manager logs and ignores it if one does."""

    def lock_acquired(self, held: HeldLock) -> None: ...

    def lock_renewed(self, held: HeldLock) -> None: ...

    def lock_gone(self, doc_id: str) -> None: ...


class LockCall(enum.Enum):
    """The calls about a lock we hold that a :class:`LockCallWatcher` hears of."""

    HEARTBEAT = "heartbeat"
    VERIFY = "verify"
    RELEASE = "release"


class LockCallWatcher(Protocol):
    """Told when a :class:`LockManager` starts and ends a call about a lock it holds (the scale
    simulation times heartbeats and follows releases this way, without wrapping the manager).
    ``result`` is the call's result, None when it raised. A watcher must not raise."""

    def call_started(self, call: LockCall, held: HeldLock) -> None: ...

    def call_ended(self, call: LockCall, held: HeldLock, result: object | None) -> None: ...


STEAL_ATTEMPTS = 4  # a live holder heartbeats every few minutes: a 4th 409 in a row is odd


def same_claim(agreed: LockView, now: LockView) -> bool:
    """Whether ``now`` is still the claim the user agreed to replace: same holder, same session
    and same start (a heartbeat changes only ``lastHeartbeat``; the web admin keeps
    ``startedAt``, and has no session id, so its start tells its editing sessions apart)."""
    a, b = agreed.record, now.record
    if a is None or b is None or a.is_malformed or b.is_malformed:
        return False
    if now.status is LockStatus.MINE_THIS_SESSION:
        return False
    if agreed.status is LockStatus.STALE and not now.is_stale:
        return False  # taken over *because* it was dead, and it came back: ask the user
    return (
        a.editing_by.casefold() == b.editing_by.casefold()
        and a.session_id == b.session_id
        and a.started_at == b.started_at
    )
