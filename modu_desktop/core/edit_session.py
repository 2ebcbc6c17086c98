"""One open document's editing session, Qt-free: open → lock → load → heartbeat → save → release.

The session owns the protocol and its state machine; its view (the window, or a fake in tests)
only renders. The session talks to the view through :class:`EditView`:

* decisions it must ask — :meth:`EditView.ask_take_over` (someone holds the lock: take over,
  read only, or cancel?) and :meth:`EditView.ask_conflict` (someone saved first: keep mine,
  take theirs, save mine as a new document, or cancel?);
* typed events it reports — :class:`LockRenewed`, :class:`HeartbeatMissed`, :class:`LockLost`
  ``(by, at)``, :class:`Saved`, :class:`Queued`, :class:`TheirsTaken`,
  :class:`Released`, :class:`RaceLost`, :class:`OpenFailed`, :class:`NotSaved`.

Events carry codes and fields, never sentences: the view words them (``modu_desktop.i18n.tr``).

Walk of a save: ``save(text)`` → ``LockManager.verify`` (one tree read when unchanged) → lost?
``LockLost`` and ``NotSaved("lock_lost")`` · unreachable and a queue exists? go on, the queued
write still carries its base sha · → :class:`~modu_desktop.core.saving.service.SaveService.save` →
``SaveResult``: ``Saved`` (new base sha) | ``QueuedSave``: ``Queued`` (on disk, goes out by
itself) | ``SaveConflict`` → the view is asked → keep mine (save again over their sha) | take
theirs | save as new | cancel.

Walk of a steal: ``open(doc)`` → acquire (or inspect first when the list showed a lock) →
BLOCKED → ``ask_take_over(LockHolder)`` → TAKE_OVER → ``LockManager.steal(view)`` (PUT with the
sha we saw: someone faster wins, never overwritten) → we edit. The one stolen from learns it at
its next heartbeat (or at once when a list refresh sees the lock's sha change: :meth:`lock_seen`):
the heartbeat's PUT conflicts → ``LockLost(by, at)`` → its text stays, read-only.

Idle release: after ``idle_release_s`` without typing (``Workspace.idle_release_s``, default 20
minutes) the lock is released so others may edit; the editor and its draft stay
(``LockParked``). The view calls :meth:`note_typing` on every keystroke; when it answers True
the view runs :meth:`resume`, which takes the lock again if it is free (``LockResumed``) or asks
the usual question — taking over, or read-only with the text kept (``LockLost``).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from modu_desktop.core.documents.store import LoadedDoc, SaveConflict, SaveResult
from modu_desktop.core.github.errors import BranchMoved
from modu_desktop.core.locks.model import (
    AcquireOutcome,
    HeartbeatOutcome,
    HeldLock,
    LockStatus,
    LockView,
    ReleaseOutcome,
    same_claim,
)
from modu_desktop.core.locks.results import AcquireResult, LockFailure
from modu_desktop.core.saving.conflicts import Conflict, ConflictDecision, resolve_conflict
from modu_desktop.core.saving.service import QueuedSave

if TYPE_CHECKING:
    from modu_desktop.core.workspace import Workspace

log = logging.getLogger(__name__)

OPEN_ATTEMPTS = 3


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


# -- the session ----------------------------------------------------------------------------------


@dataclass
class Opened:
    """The document as loaded: the view shows ``text``; ``took_over`` is the stale lock we
    replaced (None when the document was free) and ``holder`` who holds it in read-only mode."""

    loaded: LoadedDoc
    mode: Mode
    took_over: LockHolder | None = None
    holder: LockHolder | None = None


@dataclass
class _Timing:
    heartbeat_s: float
    release_timeout_s: float
    idle_release_s: float | None  # None: never released for idleness


_LATER: set[asyncio.Future[Any]] = set()  # releases sent again after the window closed
MISSED_BEAT_FRACTION = 5  # after a missed heartbeat the next try comes after 1/5 of the interval
RESUME_PAUSE_S = 10.0  # after a failed resume, keystrokes wait this long before trying again


class EditSession:
    """One open document. Create it with :meth:`open` (or :meth:`adopt` for a lock we already
    hold); end it with :meth:`close` (releases the lock) or :meth:`forget` (the document and its
    lock are gone)."""

    def __init__(
        self,
        ws: Workspace,
        view: EditView,
        loaded: LoadedDoc,
        mode: Mode,
        held: HeldLock | None,
        *,
        title: str = "",
        release_timeout_s: float = 10.0,
        idle_release_s: float | None = None,
    ) -> None:
        self.ws = ws
        self.view = view
        self.doc_id = loaded.doc_id
        self.path = loaded.path
        self.base_sha = loaded.sha
        self.mode = mode
        self.title = title or loaded.doc_id
        self.held = held
        self.lost = False
        self.lost_view: LockView | None = None  # the lock that replaced ours, once lost
        self.saving = False
        self.closed = False
        self.parked = False  # the lock was released for idleness; the editor stays editable
        if idle_release_s is None:
            idle_release_s = getattr(ws, "idle_release_s", None)
        self._timing = _Timing(
            float(ws.locks.heartbeat_s),
            release_timeout_s,
            float(idle_release_s) if idle_release_s else None,
        )
        self._wake = asyncio.Event()
        self._guard = asyncio.Lock()  # parking, resuming and saving never interleave
        self._heartbeat: asyncio.Task[None] | None = None
        self._last_typed = _now()
        self._keystrokes = 0
        self._resume_not_before = 0.0
        if mode is Mode.EDIT and held is not None:
            self._start_heartbeat()

    # -- state ---------------------------------------------------------------------------------

    @property
    def editable(self) -> bool:
        """The user may type and save: we hold the lock, or released it only for idleness
        (the next keystroke or save takes it back)."""
        return self.mode is Mode.EDIT and not self.lost and (self.held is not None or self.parked)

    def lock_seen(self, lock_sha: str | None) -> None:
        """A list refresh saw our lock file at ``lock_sha`` (None: gone): if that is not the sha
        we wrote, check now instead of at the next heartbeat."""
        if self.held is not None and not self.lost and lock_sha != self.held.sha:
            self._wake.set()

    def rebase(self, sha: str) -> None:
        """The server's version of the text is now ``sha`` and it is ours (a queued save
        landed, or only ``sidebar_position`` was changed by a reorder we carried over)."""
        self.base_sha = sha

    # -- opening -------------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        ws: Workspace,
        view: EditView,
        doc_id: str,
        *,
        title: str | None = None,
        list_saw_no_lock: bool = False,
        viewer: bool = False,
        release_timeout_s: float = 10.0,
    ) -> tuple[EditSession, Opened] | None:
        """Lock (asking the view when someone else has it), load, start the heartbeat.
        None when the user cancelled or it failed (the view was told why)."""

        def make(loaded: LoadedDoc, mode: Mode, held: HeldLock | None) -> EditSession:
            return cls(
                ws,
                view,
                loaded,
                mode,
                held,
                title=title or doc_id,
                release_timeout_s=release_timeout_s,
            )

        async def load(preloaded: LoadedDoc | None = None) -> LoadedDoc | None:
            if preloaded is not None:
                return preloaded
            try:
                return await ws.store.load(doc_id)
            except Exception as exc:
                view.report(OpenFailed(doc_id, "error", exc))
                return None

        if viewer:
            loaded = await load()
            if loaded is None:
                return None
            return make(loaded, Mode.VIEWER, None), Opened(loaded, Mode.VIEWER)

        held: HeldLock | None = None
        preloaded: LoadedDoc | None = None
        took_over: LockHolder | None = None
        fresh: asyncio.Task[LockView] | None = None  # a fresh lock read while asking from cache
        agreed: LockView | None = None  # the lock the user last agreed to take over
        for attempt in range(OPEN_ATTEMPTS):
            try:
                if attempt == 0 and list_saw_no_lock:
                    # The list saw no lock: write the lock and read the text in the same round
                    # trip. A lock created since is still safe: a PUT without sha cannot replace
                    # it, and acquire then reports who holds it.
                    res, preloaded = await _acquire_and_load(ws, doc_id)
                    if res.held is None:
                        # Not ours yet: a lock question may stay open for minutes, so the text
                        # read now would be stale by the time the user takes over. Read again.
                        preloaded = None
                else:
                    # Look first (reads only): a fresh foreign lock goes straight to the
                    # question, without a doomed write attempt. The list's cached lock asks at
                    # once while one fresh read checks it.
                    seen, fresh = _cached_then_fresh(ws, doc_id) if attempt == 0 else (None, None)
                    if seen is None:
                        seen = await ws.locks.inspect(doc_id)
                    if is_blocking(seen):
                        res = AcquireResult(AcquireOutcome.BLOCKED, doc_id, view=seen)
                    else:
                        res = await ws.locks.acquire(doc_id, take_stale=True)
            except Exception as exc:
                view.report(OpenFailed(doc_id, "error", exc))
                return None
            if res.outcome in (AcquireOutcome.ACQUIRED, AcquireOutcome.REUSED):
                held = res.held
                break
            if res.outcome is AcquireOutcome.TOOK_OVER:
                held = res.held
                took_over = LockHolder.of(res.view, title) if res.view is not None else None
                break
            if res.outcome is AcquireOutcome.FAILED:
                view.report(OpenFailed(doc_id, "error", res.error or LockFailure(res.text)))
                return None
            if res.outcome is AcquireOutcome.LOST_RACE:
                continue  # look again
            # BLOCKED: ask
            lock_view = res.view
            assert lock_view is not None
            if fresh is not None:
                asked, lock_view, agreed_now = await _ask_with_fresh_check(
                    view, lock_view, fresh, title
                )
                fresh = None
                agreed = agreed_now or agreed
                if asked is None:
                    continue  # the lock changed while asking: look again
                choice = asked
            else:
                choice = await view.ask_take_over(LockHolder.of(lock_view, title, agreed=agreed))
            holder = LockHolder.of(lock_view, title)
            if choice is TakeOver.CANCEL:
                return None
            if choice is TakeOver.READ_ONLY:
                loaded = await load()
                if loaded is None:
                    return None
                return make(loaded, Mode.READ_ONLY, None), Opened(
                    loaded, Mode.READ_ONLY, holder=holder
                )
            agreed = lock_view
            try:
                stolen = await ws.locks.steal(lock_view)
            except Exception as exc:
                view.report(OpenFailed(doc_id, "error", exc))
                return None
            if stolen.held is not None:
                held = stolen.held
                break
            if stolen.outcome is AcquireOutcome.FAILED:
                view.report(OpenFailed(doc_id, "error", stolen.error or LockFailure(stolen.text)))
                return None
            # lost the race: someone else took it first; the next round shows the new holder
            view.report(RaceLost(doc_id, stolen.view))
        if held is None:
            view.report(OpenFailed(doc_id, "contended"))
            return None
        loaded = await load(preloaded)
        if loaded is None:
            await _release_quietly(ws, held, release_timeout_s)
            return None
        return make(loaded, Mode.EDIT, held), Opened(loaded, Mode.EDIT, took_over=took_over)

    @classmethod
    async def adopt(
        cls,
        ws: Workspace,
        view: EditView,
        doc_id: str,
        held: HeldLock,
        *,
        title: str | None = None,
        release_timeout_s: float = 10.0,
    ) -> tuple[EditSession, Opened] | None:
        """Open a document whose lock we already hold (just created, or resumed after a crash).
        If it cannot be loaded, the lock is released."""
        try:
            loaded = await ws.store.load(doc_id)
        except Exception as exc:
            view.report(OpenFailed(doc_id, "error", exc))
            await _release_quietly(ws, held, release_timeout_s)
            return None
        session = cls(
            ws,
            view,
            loaded,
            Mode.EDIT,
            held,
            title=title or doc_id,
            release_timeout_s=release_timeout_s,
        )
        return session, Opened(loaded, Mode.EDIT)

    # -- idle release --------------------------------------------------------------------------

    def note_typing(self) -> bool:
        """The user typed (call on every keystroke): the idle time starts again. True when the
        lock was released for idleness and should be taken back now: run :meth:`resume`."""
        now = _now()
        self._last_typed = now
        self._keystrokes += 1
        return (
            self.parked
            and not self.lost
            and not self.closed
            and not self._guard.locked()
            and now >= self._resume_not_before
        )

    def _idle_deadline(self) -> float | None:
        idle = self._timing.idle_release_s
        return None if idle is None else self._last_typed + idle

    async def _park(self) -> bool:
        """Release the lock for idleness. True when the heartbeat should stop (released, or
        someone else's now); False when the release failed and the lock is still ours."""
        if self._guard.locked():
            return False  # a save or a resume is running: not idle after all
        async with self._guard:
            held = self.held
            if held is None or self.lost or self.closed:
                return True
            if self.saving:
                return False
            idle_at = self._idle_deadline()
            if idle_at is None or _now() < idle_at:
                return False  # typed while waiting for the guard
            keystrokes = self._keystrokes
            # Awaited to its end (the client's own timeouts bound it; nobody waits here but a
            # save that came meanwhile): a release cut off half-way may still land, and the
            # heartbeat would then find the lock gone and report it released by someone else.
            try:
                res = await self.ws.locks.release(held)
            except Exception as exc:
                log.info("idle release of %s failed: %s", self.doc_id, exc)
                return False
            if res.outcome is ReleaseOutcome.FAILED:
                return False
            if res.outcome is ReleaseOutcome.NOT_OURS:
                self._lose(res.view, released=False)
                return True
            self.held = None
            self.parked = True
            self.view.report(LockParked(self.doc_id, self._timing.idle_release_s or 0.0))
        if self._keystrokes != keystrokes and not self.closed:
            # typed while the release was on its way: take the lock back at once
            asyncio.ensure_future(self.resume()).add_done_callback(_quiet)
        return True

    async def resume(self) -> SessionEvent | None:
        """Take back the lock released for idleness: acquire it if it is free (or stale), else
        ask the usual question (take over → steal; read-only or cancel → ``LockLost``, the text
        stays). None when there was nothing to do."""
        async with self._guard:
            if not self.parked or self.lost or self.closed:
                return None
            return await self._resume()

    async def _resume(self) -> SessionEvent:
        for _ in range(OPEN_ATTEMPTS):
            try:
                res = await self.ws.locks.acquire(self.doc_id, take_stale=True)
            except Exception as exc:
                return self._resume_failed(exc)
            if res.held is not None:
                took = res.outcome is AcquireOutcome.TOOK_OVER and res.view is not None
                holder = LockHolder.of(res.view, self.title) if took and res.view else None
                return self._resumed(res.held, holder)
            if res.outcome is AcquireOutcome.FAILED:
                return self._resume_failed(res.error or LockFailure(res.text))
            if res.outcome is AcquireOutcome.LOST_RACE or res.view is None:
                continue
            choice = await self.view.ask_take_over(LockHolder.of(res.view, self.title))
            if self.closed or self.lost:
                return self._resume_failed(None)
            if choice is TakeOver.TAKE_OVER:
                try:
                    stolen = await self.ws.locks.steal(res.view)
                except Exception as exc:
                    return self._resume_failed(exc)
                if stolen.held is not None:
                    return self._resumed(stolen.held, None)
                if stolen.outcome is AcquireOutcome.FAILED:
                    return self._resume_failed(stolen.error or LockFailure(stolen.text))
                self.view.report(RaceLost(self.doc_id, stolen.view))
                continue
            # Someone else edits it now and we leave it to them: read-only, our text stays.
            self.parked = False
            self._lose(res.view, released=False)
            return LockLost(self.doc_id, holder_of(res.view), res.view.started_at, False)
        return self._resume_failed(None)

    def _resumed(self, held: HeldLock, took_over: LockHolder | None) -> SessionEvent:
        if self.closed:  # closed while the lock was being taken back: give it up again
            asyncio.ensure_future(
                _release_quietly(self.ws, held, self._timing.release_timeout_s)
            ).add_done_callback(_quiet)
            return Released(self.doc_id, None)
        self.held = held
        self.parked = False
        self._last_typed = _now()
        self._start_heartbeat()
        return self._tell(LockResumed(self.doc_id, took_over))

    def _resume_failed(self, error: BaseException | None) -> SessionEvent:
        self._resume_not_before = _now() + RESUME_PAUSE_S
        return self._tell(ResumeFailed(self.doc_id, error))

    async def ensure_lock(self) -> bool:
        """Before a write that needs the lock: take it back first if it was released for
        idleness. True when we hold it now."""
        if self.parked:
            await self.resume()
        return self.held is not None and self.editable

    # -- heartbeat -----------------------------------------------------------------------------

    def _start_heartbeat(self) -> None:
        task = self._heartbeat
        if task is not None and not task.done():
            return
        self._heartbeat = asyncio.ensure_future(self._heartbeat_loop())
        self._heartbeat.set_name(f"heartbeat:{self.doc_id}")

    async def _heartbeat_loop(self) -> None:
        interval = self._timing.heartbeat_s
        next_beat = _now() + interval
        while self.held is not None and not self.lost and not self.closed:
            idle_at = self._idle_deadline()
            deadline = next_beat if idle_at is None else min(next_beat, idle_at)
            woke = False
            with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=max(0.0, deadline - _now()))
                woke = True
            self._wake.clear()
            held = self.held
            if held is None or self.lost or self.closed:
                return
            idle_at = self._idle_deadline()
            if idle_at is not None and _now() >= idle_at and not self.saving:
                if await self._park():
                    return
                # The release failed: the lock is still ours; try again at the next beat.
                self._last_typed = _now() - (self._timing.idle_release_s or 0.0) + interval
            if not woke and _now() < next_beat:
                continue  # the idle deadline passed without parking: typed meanwhile
            held = self.held
            if held is None or self.lost or self.closed:
                return
            try:
                res = await self.ws.locks.heartbeat(held)
            except Exception as exc:  # the manager reports errors; be safe anyway
                self.view.report(HeartbeatMissed(self.doc_id, held.misses, None, exc))
                next_beat = _now() + interval / MISSED_BEAT_FRACTION
                continue
            if self.lost or self.closed:
                return
            if res.outcome is HeartbeatOutcome.OK:
                next_beat = _now() + interval
                self.view.report(LockRenewed(self.doc_id, self.ws.server_now()))
            elif res.outcome is HeartbeatOutcome.MISSED:
                # Try again sooner than a full interval: three misses in a row let the lock go
                # stale, and most misses (a moved branch, a short outage) are over in seconds.
                next_beat = _now() + interval / MISSED_BEAT_FRACTION
                self.view.report(
                    HeartbeatMissed(self.doc_id, res.misses, res.expires_in_s, res.error)
                )
            else:
                self._lose(res.view, released=res.outcome is HeartbeatOutcome.RELEASED)
                return

    def _lose(
        self, lock_view: LockView | None, *, released: bool, during_save: bool = False
    ) -> None:
        if self.lost:
            return
        self.lost = True
        self.held = None
        self.lost_view = lock_view
        rec = lock_view.record if lock_view is not None else None
        if released or lock_view is None or rec is None:
            event = LockLost(self.doc_id, None, None, True, during_save=during_save)
        else:
            elsewhere = not rec.malformed and rec.editing_by.casefold() == self.ws.login.casefold()
            event = LockLost(
                self.doc_id,
                holder_of(lock_view),
                rec.started_at,
                False,
                by_me_elsewhere=elsewhere,
                during_save=during_save,
            )
        self.view.report(event)

    # -- saving --------------------------------------------------------------------------------

    async def save(self, text: str) -> SessionEvent | None:
        """Verify the lock, then save ``text`` over the base version. Returns the event that
        ended it (``Saved``, ``Queued``, ``TheirsTaken``, ``NotSaved``), also reported; None
        when there was nothing to do (not editable, or a save is already running). A lock
        released for idleness is taken back first."""
        if not self.editable or self.saving:
            return None
        if self.parked:
            await self.resume()
            if self.lost:
                return self._tell(NotSaved(self.doc_id, "lock_lost"))
            if self.held is None:
                return self._tell(NotSaved(self.doc_id, "lock_unchecked"))
        held = self.held
        if held is None or self.saving:
            return None
        self.saving = True
        try:
            async with self._guard:
                return await self._verified_save(held, text)
        finally:
            self.saving = False

    async def _verified_save(self, held: HeldLock, text: str) -> SessionEvent:
        try:
            ver = await self.ws.locks.verify(held)
        except Exception as exc:
            return self._tell(NotSaved(self.doc_id, "error", exc))
        if not ver.ok:
            if not ver.retryable:
                lv = ver.view
                self._lose(
                    lv, released=lv is None or lv.status is LockStatus.FREE, during_save=True
                )
                return self._tell(NotSaved(self.doc_id, "lock_lost"))
            if not self.ws.saves.queues:
                return self._tell(NotSaved(self.doc_id, "lock_unchecked"))
            # GitHub unreachable: the save goes on to the queue; its base sha still
            # prevents any overwrite of someone else's change.
        return await self._commit(text, self.base_sha)

    def _tell(self, event: SessionEvent) -> SessionEvent:
        self.view.report(event)
        return event

    async def _commit(self, text: str, base_sha: str) -> SessionEvent:
        try:
            res = await self.ws.saves.save(self.path, text, base_sha, self.ws.login)
        except Exception as exc:
            return self._tell(NotSaved(self.doc_id, "error", exc))
        if isinstance(res, QueuedSave):
            return self._tell(Queued(self.doc_id, text, res.item.id, res.cause))
        if isinstance(res, SaveConflict):
            return await self._resolve(res)
        assert isinstance(res, SaveResult)
        self.base_sha = res.sha or base_sha
        return self._tell(Saved(self.doc_id, text, self.base_sha, res.commit_sha))

    async def _resolve(self, res: SaveConflict) -> SessionEvent:
        """The one conflict path (``core/saving/conflicts.py``): ask, then keep mine (over their
        sha;
        asked again if someone saved once more meanwhile) | take theirs | saved as new | cancel."""
        try:
            done = await resolve_conflict(
                self.ws.saves, res, self.view.ask_conflict, login=self.ws.login
            )
        except Exception as exc:
            return self._tell(NotSaved(self.doc_id, "error", exc))
        decision, shown = done.decision, done.conflict
        if decision is ConflictDecision.KEEP_MINE:
            if isinstance(done.saved, QueuedSave):
                return self._tell(
                    Queued(self.doc_id, shown.mine, done.saved.item.id, done.saved.cause)
                )
            assert isinstance(done.saved, SaveResult)
            self.base_sha = done.saved.sha or shown.their_sha or self.base_sha
            return self._tell(Saved(self.doc_id, shown.mine, self.base_sha, done.saved.commit_sha))
        if (
            decision in (ConflictDecision.TAKE_THEIRS, ConflictDecision.SAVED_AS_NEW)
            and shown.their_sha is not None
        ):
            self.base_sha = shown.their_sha
            return self._tell(
                TheirsTaken(
                    self.doc_id,
                    shown.theirs or "",
                    shown.their_sha,
                    saved_as_new=decision is ConflictDecision.SAVED_AS_NEW,
                )
            )
        return self._tell(NotSaved(self.doc_id, "conflict"))

    # -- ending --------------------------------------------------------------------------------

    async def _stop_heartbeat(self) -> None:
        task, self._heartbeat = self._heartbeat, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    async def close(self) -> Released | None:
        """Stop the heartbeat and release the lock (bounded by ``release_timeout_s``)."""
        self.closed = True
        held, self.held = self.held, None
        await self._stop_heartbeat()
        if held is None:
            return None
        outcome: ReleaseOutcome | None = None
        # The release goes on after the timeout (only the wait is bounded): cut off half-way,
        # it would leave the lock behind for a quarter of an hour on a busy branch.
        releasing = asyncio.ensure_future(self._release(held))
        _LATER.add(releasing)
        releasing.add_done_callback(_LATER.discard)
        try:
            outcome = await asyncio.wait_for(
                asyncio.shield(releasing), self._timing.release_timeout_s
            )
        except TimeoutError:
            log.info(
                "release of %s still under way after %.0f s",
                self.doc_id,
                self._timing.release_timeout_s,
            )
        except Exception as exc:
            log.warning("release of %s failed: %r", self.doc_id, exc)
        event = Released(self.doc_id, outcome)
        self.view.report(event)
        return event

    async def _release(self, held: HeldLock) -> ReleaseOutcome | None:
        res = await self.ws.locks.release(held)
        if res.outcome is not ReleaseOutcome.FAILED:
            return res.outcome
        if isinstance(res.error, BranchMoved):
            # Nothing is wrong, GitHub was only busy: a lock left behind would make the next
            # person who opens the document ask about us for a quarter of an hour.
            self._release_later(held)
        return None

    def _release_later(self, held: HeldLock) -> None:
        async def again() -> None:
            pause = self._timing.heartbeat_s / 10
            for _ in range(3):
                await asyncio.sleep(pause)
                with contextlib.suppress(Exception):
                    res = await self.ws.locks.release(held)
                    if res.outcome is not ReleaseOutcome.FAILED:
                        return
                pause *= 2

        task = asyncio.ensure_future(again())
        _LATER.add(task)
        task.add_done_callback(_LATER.discard)

    def forget(self) -> None:
        """The document is gone with its lock (deleted): stop without releasing."""
        self.closed = True
        self.held = None
        task, self._heartbeat = self._heartbeat, None
        if task is not None and not task.done():
            task.cancel()


async def _acquire_and_load(ws: Workspace, doc_id: str) -> tuple[AcquireResult, LoadedDoc | None]:
    """Acquire the lock and load the text concurrently; the text is None if loading failed (it
    is loaded again once the lock is ours)."""
    acquired, loaded = await asyncio.gather(
        ws.locks.acquire(doc_id, take_stale=True), ws.store.load(doc_id), return_exceptions=True
    )
    if isinstance(acquired, BaseException):
        raise acquired
    return acquired, None if isinstance(loaded, BaseException) else loaded


@dataclass
class _Asked:
    view: LockView  # the lock the open question is about now
    retry: bool = False  # it stopped blocking while asked: look again


def _cached_then_fresh(
    ws: Workspace, doc_id: str
) -> tuple[LockView | None, asyncio.Task[LockView] | None]:
    """(the lock as the list saw it, classified now, and a fresh read under way), or
    (None, None) when the list saw no lock, its bytes are not cached, or it does not block."""
    snap = ws.store.snapshot
    entry = snap.locks.get(doc_id) if snap is not None else None
    if entry is None:
        return None, None
    try:
        seen = ws.locks.cached_view(doc_id, entry.sha)
    except Exception:
        log.debug("no cached lock view for %s", doc_id, exc_info=True)
        return None, None
    if seen is None or not is_blocking(seen):
        return None, None
    fresh = asyncio.ensure_future(ws.locks.inspect(doc_id))
    fresh.add_done_callback(lambda t: t.cancelled() or t.exception())
    return seen, fresh


async def _ask_with_fresh_check(
    view: EditView, cached: LockView, fresh: asyncio.Task[LockView], title: str | None
) -> tuple[TakeOver | None, LockView, LockView | None]:
    """Ask with the ``cached`` lock while ``fresh`` runs; the fresh answer wins: the same claim
    (the holder only heartbeated) refreshes the times shown, another blocking lock is shown in
    place (``update_take_over``, saying it changed), a lock that no longer blocks closes the
    question (``withdraw_take_over``). A take-over is never sent on the cached view alone: it
    waits for the fresh one, and goes on when that is still the claim the user agreed to
    replace. Returns (choice, the view it applies to, the view the user agreed to take over or
    None); choice None: the open must look again (and asks about the new holder)."""
    current = _Asked(cached)
    asking = asyncio.ensure_future(view.ask_take_over(LockHolder.of(cached, title)))

    def apply(result: asyncio.Task[LockView]) -> None:
        if result.cancelled() or result.exception() is not None or asking.done():
            return
        new = result.result()
        current.view = new
        if new.sha == cached.sha:
            return  # confirmed (with a fresh clock)
        if is_blocking(new):
            view.update_take_over(LockHolder.of(new, title, agreed=cached))
            return
        current.retry = True  # free, stale or ours now: close the question, look again
        view.withdraw_take_over()

    fresh.add_done_callback(apply)
    try:
        choice = await asking
    except BaseException:
        fresh.cancel()
        raise
    if current.retry:
        return None, current.view, None
    if choice is TakeOver.TAKE_OVER:
        try:
            new = await fresh
        except Exception as exc:  # the fresh read failed: the take-over checks by itself
            log.info("fresh lock read failed before a take-over: %s", exc)
            return choice, current.view, current.view
        if new.sha == cached.sha or same_claim(cached, new):
            return choice, new, new  # the same editing session: take it over on its new sha
        if not is_blocking(new):
            return None, new, None  # free, stale or ours now: look again (no question)
        return None, new, cached  # someone else now: ask again, saying it changed
    if not fresh.done():
        fresh.cancel()
    return choice, current.view, None


def _now() -> float:
    """Monotonic seconds for the session's own timers (heartbeat, idle release)."""
    return asyncio.get_running_loop().time()


def _quiet(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


async def _release_quietly(ws: Workspace, held: HeldLock, timeout_s: float) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.locks.release(held), timeout_s)


__all__ = [
    "Conflict",
    "ConflictDecision",
    "EditSession",
    "EditView",
    "HeartbeatMissed",
    "LockHolder",
    "LockLost",
    "LockParked",
    "LockRenewed",
    "LockResumed",
    "Mode",
    "NotSaved",
    "OpenFailed",
    "Opened",
    "Queued",
    "RaceLost",
    "Released",
    "ResumeFailed",
    "Saved",
    "SessionEvent",
    "TakeOver",
    "TheirsTaken",
    "holder_of",
    "is_blocking",
]
