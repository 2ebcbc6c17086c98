"""Issue 13, defect 1: "take over" after the holder heartbeated while the dialog was open
succeeds; a third person who took the lock meanwhile is named, and nothing is overwritten."""

from __future__ import annotations

from typing import Any

from tests.helpers.sandbox import lock_json, writes

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
    carol = peer("viewer-not", "tok-editor2", session_id="carol-session")
    carol.locks.login = "carol"  # a third person (same token is fine for the sandbox)
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
