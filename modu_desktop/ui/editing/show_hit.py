"""A place found by the search of every page, shown where the cards show it: the card scrolled
into view, the words marked and selected in their field, the keyboard there.

A hit says which card (``card_start``, where the card starts in the page's Markdown) and which
field (its :class:`~modu_desktop.core.search.model.Place`); the words are found again in that
field with the search's own matching (:mod:`modu_desktop.core.search.matching`), so "학년도"
marks the same letters the results showed, whole word and case as chosen. A text box or a
원문 card holds all its fields in one text: there the hit is the ``in_card``-th of its card. When
the page's text is not the one searched (it was changed since), the words are looked for
card by card, the ``in_page``-th of the page.

The place is marked as 찾기 (Ctrl+F) marks in the cards (:class:`~modu_desktop.ui.editing.
card_find.CardSearch`: every place of the words in the text boxes, this one stronger), and the
find bar is given the words, so Find next (F3) goes on from here.

The page settings' title and menu name are fields of the 페이지 설정 form; a description or
a sidebar name has no field of its own there, so the words are shown in the page's header
lines.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QComboBox, QLineEdit, QPlainTextEdit, QTableWidget, QTextEdit, QWidget
from shiboken6 import isValid

from modu_desktop.core.search.matching import find, prepare, prepare_query
from modu_desktop.core.search.model import Hit, SearchOptions
from modu_desktop.ui.editing.block_form import DataTable
from modu_desktop.ui.editing.card_find import CardSearch, FoundSpan
from modu_desktop.ui.editing.cards.base import Card
from modu_desktop.ui.editing.cards.block_card import BlockCard, FieldPath
from modu_desktop.ui.editing.cards.page_editor import PageEditor
from modu_desktop.ui.editing.cards.positions import u16
from modu_desktop.ui.editing.editor import EditorPane

TextField = QLineEdit | QTextEdit | QPlainTextEdit
_FORM_KEYS = {"title": "title_edit", "nav_label": "nav_edit"}


def occurrences(text: str, query: str, options: SearchOptions) -> list[tuple[int, int]]:
    """Where ``query`` is in ``text`` as the search finds it: (start, end) offsets of ``text``."""
    prepared_query = prepare_query(query, options)
    if not prepared_query:
        return []
    prepared = prepare(text, options)
    out = []
    for at in find(prepared.text, prepared_query, options.whole_word):
        start = prepared.original(at, len(text))
        end = prepared.original(at + len(prepared_query), len(text))
        out.append((start, max(end, start + 1)))
    return out


class _Showing:
    """One hit being shown in ``pane``: the words, the choices, and the cards' marking."""

    def __init__(self, pane: EditorPane, query: str, options: SearchOptions) -> None:
        self.pane, self.page = pane, pane.page_editor
        self.query, self.options = query, options
        self.marks: CardSearch | None = pane.find_bar.cards

    def select(self, field: TextField, nth: int, *, after: int = -1) -> bool:
        """Select the ``nth`` place of the words in ``field`` (the last one when there are
        fewer; only those after offset ``after``), mark it, give the field the keyboard and
        bring it into view."""
        text = _text_of(field)
        places = [p for p in occurrences(text, self.query, self.options) if p[0] > after]
        if not places:
            return False
        start, end = places[min(nth, len(places) - 1)]
        if not isinstance(field, QLineEdit):
            start, end = u16(text[:start]), u16(text[:end])
        in_cards = self.page.column_widget.isAncestorOf(field)
        if self.marks is not None and in_cards:
            self.marks.current = FoundSpan(field, start, end)
            self.marks.mark(self.query, case=self.options.case_sensitive)
            self.marks.put_keyboard_there()
        else:
            _select_plain(field, start, end)
        if in_cards:
            _reveal(self.page, field, start)
        return True


def show_hit(
    pane: EditorPane,
    hit: Hit,
    query: str,
    options: SearchOptions,
    *,
    in_card: int = 0,
    in_field: int = 0,
    in_page: int = 0,
) -> bool:
    """Show ``hit`` of the open page (see the module docstring); False when the words are not
    on the page any more (the page is still shown, at its start)."""
    showing = _Showing(pane, query, options)
    if showing.marks is not None:
        showing.marks.clear_marks()
    bar = pane.find_bar  # Find next (F3) goes on from this place
    bar.find_edit.setText(query)
    bar.case_box.setChecked(options.case_sensitive)
    if hit.place.card == "settings":
        return _in_settings(showing, hit, in_field)
    if pane.raw_view:
        pane.set_raw_view(False)
    page = pane.page_editor
    page.ensure_current()
    card = _card_at(page, hit.card_start)
    if card is not None and _in_card(showing, card, hit, in_card, in_field):
        return True
    return _anywhere(showing, in_page)


# ---------------------------------------------------------------------- finding the field
def _card_at(page: PageEditor, card_start: int) -> Card | None:
    text = page.text()
    if card_start > len(text):
        return None
    at = u16(text[:card_start])
    return next((c for c in page.cards if c.qstart == at), None)


def _in_card(showing: _Showing, card: Card, hit: Hit, in_card: int, in_field: int) -> bool:
    card.ensure_built()
    if isinstance(card, BlockCard):
        where = hit.place
        if where.column:
            return _in_table(showing.page, card, where.item - 1, where.column - 1)
        path: FieldPath = (
            ("meta", 0, where.key)
            if not where.item
            else (where.section or "items", where.item - 1, where.key)
        )
        field = _text_field(card.fields.get(path))
        return field is not None and showing.select(field, in_field)
    editor = getattr(card, "editor", None)
    return isinstance(editor, TextField) and showing.select(editor, in_card)


def _in_table(page: PageEditor, card: BlockCard, row: int, column: int) -> bool:
    holder = card.findChild(DataTable)
    table: QTableWidget | None = holder.table if holder is not None else None
    if table is None or not (0 <= row < table.rowCount() and 0 <= column < table.columnCount()):
        return False
    table.setCurrentCell(row, column)
    table.setFocus()
    _reveal(page, table, None)
    return True


def _anywhere(showing: _Showing, in_page: int) -> bool:
    """The ``in_page``-th place of the words, card by card (the last one there is, when the
    page now has fewer)."""
    last: tuple[TextField, int] | None = None
    seen = 0
    for card in showing.page.cards:
        card.ensure_built()
        for widget in card.focus_widgets():
            field = _text_field(widget)
            if field is None:
                continue
            places = occurrences(_text_of(field), showing.query, showing.options)
            if seen + len(places) > in_page:
                return showing.select(field, in_page - seen)
            if places:
                last = (field, len(places) - 1)
            seen += len(places)
    if last is not None:
        return showing.select(*last)
    showing.page.verticalScrollBar().setValue(0)
    return False


def _in_settings(showing: _Showing, hit: Hit, in_field: int) -> bool:
    pane = showing.pane
    name = _FORM_KEYS.get(hit.place.key)
    if name is not None:
        if pane.raw_view:
            pane.set_raw_view(False)
        pane.form.show()
        return showing.select(getattr(pane.form, name), in_field)
    # no field of its own in the form: the header lines of the page, where it is written
    pane.set_raw_view(True)
    pane.show_fm_button.setChecked(True)  # the header lines shown
    text = pane.editor.toPlainText()
    line = text.find(f"\n{hit.place.key}:")
    found = showing.select(pane.editor, in_field, after=line)
    pane.editor.ensureCursorVisible()
    return found


# ---------------------------------------------------------------------- marking the words
def _text_field(widget: QWidget | None) -> TextField | None:
    """The field a person types in: the widget, or an editable choice's line."""
    if isinstance(widget, QComboBox):
        return widget.lineEdit()
    return widget if isinstance(widget, TextField) else None


def _text_of(field: TextField) -> str:
    if isinstance(field, QLineEdit):
        return field.text()
    return field.document().toPlainText()


def _select_plain(field: TextField, start: int, end: int) -> None:
    """The words selected and the keyboard there (a field outside the cards)."""
    field.setFocus()
    if isinstance(field, QLineEdit):
        field.setSelection(start, end - start)
        return
    cursor = QTextCursor(field.document())
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    field.setTextCursor(cursor)


def _reveal(page: PageEditor, field: QWidget, position: int | None) -> None:
    """Scroll the page so the words (``position`` in a text field; else the field) are well
    inside the view, a third of it above and below where there is room, once the column has
    laid their card out (a card opened just now has no place yet)."""

    def now() -> None:
        if not (isValid(field) and field.isVisible() and page.column_widget.isAncestorOf(field)):
            return
        margin = max(60, page.viewport().height() // 3)
        if position is None or not isinstance(field, QTextEdit | QPlainTextEdit):
            page.ensureWidgetVisible(field, 40, margin)
            return
        cursor = QTextCursor(field.document())
        cursor.setPosition(position)
        rect = field.cursorRect(cursor)
        at = field.viewport().mapTo(page.column_widget, rect.center())
        page.ensureVisible(at.x(), at.y(), 40, margin)

    QTimer.singleShot(0, page, now)
