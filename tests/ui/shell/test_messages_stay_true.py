"""Messages stay true: the publishing line speaks of the last save once the text moves on, and
says nothing for a document that cannot be saved here; "just now" does not stay for ten
minutes; a notice about a document goes when the document does; one event, one banner; the
status bar and the line under the editor say the same."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtGui import QTextCursor

from modu_desktop.core.publish.status import EditPhase, PublishPhase
from tests.helpers.sandbox import lock_json

DOC = "02-programs"


def _type(win: Any, text: str) -> None:
    ed = win.editor_pane.editor
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText(text)


def _published(win: Any, sandbox: Any, ui: Any, qtbot: Any) -> None:
    sandbox.workflow.queue_seconds, sandbox.workflow.run_seconds = 0.0, 0.05
    assert ui.run(win.open_document(DOC))
    _type(win, "\n게시된 문장.\n")
    assert ui.run(win.save())
    qtbot.waitUntil(
        lambda: win.editor_pane.publish.publishing is PublishPhase.PUBLISHED, timeout=20000
    )
    assert win.editor_pane.publish.text().startswith("✔ Saved → ✔ Published")


def test_typing_after_a_publish_turns_the_line_to_the_last_save(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window(deploy_poll_s=0.05)
    _published(win, sandbox, ui, qtbot)
    _type(win, "아직 저장하지 않은 문장")
    line = win.editor_pane.publish.text()
    assert line.startswith("Last save ") and "✔ Published" in line and "→" not in line
    assert "(just now)" in line
    assert win.editor_pane.save_state.text() == "● Not saved yet"
    assert win.board.status(DOC).phase is EditPhase.UNSAVED


def test_a_document_that_can_no_longer_be_saved_here_shows_no_publishing_line(
    make_window: Any, peer: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window(deploy_poll_s=0.05, heartbeat_s=0.5)
    _published(win, sandbox, ui, qtbot)
    p = peer()
    assert ui.run(p.locks.steal(ui.run(p.locks.inspect(DOC)))).held is not None
    qtbot.waitUntil(win.lock_banner.isVisible, timeout=10000)
    assert not win.editor_pane.publish.isVisible()
    assert win.editor_pane.save_state.text() == "Read-only"
    assert "Published" in win.status_deploy.text()  # what happened to the save stays true


def test_a_save_waiting_for_the_connection_says_so_and_not_saved(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any, tmp_path: Path
) -> None:
    from modu_desktop.core.github.client import RetryPolicy
    from modu_desktop.core.saving.queue import Backoff

    win = make_window(deploy_poll_s=0.05)
    win.ctx.client.retry = RetryPolicy(
        max_attempts=2, base_delay=0.02, max_delay=0.05, max_total=0.3
    )
    nl = win.nothing_lost
    nl.queue.spool.backoff = Backoff(base_s=0.2, cap_s=0.5, jitter=0.0)
    ui.run(win.recover_at_start())
    _published(win, sandbox, ui, qtbot)
    _type(win, "연결이 끊긴 동안 쓴 문장.\n")
    sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    assert ui.run(win.save()) is False
    assert win.editor_pane.save_state.text() == "● Waiting to save"
    assert win.board.status(DOC).phase is EditPhase.QUEUED
    assert win.editor_pane.publish.text().startswith("Last save ")  # not "✔ Saved →"
    sandbox.faults.update(failure_rate=0.0)
    nl.queue.retry_now()
    qtbot.waitUntil(lambda: win.editor_pane.save_state.text() == "✔ Saved", timeout=15000)
    # the save that waited is followed like any other
    qtbot.waitUntil(
        lambda: win.editor_pane.publish.text().startswith("✔ Saved → ✔ Published"), timeout=20000
    )
    ui.run(nl.aclose())


def test_just_now_moves_on_in_the_lost_lock_banner_and_the_lock_question(
    make_window: Any, peer: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window(heartbeat_s=0.5)
    assert win._clock.isActive() and win._clock.interval() <= 60_000
    assert ui.run(win.open_document(DOC))
    p = peer()
    assert ui.run(p.locks.steal(ui.run(p.locks.inspect(DOC)))).held is not None
    qtbot.waitUntil(win.lock_banner.isVisible, timeout=10000)
    assert "(just now)" in win.lock_banner.label.text()
    real = win.ctx.server_now
    win.ctx.server_now = lambda: real() + 600  # ten minutes later
    win.refresh_times()  # what the window's clock does every half minute
    text = win.lock_banner.label.text()
    assert "(10 min ago)" in text and "(just now)" not in text


def test_the_lock_question_tells_its_times_again(qtbot: Any) -> None:
    from modu_desktop.core.edit_session import LockHolder
    from modu_desktop.ui.locks.lock_dialog import LockDialog

    now = 1_800_000_000.0
    steady = [100.0]
    holder = LockHolder("02-programs", "editor2", now - 60, now - 5, now)
    dlg = LockDialog(holder, monotonic=lambda: steady[0])
    qtbot.addWidget(dlg)
    assert "(just now)" in dlg.details_label.text()
    steady[0] += 300  # five minutes on the dialog's clock
    dlg.refresh_times()
    assert "(5 min ago)" in dlg.details_label.text()


def test_a_notice_about_a_document_goes_with_it(
    make_window: Any, peer: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    p = peer(stale_s=2)
    assert ui.run(p.locks.acquire(DOC)).held is not None
    sandbox.faults.clock_offset_seconds = 3  # GitHub's clock moves past the stale limit
    win = make_window(stale_s=2)
    assert ui.run(win.open_document(DOC))  # a stale lock: taken over, with a notice
    assert lock_json(sandbox, DOC)["editingBy"] == "editor1"
    assert win.notice.isVisible() and "editor2" in win.notice.label.text()
    assert ui.run(win.close_document())
    assert not win.notice.isVisible()


def test_a_save_refused_for_a_lost_lock_is_said_in_one_banner(
    make_window: Any, peer: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window(heartbeat_s=600)  # the save finds out, not the heartbeat
    assert ui.run(win.open_document(DOC))
    _type(win, "\n저장하려던 글\n")
    p = peer()
    assert ui.run(p.locks.steal(ui.run(p.locks.inspect(DOC)))).held is not None
    assert ui.run(win.save()) is False
    assert win.lock_banner.isVisible()
    said = win.lock_banner.label.text()
    assert said.startswith("Not saved.") and "editor2 took over editing" in said
    assert not win.notice.isVisible()  # not a second banner saying the same


@dataclass
class Run:
    status: str
    conclusion: str | None = None
    head_sha: str = "abc"
    id: int = 7


def test_the_status_bar_and_the_line_under_the_editor_say_the_same(
    make_window: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window(deploy_poll_s=0.05)
    assert ui.run(win.open_document(DOC))
    answers = [[Run("queued")], [Run("queued")], [Run("in_progress")], [Run("in_progress")]]
    pairs: list[tuple[str, str]] = []

    async def runs(sha: str) -> list[Run]:
        pairs.append((win.status_deploy.text(), win.editor_pane.publish.text()))
        return answers.pop(0) if answers else [Run("completed", "success")]

    win.ctx.client.workflow_runs = runs
    win.deploy.watch(DOC, "abc")
    qtbot.waitUntil(lambda: "Published" in win.status_deploy.text(), timeout=5000)
    pairs.append((win.status_deploy.text(), win.editor_pane.publish.text()))
    said = {bar for bar, _ in pairs}
    assert {"Waiting to publish", "Publishing…", "✔ Published"} <= said
    for bar, line in pairs:
        assert line.endswith(bar), (bar, line)  # the line's last step is the status bar's word


def test_ctrl_s_on_a_taken_document_names_it_once(
    make_window: Any, peer: Any, ui: Any, qtbot: Any
) -> None:
    """ "이 문서는 여기서 저장할 수 없습니다. … 이 문서는 지금 읽기 전용입니다." said it twice."""
    from modu_desktop import i18n

    i18n.set_language("ko")
    try:
        win = make_window(heartbeat_s=600, lang="ko")
        assert ui.run(win.open_document(DOC))
        p = peer()
        assert ui.run(p.locks.steal(ui.run(p.locks.inspect(DOC)))).held is not None
        assert ui.run(win.save()) is False
        qtbot.waitUntil(win.lock_banner.isVisible, timeout=10000)
        win.explain_cannot_save()
        said = win.lock_banner.label.text()
        assert said.startswith("여기서는 저장할 수 없습니다.")
        assert said.count("이 문서") <= 1
        assert "저장하지 못했습니다" not in said  # one prefix, not two saying the same
    finally:
        i18n.set_language("en")
