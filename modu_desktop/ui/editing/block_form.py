"""The block form: the fields and list items of the block under the cursor, without its syntax.

Shown by the editor when the cursor is inside a brochure block. Every change is written straight
back into the text, in the site's syntax, by :mod:`modu_desktop.core.brochure.block_model` — only
the lines
that change are touched. Lines the model cannot read stay in the text as they are, and the form
says so above the fields.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.brochure.block_model import BlockModel, Item, ItemList, Row
from modu_desktop.core.brochure.catalog import FieldSpec, field_label, spec_for
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.flow_layout import FlowLayout

_REASONS = {
    "not-a-key": "a line without “name: value”",
    "item-without-key": "an item without “name: value”",
    "before-first-item": "a line before the first item",
    "unclosed": "the block has no closing :::",
    "opener-label": "text after the block name",
}


class BlockForm(QFrame):
    """Edits one :class:`BlockModel`; ``blockEdited(text)`` after each change."""

    blockEdited = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("blockForm")
        self.setAccessibleName(tr("Block form"))
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.model: BlockModel | None = None
        self.read_only = False
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        head = QHBoxLayout()
        self.title = QLabel("")
        self.title.setObjectName("blockFormTitle")
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        head.addWidget(self.title, 1)
        outer.addLayout(head)
        self.description = QLabel("")
        self.description.setObjectName("blockFormDescription")
        self.description.setWordWrap(True)
        outer.addWidget(self.description)
        self.problems = QLabel("")
        self.problems.setObjectName("blockFormProblems")
        self.problems.setWordWrap(True)
        self.problems.setProperty("kind", "warning")
        self.problems.setTextFormat(Qt.TextFormat.PlainText)
        self.problems.hide()
        outer.addWidget(self.problems)
        self.scroller = QScrollArea()
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QFrame.Shape.NoFrame)
        outer.addWidget(self.scroller, 1)
        self.body = QWidget()
        self.scroller.setWidget(self.body)
        self.field_widgets: dict[str, QWidget] = {}
        self.tables: dict[str, _Table] = {}

    # --- building ---
    def show_model(self, model: BlockModel) -> None:
        self.model = model
        items: list[dict[str, str]] = []
        if model.body is not None:
            items = [it.values() for it in model.body.items]
        spec = spec_for(model.kind, items)
        self.spec = spec
        self.title.setText(tr("Block: {name}", name=spec.name))
        self.description.setText(spec.description)
        if model.problems:
            lines = [
                tr(
                    "line {n}: {why} — “{text}”",
                    n=p.line + 1,
                    why=tr(_REASONS.get(p.reason, p.reason)),
                    text=p.text.strip()[:60],
                )
                for p in model.problems
            ]
            self.problems.setText(
                tr("The form cannot read some lines; they stay in the text unchanged:")
                + "\n"
                + "\n".join(lines)
            )
            self.problems.show()
        else:
            self.problems.hide()
        old = self.scroller.takeWidget()
        if old is not None:
            old.deleteLater()
        self.body = QWidget()
        lay = QVBoxLayout(self.body)
        lay.setContentsMargins(0, 0, 0, 0)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.field_widgets = {}
        specs = list(spec.fields)
        known = {f.key for f in specs}
        specs.extend(FieldSpec(k) for k in model.values() if k not in known)
        for fs in specs:
            w = self._field_widget(fs, model.get(fs.key))
            w.setObjectName(f"blockField_{fs.key}")
            w.setAccessibleName(fs.label)
            label = QLabel(fs.label)
            label.setBuddy(w)
            form.addRow(label, w)
            self.field_widgets[fs.key] = w
        lay.addLayout(form)
        self.tables = {}
        if model.kind == "split":
            for name, fields, heading in (
                ("left", spec.left_fields, tr("Left items")),
                ("right", spec.right_fields, tr("Right items")),
            ):
                self._add_table(lay, name, model.section(name), fields, heading)
        elif model.kind == "datatable":
            assert model.body is not None
            t = DataTable(model, self._emit)
            t.setObjectName("blockTable_rows")
            lay.addWidget(QLabel(tr("Rows")))
            lay.addWidget(t)
            self.tables["rows"] = t
        elif spec.item_fields or (model.body is not None and model.body.items):
            assert model.body is not None
            self._add_table(lay, "items", model.body, spec.item_fields, tr("Items"))
        lay.addStretch(1)
        self.scroller.setWidget(self.body)
        self.set_read_only(self.read_only)

    def _add_table(
        self,
        lay: QVBoxLayout,
        name: str,
        body: ItemList,
        fields: tuple[FieldSpec, ...],
        heading: str,
    ) -> None:
        assert self.model is not None
        t = ItemTable(self.model, body, fields, self._emit, into=name)
        t.setObjectName(f"blockTable_{name}")
        lay.addWidget(QLabel(heading))
        lay.addWidget(t)
        self.tables[name] = t

    def _field_widget(self, fs: FieldSpec, value: str | None) -> QWidget:
        value = value or ""
        if fs.kind == "bool":
            box = QCheckBox()
            box.setChecked(value.strip().lower() == "true")
            box.toggled.connect(lambda on, k=fs.key: self._set_field(k, "true" if on else None))
            return box
        if fs.kind == "choice":
            combo = QComboBox()
            combo.setEditable(True)
            combo.addItem("")
            for c in fs.choices:
                combo.addItem(c)
            combo.setCurrentText(value)
            combo.currentTextChanged.connect(lambda v, k=fs.key: self._set_field(k, v))
            return combo
        edit = QLineEdit(value)
        edit.textEdited.connect(lambda v, k=fs.key: self._set_field(k, v))
        return edit

    # --- editing ---
    def _set_field(self, key: str, value: str | None) -> None:
        if self.model is None or self.read_only:
            return
        if value is None:
            remove_field(self.model, key)
        else:
            self.model.set(key, value)
        if self.model.kind == "datatable" and key == "columns" and "rows" in self.tables:
            self.tables["rows"].rebuild()
        self._emit()

    def _emit(self) -> None:
        if self.model is not None:
            self.blockEdited.emit(self.model.text())

    def set_read_only(self, ro: bool) -> None:
        self.read_only = ro
        for w in self.field_widgets.values():
            if isinstance(w, QLineEdit):
                w.setReadOnly(ro)
            else:
                w.setEnabled(not ro)
        for t in self.tables.values():
            t.set_read_only(ro)


def remove_field(model: BlockModel, key: str) -> None:
    """Take a meta line out (an unticked "true" switch)."""
    from modu_desktop.core.brochure.block_model import Field

    model.meta = [ln for ln in model.meta if not (isinstance(ln, Field) and ln.key == key)]


class _Table(QWidget):
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


class ItemTable(_Table):
    """List items as rows, their fields as columns; add, remove, move up and down."""

    def __init__(
        self,
        model: BlockModel,
        body: ItemList,
        fields: tuple[FieldSpec, ...],
        emit: Callable[[], None],
        *,
        into: str = "items",
    ) -> None:
        super().__init__(emit)
        self.model = model
        self.body = body
        self.into = into
        keys = [f.key for f in fields]
        for it in body.items:
            for f in it.fields():
                if f.key not in keys:
                    keys.append(f.key)
        self.keys = keys
        self._button("addItemButton", tr("Add item"), self.add)
        self._button("removeItemButton", tr("Remove"), self.remove)
        self._button("moveUpButton", tr("Up"), lambda: self.move_row(-1))
        self._button("moveDownButton", tr("Down"), lambda: self.move_row(1))
        self.rebuild()

    def rebuild(self) -> None:
        self._filling = True
        try:
            row = self.current()
            self.table.clear()
            self.table.setColumnCount(len(self.keys))
            self.table.setHorizontalHeaderLabels([field_label(k) for k in self.keys])
            self.table.setRowCount(len(self.body.items))
            for r, it in enumerate(self.body.items):
                values = it.values()
                for c, key in enumerate(self.keys):
                    cell = QTableWidgetItem(values.get(key, ""))
                    if not it.fields():  # an item the model cannot read: shown, kept
                        cell.setFlags(cell.flags() & ~Qt.ItemFlag.ItemIsEditable)
                    self.table.setItem(r, c, cell)
            self._select(row if row >= 0 else 0)
        finally:
            self._filling = False

    def _cell_changed(self, row: int, col: int) -> None:
        if self._filling or self.read_only or not (0 <= row < len(self.body.items)):
            return
        cell = self.table.item(row, col)
        item: Item = self.body.items[row]
        if cell is None or not item.fields():
            return
        item.set(self.keys[col], cell.text())
        self._emit()

    def add(self) -> None:
        if self.read_only:
            return
        named = [k for k in ("title", "label", "phase", "category", "letter") if k in self.keys]
        first = named[0] if named else (self.keys[0] if self.keys else "title")
        new = self.model.new_item({first: tr("New item")}, into=self.into)
        at = self.current() + 1 if self.current() >= 0 else len(self.body.items)
        self.body.add(new, at)
        self.rebuild()
        self._select(at)
        self._emit()

    def remove(self) -> None:
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


class DataTable(_Table):
    """``datatable`` rows and columns: cells edited in place; rows and columns added,
    removed and rows moved."""

    def __init__(self, model: BlockModel, emit: Callable[[], None]) -> None:
        super().__init__(emit)
        self.model = model
        assert model.body is not None
        self.body = model.body
        self._button("addRowButton", tr("Add row"), self.add_row)
        self._button("removeRowButton", tr("Remove row"), self.remove_row)
        self._button("moveUpButton", tr("Up"), lambda: self.move_row(-1))
        self._button("moveDownButton", tr("Down"), lambda: self.move_row(1))
        self._button("addColumnButton", tr("Add column"), self.add_column)
        self._button("removeColumnButton", tr("Remove column"), self.remove_column)
        self.rebuild()

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
                    self.table.setItem(r, c, QTableWidgetItem(cells[c] if c < len(cells) else ""))
            if 0 <= row < self.table.rowCount():
                self.table.setCurrentCell(row, max(col, 0))
        finally:
            self._filling = False

    def _cell_changed(self, row: int, col: int) -> None:
        if self._filling or self.read_only or not (0 <= row < len(self.body.items)):
            return
        head = self.body.items[row].head
        cell = self.table.item(row, col)
        if not isinstance(head, Row) or cell is None:
            return
        cells = head.cells
        while len(cells) <= col:
            cells.append("")
        cells[col] = cell.text()
        while cells and cells[-1] == "" and len(cells) > len(self.model.columns()):
            cells.pop()
        head.set_cells(cells)
        self._emit()

    def add_row(self) -> None:
        if self.read_only:
            return
        width = max(len(self.model.columns()), 1)
        at = self.current() + 1 if self.current() >= 0 else len(self.body.items)
        self.body.add(self.model.new_item({"row": " | ".join(["-"] * width)}), at)
        self.rebuild()
        self._select(at)
        self._emit()

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

    def add_column(self) -> None:
        if self.read_only:
            return
        col = self.table.currentColumn()
        at = col + 1 if col >= 0 else len(self.model.columns())
        self.model.add_column(tr("New column"), at)
        self.rebuild()
        self._refresh_columns_field()
        self._emit()

    def remove_column(self) -> None:
        col = self.table.currentColumn()
        if self.read_only or col < 0:
            return
        self.model.remove_column(col)
        self.rebuild()
        self._refresh_columns_field()
        self._emit()

    def _refresh_columns_field(self) -> None:
        form = self.parent()
        while form is not None and not isinstance(form, BlockForm):
            form = form.parent()
        if isinstance(form, BlockForm):
            for key in ("columns", "align"):
                w = form.field_widgets.get(key)
                if isinstance(w, QLineEdit):
                    with contextlib.suppress(Exception):
                        w.setText(self.model.get(key) or "")
