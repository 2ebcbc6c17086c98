"""Korean input is safe: the syllable an input method is still composing (its preedit, shown
but not yet in the text) is committed before save, document switch, replace, a form's OK and
close. Each test sends real ``QInputMethodEvent``s, as an input method does."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent, QTextCursor
from PySide6.QtWidgets import QApplication, QWidget

from modu_desktop.core.saving.drafts import DraftStore

DOC = "02-programs"
OTHER = "01-welcome"


def compose(widget: QWidget, syllable: str) -> None:
    """What an input method sends while a syllable is being typed (not committed yet)."""
    QApplication.sendEvent(widget, QInputMethodEvent(syllable, []))


def _type_then_compose(win: Any, typed: str, syllable: str) -> None:
    ed = win.editor_pane.editor
    ed.setFocus()
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText(typed)
    compose(ed, syllable)
    assert typed + syllable not in ed.toPlainText()  # shown, but not in the text yet


def _server_text(sandbox: Any, doc: str) -> str:
    data = sandbox.read_file(f"docs/{doc}.md")
    assert data is not None
    return data.decode("utf-8")


def test_save_keeps_the_syllable_being_composed(make_window: Any, ui: Any, sandbox: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    _type_then_compose(win, "\n저장합니", "다")
    assert ui.run(win.save())
    assert "저장합니다" in _server_text(sandbox, DOC)


def test_page_settings_field_then_save(make_window: Any, ui: Any, sandbox: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    title = win.editor_pane.form.title_edit
    title.setFocus()
    title.setText("교육 일")
    title.textEdited.emit(title.text())
    QApplication.processEvents()
    from modu_desktop.ui.kit.preedit import install_preedit_tracker

    install_preedit_tracker().watch(title)  # the focus is not moved in an offscreen test
    compose(title, "정")
    assert ui.run(win.save())
    assert "title: 교육 일정" in _server_text(sandbox, DOC)


def test_switching_documents_asks_about_the_whole_text(
    make_window: Any, ui: Any, sandbox: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    _type_then_compose(win, "\n바꾸기 전에 썼습니", "다")
    task = ui.start(win.open_document(OTHER))
    box = ui.dialog("unsavedDialog")  # the text changed by the committed syllable alone too
    ui.click(box, "saveButton")
    assert ui.wait_task(task)
    assert "바꾸기 전에 썼습니다" in _server_text(sandbox, DOC)


def test_replace_uses_the_whole_replacement(make_window: Any, ui: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    ed = win.editor_pane.editor
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText("\n사과 사과\n")
    bar = win.editor_pane.find_bar
    bar.open_find(True)
    bar.find_edit.setText("사과")
    bar.replace_edit.setText("과일 바구")
    compose(bar.replace_edit, "니")
    assert bar.replace_all() == 2
    assert "과일 바구니 과일 바구니" in ed.toPlainText()


def test_a_forms_ok_takes_the_last_syllable(
    make_window: Any, ui: Any, sandbox: Any, qtbot: Any
) -> None:
    from modu_desktop.ui.docops.ops_import import NewDocumentDialog

    win = make_window()
    dlg = NewDocumentDialog(win.ops_host.ops, win)
    dlg.show()
    dlg.activateWindow()
    form = dlg.form
    form.title_edit.setText("2026 부트캠")
    form.title_edit.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is form.title_edit, timeout=3000)
    compose(form.title_edit, "프")  # followed by the focus, as any field
    qtbot.mouseClick(dlg.create_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dlg.busy and dlg.result_op is not None, timeout=15000)
    assert dlg.result_op.ok, dlg.result_op.user_message()
    snap = ui.run(win.ctx.store.refresh())
    assert "2026 부트캠프" in [d.title for d in snap.docs]


def test_closing_keeps_the_syllable_in_the_draft(make_window: Any, ui: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    _type_then_compose(win, "\n닫기 전에 썼습니", "다")
    assert ui.run(win.close_document(interactive=False))
    drafts = DraftStore(win.ctx.paths.drafts_dir).list()
    assert any("닫기 전에 썼습니다" in d.text for d in drafts)


def test_quitting_keeps_the_syllable_in_the_draft(make_window: Any, ui: Any, qtbot: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    _type_then_compose(win, "\n끝내기 전에 썼습니", "다")
    done: list[bool] = []
    win.finished.connect(lambda: done.append(True))
    win.request_quit(False)
    qtbot.waitUntil(lambda: bool(done), timeout=15000)
    drafts = DraftStore(win.ctx.paths.drafts_dir).list()
    assert any("끝내기 전에 썼습니다" in d.text for d in drafts)
