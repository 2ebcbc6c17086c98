"""The page editor's cards, matched to its document text and laid out in its column.

After a change of the text the cards are matched to it again: a card whose text did not change
stays as it is (with the keyboard in it), one whose text changed but not its kind takes the new
text, the others are made anew (by the page editor, which wires them) or taken away. The first
few cards get their fields at once and the others a slice at a time after it, so that a long
page opens without a stall; Tab goes through the fields in page order."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QVBoxLayout, QWidget

from modu_desktop.core.pageedit.segments import CARD_KINDS, CardSpan, split_cards
from modu_desktop.ui.editing.cards.base import Card
from modu_desktop.ui.editing.cards.positions import Positions

FIRST_CARDS = 6  # made at once when a page opens; the others a slice at a time after it
BUILD_SLICE_SECONDS = 0.03

CardMaker = Callable[[CardSpan, str], Card]  # a card span and its text → a new, wired card


class CardArranger(QObject):
    """``cards`` in page order, in ``column`` right after ``empty_hint`` (shown when there
    are none); ``make`` makes a card the text needs; after the cards' fields, Tab goes to
    ``after_cards``."""

    def __init__(
        self,
        column: QVBoxLayout,
        empty_hint: QWidget,
        after_cards: Sequence[QWidget],
        make: CardMaker,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.column = column
        self.empty_hint = empty_hint
        self.after_cards = list(after_cards)
        self.make = make
        self.cards: list[Card] = []
        self.front_matter_end: int | None = None  # a QTextDocument position; None: no front matter
        self._build_queue: list[Card] = []
        self._builder = QTimer(self)
        self._builder.setSingleShot(True)
        self._builder.setInterval(0)
        self._builder.timeout.connect(self._build_some)
        self._chain_later = QTimer(self)
        self._chain_later.setSingleShot(True)
        self._chain_later.setInterval(0)
        self._chain_later.timeout.connect(self._chain)

    def match(self, text: str, focused: Card | None) -> None:
        """Make the cards match ``text`` (see the module docstring); when ``focused`` goes,
        the card now in its place takes the keyboard."""
        segments = split_cards(text)
        pos = Positions(text)
        fm = next((s for s in segments if s.kind == "front_matter"), None)
        self.front_matter_end = pos(fm.end) if fm is not None else None
        wanted = [s for s in segments if s.kind in CARD_KINDS]
        focused_index = self.cards.index(focused) if focused in self.cards else -1
        old_keys = [(c.kind, c.source) for c in self.cards]
        new_keys = [(s.kind, s.text(text)) for s in wanted]
        out: list[Card] = []
        matcher = SequenceMatcher(None, old_keys, new_keys, autojunk=False)  # type: ignore[arg-type]
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            same_kinds = i2 - i1 == j2 - j1 and all(
                old_keys[i1 + k][0] == new_keys[j1 + k][0] for k in range(i2 - i1)
            )
            if tag == "equal" or (tag == "replace" and same_kinds):
                for k in range(j2 - j1):
                    card = self.cards[i1 + k]
                    card.set_source(new_keys[j1 + k][1], wanted[j1 + k])
                    out.append(card)
            else:
                for j in range(j1, j2):
                    out.append(self.make(wanted[j], new_keys[j][1]))
        kept = {id(c) for c in out}
        for card in self.cards:
            if id(card) not in kept:
                self.column.removeWidget(card)
                card.hide()
                card.deleteLater()
        for card, seg in zip(out, wanted, strict=True):
            card.qstart, card.qend = pos(seg.start), pos(seg.end)
        self.cards = out
        self._relayout()
        if focused is not None and id(focused) not in kept and self.cards and focused_index >= 0:
            self.cards[min(focused_index, len(self.cards) - 1)].focus_in()

    def insert(self, index: int, card: Card) -> None:
        """A card the text does not have yet (a new text box) at ``index``."""
        self.cards.insert(index, card)
        self._relayout()

    def take_away(self, card: Card) -> None:
        """A card the text does not have (a new text box still empty) goes."""
        self.cards.remove(card)
        card.hide()
        card.deleteLater()
        self._relayout()

    def build_all(self) -> None:
        """Make every card's fields now (they are otherwise made a few at a time)."""
        for card in list(self.cards):
            card.ensure_built()
        self._build_queue = []
        self._chain()

    def chain_soon(self) -> None:
        """A card has made its fields: they join the Tab order after this turn of the loop."""
        self._chain_later.start()

    def _build_some(self) -> None:
        started = time.monotonic()
        while self._build_queue:
            card = self._build_queue.pop(0)
            if card in self.cards:
                card.ensure_built()
            if time.monotonic() - started > BUILD_SLICE_SECONDS:
                break
        if self._build_queue:
            self._builder.start()

    def _relayout(self) -> None:
        for card in self.cards:
            self.column.removeWidget(card)
        for card in self.cards[:FIRST_CARDS]:
            card.ensure_built()
        first_row = self.column.indexOf(self.empty_hint) + 1
        for n, card in enumerate(self.cards):
            self.column.insertWidget(first_row + n, card)
            card.show()
        self.empty_hint.setVisible(not self.cards)
        self._build_queue = [c for c in self.cards if not c.is_built]
        if self._build_queue:
            self._builder.start()
        self._chain()

    def _chain(self) -> None:
        """Tab goes through the cards' fields in page order, then to what follows them."""
        self._chain_later.stop()
        chain: list[QWidget] = []
        for card in self.cards:
            if card.is_built:
                chain.extend(card.focus_widgets())
        chain.extend(self.after_cards)
        for a, b in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(a, b)
