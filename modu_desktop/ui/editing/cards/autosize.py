"""Text editors as tall as their text, so a card shows all of it and the page scrolls as one."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QSizePolicy, QTextEdit


class AutoHeight(QObject):
    """Keeps ``editor`` exactly as tall as its text (at least ``min_lines`` lines)."""

    def __init__(self, editor: QTextEdit, *, min_lines: float = 1.4) -> None:
        super().__init__(editor)
        self.editor = editor
        self.min_lines = min_lines
        editor.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        editor.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        editor.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        # one fit after a burst of changes (filling a card inserts piece by piece)
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(0)
        self._later.timeout.connect(self.fit)
        editor.document().contentsChanged.connect(self._later.start)
        editor.installEventFilter(self)
        self.fit()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.FontChange):
            self._later.start()
        return False

    def fit(self) -> None:
        self._later.stop()
        editor = self.editor
        doc = editor.document()
        width = editor.viewport().width()
        if width > 0:
            doc.setTextWidth(width)
        margins = editor.contentsMargins()
        height = int(doc.size().height()) + margins.top() + margins.bottom() + 2
        least = int(editor.fontMetrics().lineSpacing() * self.min_lines) + 8
        height = max(height, least)
        if editor.height() != height or editor.minimumHeight() != height:
            editor.setFixedHeight(height)
