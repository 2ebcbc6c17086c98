"""What an editing session and its view say to each other: the session's modes, who holds a
lock (decided here once: :func:`holder_of`, :func:`is_blocking`), the questions the view answers
(:class:`EditView`) and the typed events it is told. Events carry codes and fields, never
sentences: the view words them (``modu_desktop.i18n.tr``)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol

from modu_desktop.core.documents.store import LoadedDoc
from modu_desktop.core.locks.model import LockStatus, LockView, ReleaseOutcome, same_claim
from modu_desktop.core.saving.conflicts import Conflict, ConflictDecision


class Mode(enum.Enum):
    EDIT = "edit"
    READ_ONLY = "read_only"  # someone else holds the lock; we chose to look only
    VIEWER = "viewer"  # viewer mode: never any writes


class TakeOver(enum.Enum):
    CANCEL = "cancel"
    READ_ONLY = "read_only"
    TAKE_OVER = "take_over"


# -- who holds a lock: the one rule --------------------------------------------------------------


def is_blocking(view: LockView) -> bool:
    """Does this lock stop us from editing without asking? (A stale one is taken over.)"""
    return view.status in (LockStatus.HELD, LockStatus.MINE_OTHER_SESSION, LockStatus.MALFORMED)


def holder_of(view: LockView) -> str | None:
    """Who holds the lock, as shown to people: the login it names, or for an unreadable lock the
    login it seems to name (None when nothing can be read)."""
    rec = view.record
    if rec is not None and rec.malformed:
        return rec.claimed_by or None
    return view.holder


@dataclass(frozen=True)
class LockHolder:
    """What the lock question shows: who, since when, last sign of life (server time)."""

    doc_id: str
    holder: str | None  # login, None if the lock file is unreadable
    started_at: float | None
    last_heartbeat: float | None
    now: float  # server time, for "x minutes ago"
    same_user: bool = False  # our own login, from another window or computer
    malformed: bool = False
    title: str | None = None  # the document's title, if known
    # asked again because the lock changed after the user agreed to take it over from this
    # holder (a login; their editing session is not the one holding the lock now)
    changed_from: str | None = None

    @property
    def label(self) -> str:
        return self.title or self.doc_id

    @classmethod
    def of(
        cls, view: LockView, title: str | None = None, *, agreed: LockView | None = None
    ) -> LockHolder:
        """``agreed``: the lock the user last agreed to take over; when ``view`` is another
        claim, the question says it changed (``changed_from``)."""
        changed = None
        if agreed is not None and agreed.sha != view.sha and not same_claim(agreed, view):
            changed = holder_of(agreed) or "?"
        return cls(
            doc_id=view.doc_id,
            holder=holder_of(view),
            started_at=view.started_at,
            last_heartbeat=view.last_heartbeat,
            now=view.server_now,
            same_user=view.status is LockStatus.MINE_OTHER_SESSION,
            malformed=view.status is LockStatus.MALFORMED,
            title=title,
            changed_from=changed,
        )


# -- events ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LockRenewed:
    doc_id: str
    at: float  # server time


@dataclass(frozen=True)
class HeartbeatMissed:
    doc_id: str
    misses: int
    expires_in_s: float | None
    error: BaseException | None


@dataclass(frozen=True)
class LockLost:
    """The lock is gone: read-only now, the text untouched. ``by`` None = released (or unknown);
    ``by_me_elsewhere``: our own login in another window took it."""

    doc_id: str
    by: str | None
    at: float | None
    released: bool
    by_me_elsewhere: bool = False
    during_save: bool = False


@dataclass(frozen=True)
class Saved:
    doc_id: str
    text: str
    sha: str
    commit_sha: str | None


@dataclass(frozen=True)
class Queued:
    doc_id: str
    text: str
    item_id: str
    cause: BaseException | None


@dataclass(frozen=True)
class TheirsTaken:
    doc_id: str
    text: str
    sha: str
    saved_as_new: bool


@dataclass(frozen=True)
class NotSaved:
    """``reason``: ``error`` (``error`` set), ``lock_lost``, ``lock_unchecked``, ``conflict``."""

    doc_id: str
    reason: str
    error: BaseException | None = None


@dataclass(frozen=True)
class Released:
    doc_id: str
    outcome: ReleaseOutcome | None  # None: the release failed or timed out


@dataclass(frozen=True)
class RaceLost:
    """Someone else took the lock at the same moment we did (``view``: who holds it now, as
    re-read by the lock manager); we look again."""

    doc_id: str
    view: LockView | None = None


@dataclass(frozen=True)
class LockParked:
    """Nobody typed for ``idle_s`` seconds: the lock was released so others may edit. The editor
    and its draft stay; the next keystroke takes the lock back (:meth:`EditSession.resume`)."""

    doc_id: str
    idle_s: float


@dataclass(frozen=True)
class LockResumed:
    """The lock released for idleness is ours again (``took_over``: a stale lock we replaced)."""

    doc_id: str
    took_over: LockHolder | None = None


@dataclass(frozen=True)
class ResumeFailed:
    """Taking the lock back after an idle release failed (``error``: why; None: others kept
    changing the lock). The text stays; the next keystroke or save tries again."""

    doc_id: str
    error: BaseException | None = None


@dataclass(frozen=True)
class OpenFailed:
    """``reason``: ``error`` (``error`` set) or ``contended`` (others kept changing the lock)."""

    doc_id: str
    reason: str
    error: BaseException | None = None


SessionEvent = (
    LockRenewed
    | HeartbeatMissed
    | LockLost
    | Saved
    | Queued
    | TheirsTaken
    | NotSaved
    | Released
    | RaceLost
    | OpenFailed
    | LockParked
    | LockResumed
    | ResumeFailed
)


class EditView(Protocol):
    """What an :class:`EditSession` needs from whoever shows it."""

    async def ask_take_over(self, holder: LockHolder) -> TakeOver: ...

    async def ask_conflict(self, conflict: Conflict) -> ConflictDecision: ...

    def report(self, event: SessionEvent) -> None: ...

    def update_take_over(self, holder: LockHolder) -> None:
        """The open lock question now names ``holder`` (a fresh read found another lock)."""

    def withdraw_take_over(self) -> None:
        """Close the open lock question: the lock no longer blocks (the open looks again)."""


# -- what opening gives the view ------------------------------------------------------------------


@dataclass
class Opened:
    """The document as loaded: the view shows ``text``; ``took_over`` is the stale lock we
    replaced (None when the document was free) and ``holder`` who holds it in read-only mode."""

    loaded: LoadedDoc
    mode: Mode
    took_over: LockHolder | None = None
    holder: LockHolder | None = None
