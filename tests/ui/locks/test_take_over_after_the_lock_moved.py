"""Taking over after the holder heartbeated while the dialog was open succeeds; a third person
who took the lock meanwhile is named, and nothing is overwritten."""

from __future__ import annotations

from typing import Any

from tests.helpers.sandbox import AnswerGate, lock_json, writes

DOC = "02-programs"


def _take_over(ui: Any, dlg: Any) -> None:
    ui.click(dlg, "stealButton")
    confirm = ui.dialog("stealConfirmDialog")
    ui.click(confirm, "confirmStealButton")


def test_take_over_after_the_holder_heartbeated_while_the_dialog_was_open(
    make_window: Any, peer: Any, sandbox: Any, ui: Any
) -> None:
    alice = peer("editor2", "tok-editor2")
    held = ui.run(alice.locks.acquire(DOC)).held
    assert held is not None
    bob = make_window()
    task = ui.start(bob.open_document(DOC))
    dlg = ui.dialog("lockDialog")
    assert "editor2" in dlg.head_label.text()
    for _ in range(2):  # Alice's heartbeats while Bob reads the dialog
        assert ui.run(alice.locks.heartbeat(held)).still_held
    _take_over(ui, dlg)
    assert ui.wait_task(task) is True
    assert lock_json(sandbox, DOC)["editingBy"] == "editor1"
    assert bob.doc is not None and bob.doc.editable
    assert not bob.editor_pane.editor.isReadOnly()
    assert "at the same moment" not in bob.notice.label.text()
    assert not (bob.notice.isVisible() and "took" in bob.notice.label.text())


def test_take_over_refused_naming_the_third_person_who_took_it(
    make_window: Any, peer: Any, sandbox: Any, ui: Any
) -> None:
    alice = peer("editor2", "tok-editor2")
    assert ui.run(alice.locks.acquire(DOC)).held is not None
    bob = make_window()
    task = ui.start(bob.open_document(DOC))
    dlg = ui.dialog("lockDialog")
    # a third person (the same token is fine for the sandbox)
    carol = peer("carol", "tok-editor2", session_id="carol-session")
    view = ui.run(carol.locks.inspect(DOC))
    assert ui.run(carol.locks.steal(view)).held is not None
    before = writes(sandbox)
    commits = len(sandbox.commits(f".locks/{DOC}.lock.json"))
    _take_over(ui, dlg)
    again = ui.dialog("lockDialog")  # asked again, now about Carol
    assert "carol" in again.head_label.text()
    assert "carol" in bob.notice.label.text() and bob.notice.isVisible()
    assert "editor2" not in bob.notice.label.text()
    ui.click(again, "cancelButton")
    assert ui.wait_task(task) is False
    assert writes(sandbox) == before + 1  # one conditional PUT, refused (409), not retried
    assert len(sandbox.commits(f".locks/{DOC}.lock.json")) == commits
    assert lock_json(sandbox, DOC)["editingBy"] == "carol"


def _lock_dialog_shown() -> bool:
    from PySide6.QtWidgets import QApplication

    return any(
        w.objectName() == "lockDialog" and w.isVisible() for w in QApplication.topLevelWidgets()
    )


def test_take_over_does_not_ask_again_when_the_holder_heartbeated_after_the_list(
    make_window: Any, peer: Any, sandbox: Any, ui: Any, gate: AnswerGate
) -> None:
    """The question comes from the list's lock while a fresh read checks it; the holder's
    heartbeat landed in between (same holder, same session: only the sha moved). The user
    agreed to replace exactly that editing session, so the take-over goes through."""
    alice = peer("editor2", "tok-editor2")
    held = ui.run(alice.locks.acquire(DOC)).held
    assert held is not None
    bob = make_window()  # the list shows Alice's lock as it was
    assert ui.run(alice.locks.heartbeat(held)).still_held  # a new sha for the same claim
    gate.hold()  # the fresh read is in flight while the user answers
    task = ui.start(bob.open_document(DOC))
    dlg = ui.dialog("lockDialog")
    assert "editor2" in dlg.head_label.text()
    ui.click(dlg, "stealButton")
    ui.click(ui.dialog("stealConfirmDialog"), "confirmStealButton")
    gate.release()
    ui.qtbot.waitUntil(lambda: task.done() or _lock_dialog_shown(), timeout=15000)
    asked_again = not task.done()
    if asked_again:  # end the open cleanly before failing
        ui.click(ui.dialog("lockDialog"), "cancelButton")
        ui.wait_task(task)
    assert not asked_again, "the same holder's heartbeat brought the question back"
    assert task.result() is True
    assert lock_json(sandbox, DOC)["editingBy"] == "editor1"
    assert bob.doc is not None and bob.doc.editable


def test_take_over_asks_again_saying_someone_else_holds_it_now(
    make_window: Any, peer: Any, sandbox: Any, ui: Any, gate: AnswerGate
) -> None:
    """Between the list and the take-over, Alice left and Carol started editing: the question
    comes back, and says that it changed and who holds the lock now."""
    alice = peer("editor2", "tok-editor2")
    held = ui.run(alice.locks.acquire(DOC)).held
    assert held is not None
    bob = make_window()
    assert ui.run(alice.locks.release(held)).outcome.value == "released"
    carol = peer("carol", "tok-editor2", session_id="carol-session")
    assert ui.run(carol.locks.acquire(DOC)).held is not None
    gate.hold()
    task = ui.start(bob.open_document(DOC))
    dlg = ui.dialog("lockDialog")
    assert "editor2" in dlg.head_label.text()  # the list's lock
    ui.click(dlg, "stealButton")  # before the fresh read is back
    ui.click(ui.dialog("stealConfirmDialog"), "confirmStealButton")
    gate.release()

    def carol_asked() -> bool:
        from PySide6.QtWidgets import QApplication

        from modu_desktop.ui.locks.lock_dialog import LockDialog

        return any(
            isinstance(w, LockDialog) and w.isVisible() and "carol" in w.head_label.text()
            for w in QApplication.topLevelWidgets()
        )

    ui.qtbot.waitUntil(carol_asked, timeout=15000)
    again = ui.dialog("lockDialog")
    changed = again.changed_label
    assert changed.isVisible()
    assert "carol" in changed.text() and "editor2" in changed.text()
    ui.click(again, "cancelButton")
    assert ui.wait_task(task, timeout=20000) is False
    assert lock_json(sandbox, DOC)["editingBy"] == "carol"
