"""The questions the window asks about one document: unsaved changes, a save conflict, a new
document for text that cannot go where it was, comparing with the site's version."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from PySide6.QtWidgets import QMessageBox, QWidget

from modu_desktop.core.edit_session import Conflict, ConflictDecision
from modu_desktop.i18n import tr
from modu_desktop.ui.editing import fmsync
from modu_desktop.ui.editing.conflict_dialog import ConflictChoice, ConflictDialog
from modu_desktop.ui.editing.new_doc_dialog import NewDocDialog, suggest_doc_id
from modu_desktop.ui.shell.asyncutil import ask, run_dialog


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
        title, conflict.mine, conflict.theirs or "", theirs_by=conflict.by, parent=parent
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
    parent: QWidget, existing: set[str], from_doc: str, text: str
) -> tuple[str, str] | None:
    """Ask for a new docId for ``text``: (new id, the text with its front matter ``id``
    following), or None if cancelled."""
    dlg = NewDocDialog(suggest_doc_id(from_doc, existing), existing, parent)
    result = await run_dialog(dlg)
    new_id = dlg.doc_id()
    dlg.deleteLater()
    if result != 1:
        return None
    if fmsync.read_id(text) is not None:
        text = fmsync.write_field(text, "id", new_id.rsplit("/", 1)[-1])
    return new_id, text
