"""Find and replace inside the cards: the words as the cards show them (a text box's text
without its marks, a block's fields, an original-text card), in page order, without leaving
the card view.

:class:`CardSearch` walks the cards' text fields in their Tab order (a text box, each field of
a block, an original-text card), finds the next or previous place of the words from the
current one and wraps around, marks every place in the text boxes (the current one stronger),
scrolls the current place into view, and replaces one place or all of them through the fields
themselves, so each card writes its own text back (one undoable edit of the document per card).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import QComboBox, QLineEdit, QPlainTextEdit, QTextEdit, QWidget
from shiboken6 import isValid

from modu_desktop.ui.editing.cards.page_editor import PageEditor

Field = QLineEdit | QTextEdit | QPlainTextEdit
ALL_MARK = QColor("#fff3b0")  # every place of the words
CURRENT_MARK = QColor("#ffb74d")  # the place found last
LINE_MARK_STYLE = "QLineEdit { background: #ffb74d; }"


@dataclass(frozen=True)
class FoundSpan:
    """The words found in ``field``, from ``start`` to ``end`` (positions in its text)."""

    field: Field
    start: int
    end: int


def _is_text(w: QWidget) -> bool:
    return isinstance(w, QLineEdit | QTextEdit | QPlainTextEdit)


class CardSearch:
    def __init__(self, page: PageEditor) -> None:
        self.page = page
        self.current: FoundSpan | None = None
        self._marked: list[Field] = []

    # ------------------------------------------------------------------ the fields
    def fields(self) -> list[Field]:
        """Every text field of the cards, in page order (cards made on the way)."""
        self.page.ensure_current()
        out: list[Field] = []
        for card in list(self.page.cards):
            for w in card.focus_widgets():
                target = w.lineEdit() if isinstance(w, QComboBox) else w
                if target is not None and _is_text(target):
                    out.append(target)  # type: ignore[arg-type]
        return out

    def origin(self) -> FoundSpan | None:
        """Where the keyboard is in the cards (the search starts there)."""
        focus = self.page.window().focusWidget() if self.page.window() is not None else None
        if focus is None or not self.page.isAncestorOf(focus):
            return None
        if isinstance(focus, QLineEdit):
            at = focus.cursorPosition()
            return FoundSpan(focus, at, at)
        if isinstance(focus, QTextEdit | QPlainTextEdit):
            cur = focus.textCursor()
            return FoundSpan(focus, cur.selectionStart(), cur.selectionEnd())
        return None

    def selected_text(self) -> str:
        """The text selected where the keyboard is (it becomes the words to find)."""
        here = self.origin()
        if here is None or here.start == here.end:
            return ""
        return _text_between(here.field, here.start, here.end)

    # ------------------------------------------------------------------ finding
    def find(
        self, needle: str, *, case: bool, backward: bool = False
    ) -> tuple[FoundSpan | None, bool]:
        """The next (previous) place of ``needle`` after the current one or the keyboard's
        place; True when the search went round the end of the page."""
        fields = self.fields()
        if not needle or not fields:
            return None, False
        here = self.current if self._alive(self.current) else self.origin()
        at: int | None = None  # None: the whole field
        if here is None or here.field not in fields:
            index = len(fields) - 1 if backward else 0
        else:
            index = fields.index(here.field)
            at = here.start if backward else here.end
        for step, i in enumerate(_round(len(fields), index, backward)):
            found = _find_in(fields[i], needle, at if step == 0 else None, case, backward)
            if found is not None:
                self.current = FoundSpan(fields[i], *found)
                wrapped = step > 0 and (i >= index if backward else i <= index)
                return self.current, wrapped
        self.current = None
        return None, False

    def _alive(self, place: FoundSpan | None) -> bool:
        return place is not None and isValid(place.field) and place.field.isVisible()

    # ------------------------------------------------------------------ showing
    def mark(self, needle: str, *, case: bool) -> None:
        """Every place of ``needle`` in the text boxes marked, the current one stronger; the
        current one scrolled into view."""
        self.clear_marks()
        fields = self.fields() if needle else []
        for field in fields:
            if isinstance(field, QLineEdit):
                if self.current is not None and self.current.field is field:
                    field.setStyleSheet(LINE_MARK_STYLE)
                    self._marked.append(field)
                continue
            selections: list[QTextEdit.ExtraSelection] = []
            for a, b in _all_in(field, needle, case):
                current = self.current
                strong = current is not None and current.field is field and current.start == a
                selections.append(_selection(field, a, b, CURRENT_MARK if strong else ALL_MARK))
            if selections:
                field.setExtraSelections(selections)
                self._marked.append(field)
        self.reveal()

    def clear_marks(self) -> None:
        for field in self._marked:
            if not isValid(field):
                continue
            if isinstance(field, QLineEdit):
                field.setStyleSheet("")
            else:
                field.setExtraSelections([])
        self._marked = []

    def reveal(self) -> None:
        """Scroll the page so the current place is in view."""
        place = self.current
        if not self._alive(place):
            return
        assert place is not None
        field = place.field
        column = self.page.column_widget
        if isinstance(field, QLineEdit):
            self.page.ensureWidgetVisible(field, 40, 80)
            return
        cur = QTextCursor(field.document())
        cur.setPosition(place.start)
        rect = field.cursorRect(cur)
        at = field.viewport().mapTo(column, rect.center())
        self.page.ensureVisible(at.x(), at.y(), 40, 120)

    def put_keyboard_there(self) -> bool:
        """The keyboard goes to the current place, the words selected (the bar closed)."""
        place = self.current
        if not self._alive(place):
            return False
        assert place is not None
        field = place.field
        if isinstance(field, QLineEdit):
            field.setSelection(place.start, place.end - place.start)
        else:
            cur = QTextCursor(field.document())
            cur.setPosition(place.start)
            cur.setPosition(place.end, QTextCursor.MoveMode.KeepAnchor)
            field.setTextCursor(cur)
        field.setFocus()
        return True

    # ------------------------------------------------------------------ replacing
    def replace_current(self, needle: str, replacement: str, *, case: bool) -> bool:
        """Replace the current place if it still holds the words."""
        place = self.current
        if self.page.read_only or not self._alive(place):
            return False
        assert place is not None
        if not _same(_text_between(place.field, place.start, place.end), needle, case):
            return False
        _replace_in(place.field, [(place.start, place.end)], replacement)
        self.current = FoundSpan(place.field, place.start, place.start + len(replacement))
        return True

    def replace_all(self, needle: str, replacement: str, *, case: bool) -> int:
        if self.page.read_only or not needle:
            return 0
        count = 0
        for field in self.fields():
            if not isValid(field):
                continue
            places = _all_in(field, needle, case)
            if places:
                _replace_in(field, places, replacement)
                count += len(places)
        self.current = None
        return count


# ---------------------------------------------------------------------- one field


def _same(a: str, b: str, case: bool) -> bool:
    return a == b if case else a.casefold() == b.casefold()


def _text_between(field: Field, start: int, end: int) -> str:
    if isinstance(field, QLineEdit):
        return field.text()[start:end]
    cur = QTextCursor(field.document())
    cur.setPosition(start)
    cur.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    return str(cur.selectedText())


def _find_in(
    field: Field, needle: str, at: int | None, case: bool, backward: bool
) -> tuple[int, int] | None:
    """The first place of ``needle`` from ``at`` (None: the whole field) in one direction."""
    if isinstance(field, QLineEdit):
        text, word = field.text(), needle
        if not case:
            text, word = text.lower(), needle.lower()
        if backward:
            limit = len(text) if at is None else at
            i = text.rfind(word, 0, limit)
        else:
            i = text.find(word, 0 if at is None else at)
        return (i, i + len(needle)) if i >= 0 else None
    flags = QTextDocument.FindFlag(0)
    if case:
        flags |= QTextDocument.FindFlag.FindCaseSensitively
    doc = field.document()
    if backward:
        flags |= QTextDocument.FindFlag.FindBackward
        start = doc.characterCount() - 1 if at is None else at
    else:
        start = 0 if at is None else at
    found = doc.find(needle, start, flags)
    if found.isNull():
        return None
    return found.selectionStart(), found.selectionEnd()


def _all_in(field: Field, needle: str, case: bool) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    at = 0
    while (found := _find_in(field, needle, at, case, False)) is not None:
        out.append(found)
        at = max(found[1], found[0] + 1)
    return out


def _replace_in(field: Field, places: list[tuple[int, int]], replacement: str) -> None:
    """Replace ``places`` (in order) with ``replacement``, as one change of the field that
    its card hears as typing (a line edit's ``textEdited``, a text box's contents)."""
    if isinstance(field, QLineEdit):
        text = field.text()
        for a, b in reversed(places):
            text = text[:a] + replacement + text[b:]
        field.selectAll()
        field.insert(text)
        return
    cur = QTextCursor(field.document())
    cur.beginEditBlock()
    for a, b in reversed(places):
        cur.setPosition(a)
        cur.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
        cur.insertText(replacement)
    cur.endEditBlock()


def _selection(
    field: QTextEdit | QPlainTextEdit, a: int, b: int, colour: QColor
) -> QTextEdit.ExtraSelection:
    sel = QTextEdit.ExtraSelection()
    cur = QTextCursor(field.document())
    cur.setPosition(a)
    cur.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
    fmt = QTextCharFormat()
    fmt.setBackground(colour)
    sel.cursor = cur  # type: ignore[misc]
    sel.format = fmt  # type: ignore[misc]
    return sel


def _round(n: int, index: int, backward: bool) -> list[int]:
    """The fields to look in from ``index``, round the page, back to ``index`` itself."""
    step = -1 if backward else 1
    return [(index + step * k) % n for k in range(n)] + [index]
