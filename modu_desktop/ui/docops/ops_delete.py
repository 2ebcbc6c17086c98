"""Delete a document: a confirmation that names it, progress, and a visible result.

Also home of :class:`OpDialog`, the small base the ops dialogs share (busy state with a progress
bar, a result line, inputs disabled while working and re-enabled — with their values — after a
failure).

Wiring (main window): ``await delete_document(ops, summary, parent,
held=open_doc.held_or_None)``; on ``result.ok`` close the editor tab if it showed that document
(without releasing: the lock file is already gone) and refresh the list.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.docops.ops import DocOps, OpCode, OpResult
from modu_desktop.core.documents.store import DocSummary
from modu_desktop.core.locks.model import HeldLock
from modu_desktop.i18n import tr
from modu_desktop.ui.editing.preedit import commit_preedit
from modu_desktop.ui.kit.asyncutil import run_dialog
from modu_desktop.ui.kit.operation import operations_for


class Outcome(Protocol):
    """What an operation dialog shows when its operation ends (``OpResult``, ``ImageUpload``)."""

    @property
    def ok(self) -> bool: ...

    def user_message(self) -> str: ...


class OpDialog(QDialog):
    """Base: ``run_op(factory)`` shows progress, disables ``self.inputs``, awaits the operation
    and shows its message. Emits ``op_finished(result)``."""

    op_finished = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result_op: Any = None
        self.busy = False
        self.inputs: list[QWidget] = []
        self.progress = QProgressBar()
        self.progress.setObjectName("opsProgress")
        self.progress.setRange(0, 0)  # busy indicator
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.status = QLabel("")
        self.status.setObjectName("opsResultLabel")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status.hide()
        self._task: asyncio.Task[Any] | None = None

    def t(self, text: str) -> str:
        """``text`` (English) in the current language (``ko/docops.json``)."""
        return tr(text)

    def add_status_widgets(self, layout: QVBoxLayout) -> None:
        layout.addWidget(self.progress)
        layout.addWidget(self.status)

    def add_op_buttons(
        self,
        layout: QVBoxLayout,
        action_text: str,
        action_name: str,
        *,
        role: QDialogButtonBox.ButtonRole = QDialogButtonBox.ButtonRole.AcceptRole,
        default: bool = True,
        cancel_text: str = "Cancel",
        before: tuple[tuple[QPushButton, QDialogButtonBox.ButtonRole], ...] = (),
    ) -> tuple[QPushButton, QPushButton]:
        """The button row as ``self.buttons``: the operation's button (runs ``self.start``) and
        the cancel button (``opsCancelButton``, runs ``reject``), after any ``before`` buttons;
        added to ``layout``. Returns (action, cancel)."""
        self.buttons = QDialogButtonBox()
        action = QPushButton(self.t(action_text))
        action.setObjectName(action_name)
        cancel = QPushButton(self.t(cancel_text))
        cancel.setObjectName("opsCancelButton")
        for button, button_role in before:
            self.buttons.addButton(button, button_role)
        self.buttons.addButton(action, role)
        self.buttons.addButton(cancel, QDialogButtonBox.ButtonRole.RejectRole)
        action.clicked.connect(self._start_clicked)
        cancel.clicked.connect(self.reject)
        layout.addWidget(self.buttons)
        if default:
            # only once it is inside the dialog: set before, the dialog never learns of it and
            # Enter in a field presses the first other button (찾아보기 in 그림 넣기)
            action.setDefault(True)
        return action, cancel

    def _start_clicked(self) -> None:
        commit_preedit()  # OK reads the fields as typed, the last syllable included
        self.start()

    def start(self) -> asyncio.Task[Any]:
        """Run the dialog's operation (each dialog defines it, usually through ``run_op``)."""
        raise NotImplementedError

    def set_busy(self, busy: bool, text: str = "") -> None:
        self.busy = busy
        self.progress.setVisible(busy)
        for w in self.inputs:
            w.setEnabled(not busy)
        if busy:
            self.show_status(text, "info")

    def show_status(self, text: str, kind: str = "info") -> None:
        self.status.setProperty("kind", kind)
        self.status.setText(text)
        self.status.setVisible(bool(text))
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)
        if text and self.isVisible():
            # Grow (never shrink) to show the whole message: a long reason must not be cut off.
            lay = self.layout()
            need = (
                lay.totalHeightForWidth(self.width())
                if lay is not None and lay.hasHeightForWidth()
                else self.sizeHint().height()
            )
            if need > self.height():
                self.resize(self.width(), need)

    def run_op(self, factory: Callable[[], Awaitable[Any]], busy_text: str) -> asyncio.Task[Any]:
        """Start the operation (one at a time). The task's result is the operation's result."""
        if self._task is not None and not self._task.done():
            return self._task

        async def go() -> Any:
            res = await factory()
            self.set_busy(False)
            self.result_op = res
            self.on_result(res)
            self.op_finished.emit(res)
            return res

        self._task = self.run_job(
            go(),
            name=f"{type(self).__name__}.run_op",
            busy=lambda on: self.set_busy(on, busy_text),
        )
        return self._task

    def run_job(
        self,
        coro: Coroutine[Any, Any, Any],
        *,
        name: str,
        busy: Callable[[bool], None] | None = None,
    ) -> asyncio.Task[Any]:
        """One of the window's jobs (``ui/kit/operation.py``): the window's shutdown cancels
        it; an unexpected error is worded once and shown once, here in the dialog, whose inputs
        come back with their values."""
        return operations_for(self).run(
            coro, name=name, busy=busy, report=lambda text: self.show_status(text, "error")
        )

    def on_result(self, res: Any) -> None:
        """What the operation's result does to the dialog (each dialog says; by default
        :meth:`show_outcome`)."""
        self.show_outcome(res)

    def show_outcome(self, res: Outcome) -> None:
        """Close on success, otherwise show the reason and stay open."""
        text = res.user_message()
        if res.ok:
            self.show_status(text, "ok")
            self.accept()
        else:
            self.show_status(text, "error")

    def reject(self) -> None:
        if self.busy:  # never abandon a write half-way; the result is shown when it ends
            return
        super().reject()


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
