"""기록's "이 변경 전체 되돌리기": a change of many pages (a replacement across pages, a
picture's rename) undone as one commit under the same rules as the change itself
(``core/changes/undo.py``, ``core/changes/send.py``): a page changed since, or one someone else
is editing, is left out and named; while GitHub cannot be reached the undo waits in the save
queue as one item. The page open here shows its earlier text again (``WindowPages.landed``),
and the window's notice says what became of it, naming pages by their titles.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from modu_desktop.core.changes.outcome import ChangeOutcome, ChangeState
from modu_desktop.core.changes.send import send_change
from modu_desktop.core.changes.undo import NothingBefore, prepare_undo
from modu_desktop.core.documents.history import Version
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.change_outcome import outcome_report
from modu_desktop.ui.publish.landed_pages import PagesWindow, WindowPages

__all__ = ["outcome_notice", "undo_from_history"]


class UndoWindow(PagesWindow, Protocol):
    """What the undo uses of the window: its workspace, its open page, its notice."""

    @property
    def ctx(self) -> Any: ...

    def show_notice(self, text: str, kind: str = "info", topic: str | None = None) -> None: ...


def outcome_notice(outcome: ChangeOutcome, now: float) -> tuple[str, str]:
    """The notice of a change's outcome: its sentences (the headline, then one line per page
    left out) and the notice's kind."""
    text, kind = outcome_report(outcome, now)
    # the notice bar has no green: a change that went through whole is news, told in blue
    return text, "info" if kind == "ok" else kind


async def undo_from_history(
    win: UndoWindow,
    version: Version,
    *,
    reload: Callable[[], Awaitable[Any]] | None = None,
) -> ChangeOutcome | None:
    """Undo the change of ``version`` as one (see the module docstring); ``reload`` reads the
    history again afterwards."""
    ws = win.ctx.workspace
    store = ws.store

    def title_of(path: str) -> str:
        snap = store.snapshot
        doc = next((d for d in snap.docs if d.path == path), None) if snap else None
        return str(doc.title) if doc is not None else path.rsplit("/", 1)[-1]

    try:
        prepared = await prepare_undo(ws.client, version.sha, store.read_blob, title_of=title_of)
    except NothingBefore:
        win.show_notice(tr("This change has no earlier version to go back to."), "error")
        return None
    outcome = await send_change(
        ws.client,
        prepared,
        ws.editor,
        spool=ws.spool,
        read_blob=store.read_blob,
        on_queued=ws.saves.on_queued,
    )
    if outcome.state is ChangeState.COMMITTED:
        WindowPages(win).landed(outcome.committed, outcome.commit_sha)
    win.show_notice(*outcome_notice(outcome, ws.server_now()))
    if reload is not None:
        await reload()
    return outcome
