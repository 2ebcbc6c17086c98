"""The list's own-lock column from the open session (the badges themselves are
``doc_list.lock_badges``, shared with the start window)."""

from __future__ import annotations

from modu_desktop.core.edit_session import EditSession
from modu_desktop.ui.doclist.panel import DocListPanel, lock_badges


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
