"""One open document's editing session, Qt-free: open → lock → load → heartbeat → save → release.

The session owns the protocol and its state machine; its view (the window, or a fake in tests)
only renders. Opening is in ``opening.py``, keeping the lock (heartbeat, idle release, taking it
back) in ``keeping.py``, the words between the session and its view in ``events.py``; this
module is the document: its base sha, saving with it, conflicts, closing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from modu_desktop.core.documents.store import LoadedDoc, SaveConflict, SaveResult
from modu_desktop.core.edit_session.events import (
    EditView,
    LockResumed,
    Mode,
    NotSaved,
    Opened,
    OpenFailed,
    Queued,
    Released,
    ResumeFailed,
    Saved,
    SessionEvent,
    TheirsTaken,
)
from modu_desktop.core.edit_session.keeping import LockKeeping, Timing, release_quietly
from modu_desktop.core.edit_session.opening import open_document
from modu_desktop.core.github.errors import BranchMoved
from modu_desktop.core.locks.model import HeldLock, LockStatus, ReleaseOutcome
from modu_desktop.core.saving.conflicts import ConflictDecision, resolve_conflict
from modu_desktop.core.saving.service import QueuedSave

if TYPE_CHECKING:
    from modu_desktop.core.workspace import Workspace

log = logging.getLogger(__name__)

_LATER: set[asyncio.Future[Any]] = set()  # releases sent again after the window closed


class EditSession(LockKeeping):
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
        if idle_release_s is None:
            idle_release_s = getattr(ws, "idle_release_s", None)
        timing = Timing(
            float(ws.locks.heartbeat_s),
            release_timeout_s,
            float(idle_release_s) if idle_release_s else None,
            getattr(ws, "look_s", None),
        )
        super().__init__(ws, view, loaded.doc_id, held, timing)
        self.path = loaded.path
        self.base_sha = loaded.sha
        self.mode = mode
        self.title = title or loaded.doc_id
        if mode is Mode.EDIT and held is not None:
            self._start_heartbeat()

    # -- state ---------------------------------------------------------------------------------

    @property
    def editable(self) -> bool:
        """The user may type and save: we hold the lock, or released it only for idleness
        (the next keystroke or save takes it back)."""
        return self.mode is Mode.EDIT and not self.lost and (self.held is not None or self.parked)

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

        return await open_document(
            ws,
            view,
            doc_id,
            make,
            title=title,
            list_saw_no_lock=list_saw_no_lock,
            viewer=viewer,
            release_timeout_s=release_timeout_s,
        )

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
            await release_quietly(ws, held, release_timeout_s)
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

    async def ensure_lock(self) -> bool:
        """Before a write that needs the lock: take it back first if it was released for
        idleness. True when we hold it now."""
        if self.parked:
            await self.resume()
        return self.held is not None and self.editable

    async def take_back(self, mine: str | None) -> SessionEvent | None:
        """Edit here again after the lock was lost or the document opened read-only (편집 권한
        가져오기, 지금 편집하기): the lock is taken when free, else after the question asked at
        opening. ``mine``: the text on screen that was not saved (None: nothing to keep). When
        the page did not change meanwhile, ``mine`` simply becomes editable again; when it did,
        the conflict screen shows both (``Saved``, ``TheirsTaken``, or ``NotSaved("conflict")``
        with ``mine`` still on screen); with nothing of ours, the current version is shown
        (``TheirsTaken``). None when there was nothing to do or the user left it to the other."""
        if self.closed or self.editable or self.mode is Mode.VIEWER:
            return None
        async with self._guard:
            if self.closed or self.editable:
                return None
            claim = await self._claim()
            if claim.held is None:
                return self._tell(ResumeFailed(self.doc_id, claim.error)) if claim.error else None
            if self.closed:
                await release_quietly(self.ws, claim.held, self._timing.release_timeout_s)
                return None
            self.mode, self.held, self.parked = Mode.EDIT, claim.held, False
            self.lost, self.lost_view = False, None
            self._restart_keeping()
            self._tell(LockResumed(self.doc_id, claim.took_over))
            try:
                current = await self.ws.store.load(self.doc_id)
            except Exception as exc:  # the next save compares with GitHub anyway
                log.info("taking %s back: the current version was not read: %s", self.doc_id, exc)
                return None
            if current.sha == self.base_sha:
                return None
            if mine is None:
                self.base_sha = current.sha
                return self._tell(TheirsTaken(self.doc_id, current.text, current.sha, False))
            found = SaveConflict(
                self.doc_id, self.path, mine, self.base_sha, current.text, current.sha
            )
            self.saving = True
            try:
                return await self._resolve(found)
            finally:
                self.saving = False

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
