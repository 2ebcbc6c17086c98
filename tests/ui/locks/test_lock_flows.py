"""Opening a document with the lock protocol: free, held (three outcomes), same login, stale;
the robbed editor turns read-only at its next heartbeat with its text intact."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from modu_desktop.core.pageedit.readable import readable_text
from tests.helpers.sandbox import lock_json, writes

DOC = "02-programs"


def test_uncontended_open_acquires_and_focuses_editor(
    make_window: Any, sandbox: Any, ui: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    lock = lock_json(sandbox, DOC)
    assert lock is not None and lock["editingBy"] == "editor1"
    assert not win.editor_pane.editor.isReadOnly()
    # the keyboard is in the document: its first card (the default view)
    focus = QApplication.focusWidget()
    assert focus is not None and win.editor_pane.page_editor.isAncestorOf(focus)
    assert "editing" in win.status_lock.text().lower()
    assert win.findChild(type(win.lock_banner), "lockBanner").isHidden()


def _peer_holds(ui: Any, peer: Any, doc: str = DOC) -> Any:
    res = ui.run(peer.locks.acquire(doc))
    assert res.held is not None
    return res.held


def test_locked_dialog_read_only(make_window: Any, peer: Any, sandbox: Any, ui: Any) -> None:
    p = peer()
    _peer_holds(ui, p)
    win = make_window()
    before = writes(sandbox)
    task = ui.start(win.open_document(DOC))
    dlg = ui.dialog("lockDialog")
    assert "editor2" in dlg.head_label.text()
    assert "Last sign of life" in dlg.details_label.text()
    ui.click(dlg, "readOnlyButton")
    assert ui.wait_task(task) is True
    assert win.editor_pane.editor.isReadOnly()
    assert win.readonly_banner.isVisible() and "editor2" in win.readonly_banner.label.text()
    assert writes(sandbox) == before  # opening read-only writes nothing
    assert lock_json(sandbox, DOC)["editingBy"] == "editor2"
    assert not win.act_save.isEnabled()


def test_locked_dialog_cancel(make_window: Any, peer: Any, sandbox: Any, ui: Any) -> None:
    p = peer()
    _peer_holds(ui, p)
    win = make_window()
    task = ui.start(win.open_document(DOC))
    dlg = ui.dialog("lockDialog")
    ui.click(dlg, "cancelButton")
    assert ui.wait_task(task) is False
    assert win.doc is None
    assert lock_json(sandbox, DOC)["editingBy"] == "editor2"


def test_steal_needs_confirmation_and_victim_turns_read_only(
    make_window: Any, peer: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    # The victim is a real window with a 1 s heartbeat; the thief is the second window.
    victim = make_window("editor2", "tok-editor2", heartbeat_s=1)
    assert ui.run(victim.open_document(DOC))
    victim.editor_pane.editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(victim.editor_pane.editor, " typed ")
    victim.editor_pane.editor.insertPlainText("내가 쓰던 문장")  # Hangul arrives via the IME
    typed = victim.editor_pane.text()

    thief = make_window("editor1", "tok-editor1")
    task = ui.start(thief.open_document(DOC))
    dlg = ui.dialog("lockDialog")
    ui.click(dlg, "stealButton")
    confirm = ui.dialog("stealConfirmDialog")
    assert "read-only" in confirm.text()
    assert "editor2" in confirm.text()
    ui.click(confirm, "cancelStealButton")  # no → back to the three choices
    dlg = ui.dialog("lockDialog")
    ui.click(dlg, "stealButton")
    confirm = ui.dialog("stealConfirmDialog")
    ui.click(confirm, "confirmStealButton")
    assert ui.wait_task(task) is True
    assert lock_json(sandbox, DOC)["editingBy"] == "editor1"
    assert not thief.editor_pane.editor.isReadOnly()

    # The victim finds out at its next heartbeat: read-only, banner naming the thief, text kept.
    qtbot.waitUntil(lambda: victim.lock_banner.isVisible(), timeout=10000)
    assert victim.editor_pane.editor.isReadOnly()
    assert "editor1" in victim.lock_banner.label.text()
    assert victim.editor_pane.text() == typed
    assert victim.editor_pane.is_modified()
    assert "lost" in victim.status_lock.text().lower()
    assert not victim.act_save.isEnabled()
    for name in ("copyTextButton", "saveAsNewButton", "compareButton"):
        assert victim.lock_banner.buttons[name].isVisible()
    victim.lock_banner.buttons["copyTextButton"].click()
    # the words as the cards read them to paste anywhere, the Markdown as a second format
    copied = QApplication.clipboard().mimeData()
    assert copied.text() == readable_text(typed) and "---" not in copied.text()
    assert bytes(copied.data("text/markdown").data()).decode("utf-8") == typed
    # Closing the victim never deletes the thief's lock.
    assert ui.run(victim.close_document(interactive=False))
    assert lock_json(sandbox, DOC)["editingBy"] == "editor1"


def test_same_login_other_session_asks(make_window: Any, peer: Any, sandbox: Any, ui: Any) -> None:
    p = peer("editor1", "tok-editor1", session_id="other-window")
    _peer_holds(ui, p)
    win = make_window()
    task = ui.start(win.open_document(DOC))
    dlg = ui.dialog("lockDialog")
    assert dlg.info.same_user
    assert "another window" in dlg.head_label.text()
    ui.click(dlg, "cancelButton")
    assert ui.wait_task(task) is False


def test_stale_lock_taken_over_with_notice(
    make_window: Any, peer: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    p = peer(stale_s=2)
    _peer_holds(ui, p)
    sandbox.faults.clock_offset_seconds = 3  # GitHub's clock moves past the stale limit
    win = make_window(stale_s=2)
    assert ui.run(win.open_document(DOC))
    assert lock_json(sandbox, DOC)["editingBy"] == "editor1"
    assert win.notice.isVisible() and "editor2" in win.notice.label.text()
    assert not win.editor_pane.editor.isReadOnly()


def test_list_shows_lock_badge(make_window: Any, peer: Any, ui: Any) -> None:
    p = peer()
    _peer_holds(ui, p, "03-strategy")
    win = make_window()
    row = win.doc_list.row("03-strategy")
    assert row is not None and row.lock is not None and row.lock.holder == "editor2"
    model = win.doc_list.tree.model()
    item = next(
        model.index(i, 3)
        for i in range(model.rowCount())
        if model.index(i, 0).data(Qt.ItemDataRole.UserRole) == "03-strategy"
    )
    assert "editor2" in item.data(Qt.ItemDataRole.DisplayRole)


def test_heartbeat_failures_show_connection_problem_then_recover(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    from modu_desktop.core.github.client import RetryPolicy

    win = make_window(heartbeat_s=0.5)
    win.ctx.client.retry = RetryPolicy(max_attempts=1, max_total=0.2)
    assert ui.run(win.open_document(DOC))
    sandbox.faults.failure_rate = 1.0
    qtbot.waitUntil(lambda: win.status_conn.property("kind") == "error", timeout=10000)
    assert "GitHub" in win.status_lock.text()  # "cannot reach GitHub to renew … expires in"
    assert not win.editor_pane.editor.isReadOnly()  # still ours: keep typing
    sandbox.faults.failure_rate = 0.0
    qtbot.waitUntil(lambda: win.status_conn.property("kind") == "ok", timeout=10000)
    assert lock_json(sandbox, DOC)["editingBy"] == "editor1"


def test_lost_lock_banner_compare_and_save_as_new(
    make_window: Any, peer: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window(heartbeat_s=0.5)
    assert ui.run(win.open_document(DOC))
    win.editor_pane.editor.moveCursor(QTextCursor.MoveOperation.End)
    win.editor_pane.editor.insertPlainText("\n잃어버리면 안 되는 글\n")
    typed = win.editor_pane.text()
    p = peer()
    assert ui.run(p.locks.steal(ui.run(p.locks.inspect(DOC)))).held is not None
    qtbot.waitUntil(lambda: win.lock_banner.isVisible(), timeout=10000)

    task = ui.start(win.compare_with_current())
    dlg = ui.dialog("compareDialog")
    assert dlg.mine_view.toPlainText() == typed
    assert "잃어버리면" not in dlg.theirs_view.toPlainText()
    assert dlg.keep_mine_button.isHidden() and dlg.take_theirs_button.isHidden()
    ui.click(dlg, "cancelButton")
    ui.wait_task(task)

    task = ui.start(win.save_as_new_document())
    nd = ui.dialog("newDocDialog")
    nd.id_edit.setText("programs-rescued")
    ui.click(nd, "newDocOkButton")
    new_id = f"{nd.position.value():02d}-programs-rescued"
    assert ui.wait_task(task) == new_id
    saved = sandbox.read_file(f"docs/{new_id}.md").decode("utf-8")
    assert "잃어버리면 안 되는 글" in saved
    assert win.editor_pane.text() == typed  # still on screen
    assert ui.run(win.close_document())  # nothing unsaved any more: no question


def test_quit_while_opening_settles_the_open_first(
    make_window: Any, peer: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    p = peer()
    _peer_holds(ui, p)
    win = make_window()
    task = ui.start(win.open_document(DOC))
    ui.dialog("lockDialog")
    finished: list[bool] = []
    win.finished.connect(lambda: finished.append(True))
    win.request_quit(False)  # SIGTERM with the question on screen
    qtbot.waitUntil(lambda: bool(finished), timeout=10000)
    assert task.done() and task.result() is False
    assert ui.no_dialog("lockDialog")
    assert lock_json(sandbox, DOC)["editingBy"] == "editor2"  # theirs, untouched


def test_quit_right_after_an_open_releases(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    ui.start(win.open_document(DOC))  # still in flight when the quit comes
    finished: list[bool] = []
    win.finished.connect(lambda: finished.append(True))
    win.request_quit(False)
    qtbot.waitUntil(lambda: bool(finished), timeout=10000)
    assert lock_json(sandbox, DOC) is None


def test_uncontended_open_locks_and_reads_in_one_round(
    make_window: Any, sandbox: Any, ui: Any
) -> None:
    """The list saw no lock: the lock PUT and the text read go out together — one write and
    no lock inspection before it (open ≈ one round trip)."""
    win = make_window()
    sandbox.reset_stats()
    assert ui.run(win.open_document(DOC))
    by_route = sandbox.stats()["by_route"]
    puts = {r: n for r, n in by_route.items() if r.startswith("PUT ")}
    assert sum(puts.values()) == 1, by_route
    # The lock write plus one tree read for the text (its blob is cached): no inspection first.
    assert sandbox.stats()["total"] == 2, by_route
    assert not any(r.startswith("GET") and "contents" in r for r in by_route), by_route
    assert lock_json(sandbox, DOC)["editingBy"] == "editor1"
    assert "프로그램" in win.editor_pane.text() or win.editor_pane.text().startswith("---")


def test_lock_taken_after_the_list_was_drawn_still_asks(
    make_window: Any, peer: Any, sandbox: Any, ui: Any
) -> None:
    """The list is stale (no badge) but someone locked the document since: the lock write
    without sha cannot replace theirs, and the user gets the locked dialog."""
    win = make_window()
    assert win.doc_list.row(DOC) is not None and win.doc_list.row(DOC).lock is None
    p = peer()
    _peer_holds(ui, p)
    task = ui.start(win.open_document(DOC))
    dlg = ui.dialog("lockDialog")
    assert "editor2" in dlg.head_label.text()
    ui.click(dlg, "cancelButton")
    assert ui.wait_task(task) is False
    assert lock_json(sandbox, DOC)["editingBy"] == "editor2"


def test_take_over_after_the_dialog_reads_the_text_again(
    make_window: Any, peer: Any, sandbox: Any, ui: Any
) -> None:
    """The text read together with a refused lock write is not reused after the dialog: the
    other editor may have saved while the user was deciding."""
    win = make_window()
    p = peer()
    _peer_holds(ui, p)
    task = ui.start(win.open_document(DOC))
    dlg = ui.dialog("lockDialog")
    loaded = ui.run(p.store.load(DOC))
    newer = loaded.text + "\n다른 사람이 대화 상자 동안 저장한 문단\n"
    ui.run(p.store.save(DOC, newer, loaded.sha, "editor2"))
    ui.click(dlg, "stealButton")
    confirm = ui.dialog("stealConfirmDialog")
    ui.click(confirm, "confirmStealButton")
    assert ui.wait_task(task) is True
    assert "대화 상자 동안 저장한 문단" in win.editor_pane.text()
