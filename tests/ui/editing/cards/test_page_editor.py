"""The page editor: every real document opens as cards and is saved untouched byte for byte;
card edits change only their own lines and share one undo history with the raw view; cards
are added, moved and removed; the keyboard alone is enough."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QLineEdit, QWidget

from modu_desktop import i18n
from modu_desktop.core.pageedit.model import Paragraph
from modu_desktop.core.pageedit.segments import CARD_KINDS, split_cards
from modu_desktop.ui.editing.cards import richdoc
from modu_desktop.ui.editing.cards.block_card import BlockCard
from modu_desktop.ui.editing.cards.raw_card import RawCard
from modu_desktop.ui.editing.cards.text_card import TextCard
from modu_desktop.ui.editing.editor import EditorPane
from tests.helpers.rich_corpus import EDITS

ROOT = Path(__file__).resolve().parents[4]
REAL_DOCS = sorted(
    [
        *(ROOT / "tests/fixtures/pnu-modu/docs").glob("*.md"),
        *(ROOT / "tests/fixtures/pnu-modu-site/docs").glob("*.md"),
        *(ROOT / "modu_desktop/sandbox/repo/seed_data/docs").glob("*.md"),
    ]
)
NOTES = (ROOT / "modu_desktop/sandbox/repo/seed_data/docs/05-sandbox-notes.md").read_text("utf-8")


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


def _changed_lines(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.split("\n"), after.split("\n"), n=0, lineterm="")
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def _text_card(pane: EditorPane) -> TextCard:
    return next(c for c in pane.page_editor.cards if isinstance(c, TextCard))


# ------------------------------------------------------------------ opening and saving untouched
def test_the_card_view_is_the_default(pane: EditorPane) -> None:
    pane.load_text(NOTES, read_only=False)
    assert pane.page_editor.objectName() == "pageEditor"
    assert pane.page_editor.isVisible() and not pane.editor.isVisible()
    toggle = pane.raw_toggle
    assert toggle.objectName() == "rawEditorToggle" and not toggle.isChecked()
    assert toggle.text() == "원문 편집"


@pytest.mark.parametrize("path", REAL_DOCS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_real_document_opens_as_cards_and_saves_identical_bytes(
    pane: EditorPane, path: Path
) -> None:
    data = path.read_bytes()
    text = data.decode("utf-8")
    pane.load_text(text, read_only=False)
    page = pane.page_editor
    page.build_all()
    QApplication.processEvents()
    wanted = [s.kind for s in split_cards(text) if s.kind in CARD_KINDS]
    assert [c.kind for c in page.cards] == wanted
    assert any(isinstance(c, BlockCard) for c in page.cards)
    for card in page.cards:
        if isinstance(card, TextCard):  # what the card shows is what it read
            assert richdoc.read_document(card.editor.document()) == card.model
    assert not pane.is_modified()
    assert pane.text().encode("utf-8") == data


@pytest.mark.parametrize(
    "text",
    [
        "\ufeff---\r\ntitle: 가\r\n---\r\n\r\n본문\u00a0줄  \r\n둘째 줄\r\n\r\n"
        ":::hero\r\ntitle: 히어로\r\n:::\r\n",
        "---\ntitle: 가\n---\n\n:::unknown\n모르는 블록\n:::\n\n<Callout>\n알림\n</Callout>\n",
    ],
)
def test_line_endings_bom_and_what_cards_cannot_hold_are_kept(pane: EditorPane, text: str) -> None:
    pane.load_text(text, read_only=False)
    pane.page_editor.build_all()
    assert pane.text() == text
    kinds = [c.kind for c in pane.page_editor.cards]
    assert kinds == [s.kind for s in split_cards(text) if s.kind in CARD_KINDS]


def test_an_edit_keeps_the_documents_line_endings_and_bom(pane: EditorPane) -> None:
    text = "\ufeff---\r\ntitle: 가\r\n---\r\n\r\n첫 문단\r\n\r\n:::hero\r\ntitle: 히어로\r\n:::\r\n"
    pane.load_text(text, read_only=False)
    card = _text_card(pane)
    card.editor.moveCursor(QTextCursor.MoveOperation.End)
    card.editor.insertPlainText(" 더")
    assert pane.text() == text.replace("첫 문단", "첫 문단 더")


@pytest.mark.parametrize("name", list(EDITS))
def test_a_card_shows_every_corpus_edit_and_reads_it_back(qtbot: Any, name: str) -> None:
    from PySide6.QtGui import QTextDocument

    doc = QTextDocument()
    richdoc.fill_document(doc, EDITS[name])
    assert richdoc.read_document(doc) == EDITS[name]


# ------------------------------------------------------------------ editing changes only its lines
def test_typing_in_a_text_card_changes_only_its_own_lines(pane: EditorPane, qtbot: Any) -> None:
    pane.load_text(NOTES, read_only=False)
    card = _text_card(pane)
    card.editor.setFocus()
    cur = card.editor.textCursor()
    cur.setPosition(0)
    card.editor.setTextCursor(cur)
    qtbot.keyClicks(card.editor, "New ")
    assert _changed_lines(NOTES, pane.text()) == ["-## 메모", "+## New 메모"]
    assert pane.is_modified()
    # the preview and the drafts hear about it as from the raw editor
    assert pane.text() == pane.editor.toPlainText()


def test_bold_before_a_particle_is_saved_so_the_site_closes_it(
    pane: EditorPane, qtbot: Any
) -> None:
    pane.load_text(NOTES, read_only=False)
    card = _text_card(pane)
    ed = card.editor
    ed.setFocus()
    ed.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClick(ed, Qt.Key.Key_Return)
    ed.insertPlainText("마크다운(Markdown)")  # Hangul comes from the input method
    ed.moveCursor(QTextCursor.MoveOperation.StartOfBlock, QTextCursor.MoveMode.KeepAnchor)
    qtbot.keyClick(ed, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    ed.moveCursor(QTextCursor.MoveOperation.EndOfBlock)
    qtbot.keyClick(ed, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)  # bold off again
    ed.insertPlainText("을 10~20명이 {함께} 2024. 3. 1.부터 배웁니다")
    added = [line for line in _changed_lines(NOTES, pane.text()) if line.startswith("+")]
    assert (
        "+<strong>마크다운(Markdown)</strong>을 10\\~20명이 \\{함께\\} 2024. 3. 1.부터 배웁니다"
        in (added)
    )
    assert not any(line.startswith("-") for line in _changed_lines(NOTES, pane.text()))


def test_a_block_field_changes_only_its_line(pane: EditorPane, qtbot: Any) -> None:
    pane.load_text(NOTES, read_only=False)
    card = next(c for c in pane.page_editor.cards if isinstance(c, BlockCard))
    field = card.fields[("meta", 0, "title")]
    assert isinstance(field, QLineEdit)
    field.setFocus()
    field.end(False)
    qtbot.keyClicks(field, "!")
    changed = _changed_lines(NOTES, pane.text())
    assert len(changed) == 2 and changed[1].startswith("+title: ") and changed[1].endswith("!")


# ------------------------------------------------------------------ one text, one history
def test_one_undo_history_for_cards_and_the_raw_view(pane: EditorPane, qtbot: Any) -> None:
    pane.load_text(NOTES, read_only=False)
    card = _text_card(pane)
    card.editor.setFocus()
    qtbot.keyClicks(card.editor, "abc")
    typed = pane.text()
    assert typed != NOTES
    qtbot.keyClick(card.editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert pane.text() == NOTES  # the whole burst of typing is one step
    qtbot.keyClick(card.editor, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert pane.text() == typed
    # the raw view is the same text and undoes the same step
    qtbot.mouseClick(pane.raw_toggle, Qt.MouseButton.LeftButton)
    assert pane.raw_view and pane.editor.isVisible() and not pane.page_editor.isVisible()
    assert pane.editor.toPlainText() == typed
    pane.editor.undo()
    assert pane.text() == NOTES
    qtbot.mouseClick(pane.raw_toggle, Qt.MouseButton.LeftButton)
    assert not pane.raw_view
    card = _text_card(pane)
    assert "abc" not in card.editor.toPlainText()


def test_switching_views_keeps_the_place(pane: EditorPane, qtbot: Any) -> None:
    pane.load_text(NOTES, read_only=False)
    last = pane.page_editor.cards[-1]
    last.focus_in()
    pane.set_raw_view(True)
    line = pane.editor.textCursor().blockNumber()
    assert NOTES.split("\n")[line].startswith(":::")
    assert pane.editor.hasFocus()
    pane.set_raw_view(False)
    assert pane.page_editor.current_card() is pane.page_editor.cards[-1]


def test_raw_view_edits_show_in_the_cards(pane: EditorPane) -> None:
    pane.load_text(NOTES, read_only=False)
    pane.set_raw_view(True)
    pane.editor.moveCursor(QTextCursor.MoveOperation.End)
    pane.editor.insertPlainText("\n:::quote\ntext: 새 인용\n:::\n")
    pane.set_raw_view(False)
    last = pane.page_editor.cards[-1]
    assert isinstance(last, BlockCard) and last.model.get("text") == "새 인용"


# ------------------------------------------------------------------ adding, moving, removing
def test_add_a_text_box_between_two_blocks(pane: EditorPane, qtbot: Any) -> None:
    text = "---\ntitle: 가\n---\n\n:::hero\ntitle: 하나\n:::\n\n:::quote\ntext: 둘\n:::\n"
    pane.load_text(text, read_only=False)
    first = pane.page_editor.cards[0]
    first.focus_in()
    qtbot.keyClick(
        QApplication.focusWidget(),
        Qt.Key.Key_T,
        Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    new = pane.page_editor.current_card()
    assert isinstance(new, TextCard) and pane.page_editor.cards.index(new) == 1
    assert pane.text() == text  # nothing is written until something is typed
    qtbot.keyClicks(new.editor, "Hello")
    assert pane.text() == text.replace(":::\n\n:::quote", ":::\n\nHello\n\n:::quote")


def test_move_a_card_and_remove_it_with_undo(pane: EditorPane, qtbot: Any) -> None:
    text = (
        "---\ntitle: 가\n---\n\n:::hero\ntitle: 하나\n:::\n\n첫 문단\n\n:::quote\ntext: 둘\n:::\n"
    )
    pane.load_text(text, read_only=False)
    page = pane.page_editor
    quote = page.cards[2]
    quote.focus_in()
    keys = Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Up, keys)
    assert pane.text() == (
        "---\ntitle: 가\n---\n\n:::hero\ntitle: 하나\n:::\n\n:::quote\ntext: 둘\n:::\n\n첫 문단\n"
    )
    assert isinstance(page.current_card(), BlockCard)
    assert page.current_card() is page.cards[1]
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Delete, keys)
    assert pane.text() == "---\ntitle: 가\n---\n\n:::hero\ntitle: 하나\n:::\n\n첫 문단\n"
    assert page.notice.isVisible() and "인용" in page.notice_text.text()
    qtbot.mouseClick(page.undo_button, Qt.MouseButton.LeftButton)
    assert pane.text() == (
        "---\ntitle: 가\n---\n\n:::hero\ntitle: 하나\n:::\n\n:::quote\ntext: 둘\n:::\n\n첫 문단\n"
    )
    assert not page.notice.isVisible()


def test_undoing_a_removal_another_way_takes_its_notice_away(pane: EditorPane, qtbot: Any) -> None:
    text = (
        "---\ntitle: 가\n---\n\n:::hero\ntitle: 하나\n:::\n\n첫 문단\n\n:::quote\ntext: 둘\n:::\n"
    )
    pane.load_text(text, read_only=False)
    page = pane.page_editor
    keys = Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ShiftModifier
    # Ctrl+Z in the next card's field
    page.cards[2].focus_in()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Delete, keys)
    assert page.notice.isVisible()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert pane.text() == text
    assert not page.notice.isVisible()  # its Undo button would now undo something else
    # Edit → Undo (the document's own undo)
    page.cards[2].focus_in()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Delete, keys)
    assert page.notice.isVisible()
    pane.editor.undo()
    qtbot.waitUntil(lambda: len(page.cards) == 3)
    assert pane.text() == text
    assert not page.notice.isVisible()
    # an edit after the removal: the notice's Undo would undo the edit, not the removal
    page.cards[2].focus_in()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Delete, keys)
    assert page.notice.isVisible()
    page.insert_block(":::quote\ntext: 셋\n:::", page.cards[0], "below")
    assert not page.notice.isVisible()


def test_a_block_from_the_picker_goes_below_the_card(pane: EditorPane, qtbot: Any) -> None:
    pane.load_text(NOTES, read_only=False)
    page = pane.page_editor
    page.cards[0].focus_in()
    pane.open_block_picker()
    picker = pane.picker
    assert picker is not None
    picker.select("stats")
    picker.accept()
    assert isinstance(page.cards[1], BlockCard) and page.cards[1].model.kind == "stats"
    assert page.current_card() is page.cards[1]
    assert pane.text().count(":::stats") == 1


# ------------------------------------------------------------------ keyboard only
def test_tab_goes_from_field_to_field_and_card_to_card(pane: EditorPane, qtbot: Any) -> None:
    pane.load_text(NOTES, read_only=False)
    page = pane.page_editor
    page.build_all()
    first, second = page.cards[0], page.cards[1]
    fields = first.focus_widgets()
    fields[0].setFocus()
    for widget in fields[1:]:
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        assert QApplication.focusWidget() is widget
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is second.focus_widgets()[0]
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Backtab)
    assert QApplication.focusWidget() is fields[-1]


def _in_view(page: Any, widget: QWidget) -> bool:
    """The whole height of ``widget`` is inside the page editor's visible area."""
    top = widget.mapTo(page.viewport(), widget.rect().topLeft()).y()
    return top >= 0 and top + widget.height() <= page.viewport().height()


def test_what_is_added_below_the_view_is_scrolled_into_it(pane: EditorPane, qtbot: Any) -> None:
    stats = "\n\n".join(f"- label: 항목 {n}\n  value: {n}명" for n in range(1, 9))
    text = f"---\ntitle: 가\n---\n\n:::stats\ntitle: 성과\n\n{stats}\n:::\n"
    pane.resize(700, 500)
    pane.activateWindow()
    qtbot.waitUntil(pane.isActiveWindow)
    pane.load_text(text, read_only=False)
    page = pane.page_editor
    page.build_all()
    qtbot.waitUntil(lambda: page.verticalScrollBar().maximum() > 300)
    page.verticalScrollBar().setValue(0)
    assert not _in_view(page, page.add_text_button)
    # a text box at the end of the page, below what is shown
    qtbot.mouseClick(page.add_text_button, Qt.MouseButton.LeftButton)
    new = page.current_card()
    assert isinstance(new, TextCard)
    qtbot.waitUntil(lambda: _in_view(page, new.editor))  # once the column has laid it out
    # an item added to a block whose end is below what is shown
    page.verticalScrollBar().setValue(0)
    qtbot.waitUntil(lambda: not _in_view(page, new.editor))
    card = page.cards[0]
    assert isinstance(card, BlockCard)
    qtbot.mouseClick(
        card.findChild(QAbstractButton, "addItemButton_items"), Qt.MouseButton.LeftButton
    )
    field = card.fields[("items", 8, "label")]
    assert QApplication.focusWidget() is field
    qtbot.waitUntil(lambda: _in_view(page, field))


def test_a_tables_column_headings_are_text_not_a_number_of_columns(pane: EditorPane) -> None:
    """``columns`` of a table holds its headings ("과정 | 인원 | 비고"); offering 2, 3 or 4 under
    "열 수" (as for cards) would replace the headings with a number. Each heading is its own
    box over its column, never a line of ``|``-separated words."""
    text = (
        "---\ntitle: 가\n---\n\n:::datatable\nheader: 모집 인원\ncolumns: 과정 | 인원 | 비고\n\n"
        "- 기초 | 80명 | 저녁\n:::\n"
    )
    pane.load_text(text, read_only=False)
    card = pane.page_editor.cards[0]
    assert isinstance(card, BlockCard)
    card.ensure_built()
    assert ("meta", 0, "columns") not in card.fields
    assert not any("열 수" in w.text() for w in card.findChildren(QLabel))
    assert card.table is not None
    assert [h.text() for h in card.table.header.headings] == ["과정", "인원", "비고"]


def test_cards_made_after_the_page_shows_open_no_menu(pane: EditorPane, qtbot: Any) -> None:
    """Cards past the first few are made a slice at a time while the page is on screen; making
    one must not pop up its menus (a text box's heading menu, a card's ＋ menu) — an open menu
    takes every key, so Ctrl+S and typing went nowhere."""
    from PySide6.QtWidgets import QMenu

    parts = [f":::quote\ntext: 인용 {n}\n:::\n\n문단 {n}." for n in range(8)]
    pane.load_text("---\ntitle: 가\n---\n\n" + "\n\n".join(parts) + "\n", read_only=False)
    page = pane.page_editor
    qtbot.waitUntil(lambda: all(c.is_built for c in page.cards))
    assert len(page.cards) == 16
    assert QApplication.activePopupWidget() is None
    assert not [m.objectName() for m in page.findChildren(QMenu) if m.isVisible()]


def test_enter_in_an_item_adds_an_item(pane: EditorPane, qtbot: Any) -> None:
    text = "---\ntitle: 가\n---\n\n:::stats\ntitle: 성과\n\n- label: 취업률\n  value: 89%\n:::\n"
    pane.load_text(text, read_only=False)
    card = pane.page_editor.cards[0]
    assert isinstance(card, BlockCard)
    field = card.fields[("items", 0, "value")]
    field.setFocus()
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert card.model.body is not None and len(card.model.body.items) == 2
    focused = QApplication.focusWidget()
    assert focused is card.fields[("items", 1, "label")]
    qtbot.keyClicks(focused, "X")
    assert "- label: 취업률\n  value: 89%\n\n- label: X\n:::" in pane.text()


def test_ctrl_b_i_k_format_the_text(pane: EditorPane, qtbot: Any, monkeypatch: Any) -> None:
    from PySide6.QtWidgets import QInputDialog

    pane.load_text(NOTES, read_only=False)
    card = _text_card(pane)
    ed = card.editor
    ed.setFocus()
    ed.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClick(ed, Qt.Key.Key_Return)
    qtbot.keyClicks(ed, "word")
    ed.moveCursor(QTextCursor.MoveOperation.StartOfBlock, QTextCursor.MoveMode.KeepAnchor)
    qtbot.keyClick(ed, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(ed, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert "\n***word***\n" in pane.text() or "\n***word***" in pane.text()
    monkeypatch.setattr(
        QInputDialog, "getText", staticmethod(lambda *a, **k: ("https://example.com", True))
    )
    qtbot.keyClick(ed, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    assert "[***word***](https://example.com)" in pane.text()


def test_every_button_has_an_accessible_name(pane: EditorPane) -> None:
    pane.load_text(NOTES, read_only=False)
    pane.page_editor.build_all()
    buttons = pane.findChildren(QAbstractButton)
    assert len(buttons) > 30
    nameless = [b.objectName() or b.text() for b in buttons if not b.accessibleName()]
    assert not nameless
    fields = [w for w in pane.page_editor.findChildren(QWidget) if w.property("fieldPath")]
    assert fields and all(w.accessibleName() for w in fields)


def test_read_only_cards_do_not_edit(pane: EditorPane, qtbot: Any) -> None:
    pane.load_text(NOTES, read_only=True)
    card = _text_card(pane)
    card.editor.setFocus()
    qtbot.keyClicks(card.editor, "x")
    assert pane.text() == NOTES
    assert not pane.page_editor.add_text_button.isEnabled()


# ------------------------------------------------------------------ raw cards, pictures, the end
def test_a_raw_card_that_becomes_a_block_becomes_a_block_card(pane: EditorPane, qtbot: Any) -> None:
    text = "---\ntitle: 가\n---\n\n```\n코드\n```\n"
    pane.load_text(text, read_only=False)
    page = pane.page_editor
    raw = page.cards[0]
    assert isinstance(raw, RawCard)
    raw.editor.setFocus()
    raw.editor.selectAll()
    raw.editor.insertPlainText(":::quote\ntext: 이제 블록\n:::")
    assert pane.text() == "---\ntitle: 가\n---\n\n:::quote\ntext: 이제 블록\n:::\n"
    page.add_text_button.setFocus()  # the keyboard leaves the card: the page looks again
    qtbot.waitUntil(lambda: isinstance(page.cards[0], BlockCard))
    block = page.cards[0]
    assert isinstance(block, BlockCard) and block.model.get("text") == "이제 블록"


def test_a_text_box_at_the_end_of_the_page(pane: EditorPane, qtbot: Any) -> None:
    text = "---\ntitle: 가\n---\n\n:::hero\ntitle: 하나\n:::\n"
    pane.load_text(text, read_only=False)
    page = pane.page_editor
    qtbot.mouseClick(page.add_text_button, Qt.MouseButton.LeftButton)
    card = page.current_card()
    assert isinstance(card, TextCard) and page.cards[-1] is card
    card.editor.insertPlainText("끝에 쓴 글 ~")
    assert pane.text() == text + "\n끝에 쓴 글 \\~\n"


def test_an_uploaded_picture_goes_into_the_text_box(pane: EditorPane) -> None:
    pane.load_text(NOTES, read_only=False)
    card = _text_card(pane)
    card.editor.setFocus()
    card.editor.moveCursor(QTextCursor.MoveOperation.End)
    pane.insert_markdown("![새 사진](/img/uploads/upload_1.png)")
    assert "![로고](/img/modu-logo.png)![새 사진](/img/uploads/upload_1.png)" in pane.text()


def test_enter_in_a_list_of_the_text_box_adds_an_item(pane: EditorPane, qtbot: Any) -> None:
    text = "---\ntitle: 가\n---\n\n- 하나\n- 둘\n"
    pane.load_text(text, read_only=False)
    card = _text_card(pane)
    card.editor.setFocus()
    card.editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClick(card.editor, Qt.Key.Key_Return)
    card.editor.insertPlainText("셋")
    assert pane.text() == "---\ntitle: 가\n---\n\n- 하나\n- 둘\n- 셋\n"


def test_on_leaving_a_text_box_shows_what_the_site_will_show(pane: EditorPane, qtbot: Any) -> None:
    text = "---\ntitle: 가\n---\n\n첫 문단\n"
    pane.load_text(text, read_only=False)
    card = _text_card(pane)
    card.editor.setFocus()
    card.editor.moveCursor(QTextCursor.MoveOperation.End)
    card.editor.insertPlainText(" https://example.com :tada:")
    first = richdoc.read_document(card.editor.document()).blocks[0]
    assert isinstance(first, Paragraph) and not getattr(first.content[-1], "link", None)
    pane.page_editor.add_text_button.setFocus()  # the keyboard leaves the card
    shown = richdoc.read_document(card.editor.document()).blocks[0]
    assert isinstance(shown, Paragraph)
    links = [getattr(n, "link", None) for n in shown.content if getattr(n, "link", None)]
    assert links == ["https://example.com"]  # the site makes a link of a bare address
    assert "🎉" in card.editor.toPlainText()  # and a picture of an emoji's name
