"""Move documents up/down the sidebar (and "drag to a place" as a series of moves).

:class:`ReorderController` runs one move at a time on ``DocOps.move`` and reports through
signals; :class:`ReorderBar` is an optional pair of ▲/▼ buttons with a status line.

Wiring (main window / document list): create ``ReorderController(ops)``; connect
``finished(result)`` to "refresh the list and show ``result.user_message()``" (and, when
``result.details["shas"]`` names the open document's path, update its base sha — the text did
not change except for ``sidebar_position``; simplest is to reload it if it is unmodified);
connect ``busy(bool)`` to disabling the list's drag and the move actions. For a drop in the
list: ``controller.move_by(doc_id, target_row - source_row)``.
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
    """``move(doc_id, "up"|"down")`` → OpResult; ``move_by(doc_id, steps)`` → the last result.
    A second request while one runs is refused (result code NOTHING_TO_DO, not queued: the
    list it was based on is about to change)."""

    busy = Signal(bool)
    started = Signal(str)  # a line to show while working
    finished = Signal(object)  # OpResult

    def __init__(self, ops: DocOps, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self._running = False
        self.last: OpResult | None = None

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
        return await self._run(doc_id, [direction])

    async def move_by(self, doc_id: str, steps: int) -> OpResult:
        """Move ``steps`` places (negative = up), one swap at a time; stops at the first
        failure (the result says where it stopped)."""
        if self._running:
            return self._refuse_busy(doc_id)
        if steps == 0:
            return OpResult(OpCode.NOTHING_TO_DO, Text("Nothing to move."), doc_id=doc_id)
        return await self._run(doc_id, ["up" if steps < 0 else "down"] * abs(steps))

    async def _run(self, doc_id: str, directions: list[str]) -> OpResult:
        self._running = True
        self.busy.emit(True)
        done = 0
        res: OpResult | None = None
        try:
            for d in directions:
                self.started.emit(Text("Moving “{title}”…", title=self.ops.title_of(doc_id))())
                res = await self.ops.move(doc_id, d)
                if not res.ok:
                    break
                done += 1
        finally:
            self._running = False
            self.busy.emit(False)
        assert res is not None
        if len(directions) > 1 and not res.ok and done:
            res = OpResult(
                res.code,
                Text(
                    "Moved “{title}” {done} of {v} places; then: {text}",
                    title=self.ops.title_of(doc_id),
                    done=done,
                    v=len(directions),
                    text=res.text,
                ),
                doc_id=res.doc_id,
                path=res.path,
                commits=res.commits,
                error=res.error,
                view=res.view,
                details=res.details,
            )
        self.last = res
        self.finished.emit(res)
        return res


class ReorderBar(QWidget):
    """▲ / ▼ buttons for the current document (``current()`` gives its docId or None), with a
    busy bar and the last result."""

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
        self.up = QToolButton()
        self.up.setObjectName("opsMoveUpButton")
        self.up.setText("▲")
        self.up.setToolTip(self.t("Move up in the sidebar"))
        self.up.setAccessibleName(self.t("Move up"))
        self.down = QToolButton()
        self.down.setObjectName("opsMoveDownButton")
        self.down.setText("▼")
        self.down.setToolTip(self.t("Move down in the sidebar"))
        self.down.setAccessibleName(self.t("Move down"))
        self.progress = QProgressBar()
        self.progress.setObjectName("opsReorderProgress")
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(60)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.label = QLabel("")
        self.label.setObjectName("opsReorderLabel")
        self.label.setWordWrap(True)
        for w in (self.up, self.down, self.progress):
            lay.addWidget(w)
        lay.addWidget(self.label, 1)
        self.up.clicked.connect(lambda: self._go("up"))
        self.down.clicked.connect(lambda: self._go("down"))
        controller.busy.connect(self._busy)
        controller.started.connect(self.label.setText)
        controller.finished.connect(self._finished)
        self._task: asyncio.Task[Any] | None = None

    def t(self, text: str) -> str:
        return tr(text)

    def _go(self, direction: str) -> None:
        doc_id = self.current()
        if not doc_id:
            self.label.setText(self.t("Select a document first."))
            return
        self._task = operations_for(self).run(
            self.controller.move(doc_id, direction),
            name="reorder",
            report=self._failed,
        )

    def _failed(self, text: str) -> None:
        self.label.setProperty("kind", "error")
        self.label.setText(text)
        self.label.show()

    def _busy(self, busy: bool) -> None:
        self.up.setEnabled(not busy)
        self.down.setEnabled(not busy)
        self.progress.setVisible(busy)

    def _finished(self, res: OpResult) -> None:
        self.label.setProperty("kind", "ok" if res.ok else "error")
        self.label.setText(res.user_message())
