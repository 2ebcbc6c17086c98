"""Keeping the lock of an open document: the heartbeat, noticing the lock was lost, the idle
release after a long pause without typing, and taking the lock back when typing resumes.

:class:`LockKeeping` holds the lock's state; :class:`~modu_desktop.core.edit_session.session.
EditSession` builds on it with the document (saving, conflicts, closing). Missed heartbeats are
tried again after a fifth of the interval; three misses in a row let the lock go stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from modu_desktop.core.edit_session.events import (
    EditView,
    HeartbeatMissed,
    LockHolder,
    LockLost,
    LockParked,
    LockRenewed,
    LockResumed,
    RaceLost,
    Released,
    ResumeFailed,
    SessionEvent,
    TakeOver,
    holder_of,
)
from modu_desktop.core.locks.model import (
    AcquireOutcome,
    HeartbeatOutcome,
    HeldLock,
    LockView,
    ReleaseOutcome,
)
from modu_desktop.core.locks.results import LockFailure

if TYPE_CHECKING:
    from modu_desktop.core.workspace import Workspace

log = logging.getLogger(__name__)

OPEN_ATTEMPTS = 3  # an open or a take-back that keeps losing the race stops after this many
MISSED_BEAT_FRACTION = 5  # after a missed heartbeat the next try comes after 1/5 of the interval
RESUME_PAUSE_S = 10.0  # after a failed resume, keystrokes wait this long before trying again


@dataclass(frozen=True)
class Claim:
    """How asking for the lock ended: ``held`` (ours now; ``took_over``: a stale lock we
    replaced), ``declined`` (someone holds it and the user left it to them), or neither
    (``error``: why; None: it kept changing, or the document closed meanwhile)."""

    held: HeldLock | None = None
    took_over: LockHolder | None = None
    declined: LockView | None = None
    error: BaseException | None = None


@dataclass
class Timing:
    heartbeat_s: float
    release_timeout_s: float
    idle_release_s: float | None  # None: never released for idleness
    look_s: float | None = None  # between heartbeats, a look whether it is still ours


class LockKeeping:
    """The lock of one open document while it is open (``held``: ours now; ``lost``: taken or
    released by someone else; ``parked``: let go for idleness, taken back at the next keystroke
    or save)."""

    def __init__(
        self, ws: Workspace, view: EditView, doc_id: str, held: HeldLock | None, timing: Timing
    ) -> None:
        self.ws = ws
        self.view = view
        self.doc_id = doc_id
        self.title = doc_id
        self.held = held
        self.lost = False
        self.lost_view: LockView | None = None  # the lock that replaced ours, once lost
        self.saving = False  # a save is under way: the lock is not let go meanwhile
        self.closed = False
        self.parked = False  # the lock was released for idleness; the editor stays editable
        self._timing = timing
        self._wake = asyncio.Event()
        self._guard = asyncio.Lock()  # parking, resuming and saving never interleave
        self._heartbeat: asyncio.Task[None] | None = None
        self._last_typed = _now()
        self._keystrokes = 0
        self._resume_not_before = 0.0

    def lock_seen(self, lock_sha: str | None) -> None:
        """A list refresh saw our lock file at ``lock_sha`` (None: gone): if that is not the sha
        we wrote, check now instead of at the next heartbeat."""
        if self.held is not None and not self.lost and lock_sha != self.held.sha:
            self._wake.set()

    # -- idle release ---------------------------------------------------------------------------

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
        claim = await self._claim()
        if claim.held is not None:
            return self._resumed(claim.held, claim.took_over)
        if claim.declined is None or self.closed or self.lost:
            return self._resume_failed(claim.error)
        # Someone else edits it now and we leave it to them: read-only, our text stays.
        view = claim.declined
        self.parked = False
        self._lose(view, released=False)
        return LockLost(self.doc_id, holder_of(view), view.started_at, False)

    async def _claim(self) -> Claim:
        """The lock, free (or stale) at once, else after the question asked at opening (take
        over → steal over the sha the user saw). A lock that keeps changing is given up on
        after :data:`OPEN_ATTEMPTS`."""
        for _ in range(OPEN_ATTEMPTS):
            try:
                res = await self.ws.locks.acquire(self.doc_id, take_stale=True)
            except Exception as exc:
                return Claim(error=exc)
            if res.held is not None:
                took = res.outcome is AcquireOutcome.TOOK_OVER and res.view is not None
                holder = LockHolder.of(res.view, self.title) if took and res.view else None
                return Claim(held=res.held, took_over=holder)
            if res.outcome is AcquireOutcome.FAILED:
                return Claim(error=res.error or LockFailure(res.text))
            if res.outcome is AcquireOutcome.LOST_RACE or res.view is None:
                continue
            choice = await self.view.ask_take_over(LockHolder.of(res.view, self.title))
            if self.closed:
                return Claim()
            if choice is not TakeOver.TAKE_OVER:
                return Claim(declined=res.view)
            try:
                stolen = await self.ws.locks.steal(res.view)
            except Exception as exc:
                return Claim(error=exc)
            if stolen.held is not None:
                return Claim(held=stolen.held)
            if stolen.outcome is AcquireOutcome.FAILED:
                return Claim(error=stolen.error or LockFailure(stolen.text))
            self.view.report(RaceLost(self.doc_id, stolen.view))
        return Claim()

    def _resumed(self, held: HeldLock, took_over: LockHolder | None) -> SessionEvent:
        if self.closed:  # closed while the lock was being taken back: give it up again
            asyncio.ensure_future(
                release_quietly(self.ws, held, self._timing.release_timeout_s)
            ).add_done_callback(_quiet)
            return Released(self.doc_id, None)
        self.held = held
        self.parked = False
        self._restart_keeping()
        return self._tell(LockResumed(self.doc_id, took_over))

    def _resume_failed(self, error: BaseException | None) -> SessionEvent:
        self._resume_not_before = _now() + RESUME_PAUSE_S
        return self._tell(ResumeFailed(self.doc_id, error))

    # -- heartbeat -----------------------------------------------------------------------------

    def _restart_keeping(self) -> None:
        """The lock is ours again: the idle time starts now and the heartbeat runs."""
        self._last_typed = _now()
        self._resume_not_before = 0.0
        self._start_heartbeat()

    def _start_heartbeat(self) -> None:
        task = self._heartbeat
        if task is not None and not task.done():
            return
        self._heartbeat = asyncio.ensure_future(self._heartbeat_loop())
        self._heartbeat.set_name(f"heartbeat:{self.doc_id}")

    async def _heartbeat_loop(self) -> None:
        interval = self._timing.heartbeat_s
        look_s = min(interval, self._timing.look_s or interval)
        next_beat = _now() + interval
        next_look = _now() + look_s
        while self.held is not None and not self.lost and not self.closed:
            idle_at = self._idle_deadline()
            deadline = min(next_beat, next_look, idle_at if idle_at is not None else next_beat)
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
                # no heartbeat due: the idle deadline passed without parking (typed meanwhile),
                # or it is time to look whether someone took the lock in between
                if _now() >= next_look:
                    if await self._looked_lost(held):
                        return
                    next_look = _now() + look_s
                continue
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
            next_look = _now() + look_s
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

    async def _looked_lost(self, held: HeldLock) -> bool:
        """One look between heartbeats (a conditional read, no write): True when the lock was
        taken over or released meanwhile — said at once, not at the next heartbeat."""
        try:
            res = await self.ws.locks.look(held)
        except Exception as exc:
            log.info("looking at the lock of %s: %s", self.doc_id, exc)
            return False
        if res is None or self.lost or self.closed or self.held is not held:
            return False
        self._lose(res.view, released=res.outcome is HeartbeatOutcome.RELEASED)
        return True

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

    def _tell(self, event: SessionEvent) -> SessionEvent:
        self.view.report(event)
        return event

    async def _stop_heartbeat(self) -> None:
        task, self._heartbeat = self._heartbeat, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


def _now() -> float:
    """Monotonic seconds for the session's own timers (heartbeat, idle release)."""
    return asyncio.get_running_loop().time()


def _quiet(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


async def release_quietly(ws: Workspace, held: HeldLock, timeout_s: float) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.locks.release(held), timeout_s)
