"""Move documents up/down the sidebar.

:class:`ReorderController` runs one move at a time on ``DocOps.move`` and reports through
signals. The window (``ops_host.OpsHost``) connects ``finished(result)`` to "show
``result.user_message()``, refresh the list and, when ``result.details["shas"]`` names the open
document's path, build on its new version" and ``busy(bool)`` to disabling the move actions.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from modu_desktop.core.docops.ops import DocOps, OpCode, OpResult, Text


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
