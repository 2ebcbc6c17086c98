"""A mouse click on a text box's tool leaves the keyboard in that text box with its caret where
it was (the tools take no focus, and neither does the page around the cards), even when the
keyboard was in another card, and a syllable still being composed stays where it was typed.
The clicks go through Qt's own mouse handling (``QTest``), which hands the focus on a click as
a real click does; the real-window proof is ``tests/hands/test_text_tools.py``."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QInputMethodEvent, QKeyEvent, QTextCursor
from PySide6.QtWidgets import QApplication

from modu_desktop import i18n
from modu_desktop.ui.editing.cards import richdoc
from modu_desktop.ui.editing.cards.text_card import TextCard
from modu_desktop.ui.editing.editor import EditorPane
from modu_desktop.ui.kit.preedit import install_preedit_tracker

PAGE = "---\ntitle: 도구\n---\n\n첫 상자입니다.\n\n:::quote\ntext: 사이\n:::\n\n둘째 상자입니다.\n"
TOOLS = ("bold", "italic", "strike", "bullets", "numbers", "quote", "break", "table")


@pytest.fixture
def pane(qtbot: Any) -> Any:
    i18n.set_language("ko")
    p = EditorPane()
    qtbot.addWidget(p)
    p.resize(1200, 900)
    p.show()
    p.activateWindow()
    qtbot.waitUntil(p.isActiveWindow)
    p.load_text(PAGE, read_only=False)
    p.page_editor.build_all()
    return p


def _boxes(pane: EditorPane) -> list[TextCard]:
    return [c for c in pane.page_editor.cards if isinstance(c, TextCard)]


def _caret_at_end(card: TextCard, qtbot: Any) -> None:
    card.editor.setFocus()
    qtbot.waitUntil(card.editor.hasFocus)
    card.editor.moveCursor(QTextCursor.MoveOperation.End)


@pytest.mark.parametrize("tool", TOOLS)
def test_a_tool_click_leaves_the_keyboard_in_the_text_box(
    pane: EditorPane, qtbot: Any, tool: str
) -> None:
    first = _boxes(pane)[0]
    _caret_at_end(first, qtbot)
    qtbot.mouseClick(first.tool_buttons[tool], Qt.MouseButton.LeftButton)
    assert QApplication.focusWidget() is first.editor
    qtbot.keyClicks(QApplication.focusWidget(), "typed")
    assert "typed" in first.editor.toPlainText()


def test_a_tool_of_another_card_takes_the_keyboard_there(pane: EditorPane, qtbot: Any) -> None:
    first, second = _boxes(pane)
    _caret_at_end(first, qtbot)
    second.editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.mouseClick(second.tool_buttons["bold"], Qt.MouseButton.LeftButton)
    assert QApplication.focusWidget() is second.editor
    _type(second.editor, "굵게")
    assert second.editor.toPlainText().endswith("굵게")
    assert first.editor.toPlainText() == "첫 상자입니다."


def test_a_tool_click_keeps_the_syllable_being_composed(pane: EditorPane, qtbot: Any) -> None:
    first = _boxes(pane)[0]
    _caret_at_end(first, qtbot)
    install_preedit_tracker().watch(first.editor)
    QApplication.sendEvent(first.editor, QInputMethodEvent("한", []))  # composing, not in the text
    assert first.editor.toPlainText() == "첫 상자입니다."
    qtbot.mouseClick(first.tool_buttons["bold"], Qt.MouseButton.LeftButton)
    assert first.editor.toPlainText() == "첫 상자입니다.한"
    _type(first.editor, "글")
    fragments = [
        (f.text(), richdoc.BOLD in richdoc.marks_of(f.charFormat())) for f in _fragments(first)
    ]
    assert fragments == [("첫 상자입니다.한", False), ("글", True)]


def _type(widget: Any, text: str) -> None:
    """Keys that carry Hangul (QTest's own key clicks take ASCII only)."""
    for char in text:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(widget, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, char))


def _fragments(card: TextCard) -> list[Any]:
    block = card.editor.document().begin()
    out = []
    it = block.begin()
    while not it.atEnd():
        out.append(it.fragment())
        it += 1
    return out
