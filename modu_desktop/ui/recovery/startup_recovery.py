"""After a crash or kill: resume (or release) the locks the dead session left, then offer its
drafts back against the current server version (the start-up recovery, in one place)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Protocol

from PySide6.QtWidgets import QWidget

from modu_desktop.core.locks.leftover import LeftoverLocks, leftover_drafts
from modu_desktop.core.saving.drafts import Draft, DraftKey
from modu_desktop.i18n import tr
from modu_desktop.ui.recovery.recovery_dialog import (
    RecoveryItem,
    assess,
    offer_recovery,
    orphan_drafts,
)

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.core.locks.model import HeldLock
    from modu_desktop.ui.editing.drafts_controller import DraftsController
    from modu_desktop.ui.editing.editor import EditorPane
    from modu_desktop.ui.kit.context import AppContext

log = logging.getLogger(__name__)


class RecoveryWindow(Protocol):
    """What the start-up recovery uses of the window: opening documents and putting a draft's
    text back in the editor."""

    ctx: AppContext
    editor_pane: EditorPane
    drafts: DraftsController | None

    @property
    def doc(self) -> EditSession | None: ...

    def show_notice(self, text: str, kind: str = "info", topic: str | None = None) -> None: ...

    def update_title(self) -> None: ...

    async def open_document(self, doc_id: str) -> bool: ...

    async def open_with_lock(self, doc_id: str, held: HeldLock) -> bool: ...

    async def create_new_document(self, from_doc: str, text: str) -> str | None: ...


async def recover_at_start(win: RecoveryWindow, parent: QWidget) -> None:
    ctx = win.ctx
    ws = ctx.workspace
    if ctx.viewer or ws.drafts is None or ws.held_locks is None:
        return
    t = ws.target
    resumed_keys: list[DraftKey] = []
    try:
        report = await LeftoverLocks(
            ws.held_locks,
            ws.locks,
            api_host=t.api_host,
            repo=t.repo,
            branch=t.branch,
            drafts=ws.drafts,
        ).run()
        for lo, held in report.resumed:
            if await win.open_with_lock(lo.doc_id, held) and lo.draft is not None:
                put_back(win, lo.draft.text, lo.draft.base_sha)
                win.show_notice(
                    tr(
                        "“{doc}” was still open when the app stopped: your lock and your "
                        "unsaved text are back.",
                        doc=lo.draft.title or lo.doc_id,
                    ),
                    "info",
                    "recovered",  # true until the text is saved or the document closes
                )
        resumed_keys = [d.key for d in leftover_drafts(report)]
    except Exception:
        log.warning("leftover locks not settled", exc_info=True)

    async def restore(draft: Draft, _item: RecoveryItem) -> bool:
        if not await win.open_document(draft.key.doc_id):
            return False
        doc = win.doc
        if doc is None or doc.doc_id != draft.key.doc_id:
            return False
        put_back(win, draft.text, draft.base_sha)
        return True

    async def save_as_new(draft: Draft, _item: RecoveryItem) -> str | None:
        return await win.create_new_document(draft.key.doc_id, draft.text)

    try:
        left = orphan_drafts(
            ws.drafts,
            api_host=t.api_host,
            repo=t.repo,
            branch=t.branch,
            live_session_ids=[ctx.session_id],
            exclude=resumed_keys,
        )
        if not left:
            return
        items = await assess(left, ws.store)
        await offer_recovery(
            parent, items, ws.drafts, restore=restore, save_as_new=save_as_new, can_write=True
        )
    except Exception:
        log.warning("draft recovery failed", exc_info=True)


def put_back(win: RecoveryWindow, text: str, base_sha: str | None) -> None:
    """Put a draft's text in the open editor (byte-identical), on the draft's base sha."""
    s = win.doc
    if s is None:
        return
    if s.editable and base_sha:
        s.rebase(base_sha)
    win.editor_pane.replace_all_text(text, modified=True)
    if s.editable and win.drafts is not None:
        win.drafts.rebase(s.base_sha)
        win.drafts.note_edit(text)
    win.update_title()
