"""The cards' keys work in the real window, whose Document menu has Alt+Shift+↑/↓ as well
(move the selected page in the menu): with two shortcuts on one key Qt runs neither."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication


def test_alt_shift_up_in_a_card_moves_the_card(make_window: Any, ui: Any, qtbot: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document("admission"))
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    page = win.editor_pane.page_editor
    page.build_all()
    second = page.cards[1]
    before = win.editor_pane.text()
    second.focus_in()
    keys = Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Up, keys)
    qtbot.waitUntil(lambda: win.editor_pane.text() != before, timeout=3000)
    assert page.cards.index(page.current_card()) == 0
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Down, keys)
    qtbot.waitUntil(lambda: win.editor_pane.text() == before, timeout=3000)
