"""The publish check and failed deploys in the real window: the check before a save, the
failed-deploy notice with its one-action restore, and 기록 (the document's history) from the
Document menu."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QDockWidget, QLabel, QMenu, QPushButton

from modu_desktop.core.publish.check import check_text

DOC = "03-strategy"
PATH = f"docs/{DOC}.md"


def _append(win: Any, text: str) -> None:
    ed = win.editor_pane.editor
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText(text)


def _content_commits(sandbox: Any) -> list[Any]:
    return sandbox.commits(PATH)


def test_a_br_is_stopped_before_the_save_and_the_one_click_fix_saves_clean_text(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    before = sandbox.read_file(PATH)
    commits = len(_content_commits(sandbox))
    _append(win, "\n\n줄바꿈<br>다음 줄\n")
    task = ui.start(win.save())
    dlg = ui.dialog("publishCheckDialog")  # stopped before anything is written
    assert sandbox.read_file(PATH) == before and len(_content_commits(sandbox)) == commits
    qtbot.mouseClick(dlg.fix_all_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dlg.save_fixed_button, Qt.MouseButton.LeftButton)
    assert ui.wait_task(task) is True
    saved = sandbox.read_file(PATH).decode("utf-8")
    assert "다음 줄" in saved and "<br>" not in saved
    assert not check_text(saved, path=PATH).breaks_build
    assert saved == win.editor_pane.text() and not win.editor_pane.is_modified()


def test_back_to_editing_saves_nothing(make_window: Any, sandbox: Any, ui: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    before = sandbox.read_file(PATH)
    _append(win, "\n\n줄바꿈<br>다음 줄\n")
    task = ui.start(win.save())
    ui.click(ui.dialog("publishCheckDialog"), "backToEditingButton")
    assert ui.wait_task(task) is False
    assert sandbox.read_file(PATH) == before
    assert win.editor_pane.is_modified() and "<br>" in win.editor_pane.text()


def test_a_failed_deploy_shows_the_notice_with_its_log_and_restores_in_one_action(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    sandbox.workflow.queue_seconds, sandbox.workflow.run_seconds = 0.0, 0.05
    win = make_window(deploy_poll_s=0.05)
    assert ui.run(win.open_document(DOC))
    original = win.editor_pane.text()
    _append(win, "\n\n줄바꿈<br>다음 줄\n")
    task = ui.start(win.save())
    dlg = ui.dialog("publishCheckDialog")
    ui.click(dlg, "saveAnywayButton")
    ui.click(dlg, "confirmSaveAnywayButton")  # the explicit second click
    assert ui.wait_task(task) is True
    notice = win.deploy_notice
    qtbot.waitUntil(notice.isVisible, timeout=20000)
    assert "Publishing failed" in win.status_deploy.text()
    assert f'failed for file "/home/runner/work/PNU-Modu/PNU-Modu/{PATH}"' in (
        notice.log.toPlainText()  # the failing step's lines
    )
    assert notice.problems.isVisible() and notice.problems.text()  # the check says why
    assert notice.restore_button.isEnabled()
    qtbot.mouseClick(notice.restore_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(notice.confirm_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: sandbox.read_file(PATH).decode("utf-8") == original, timeout=10000)
    assert sandbox.commits()[0]["message"].startswith(f"docs(edit): restore {DOC}.md to ")
    qtbot.waitUntil(lambda: win.editor_pane.text() == original, timeout=5000)
    assert not win.editor_pane.is_modified()
    # the session builds on the restored version: the next save is no conflict
    qtbot.waitUntil(lambda: "Published" in win.status_deploy.text(), timeout=20000)
    _append(win, "\n되돌린 뒤에 쓴 문장\n")
    assert ui.run(win.save()) is True
    assert "되돌린 뒤에 쓴 문장" in sandbox.read_file(PATH).decode("utf-8")


def test_restore_is_disabled_while_the_editor_has_unsaved_changes(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    sandbox.workflow.queue_seconds, sandbox.workflow.run_seconds = 0.0, 0.05
    win = make_window(deploy_poll_s=0.05)
    assert ui.run(win.open_document(DOC))
    _append(win, "\n\n줄바꿈<br>다음 줄\n")
    task = ui.start(win.save())
    dlg = ui.dialog("publishCheckDialog")
    ui.click(dlg, "saveAnywayButton")
    ui.click(dlg, "confirmSaveAnywayButton")
    assert ui.wait_task(task) is True
    qtbot.waitUntil(win.deploy_notice.isVisible, timeout=20000)
    _append(win, "아직 저장하지 않은 글")
    assert not win.deploy_notice.restore_button.isEnabled()


def test_the_history_action_opens_the_panel_listing_versions(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    _append(win, "\n한 번 더 저장한 문장\n")
    assert ui.run(win.save()) is True
    menu = win.menuBar().findChild(QMenu, "documentMenu")
    assert menu is not None and win.publishing.history_action in menu.actions()
    assert win.publishing.history_action.isEnabled()
    win.publishing.history_action.trigger()
    qtbot.waitUntil(lambda: win.findChild(QDockWidget, "historyDock") is not None, timeout=5000)
    dock = win.findChild(QDockWidget, "historyDock")
    assert dock is not None and dock.isVisible()
    panel = win.publishing.history_panel
    qtbot.waitUntil(lambda: len(panel.versions) >= 2, timeout=10000)
    assert panel.list.count() == len(panel.versions)
    assert len(panel.versions) == len([c for c in _content_commits(sandbox)])


BRACES = "\n\n## 행사 안내\n\n자세한 내용은 {담당자}에게 문의하세요.\n"


def test_fixes_made_in_the_check_reach_the_editor_when_going_back_as_one_undo_step(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    pane = win.editor_pane
    assert not pane.raw_view  # the cards
    before = sandbox.read_file(PATH)
    _append(win, BRACES)
    typed = pane.text()
    task = ui.start(win.save())
    dlg = ui.dialog("publishCheckDialog")
    qtbot.mouseClick(dlg.fix_all_button, Qt.MouseButton.LeftButton)
    assert "{담당자}" not in dlg.text
    ui.click(dlg, "backToEditingButton")
    assert ui.wait_task(task) is False
    assert sandbox.read_file(PATH) == before  # nothing saved
    assert "자세한 내용은 담당자에게 문의하세요." in pane.text() and "{담당자}" not in pane.text()
    assert pane.is_modified()
    pane.page_editor.ensure_current()
    assert not any("{담당자}" in c.source for c in pane.page_editor.cards)
    pane.editor.undo()  # one step brings the text as typed back
    assert pane.text() == typed


def test_a_fix_is_kept_when_the_check_is_closed_with_esc(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    _append(win, BRACES)
    task = ui.start(win.save())
    dlg = ui.dialog("publishCheckDialog")
    qtbot.mouseClick(dlg.findChild(QPushButton, "publishFindingFix"), Qt.MouseButton.LeftButton)
    qtbot.keyClick(dlg, Qt.Key.Key_Escape)
    assert ui.wait_task(task) is False
    assert "{담당자}" not in win.editor_pane.text()


def test_the_check_names_places_as_the_cards_show_them_and_by_line_in_the_original_text(
    make_window: Any, ui: Any, qtbot: Any
) -> None:
    from tests.helpers.lang import speaking

    win = make_window()
    assert ui.run(win.open_document(DOC))
    _append(win, BRACES)

    def place_in_dialog() -> str:
        task = ui.start(win.save())
        dlg = ui.dialog("publishCheckDialog")
        place = dlg.findChild(QLabel, "publishFindingPlace").text()
        ui.click(dlg, "backToEditingButton")
        assert ui.wait_task(task) is False
        return str(place)

    with speaking("ko"):
        in_cards = place_in_dialog()
        win.editor_pane.set_raw_view(True)
        raw = place_in_dialog()
    assert in_cards == (
        "게시를 막음  ·  ‘행사 안내’ 글 상자: “자세한 내용은 {담당자}에게 문의하세요.”"
    )
    assert raw.startswith("게시를 막음  ·  ") and raw.endswith("번째 줄, 9번째 칸")


def test_the_check_saves_the_characters_typed_no_break_spaces_included(
    make_window: Any, sandbox: Any, ui: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    _append(win, "\n\n붙여 쓴\u00a0낱말\n")
    assert ui.run(win.save()) is True
    assert "붙여 쓴\u00a0낱말" in sandbox.read_file(PATH).decode("utf-8")
