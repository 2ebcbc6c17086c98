"""Move documents up/down the sidebar.

:class:`ReorderController` runs one move at a time on ``DocOps.move`` and reports through
signals; :class:`ReorderBar` is its ▲ / ▼ under the document list. The window
(``ops_host.OpsHost``) connects ``finished(result)`` to "show ``result.user_message()``, refresh
the list and, when ``result.details["shas"]`` names the open document's path, build on its new
version" and ``busy(bool)`` to disabling the move actions.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget

from modu_desktop.core.docops.ops import DocOps, OpCode, OpResult, Text
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.operation import operations_for


class ReorderController(QObject):
    """``move(doc_id, "up"|"down")`` → OpResult. A second request while one runs is refused
    (result code NOTHING_TO_DO, not queued: the list it was based on is about to change)."""

    busy = Signal(bool)
    finished = Signal(object)  # OpResult

    def __init__(self, ops: DocOps, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self._running = False

    @property
    def running(self) -> bool:
        return self._running

    def _refuse_busy(self, doc_id: str) -> OpResult:
        return OpResult(
            OpCode.NOTHING_TO_DO,
            Text("Another move is still running; try again when it is done."),
            doc_id=doc_id,
        )

    async def move(self, doc_id: str, direction: str) -> OpResult:
        if self._running:
            return self._refuse_busy(doc_id)
        self._running = True
        self.busy.emit(True)
        try:
            res = await self.ops.move(doc_id, direction)
        finally:
            self._running = False
            self.busy.emit(False)
        self.finished.emit(res)
        return res


class ReorderBar(QWidget):
    """메뉴 순서: ▲ ▼ for the page ``current()`` names (None: nothing chosen). What came of a
    move is the window's to say (``finished``); only a failure to run one shows here."""

    def __init__(
        self,
        controller: ReorderController,
        current: Callable[[], str | None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("opsReorderBar")
        self.controller = controller
        self.current = current
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        caption = QLabel(tr("Menu order:"))
        self.up = self._arrow("opsMoveUpButton", "▲", "Move up in the sidebar", "Move up")
        self.down = self._arrow("opsMoveDownButton", "▼", "Move down in the sidebar", "Move down")
        caption.setBuddy(self.up)
        self.progress = QProgressBar()
        self.progress.setObjectName("opsReorderProgress")
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(60)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.label = QLabel("")
        self.label.setObjectName("opsReorderLabel")
        self.label.setWordWrap(True)
        self.label.setProperty("kind", "error")
        self.label.hide()
        for w in (caption, self.up, self.down, self.progress):
            lay.addWidget(w)
        lay.addWidget(self.label, 1)
        lay.addStretch(1)
        self.up.clicked.connect(lambda: self._go("up"))
        self.down.clicked.connect(lambda: self._go("down"))
        controller.busy.connect(self._busy)
        self._task: asyncio.Task[Any] | None = None

    def _arrow(self, name: str, text: str, tip: str, accessible: str) -> QToolButton:
        b = QToolButton()
        b.setObjectName(name)
        b.setText(text)
        b.setToolTip(tr(tip))
        b.setAccessibleName(tr(accessible))
        return b

    def _go(self, direction: str) -> None:
        doc_id = self.current()
        if not doc_id:
            self._failed(tr("Select a document first."))
            return
        self.label.hide()
        self._task = operations_for(self).run(
            self.controller.move(doc_id, direction), name="reorder", report=self._failed
        )

    def _failed(self, text: str) -> None:
        self.label.setText(text)
        self.label.show()

    def _busy(self, busy: bool) -> None:
        self.up.setEnabled(not busy)
        self.down.setEnabled(not busy)
        self.progress.setVisible(busy)
