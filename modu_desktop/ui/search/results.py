"""The search's results: pages by title, and under each the places where the words are, drawn
as the cards show them — where the words are ("통계 카드 › 항목 2 › 값") and the sentence
around them without markup, the words marked.

A page's row says its title and how many places it has; a hit's row is two lines drawn by
:class:`HitDelegate` (only the visible rows are ever drawn). Each hit row carries a
:class:`Found`: the hit and which of its card's and field's hits it is, so the editor can go to
that very place even when the words are there twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QKeyEvent, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from modu_desktop.core.search import words
from modu_desktop.core.search.model import Hit, SearchResults
from modu_desktop.i18n import tr

FOUND_ROLE = Qt.ItemDataRole.UserRole + 1  # a hit row's Found
SNIPPET_ROLE = Qt.ItemDataRole.UserRole + 2  # (place, before, words, after)
DOC_ROLE = Qt.ItemDataRole.UserRole + 3  # the page's doc id (page and hit rows)

BEFORE_CHARS = 40  # at most this much of the sentence before the words …
AFTER_CHARS = 90  # … and after them (the row cuts what does not fit)
MARK = QColor("#ffe27a")  # the words, as the find bar marks them in a card
_Index = QModelIndex | QPersistentModelIndex
_CELL_MARKS = re.compile(r"\*\*|\[[!~]|\]")  # a data table cell's bold, highlight and muted marks


@dataclass(frozen=True)
class Found:
    """A hit and where it stands: the ``in_card``-th hit of its card, the ``in_field``-th of
    its field and the ``in_page``-th of its page (from 0, in page order)."""

    hit: Hit
    in_card: int
    in_field: int
    in_page: int


def located(hits: tuple[Hit, ...]) -> list[Found]:
    """Each of one page's hits (in page order) with its place among the others."""
    cards: dict[int, int] = {}
    fields: dict[int, int] = {}
    out: list[Found] = []
    for n, hit in enumerate(hits):
        in_card = cards.get(hit.card_start, 0)
        in_field = fields.get(hit.field, 0)
        cards[hit.card_start] = in_card + 1
        fields[hit.field] = in_field + 1
        out.append(Found(hit, in_card, in_field, n))
    return out


def snippet(hit: Hit) -> tuple[str, str, str]:
    """(before, words, after): the field's text around the hit on one line. A data table's
    cell is searched as written; its marks (``**굵게**``, ``[!강조]``, ``[~흐리게]``) are
    left out of the words around the hit, as the page shows them."""
    text = hit.text.replace("\r", "").replace("\n", " ")
    a, b = hit.start, hit.end
    left = max(0, a - BEFORE_CHARS)
    right = min(len(text), b + AFTER_CHARS)
    before = ("…" if left > 0 else "") + text[left:a]
    after = text[b:right] + ("…" if right < len(text) else "")
    if hit.place.column:
        before, after = _CELL_MARKS.sub("", before), _CELL_MARKS.sub("", after)
    return before, text[a:b], after


class HitDelegate(QStyledItemDelegate):
    """Draws a hit's row: its place on the first line (muted), the sentence on the second with
    the words marked; the sentence before the words gives way first when the row is narrow."""

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:  # noqa: N802
        size = super().sizeHint(option, index)
        if index.data(SNIPPET_ROLE) is None:
            return QSize(size.width(), max(size.height(), option.fontMetrics.height() + 8))
        return QSize(size.width(), option.fontMetrics.lineSpacing() * 2 + 10)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        parts = index.data(SNIPPET_ROLE)
        if parts is None:
            super().paint(painter, option, index)
            return
        place, before, found, after = parts
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""  # type: ignore[attr-defined]
        widget = opt.widget  # type: ignore[attr-defined]
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)  # type: ignore[attr-defined]
        palette: QPalette = opt.palette  # type: ignore[attr-defined]
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        ink = palette.color(role)
        muted = QColor(ink)
        muted.setAlpha(170)
        rect: QRect = opt.rect.adjusted(4, 4, -6, -4)  # type: ignore[attr-defined]
        font = QFont(opt.font)  # type: ignore[attr-defined]
        metrics = QFontMetrics(font)
        line = metrics.lineSpacing()
        painter.save()
        painter.setFont(font)
        painter.setPen(muted)
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        top = QRect(rect.left(), rect.top(), rect.width(), line)
        painter.drawText(
            top, flags, metrics.elidedText(place, Qt.TextElideMode.ElideRight, rect.width())
        )
        sentence = QRect(rect.left(), rect.top() + line, rect.width(), line)
        self._sentence(painter, sentence, ink, font, (before, found, after))
        painter.restore()

    def _sentence(
        self, painter: QPainter, rect: QRect, ink: QColor, font: QFont, parts: tuple[str, str, str]
    ) -> None:
        before, found, after = parts
        metrics = QFontMetrics(font)
        bold = QFont(font)
        bold.setBold(True)
        bold_metrics = QFontMetrics(bold)
        width = rect.width()
        found_w = min(bold_metrics.horizontalAdvance(found), width)
        room_before = max(0, (width - found_w) // 3)
        before = _fit(metrics, before, room_before, Qt.TextElideMode.ElideLeft)
        before_w = metrics.horizontalAdvance(before)
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        x = rect.left()
        painter.setPen(ink)
        painter.drawText(QRect(x, rect.top(), before_w, rect.height()), flags, before)
        x += before_w
        shown = _fit(bold_metrics, found, found_w, Qt.TextElideMode.ElideRight)
        mark = QRect(x, rect.top(), found_w, rect.height())
        painter.fillRect(mark.adjusted(-1, 1, 1, -1), MARK)
        painter.setFont(bold)
        painter.setPen(QColor("#1f1f1f"))  # dark on the yellow mark, selected or not
        painter.drawText(mark, flags, shown)
        painter.setFont(font)
        painter.setPen(ink)
        x += found_w
        rest = max(0, rect.right() - x)
        painter.drawText(
            QRect(x, rect.top(), rest, rect.height()),
            flags,
            _fit(metrics, after, rest, Qt.TextElideMode.ElideRight),
        )


def _fit(metrics: QFontMetrics, text: str, width: int, mode: Qt.TextElideMode) -> str:
    """``text`` as it is when it fits in ``width``, else cut with "…" (Qt's own cutting
    sometimes cuts a text that fits exactly)."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    return metrics.elidedText(text, mode, width)


class ResultsTree(QTreeWidget):
    """The results, grouped by page (see the module docstring). ``chosen`` is emitted for a
    hit row clicked, or Enter on one (on a page's row: its first hit)."""

    chosen = Signal(object)  # Found

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("searchResults")
        self.setAccessibleName(tr("Places found"))
        self.setHeaderHidden(True)
        self.setColumnCount(1)
        self.setRootIsDecorated(True)
        self.setUniformRowHeights(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setItemDelegate(HitDelegate(self))
        self.itemClicked.connect(self._clicked)

    def show_results(self, results: SearchResults, titles: dict[str, str]) -> None:
        """Show ``results`` (``titles``: what the list calls each page, when it knows)."""
        self.setUpdatesEnabled(False)
        try:
            self.clear()
            bold = QFont(self.font())
            bold.setBold(True)
            for page in results.pages:
                title = titles.get(page.doc_id) or page.title or page.doc_id
                head = QTreeWidgetItem(
                    [tr("{title} ({n} place(s))", title=title, n=len(page.hits))]
                )
                head.setData(0, DOC_ROLE, page.doc_id)
                head.setFont(0, bold)
                head.setToolTip(0, title)
                for found in located(page.hits):
                    head.addChild(_hit_item(found))
                self.addTopLevelItem(head)
            self.expandAll()
        finally:
            self.setUpdatesEnabled(True)

    def hit_items(self) -> list[QTreeWidgetItem]:
        """Every hit row, in order."""
        out: list[QTreeWidgetItem] = []
        for i in range(self.topLevelItemCount()):
            head = self.topLevelItem(i)
            if head is not None:
                out.extend(c for j in range(head.childCount()) if (c := head.child(j)) is not None)
        return out

    def page_items(self) -> list[QTreeWidgetItem]:
        return [it for i in range(self.topLevelItemCount()) if (it := self.topLevelItem(i))]

    def select_first(self) -> None:
        items = self.hit_items()
        if items:
            self.setCurrentItem(items[0])
            self.setFocus()

    def _clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        found = item.data(0, FOUND_ROLE)
        if isinstance(found, Found):
            self.chosen.emit(found)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            item = self.currentItem()
            if item is not None and item.childCount():
                item = item.child(0)
            found = item.data(0, FOUND_ROLE) if item is not None else None
            if isinstance(found, Found):
                self.chosen.emit(found)
                return
        super().keyPressEvent(event)


def _hit_item(found: Found) -> QTreeWidgetItem:
    hit = found.hit
    place = words.place(hit.place)()
    before, words_found, after = snippet(hit)
    item = QTreeWidgetItem([f"{place}: {before}{words_found}{after}"])
    item.setData(0, FOUND_ROLE, found)
    item.setData(0, SNIPPET_ROLE, (place, before, words_found, after))
    item.setData(0, DOC_ROLE, hit.doc_id)
    item.setToolTip(0, f"{place}\n{hit.text}")
    return item
