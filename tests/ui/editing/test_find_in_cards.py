"""찾기 and 바꾸기 in the card view: the words are found as the cards show them (a text box
without its marks, a block's fields, an original-text card), in page order and round the end;
the place is marked and scrolled into view; replacing goes through the cards into the text;
the page stays as cards; 원문 편집 is chosen for one page, and the next page opens as cards."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from modu_desktop import i18n
from modu_desktop.ui.editing.cards.block_card import BlockCard
from modu_desktop.ui.editing.cards.raw_card import RawCard
from modu_desktop.ui.editing.cards.text_card import TextCard
from modu_desktop.ui.editing.editor import EditorPane

FILLER = "\n\n".join(f"채우는 문단 {n}입니다." for n in range(40))
PAGE = (
    "---\ntitle: 찾기\n---\n\n"
    "첫 상자에 **사과**가 있습니다.\n\n"
    ":::quote\ntext: 블록 안의 사과\n:::\n\n"
    f"{FILLER}\n\n"
    "```\n원문 속 사과\n```\n\n"
    "마지막 상자의 사과 두 개: 사과.\n"
)


@pytest.fixture
def pane(qtbot: Any) -> Any:
    i18n.set_language("ko")
    p = EditorPane()
    qtbot.addWidget(p)
    p.resize(1000, 600)
    p.show()
    p.activateWindow()
    qtbot.waitUntil(p.isActiveWindow)
    p.open_page(PAGE, read_only=False)
    return p


def _found(pane: EditorPane) -> tuple[Any, str]:
    place = pane.find_bar.cards.current if pane.find_bar.cards is not None else None
    assert place is not None
    field = place.field
    text = field.text() if isinstance(field, QLineEdit) else field.toPlainText()
    return field, text[place.start : place.end]


def _card_of(widget: Any) -> Any:
    at = widget
    while at is not None and not isinstance(at, TextCard | BlockCard | RawCard):
        at = at.parentWidget()
    return at


def test_find_goes_through_the_cards_in_page_order_and_round(pane: EditorPane) -> None:
    bar = pane.find_bar
    bar.open_find()
    bar.find_edit.setText("사과")
    kinds = []
    for _ in range(5):
        assert bar.find_next()
        field, word = _found(pane)
        assert word == "사과"
        kinds.append(type(_card_of(field)).__name__)
        assert not pane.raw_view and pane.page_editor.isVisible()  # still the cards
    assert kinds == ["TextCard", "BlockCard", "RawCard", "TextCard", "TextCard"]
    assert bar.status.text() == ""
    first = pane.page_editor.cards[0]
    assert bar.find_next()  # round the end of the page, to the first box again
    assert bar.status.text() == "처음부터 다시 찾았습니다"
    assert _card_of(_found(pane)[0]) is first
    assert bar.find_previous()  # and back round to the last one
    field, word = _found(pane)
    assert word == "사과" and "마지막 상자" in field.toPlainText()
    bar.find_edit.setText("없는 말")
    assert not bar.find_next() and bar.status.text() == "찾지 못했습니다"


def test_the_place_is_marked_and_scrolled_into_view(pane: EditorPane, qtbot: Any) -> None:
    bar = pane.find_bar
    bar.open_find()
    bar.find_edit.setText("사과 두")
    assert bar.find_next()
    field, _word = _found(pane)
    card = _card_of(field)
    assert isinstance(card, TextCard) and "마지막 상자" in card.editor.toPlainText()
    marks = [s.cursor.selectedText() for s in field.extraSelections()]
    assert marks == ["사과 두"]
    page = pane.page_editor
    top = field.mapTo(page.viewport(), field.cursorRect().topLeft()).y()
    assert 0 <= top <= page.viewport().height()  # the found words are on the screen
    qtbot.keyClick(bar.find_edit, Qt.Key.Key_Escape)
    assert QApplication.focusWidget() is card.editor  # the keyboard at the words found
    assert card.editor.textCursor().selectedText() == "사과 두"
    assert card.editor.extraSelections() == []


def test_replace_one_and_all_inside_the_cards(pane: EditorPane) -> None:
    bar = pane.find_bar
    bar.open_find(replace=True)
    bar.find_edit.setText("사과")
    bar.replace_edit.setText("배")
    assert bar.find_next()
    bar.replace_one()
    assert "첫 상자에 **배**가 있습니다." in pane.text()  # the mark kept around the new word
    assert _found(pane)[1] == "사과"  # and on to the next one
    assert bar.replace_all() == 4
    text = pane.text()
    assert "사과" not in text
    assert "text: 블록 안의 배" in text and "원문 속 배" in text and "배 두 개: 배." in text
    assert not pane.raw_view


def test_a_page_opens_as_cards_whatever_the_last_one_showed(pane: EditorPane) -> None:
    pane.set_raw_view(True)
    assert pane.raw_view and pane.raw_toggle.isChecked()
    assert "raw" not in pane.layout_memory.state()  # chosen for this page, not remembered
    pane.open_page("---\ntitle: 새 문서\n---\n\n새 글.\n", read_only=False)
    assert not pane.raw_view and not pane.raw_toggle.isChecked()
    assert pane.page_editor.isVisible()
