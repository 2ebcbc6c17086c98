"""The page editor (``pageEditor``): the open document as a column of cards, in page order.

The document text (the raw editor's ``QTextDocument``) is the truth; the cards are a view of it.
:func:`modu_desktop.core.pageedit.segments.split_cards` cuts it into cards; a card edit
becomes one edit of the document over that card's span only (consecutive typing in one card
joins one undo step), so the document's undo history is the one history of both views, and
drafts, saving, the preview and the publish check see every change as they always did. Any
other change of the document (the raw view, undo, a publish-check fix, "take theirs") makes
the page look again: its :class:`~.arranger.CardArranger` keeps the cards whose text did not
change as they are (with the keyboard in them) and refreshes or makes anew the others, which
this editor wires to its edits and card actions.

Cards can be added above or below any card (a text box, or a block from the block picker),
moved up and down, and removed; removing says so with a 되돌리기 button (Ctrl+Z works too).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from modu_desktop.core.brochure.catalog import spec_for
from modu_desktop.core.pageedit.model import InlinePicture, Paragraph
from modu_desktop.core.pageedit.reading import from_markdown
from modu_desktop.core.pageedit.segments import CardSpan
from modu_desktop.i18n import tr
from modu_desktop.ui.editing.cards.arranger import CardArranger
from modu_desktop.ui.editing.cards.base import Card, UndoRouter
from modu_desktop.ui.editing.cards.block_card import BlockCard
from modu_desktop.ui.editing.cards.picture_dialog import PictureDialog
from modu_desktop.ui.editing.cards.positions import Positions, string_offset, u16
from modu_desktop.ui.editing.cards.raw_card import RawCard
from modu_desktop.ui.editing.cards.text_card import ImageSource, TextCard
from modu_desktop.ui.kit.editor_text import raw_text

TYPING_JOIN_SECONDS = 2.0


class PageEditor(QScrollArea):
    """The column of cards over ``document`` (see the module docstring)."""

    cardsRebuilt = Signal()

    def __init__(self, document: QTextDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pageEditor")
        self.setAccessibleName(tr("Page editor"))
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        # A click on something that takes no focus (a card's tool, its title, the gap between
        # cards) gives the focus to the nearest ancestor that takes clicks: a scroll area does
        # by default, and the text box the person was typing in lost the keyboard to it.
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.doc = document
        self.read_only = False
        self.image_source: ImageSource | None = None
        self.picture_provider: Callable[[TextCard], object] | None = None
        self.block_picker: Callable[[Callable[[str], None]], None] | None = None
        self._applying = False
        self._dirty = True
        self._last_typing: tuple[Card, int, float] | None = None
        self.router = UndoRouter(self.undo, self.redo, self)

        inner = QWidget()
        inner.setObjectName("pageEditorColumn")
        self.column = QVBoxLayout(inner)
        self.column.setContentsMargins(12, 10, 12, 10)
        self.column.setSpacing(10)
        self.notice = QFrame()
        self.notice.setObjectName("pageEditorNotice")
        row = QHBoxLayout(self.notice)
        row.setContentsMargins(8, 4, 8, 4)
        self.notice_text = QLabel("")
        self.notice_text.setObjectName("pageEditorNoticeText")
        row.addWidget(self.notice_text, 1)
        self.undo_button = QPushButton(tr("Undo"))
        self.undo_button.setObjectName("pageEditorUndoButton")
        self.undo_button.setAccessibleName(tr("Undo the removal"))
        self.undo_button.clicked.connect(self._undo_removal)
        row.addWidget(self.undo_button)
        self.notice.hide()
        self.column.addWidget(self.notice)
        self.empty_hint = QLabel(
            tr("This page is empty. Add a text box or a block to start writing.")
        )
        self.empty_hint.setObjectName("pageEditorEmpty")
        self.empty_hint.setWordWrap(True)
        self.empty_hint.hide()
        self.column.addWidget(self.empty_hint)
        bottom = QHBoxLayout()
        self.add_text_button = QPushButton(tr("＋ Text box"))
        self.add_text_button.setObjectName("addTextCardButton")
        self.add_text_button.setAccessibleName(tr("Add a text box at the end of the page"))
        self.add_text_button.clicked.connect(lambda: self.add_text(None, "end"))
        self.add_block_button = QPushButton(tr("＋ Block…"))
        self.add_block_button.setObjectName("addBlockCardButton")
        self.add_block_button.setAccessibleName(tr("Add a block at the end of the page"))
        self.add_block_button.clicked.connect(lambda: self.ask_block(None, "end"))
        bottom.addWidget(self.add_text_button)
        bottom.addWidget(self.add_block_button)
        bottom.addStretch(1)
        self.column.addLayout(bottom)
        self.column.addStretch(1)
        self.setWidget(inner)
        self.column_widget = inner

        self.arranger = CardArranger(
            self.column,
            self.empty_hint,
            (self.add_text_button, self.add_block_button),
            self._make,
            self,
        )
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.reconcile)
        self.doc.contentsChange.connect(self._document_changed)

    # ------------------------------------------------------------------ the document
    @property
    def cards(self) -> list[Card]:
        """The cards in page order."""
        return self.arranger.cards

    def text(self) -> str:
        return raw_text(self.doc)

    def _document_changed(self, _pos: int, _removed: int, _added: int) -> None:
        # "Removed …  [Undo]" is true only while the removal is the last change: after an undo
        # (Ctrl+Z, Edit → Undo) or another edit its button would undo something else
        self.hide_notice()
        if self._applying:
            return
        self._dirty = True
        self._last_typing = None
        if self.isVisible():
            self._timer.start()

    def showEvent(self, event: object) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)  # type: ignore[arg-type]
        if self._dirty:
            self.reconcile()

    def look_soon(self) -> None:
        """Look at the document again after this turn of the event loop."""
        self._dirty = True
        self._timer.start()

    def ensure_current(self) -> None:
        """Look at the document now if it changed since the cards were made."""
        if self._dirty:
            self.reconcile()

    def reconcile(self) -> None:
        """Make the cards match the document (see the module docstring)."""
        self._timer.stop()
        self._dirty = False
        column = self.column_widget
        column.setUpdatesEnabled(False)
        try:
            self.arranger.match(self.text(), self.current_card())
        finally:
            column.setUpdatesEnabled(True)
        self.cardsRebuilt.emit()

    def build_all(self) -> None:
        """Make every card's fields now (they are otherwise made a few at a time)."""
        self.arranger.build_all()

    # ------------------------------------------------------------------ making cards
    def _make(self, segment: CardSpan, source: str) -> Card:
        card: Card
        if segment.kind == "block":
            card = BlockCard(source)
        elif segment.kind == "text":
            card = self._text_card(source, segment)
        else:
            card = RawCard(source)
        self._connect(card)
        return card

    def _text_card(self, source: str, segment: CardSpan | None) -> TextCard:
        card = TextCard(source, segment.blocks if segment is not None else ())
        card.set_image_source(self.image_source)
        card.pictureRequested.connect(self._picture_for)
        card.undoRequested.connect(self.undo)
        card.redoRequested.connect(self.redo)
        return card

    def _connect(self, card: Card) -> None:
        card.edited.connect(self.apply)
        card.lookRequested.connect(self.look_soon)
        card.actionRequested.connect(self._card_action)
        card.built.connect(self._card_built)
        card.set_read_only(self.read_only)

    def _card_built(self, card: Card) -> None:
        self.router.watch(card)
        self.arranger.chain_soon()

    # ------------------------------------------------------------------ edits from cards
    def apply(self, card: Card, new: str, typing: bool = False) -> None:
        """``card``'s span of the document becomes ``new`` (one undoable edit)."""
        if self.read_only or card not in self.cards:
            return
        pending = getattr(card, "pending", False)
        old = card.source
        if new == old and not pending:
            return
        if pending:
            if not new:
                return
            before = self.text()
            start = string_offset(before, card.qstart)
            pre, post = _separators(before[:start], before[start:])
            old, new = "", pre + new + post
        a = 0
        while a < min(len(old), len(new)) and old[a] == new[a]:
            a += 1
        b_old, b_new = len(old), len(new)
        while b_old > a and b_new > a and old[b_old - 1] == new[b_new - 1]:
            b_old -= 1
            b_new -= 1
        qa, qb = card.qstart + u16(old[:a]), card.qstart + u16(old[:b_old])
        now = time.monotonic()
        last = self._last_typing
        join = (
            typing
            and last is not None
            and last[0] is card
            and last[1] == self.doc.availableUndoSteps()
            and now - last[2] < TYPING_JOIN_SECONDS
        )
        cursor = QTextCursor(self.doc)
        self._applying = True
        try:
            if join:
                cursor.joinPreviousEditBlock()
            else:
                cursor.beginEditBlock()
            cursor.setPosition(qa)
            cursor.setPosition(qb, QTextCursor.MoveMode.KeepAnchor)
            cursor.insertText(new[a:b_new])
            cursor.endEditBlock()
        finally:
            self._applying = False
        delta = u16(new) - u16(old)
        if pending:
            card.pending = False  # type: ignore[attr-defined]
            card.qstart += u16(pre)
            card.qend = card.qstart + u16(new) - u16(pre) - u16(post)
            card.source = new[len(pre) : len(new) - len(post)]
        else:
            card.source = new
            card.qend += delta
        index = self.cards.index(card)
        for later in self.cards[index + 1 :]:
            later.qstart += delta
            later.qend += delta
        self._last_typing = (card, self.doc.availableUndoSteps(), now) if typing else None
        self.hide_notice()

    def _replace(self, qa: int, qb: int, text: str) -> None:
        """One undoable edit of the document, after which the page looks again."""
        cursor = QTextCursor(self.doc)
        cursor.beginEditBlock()
        cursor.setPosition(qa)
        cursor.setPosition(qb, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(text)
        cursor.endEditBlock()
        self._last_typing = None
        self.reconcile()

    # ------------------------------------------------------------------ keeping it in view
    def reveal(self, widget: QWidget, margin: int = 40) -> None:
        """Scroll ``widget`` into view once the column has laid it out: a card or item made
        just now has no place yet, and scrolling to it at once scrolls to where it is not."""

        def now() -> None:
            if isValid(widget) and widget.isVisible() and self.column_widget.isAncestorOf(widget):
                self.ensureWidgetVisible(widget, 0, margin)

        QTimer.singleShot(0, self, now)

    # ------------------------------------------------------------------ card actions
    def _card_action(self, card: Card, action: str) -> None:
        if self.read_only or card not in self.cards:
            return
        if action in ("up", "down"):
            self.move_card(card, -1 if action == "up" else 1)
        elif action == "remove":
            self.remove(card)
        elif action in ("text-above", "text-below"):
            self.add_text(card, action.split("-")[1])
        elif action in ("block-above", "block-below"):
            self.ask_block(card, action.split("-")[1])

    def move_card(self, card: Card, delta: int) -> None:
        index = self.cards.index(card)
        other = index + delta
        if not 0 <= other < len(self.cards) or getattr(card, "pending", False):
            return
        first, second = sorted((card, self.cards[other]), key=self.cards.index)
        text = self.text()
        mid_a, mid_b = string_offset(text, first.qend), string_offset(text, second.qstart)
        gap = text[mid_a:mid_b]
        moved = card.source
        self._replace(first.qstart, second.qend, second.source + gap + first.source)
        for c in self.cards:
            if c.source == moved and abs(self.cards.index(c) - other) <= 1:
                c.focus_in()
                self.reveal(c)
                break

    def remove(self, card: Card) -> None:
        index = self.cards.index(card)
        if getattr(card, "pending", False):
            self.arranger.take_away(card)
            return
        text = self.text()
        start, end = string_offset(text, card.qstart), string_offset(text, card.qend)
        # the blank lines before the card go with it (after it, for the first card)
        before = text[:start]
        cut = len(before.rstrip("\n")) if before.strip() else start
        if cut == start or not before.strip():
            after = text[end:]
            end += len(after) - len(after.lstrip("\n")) if after.strip() else 0
        else:
            start = cut
        name = self._card_name(card)
        pos = Positions(text)
        self._replace(pos(start), pos(end), "")
        self._removed_at = index
        self.show_notice(tr("Removed: {name}.", name=name))
        if self.cards:
            self.cards[min(index, len(self.cards) - 1)].focus_in()
        else:
            self.add_text_button.setFocus()

    def _card_name(self, card: Card) -> str:
        if isinstance(card, BlockCard):
            return tr("the block “{name}”", name=spec_for(card.model.kind).name)
        if isinstance(card, TextCard):
            return tr("a text box")
        return tr("original text")

    def show_notice(self, text: str) -> None:
        self.notice_text.setText(text)
        self.notice.show()

    def hide_notice(self) -> None:
        if self.notice.isVisible():
            self.notice.hide()

    def _undo_removal(self) -> None:
        self.undo()
        self.hide_notice()
        index = getattr(self, "_removed_at", 0)
        if self.cards:
            self.cards[min(index, len(self.cards) - 1)].focus_in()

    def _insertion_point(self, card: Card | None, where: str) -> int:
        if card is None or where == "end":
            if self.cards:
                return self.cards[-1].qend
            if self.arranger.front_matter_end is not None:
                return self.arranger.front_matter_end
            return u16(self.text())
        return card.qstart if where == "above" else card.qend

    def add_text(self, card: Card | None, where: str) -> TextCard | None:
        """An empty text box above or below ``card`` (at the end without one); it becomes
        part of the document with its first letter."""
        if self.read_only:
            return None
        self.ensure_current()
        at = self._insertion_point(card, where)
        new = self._text_card("", None)
        new.pending = True  # type: ignore[attr-defined]
        self._connect(new)
        new.qstart = new.qend = at
        if card is None or where == "end":
            index = len(self.cards)
        else:
            index = self.cards.index(card) + (0 if where == "above" else 1)
        self.arranger.insert(index, new)
        new.focus_in()
        self.reveal(new)
        return new

    def ask_block(self, card: Card | None, where: str) -> None:
        if self.read_only or self.block_picker is None:
            return
        self.ensure_current()
        self.block_picker(lambda block_text: self.insert_block(block_text, card, where))

    def insert_block(self, block_text: str, card: Card | None = None, where: str = "below") -> None:
        """Put a new block above or below ``card`` (at the end without one); its first field
        takes the keyboard."""
        if self.read_only:
            return
        self.ensure_current()
        if card is not None and card not in self.cards:
            card = None
        at = self._insertion_point(card, where if card is not None else "end")
        text = self.text()
        start = string_offset(text, at)
        pre, post = _separators(text[:start], text[start:])
        self._replace(at, at, pre + block_text + post)
        target = at + u16(pre)
        for c in self.cards:
            if c.qstart == target and isinstance(c, BlockCard):
                c.focus_in()
                self.reveal(c)
                break

    def _picture_for(self, card: TextCard) -> None:
        if self.picture_provider is not None:
            self.picture_provider(card)
            return
        dialog = PictureDialog(self)
        if dialog.exec() and (picture := dialog.picture()) is not None:
            card.insert_picture(picture)

    def insert_markdown(self, markdown: str) -> bool:
        """Put pictures given as Markdown (an upload's ``![…](…)``) into the text card the
        keyboard is in. False when no text card has it."""
        card = self.current_card()
        model = from_markdown(markdown)
        if not isinstance(card, TextCard) or model is None:
            return False
        for block in model.blocks:
            if isinstance(block, Paragraph):
                for node in block.content:
                    if isinstance(node, InlinePicture):
                        card.insert_picture(node)
        return True

    # ------------------------------------------------------------------ undo, focus, place
    def undo(self) -> None:
        if not self.read_only and self.doc.isUndoAvailable():
            self.doc.undo()
            self.reconcile()

    def redo(self) -> None:
        if not self.read_only and self.doc.isRedoAvailable():
            self.doc.redo()
            self.reconcile()

    def current_card(self) -> Card | None:
        focus = self.window().focusWidget() if self.window() is not None else None
        while focus is not None:
            if isinstance(focus, Card) and focus in self.cards:
                return focus
            focus = focus.parentWidget()
        return None

    def focus_first(self) -> None:
        self.ensure_current()
        if self.cards:
            self.cards[0].focus_in()
        else:
            self.add_text_button.setFocus()

    def place(self) -> int | None:
        """Where the keyboard is, as a document position (None: in no card)."""
        card = self.current_card()
        if card is None or getattr(card, "pending", False):
            return None
        if isinstance(card, RawCard):
            return card.qstart + card.focus_offset()
        if isinstance(card, TextCard):
            chars = max(1, card.editor.document().characterCount() - 1)
            share = card.focus_offset() / chars
            source = card.source
            offset = int(len(source) * share)
            line_start = source.rfind("\n", 0, offset) + 1
            return card.qstart + u16(source[:line_start])
        return card.qstart

    def show_place(self, position: int) -> None:
        """Bring the card at document ``position`` into view, the keyboard in it."""
        self.ensure_current()
        if not self.cards:
            self.add_text_button.setFocus()
            return
        card = next((c for c in self.cards if c.qend >= position), self.cards[-1])
        self.ensureWidgetVisible(card, 0, 60)
        inside = max(0, position - card.qstart)
        if isinstance(card, TextCard) and card.source:
            share = inside / max(1, u16(card.source))
            chars = card.editor.document().characterCount() - 1
            card.show_offset(int(chars * share))
        elif isinstance(card, RawCard):
            card.show_offset(inside)
        else:
            card.focus_in()

    def set_read_only(self, ro: bool) -> None:
        self.read_only = ro
        for card in self.cards:
            card.set_read_only(ro)
        self.add_text_button.setEnabled(not ro)
        self.add_block_button.setEnabled(not ro)
        if ro:
            self.hide_notice()

    def set_image_source(self, source: ImageSource | None) -> None:
        self.image_source = source
        for card in self.cards:
            if isinstance(card, TextCard):
                card.set_image_source(source)

    def reload_pictures(self) -> None:
        """Pictures have arrived: the text boxes show them instead of their placeholders."""
        for card in self.cards:
            if isinstance(card, TextCard):
                card.reload_pictures()


def _separators(before: str, after: str) -> tuple[str, str]:
    """Line breaks to put before and after new text between ``before`` and ``after`` so it
    stands apart from both (a blank line on each side where there is text)."""
    pre = ""
    if before.strip():
        trailing = len(before) - len(before.rstrip("\n"))
        pre = "\n" * max(0, 2 - trailing)
    elif before and not before.endswith("\n"):
        pre = "\n"
    leading = len(after) - len(after.lstrip("\n"))
    post = "\n" * max(0, 2 - leading) if after.strip() else ("" if after else "\n")
    return pre, post
