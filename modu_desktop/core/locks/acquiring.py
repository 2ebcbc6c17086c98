"""Taking a lock (Qt-free): acquire writes first and classifies only when the file exists;
a take-over writes over the sha the user saw, so whoever is faster wins and nothing is
overwritten."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from modu_desktop.core.locks import words
from modu_desktop.core.locks.model import (
    STEAL_ATTEMPTS,
    AcquireOutcome,
    HeartbeatOutcome,
    HeldLock,
    LockCode,
    LockStatus,
    LockView,
    same_claim,
)
from modu_desktop.core.locks.news import holder_name
from modu_desktop.core.locks.reading import LockReader
from modu_desktop.core.locks.results import AcquireResult, HeartbeatResult
from modu_desktop.core.locks.wire import validate_doc_id
from modu_desktop.core.locks.writing import LockWriter

Renew = Callable[[HeldLock], Awaitable[HeartbeatResult]]


class Acquirer:
    """Acquire and take over for one claimant. ``renew`` renews a lock of ours found on the
    way (the manager's, so its observers hear of it); ``clock`` may say it is not ``synced``
    yet with GitHub's time."""

    def __init__(self, reader: LockReader, writer: LockWriter, clock: Any, renew: Renew) -> None:
        self.reader = reader
        self.writer = writer
        self.clock = clock
        self.renew = renew

    async def _sync_clock(self, doc_id: str) -> AcquireResult | None:
        """Our timestamps are server time: before the first write, learn the clock offset from
        one cheap read. If that read fails, do not write a lock stamped with the local clock."""
        if getattr(self.clock, "synced", True) is not False:
            return None
        try:
            await self.reader.lock_shas()
        except Exception as exc:
            return AcquireResult(AcquireOutcome.FAILED, doc_id, error=exc)
        return None

    async def acquire(self, doc_id: str, *, take_stale: bool = True) -> AcquireResult:
        """Create the lock (no sha). If one exists, classify it: reuse ours, take over a stale one
        (``take_stale``), otherwise return BLOCKED with the view so the UI can ask the user."""
        validate_doc_id(doc_id)
        unsynced = await self._sync_clock(doc_id)
        if unsynced is not None:
            return unsynced
        claimed = await self.writer.claim(doc_id, None)
        if claimed.held is not None:
            return AcquireResult(AcquireOutcome.ACQUIRED, doc_id, held=claimed.held)
        if not claimed.conflict:
            return AcquireResult(AcquireOutcome.FAILED, doc_id, error=claimed.error)
        try:
            view = await self.reader.inspect(doc_id)
        except Exception as exc:
            return AcquireResult(
                AcquireOutcome.FAILED, doc_id, code=LockCode.COULD_NOT_READ, error=exc
            )
        if view.status is LockStatus.FREE:
            # Released between our write and our read: try once more, as a fresh create.
            claimed = await self.writer.claim(doc_id, None)
            if claimed.held is not None:
                return AcquireResult(AcquireOutcome.ACQUIRED, doc_id, held=claimed.held)
            if claimed.conflict:
                return AcquireResult(
                    AcquireOutcome.LOST_RACE,
                    doc_id,
                    code=LockCode.LOCKED_AT_SAME_MOMENT,
                    error=claimed.error,
                )
            return AcquireResult(AcquireOutcome.FAILED, doc_id, error=claimed.error)
        if view.status is LockStatus.MINE_THIS_SESSION:
            return await self._reuse(view)
        if view.status is LockStatus.STALE and take_stale:
            return await self.steal(view)
        return AcquireResult(AcquireOutcome.BLOCKED, doc_id, view=view)

    async def _reuse(self, view: LockView) -> AcquireResult:
        """Ours from earlier in this session (e.g. a release that failed): renew and reuse it."""
        assert view.sha is not None and view.record is not None
        now = self.writer.stamp()
        held = HeldLock(
            view.doc_id,
            view.sha,
            view.record.started_at or now,
            view.record.last_heartbeat or now,
        )
        beat = await self.renew(held)
        if beat.outcome in (HeartbeatOutcome.LOST, HeartbeatOutcome.RELEASED):
            return AcquireResult(
                AcquireOutcome.LOST_RACE,
                view.doc_id,
                view=beat.view,
                code=beat.code,
                fields=beat.fields,
            )
        return AcquireResult(AcquireOutcome.REUSED, view.doc_id, held=held, view=view)

    async def steal(self, view: LockView) -> AcquireResult:
        """Take the lock over, sending the sha we saw.

        The user agreed to replace *the claim in* ``view`` (its holder, session and start), not
        one exact version of the file: if that claim only heartbeated meanwhile (409 on the old
        sha), re-read and take it over on the new sha; if it was released, create the lock.
        Only a *different* claim is news: then report who holds it now (never retry blindly)."""
        doc_id = validate_doc_id(view.doc_id)
        unsynced = await self._sync_clock(doc_id)
        if unsynced is not None:
            return unsynced
        seen = view
        for _ in range(STEAL_ATTEMPTS):
            claimed = await self.writer.claim(doc_id, seen.sha)
            if claimed.held is not None:
                return _took(view, claimed.held)
            if not claimed.conflict:
                return AcquireResult(
                    AcquireOutcome.FAILED,
                    doc_id,
                    view=view,
                    code=LockCode.COULD_NOT_TAKE_OVER,
                    error=claimed.error,
                )
            try:
                now_view: LockView | None = await self.reader.inspect(doc_id)
            except Exception:
                now_view = None
            if now_view is not None and (
                now_view.status is LockStatus.FREE or same_claim(view, now_view)
            ):
                seen = now_view  # the same holder heartbeated, or left: go on with the new sha
                continue
            return lost_steal(doc_id, now_view, claimed.error)
        return AcquireResult(
            AcquireOutcome.LOST_RACE, doc_id, view=seen, code=LockCode.KEPT_CHANGING
        )


def _took(view: LockView, held: HeldLock) -> AcquireResult:
    doc_id = view.doc_id
    if view.status is LockStatus.FREE:
        return AcquireResult(AcquireOutcome.ACQUIRED, doc_id, held=held)
    if view.status is LockStatus.MALFORMED:
        return AcquireResult(
            AcquireOutcome.TOOK_OVER,
            doc_id,
            held=held,
            view=view,
            code=LockCode.TOOK_OVER_UNREADABLE,
        )
    return AcquireResult(
        AcquireOutcome.TOOK_OVER,
        doc_id,
        held=held,
        view=view,
        fields={"who": holder_name(view.holder)},
    )


def lost_steal(doc_id: str, now_view: LockView | None, err: Exception | None) -> AcquireResult:
    """A take-over refused because a *different* claim holds the lock now: say whose."""
    rec = now_view.record if now_view is not None else None
    if (
        rec is not None
        and now_view is not None
        and now_view.status is LockStatus.MINE_OTHER_SESSION
    ):
        return AcquireResult(
            AcquireOutcome.LOST_RACE,
            doc_id,
            view=now_view,
            error=err,
            code=LockCode.TAKEN_FIRST_BY_YOU_ELSEWHERE,
            fields={"login": rec.editing_by, "where": words.where(rec, now_view.same_install)},
        )
    if rec is None:
        who = holder_name(None)
    elif rec.is_malformed:
        who = holder_name(rec.claimed_by)
    else:
        who = holder_name(rec.editing_by)
    return AcquireResult(
        AcquireOutcome.LOST_RACE,
        doc_id,
        view=now_view,
        error=err,
        code=LockCode.TAKEN_FIRST,
        fields={"who": who},
    )
