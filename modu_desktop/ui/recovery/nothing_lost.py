"""Nothing typed is lost, in the window: the save queue, single instance and notify-when-free.

The window builds one :class:`NothingLost` for itself; the app hands it the single-instance
listener (:meth:`NothingLost.serve`). Nothing is swapped or patched: saves queue in the core
(``SaveService``, the workspace's spool); this object starts the core's runner on the window's
timer and shows what it does.

* **Save queue** - the core's ``QueueRunner`` sends what ``SaveService`` queued (offline,
  timeout, 5xx, rate limit), exactly once; it starts once the window has recovered the last
  session (:meth:`start_queue`, or a fallback timer), and ``QueueSignals`` tell the window. The
  status bar shows "waiting to save (N)" with "Retry now"; a failed item (conflict, or too many
  failures) opens the conflict screen with its text intact. When a queued save lands, the
  window hears of it as a change (``kit.changes.Landed``): the open editor builds on it, its
  draft goes, its build is followed.
* **Single instance** - requests from later instances (``--open DOC``) bring this window to the
  front and open the document here (no second lock session). Before any window,
  :func:`instance_gate` decides whether this process is the instance at all.
* **Notify when free** - the read-only banner and the lock question get "Notify me when it is
  free"; a system notification (or the in-app notice) says when the lock is released or goes
  stale.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, QTimer, SignalInstance
from PySide6.QtWidgets import QStatusBar, QWidget

from modu_desktop.core.atomic import write_atomic
from modu_desktop.core.changes.outcome import ChangeState
from modu_desktop.core.changes.send import outcome_of_item
from modu_desktop.core.documents.store import SaveResult
from modu_desktop.core.saving.conflicts import ConflictDecision, OtherRepository
from modu_desktop.core.saving.queue import ChangeItem, SpoolItem
from modu_desktop.core.saving.runner import QueueRunner
from modu_desktop.i18n import tr
from modu_desktop.ui.editing.session_words import saved_as_new_text
from modu_desktop.ui.kit.changes import ChangeBus, Changes, Landed
from modu_desktop.ui.locks.notify_free import FreeNotifier
from modu_desktop.ui.publish.landed_pages import WindowPages
from modu_desktop.ui.publish.undo_change import outcome_notice
from modu_desktop.ui.recovery.save_queue import QueueSignals, SaveQueueStatus, resolve_failed
from modu_desktop.ui.recovery.single_instance import SingleInstance, bring_to_front

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.ui.kit.banners import Banner
    from modu_desktop.ui.kit.context import AppContext
    from modu_desktop.ui.kit.operation import Operations

log = logging.getLogger(__name__)

QUEUE_START_FALLBACK_S = 30.0


# -- practice mode: a stable address ----------------------------------------------------------

PRACTICE_PORT_FILE = "practice-port"


def practice_port(data_dir: str | Path) -> int:
    """The port the practice sandbox used last time (0 = any). Drafts, queued saves and lock
    records are keyed by the API address, so practice mode must keep it across restarts or a
    crash's work would never be recognised at the next start."""
    try:
        value = int((Path(data_dir) / PRACTICE_PORT_FILE).read_text("ascii").strip())
    except (OSError, ValueError):
        return 0
    return value if 1024 <= value <= 65535 else 0


def remember_practice_port(data_dir: str | Path, port: int) -> None:
    with contextlib.suppress(OSError):
        write_atomic(Path(data_dir) / PRACTICE_PORT_FILE, f"{int(port)}\n".encode("ascii"))


# -- in the window ------------------------------------------------------------------------------


def _why_not_saved(failure: str | None) -> str:
    """The queue's reason code in plain words (its last error is English, for the log)."""
    if failure == "conflict":
        return tr("the page changed on the site meanwhile")
    if failure == "exhausted":
        return tr("GitHub could not be reached for too long")
    return tr("GitHub refused it")


class NothingLostWindow(Protocol):
    """What the save queue's runner, notify-when-free and single instance use of the window."""

    ctx: AppContext
    ops: Operations
    changes: ChangeBus
    readonly_banner: Banner
    lock_banner: Banner
    connectionRestored: SignalInstance

    @property
    def editor_pane(self) -> Any: ...

    @property
    def doc(self) -> EditSession | None: ...

    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt API

    def label(self, doc_id: str) -> str: ...

    def show_notice(self, text: str, kind: str = "info", topic: str | None = None) -> None: ...

    async def open_document(self, doc_id: str) -> bool: ...

    async def create_new_document(self, from_doc: str, text: str) -> str | None: ...


class NothingLost(QObject):
    """Owns the queue's runner, its status widget, the notifier and the single-instance hookup."""

    def __init__(self, win: NothingLostWindow, parent: QWidget) -> None:
        super().__init__(parent)
        self.win = win
        self.parent_widget = parent
        ctx = win.ctx
        ws = ctx.workspace
        self.instance: SingleInstance | None = None
        self.queue: QueueRunner | None = None
        self.status = SaveQueueStatus()
        self.notifier = FreeNotifier(ws.store, ws.locks, banner=self._notice_free, parent=self)
        self._closed = False
        if ws.spool is not None:
            queue = QueueRunner(ws.spool)
            self.queue = queue
            signals = QueueSignals(queue, parent=self)
            ws.saves.on_queued = lambda _item: queue.poke()
            win.statusBar().addPermanentWidget(self.status)
            self.status.bind(signals)
            self.status.showFailedRequested.connect(
                lambda: win.ops.run(self.show_failed(), name="show-failed-saves")
            )
            signals.itemCommitted.connect(self._committed)
            signals.itemFailed.connect(self._failed)
            signals.changeLanded.connect(self._change_landed)
            signals.changeFailed.connect(self._change_failed)
            win.connectionRestored.connect(self._connection_restored)  # send what waits now
            QTimer.singleShot(int(QUEUE_START_FALLBACK_S * 1000), self.start_queue)
        self.notify_button = win.readonly_banner.add_button(
            "notifyFreeButton", tr("Notify me when it is free")
        )
        self.notify_button.clicked.connect(self.watch_open_document)
        if not ctx.viewer:  # after losing the lock, the same offer
            self.lost_notify_button = win.lock_banner.add_button(
                "lostNotifyFreeButton", tr("Notify me when it is free")
            )
            self.lost_notify_button.clicked.connect(self.watch_open_document)
        self.notifier.openRequested.connect(self._open_from_notification)

    # -- queue -------------------------------------------------------------------------------

    def start_queue(self) -> None:
        """Saves left in the queue by a crashed session go out once the window has put that
        session's documents back (the window calls this after its start-up recovery), so a
        document resumed with its draft learns the queued commit's sha instead of keeping the
        draft's old base. A timer calls it anyway if that step never comes."""
        if not self._closed and self.queue is not None and not self.queue.running:
            self.queue.start()

    def _committed(self, item: SpoolItem) -> None:
        if item.result_sha is None:
            return
        landed = Landed(item.doc_id, item.path, item.result_sha, item.text, item.commit_sha)
        self.win.changes.publish(Changes(landed=landed))
        self.win.show_notice(
            tr(
                "Saved “{doc}”: it was waiting for the connection.", doc=self.win.label(item.doc_id)
            ),
            "info",
        )

    def _change_landed(self, item: ChangeItem) -> None:
        """A change of many pages that waited was sent: the open page builds on it, and the
        notice says what became of each page."""
        outcome = outcome_of_item(item)
        if outcome.state is ChangeState.COMMITTED:
            WindowPages(self.win).landed(outcome.committed, outcome.commit_sha)
        self.win.show_notice(*outcome_notice(outcome, self.win.ctx.server_now()))

    def _change_failed(self, item: ChangeItem) -> None:
        self.win.show_notice(
            tr(
                "The change of {n} page(s) that waited could not be made ({why}); nothing was "
                "changed. It can be made again from the search.",
                n=item.pages,
                why=_why_not_saved(item.failure),
            ),
            "error",
        )

    def _connection_restored(self) -> None:
        if not self._closed and self.queue is not None and self.queue.pending_count():
            self.queue.retry_now()

    def _failed(self, item: SpoolItem) -> None:
        self.win.show_notice(
            tr(
                "“{doc}” could not be saved ({why}). Your text is kept: open "
                "“not saved” in the status bar.",
                doc=self.win.label(item.doc_id),
                why=_why_not_saved(item.failure),
            ),
            "error",
        )

    async def show_failed(self) -> None:
        """Each save that could not go out, on the conflict screen (one at a time)."""
        if self.queue is None:
            return
        made: list[str] = []

        async def save_as_new(doc_id: str, text: str) -> str | None:
            new_id = await self.win.create_new_document(doc_id, text)
            if new_id is not None:
                made.append(new_id)
            return new_id

        for item in self.queue.failed_items():
            made.clear()
            try:
                done = await resolve_failed(
                    self.parent_widget,
                    self.queue,
                    item,
                    self.win.ctx.store,
                    save_as_new=save_as_new,
                    title=self.win.label(item.doc_id),
                )
            except OtherRepository as exc:  # resolved where it belongs; the others go on
                self.win.show_notice(exc.user_message(), "warning")
                continue
            if done.decision is ConflictDecision.SAVED_AS_NEW and made:
                self.win.show_notice(saved_as_new_text(self.win.label(made[0])), "info")
            elif done.decision is ConflictDecision.KEEP_MINE and isinstance(done.saved, SaveResult):
                landed = Landed(item.doc_id, item.path, done.saved.sha, item.text)
                self.win.changes.publish(Changes(landed=landed))
                self.win.show_notice(tr("Saved “{doc}”.", doc=self.win.label(item.doc_id)), "info")

    # -- notify when free --------------------------------------------------------------------

    def watch_open_document(self) -> None:
        doc = self.win.doc
        if doc is not None:
            self.watch(doc.doc_id)

    def watch(self, doc_id: str) -> None:
        """Start watching ``doc_id`` (from the lock question or the read-only banner)."""
        if self._closed:
            return
        self.notifier.watch(doc_id)
        self.win.show_notice(
            tr("You will be told when “{doc}” is free.", doc=self.win.label(doc_id)),
            "info",
        )

    def _notice_free(self, text: str) -> None:
        if not self._closed:
            self.win.show_notice(text, "info")

    def _open_from_notification(self, doc_id: str) -> None:
        bring_to_front(self.parent_widget)
        self.win.ops.run(self.win.open_document(doc_id))

    # -- single instance ---------------------------------------------------------------------

    def serve(self, instance: SingleInstance | None) -> None:
        """Take requests from later instances of the app (``--open DOC``, come to the front)."""
        if instance is None or not instance.listen():
            return
        self.instance = instance
        instance.openRequested.connect(self._open_requested)
        instance.activateRequested.connect(self._activate)

    def _activate(self) -> None:
        bring_to_front(self.parent_widget)

    def _open_requested(self, doc_id: str) -> None:
        bring_to_front(self.parent_widget)
        self.win.ops.run(self._open_and_log(doc_id))

    async def _open_and_log(self, doc_id: str) -> None:
        doc = self.win.doc
        already = doc is not None and doc.doc_id == doc_id
        ok = await self.win.open_document(doc_id)
        if self.instance is not None:
            state = "focused (already open)" if already else ("opened" if ok else "not opened")
            self.instance.write_log(f"front {doc_id}: {state}")

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.instance is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self.instance.openRequested.disconnect(self._open_requested)
            with contextlib.suppress(RuntimeError, TypeError):
                self.instance.activateRequested.disconnect(self._activate)
        if self.queue is not None:
            await self.queue.stop()
        await self.notifier.stop()
        # The instance lock stays held until the process exits (sign-out opens a new window).


__all__ = [
    "NothingLost",
    "practice_port",
    "remember_practice_port",
]
