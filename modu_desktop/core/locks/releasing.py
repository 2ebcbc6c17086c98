"""Letting a lock go (Qt-free): a delete with the sha we hold, and never of a lock that is
someone else's now (or a newer claim of our own); an administrator's release deletes exactly
the lock that was seen."""

from __future__ import annotations

from collections.abc import Callable

from modu_desktop.core.locks.client import _is_conflict, _is_not_found
from modu_desktop.core.locks.model import HeldLock, LockCode, LockStatus, LockView, ReleaseOutcome
from modu_desktop.core.locks.news import holder_name
from modu_desktop.core.locks.reading import LockReader
from modu_desktop.core.locks.results import ReleaseResult
from modu_desktop.core.locks.wire import validate_doc_id
from modu_desktop.core.locks.writing import LockWriter


class Releaser:
    def __init__(self, reader: LockReader, writer: LockWriter) -> None:
        self.reader = reader
        self.writer = writer

    async def release(
        self, held: HeldLock, claimed_since: Callable[[], bool], *, again: bool = True
    ) -> ReleaseResult:
        """DELETE with our sha. If the lock is someone else's now, leave it alone;
        ``claimed_since()`` tells whether we claimed the document again meanwhile."""
        doc_id = held.doc_id
        try:
            await self.writer.delete(held.path, held.sha, doc_id)
        except Exception as exc:
            if _is_not_found(exc):
                return ReleaseResult(ReleaseOutcome.ALREADY_GONE, doc_id, error=exc)
            try:
                view = await self.reader.inspect(doc_id)
            except Exception:
                return ReleaseResult(ReleaseOutcome.FAILED, doc_id, error=exc)
            if view.status is LockStatus.FREE:
                if _is_conflict(exc):
                    return ReleaseResult(
                        ReleaseOutcome.ALREADY_GONE,
                        doc_id,
                        view=view,
                        code=LockCode.RELEASED_MEANWHILE,
                    )
                return ReleaseResult(ReleaseOutcome.RELEASED, doc_id, view=view)
            if view.status is LockStatus.MINE_THIS_SESSION and claimed_since():
                # Claimed again while this release was on its way: the lock is the new claim's.
                return claimed_again(doc_id)
            if view.status is LockStatus.MINE_THIS_SESSION and view.sha != held.sha and again:
                # An earlier heartbeat of ours landed although its answer was lost.
                held.sha = view.sha or held.sha
                return await self.release(held, claimed_since, again=False)
            if view.status is LockStatus.MINE_THIS_SESSION:
                return ReleaseResult(ReleaseOutcome.FAILED, doc_id, view=view, error=exc)
            return ReleaseResult(ReleaseOutcome.NOT_OURS, doc_id, view=view, error=exc)
        return ReleaseResult(ReleaseOutcome.RELEASED, doc_id)

    async def release_view(self, view: LockView) -> ReleaseResult:
        """Delete the lock exactly as seen in ``view`` (admin release, or cleaning up our own
        leftover from a crashed session). If it changed since, nothing is deleted."""
        doc_id = validate_doc_id(view.doc_id)
        if view.sha is None:
            return ReleaseResult(ReleaseOutcome.ALREADY_GONE, doc_id, view=view)
        try:
            await self.writer.delete(view.path, view.sha, doc_id)
        except Exception as exc:
            if _is_not_found(exc):
                return ReleaseResult(ReleaseOutcome.ALREADY_GONE, doc_id, view=view, error=exc)
            if not _is_conflict(exc):
                return ReleaseResult(ReleaseOutcome.FAILED, doc_id, view=view, error=exc)
            try:
                now_view: LockView | None = await self.reader.inspect(doc_id)
            except Exception:
                now_view = None
            if now_view is not None and now_view.status is LockStatus.FREE:
                return ReleaseResult(
                    ReleaseOutcome.ALREADY_GONE,
                    doc_id,
                    view=now_view,
                    code=LockCode.RELEASED_MEANWHILE,
                )
            return ReleaseResult(
                ReleaseOutcome.NOT_OURS,
                doc_id,
                view=now_view,
                error=exc,
                code=LockCode.CHANGED_WHILE_RELEASING,
            )
        rec = view.record
        if rec is not None and not rec.is_malformed:
            return ReleaseResult(
                ReleaseOutcome.RELEASED,
                doc_id,
                view=view,
                code=LockCode.RELEASED_FROM,
                fields={"who": holder_name(rec.editing_by)},
            )
        return ReleaseResult(ReleaseOutcome.RELEASED, doc_id, view=view)


def claimed_again(doc_id: str) -> ReleaseResult:
    """A release that found the document claimed again by us since: the new lock stays."""
    return ReleaseResult(ReleaseOutcome.ALREADY_GONE, doc_id, code=LockCode.CLAIMED_AGAIN)
