"""A block's items as a table (:class:`RowsTable`, the base of the block form's item tables)
and the 표 block's rows and columns (:class:`DataTable`): cells shown and edited as the site
shows them (bold, accent colour, italic; :mod:`.table_cells`), each column's alignment chosen
under its heading, rows and columns added, removed and moved. Every change is written into the
block's model; a cell nobody edited keeps its text byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.brochure.block_model import BlockModel, ItemList, Row
from modu_desktop.core.brochure.cells import (
    ACCENT,
    BOLD,
    ITALIC,
    Cell,
    plain_text,
    read_cell,
    write_cell,
)
from modu_desktop.i18n import tr
from modu_desktop.ui.editing.table_cells import (
    RAW_ROLE,
    CellDelegate,
    ColumnHeader,
    toggled,
)
from modu_desktop.ui.kit.flow_layout import FlowLayout
from modu_desktop.ui.kit.preedit import commit_preedit

MIN_COLUMN = 96  # wide enough for 가운데 under a heading; more columns scroll sideways
_STYLE_TOOLS = (
    (BOLD, "Bold", "Ctrl+B"),
    (ACCENT, "Accent colour", "Ctrl+E"),
    (ITALIC, "Italic", "Ctrl+I"),
)


class RowsTable(QWidget):
    """A table over a block's list (``body``, set by the subclass), with buttons under it that
    wrap in a narrow pane; a row removed or moved in the list alike for every such table."""

    body: ItemList

    def __init__(self, emit: Callable[[], None]) -> None:
        super().__init__()
        self._emit = emit
        self._filling = False
        self.read_only = False
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setDefaultSectionSize(26)
        self.table.setMinimumHeight(120)
        self.table.setWordWrap(False)
        self.top = QHBoxLayout()  # tools over the table, if any
        lay.addLayout(self.top)
        lay.addWidget(self.table)
        self.buttons = FlowLayout()  # wraps in a narrow pane (a card beside the preview)
        lay.addLayout(self.buttons)
        self.table.cellChanged.connect(self._cell_changed)

    def _button(self, name: str, text: str, slot: Callable[[], None]) -> QPushButton:
        b = QPushButton(text)
        b.setObjectName(name)
        b.clicked.connect(slot)
        self.buttons.addWidget(b)
        return b

    def current(self) -> int:
        return self.table.currentRow()

    def _select(self, row: int) -> None:
        if 0 <= row < self.table.rowCount():
            self.table.setCurrentCell(row, max(0, self.table.currentColumn()))

    def set_read_only(self, ro: bool) -> None:
        self.read_only = ro
        triggers = (
            QAbstractItemView.EditTrigger.NoEditTriggers
            if ro
            else QAbstractItemView.EditTrigger.AllEditTriggers
        )
        self.table.setEditTriggers(triggers)
        for i in range(self.buttons.count()):
            li = self.buttons.itemAt(i)
            w = li.widget() if li is not None else None
            if w is not None:
                w.setEnabled(not ro)

    def _cell_changed(self, row: int, col: int) -> None:
        raise NotImplementedError

    def rebuild(self) -> None:
        raise NotImplementedError

    def remove_row(self) -> None:
        row = self.current()
        if self.read_only or not (0 <= row < len(self.body.items)):
            return
        self.body.remove(row)
        self.rebuild()
        self._select(min(row, len(self.body.items) - 1))
        self._emit()

    def move_row(self, delta: int) -> None:
        row = self.current()
        dst = row + delta
        if self.read_only or not (0 <= row < len(self.body.items)):
            return
        if not 0 <= dst < len(self.body.items):
            return
        self.body.move(row, dst)
        self.rebuild()
        self._select(dst)
        self._emit()


class DataTable(RowsTable):
    """``datatable`` rows and columns; each column's heading and alignment in its header."""

    def __init__(
        self,
        model: BlockModel,
        emit: Callable[[], None],
    ) -> None:
        super().__init__(emit)
        self.model = model
        assert model.body is not None
        self.body = model.body
        self.table.setObjectName("dataTableCells")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setAccessibleName(tr("Rows"))
        self.header = ColumnHeader(self.table)
        self.table.setHorizontalHeader(self.header)
        self.header.setMinimumSectionSize(MIN_COLUMN)
        self.header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.header.chosen.connect(self.set_align)
        self.header.renamed.connect(self.set_heading)
        self.delegate = CellDelegate(self.table, self._align, self.set_cell)
        self.table.setItemDelegate(self.delegate)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.style_buttons = self._style_tools()
        self._button("addRowButton", tr("Add row"), self.add_row)
        self._button("removeRowButton", tr("Remove row"), self.remove_row)
        self._button("moveUpButton", tr("Up"), lambda: self.move_row(-1))
        self._button("moveDownButton", tr("Down"), lambda: self.move_row(1))
        self._button("addColumnButton", tr("Add column"), self.add_column)
        self._button("removeColumnButton", tr("Remove column"), self.remove_column)
        self.rebuild()

    def _style_tools(self) -> dict[str, QToolButton]:
        """굵게 / 강조색 / 기울임 over the table: on the chosen words of the cell being typed
        in, else on the whole chosen cell."""
        caption = QLabel(tr("Letters:"))
        self.top.addWidget(caption)
        out = {}
        for style, name, keys in _STYLE_TOOLS:
            b = QToolButton()
            b.setObjectName(f"cellStyle_{style}")
            b.setText(tr(name))
            b.setToolTip(f"{tr(name)} ({keys})")
            b.setAccessibleName(tr(name))
            b.setAutoRaise(True)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the cell being typed in stays open
            font = b.font()
            font.setBold(style in (BOLD, ACCENT))
            font.setItalic(style == ITALIC)
            b.setFont(font)
            if style == ACCENT:
                b.setStyleSheet("QToolButton { color: #e63312; }")
            b.clicked.connect(lambda _c=False, s=style: self.toggle_style(s))
            self.top.addWidget(b)
            out[style] = b
        self.top.addStretch(1)
        return out

    # --- showing ---
    def _align(self, column: int) -> str:
        aligns = self.model.aligns()
        return aligns[column] if column < len(aligns) else "left"

    def rebuild(self) -> None:
        self._filling = True
        try:
            row, col = self.current(), self.table.currentColumn()
            cols = self.model.columns()
            rows = [it.head.cells if isinstance(it.head, Row) else [] for it in self.body.items]
            width = max([len(cols), *(len(r) for r in rows)])
            self.table.clear()
            self.table.setColumnCount(width)
            labels = cols + [""] * (width - len(cols))
            self.table.setHorizontalHeaderLabels(labels)
            self.table.setRowCount(len(rows))
            for r, cells in enumerate(rows):
                for c in range(width):
                    self.table.setItem(r, c, self._item(cells[c] if c < len(cells) else ""))
            self.header.set_columns((self.model.aligns() + ["left"] * width)[:width], labels)
            if 0 <= row < self.table.rowCount():
                self.table.setCurrentCell(row, max(col, 0))
        finally:
            self._filling = False

    @staticmethod
    def _item(raw: str) -> QTableWidgetItem:
        item = QTableWidgetItem(plain_text(raw))  # what a person reads (and finds)
        item.setData(RAW_ROLE, raw)
        return item

    # --- editing cells ---
    def set_cell(self, row: int, col: int, cell: Cell) -> None:
        """A cell's new words and marks, written into its row."""
        if self.read_only or not (0 <= row < len(self.body.items)):
            return
        head = self.body.items[row].head
        if not isinstance(head, Row):
            return
        cells = head.cells
        while len(cells) <= col:
            cells.append("")
        raw = write_cell(cell)
        if cells[col] == raw:
            return
        cells[col] = raw
        while cells and cells[-1] == "" and len(cells) > len(self.model.columns()):
            cells.pop()
        head.set_cells(cells)
        self._filling = True
        try:
            item = self.table.item(row, col)
            if item is None:
                self.table.setItem(row, col, self._item(raw))
            else:
                item.setData(RAW_ROLE, raw)
                item.setText(plain_text(raw))
        finally:
            self._filling = False
        self._emit()

    def _cell_changed(self, row: int, col: int) -> None:
        return  # cells change through set_cell only

    def toggle_style(self, style: str) -> None:
        if self.read_only:
            return
        commit_preedit()  # the syllable being composed is part of the words it acts on
        editor = self.delegate.editor
        if editor is not None and editor.isVisible():
            editor.toggle(style)
            return
        row, col = self.current(), self.table.currentColumn()
        item = self.table.item(row, col) if row >= 0 and col >= 0 else None
        if item is not None:
            self.set_cell(row, col, toggled(read_cell(str(item.data(RAW_ROLE) or "")), style))

    def set_align(self, column: int, value: str) -> None:
        if self.read_only:
            return
        self.model.set_align(column, value)
        self.table.viewport().update()
        self._emit()

    def set_heading(self, column: int, name: str) -> None:
        """A column's heading typed in its box (the box keeps the caret: nothing rebuilt)."""
        if self.read_only:
            return
        self.model.set_column_name(column, name)
        item = self.table.horizontalHeaderItem(column)
        if item is not None:
            item.setText(name)
        self._emit()

    def set_read_only(self, ro: bool) -> None:
        super().set_read_only(ro)
        if hasattr(self, "delegate"):
            self.table.setEditTriggers(
                QAbstractItemView.EditTrigger.NoEditTriggers
                if ro
                else QAbstractItemView.EditTrigger.DoubleClicked
                | QAbstractItemView.EditTrigger.EditKeyPressed
                | QAbstractItemView.EditTrigger.AnyKeyPressed
            )
            self.header.set_enabled(not ro)
            for b in self.style_buttons.values():
                b.setEnabled(not ro)

    # --- rows and columns ---
    def add_row(self) -> None:
        if self.read_only:
            return
        width = max(len(self.model.columns()), 1)
        at = self.current() + 1 if self.current() >= 0 else len(self.body.items)
        self.body.add(self.model.new_item({"row": " | ".join(["-"] * width)}), at)
        self.rebuild()
        self._select(at)
        self._emit()

    def add_column(self) -> None:
        if self.read_only:
            return
        col = self.table.currentColumn()
        at = col + 1 if col >= 0 else len(self.model.columns())
        self.model.add_column(tr("New column"), at)
        self.rebuild()
        self._emit()

    def remove_column(self) -> None:
        col = self.table.currentColumn()
        if self.read_only or col < 0:
            return
        self.model.remove_column(col)
        self.rebuild()
        self._emit()
