"""The heartbeat (Qt-free): look, then renew.

One conditional read of the branch's tree shows whether our lock file is still the blob we last
wrote. If it is, one conditional PUT renews it (none when the lock already says this very
second: its bytes would not change). If it is not, the lock was taken over or released: that
is learnt from the tree and the new lock's blob (none when a listing cached it), at most two
requests and no write meant to fail. A 409 on the PUT (someone moved in between, or the branch
moved) reads the tree once more: our own unchanged lock there means the branch moved, a miss
and never a release."""

from __future__ import annotations

import contextlib

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.locks import words
from modu_desktop.core.locks.client import _get, _is_conflict, _written_sha
from modu_desktop.core.locks.model import HeartbeatOutcome, HeldLock, LockCode, LockStatus, LockView
from modu_desktop.core.locks.news import holder_name
from modu_desktop.core.locks.reading import LockReader
from modu_desktop.core.locks.results import HeartbeatResult
from modu_desktop.core.locks.writing import LockWriter


class Renewer:
    """Heartbeats for one claimant; a lock is stale ``stale_s`` after its last heartbeat."""

    def __init__(self, reader: LockReader, writer: LockWriter, *, stale_s: float) -> None:
        self.reader = reader
        self.writer = writer
        self.stale_s = stale_s

    async def heartbeat(self, held: HeldLock) -> HeartbeatResult:
        """Look (one conditional tree read), then renew (one conditional PUT) only when the lock
        is still the one we last wrote."""
        try:
            sha = await self.reader.lock_sha(held.doc_id)
        except Exception as exc:
            return self.missed(held, exc)
        if sha != held.sha:
            return await self._changed(held, held.sha, sha, None)
        return await self.renew(held)

    async def look(self, held: HeldLock) -> HeartbeatResult | None:
        """The heartbeat's look alone: None while the lock file is the blob we last wrote (or
        the tree could not be read; the heartbeat deals with that); else whose it is now."""
        base = held.sha  # a heartbeat running beside this look may renew meanwhile
        try:
            sha = await self.reader.lock_sha(held.doc_id)
        except Exception:
            return None
        if sha in (base, held.sha):
            return None
        res = await self._changed(held, base, sha, None)
        return None if res.outcome is HeartbeatOutcome.MISSED else res

    async def renew(self, held: HeldLock) -> HeartbeatResult:
        """Exactly one conditional PUT with the sha we last wrote (the caller has just looked).
        On 409: look again and report LOST (to whom, since when), RELEASED or a miss.

        No PUT when the new body is the lock file as it is (a second beat within the second
        of the last): the look has just found our lock saying this very second. Such a write
        would change nothing, and after a lost answer it could not be told from a write that
        never arrived: the read-back finds our bytes either way, while the history shows our
        previous write as the last change, which reads as a re-creation of a released lock."""
        base = held.sha  # what the PUT replaces; a save's check may move held.sha meanwhile
        body, now = self.writer.renewal(held)
        if git_blob_sha(body) == base:
            return self._renewed(held, base, now)
        try:
            result = await self.writer.renew(held, body)
        except Exception as exc:
            if _is_conflict(exc):
                return await self._after_conflict(held, base, exc)
            return self.missed(held, exc)
        new_sha = _written_sha(result, body)
        recreated = _get(result, "created", False) is True
        if not recreated and _get(result, "recovered", False) is True:
            # The answer was lost and the client read the write back: a read-back cannot tell an
            # update from a re-creation, so ask the history whether our previous lock was there.
            try:
                recreated = not await self.reader.continuous(held.path, base, new_sha)
            except Exception as exc:
                # Undecided: keep the old sha, so the next beat sees a change and decides then.
                return self.missed(held, exc)
        if recreated:
            # GitHub ignores a sha sent for a missing path and creates the file (201): the lock
            # had been released by someone. Undo our re-creation and report the release.
            with contextlib.suppress(Exception):
                await self.writer.delete(held.path, new_sha, held.doc_id)
            return HeartbeatResult(HeartbeatOutcome.RELEASED, held, misses=held.misses)
        return self._renewed(held, new_sha, now)

    def _renewed(self, held: HeldLock, sha: str, now: int) -> HeartbeatResult:
        held.sha = sha
        held.last_heartbeat = now
        held.misses = 0
        held.last_error = None
        return HeartbeatResult(HeartbeatOutcome.OK, held, misses=0, expires_in_s=self.stale_s)

    def missed(self, held: HeldLock, exc: Exception) -> HeartbeatResult:
        """GitHub could not be reached (or the branch kept moving): still ours as far as we
        know; how long until it goes stale."""
        held.misses += 1
        held.last_error = str(exc) or type(exc).__name__
        left = held.last_heartbeat + self.stale_s - self.reader.now()
        if left > 0:
            minutes = max(1, int(left // 60 + (1 if left % 60 else 0)))
            code, fields = LockCode.MISSED, {"misses": held.misses, "minutes": minutes}
        else:
            code, fields = LockCode.MISSED_EXPIRED, {"misses": held.misses}
        return HeartbeatResult(
            HeartbeatOutcome.MISSED,
            held,
            misses=held.misses,
            expires_in_s=left,
            error=exc,
            code=code,
            fields=fields,
        )

    async def _after_conflict(self, held: HeldLock, base: str, exc: Exception) -> HeartbeatResult:
        try:
            sha = await self.reader.lock_sha(held.doc_id)
        except Exception as read_exc:
            return self.missed(held, read_exc)
        if sha in (base, held.sha):
            # Exactly the lock we last wrote: the 409 changed nothing of ours (the branch moved
            # under the write). Still ours; the next beat renews it.
            return self.missed(held, exc)
        return await self._changed(held, base, sha, exc)

    async def _changed(
        self, held: HeldLock, base: str, sha: str | None, exc: Exception | None
    ) -> HeartbeatResult:
        """Our lock file is not ``base``, the blob we last wrote, but ``sha`` (None: gone):
        whose is it?"""
        try:
            view = await self.reader.view_of(held.doc_id, sha)
        except Exception as read_exc:
            return self.missed(held, read_exc)
        if view.status is LockStatus.MINE_THIS_SESSION:
            return await self._ours_elsewhere_in_time(held, base, view, exc)
        if view.status is LockStatus.FREE:
            return HeartbeatResult(
                HeartbeatOutcome.RELEASED, held, view=view, misses=held.misses, error=exc
            )
        return self._lost(held, view, exc)

    async def _ours_elsewhere_in_time(
        self, held: HeldLock, base: str, view: LockView, exc: Exception | None
    ) -> HeartbeatResult:
        """Our session's body with another sha: an earlier write of ours landed although its
        answer was lost. Adopt it only if that write *updated* our previous lock; if it
        re-created a lock someone had taken or released meanwhile, we did lose it."""
        assert view.sha is not None
        try:
            continuous = await self.reader.continuous(held.path, base, view.sha)
        except Exception as hist_exc:
            return self.missed(held, hist_exc)
        if not continuous:
            with contextlib.suppress(Exception):
                await self.writer.delete(held.path, view.sha, held.doc_id)
            return HeartbeatResult(
                HeartbeatOutcome.RELEASED,
                held,
                view=view,
                misses=held.misses,
                error=exc,
                code=LockCode.LOST_WHILE_OFFLINE,
            )
        held.sha = view.sha
        if view.record is not None and view.record.last_heartbeat:
            held.last_heartbeat = view.record.last_heartbeat
        return await self.renew(held)

    def _lost(self, held: HeldLock, view: LockView, exc: Exception | None) -> HeartbeatResult:
        rec = view.record
        if view.status is LockStatus.MALFORMED or rec is None:
            code, fields = LockCode.REPLACED_BY_UNREADABLE, {}
        else:
            since = words.when(rec.started_at, view.server_now)
            login = self.reader.claimant.login
            if view.status is LockStatus.MINE_OTHER_SESSION or (
                rec.editing_by.casefold() == login.casefold()
            ):
                code = LockCode.TAKEN_FROM_YOU_ELSEWHERE
                fields = {
                    "login": rec.editing_by,
                    "where": words.where(rec, view.same_install),
                    "since": since,
                }
            else:
                code = LockCode.TAKEN_FROM_YOU
                fields = {"who": holder_name(rec.editing_by), "since": since}
        return HeartbeatResult(
            HeartbeatOutcome.LOST,
            held,
            view=view,
            misses=held.misses,
            error=exc,
            code=code,
            fields=fields,
        )
