"""Coloured message bars shown above the editor or the whole window, and status-bar labels
coloured the same way."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QMouseEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPushButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.ui.kit.flow_layout import FlowLayout


class Banner(QFrame):
    """A label with optional buttons; ``kind`` (info/warning/error/practice) styles it via QSS.
    With ``buttons_below`` the buttons go under the text and wrap onto a second row when the
    banner is narrow (four actions on the lost-lock banner at 800 px)."""

    def __init__(
        self,
        object_name: str,
        kind: str,
        parent: QWidget | None = None,
        *,
        buttons_below: bool = False,
    ) -> None:
        super().__init__(parent)
        self.setObjectName(object_name)
        self.setProperty("kind", kind)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        outer: QBoxLayout = QVBoxLayout(self) if buttons_below else QHBoxLayout(self)
        outer.setContentsMargins(10, 6, 10, 6)
        self.label = QLabel("")
        self.label.setObjectName(object_name + "Text")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.label, 1)
        self._lay: QLayout = outer
        if buttons_below:
            self._lay = FlowLayout()
            outer.addLayout(self._lay)
        self.buttons: dict[str, QPushButton] = {}
        self._per_message: list[QPushButton] = []  # shown only with the message that offers them
        self.topic: str | None = None  # what the shown message is about (see resolve)
        self._source: Callable[[], str] | None = None  # a text that says "how long ago"
        self._bare: str | Callable[[], str] = ""  # the text without its prefix
        self._prefix = ""

    def set_kind(self, kind: str) -> None:
        self.setProperty("kind", kind)
        self.style().unpolish(self)
        self.style().polish(self)

    def set_text(self, text: str | Callable[[], str]) -> None:
        """Show ``text``; a callable is asked again by :meth:`refresh_text` (a text with
        "방금" or "3분 전" in it stays true as time goes by)."""
        self._bare, self._prefix = text, ""
        self._display(text)

    def _display(self, text: str | Callable[[], str]) -> None:
        self._source = None if isinstance(text, str) else text
        self._put(text if isinstance(text, str) else text())

    def _put(self, text: str) -> None:
        self.label.setText(text)
        self.setAccessibleName(text)

    def refresh_text(self) -> None:
        if self._source is not None and not self.isHidden():
            self._put(self._source())

    def prefix(self, prefix: str) -> None:
        """Put ``prefix`` before the text shown, keeping it a text that refreshes. A new
        prefix takes the place of the one before ("저장하지 못했습니다." then "여기서는 저장할
        수 없습니다." would say the same thing twice)."""
        if prefix == self._prefix:
            return
        bare = self._bare
        self._prefix = prefix
        if callable(bare):
            self._display(lambda: f"{prefix} {bare()}")
        else:
            self._display(f"{prefix} {bare}")

    def show_message(
        self, text: str | Callable[[], str], kind: str, topic: str | None = None
    ) -> None:
        """Show ``text``; ``topic`` names what it is about, so that the success that resolves
        it (a later upload, the connection coming back, the document closing) can take it
        away."""
        self.set_text(text)
        self.set_kind(kind)
        self.topic = topic
        for b in self._per_message:  # another message: another offer
            b.hide()
        self.show()

    def resolve(self, *topics: str) -> bool:
        """Hide the message if it is about one of ``topics`` (it is no longer true)."""
        if self.topic is not None and self.topic in topics and not self.isHidden():
            self.hide()
            self.topic = None
            return True
        return False

    def add_button(
        self, key: str, label: str, accessible: str | None = None, *, per_message: bool = False
    ) -> QPushButton:
        """A button on the banner; ``per_message``: hidden by every new message (the caller
        shows it with the message that offers it)."""
        b = QPushButton(label)
        b.setObjectName(key)
        b.setAccessibleName(accessible or label.replace("&", ""))
        self._lay.addWidget(b)
        self.buttons[key] = b
        if per_message:
            b.hide()
            self._per_message.append(b)
        return b


def show_state(label: QLabel, text: str, kind: str) -> None:
    """A status-bar label's text and its ``kind`` (ok/info/warning/error, styled by QSS)."""
    label.setText(text)
    label.setProperty("kind", kind)
    label.style().unpolish(label)
    label.style().polish(label)


class ElidedLabel(QLabel):
    """A one-line label for the status bar that never cuts a sentence off unseen: where the
    window is too narrow (800 px) it ends in "…", and the whole sentence is its tooltip and is
    shown on a click. ``text()`` is always the whole sentence."""

    MIN_WIDTH = 60

    def setText(self, text: str) -> None:  # noqa: N802 - Qt API
        super().setText(text)
        self.setToolTip(text)

    def shown_text(self) -> str:
        """What is on screen: the sentence, or as much of it as fits, ending in "…"."""
        width = self.contentsRect().width()
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, width)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.MIN_WIDTH), hint.height())

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        painter = QPainter(self)
        self.style().drawItemText(
            painter,
            self.contentsRect(),
            int(self.alignment()),
            self.palette(),
            self.isEnabled(),
            self.shown_text(),
            QPalette.ColorRole.WindowText,
        )

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if self.shown_text() != self.text():
            QToolTip.showText(event.globalPosition().toPoint(), self.text(), self)
        super().mousePressEvent(event)
