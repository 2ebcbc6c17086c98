"""The card arranger alone, over a bare column: after a change of the text the cards that still
match stay (a changed one of the same kind takes its new text), only new places get new cards,
the cards stand in page order after the empty-page hint, and the hint shows only without
cards; a long page gets its fields a slice at a time."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from modu_desktop.core.pageedit.segments import CardSpan
from modu_desktop.ui.editing.cards.arranger import CardArranger
from modu_desktop.ui.editing.cards.base import Card
from modu_desktop.ui.editing.cards.raw_card import RawCard
from modu_desktop.ui.editing.cards.text_card import TextCard

FRONT = "---\ntitle: 안내\n---\n\n"


class Column(QWidget):
    """The arranger's column alone: a notice above the cards, the hint, a button below."""

    def __init__(self) -> None:
        super().__init__()
        self.layout_ = QVBoxLayout(self)
        self.layout_.addWidget(QLabel("notice"))
        self.hint = QLabel("empty")
        self.layout_.addWidget(self.hint)
        self.layout_.addWidget(QPushButton("add"))
        self.made: list[Card] = []
        self.arranger = CardArranger(self.layout_, self.hint, [], self.make, self)

    def make(self, segment: CardSpan, source: str) -> Card:
        card: Card = TextCard(source, segment.blocks) if segment.kind == "text" else RawCard(source)
        self.made.append(card)
        return card


def _arranger(qtbot: Any) -> tuple[CardArranger, QVBoxLayout, QLabel, list[Card]]:
    host = Column()
    qtbot.addWidget(host)
    host.show()
    return host.arranger, host.layout_, host.hint, host.made


def test_cards_follow_the_text_and_unchanged_ones_stay(qtbot: Any) -> None:
    arranger, column, hint, made = _arranger(qtbot)
    arranger.match(FRONT + "첫 문단\n\n```\ncode\n```\n\n끝 문단\n", None)
    first = list(arranger.cards)
    assert [c.kind for c in first] == ["text", "raw", "text"]
    assert made == first
    assert arranger.front_matter_end == len("---\ntitle: 안내\n---")
    rows = [column.indexOf(c) for c in first]
    assert rows == [column.indexOf(hint) + 1 + n for n in range(3)]
    assert hint.isHidden()

    # the last paragraph changes: every card stays, that one with its new text
    arranger.match(FRONT + "첫 문단\n\n```\ncode\n```\n\n끝 문단을 고쳤다\n", None)
    assert arranger.cards == first and len(made) == 3
    assert first[2].source == "끝 문단을 고쳤다"
    # the first paragraph goes: the others stay
    arranger.match(FRONT + "```\ncode\n```\n\n끝 문단을 고쳤다\n", None)
    assert arranger.cards == first[1:] and len(made) == 3
    # a new paragraph first: only its card is made, above the others
    arranger.match(FRONT + "새 문단\n\n```\ncode\n```\n\n끝 문단을 고쳤다\n", None)
    assert arranger.cards == [made[-1], *first[1:]] and len(made) == 4
    assert made[-1].source == "새 문단"
    assert [column.indexOf(c) for c in arranger.cards] == rows

    arranger.match("", None)
    assert arranger.cards == [] and not hint.isHidden()
    assert arranger.front_matter_end is None


def test_a_page_of_many_cards_gets_its_fields_a_slice_at_a_time(qtbot: Any) -> None:
    arranger, _column, _hint, _made = _arranger(qtbot)
    text = "\n\n".join(f"문단 {n}\n\n```\n블록 {n}\n```" for n in range(20)) + "\n"
    arranger.match(text, None)
    assert len(arranger.cards) == 40
    assert arranger.cards[0].is_built and not arranger.cards[-1].is_built
    qtbot.waitUntil(lambda: all(c.is_built for c in arranger.cards), timeout=10000)
