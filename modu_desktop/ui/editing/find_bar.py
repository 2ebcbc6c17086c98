"""Find / replace bar under the editor (Ctrl+F, Ctrl+H, F3 / Shift+F3, Esc closes).

In the card view it searches the cards as they read (:mod:`.card_find`: the place scrolled into
view, every place marked) and the page stays as cards; in 원문 편집 it searches the Markdown."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)

from modu_desktop.i18n import tr
from modu_desktop.ui.editing.card_find import CardSearch
from modu_desktop.ui.kit.preedit import commit_preedit, install_preedit_tracker
from modu_desktop.ui.kit.shortcuts import keys_text


class FindBar(QWidget):
    closed = Signal()

    def __init__(self, editor: QPlainTextEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("findBar")
        self._editor = editor
        self.before_open: Callable[[], None] | None = None  # e.g. show the editor it searches
        self.cards: CardSearch | None = None  # the card view's search, when there is one
        self.in_cards: Callable[[], bool] = lambda: False  # the card view is showing
        grid = QGridLayout(self)
        grid.setContentsMargins(4, 2, 4, 2)
        grid.setVerticalSpacing(2)

        self.find_label = QLabel(tr("Fi&nd:"))
        self.find_edit = QLineEdit()
        self.find_edit.setObjectName("findEdit")
        self.find_edit.setAccessibleName(tr("Text to find"))
        self.find_label.setBuddy(self.find_edit)
        self.replace_label = QLabel(tr("Replace &with:"))
        self.replace_edit = QLineEdit()
        self.replace_edit.setObjectName("replaceEdit")
        self.replace_edit.setAccessibleName(tr("Replacement text"))
        self.replace_label.setBuddy(self.replace_edit)
        self.case_box = QCheckBox(tr("Match ca&se"))
        self.case_box.setAccessibleName(tr("Match case"))
        self.prev_button = QPushButton(tr("Previous"))
        self.prev_button.setAccessibleName(tr("Find previous"))
        self.prev_button.setToolTip(tr("Find previous ({keys})", keys=keys_text("findPrevious")))
        self.next_button = QPushButton(tr("Ne&xt"))
        self.next_button.setAccessibleName(tr("Find next"))
        self.next_button.setToolTip(tr("Find next ({keys})", keys=keys_text("findNext")))
        self.replace_button = QPushButton(tr("Re&place"))
        self.replace_button.setObjectName("replaceButton")
        self.replace_button.setAccessibleName(tr("Replace"))
        self.replace_all_button = QPushButton(tr("Replace &all"))
        self.replace_all_button.setObjectName("replaceAllButton")
        self.replace_all_button.setAccessibleName(tr("Replace all"))
        self.status = QLabel("")
        self.status.setObjectName("findStatus")
        self.close_button = QPushButton(tr("Close"))
        self.close_button.setAccessibleName(tr("Close find bar"))
        self.close_button.setToolTip(tr("Close (Esc)"))

        # Two rows (find; replace), the text boxes taking the room: in one row with nine
        # buttons the boxes were squeezed to a few characters.
        grid.addWidget(self.find_label, 0, 0)
        grid.addWidget(self.find_edit, 0, 1)
        grid.addWidget(self.prev_button, 0, 2)
        grid.addWidget(self.next_button, 0, 3)
        grid.addWidget(self.case_box, 0, 4)
        grid.addWidget(self.close_button, 0, 5)
        grid.addWidget(self.replace_label, 1, 0)
        grid.addWidget(self.replace_edit, 1, 1)
        grid.addWidget(self.replace_button, 1, 2)
        grid.addWidget(self.replace_all_button, 1, 3)
        grid.addWidget(self.status, 1, 4, 1, 2)
        grid.setColumnStretch(1, 1)
        for edit in (self.find_edit, self.replace_edit):
            edit.setMinimumWidth(edit.fontMetrics().horizontalAdvance("가") * 10)

        self.find_edit.returnPressed.connect(self.find_next)
        self.replace_edit.returnPressed.connect(self.replace_one)
        self.next_button.clicked.connect(self.find_next)
        self.prev_button.clicked.connect(self.find_previous)
        self.replace_button.clicked.connect(self.replace_one)
        self.replace_all_button.clicked.connect(self.replace_all)
        self.close_button.clicked.connect(self.close_bar)
        esc = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        esc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        esc.activated.connect(self.close_bar)
        for w in (self.find_edit, self.replace_edit):
            w.installEventFilter(self)
            install_preedit_tracker().watch(w)
        self.hide()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
        ):
            self.close_bar()
            return True
        return super().eventFilter(obj, event)

    def set_read_only(self, read_only: bool) -> None:
        for w in (
            self.replace_label,
            self.replace_edit,
            self.replace_button,
            self.replace_all_button,
        ):
            w.setVisible(not read_only)

    def _card_search(self) -> CardSearch | None:
        return self.cards if self.cards is not None and self.in_cards() else None

    def open_find(self, replace: bool = False) -> None:
        if self.before_open is not None:
            self.before_open()
        cards = self._card_search()
        if cards is not None:
            sel = cards.selected_text()
            cards.current = cards.origin()  # the search starts where the keyboard is
        else:
            sel = self._editor.textCursor().selectedText()
        self.show()
        if sel and "\u2029" not in sel and "\u2028" not in sel:
            self.find_edit.setText(sel)
        target = self.replace_edit if replace and self.replace_edit.isVisible() else self.find_edit
        target.setFocus()
        target.selectAll()

    def close_bar(self) -> None:
        self.hide()
        self.status.clear()
        cards = self._card_search()
        if cards is not None:
            cards.clear_marks()
            if not cards.put_keyboard_there():  # at the words found, else where it was
                cards.page.focus_first()
        else:
            if self.cards is not None:
                self.cards.clear_marks()
            self._editor.setFocus()
        self.closed.emit()

    def _flags(self, backward: bool = False) -> QTextDocument.FindFlag:
        flags = QTextDocument.FindFlag(0)
        if self.case_box.isChecked():
            flags |= QTextDocument.FindFlag.FindCaseSensitively
        if backward:
            flags |= QTextDocument.FindFlag.FindBackward
        return flags

    def _find(self, backward: bool) -> bool:
        commit_preedit()
        needle = self.find_edit.text()
        if not needle:
            return False
        cards = self._card_search()
        if cards is not None:
            case = self.case_box.isChecked()
            place, wrapped = cards.find(needle, case=case, backward=backward)
            cards.mark(needle, case=case)
            if place is None:
                self.status.setText(tr("Not found"))
            elif wrapped:
                self.status.setText(tr("Wrapped around"))
            else:
                self.status.clear()
            return place is not None
        if self._editor.find(needle, self._flags(backward)):
            self.status.clear()
            return True
        # wrap around
        cur = self._editor.textCursor()
        cur.movePosition(
            QTextCursor.MoveOperation.End if backward else QTextCursor.MoveOperation.Start
        )
        self._editor.setTextCursor(cur)
        if self._editor.find(needle, self._flags(backward)):
            self.status.setText(tr("Wrapped around"))
            return True
        self.status.setText(tr("Not found"))
        return False

    def find_next(self) -> bool:
        return self._find(False)

    def find_previous(self) -> bool:
        return self._find(True)

    def _matches(self, text: str) -> bool:
        needle = self.find_edit.text()
        if self.case_box.isChecked():
            return text == needle
        return text.casefold() == needle.casefold()

    def replace_one(self) -> None:
        commit_preedit()  # both boxes as typed, the last syllable included
        if self._editor.isReadOnly() or not self.find_edit.text():
            return
        cards = self._card_search()
        if cards is not None:
            case = self.case_box.isChecked()
            needle, replacement = self.find_edit.text(), self.replace_edit.text()
            # 바꾸기 replaces one: the words found last, else the next ones (found first)
            if cards.replace_current(needle, replacement, case=case) or (
                self.find_next() and cards.replace_current(needle, replacement, case=case)
            ):
                self.find_next()
            return
        cur = self._editor.textCursor()
        if cur.hasSelection() and self._matches(cur.selectedText()):
            cur.insertText(self.replace_edit.text())
        self.find_next()

    def replace_all(self) -> int:
        commit_preedit()
        if self._editor.isReadOnly() or not self.find_edit.text():
            return 0
        cards = self._card_search()
        if cards is not None:
            case = self.case_box.isChecked()
            count = cards.replace_all(self.find_edit.text(), self.replace_edit.text(), case=case)
            cards.mark(self.find_edit.text(), case=case)
            self.status.setText(tr("{n} replaced", n=count))
            return count
        doc = self._editor.document()
        cursor = QTextCursor(doc)
        count = 0
        edit = QTextCursor(doc)
        edit.beginEditBlock()
        while True:
            cursor = doc.find(self.find_edit.text(), cursor, self._flags())
            if cursor.isNull():
                break
            cursor.insertText(self.replace_edit.text())
            count += 1
        edit.endEditBlock()
        self.status.setText(tr("{n} replaced", n=count))
        return count
