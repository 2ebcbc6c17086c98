"""The block form: the fields and list items of the block under the cursor, without its syntax.

Shown by the editor when the cursor is inside a brochure block. Every change is written straight
back into the text, in the site's syntax, by :mod:`modu_desktop.core.brochure.block_model` — only
the lines
that change are touched. Lines the model cannot read stay in the text as they are, and the form
says so above the fields.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.brochure.block_model import BlockModel, Item, ItemList
from modu_desktop.core.brochure.catalog import FieldSpec, field_label, spec_for
from modu_desktop.i18n import tr
from modu_desktop.ui.editing.data_table import DataTable, RowsTable

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
        self.tables: dict[str, RowsTable] = {}

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
        if model.kind == "datatable":  # typed and chosen in each column's heading instead
            specs = [fs for fs in specs if fs.key not in ("columns", "align")]
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
            return ChoiceBox(fs, value, partial(self._set_field, fs.key))
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


class ChoiceBox(QComboBox):
    """A field with a few choices, each by the name the guide gives it (그림자, not
    ``elevated``); a value written by hand that is not among them is kept and can be typed."""

    def __init__(self, fs: FieldSpec, value: str, changed: Callable[[str | None], None]) -> None:
        super().__init__()
        self.setEditable(True)
        self.addItem("", "")
        for c in fs.choices:
            self.addItem(fs.value_text(c), c)
        found = self.findData(value)
        if found < 0 and value:
            self.addItem(value, value)
            found = self.count() - 1
        self.setCurrentIndex(max(found, 0))
        self._changed = changed
        self.currentTextChanged.connect(self._text_changed)

    def value(self) -> str:
        text = self.currentText()
        found = self.findText(text)
        return str(self.itemData(found)) if found >= 0 else text

    def _text_changed(self, _text: str) -> None:
        self._changed(self.value())


def remove_field(model: BlockModel, key: str) -> None:
    """Take a meta line out (an unticked "true" switch)."""
    from modu_desktop.core.brochure.block_model import Field

    model.meta = [ln for ln in model.meta if not (isinstance(ln, Field) and ln.key == key)]


class ItemTable(RowsTable):
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
        self._button("removeItemButton", tr("Remove"), self.remove_row)
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
