"""Enter/Esc in the conflict dialog never overwrite anyone's text, the two versions read as the
cards show them (no Markdown marks), and the two panes of the original text scroll together."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton

from modu_desktop.ui.editing.conflict_dialog import ConflictChoice, ConflictDialog
from tests.helpers.qt import child

MINE = "\n".join(f"line {n}" for n in range(300)) + "\nmine"
THEIRS = "\n".join(f"line {n}" for n in range(300)) + "\ntheirs"
DESTRUCTIVE = {ConflictChoice.KEEP_MINE, ConflictChoice.TAKE_THEIRS}


def _dialog(qtbot: Any, *, compare_only: bool = False) -> ConflictDialog:
    dlg = ConflictDialog("전략", MINE, THEIRS, theirs_by="editor2", compare_only=compare_only)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    dlg.activateWindow()
    return dlg


def test_buttons_have_object_names(qtbot: Any) -> None:
    dlg = _dialog(qtbot)
    for name in ("keepMineButton", "takeTheirsButton", "saveAsNewButton", "cancelButton"):
        child(dlg, QPushButton, name)


@pytest.mark.parametrize("key", [Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape])
def test_enter_and_escape_never_overwrite(qtbot: Any, key: Qt.Key) -> None:
    dlg = _dialog(qtbot)
    target = QApplication.focusWidget() or dlg
    qtbot.keyClick(target, key)
    assert not dlg.isVisible()
    assert dlg.choice not in DESTRUCTIVE
    expected = ConflictChoice.CANCEL if key == Qt.Key.Key_Escape else ConflictChoice.SAVE_AS_NEW
    assert dlg.choice is expected


@pytest.mark.parametrize("key", [Qt.Key.Key_Return, Qt.Key.Key_Escape])
def test_keys_in_the_reading_view_never_overwrite(qtbot: Any, key: Qt.Key) -> None:
    dlg = _dialog(qtbot)
    dlg.reading_view.setFocus()
    qtbot.keyClick(dlg.reading_view, key)
    assert dlg.choice not in DESTRUCTIVE


@pytest.mark.parametrize("name", ["keepMineButton", "takeTheirsButton"])
def test_enter_on_a_focused_overwriting_button_does_not_overwrite(qtbot: Any, name: str) -> None:
    dlg = _dialog(qtbot)
    button = child(dlg, QPushButton, name)
    button.setFocus()
    qtbot.keyClick(button, Qt.Key.Key_Return)
    assert dlg.choice not in DESTRUCTIVE
    assert not button.isDefault() and not button.autoDefault()


def test_overwriting_needs_a_deliberate_click(qtbot: Any) -> None:
    dlg = _dialog(qtbot)
    qtbot.mouseClick(child(dlg, QPushButton, "keepMineButton"), Qt.MouseButton.LeftButton)
    assert dlg.choice is ConflictChoice.KEEP_MINE


def test_the_safe_choice_is_the_default_and_has_the_focus(qtbot: Any) -> None:
    dlg = _dialog(qtbot)
    assert child(dlg, QPushButton, "saveAsNewButton").isDefault()
    assert dlg.focusWidget() is child(dlg, QPushButton, "saveAsNewButton")


def test_enter_in_the_comparison_closes(qtbot: Any) -> None:
    dlg = _dialog(qtbot, compare_only=True)
    qtbot.keyClick(QApplication.focusWidget() or dlg, Qt.Key.Key_Return)
    assert dlg.choice is ConflictChoice.CANCEL and not dlg.isVisible()


@pytest.mark.parametrize("compare_only", [True, False])
def test_the_two_panes_scroll_together(qtbot: Any, compare_only: bool) -> None:
    dlg = _dialog(qtbot, compare_only=compare_only)
    dlg.raw_toggle.setChecked(True)  # the original text, as written
    left, right = dlg.mine_view.verticalScrollBar(), dlg.theirs_view.verticalScrollBar()
    assert left.maximum() > 50
    left.setValue(40)
    assert right.value() == 40
    right.setValue(120)
    assert left.value() == 120


PAGE = (
    "---\ntitle: 행사 안내\nsidebar_position: 2\n---\n\n## 행사 안내\n\n"
    "올해 **행사**는 [부산대](https://pnu.ac.kr)에서 열립니다.\n\n- 일시: 5월 3일\n- 장소: 본관\n\n"
    ":::cards\ntitle: 주요 일정\n\n- title: 개막식\n  description: 오전 10시\n:::\n"
)


def _page_dialog(qtbot: Any, mine: str, theirs: str) -> ConflictDialog:
    dlg = ConflictDialog("행사 안내", mine, theirs, theirs_by="김민지")
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    return dlg


def test_both_versions_read_as_the_cards_show_them(qtbot: Any) -> None:
    mine = PAGE.replace("5월 3일", "5월 10일")
    theirs = PAGE.replace("오전 10시", "오전 11시")
    dlg = _page_dialog(qtbot, mine, theirs)
    assert dlg.views.currentWidget() is dlg.reading_view
    shown = dlg.reading_view.toPlainText()
    for mark in ("##", "**", "](", ":::", "---", "description:", "sidebar_position"):
        assert mark not in shown
    # the changed lines, each side as its author wrote it; the block's field by its label
    assert "5월 10일" in shown and "5월 3일" in shown
    assert "오전 11시" in shown and "오전 10시" in shown
    body = dlg.reading_view.toHtml()
    assert "#fff3c4" in body and "#dceeff" in body  # changed lines coloured on both sides
    headline = child(dlg, QLabel, "conflictHeadline").text()
    assert "김민지" in headline and "행사 안내" in headline


def test_the_original_text_is_one_tick_away(qtbot: Any) -> None:
    mine, theirs = PAGE + "\n끝.\n", PAGE
    dlg = _page_dialog(qtbot, mine, theirs)
    dlg.activateWindow()
    qtbot.waitUntil(dlg.isActiveWindow)
    target = QApplication.focusWidget() or dlg
    qtbot.keyClick(target, Qt.Key.Key_O, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(dlg.raw_toggle.isChecked)  # a mnemonic clicks after a short animation
    assert dlg.views.currentIndex() == 1 and dlg.mine_view.isVisible()
    assert dlg.mine_view.toPlainText() == mine and dlg.theirs_view.toPlainText() == theirs


def test_a_difference_only_in_spelling_is_told_so(qtbot: Any) -> None:
    theirs = PAGE.replace("- 일시", "* 일시").replace("- 장소", "* 장소")
    dlg = _page_dialog(qtbot, PAGE, theirs)
    assert dlg.rows == []
    assert dlg.summary.text() != ConflictDialog("x", "a", "a").summary.text()


def test_making_a_word_bold_is_a_difference(qtbot: Any) -> None:
    dlg = _page_dialog(qtbot, PAGE, PAGE.replace("**행사**", "행사"))
    changes = [row.kind for row, _, _ in dlg.rows if row.kind not in ("same", "skipped")]
    assert changes == ["changed"]
