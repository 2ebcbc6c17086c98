"""Opening a document for editing: take its lock, asking the view when someone else holds it,
then load its text.

When the list saw no lock, acquire and load go in one round trip. Otherwise the lock is looked
at first (reads only), so a fresh foreign lock goes straight to the question without a doomed
write; the list's cached lock asks at once while one fresh read checks it
(:func:`_ask_with_fresh_check`). A take-over is a PUT over the sha the user saw: whoever is
faster wins, and nothing is overwritten.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from modu_desktop.core.documents.store import LoadedDoc
from modu_desktop.core.edit_session.events import (
    EditView,
    LockHolder,
    Mode,
    Opened,
    OpenFailed,
    RaceLost,
    TakeOver,
    is_blocking,
)
from modu_desktop.core.edit_session.keeping import OPEN_ATTEMPTS, release_quietly
from modu_desktop.core.locks.model import (
    AcquireOutcome,
    HeldLock,
    LockView,
    same_claim,
)
from modu_desktop.core.locks.results import AcquireResult, LockFailure

if TYPE_CHECKING:
    from modu_desktop.core.workspace import Workspace

log = logging.getLogger(__name__)


FRESH_LOCK_READ = "fresh-lock-read"  # the task that checks the list's lock while asking

Session = TypeVar("Session")
MakeSession = Callable[[LoadedDoc, Mode, HeldLock | None], Session]


class _Again(enum.Enum):
    LOOK = "look"  # the lock changed under the question, or a take-over lost the race


AGAIN = _Again.LOOK


async def open_document(
    ws: Workspace,
    view: EditView,
    doc_id: str,
    make: MakeSession[Session],
    *,
    title: str | None,
    list_saw_no_lock: bool,
    viewer: bool,
    release_timeout_s: float,
) -> tuple[Session, Opened] | None:
    """Lock (asking the view when someone else has it) and load; ``make`` builds the session.
    None when the user cancelled or it failed (the view was told why)."""
    opening = _Opening(ws, view, doc_id, title)
    if viewer:
        loaded = await opening.load()
        if loaded is None:
            return None
        return make(loaded, Mode.VIEWER, None), Opened(loaded, Mode.VIEWER)
    taken = await opening.take_lock(list_saw_no_lock)
    if taken is None:
        return None
    if isinstance(taken, LockHolder):  # someone else edits it; the user reads only
        loaded = await opening.load()
        if loaded is None:
            return None
        return make(loaded, Mode.READ_ONLY, None), Opened(loaded, Mode.READ_ONLY, holder=taken)
    loaded = await opening.load(opening.preloaded)
    if loaded is None:
        await release_quietly(ws, taken, release_timeout_s)
        return None
    return make(loaded, Mode.EDIT, taken), Opened(loaded, Mode.EDIT, took_over=opening.took_over)


class _Opening:
    """One open's attempts at the lock, and what they learnt on the way."""

    def __init__(self, ws: Workspace, view: EditView, doc_id: str, title: str | None) -> None:
        self.ws = ws
        self.view = view
        self.doc_id = doc_id
        self.title = title
        self.preloaded: LoadedDoc | None = None  # read with the lock, when the list saw none
        self.took_over: LockHolder | None = None  # the stale lock we replaced
        self.fresh: asyncio.Task[LockView] | None = None  # a fresh read while asking from cache
        self.agreed: LockView | None = None  # the lock the user last agreed to take over

    async def load(self, preloaded: LoadedDoc | None = None) -> LoadedDoc | None:
        if preloaded is not None:
            return preloaded
        try:
            return await self.ws.store.load(self.doc_id)
        except Exception as exc:
            self.view.report(OpenFailed(self.doc_id, "error", exc))
            return None

    async def take_lock(self, list_saw_no_lock: bool) -> HeldLock | LockHolder | None:
        """The lock, ours now; or who holds it when the user chose to read only; None when
        the user cancelled or it failed (the view was told why)."""
        for attempt in range(OPEN_ATTEMPTS):
            try:
                res = await self._look(attempt, list_saw_no_lock)
            except Exception as exc:
                self.view.report(OpenFailed(self.doc_id, "error", exc))
                return None
            if res.outcome in (AcquireOutcome.ACQUIRED, AcquireOutcome.REUSED):
                if res.held is None:
                    break
                return res.held
            if res.outcome is AcquireOutcome.TOOK_OVER:
                took = res.view
                self.took_over = LockHolder.of(took, self.title) if took is not None else None
                if res.held is None:
                    break
                return res.held
            if res.outcome is AcquireOutcome.FAILED:
                error = res.error or LockFailure(res.text)
                self.view.report(OpenFailed(self.doc_id, "error", error))
                return None
            if res.outcome is AcquireOutcome.LOST_RACE:
                continue  # look again
            assert res.view is not None  # BLOCKED: ask
            decided = await self._blocked(res.view)
            if decided is not AGAIN:
                return decided
        self.view.report(OpenFailed(self.doc_id, "contended"))
        return None

    async def _look(self, attempt: int, list_saw_no_lock: bool) -> AcquireResult:
        if attempt == 0 and list_saw_no_lock:
            # The list saw no lock: write the lock and read the text in the same round trip. A
            # lock created since is still safe: a PUT without sha cannot replace it, and
            # acquire then reports who holds it.
            res, self.preloaded = await _acquire_and_load(self.ws, self.doc_id)
            if res.held is None:
                # Not ours yet: a lock question may stay open for minutes, so the text read
                # now would be stale by the time the user takes over. Read again.
                self.preloaded = None
            return res
        # Look first (reads only): a fresh foreign lock goes straight to the question, without
        # a doomed write attempt. The list's cached lock asks at once while one fresh read
        # checks it.
        seen, self.fresh = (
            _cached_then_fresh(self.ws, self.doc_id) if attempt == 0 else (None, None)
        )
        if seen is None:
            seen = await self.ws.locks.inspect(self.doc_id)
        if is_blocking(seen):
            return AcquireResult(AcquireOutcome.BLOCKED, self.doc_id, view=seen)
        return await self.ws.locks.acquire(self.doc_id, take_stale=True)

    async def _blocked(self, lock_view: LockView) -> HeldLock | LockHolder | None | _Again:
        """Someone holds the lock: ask, then read only, cancel, or take it over."""
        if self.fresh is not None:
            asked, lock_view, agreed_now = await _ask_with_fresh_check(
                self.view, lock_view, self.fresh, self.title
            )
            self.fresh = None
            self.agreed = agreed_now or self.agreed
            if asked is None:
                return AGAIN  # the lock changed while asking: look again
            choice = asked
        else:
            asking = LockHolder.of(lock_view, self.title, agreed=self.agreed)
            choice = await self.view.ask_take_over(asking)
        if choice is TakeOver.CANCEL:
            return None
        if choice is TakeOver.READ_ONLY:
            return LockHolder.of(lock_view, self.title)
        self.agreed = lock_view
        return await self._steal(lock_view)

    async def _steal(self, lock_view: LockView) -> HeldLock | None | _Again:
        try:
            stolen = await self.ws.locks.steal(lock_view)
        except Exception as exc:
            self.view.report(OpenFailed(self.doc_id, "error", exc))
            return None
        if stolen.held is not None:
            return stolen.held
        if stolen.outcome is AcquireOutcome.FAILED:
            error = stolen.error or LockFailure(stolen.text)
            self.view.report(OpenFailed(self.doc_id, "error", error))
            return None
        # lost the race: someone else took it first; the next round shows the new holder
        self.view.report(RaceLost(self.doc_id, stolen.view))
        return AGAIN


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
    fresh.set_name(f"{FRESH_LOCK_READ}:{doc_id}")
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
