"""The save queue against the sandbox: offline saves wait on disk and land exactly once; a
conflict goes to the conflict screen with the text intact; the status widget and "retry now"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from modu_desktop.core import atomic
from modu_desktop.core.documents.store import update_message
from modu_desktop.core.github import errors
from modu_desktop.core.github.client import GitHubClient, RepoRef, RetryPolicy
from modu_desktop.core.saving.conflicts import ConflictDecision
from modu_desktop.core.saving.queue import (
    Backoff,
    Committed,
    Fatal,
    NotAtBase,
    Retryable,
    SaveSpool,
    Uncertain,
)
from modu_desktop.core.saving.runner import QueueRunner
from modu_desktop.core.saving.service import (
    is_queueable_error,
    make_reader,
    make_sender,
    outcome_for_error,
)
from modu_desktop.ui.recovery.save_queue import QueueSignals, SaveQueueStatus, resolve_failed
from tests.helpers.ui_windows import window_with_running_queue

DOC = "03-strategy"
PATH = f"docs/{DOC}.md"


@pytest.fixture(autouse=True)
def _fast_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(atomic, "DURABLE", False)


@pytest.fixture
def client(sandbox: Any, ui: Any) -> Iterator[GitHubClient]:
    c = GitHubClient(
        sandbox.api_url,
        "tok-editor1",
        RepoRef("pnuai", "PNU-Modu", "main"),
        timeout=3.0,
        retry=RetryPolicy(max_attempts=2, base_delay=0.02, max_delay=0.05, max_total=0.5),
    )
    yield c
    ui.run(c.aclose())


@pytest.fixture
def queue(tmp_path: Path, client: GitHubClient, ui: Any) -> Iterator[QueueRunner]:
    backoff = Backoff(base_s=0.1, cap_s=0.3, jitter=0.0)
    spool = SaveSpool(tmp_path / "spool", make_sender(client), make_reader(client), backoff=backoff)
    q = QueueRunner(spool)
    yield q
    ui.run(q.stop())


@pytest.fixture
def signals(queue: QueueRunner, qtbot: Any) -> QueueSignals:
    return QueueSignals(queue)


def _enqueue(q: QueueRunner, sandbox: Any, text: str, base: str | None) -> Any:
    item = q.spool.enqueue(
        api_host=sandbox.api_url,
        repo="pnuai/PNU-Modu",
        branch="main",
        path=PATH,
        doc_id=DOC,
        text=text,
        base_sha=base,
        message=update_message(PATH, "editor1"),
        login="editor1",
    )
    q.poke()
    return item


def _content_commits(sandbox: Any) -> list[dict[str, Any]]:
    return [c for c in sandbox.commits(PATH) if c["message"].startswith("docs(edit)")]


def _base(sandbox: Any) -> tuple[str, str]:
    data = sandbox.read_file(PATH)
    return data.decode("utf-8"), atomic.git_blob_sha(data)


def test_offline_save_waits_then_lands_once(
    queue: QueueRunner, signals: QueueSignals, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    status = SaveQueueStatus()
    qtbot.addWidget(status)
    status.bind(signals)
    status.show()
    text, base = _base(sandbox)
    mine = text + "\n오프라인에서 쓴 문단.\n"
    sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    _enqueue(queue, sandbox, mine, base)
    report = ui.run(queue.run_once())
    assert report.rescheduled and not report.committed
    assert status.isVisible() and status.label.text() == "waiting to save (1)"
    assert status.retry_button.isVisible()
    assert _content_commits(sandbox) == []
    # the network comes back; "retry now"
    sandbox.faults.update(failure_rate=0.0)
    committed: list[Any] = []
    signals.itemCommitted.connect(committed.append)
    queue.start()
    qtbot.mouseClick(status.retry_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: queue.pending_count() == 0, timeout=10000)
    qtbot.waitUntil(lambda: bool(committed), timeout=5000)
    assert sandbox.read_file(PATH).decode("utf-8") == mine
    assert len(_content_commits(sandbox)) == 1
    assert not status.isVisible()


def test_lost_response_is_not_committed_twice(
    queue: QueueRunner, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    text, base = _base(sandbox)
    mine = text + "\nwritten, but the answer was lost\n"
    # The write is applied, then the connection drops; every read fails as well.
    sandbox.faults.update(failure_rate=1.0, failure_kinds=("lost_response",))
    _enqueue(queue, sandbox, mine, base)
    ui.run(queue.run_once())
    assert queue.pending_count() == 1
    assert len(_content_commits(sandbox)) == 1  # it did land
    sandbox.faults.update(failure_rate=0.0)
    queue.retry_now()
    report = ui.run(queue.run_once())
    assert report.committed and queue.pending_count() == 0
    assert len(_content_commits(sandbox)) == 1  # verified by reading back, not sent again
    assert sandbox.read_file(PATH).decode("utf-8") == mine


def test_conflict_goes_to_conflict_screen_with_text_intact(
    queue: QueueRunner,
    signals: QueueSignals,
    sandbox: Any,
    ui: Any,
    qtbot: Any,
    peer: Any,
    client: GitHubClient,
) -> None:
    from modu_desktop.core.documents.store import DocumentStore

    text, base = _base(sandbox)
    p = peer()
    theirs = text + "\nTHEIRS\n"
    assert getattr(ui.run(p.store.save(DOC, theirs, base, p.login)), "commit_sha", None)
    mine = text + "\nMINE 한글\r\n"
    failed: list[Any] = []
    signals.itemFailed.connect(failed.append)
    _enqueue(queue, sandbox, mine, base)
    ui.run(queue.run_once())
    assert len(failed) == 1 and failed[0].failure == "conflict"
    assert queue.failed_items()[0].text == mine
    store = DocumentStore(client, Path(sandbox.repo_dir).parent / "cache-q")
    task = ui.start(resolve_failed(None, queue, failed[0], store))
    dlg = ui.dialog("conflictDialog")
    assert dlg.mine_view.toPlainText().replace("\r", "") in mine.replace("\r\n", "\n")
    assert dlg.theirs_view.toPlainText() == theirs
    ui.click(dlg, "keepMineButton")
    done = ui.wait_task(task)
    # Keep mine is written at once over the version shown (core/saving/conflicts.py), not queued
    # again to fail later: nothing waits, nothing failed, mine is on the server once.
    assert done.decision is ConflictDecision.KEEP_MINE and done.saved.commit_sha
    assert queue.failed_items() == [] and queue.pending_count() == 0
    assert sandbox.read_file(PATH) == mine.encode("utf-8")
    report = ui.run(queue.run_once())
    assert not report.committed and not report.failed
    assert len(_content_commits(sandbox)) == 2  # theirs, then mine: nothing sent twice


def _failed_conflict(queue: QueueRunner, sandbox: Any, ui: Any, peer: Any, mark: str) -> Any:
    text, base = _base(sandbox)
    p = peer()
    theirs = text + f"\nTHEIRS {mark}\n"
    assert getattr(ui.run(p.store.save(DOC, theirs, base, p.login)), "commit_sha", None)
    mine = text + f"\nMINE {mark}\n"
    _enqueue(queue, sandbox, mine, base)
    ui.run(queue.run_once())
    (item,) = queue.failed_items()
    return item, mine, theirs


@pytest.mark.parametrize("key", [Qt.Key.Key_Escape, Qt.Key.Key_Return])
def test_queued_conflict_dialog_safe_default_and_escape(
    queue: QueueRunner, sandbox: Any, ui: Any, qtbot: Any, peer: Any, client: GitHubClient, key: Any
) -> None:
    """The queue asks through the live save's dialog: save-as-new is the default (Enter), Esc
    cancels, the two overwriting buttons are never the default; neither key writes anything."""
    from PySide6.QtWidgets import QApplication, QPushButton

    from modu_desktop.core.documents.store import DocumentStore

    item, mine, theirs = _failed_conflict(queue, sandbox, ui, peer, key.name)
    store = DocumentStore(client, Path(sandbox.repo_dir).parent / "cache-q")
    asked: list[tuple[str, str]] = []

    async def save_as_new(doc_id: str, text: str) -> str | None:
        asked.append((doc_id, text))
        return None  # the user closed the new-document form: nothing made

    commits = len(sandbox.commits(PATH))
    task = ui.start(resolve_failed(None, queue, item, store, save_as_new=save_as_new, title="전략"))
    dlg = ui.dialog("conflictDialog")
    assert dlg.findChild(QPushButton, "saveAsNewButton").isDefault()
    for name in ("keepMineButton", "takeTheirsButton"):
        button = dlg.findChild(QPushButton, name)
        assert not button.isDefault() and not button.autoDefault()
    assert dlg.theirs_view.toPlainText() == theirs
    dlg.activateWindow()
    qtbot.keyClick(QApplication.focusWidget() or dlg, key)
    done = ui.wait_task(task)
    assert done.decision is ConflictDecision.CANCEL  # Esc, or a new document not made
    assert asked == ([] if key == Qt.Key.Key_Escape else [(DOC, mine)])
    (kept,) = queue.failed_items()  # still in "not saved", its text intact
    assert kept.id == item.id and kept.text == mine
    assert len(sandbox.commits(PATH)) == commits and sandbox.read_file(PATH) == theirs.encode()


def test_queued_conflict_asked_again_when_someone_saves_meanwhile(
    queue: QueueRunner, sandbox: Any, ui: Any, qtbot: Any, peer: Any, client: GitHubClient
) -> None:
    from modu_desktop.core.documents.store import DocumentStore

    item, mine, theirs = _failed_conflict(queue, sandbox, ui, peer, "again")
    store = DocumentStore(client, Path(sandbox.repo_dir).parent / "cache-q")
    task = ui.start(resolve_failed(None, queue, item, store))
    first = ui.dialog("conflictDialog")
    p = peer()
    current = ui.run(p.store.load(DOC))
    again = theirs + "once more\n"
    ui.run(p.store.save(DOC, again, current.sha, p.login))
    ui.click(first, "keepMineButton")
    qtbot.waitUntil(lambda: not first.isVisible())
    second = ui.dialog("conflictDialog")
    assert second is not first and second.theirs_view.toPlainText() == again
    ui.click(second, "cancelButton")
    done = ui.wait_task(task)
    assert done.decision is ConflictDecision.CANCEL and done.rounds == 2
    assert sandbox.read_file(PATH) == again.encode()  # never overwritten without asking
    (kept,) = queue.failed_items()
    assert kept.text == mine


@pytest.mark.expect_log("modu_desktop.core.saving.queue")
def test_damaged_spool_files_never_crash(
    queue: QueueRunner, signals: QueueSignals, sandbox: Any, ui: Any, tmp_path: Path
) -> None:
    problems: list[Any] = []
    signals.problemsFound.connect(problems.append)
    pending = tmp_path / "spool" / "pending"
    (pending / "0000000000001-0000-deadbeef.json").write_bytes(b'{"kind": "modu-spool-item", "ver')
    (pending / "0000000000002-0000-deadbeef.json").write_bytes(b"\x00\x00garbage")
    text, base = _base(sandbox)
    _enqueue(queue, sandbox, text + "\nstill saved\n", base)
    report = ui.run(queue.run_once())
    assert report.committed and problems and len(problems[0]) == 2
    assert len(_content_commits(sandbox)) == 1


def test_error_mapping() -> None:
    assert isinstance(outcome_for_error(errors.GitHubConflict(409, "x")), NotAtBase)
    assert isinstance(outcome_for_error(errors.ShaMissing(422, "sha wasn't supplied")), NotAtBase)
    assert isinstance(outcome_for_error(errors.NetworkError("refused", sent=False)), Retryable)
    assert isinstance(outcome_for_error(errors.NetworkError("timeout", kind="timeout")), Uncertain)
    assert isinstance(outcome_for_error(errors.WriteUncertain("?")), Uncertain)
    assert isinstance(outcome_for_error(errors.ServerError(502, "bad gateway")), Uncertain)
    limited = outcome_for_error(errors.RateLimited(403, "rate limit", retry_at=None))
    assert isinstance(limited, Retryable)
    for exc in (
        errors.BadCredentials(401, "x"),
        errors.PermissionDenied(403, "x"),
        errors.ValidationFailed(422, "x"),
        errors.NotFound(404, "x"),
    ):
        assert isinstance(outcome_for_error(exc), Fatal)
    assert is_queueable_error(errors.NetworkError("x"))
    assert is_queueable_error(errors.ServerError(500, "x"))
    assert not is_queueable_error(errors.GitHubConflict(409, "x"))
    assert not is_queueable_error(errors.PermissionDenied(403, "x"))
    assert Committed("a") == Committed("a")


def test_status_widget_texts(qtbot: Any) -> None:
    w = SaveQueueStatus()
    qtbot.addWidget(w)
    w.show()
    w.set_counts(0, 0)
    assert not w.isVisible()
    w.set_counts(3, 1)
    assert w.label.text() == "waiting to save (3)" and w.failed_label.text() == "not saved (1)"
    assert w.failed_button.isVisible()
    w.set_counts(0, 1)
    assert not w.retry_button.isVisible() and w.isVisible()


# -- attached to a real window (modu_desktop.ui.recovery.nothing_lost) ------------------------


def test_window_save_offline_is_queued_and_lands_once(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any, tmp_path: Path
) -> None:
    from PySide6.QtGui import QTextCursor

    win, nl = window_with_running_queue(make_window, ui)
    assert ui.run(win.open_document(DOC))
    ed = win.editor_pane.editor
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText("\n네트워크가 끊긴 동안 저장.\n")
    mine = win.editor_pane.text()
    sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    assert ui.run(win.save()) is False  # not on GitHub yet ...
    assert nl.queue.pending_count() == 1  # ... but safe on disk
    assert nl.status.isVisible() and "waiting to save (1)" in nl.status.label.text()
    assert "waiting to save" in win.notice.label.text()
    sandbox.faults.update(failure_rate=0.0)
    nl.queue.retry_now()
    qtbot.waitUntil(lambda: nl.queue.pending_count() == 0, timeout=15000)
    qtbot.waitUntil(lambda: not win.editor_pane.is_modified(), timeout=5000)
    assert sandbox.read_file(PATH).decode("utf-8") == mine
    assert len(_content_commits(sandbox)) == 1
    assert win.doc.base_sha == atomic.git_blob_sha(mine.encode("utf-8"))
    # named by its title, like every other message about a page
    qtbot.waitUntil(lambda: "waiting for the connection" in win.notice.label.text())
    assert "“비전과 추진 전략”" in win.notice.label.text()
    assert DOC not in win.notice.label.text()
    # the next save builds on the queued commit: no conflict
    ed.insertPlainText("online again\n")
    assert ui.run(win.save()) is True
    assert len(_content_commits(sandbox)) == 2
    ui.run(nl.aclose())


def test_window_queued_conflict_keep_mine_lands_in_the_open_editor(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any, tmp_path: Path, peer: Any
) -> None:
    """A save written offline meets someone else's save when it is replayed: "not saved" →
    the live save's conflict screen → keep mine is written at once over their version, and the
    open editor builds on it (clean, new base sha), so its next save does not conflict."""
    from PySide6.QtGui import QTextCursor

    win, nl = window_with_running_queue(make_window, ui)
    assert ui.run(win.open_document(DOC))
    base = win.doc.base_sha
    ed = win.editor_pane.editor
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText("\n비행기 안에서 쓴 문단.\n")
    mine = win.editor_pane.text()
    ui.run(nl.queue.stop())  # hold the queue while someone else saves
    sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    assert ui.run(win.save()) is False and nl.queue.pending_count() == 1
    sandbox.faults.update(failure_rate=0.0)
    p = peer()
    theirs = sandbox.read_file(PATH).decode("utf-8") + "\nTHEIRS\n"
    ui.run(p.store.save(DOC, theirs, base, p.login))
    nl.start_queue()
    nl.queue.retry_now()
    qtbot.waitUntil(lambda: len(nl.queue.failed_items()) == 1, timeout=15000)
    assert nl.status.failed_button.isVisible()
    qtbot.mouseClick(nl.status.failed_button, Qt.MouseButton.LeftButton)
    dlg = ui.dialog("conflictDialog")
    assert (
        dlg.theirs_view.toPlainText() == theirs
        and "editor2" in dlg.findChild(QLabel, "conflictHeadline").text()
    )
    ui.click(dlg, "keepMineButton")
    qtbot.waitUntil(lambda: not nl.queue.failed_items(), timeout=10000)
    qtbot.waitUntil(lambda: "Saved" in win.notice.label.text(), timeout=10000)
    assert sandbox.read_file(PATH).decode("utf-8") == mine
    assert win.doc.base_sha == atomic.git_blob_sha(mine.encode("utf-8"))
    assert not win.editor_pane.is_modified() and nl.queue.pending_count() == 0
    ed.insertPlainText("and on\n")
    assert ui.run(win.save()) is True  # builds on it: no conflict
    ui.run(nl.aclose())


def test_window_single_instance_request_opens_here(
    make_window: Any, ui: Any, qtbot: Any, tmp_path: Path, sandbox: Any
) -> None:
    from modu_desktop.ui.recovery.single_instance import SingleInstance

    win = make_window()
    inst = SingleInstance(tmp_path / "inst")
    assert inst.acquire()
    nl = win.nothing_lost
    nl.serve(inst)
    try:
        inst.handle({"action": "open", "doc_id": "01-welcome"})
        qtbot.waitUntil(
            lambda: win.doc is not None and win.doc.doc_id == "01-welcome", timeout=10000
        )
        inst.handle({"action": "open", "doc_id": "01-welcome"})
        log = tmp_path / "inst" / "instance.log"
        qtbot.waitUntil(lambda: "focused (already open)" in log.read_text("utf-8"), timeout=5000)
        acquires = [c for c in sandbox.commits() if c["message"].startswith("system: acquire")]
        assert len(acquires) == 1
    finally:
        ui.run(nl.aclose())
        inst.close()


def test_read_only_banner_offers_notify_when_free(
    make_window: Any, ui: Any, qtbot: Any, tmp_path: Path, peer: Any
) -> None:
    p = peer()
    held = ui.run(p.locks.acquire("01-welcome")).held
    win = make_window()
    nl = win.nothing_lost
    nl.notifier.interval_s = 0.1
    task = ui.start(win.open_document("01-welcome"))
    dlg = ui.dialog("lockDialog")
    ui.click(dlg, "readOnlyButton")
    ui.wait_task(task)
    assert nl.notify_button.isVisible()
    qtbot.mouseClick(nl.notify_button, Qt.MouseButton.LeftButton)
    assert nl.notifier.is_watching("01-welcome")
    title = "“모두 연습 브로슈어에 오신 것을 환영합니다”"
    assert title in win.notice.label.text()  # "You will be told when … is free": its title
    ui.run(p.locks.release(held))
    qtbot.waitUntil(lambda: "is free now" in win.notice.label.text(), timeout=10000)
    assert title in win.notice.label.text() and "01-welcome" not in win.notice.label.text()
    ui.run(nl.aclose())


def test_save_service_joins_a_waiting_save(
    queue: QueueRunner, sandbox: Any, ui: Any, client: GitHubClient, tmp_path: Path
) -> None:
    from modu_desktop.core.documents.store import DocumentStore
    from modu_desktop.core.saving.service import QueuedSave, SaveService, Target
    from modu_desktop.ui.editing.session_words import queued_text

    store = SaveService(
        DocumentStore(client, tmp_path / "cache-j"),
        Target(sandbox.api_url, "pnuai/PNU-Modu", "main"),
        queue.spool,
        on_queued=lambda _item: queue.poke(),
    )
    text, base = _base(sandbox)
    sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    first = ui.run(store.save(DOC, text + "\none\n", base, "editor1"))
    assert isinstance(first, QueuedSave)
    assert "waiting to save" in queued_text()
    sandbox.faults.update(failure_rate=0.0)
    # online again, but the first save still waits: the second joins it instead of racing it
    assert isinstance(ui.run(store.save(DOC, text + "\none\ntwo\n", base, "editor1")), QueuedSave)
    assert queue.pending_count() == 1
    queue.retry_now()
    report = ui.run(queue.run_once())
    assert report.committed
    assert sandbox.read_file(PATH).decode("utf-8") == text + "\none\ntwo\n"
    assert len(_content_commits(sandbox)) == 1
    # with nothing waiting, saves go straight to GitHub (and other methods are delegated);
    # an editor that has not heard of the queued commit yet still saves on top of it
    res = ui.run(store.save(DOC, text + "three\n", base, "editor1"))
    assert getattr(res, "commit_sha", None)
    assert ui.run(store.store.load(DOC)).text == text + "three\n"


def test_status_widget_in_korean(qtbot: Any) -> None:
    from modu_desktop import i18n

    i18n.set_language("ko")  # the autouse fixture puts English back
    try:
        w = SaveQueueStatus()
        qtbot.addWidget(w)
        w.set_counts(2, 0)
        assert w.label.text() == "저장 대기 중 (2)"
        assert w.retry_button.text() == "지금 다시 시도"
    finally:
        i18n.set_language("en")
