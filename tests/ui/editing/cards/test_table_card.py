"""The 표 card reads as the site shows the table: words bold, in the accent colour or italic —
never ``**``, ``[!…]`` or ``[~…]`` — and each column's alignment a choice under its heading
(왼쪽 / 가운데 / 오른쪽), not ``left | center | left`` typed by hand. Edits write the site's
marks; untouched cells keep their bytes."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QLineEdit, QTableWidgetItem

from modu_desktop import i18n
from modu_desktop.ui.editing.cards.block_card import BlockCard
from modu_desktop.ui.editing.data_table import DataTable
from modu_desktop.ui.editing.editor import EditorPane
from modu_desktop.ui.editing.table_cells import RAW_ROLE, CellEditor

TABLE = (
    ":::datatable\nheader: 모집 인원\ncolumns: 과정 | 인원 | 비고\n"
    "align: left | center | left\n\n"
    "- **기초 과정** | [!80명] | [~저녁 수업]\n- 심화 과정 | 40명 | 주말\n:::\n"
)
PAGE = "---\ntitle: 모집\n---\n\n" + TABLE


@pytest.fixture(autouse=True)
def _korean() -> Any:
    i18n.set_language("ko")
    yield
    i18n.set_language("ko")


@pytest.fixture
def pane(qtbot: Any) -> EditorPane:
    p = EditorPane()
    qtbot.addWidget(p)
    p.resize(1200, 900)
    p.show()
    return p


def _table(pane: EditorPane, text: str = PAGE) -> DataTable:
    pane.load_text(text, read_only=False)
    card = pane.page_editor.cards[0]
    assert isinstance(card, BlockCard)
    card.ensure_built()
    assert card.table is not None
    return card.table


def _shown(table: DataTable) -> list[list[str]]:
    t = table.table
    return [
        [_cell(table, r, c).text() for c in range(t.columnCount())] for r in range(t.rowCount())
    ]


def _cell(table: DataTable, row: int, col: int) -> QTableWidgetItem:
    item = table.table.item(row, col)
    assert item is not None
    return item


def test_cells_show_their_words_and_the_card_no_marks(pane: EditorPane) -> None:
    table = _table(pane)
    assert _shown(table) == [["기초 과정", "80명", "저녁 수업"], ["심화 과정", "40명", "주말"]]
    card = pane.page_editor.cards[0]
    assert isinstance(card, BlockCard)
    words = [w.text() for w in card.findChildren(QLineEdit) if w.isVisible()]
    words += [w.text() for w in card.findChildren(QLabel) if w.isVisible()]
    for code in ("**", "[!", "[~", "left", "center", "| 로 구분) left"):
        assert not any(code in w for w in words), (code, words)
    # no field holds the alignments as words to type: a choice under each heading instead
    assert ("meta", 0, "align") not in card.fields
    combos = [table.header.combos[c] for c in range(3)]
    assert [c.currentText() for c in combos] == ["왼쪽", "가운데", "왼쪽"]
    assert [combos[0].itemText(i) for i in range(3)] == ["왼쪽", "가운데", "오른쪽"]


def test_a_cell_is_drawn_as_the_site_draws_it(pane: EditorPane) -> None:
    from modu_desktop.core.brochure.cells import read_cell
    from modu_desktop.ui.editing.table_cells import cell_html

    drawn = cell_html(read_cell("**기초** 과정 [!80명] [~저녁]"), "center")
    assert "<b>기초</b>" in drawn and "<i>저녁</i>" in drawn and "#e63312" in drawn
    assert 'align="center"' in drawn and "**" not in drawn and "[!" not in drawn


def _type(widget: Any, text: str) -> None:
    """Keys that carry Hangul (QTest's own key clicks take ASCII only)."""
    for char in text:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(widget, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, char))


def _open_cell(table: DataTable, qtbot: Any, row: int, col: int) -> CellEditor:
    t = table.table
    t.setCurrentCell(row, col)
    t.setFocus()
    t.edit(t.currentIndex())
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), CellEditor))
    editor = QApplication.focusWidget()
    assert isinstance(editor, CellEditor)
    return editor


def test_typing_in_a_cell_and_making_words_bold_writes_the_sites_marks(
    pane: EditorPane, qtbot: Any
) -> None:
    table = _table(pane)
    editor = _open_cell(table, qtbot, 1, 0)
    assert editor.toPlainText() == "심화 과정"
    _type(editor, "야간 과정")  # the whole cell was chosen: typing replaces it
    cur = editor.textCursor()
    cur.setPosition(0)
    cur.setPosition(2, QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cur)
    qtbot.mouseClick(table.style_buttons["bold"], Qt.MouseButton.LeftButton)
    assert QApplication.focusWidget() is editor  # the tool leaves the keyboard in the cell
    qtbot.keyClick(editor, Qt.Key.Key_End)
    qtbot.keyClick(editor, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, "!")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "- **야간** 과정[!!] | 40명 | 주말" in pane.text())
    assert "- **기초 과정** | [!80명] | [~저녁 수업]" in pane.text()  # the other row untouched
    assert _cell(table, 1, 0).text() == "야간 과정!"


def test_a_tool_on_a_chosen_cell_marks_the_whole_cell_and_again_unmarks_it(
    pane: EditorPane, qtbot: Any
) -> None:
    table = _table(pane)
    table.table.setCurrentCell(1, 2)
    qtbot.mouseClick(table.style_buttons["italic"], Qt.MouseButton.LeftButton)
    assert "- 심화 과정 | 40명 | [~주말]\n" in pane.text()
    table.table.setCurrentCell(0, 0)
    qtbot.mouseClick(table.style_buttons["bold"], Qt.MouseButton.LeftButton)
    assert "- 기초 과정 | [!80명] | [~저녁 수업]\n" in pane.text()
    assert _cell(table, 0, 0).data(RAW_ROLE) == "기초 과정"


def test_a_bar_typed_in_a_cell_stays_in_the_cell(pane: EditorPane, qtbot: Any) -> None:
    table = _table(pane)
    editor = _open_cell(table, qtbot, 1, 2)
    _type(editor, "토|일")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "- 심화 과정 | 40명 | 토｜일\n" in pane.text())
    assert _shown(table)[1] == ["심화 과정", "40명", "토｜일"]


def test_alignment_is_chosen_per_column(pane: EditorPane) -> None:
    table = _table(pane)
    combo = table.header.combos[2]
    assert combo.objectName() == "columnAlign_2"
    assert "비고" in combo.accessibleName()
    combo.setCurrentIndex(2)
    combo.activated.emit(2)
    assert "align: left | center | right\n" in pane.text()
    assert table.header.combos[2].currentText() == "오른쪽"


def test_alignment_chosen_where_the_block_gave_none(pane: EditorPane) -> None:
    text = PAGE.replace("align: left | center | left\n", "")
    table = _table(pane, text)
    assert [c.currentText() for c in table.header.combos] == ["왼쪽"] * 3
    table.header.combos[1].activated.emit(1)
    assert "columns: 과정 | 인원 | 비고\nalign: left | center | left\n" in pane.text()


def test_a_column_added_gets_a_heading_box_and_a_choice(pane: EditorPane) -> None:
    table = _table(pane)
    table.table.setCurrentCell(0, 2)
    table.add_column()
    assert [h.text() for h in table.header.headings] == ["과정", "인원", "비고", "새 열"]
    assert len(table.header.combos) == 4
    assert "columns: 과정 | 인원 | 비고 | 새 열\n" in pane.text()


def test_a_heading_is_typed_in_its_box_over_the_column(pane: EditorPane, qtbot: Any) -> None:
    """The headings are boxes over their columns (no "열 제목 (| 로 구분)" line): typing in one
    changes that heading only, the caret stays in the box, and a | cannot split it in two."""
    table = _table(pane)
    card = pane.page_editor.cards[0]
    assert isinstance(card, BlockCard)
    shown = [w.text() for w in card.findChildren(QLineEdit) if w.isVisible()]
    assert not any("|" in text for text in shown), shown
    assert not any("로 구분" in w.text() for w in card.findChildren(QLabel) if w.isVisible())
    box = table.header.headings[1]
    assert box.isVisible() and box.accessibleName() == "2번째 열의 제목"
    box.setFocus()
    box.selectAll()
    _type(box, "정원|수")
    assert box.text() == "정원수"
    assert "columns: 과정 | 정원수 | 비고\n" in pane.text()
    assert table.header.headings[1] is box and box.hasFocus()  # nothing rebuilt under the caret
    assert _shown(table)[0] == ["기초 과정", "80명", "저녁 수업"]


def test_a_heading_for_a_column_wider_than_the_headings(pane: EditorPane) -> None:
    table = _table(pane, "---\ntitle: 모집\n---\n\n:::datatable\ncolumns: 과정\n\n- 가 | 나\n:::\n")
    assert [h.text() for h in table.header.headings] == ["과정", ""]
    table.set_heading(1, "인원")
    assert "columns: 과정 | 인원\n" in pane.text()


def test_a_read_only_table_offers_no_change(pane: EditorPane) -> None:
    pane.load_text(PAGE, read_only=True)
    card = pane.page_editor.cards[0]
    assert isinstance(card, BlockCard)
    card.ensure_built()
    table = card.table
    assert table is not None
    assert not any(c.isEnabled() for c in table.header.combos)
    assert all(h.isReadOnly() for h in table.header.headings)
    assert not any(b.isEnabled() for b in table.style_buttons.values())
    table.table.setCurrentCell(0, 0)
    table.toggle_style("bold")
    assert pane.text() == PAGE


def test_a_choice_reads_by_its_name(pane: EditorPane) -> None:
    """모양 of a card grid offers 그림자 / 테두리, not elevated / outlined, and writes the id."""
    text = "---\ntitle: 가\n---\n\n:::cards\ntitle: 과정\nvariant: elevated\n\n- title: 하나\n:::\n"
    pane.load_text(text, read_only=False)
    card = pane.page_editor.cards[0]
    assert isinstance(card, BlockCard)
    card.ensure_built()
    combo = card.fields[("meta", 0, "variant")]
    assert isinstance(combo, QComboBox)
    assert combo.currentText() == "그림자"
    assert [combo.itemText(i) for i in range(combo.count())] == ["", "그림자", "테두리"]
    combo.setCurrentIndex(2)
    assert "variant: outlined\n" in pane.text()
