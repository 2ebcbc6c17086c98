"""Saving: commit with the base sha, deploy status, conflicts and their three outcomes,
verify-before-save, and the unsaved-changes question on close."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QTextCursor

DOC = "03-strategy"


def _open_and_type(ui: Any, win: Any, text: str) -> str:
    assert ui.run(win.open_document(DOC))
    ed = win.editor_pane.editor
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText(text)
    assert win.editor_pane.is_modified()
    assert win.isWindowModified()
    return win.editor_pane.text()


def _peer_edits(ui: Any, peer: Any, suffix: str) -> str:
    loaded = ui.run(peer.store.load(DOC))
    theirs = loaded.text + suffix
    res = ui.run(peer.store.save(DOC, theirs, loaded.sha, peer.login))
    assert getattr(res, "commit_sha", None)
    return theirs


def test_save_commits_and_shows_deploy(make_window: Any, sandbox: Any, ui: Any, qtbot: Any) -> None:
    win = make_window()
    mine = _open_and_type(ui, win, "\n\n새 문단입니다.\n")
    assert ui.run(win.save())
    assert sandbox.read_file(f"docs/{DOC}.md").decode("utf-8") == mine
    assert not win.editor_pane.is_modified() and not win.isWindowModified()
    assert sandbox.commits()[0]["message"] == f"docs(edit): update {DOC}.md by @editor1"
    qtbot.waitUntil(lambda: "Published" in win.status_deploy.text(), timeout=20000)
    # a second save builds on the new sha (no conflict)
    win.editor_pane.editor.insertPlainText("두 번째.\n")
    assert ui.run(win.save())
    assert sandbox.read_file(f"docs/{DOC}.md").decode("utf-8") == win.editor_pane.text()


def test_conflict_keep_mine(make_window: Any, peer: Any, sandbox: Any, ui: Any) -> None:
    win = make_window()
    mine = _open_and_type(ui, win, "\nMINE\n")
    theirs = _peer_edits(ui, peer(), "\nTHEIRS\n")
    task = ui.start(win.save())
    dlg = ui.dialog("conflictDialog")
    assert dlg.mine_view.toPlainText() == mine
    assert dlg.theirs_view.toPlainText() == theirs
    ui.click(dlg, "keepMineButton")
    assert ui.wait_task(task) is True
    assert sandbox.read_file(f"docs/{DOC}.md").decode("utf-8") == mine
    assert not win.editor_pane.is_modified()


def test_conflict_take_theirs(make_window: Any, peer: Any, sandbox: Any, ui: Any) -> None:
    win = make_window()
    _open_and_type(ui, win, "\nMINE\n")
    theirs = _peer_edits(ui, peer(), "\nTHEIRS\n")
    task = ui.start(win.save())
    dlg = ui.dialog("conflictDialog")
    ui.click(dlg, "takeTheirsButton")
    assert ui.wait_task(task) is True
    assert win.editor_pane.text() == theirs
    assert sandbox.read_file(f"docs/{DOC}.md").decode("utf-8") == theirs
    # the next save is based on their sha: no conflict
    win.editor_pane.editor.insertPlainText("x")
    assert ui.run(win.save())


def test_conflict_save_mine_as_new(make_window: Any, peer: Any, sandbox: Any, ui: Any) -> None:
    win = make_window()
    mine = _open_and_type(ui, win, "\nMINE\n")
    theirs = _peer_edits(ui, peer(), "\nTHEIRS\n")
    task = ui.start(win.save())
    dlg = ui.dialog("conflictDialog")
    ui.click(dlg, "saveAsNewButton")
    nd = ui.dialog("newDocDialog")
    # a different title and the next free place after the original (3; 4 and 5 are taken)
    assert nd.title_edit.text() == "비전과 추진 전략 (copy)" and nd.position.value() == 6
    assert nd.id_edit.text() == "strategy-copy"
    nd.id_edit.setText("strategy-mine")
    ui.click(nd, "newDocOkButton")
    assert ui.wait_task(task) is True
    created = sandbox.read_file("docs/06-strategy-mine.md").decode("utf-8")
    assert "MINE" in created and "id: strategy-mine\n" in created
    assert "title: 비전과 추진 전략 (copy)\n" in created and "sidebar_position: 6\n" in created
    assert "draft: true\n" in created  # not published until someone says so
    assert sandbox.read_file(f"docs/{DOC}.md").decode("utf-8") == theirs
    assert win.editor_pane.text() == theirs
    assert sandbox.commits(path="docs/06-strategy-mine.md")[0]["message"].startswith(
        "feat(docs): create 06-strategy-mine.md by @editor1"
    )
    del mine


def test_save_refused_when_lock_was_stolen(
    make_window: Any, peer: Any, sandbox: Any, ui: Any
) -> None:
    win = make_window()
    typed = _open_and_type(ui, win, "\n훔쳐가기 전\n")
    p = peer()
    view = ui.run(p.locks.inspect(DOC))
    assert ui.run(p.locks.steal(view)).held is not None
    before = sandbox.read_file(f"docs/{DOC}.md")
    assert ui.run(win.save()) is False
    assert sandbox.read_file(f"docs/{DOC}.md") == before
    assert win.lock_banner.isVisible() and "editor2" in win.lock_banner.label.text()
    assert win.editor_pane.editor.isReadOnly()
    assert win.editor_pane.text() == typed


def test_close_asks_about_unsaved_changes_then_releases(
    make_window: Any, sandbox: Any, ui: Any
) -> None:
    win = make_window()
    _open_and_type(ui, win, "\nunsaved\n")
    task = ui.start(win.close_document())
    box = ui.dialog("unsavedDialog")
    ui.click(box, "cancelButton")
    assert ui.wait_task(task) is False
    assert win.doc is not None
    assert sandbox.read_file(f".locks/{DOC}.lock.json") is not None

    task = ui.start(win.close_document())
    box = ui.dialog("unsavedDialog")
    ui.click(box, "discardButton")
    assert ui.wait_task(task) is True
    assert win.doc is None
    assert sandbox.read_file(f".locks/{DOC}.lock.json") is None
    assert sandbox.commits()[0]["message"] == f"system: release lock for {DOC} [skip ci]"


def test_close_with_save_choice(make_window: Any, sandbox: Any, ui: Any) -> None:
    win = make_window()
    mine = _open_and_type(ui, win, "\nsave on close\n")
    task = ui.start(win.close_document())
    box = ui.dialog("unsavedDialog")
    ui.click(box, "saveButton")
    assert ui.wait_task(task) is True
    assert sandbox.read_file(f"docs/{DOC}.md").decode("utf-8") == mine
    assert sandbox.read_file(f".locks/{DOC}.lock.json") is None


def test_quit_releases_every_lock(make_window: Any, sandbox: Any, ui: Any) -> None:
    win = make_window()
    _open_and_type(ui, win, "\nquitting\n")
    finished: list[bool] = []
    win.finished.connect(lambda: finished.append(True))
    win.request_quit(False)  # SIGTERM / logout path: no questions
    ui.qtbot.waitUntil(lambda: bool(finished), timeout=10000)
    assert sandbox.read_file(f".locks/{DOC}.lock.json") is None


def test_edits_are_journaled_and_draft_removed_after_save(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    from modu_desktop.core.saving.drafts import DraftStore

    win = make_window()
    mine = _open_and_type(ui, win, "\n초안 보관\n")
    win.note_edit()  # insertPlainText in tests does not go through the keyboard path
    store = DraftStore(win.ctx.paths.drafts_dir)
    qtbot.waitUntil(lambda: any(d.text == mine for d in store.list()), timeout=5000)
    assert ui.run(win.save())
    assert store.list() == []


def test_quit_without_questions_keeps_the_draft(make_window: Any, sandbox: Any, ui: Any) -> None:
    from modu_desktop.core.saving.drafts import DraftStore

    win = make_window()
    mine = _open_and_type(ui, win, "\nSIGTERM 전에 쓴 글\n")
    assert ui.run(win.shutdown(interactive=False))
    drafts = DraftStore(win.ctx.paths.drafts_dir).list()
    assert [d.text for d in drafts] == [mine]
    assert drafts[0].key.doc_id == DOC
    assert sandbox.read_file(f".locks/{DOC}.lock.json") is None


def test_crashed_session_lock_and_draft_come_back(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    """A window dies while editing (no release, no close): the next start in the same data dir
    resumes its lock under the new session and puts the unsaved text back."""
    from modu_desktop.core.saving.drafts import DraftStore

    dead = make_window(data="shared")
    typed = _open_and_type(ui, dead, "\n죽기 직전에 쓴 글\n")
    store = DraftStore(dead.ctx.paths.drafts_dir)
    qtbot.waitUntil(lambda: any(d.text == typed for d in store.list()), timeout=5000)
    # "crash": the heartbeat and the journal stop, nothing is released
    session = dead.doc
    assert session is not None and session.editable
    session.forget()
    dead.drafts.stop()
    dead.session = None
    # …and its process is gone: same pid here, so mark the recorded process start as another one
    import dataclasses

    from modu_desktop.core.locks.leftover import registry_for

    registry = registry_for(dead.ctx.paths.data_dir)
    records = registry.records(dead.ctx.session_id)
    assert records, "the lock was recorded when acquired"
    for rec in records:
        registry.add(dataclasses.replace(rec, proc_start="a-process-that-ended"))
    assert lock_json_of(sandbox)["editingBy"] == "editor1"

    fresh = make_window(data="shared")
    ui.run(fresh.recover_at_start(), timeout=20000)
    assert fresh.doc is not None and fresh.doc.doc_id == DOC and fresh.doc.editable
    assert fresh.editor_pane.text() == typed
    lock = lock_json_of(sandbox)
    assert lock["editingBy"] == "editor1" and lock.get("sessionId") == fresh.ctx.session_id
    assert ui.run(fresh.save())
    assert sandbox.read_file(f"docs/{DOC}.md").decode("utf-8") == typed


def lock_json_of(sandbox: Any) -> dict[str, Any]:
    import json

    raw = sandbox.read_file(f".locks/{DOC}.lock.json")
    assert raw is not None
    return dict(json.loads(raw))


def test_recovery_dialog_at_start_restores_a_left_draft(
    make_window: Any, sandbox: Any, ui: Any
) -> None:
    import time

    from modu_desktop.core.saving.drafts import Draft, DraftKey, DraftStore

    win = make_window()
    loaded = ui.run(win.ctx.store.load(DOC))
    s = win.ctx.settings
    key = DraftKey(s.api_url, s.repo_full_name, s.branch, DOC)
    text = loaded.text + "\n전원이 꺼지기 전에 쓴 글\n"
    DraftStore(win.ctx.paths.drafts_dir).save(
        Draft(key, text, loaded.sha, loaded.path, time.time(), "ended-session", "제목")
    )
    task = ui.start(win.recover_at_start())
    dlg = ui.dialog("recoveryDialog")
    ui.click(dlg, "recoverRestoreButton")
    ui.wait_task(task, timeout=20000)
    assert win.doc is not None and win.doc.doc_id == DOC and win.doc.editable
    assert win.editor_pane.text() == text  # byte-identical
    assert win.editor_pane.is_modified()
    assert ui.run(win.save())
    assert sandbox.read_file(f"docs/{DOC}.md").decode("utf-8") == text
    assert DraftStore(win.ctx.paths.drafts_dir).list() == []


def test_a_sign_in_that_cannot_see_publishing_says_so_after_a_save(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    """A fine-grained token made without "Actions: read" may save, but GitHub answers 403 to the
    workflow runs: the save is reported as saved, the publishing state as unknown (never as
    failed, never stuck at "waiting"), and the editor's line says why."""
    from modu_desktop.sandbox import SandboxUser

    sandbox.users.append(SandboxUser("editor3", "tok-editor3", push=True, actions_read=False))
    win = make_window("editor3", "tok-editor3", deploy_poll_s=0.05)
    mine = _open_and_type(ui, win, "\n\n권한 없는 게시 확인.\n")
    assert ui.run(win.save())
    assert sandbox.read_file(f"docs/{DOC}.md").decode("utf-8") == mine
    qtbot.waitUntil(lambda: "unknown" in win.status_deploy.text(), timeout=10000)
    line = win.editor_pane.publish.text()
    assert "cannot see the publishing state" in line and "Saved" in line, line
    qtbot.waitUntil(lambda: not win.deploy.following(), timeout=10000)  # polling has stopped
    assert "unknown" in win.status_deploy.text()
    assert "fail" not in win.status_deploy.text().lower()


def test_the_check_before_a_save_runs_off_the_ui_thread_and_typing_goes_on(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any, monkeypatch: Any
) -> None:
    import threading

    from modu_desktop.ui.publish import publish_check_panel

    win = make_window()
    _open_and_type(ui, win, "\n첫 문단.\n")
    # The real check, held at its start until the test lets it go, so the test can look at
    # the window while it runs.
    real, gate, threads = publish_check_panel.check_text, threading.Event(), []

    def held(text: str, **kw: Any) -> Any:
        threads.append(threading.current_thread())
        gate.wait(10)
        return real(text, **kw)

    monkeypatch.setattr(publish_check_panel, "check_text", held)
    task = ui.start(win.save())
    qtbot.waitUntil(lambda: bool(threads), timeout=10000)
    assert threads[0] is not threading.main_thread()
    pane = win.editor_pane
    assert pane.save_state.text() == "Checking before saving…"
    assert not pane.save_button.isEnabled()
    assert ui.run(win.save()) is False  # one save at a time
    # the window answers: the writer types on while the check runs
    pane.editor.moveCursor(QTextCursor.MoveOperation.End)
    pane.editor.insertPlainText("검사 중에 쓴 글.\n")
    gate.set()
    assert ui.wait_task(task) is True
    saved = sandbox.read_file(f"docs/{DOC}.md").decode("utf-8")
    assert saved == pane.text() and saved.endswith("검사 중에 쓴 글.\n")  # checked, then saved
    assert len(threads) == 2  # the text typed meanwhile was checked too
    assert not pane.is_modified() and pane.save_button.isEnabled()


def test_text_typed_during_the_check_is_checked_and_never_replaced_by_a_fix(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any, monkeypatch: Any
) -> None:
    import threading

    from modu_desktop.ui.publish import publish_check_panel

    win = make_window()
    _open_and_type(ui, win, "\n줄바꿈 <br> 입니다.\n")
    real, gate, calls = publish_check_panel.check_text, threading.Event(), []

    def held(text: str, **kw: Any) -> Any:
        calls.append(text)
        gate.wait(10)
        return real(text, **kw)

    monkeypatch.setattr(publish_check_panel, "check_text", held)
    task = ui.start(win.save())
    qtbot.waitUntil(lambda: bool(calls), timeout=10000)
    pane = win.editor_pane
    pane.editor.moveCursor(QTextCursor.MoveOperation.End)
    pane.editor.insertPlainText("나중에 쓴 글 <hr>\n")
    gate.set()
    dlg = ui.dialog("publishCheckDialog")
    assert dlg.original == pane.text()  # the dialog checks what is in the editor now
    assert len(dlg.check_result.build_breakers) == 2
    ui.click(dlg, "fixAllButton")
    ui.click(dlg, "saveFixedButton")
    assert ui.wait_task(task) is True
    text = pane.text()
    assert "줄바꿈 <br /> 입니다." in text and "나중에 쓴 글 <hr />" in text
    assert sandbox.read_file(f"docs/{DOC}.md").decode("utf-8") == text
