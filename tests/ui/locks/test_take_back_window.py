"""Editing again, in the window. kim's page was taken over by lee: the red banner offers 편집 권한
가져오기 and 편집 가능해지면 알려 주기; once lee closes, the notice says the page is free and offers
지금 편집하기, which makes the page editable with kim's unsaved text. A page opened read-only
offers 편집 권한 가져오기 too: the question asked at opening, then editing."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QTextCursor

from modu_desktop.i18n import set_language
from tests.helpers.sandbox import lock_json

DOC = "02-programs"


def _type(win: Any, text: str) -> None:
    ed = win.editor_pane.editor
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText(text)


def test_edit_now_after_the_other_closed_brings_the_unsaved_text_back(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    set_language("ko")
    kim = make_window("editor1", "tok-editor1", lang="ko", heartbeat_s=0.3, free_look_s=0.1)
    lee = make_window("editor2", "tok-editor2", lang="ko", heartbeat_s=0.3)
    assert ui.run(kim.open_document(DOC))
    _type(kim, "\n김이 쓰다 만 문장")
    mine = kim.editor_pane.text()
    task = ui.start(lee.open_document(DOC))
    ui.click(ui.dialog("lockDialog"), "stealButton")
    ui.click(ui.dialog("stealConfirmDialog"), "confirmStealButton")
    assert ui.wait_task(task)
    qtbot.waitUntil(kim.lock_banner.isVisible, timeout=10_000)
    assert kim.editor_pane.editor.isReadOnly()
    banner = kim.lock_banner
    assert banner.buttons["takeEditingButton"].text() == "편집 권한 가져오기"
    ui.click(banner, "lostNotifyFreeButton")
    assert ui.run(lee.close_document(interactive=False))
    notice = kim.notice
    qtbot.waitUntil(lambda: "편집할 수 있습니다" in notice.label.text(), timeout=10_000)
    edit_now = notice.buttons["editNowButton"]
    qtbot.waitUntil(edit_now.isVisible, timeout=5_000)
    assert edit_now.text() == "지금 편집하기"
    ui.click(notice, "editNowButton")
    qtbot.waitUntil(lambda: kim.doc is not None and kim.doc.editable, timeout=10_000)
    assert not kim.editor_pane.editor.isReadOnly()
    assert kim.editor_pane.text() == mine and kim.editor_pane.is_modified()
    assert kim.lock_banner.isHidden() and kim.readonly_banner.isHidden()
    assert kim.act_save.isEnabled()
    assert lock_json(sandbox, DOC)["editingBy"] == "editor1"
    _type(kim, "을 마저 씁니다.")
    assert ui.run(kim.save()) is True
    assert "김이 쓰다 만 문장을 마저 씁니다." in sandbox.read_file(f"docs/{DOC}.md").decode()


def test_a_read_only_page_offers_to_take_editing_with_the_question_asked_at_opening(
    make_window: Any, peer: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    set_language("ko")
    p = peer()
    assert ui.run(p.locks.acquire(DOC)).held is not None
    kim = make_window("editor1", "tok-editor1", lang="ko")
    task = ui.start(kim.open_document(DOC))
    ui.click(ui.dialog("lockDialog"), "readOnlyButton")
    assert ui.wait_task(task)
    banner = kim.readonly_banner
    assert banner.isVisible() and kim.editor_pane.editor.isReadOnly()
    ui.click(banner, "takeEditingButton")
    dialog = ui.dialog("lockDialog")  # the same question as at opening
    assert "editor2" in dialog.head_label.text()
    ui.click(dialog, "stealButton")
    ui.click(ui.dialog("stealConfirmDialog"), "confirmStealButton")
    qtbot.waitUntil(lambda: kim.doc is not None and kim.doc.editable, timeout=10_000)
    assert not kim.editor_pane.editor.isReadOnly() and banner.isHidden()
    assert lock_json(sandbox, DOC)["editingBy"] == "editor1"
    _type(kim, "\n이제 내가 고칩니다.")
    assert ui.run(kim.save()) is True
