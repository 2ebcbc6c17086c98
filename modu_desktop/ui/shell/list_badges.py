"""The document list's lock badges from the lock manager's views (who, since when, stale?)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from modu_desktop.core.documents import DocSummary
from modu_desktop.core.edit_session import EditSession, holder_of
from modu_desktop.core.locks import LockStatus, LockView
from modu_desktop.ui.shell.doc_list import DocListPanel, DocRow, LockBadge


def lock_badges(views: Iterable[LockView]) -> dict[str, LockBadge]:
    out: dict[str, LockBadge] = {}
    for v in views:
        if v.status is LockStatus.FREE:
            continue
        out[v.doc_id] = LockBadge(
            holder=holder_of(v) or v.holder or "?",
            started_at=v.started_at,
            last_heartbeat=v.last_heartbeat,
            stale=v.status is LockStatus.STALE,
            mine=v.status is LockStatus.MINE_THIS_SESSION,
            same_user_elsewhere=v.status is LockStatus.MINE_OTHER_SESSION,
            malformed=v.status is LockStatus.MALFORMED,
        )
    return out


def sync_own_lock(doc_list: DocListPanel, session: EditSession | None) -> None:
    """The list's "Editing" column follows our own open, close, take-over, loss and recovery at
    once, not at the next listing."""
    held = session.held if session is not None and not session.lost else None
    lost = None
    if session is not None and session.lost:
        view = session.lost_view
        lost = (session.doc_id, lock_badges([view]).get(session.doc_id) if view else None)
    doc_list.set_own_lock(
        session.doc_id if session is not None and held is not None else None,
        started_at=held.started_at if held is not None else None,
        lost=lost,
    )


def doc_rows(docs: Sequence[DocSummary], views: Iterable[LockView]) -> list[DocRow]:
    """The list's rows: each document with the badge of its lock."""
    badges = lock_badges(views)
    return [
        DocRow(
            doc_id=d.doc_id,
            path=d.path,
            title=d.title or d.nav_label or d.doc_id,
            position=d.position if isinstance(d.position, int) else None,
            lock=badges.get(d.doc_id),
        )
        for d in docs
    ]
