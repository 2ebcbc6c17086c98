"""A place found by the search of every page, shown where the cards show it: the card scrolled
into view, the words marked and selected in their field, the keyboard there.

A hit says which card (``card_start``, where the card starts in the page's Markdown) and which
field (its :class:`~modu_desktop.core.search.model.Place`); the words are found again in that
field with the search's own matching (:mod:`modu_desktop.core.search.matching`), so "학년도"
marks the same letters the results showed, whole word and case as chosen. A text box or a
원문 card holds all its fields in one text: there the hit is the ``in_card``-th of its card. When
the page's text is not the one searched (it was changed since), the words are looked for
card by card, the ``in_page``-th of the page.

The page settings' title and menu name are fields of the 페이지 설정 form; a description or
a sidebar name has no field of its own there, so the words are shown in the page's header
lines.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QComboBox, QLineEdit, QPlainTextEdit, QTableWidget, QTextEdit, QWidget
from shiboken6 import isValid

from modu_desktop.core.search.matching import find, prepare, prepare_query
from modu_desktop.core.search.model import Hit, SearchOptions
from modu_desktop.ui.editing.block_form import DataTable
from modu_desktop.ui.editing.cards.base import Card
from modu_desktop.ui.editing.cards.block_card import BlockCard, FieldPath
from modu_desktop.ui.editing.cards.page_editor import PageEditor, u16
from modu_desktop.ui.editing.editor import EditorPane

MARK = QColor("#ffe27a")  # the words found, as the search's results mark them
TextField = QLineEdit | QTextEdit | QPlainTextEdit
_FORM_KEYS = {"title": "title_edit", "nav_label": "nav_edit"}
_marked: WeakKeyDictionary[PageEditor, list[QTextEdit | QPlainTextEdit]] = WeakKeyDictionary()


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
    clear_marks(pane.page_editor)
    if hit.place.card == "settings":
        return _in_settings(pane, hit, query, options, in_field)
    if pane.raw_view:
        pane.set_raw_view(False)
    page = pane.page_editor
    page.ensure_current()
    card = _card_at(page, hit.card_start)
    if card is not None and _in_card(page, card, hit, query, options, in_card, in_field):
        return True
    return _anywhere(page, query, options, in_page)


def clear_marks(page: PageEditor) -> None:
    """Take the marks of the last place shown away."""
    for field in _marked.pop(page, []):
        if isValid(field):
            field.setExtraSelections([])


# ---------------------------------------------------------------------- finding the field
def _card_at(page: PageEditor, card_start: int) -> Card | None:
    text = page.text()
    if card_start > len(text):
        return None
    at = u16(text[:card_start])
    return next((c for c in page.cards if c.qstart == at), None)


def _in_card(
    page: PageEditor,
    card: Card,
    hit: Hit,
    query: str,
    options: SearchOptions,
    in_card: int,
    in_field: int,
) -> bool:
    card.ensure_built()
    if isinstance(card, BlockCard):
        where = hit.place
        if where.column:
            return _in_table(page, card, where.item - 1, where.column - 1)
        path: FieldPath = (
            ("meta", 0, where.key)
            if not where.item
            else (where.section or "items", where.item - 1, where.key)
        )
        widget = card.fields.get(path)
        field = _text_field(widget)
        if not isinstance(field, TextField):
            return False
        return _select(page, field, query, options, in_field)
    editor = getattr(card, "editor", None)
    if not isinstance(editor, TextField):
        return False
    return _select(page, editor, query, options, in_card)


def _in_table(page: PageEditor, card: BlockCard, row: int, column: int) -> bool:
    holder = card.findChild(DataTable)
    table: QTableWidget | None = holder.table if holder is not None else None
    if table is None or not (0 <= row < table.rowCount() and 0 <= column < table.columnCount()):
        return False
    table.setCurrentCell(row, column)
    table.setFocus()
    _reveal_field(page, table)
    return True


def _anywhere(page: PageEditor, query: str, options: SearchOptions, in_page: int) -> bool:
    """The ``in_page``-th place of the words, card by card (the last one there is, when the
    page now has fewer)."""
    last: tuple[TextField, int] | None = None
    seen = 0
    for card in page.cards:
        card.ensure_built()
        for widget in card.focus_widgets():
            field = _text_field(widget)
            if not isinstance(field, TextField):
                continue
            places = occurrences(_text_of(field), query, options)
            if seen + len(places) > in_page:
                return _select(page, field, query, options, in_page - seen)
            if places:
                last = (field, len(places) - 1)
            seen += len(places)
    if last is not None:
        return _select(page, last[0], query, options, last[1])
    page.verticalScrollBar().setValue(0)
    return False


def _in_settings(
    pane: EditorPane, hit: Hit, query: str, options: SearchOptions, in_field: int
) -> bool:
    name = _FORM_KEYS.get(hit.place.key)
    if name is not None:
        if pane.raw_view:
            pane.set_raw_view(False)
        field = getattr(pane.form, name)
        pane.form.show()
        return _select(pane.page_editor, field, query, options, in_field)
    # no field of its own in the form: the header lines of the page, where it is written
    pane.set_raw_view(True)
    pane.show_fm_button.setChecked(True)  # the header lines shown
    return _select(None, pane.editor, hit.words, options, 0, line_prefix=hit.place.key)


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


def _select(
    page: PageEditor | None,
    field: TextField,
    query: str,
    options: SearchOptions,
    nth: int,
    *,
    line_prefix: str = "",
) -> bool:
    """Select the ``nth`` place of ``query`` in ``field`` (the last one when there are fewer),
    mark it, give the field the keyboard and bring it into view."""
    text = _text_of(field)
    places = occurrences(text, query, options)
    if line_prefix:  # a page setting in the header lines: the words on that key's line
        line_at = text.find(f"\n{line_prefix}:")
        places = [p for p in places if p[0] > line_at >= 0] or places
    if not places:
        return False
    start, end = places[min(nth, len(places) - 1)]
    if isinstance(field, QLineEdit):
        field.setFocus()
        field.setSelection(start, end - start)
        if page is not None:
            _reveal_field(page, field)
        return True
    a, b = u16(text[:start]), u16(text[:end])
    cursor = QTextCursor(field.document())
    cursor.setPosition(a)
    cursor.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
    mark = QTextEdit.ExtraSelection()
    fmt = QTextCharFormat()
    fmt.setBackground(MARK)
    mark.cursor = cursor  # type: ignore[misc]
    mark.format = fmt  # type: ignore[misc]
    field.setExtraSelections([mark])
    field.setTextCursor(cursor)
    field.setFocus()
    _unmark_when_edited(field)
    if page is not None:
        _marked.setdefault(page, []).append(field)
        _reveal_place(page, field, cursor)
    else:
        field.ensureCursorVisible()
    return True


def _unmark_when_edited(field: QTextEdit | QPlainTextEdit) -> None:
    """The mark goes with the first change of the field's text (it marked the words found)."""

    def unmark() -> None:
        field.textChanged.disconnect(unmark)
        field.setExtraSelections([])

    field.textChanged.connect(unmark)


def _reveal_field(page: PageEditor, field: QWidget) -> None:
    """Scroll the page so ``field`` is well inside the view (a third of it above and below
    where there is room), once the column has laid its card out."""

    def now() -> None:
        if isValid(field) and field.isVisible() and page.column_widget.isAncestorOf(field):
            page.ensureWidgetVisible(field, 40, max(60, page.viewport().height() // 3))

    QTimer.singleShot(0, page, now)


def _reveal_place(page: PageEditor, field: QTextEdit | QPlainTextEdit, cursor: QTextCursor) -> None:
    """Scroll the page so the words are in view, once the column has laid the card out."""

    def now() -> None:
        if not (isValid(field) and field.isVisible()):
            return
        rect = field.cursorRect(cursor)
        at = field.viewport().mapTo(page.column_widget, rect.center())
        page.ensureVisible(at.x(), at.y(), 40, max(60, page.viewport().height() // 3))

    page.reveal(field)
    QTimer.singleShot(0, page, now)


def marked_fields(page: PageEditor) -> list[QWidget]:
    """The fields whose words are marked now (for tests and the hands probe)."""
    return [f for f in _marked.get(page, []) if isValid(f)]
