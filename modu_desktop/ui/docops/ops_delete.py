"""Delete a document: a confirmation that names it, progress, and a visible result.

Wiring (main window): ``await delete_document(ops, summary, parent,
held=open_doc.held_or_None)``; on ``result.ok`` close the editor tab if it showed that document
(without releasing: the lock file is already gone) and refresh the list.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.docops.ops import DocOps, OpCode, OpResult
from modu_desktop.core.documents.store import DocSummary
from modu_desktop.core.locks.model import HeldLock
from modu_desktop.ui.kit.asyncutil import run_dialog
from modu_desktop.ui.kit.op_dialog import OpDialog


class DeleteDialog(OpDialog):
    """“Delete ‘{title}’ ({file})?” with Delete / Cancel."""

    def __init__(
        self,
        ops: DocOps,
        doc: DocSummary,
        parent: QWidget | None = None,
        *,
        held: HeldLock | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("opsDeleteDialog")
        self.ops, self.doc, self.held = ops, doc, held
        self.setWindowTitle(self.t("Delete document"))
        self.setAccessibleName(self.t("Delete document"))
        lay = QVBoxLayout(self)
        self.head = QLabel(self.t("Delete “{title}”?").format(title=doc.title))
        self.head.setObjectName("opsDeleteHead")
        self.head.setWordWrap(True)
        font = self.head.font()
        font.setBold(True)
        self.head.setFont(font)
        lay.addWidget(self.head)
        body = QLabel(
            self.t(
                "The page disappears from the site at the next publish. The repository history "
                "keeps it, so an administrator can bring it back."
            )
        )
        body.setWordWrap(True)
        lay.addWidget(body)
        self.add_status_widgets(lay)
        self.delete_button, self.cancel_button = self.add_op_buttons(
            lay,
            "&Delete",
            "opsDeleteButton",
            role=QDialogButtonBox.ButtonRole.DestructiveRole,
            default=False,
        )
        self.delete_button.setAccessibleName(self.t("Delete"))
        self.delete_button.setAutoDefault(False)  # a stray Enter must not delete
        self.inputs = [self.delete_button, self.cancel_button]

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        self.cancel_button.setDefault(True)
        self.cancel_button.setFocus()

    def start(self) -> asyncio.Task[Any]:
        return self.run_op(
            lambda: self.ops.delete(self.doc.doc_id, expected_sha=self.doc.sha, held=self.held),
            self.t("Deleting “{title}”…").format(title=self.doc.title),
        )

    def on_result(self, res: OpResult) -> None:
        if res.ok or res.code is OpCode.NOT_FOUND:
            # Gone either way: nothing left to retry.
            self.show_outcome(res)
            if not res.ok:
                self.delete_button.setEnabled(False)
            return
        self.show_outcome(res)


async def delete_document(
    ops: DocOps,
    doc: DocSummary,
    parent: QWidget | None = None,
    *,
    held: HeldLock | None = None,
) -> OpResult | None:
    """Ask, delete, show the result. None if the user cancelled before deleting."""
    dlg = DeleteDialog(ops, doc, parent, held=held)
    await run_dialog(dlg)
    res: OpResult | None = dlg.result_op
    dlg.deleteLater()
    return res
