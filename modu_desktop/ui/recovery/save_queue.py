"""The save queue in the window: the core's runner (``core/saving/runner.py``) told through Qt
signals, its status-bar widget, and the conflict screen for a save that could not go out.

* :class:`QueueSignals` - a :class:`~modu_desktop.core.saving.runner.QueueListener` that turns
  what the runner did into Qt signals on the Qt loop.
* :class:`SaveQueueStatus` - "waiting to save (N)" / "저장 대기 중 (N)" with "Retry now", and
  "not saved (N)" with a button that opens the conflict screen (:func:`resolve_failed`).

A save goes to the queue only when GitHub cannot be reached or answered unclearly
(``core/saving/service.is_queueable_error``); a conflict or a permission problem is shown at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from modu_desktop.core.atomic import FileProblem
from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.core.saving.conflicts import Conflict, ConflictDecision, Resolution
from modu_desktop.core.saving.queue import ChangeItem, SpoolItem
from modu_desktop.core.saving.runner import QueueRunner, settle_failed
from modu_desktop.i18n import tr

__all__ = ["QueueSignals", "SaveQueueStatus", "resolve_failed"]


# -- the runner's news as signals -----------------------------------------------------------------


class QueueSignals(QObject):
    """What ``runner`` did, as signals: ``countsChanged(pending, failed)``,
    ``itemCommitted(SpoolItem)``, ``itemFailed(SpoolItem)``, ``problemsFound(list)`` (damaged
    spool files set aside), ``changeLanded(ChangeItem)`` / ``changeFailed(ChangeItem)`` (a
    change of many pages that waited was sent, or could not be)."""

    countsChanged = Signal(int, int)
    itemCommitted = Signal(object)
    itemFailed = Signal(object)
    problemsFound = Signal(object)
    changeLanded = Signal(object)
    changeFailed = Signal(object)

    def __init__(self, runner: QueueRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        runner.listeners.append(self)

    def counts_changed(self, pending: int, failed: int) -> None:
        self.countsChanged.emit(pending, failed)

    def committed(self, item: SpoolItem) -> None:
        self.itemCommitted.emit(item)

    def failed(self, item: SpoolItem) -> None:
        self.itemFailed.emit(item)

    def problems_found(self, problems: list[FileProblem]) -> None:
        self.problemsFound.emit(problems)

    def change_landed(self, item: ChangeItem) -> None:
        self.changeLanded.emit(item)

    def change_failed(self, item: ChangeItem) -> None:
        self.changeFailed.emit(item)


# -- status bar widget ----------------------------------------------------------------------------


class SaveQueueStatus(QWidget):
    """ "waiting to save (N)" + "Retry now"; "not saved (N)" + "Show". Hidden when both are 0."""

    retryRequested = Signal()
    showFailedRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("saveQueueStatus")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        self.label = QLabel("")
        self.label.setObjectName("saveQueueLabel")
        self.retry_button = QToolButton()
        self.retry_button.setObjectName("saveQueueRetryButton")
        self.retry_button.setText(tr("Retry now"))
        self.retry_button.setAccessibleName(self.retry_button.text())
        self.retry_button.clicked.connect(self.retryRequested.emit)
        self.failed_label = QLabel("")
        self.failed_label.setObjectName("saveQueueFailedLabel")
        self.failed_button = QToolButton()
        self.failed_button.setObjectName("saveQueueFailedButton")
        self.failed_button.setText(tr("Show"))
        self.failed_button.setAccessibleName(tr("Show the saves that failed"))
        self.failed_button.clicked.connect(self.showFailedRequested.emit)
        for w in (self.label, self.retry_button, self.failed_label, self.failed_button):
            lay.addWidget(w)
        self.pending = 0
        self.failed = 0
        self.set_counts(0, 0)

    def set_counts(self, pending: int, failed: int) -> None:
        self.pending, self.failed = pending, failed
        self.label.setText(tr("waiting to save ({n})", n=pending))
        self.label.setAccessibleName(self.label.text())
        self.failed_label.setText(tr("not saved ({n})", n=failed))
        self.label.setVisible(pending > 0)
        self.retry_button.setVisible(pending > 0)
        self.failed_label.setVisible(failed > 0)
        self.failed_button.setVisible(failed > 0)
        self.setVisible(pending > 0 or failed > 0)

    def bind(self, queue: QueueSignals) -> None:
        """Follow the runner's counts; "Retry now" calls its ``retry_now()``."""
        runner = queue.runner
        queue.countsChanged.connect(self.set_counts)
        self.retryRequested.connect(runner.retry_now)
        self.set_counts(runner.pending_count(), len(runner.failed_items()))


# -- failed items: the conflict screen ------------------------------------------------------------


SaveAsNew = Callable[[str, str], Awaitable[str | None]]


async def resolve_failed(
    parent: QWidget | None,
    runner: QueueRunner,
    item: SpoolItem,
    store: DocumentStore,
    *,
    save_as_new: SaveAsNew | None = None,
    title: str | None = None,
) -> Resolution:
    """A failed queued save on the conflict screen, with its text intact, through the core's
    ``settle_failed`` and the same dialog as a live save (``doc_dialogs.decide_conflict``:
    Enter = save mine as a new document, Esc = cancel). Save as new: ``save_as_new(doc_id,
    text)`` (the window's "new document" flow). Cancel: it stays in "not saved". Raises (the item
    untouched) when the current version cannot be read."""
    from modu_desktop.ui.editing.doc_dialogs import decide_conflict

    async def no_new_document(_doc_id: str, _text: str) -> str | None:
        return None

    async def ask(conflict: Conflict) -> ConflictDecision:
        decision, _new_id = await decide_conflict(
            parent, title or item.doc_id, conflict, save_as_new or no_new_document
        )
        return decision

    return await settle_failed(runner, item, store, ask)
