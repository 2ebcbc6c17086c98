"""What every card has: a header with its name (and picture), the card actions (move up and
down, add a text box or a block above or below, remove), their shortcuts and a context menu,
and the card's place in the document text (``qstart``/``qend``, QTextDocument positions).

A card never edits the document itself: it emits ``edited(card, new_text, typing)`` with the
whole new text of its own span, and the page editor turns that into one edit of the document
(so the document's single undo history records it)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QKeyCombination, QObject, Qt, Signal
from PySide6.QtGui import QAction, QContextMenuEvent, QKeyEvent, QKeySequence, QPixmap
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.pageedit.segments import CardSpan
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.shortcuts import PAGE_EDITOR, page_keys_text

MOVE_UP_KEYS = PAGE_EDITOR["cardUp"].keys
MOVE_DOWN_KEYS = PAGE_EDITOR["cardDown"].keys
REMOVE_KEYS = PAGE_EDITOR["cardRemove"].keys
ADD_TEXT_KEYS = PAGE_EDITOR["textBelow"].keys
CARD_KEYS = {
    MOVE_UP_KEYS: "up",
    MOVE_DOWN_KEYS: "down",
    REMOVE_KEYS: "remove",
    ADD_TEXT_KEYS: "text-below",
}


def is_undo(event: QKeyEvent) -> bool:
    return event.matches(QKeySequence.StandardKey.Undo)


def is_redo(event: QKeyEvent) -> bool:
    return event.matches(QKeySequence.StandardKey.Redo) or (
        event.key() == Qt.Key.Key_Y and event.modifiers() == Qt.KeyboardModifier.ControlModifier
    )


def card_action_for(event: QKeyEvent) -> str | None:
    """The card action of a key (Alt+Shift+↑ → "up"), or None."""
    mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    pressed = QKeySequence(QKeyCombination(mods, Qt.Key(event.key())))
    for keys, action in CARD_KEYS.items():
        if pressed.matches(QKeySequence(keys)) == QKeySequence.SequenceMatch.ExactMatch:
            return action
    return None


class UndoRouter(QObject):
    """Ctrl+Z / Ctrl+Y in a card's fields undo the document, not the field: one history for
    the cards and the raw view. The card keys (Alt+Shift+↑ …) in a field go to its card
    before the window sees them: the window's Document → 위로 옮기기 has the same key, and Qt
    runs neither of two shortcuts that match at once."""

    def __init__(
        self, undo: Callable[[], None], redo: Callable[[], None], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._undo = undo
        self._redo = redo

    def watch(self, widget: QWidget) -> None:
        for w in [widget, *widget.findChildren(QWidget)]:
            if isinstance(w, QLineEdit | QTextEdit | QPlainTextEdit):
                w.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        if not isinstance(event, QKeyEvent):
            return False
        action = card_action_for(event)
        if action is not None:
            card = _card_of(obj)
            if card is None:
                return False
            if kind == QEvent.Type.ShortcutOverride:
                event.accept()
            else:
                card._request(action)
            return True
        if not (is_undo(event) or is_redo(event)):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()
            return True
        (self._undo if is_undo(event) else self._redo)()
        return True


def _card_of(obj: QObject) -> Card | None:
    at: QObject | None = obj
    while at is not None and not isinstance(at, Card):
        at = at.parent()
    return at


class Card(QFrame):
    """One card of the page editor (see the module docstring)."""

    edited = Signal(object, str, bool)  # card, the span's new text, typing (joins undo steps)
    actionRequested = Signal(object, str)  # card; up, down, remove, text-/block-above/-below
    built = Signal(object)  # the card's fields exist now
    lookRequested = Signal()  # its text may now read as other cards: the page looks again
    kind = "card"

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("card")
        self.setProperty("cardKind", self.kind)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.source = ""
        self.qstart = 0
        self.qend = 0
        self.read_only = False
        self.is_built = False
        outer = QVBoxLayout(self)
        outer.setContentsMargins(10, 6, 10, 8)
        outer.setSpacing(4)
        head = QHBoxLayout()
        head.setSpacing(6)
        self._titles(head, title)
        self.buttons: dict[str, QToolButton] = {}
        for key, text, name, tip in (
            (
                "up",
                "▲",
                "cardUpButton",
                tr("Move this card up ({keys})", keys=page_keys_text("cardUp")),
            ),
            (
                "down",
                "▼",
                "cardDownButton",
                tr("Move this card down ({keys})", keys=page_keys_text("cardDown")),
            ),
            ("add", "＋", "cardAddButton", tr("Add a text box or a block here")),
            (
                "remove",
                "✕",
                "cardRemoveButton",
                tr("Remove this card ({keys})", keys=page_keys_text("cardRemove")),
            ),
        ):
            b = QToolButton()
            b.setObjectName(name)
            b.setText(text)
            b.setToolTip(tip)
            b.setAccessibleName(tip)
            b.setAutoRaise(True)
            # Tab goes from field to field and card to card; these have shortcuts and the
            # card's context menu (Shift+F10) for the keyboard
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            head.addWidget(b)
            self.buttons[key] = b
        self.buttons["up"].clicked.connect(lambda: self.actionRequested.emit(self, "up"))
        self.buttons["down"].clicked.connect(lambda: self.actionRequested.emit(self, "down"))
        self.buttons["remove"].clicked.connect(lambda: self.actionRequested.emit(self, "remove"))
        self.add_menu = QMenu(self)
        self._fill_add_menu(self.add_menu)
        self.buttons["add"].setMenu(self.add_menu)
        self.buttons["add"].setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        outer.addLayout(head)
        self.body = QVBoxLayout()
        self.body.setSpacing(4)
        outer.addLayout(self.body, 1)
        for keys, action in (
            (MOVE_UP_KEYS, "up"),
            (MOVE_DOWN_KEYS, "down"),
            (REMOVE_KEYS, "remove"),
            (ADD_TEXT_KEYS, "text-below"),
        ):
            a = QAction(self)
            a.setShortcut(QKeySequence(keys))
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            a.triggered.connect(lambda _c=False, k=action: self._request(k))
            self.addAction(a)

    def _titles(self, head: QHBoxLayout, title: str) -> None:
        """The card's picture (a block's look), its name and a line under it."""
        self.picture = QLabel()
        self.picture.setObjectName("cardPicture")
        self.picture.hide()
        head.addWidget(self.picture)
        titles = QVBoxLayout()
        titles.setSpacing(0)
        self.title = QLabel(title)
        self.title.setObjectName("cardTitle")
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.title.setWordWrap(True)  # a long name takes two lines in a narrow pane
        titles.addWidget(self.title)
        self.subtitle = QLabel("")
        self.subtitle.setObjectName("cardSubtitle")
        self.subtitle.setWordWrap(True)
        self.subtitle.hide()
        titles.addWidget(self.subtitle)
        head.addLayout(titles, 1)

    def _request(self, action: str) -> None:
        if not self.read_only:
            self.actionRequested.emit(self, action)

    def _fill_add_menu(self, menu: QMenu) -> None:
        for action, text in (
            ("text-above", tr("Text box above")),
            ("text-below", tr("Text box below ({keys})", keys=page_keys_text("textBelow"))),
            ("block-above", tr("Block above…")),
            ("block-below", tr("Block below…")),
        ):
            a = menu.addAction(text)
            a.setObjectName(f"cardAdd_{action}")
            a.triggered.connect(lambda _c=False, k=action: self.actionRequested.emit(self, k))

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 - Qt API
        if self.read_only:
            return
        menu = self.card_menu()
        menu.exec(event.globalPos())

    def card_menu(self) -> QMenu:
        menu = QMenu(self)
        menu.setObjectName("cardMenu")
        for action, text in (
            ("up", tr("Move this card up ({keys})", keys=page_keys_text("cardUp"))),
            ("down", tr("Move this card down ({keys})", keys=page_keys_text("cardDown"))),
        ):
            a = menu.addAction(text)
            a.triggered.connect(lambda _c=False, k=action: self.actionRequested.emit(self, k))
        menu.addSeparator()
        self._fill_add_menu(menu)
        menu.addSeparator()
        a = menu.addAction(tr("Remove this card ({keys})", keys=page_keys_text("cardRemove")))
        a.triggered.connect(lambda _c=False: self.actionRequested.emit(self, "remove"))
        return menu

    def set_picture(self, pixmap: QPixmap | None) -> None:
        if pixmap is None:
            self.picture.hide()
            return
        self.picture.setPixmap(pixmap)
        self.picture.show()

    def set_subtitle(self, text: str) -> None:
        self.subtitle.setText(text)
        self.subtitle.setVisible(bool(text))

    # --- its fields are made when first needed (a long page opens at once) ---
    def ensure_built(self) -> None:
        if self.is_built:
            return
        self.is_built = True
        self._build()
        if self.isVisible():
            # widgets added to a shown card appear only at the next turn of the event loop;
            # show them now, so the keyboard can go into them at once — but not its menus:
            # they are windows of their own, and an open menu takes every key
            for w in self.findChildren(QWidget):
                explicit = w.testAttribute(Qt.WidgetAttribute.WA_WState_ExplicitShowHide)
                if not w.isWindow() and not (w.isHidden() and explicit):
                    w.setVisible(True)
        self.set_read_only(self.read_only)
        self.built.emit(self)

    def _build(self) -> None:
        raise NotImplementedError

    # --- what the page editor asks of every card ---
    def set_source(self, source: str, segment: CardSpan) -> None:
        """The document's text of this card changed (undo, the raw view, a fix)."""
        raise NotImplementedError

    def focus_widgets(self) -> list[QWidget]:
        """The card's fields in Tab order."""
        raise NotImplementedError

    def focus_in(self, *, at_end: bool = False) -> None:
        self.ensure_built()
        widgets = self.focus_widgets()
        if widgets:
            (widgets[-1] if at_end else widgets[0]).setFocus(Qt.FocusReason.OtherFocusReason)

    def set_read_only(self, ro: bool) -> None:
        self.read_only = ro
        for b in self.buttons.values():
            b.setEnabled(not ro)

    def focus_offset(self) -> int:
        """Where the keyboard is in this card, as an offset into ``source`` (0: its start)."""
        return 0

    def show_offset(self, offset: int) -> None:
        """Put the keyboard at ``offset`` of ``source`` (as near as the card can)."""
        self.focus_in()
