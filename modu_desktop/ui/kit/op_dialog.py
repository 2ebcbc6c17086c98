"""The small base the operation dialogs share: busy state with a progress bar, a result line,
inputs disabled while working and re-enabled — with their values — after a failure."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.i18n import tr
from modu_desktop.ui.kit.operation import operations_for
from modu_desktop.ui.kit.preedit import commit_preedit


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
