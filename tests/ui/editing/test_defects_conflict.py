"""Enter/Esc in the conflict dialog never overwrite anyone's text, and the two panes of the
compare view scroll together."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton

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
    left, right = dlg.mine_view.verticalScrollBar(), dlg.theirs_view.verticalScrollBar()
    assert left.maximum() > 50
    left.setValue(40)
    assert right.value() == 40
    right.setValue(120)
    assert left.value() == 120
