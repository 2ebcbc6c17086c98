"""The questions the window asks about one document: unsaved changes, a save conflict, a new
document for text that cannot go where it was, comparing with the site's version."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from PySide6.QtWidgets import QMessageBox, QWidget

from modu_desktop.core.account.people import person
from modu_desktop.core.docops.newdoc import CopySuggestion, copy_text, effective_id, suggest_copy
from modu_desktop.core.documents.store import DocSummary
from modu_desktop.core.edit_session import Conflict, ConflictDecision
from modu_desktop.i18n import tr
from modu_desktop.ui.editing.conflict_dialog import ConflictChoice, ConflictDialog
from modu_desktop.ui.editing.new_doc_dialog import NewDocDialog
from modu_desktop.ui.kit.asyncutil import ask, run_dialog


async def ask_unsaved(parent: QWidget, title: str, *, editable: bool) -> str | None:
    """ "save" / "saveNew" (the lock is gone) / "discard"; None = cancel."""
    cancel = ("cancel", QMessageBox.ButtonRole.RejectRole, tr("&Cancel"))
    discard = ("discard", QMessageBox.ButtonRole.DestructiveRole, tr("&Discard changes"))
    if editable:
        text = tr("“{doc}” has changes that are not saved.", doc=title)
        first = ("save", QMessageBox.ButtonRole.AcceptRole, tr("&Save"))
        default: str | None = "save"
    else:
        text = tr(
            "Your changes to “{doc}” are not saved and you no longer hold its lock.", doc=title
        )
        first = ("saveNew", QMessageBox.ButtonRole.AcceptRole, tr("Save as &new document"))
        default = None
    key = await ask(
        parent,
        tr("Unsaved changes"),
        text,
        [first, discard, cancel],
        object_name="unsavedDialog",
        icon=QMessageBox.Icon.Warning,
        default=default,
    )
    return None if key == "cancel" else key


async def decide_conflict(
    parent: QWidget | None,
    title: str,
    conflict: Conflict,
    save_as_new: Callable[[str, str], Awaitable[str | None]],
) -> tuple[ConflictDecision, str | None]:
    """The conflict screen, for a live save and a queued one alike (Enter = save mine as a new
    document, Esc = cancel); for "save mine as new" the new document is made here. Returns the
    decision and the new document's id (if one was made)."""
    dlg = ConflictDialog(
        title,
        conflict.mine,
        conflict.theirs or "",
        theirs_by=person(conflict.by) if conflict.by else None,
        parent=parent,
    )
    await run_dialog(dlg)
    choice = dlg.choice
    dlg.deleteLater()
    if choice is ConflictChoice.KEEP_MINE:
        return ConflictDecision.KEEP_MINE, None
    if choice is ConflictChoice.TAKE_THEIRS:
        return ConflictDecision.TAKE_THEIRS, None
    if choice is ConflictChoice.SAVE_AS_NEW:
        new_id = await save_as_new(conflict.doc_id, conflict.mine)
        if new_id is not None:
            return ConflictDecision.SAVED_AS_NEW, new_id
    return ConflictDecision.CANCEL, None


async def compare(parent: QWidget, title: str, mine: str, current: str) -> bool:
    """Mine beside the site's version; True when the user asked to save mine as new."""
    dlg = ConflictDialog(title, mine, current, compare_only=True, parent=parent)
    await run_dialog(dlg)
    choice = dlg.choice
    dlg.deleteLater()
    return choice is ConflictChoice.SAVE_AS_NEW


async def ask_new_document(
    parent: QWidget, docs: Sequence[DocSummary], from_doc: str, text: str
) -> tuple[CopySuggestion, str] | None:
    """Ask how to save ``text`` (the page ``from_doc``'s) as a new page: (the chosen title,
    place and address, the text as the copy — not published), or None if cancelled."""
    suggestion = suggest_copy(text, from_doc, docs)
    taken = {effective_id(d) for d in docs if "/" not in d.doc_id}
    dlg = NewDocDialog(suggestion, taken, parent)
    result = await run_dialog(dlg)
    chosen = dlg.chosen()
    dlg.deleteLater()
    if result != 1:
        return None
    return chosen, copy_text(text, chosen)
