"""The document list's lock badges from the lock manager's views (who, since when, stale?)."""

from __future__ import annotations

from collections.abc import Iterable

from modu_desktop.core.edit_session import holder_of
from modu_desktop.core.locks import LockStatus, LockView
from modu_desktop.ui.shell.doc_list import LockBadge


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
