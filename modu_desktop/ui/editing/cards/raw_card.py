"""The "원문" card: text the cards cannot show (code, an unknown block, components, a table or
list written in a way a card would change) as it is written, editable as text, never rewritten.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QLabel, QTextEdit, QWidget

from modu_desktop.core.pageedit.segments import CardSpan
from modu_desktop.i18n import tr
from modu_desktop.ui.editing.cards.autosize import AutoHeight
from modu_desktop.ui.editing.cards.base import Card
from modu_desktop.ui.kit.editor_text import raw_text


class RawCard(Card):
    kind = "raw"

    def __init__(self, source: str, parent: QWidget | None = None) -> None:
        super().__init__(tr("Original text"), parent)
        self.set_subtitle(
            tr(
                "A part the cards cannot show. It stays exactly as written; "
                "you can still change the text here."
            )
        )
        self.source = source
        self.hint = QLabel("")
        self._filling = False
        self._edited = False

    def _build(self) -> None:
        self.editor = QTextEdit()
        self.editor.setObjectName("rawCardText")
        self.editor.setAccessibleName(tr("Original text"))
        self.editor.setAcceptRichText(False)
        self.editor.setUndoRedoEnabled(False)
        self.editor.setTabChangesFocus(True)
        self.editor.setLineWrapMode(QTextEdit.LineWrapMode.WidgetWidth)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.editor.setFont(font)
        self.body.addWidget(self.editor)
        self.sizer = AutoHeight(self.editor)
        self.editor.textChanged.connect(self._changed)
        self.editor.installEventFilter(self)
        self._fill(self.source)

    def _fill(self, source: str) -> None:
        self._filling = True
        try:
            self.source = source
            self.editor.setPlainText(source)
        finally:
            self._filling = False

    def _changed(self) -> None:
        if self._filling or self.read_only:
            return
        self._edited = True
        self.edited.emit(self, raw_text(self.editor.document()), True)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.FocusOut and self._edited:
            # what was typed may be a block or text a card can hold now
            self._edited = False
            self.lookRequested.emit()
        return False

    def set_source(self, source: str, segment: CardSpan) -> None:
        if not self.is_built:
            self.source = source
            return
        if source == raw_text(self.editor.document()):
            self.source = source
            return
        pos = self.editor.textCursor().position()
        self._fill(source)
        cur = self.editor.textCursor()
        cur.setPosition(min(pos, len(source)))
        self.editor.setTextCursor(cur)

    def focus_widgets(self) -> list[QWidget]:
        self.ensure_built()
        return [self.editor]

    def set_read_only(self, ro: bool) -> None:
        super().set_read_only(ro)
        if self.is_built:
            self.editor.setReadOnly(ro)

    def focus_offset(self) -> int:
        if not self.is_built:
            return 0
        return self.editor.textCursor().position() if self.editor.hasFocus() else 0

    def show_offset(self, offset: int) -> None:
        self.ensure_built()
        cur = self.editor.textCursor()
        cur.setPosition(max(0, min(offset, self.editor.document().characterCount() - 1)))
        self.editor.setTextCursor(cur)
        self.editor.setFocus()
