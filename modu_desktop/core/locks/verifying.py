"""Before a save: is the lock still ours? (Qt-free) One tree read when it is unchanged."""

from __future__ import annotations

from modu_desktop.core.locks import words
from modu_desktop.core.locks.model import HeldLock, LockCode, LockStatus
from modu_desktop.core.locks.news import holder_name
from modu_desktop.core.locks.reading import LockReader
from modu_desktop.core.locks.results import VerifyResult


async def verify(reader: LockReader, held: HeldLock) -> VerifyResult:
    """Whether ``held`` is still ours; not ok with ``retryable`` when GitHub could not be
    asked, not ok without it when the lock is someone else's or gone (the code says which)."""
    doc_id = held.doc_id
    try:
        sha = await reader.lock_sha(doc_id)
        mine = held.sha  # the heartbeat may adopt our newest write while we read on
        if sha == mine:
            return VerifyResult(True, doc_id, LockCode.STILL_YOURS)
        view = await reader.view_of(doc_id, sha)
        if view.status is LockStatus.MINE_THIS_SESSION and view.sha:
            if view.sha == held.sha or await reader.continuous(held.path, mine, view.sha):
                held.sha = view.sha
                return VerifyResult(True, doc_id, LockCode.STILL_YOURS, view=view)
            return VerifyResult(False, doc_id, LockCode.LOST_WHILE_OFFLINE, view=view)
    except Exception as exc:
        return VerifyResult(False, doc_id, LockCode.COULD_NOT_CHECK, retryable=True, error=exc)
    if view.status is LockStatus.FREE:
        return VerifyResult(False, doc_id, LockCode.RELEASED_BY_OTHER, view=view)
    rec = view.record
    if view.status is LockStatus.MALFORMED or rec is None:
        return VerifyResult(False, doc_id, LockCode.REPLACED_BY_UNREADABLE, view=view)
    since = words.when(rec.started_at, view.server_now)
    if view.status is LockStatus.MINE_OTHER_SESSION:
        where = words.where(rec, view.same_install)
        fields: dict[str, object] = {"login": rec.editing_by, "where": where, "since": since}
        return VerifyResult(
            False, doc_id, LockCode.TAKEN_FROM_YOU_ELSEWHERE, view=view, fields=fields
        )
    fields = {"who": holder_name(rec.editing_by), "since": since}
    return VerifyResult(False, doc_id, LockCode.TAKEN_FROM_YOU, view=view, fields=fields)
