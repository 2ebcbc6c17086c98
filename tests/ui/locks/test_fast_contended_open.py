"""A contended open asks at once from the list's cached lock, while one fresh read
checks it; the dialog follows the fresh answer in place, and a take-over never goes out on the
cached view alone."""

from __future__ import annotations

import asyncio
from typing import Any

from modu_desktop.core.edit_session.opening import FRESH_LOCK_READ
from tests.helpers.qt import settle
from tests.helpers.sandbox import AnswerGate, lock_json

DOC = "02-programs"
TREE = "GET /repos/{owner}/{repo}/git/trees/{tree_sha}"


def _fresh_reads_running(ui: Any) -> list[str]:
    """The fresh lock reads of an open still under way (their tasks are named for it)."""
    names = (t.get_name() for t in asyncio.all_tasks(ui.loop))
    return [n for n in names if n.startswith(FRESH_LOCK_READ + ":")]


def _hold(ui: Any, p: Any, doc: str = DOC) -> Any:
    res = ui.run(p.locks.acquire(doc))
    assert res.held is not None
    return res.held


def test_dialog_opens_before_the_fresh_read_answers(
    make_window: Any, peer: Any, sandbox: Any, ui: Any, gate: AnswerGate
) -> None:
    _hold(ui, peer())
    win = make_window()  # the list saw editor2's lock (its bytes are in the blob cache)
    sandbox.reset_stats()
    gate.hold()
    task = ui.start(win.open_document(DOC))
    dlg = ui.dialog("lockDialog")  # while GitHub has answered nothing: from the cached lock
    assert "editor2" in dlg.head_label.text()
    assert sandbox.stats()["by_status"] == {}
    ui.qtbot.waitUntil(lambda: sandbox.stats()["by_route"].get(TREE) == 1, timeout=10000)
    gate.release()
    # the fresh read answers (304: the tree has not changed)
    ui.qtbot.waitUntil(lambda: sandbox.stats()["by_status"] == {"304": 1}, timeout=10000)
    ui.qtbot.waitUntil(lambda: not _fresh_reads_running(ui), timeout=10000)
    settle()  # what the answer set off has run: the same lock leaves the dialog as it is
    assert dlg.isVisible() and "editor2" in dlg.head_label.text()
    ui.click(dlg, "cancelButton")
    assert ui.wait_task(task) is False
    assert sandbox.stats()["by_route"].get(TREE) == 1  # one tree read, no lock blob read
    assert lock_json(sandbox, DOC)["editingBy"] == "editor2"


def test_dialog_shows_the_new_holder_in_place(
    make_window: Any, peer: Any, sandbox: Any, ui: Any, gate: AnswerGate
) -> None:
    p2 = peer()
    held = _hold(ui, p2)
    win = make_window()
    # After the list: editor2 leaves and editor1 opens it in another window.
    assert ui.run(p2.locks.release(held)).outcome.value == "released"
    other_me = peer("editor1", "tok-editor1", session_id="my-other-window")
    _hold(ui, other_me)
    gate.hold()
    task = ui.start(win.open_document(DOC))
    dlg = ui.dialog("lockDialog")
    assert "editor2" in dlg.head_label.text()  # what the list saw
    gate.release()
    ui.qtbot.waitUntil(lambda: "editor1" in dlg.head_label.text(), timeout=5000)
    assert dlg.isVisible()  # the same dialog, updated
    assert "another window" in dlg.head_label.text()
    ui.click(dlg, "cancelButton")
    assert ui.wait_task(task) is False


def test_a_take_over_waits_for_the_fresh_read_and_asks_again(
    make_window: Any, peer: Any, sandbox: Any, ui: Any, gate: AnswerGate
) -> None:
    p2 = peer()
    held = _hold(ui, p2)
    win = make_window()
    assert ui.run(p2.locks.release(held)).outcome.value == "released"
    _hold(ui, peer("editor1", "tok-editor1", session_id="my-other-window"))
    gate.hold()
    task = ui.start(win.open_document(DOC))
    dlg = ui.dialog("lockDialog")
    assert "editor2" in dlg.head_label.text()
    ui.click(dlg, "stealButton")  # before the fresh read is back
    confirm = ui.dialog("stealConfirmDialog")
    ui.click(confirm, "confirmStealButton")
    gate.release()
    # Not stolen from editor2's stale view: asked again, about who holds it now.
    ui.qtbot.waitUntil(
        lambda: any(
            w.objectName() == "lockDialog" and w.isVisible() and "editor1" in w.head_label.text()
            for w in ui_top_levels()
        ),
        timeout=8000,
    )
    assert lock_json(sandbox, DOC)["sessionId"] == "my-other-window"
    again = ui.dialog("lockDialog")
    ui.click(again, "cancelButton")
    assert ui.wait_task(task, timeout=20000) is False


def test_released_meanwhile_closes_the_question_and_opens(
    make_window: Any, peer: Any, sandbox: Any, ui: Any, gate: AnswerGate
) -> None:
    p2 = peer()
    held = _hold(ui, p2)
    win = make_window()
    assert ui.run(p2.locks.release(held)).outcome.value == "released"  # gone before we open
    gate.hold()
    task = ui.start(win.open_document(DOC))
    dlg = ui.dialog("lockDialog")  # asked from the list's lock ...
    gate.release()
    import shiboken6

    # ... closed (and deleted) once the fresh read says it is free
    ui.qtbot.waitUntil(lambda: not shiboken6.isValid(dlg) or not dlg.isVisible(), timeout=5000)
    assert ui.wait_task(task) is True
    assert lock_json(sandbox, DOC)["editingBy"] == "editor1"
    assert not win.editor_pane.editor.isReadOnly()


def ui_top_levels() -> list[Any]:
    from PySide6.QtWidgets import QApplication

    return list(QApplication.topLevelWidgets())
