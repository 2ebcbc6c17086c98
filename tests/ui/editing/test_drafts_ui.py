"""DraftsController: a QTimer drives the journal, a worker thread writes; typing reaches disk
soon after the last keystroke (half a second in the window), byte-exact."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from modu_desktop.core import atomic
from modu_desktop.core.saving.drafts import DraftJournal, DraftKey, DraftStore
from modu_desktop.ui.editing.drafts_controller import TICK_MS, DraftsController

KEY = DraftKey("http://127.0.0.1:1", "pnuai/PNU-Modu", "main", "03-strategy")


@pytest.fixture(autouse=True)
def _fast_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(atomic, "DURABLE", False)


def _controller(
    tmp_path: Path, qtbot: Any, *, tick_ms: int = TICK_MS, **kw: Any
) -> tuple[DraftsController, QPlainTextEdit]:
    editor = QPlainTextEdit()
    qtbot.addWidget(editor)
    journal = DraftJournal(
        DraftStore(tmp_path / "drafts"),
        KEY,
        base_sha="a" * 40,
        doc_path="docs/03-strategy.md",
        session_id="s1",
        title="전략",
        **kw,
    )
    ctl = DraftsController(journal, tick_ms=tick_ms)
    ctl.attach(editor)
    return ctl, editor


def test_typing_is_on_disk_within_two_seconds(tmp_path: Path, qtbot: Any) -> None:
    """Two seconds on the journal's clock (typing never pauses a whole second here), and the
    controller's next tick writes the draft."""
    now = [0.0]
    ctl, editor = _controller(tmp_path, qtbot, clock=lambda: now[0])
    editor.show()
    for word, pause in (("hello", 0.9), (" ", 0.9), ("draft", 0.0)):
        qtbot.keyClicks(editor, word)  # the controller's timer ticks meanwhile
        now[0] += pause
    assert ctl.store.load(KEY) is None  # 1.8 s, and never idle for a second: not yet
    now[0] += 0.2
    qtbot.waitUntil(lambda: ctl.store.load(KEY) is not None, timeout=10000)
    draft = ctl.store.load(KEY)
    assert draft is not None and draft.text == editor.toPlainText() == "hello draft"
    assert draft.base_sha == "a" * 40 and draft.session_id == "s1" and draft.title == "전략"
    ctl.stop()


def test_keystrokes_are_coalesced_not_written_each(tmp_path: Path, qtbot: Any) -> None:
    ctl, editor = _controller(tmp_path, qtbot, idle_s=0.3, max_latency_s=2.0, tick_ms=50)
    for ch in "abcdefghij":
        editor.insertPlainText(ch)
    # Written once, then idle: no timer runs, so nothing more can be written.
    qtbot.waitUntil(lambda: ctl.journal.writes >= 1 and not ctl._timer.isActive(), timeout=10000)
    assert ctl.journal.writes == 1
    ctl.stop()


def test_exotic_text_round_trips_byte_for_byte(tmp_path: Path, qtbot: Any) -> None:
    ctl, _editor = _controller(tmp_path, qtbot)
    text = "\ufeff---\r\ntitle: 한글 \U0001f600\r\n---\r\n\x00tab\there\u2028end\n"
    ctl.note_edit(text)
    assert ctl.flush()
    draft = DraftStore(tmp_path / "drafts").load(KEY)
    assert draft is not None
    assert draft.text.encode("utf-8", "surrogatepass") == text.encode("utf-8", "surrogatepass")
    ctl.stop()


def test_commit_removes_draft_but_newer_edits_stay(tmp_path: Path, qtbot: Any) -> None:
    ctl, editor = _controller(tmp_path, qtbot, tick_ms=50, idle_s=0.1)
    removed: list[bool] = []
    ctl.draftRemoved.connect(lambda: removed.append(True))
    editor.setPlainText("v1")
    qtbot.waitUntil(lambda: ctl.store.load(KEY) is not None, timeout=10000)
    assert ctl.committed("v1", "b" * 40)
    assert ctl.store.load(KEY) is None and removed == [True]
    editor.setPlainText("v2")
    assert not ctl.committed("v1", "c" * 40)  # v2 typed after: kept, rewritten on new base
    qtbot.waitUntil(lambda: ctl.store.load(KEY) is not None, timeout=10000)
    draft = ctl.store.load(KEY)
    assert draft is not None and draft.text == "v2" and draft.base_sha == "c" * 40
    ctl.stop()


def test_suspend_ignores_programmatic_loads_and_discard(tmp_path: Path, qtbot: Any) -> None:
    ctl, editor = _controller(tmp_path, qtbot)
    with ctl.suspend():
        editor.setPlainText("loaded from server")
    assert not ctl.dirty
    qtbot.keyClick(editor, Qt.Key.Key_X)
    assert ctl.dirty
    assert ctl.flush()
    assert ctl.discard()
    assert ctl.store.load(KEY) is None
    editor.insertPlainText("after stop")
    assert not ctl.dirty  # stopped: no more journaling


@pytest.mark.expect_log("modu_desktop.")
def test_write_errors_are_reported_not_raised(tmp_path: Path, qtbot: Any) -> None:
    blocker = tmp_path / "drafts"
    blocker.write_text("a file where the directory should be")
    ctl, editor = _controller(tmp_path, qtbot, tick_ms=50, idle_s=0.05, max_latency_s=0.1)
    errors: list[str] = []
    ctl.draftError.connect(errors.append)
    editor.setPlainText("cannot be written")
    qtbot.waitUntil(lambda: bool(errors), timeout=10000)
    assert ctl.dirty  # still pending: retried later
    blocker.unlink()
    qtbot.waitUntil(lambda: not ctl.dirty, timeout=10000)
    draft = DraftStore(tmp_path / "drafts").load(KEY)
    assert draft is not None and draft.text == "cannot be written"
    ctl.stop()


def test_the_write_waits_only_a_fifth_of_a_second_after_the_last_key(
    tmp_path: Path, qtbot: Any
) -> None:
    """The window's journal: due :data:`IDLE_S` after the last keystroke, and the timer is set
    for that moment (each keystroke moves it), not for a later look."""
    from modu_desktop.ui.editing.drafts_controller import IDLE_S, MAX_LATENCY_S

    now = [0.0]
    ctl, editor = _controller(
        tmp_path, qtbot, idle_s=IDLE_S, max_latency_s=MAX_LATENCY_S, clock=lambda: now[0]
    )
    qtbot.keyClicks(editor, "a")
    assert ctl.journal.due_in() == pytest.approx(IDLE_S)
    assert 0 < ctl._timer.remainingTime() <= IDLE_S * 1000 + 1
    now[0] += 0.1
    qtbot.keyClicks(editor, "b")  # typing moves the write on
    assert ctl.journal.due_in() == pytest.approx(IDLE_S)
    assert IDLE_S <= 0.5 - 0.2  # room for the write itself within half a second
    ctl.stop()


def test_the_write_runs_off_the_typing_thread_and_typing_goes_on(
    tmp_path: Path, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slow disk holds the write, not the keyboard: keys typed meanwhile go into the next
    draft, and a commit waits for the write in progress before it removes the file."""
    import threading

    ctl, editor = _controller(tmp_path, qtbot, idle_s=0.01, max_latency_s=0.02, tick_ms=20)
    store = ctl.store
    real_save = store.save
    threads: list[str] = []
    gate = threading.Event()

    def slow_save(draft: Any) -> Any:
        threads.append(threading.current_thread().name)
        gate.wait(10)  # the disk is slow
        return real_save(draft)

    monkeypatch.setattr(store, "save", slow_save)
    editor.setPlainText("first")
    qtbot.waitUntil(lambda: bool(threads), timeout=10000)
    assert threads[0] != threading.main_thread().name
    editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor, " more")  # the keyboard is not held by the write
    assert editor.toPlainText() == "first more"
    assert store.load(KEY) is None  # still being written
    gate.set()
    qtbot.waitUntil(
        lambda: (d := store.load(KEY)) is not None and d.text == "first more", timeout=10000
    )
    assert len(threads) == 2  # one write for "first", the next for what followed
    assert ctl.committed("first more", "b" * 40)
    assert store.load(KEY) is None
    ctl.stop()


def test_a_commit_during_a_write_waits_for_it(
    tmp_path: Path, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The text being written when its save lands: the file goes away, and no late write
    brings it back."""
    import threading

    ctl, editor = _controller(tmp_path, qtbot, idle_s=0.01, max_latency_s=0.02, tick_ms=20)
    store = ctl.store
    real_save = store.save
    started = threading.Event()
    gate = threading.Event()

    def slow_save(draft: Any) -> Any:
        started.set()
        gate.wait(10)
        return real_save(draft)

    monkeypatch.setattr(store, "save", slow_save)
    editor.setPlainText("saved text")
    qtbot.waitUntil(started.is_set, timeout=10000)
    threading.Timer(0.05, gate.set).start()  # the disk answers while the commit waits
    assert ctl.committed("saved text", "b" * 40)
    assert store.load(KEY) is None
    assert not ctl.dirty
    ctl.stop()
