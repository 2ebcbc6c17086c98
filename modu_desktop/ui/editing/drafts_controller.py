"""Drive a :class:`~modu_desktop.core.saving.drafts.DraftJournal` from a ``QTimer`` for one open
editor.

The journal decides *when* a draft is due (at most ~2 s after the first unsaved keystroke); this
controller only feeds it the editor's text and ticks it. The timer runs only while something is
pending, so an idle window costs nothing. I/O errors never escape: they are reported through
:attr:`DraftsController.draftError` and retried by the journal.

Typical use (the window, when a document opens for editing)::

    journal = DraftJournal(DraftStore(paths.drafts_dir), DraftKey(api, repo, branch, doc_id),
                           base_sha=loaded.sha, doc_path=loaded.path,
                           session_id=ctx.session_id, title=title)
    ctl = DraftsController(journal, parent=window)
    ctl.attach(editor_pane.editor)          # or call ctl.note_edit(text) yourself
    ...
    ctl.committed(text, new_sha)            # after a save landed: the draft file goes away
    ctl.flush()                             # quitting without questions: keep the text on disk
    ctl.discard()                           # the user threw the changes away
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QPlainTextEdit

from modu_desktop.core.edit_session import EditSession
from modu_desktop.core.saving.drafts import DraftJournal, DraftKey, DraftStore
from modu_desktop.core.workspace import Workspace

log = logging.getLogger(__name__)

TICK_MS = 250


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
        self._timer = QTimer(self)
        self._timer.setInterval(max(20, tick_ms))
        self._timer.timeout.connect(self.tick)

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
        """The editor now shows ``text`` (cheap: no I/O; the timer writes it soon)."""
        if self._stopped:
            return
        self.journal.note_edit(text)
        if self.journal.dirty and not self._timer.isActive():
            self._timer.start()

    def tick(self) -> bool:
        """Write the draft if due (called by the timer); True if written."""
        try:
            wrote = self.journal.tick()
        except Exception as exc:  # the journal keeps OSErrors; anything else must not kill Qt
            log.warning("draft tick failed", exc_info=True)
            self._report_error(str(exc))
            return False
        self._after_write(wrote)
        if not self.journal.dirty:
            self._timer.stop()
        return wrote

    def flush(self) -> bool:
        """Write pending text now (closing/quitting); True if written."""
        try:
            wrote = self.journal.flush()
        except Exception as exc:
            log.warning("draft flush failed", exc_info=True)
            self._report_error(str(exc))
            return False
        self._after_write(wrote)
        return wrote

    def rebase(self, base_sha: str | None, doc_path: str | None = None) -> None:
        self.journal.rebase(base_sha, doc_path)
        if self.journal.dirty and not self._stopped:
            self._timer.start()

    def committed(self, text: str, new_sha: str) -> bool:
        """``text`` is on the server at ``new_sha``: remove the draft unless newer edits exist."""
        try:
            removed = self.journal.committed(text, new_sha)
        except OSError as exc:
            self._report_error(str(exc))
            return False
        if removed:
            self.draftRemoved.emit()
        if self.journal.dirty and not self._stopped:
            self._timer.start()
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
        """Stop the timer and stop listening (pending text is NOT written: call flush first)."""
        self._stopped = True
        self._timer.stop()
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
    """Journal one open document's edits to the user data dir within ~2 s; a draft is removed
    only once its text is committed or the user discards it (None without a data dir)."""
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
    )
    return DraftsController(journal, parent=parent)
