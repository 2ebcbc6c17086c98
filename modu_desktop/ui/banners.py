"""Coloured message bars shown above the editor or the whole window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget


class Banner(QFrame):
    """A label with optional buttons; ``kind`` (info/warning/error/practice) styles it via QSS."""

    def __init__(self, object_name: str, kind: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(object_name)
        self.setProperty("kind", kind)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._lay = QHBoxLayout(self)
        self._lay.setContentsMargins(10, 6, 10, 6)
        self.label = QLabel("")
        self.label.setObjectName(object_name + "Text")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._lay.addWidget(self.label, 1)
        self.buttons: dict[str, QPushButton] = {}

    def set_kind(self, kind: str) -> None:
        self.setProperty("kind", kind)
        self.style().unpolish(self)
        self.style().polish(self)

    def set_text(self, text: str) -> None:
        self.label.setText(text)
        self.setAccessibleName(text)

    def add_button(self, key: str, label: str, accessible: str | None = None) -> QPushButton:
        b = QPushButton(label)
        b.setObjectName(key)
        b.setAccessibleName(accessible or label.replace("&", ""))
        self._lay.addWidget(b)
        self.buttons[key] = b
        return b
