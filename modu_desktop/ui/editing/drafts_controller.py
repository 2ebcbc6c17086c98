"""Drive a :class:`~modu_desktop.core.saving.drafts.DraftJournal` for one open editor: what is
typed is on disk within half a second of the last keystroke, so a crash or a kill loses nothing.

The journal decides *when* a draft is due (:data:`IDLE_S` after the last keystroke, and at
least every :data:`MAX_LATENCY_S` while typing goes on); this controller feeds it the editor's
text and wakes up when the next write is due (a timer restarted by each keystroke, so an idle
window costs nothing). The write itself — a sealed file, fsync, an atomic rename — runs on one
worker thread shared by every window, never on the thread that takes the keystrokes; what is
typed meanwhile waits for the next write. A save, a close or a discard first waits for a write
in progress, so the files on disk follow the edits in order. I/O errors never escape: they are
reported through :attr:`DraftsController.draftError` and retried by the journal.

Typical use (the window, when a document opens for editing)::

    ctl = drafts_for(workspace, session, parent=window)
    ctl.attach(editor_pane.editor)          # or call ctl.note_edit(text) yourself
    ...
    ctl.committed(text, new_sha)            # after a save landed: the draft file goes away
    ctl.flush()                             # quitting without questions: keep the text on disk
    ctl.discard()                           # the user threw the changes away
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QPlainTextEdit

from modu_desktop.core.edit_session import EditSession
from modu_desktop.core.saving.drafts import Draft, DraftJournal, DraftKey, DraftStore
from modu_desktop.core.workspace import Workspace

log = logging.getLogger(__name__)

TICK_MS = 250  # the longest look-away while something is pending
WATCH_MS = 10  # how often a write in progress is looked at
IDLE_S = 0.2  # written this long after the last keystroke…
MAX_LATENCY_S = 1.0  # …and at least this often while typing goes on

_writer_lock = threading.Lock()
_writers: list[ThreadPoolExecutor] = []


def _writer() -> ThreadPoolExecutor:
    """The one thread that writes drafts, in the order they were taken."""
    with _writer_lock:
        if not _writers:
            _writers.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="drafts"))
        return _writers[0]


def _save(store: DraftStore, draft: Draft) -> OSError | None:
    try:
        store.save(draft)
    except OSError as exc:
        return exc
    return None


class DraftsController(QObject):
    """Journals one editor's text. Signals: ``draftWritten(float)`` (wall time of the write),
    ``draftError(str)`` (a write failed; it is retried), ``draftRemoved()`` (after commit)."""

    draftWritten = Signal(float)
    draftError = Signal(str)
    draftRemoved = Signal()

    def __init__(
        self, journal: DraftJournal, *, tick_ms: int = TICK_MS, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.journal = journal
        self._editor: QPlainTextEdit | None = None
        self._text_source: Callable[[], str] | None = None
        self._suspended = 0
        self._stopped = False
        self._last_error: str | None = None
        self._tick_ms = max(20, tick_ms)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)  # a coarse one may be 5 % late
        self._timer.timeout.connect(self._due)
        self._pending: tuple[Future[OSError | None], Draft] | None = None
        # The write's end is looked for from this thread: a signal emitted from the worker
        # thread raced PySide's own bookkeeping of signals on the Qt thread.
        self._watch = QTimer(self)
        self._watch.setInterval(WATCH_MS)
        self._watch.timeout.connect(self._look_at_write)

    # -- wiring --------------------------------------------------------------------------------

    @property
    def key(self) -> DraftKey:
        return self.journal.key

    @property
    def store(self) -> DraftStore:
        return self.journal.store

    def attach(self, editor: QPlainTextEdit, text_source: Callable[[], str] | None = None) -> None:
        """Journal every change of ``editor`` (``text_source`` defaults to its plain text)."""
        self.detach()
        self._editor = editor
        self._text_source = text_source or editor.toPlainText
        editor.textChanged.connect(self._on_text_changed)

    def detach(self) -> None:
        if self._editor is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self._editor.textChanged.disconnect(self._on_text_changed)
        self._editor = None
        self._text_source = None

    def suspend(self) -> contextlib.AbstractContextManager[None]:
        """``with ctl.suspend(): editor.setPlainText(loaded)``: programmatic loads are no edits."""
        ctl = self

        class _Suspend(contextlib.AbstractContextManager[None]):
            def __enter__(self) -> None:
                ctl._suspended += 1

            def __exit__(self, *exc: object) -> None:
                ctl._suspended -= 1

        return _Suspend()

    def _on_text_changed(self) -> None:
        if self._suspended or self._text_source is None:
            return
        self.note_edit(self._text_source())

    # -- journal operations --------------------------------------------------------------------

    @property
    def dirty(self) -> bool:
        return self.journal.dirty

    def note_edit(self, text: str) -> None:
        """The editor now shows ``text`` (cheap: no I/O; the write follows soon)."""
        if self._stopped:
            return
        self.journal.note_edit(text)
        self._schedule()

    def _schedule(self) -> None:
        """Wake up when the next write is due (each keystroke moves it: a debounce)."""
        if self._stopped or self._pending is not None:
            return  # the end of the write in progress schedules the next one
        wait = self.journal.due_in()
        if wait is None:
            self._timer.stop()
            return
        self._timer.start(min(self._tick_ms, int(wait * 1000) + 1))

    def _due(self) -> None:
        draft = self.journal.take()
        if draft is None:
            self._schedule()
            return
        future = _writer().submit(_save, self.store, draft)
        self._pending = (future, draft)
        self._watch.start()

    def _look_at_write(self) -> None:
        if self._pending is not None and self._pending[0].done():
            self._write_ended()

    def _write_ended(self) -> None:
        pending, self._pending = self._pending, None
        self._watch.stop()
        if pending is None:
            return
        future, draft = pending
        try:
            error = future.result()
        except Exception as exc:  # anything but an OSError: reported, and tried again
            log.warning("draft write failed", exc_info=True)
            error = OSError(str(exc))
        self.journal.written(draft, error)
        self._after_write(error is None)
        self._schedule()

    def _settle(self) -> None:
        """Wait for the write in progress (a save, a close or a discard comes after it)."""
        if self._pending is not None:
            with contextlib.suppress(Exception):
                self._pending[0].result(timeout=30)
            self._write_ended()

    def tick(self) -> bool:
        """Write the draft now if it is due, on this thread; True if written."""
        self._settle()
        try:
            wrote = self.journal.tick()
        except Exception as exc:  # the journal keeps OSErrors; anything else must not kill Qt
            log.warning("draft tick failed", exc_info=True)
            self._report_error(str(exc))
            return False
        self._after_write(wrote)
        self._schedule()
        return wrote

    def flush(self) -> bool:
        """Write pending text now (closing/quitting); True if written."""
        self._settle()
        try:
            wrote = self.journal.flush()
        except Exception as exc:
            log.warning("draft flush failed", exc_info=True)
            self._report_error(str(exc))
            return False
        self._after_write(wrote)
        return wrote

    def rebase(self, base_sha: str | None, doc_path: str | None = None) -> None:
        self._settle()
        self.journal.rebase(base_sha, doc_path)
        self._schedule()

    def committed(self, text: str, new_sha: str) -> bool:
        """``text`` is on the server at ``new_sha``: remove the draft unless newer edits exist."""
        self._settle()
        try:
            removed = self.journal.committed(text, new_sha)
        except OSError as exc:
            self._report_error(str(exc))
            return False
        if removed:
            self.draftRemoved.emit()
        self._schedule()
        return removed

    def discard(self) -> bool:
        """The user threw the changes away: stop journaling and delete the draft file."""
        self.stop()
        try:
            return self.store.discard(self.key)
        except OSError as exc:
            self._report_error(str(exc))
            return False

    def stop(self) -> None:
        """Stop the timer and stop listening (pending text is NOT written: call flush first);
        a write already in progress ends first."""
        self._stopped = True
        self._timer.stop()
        self._settle()
        self.detach()

    # -- helpers -------------------------------------------------------------------------------

    def _after_write(self, wrote: bool) -> None:
        err = self.journal.last_error
        if err is not None:
            self._report_error(str(err))
        elif wrote:
            self._last_error = None
            self.draftWritten.emit(time.time())

    def _report_error(self, message: str) -> None:
        if message != self._last_error:
            self._last_error = message
            self.draftError.emit(message)


def drafts_for(ws: Workspace, s: EditSession, parent: QObject) -> DraftsController | None:
    """Journal one open document's edits to the user data dir within half a second of the last
    keystroke; a draft is removed only once its text is committed or the user discards it
    (None without a data dir)."""
    if ws.drafts is None:
        return None
    key = DraftKey(ws.target.api_host, ws.target.repo, ws.target.branch, s.doc_id)
    journal = DraftJournal(
        ws.drafts,
        key,
        base_sha=s.base_sha,
        doc_path=s.path,
        session_id=ws.session_id,
        title=s.title,
        idle_s=IDLE_S,
        max_latency_s=MAX_LATENCY_S,
    )
    return DraftsController(journal, parent=parent)
