"""A brochure block as a card: its Korean name and picture, its fields, and its items one under
another (add, remove, move), written back through
:mod:`modu_desktop.core.brochure.block_model`, so only the lines that change are touched and
lines the form cannot read stay as they are.

Keyboard: Tab / Shift+Tab go from field to field; Enter in an item's field adds an item after
it; Alt+↑ / Alt+↓ move the item, Alt+Delete removes it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.brochure import block_model
from modu_desktop.core.brochure.block_model import BlockModel, Field, Item, ItemList
from modu_desktop.core.brochure.catalog import FieldSpec, field_label, spec_for
from modu_desktop.core.pageedit.segments import CardSpan
from modu_desktop.i18n import tr
from modu_desktop.ui.editing.block_form import _REASONS, ChoiceBox, remove_field
from modu_desktop.ui.editing.cards.base import Card
from modu_desktop.ui.editing.data_table import DataTable
from modu_desktop.ui.kit.shortcuts import PAGE_EDITOR

PICTURE = QSize(96, 54)
META_LABEL_WIDTH = 96
META_COLUMN_WIDTH = 420
ITEM_UP_KEYS = PAGE_EDITOR["itemUp"].keys
ITEM_DOWN_KEYS = PAGE_EDITOR["itemDown"].keys
ITEM_REMOVE_KEYS = PAGE_EDITOR["itemRemove"].keys

FieldPath = tuple[str, int, str]  # ("meta", 0, key) | (list name, item index, key)


def _first_key(keys: list[str]) -> str:
    named = [k for k in ("title", "label", "phase", "category", "letter", "num") if k in keys]
    return named[0] if named else (keys[0] if keys else "title")


class BlockCard(Card):
    kind = "block"

    def __init__(self, source: str, parent: QWidget | None = None) -> None:
        self.model: BlockModel = block_model.parse(source)
        spec = spec_for(self.model.kind, self._items())
        super().__init__(spec.name, parent)
        self.spec = spec
        self.source = source
        self._show_kind()
        self.holder = QVBoxLayout()
        self.holder.setContentsMargins(0, 0, 0, 0)
        self.body.addLayout(self.holder)
        self.form: QWidget | None = None
        self.table: DataTable | None = None
        self.fields: dict[FieldPath, QWidget] = {}
        self._order: list[QWidget] = []

    def _build(self) -> None:
        self.build()

    def _show_kind(self) -> None:
        from modu_desktop.ui.editing.block_picker import block_picture

        self.title.setText(self.spec.name)
        self.set_subtitle(self.spec.description)
        try:
            self.set_picture(block_picture(self.spec, size=PICTURE))
        except Exception:  # a missing picture file never stops the card
            self.set_picture(None)

    def _items(self) -> list[dict[str, str]]:
        return [it.values() for it in self.model.body.items] if self.model.body else []

    # --- building ---
    def build(self, focus: FieldPath | None = None) -> None:
        if self.form is not None:
            self.holder.removeWidget(self.form)
            self.form.hide()
            self.form.deleteLater()  # later: a key press in one of its fields may be running
        self.form = QWidget()
        self.form.setObjectName("blockCardForm")
        self.table = None
        self.holder.addWidget(self.form)
        self.fields = {}
        self._order = []
        lay = QVBoxLayout(self.form)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(6)
        model, spec = self.model, self.spec
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
            note = QLabel(
                tr("The form cannot read some lines; they stay in the text unchanged:")
                + "\n"
                + "\n".join(lines)
            )
            note.setObjectName("blockCardProblems")
            note.setWordWrap(True)
            note.setTextFormat(Qt.TextFormat.PlainText)
            lay.addWidget(note)
        specs = list(spec.fields)
        known = {f.key for f in specs}
        specs.extend(FieldSpec(k) for k in model.values() if k not in known)
        if model.kind == "datatable":  # typed and chosen in each column's heading instead
            specs = [fs for fs in specs if fs.key not in ("columns", "align")]
        rows: list[QWidget] = []
        for fs in specs:
            w = self._field(fs, model.get(fs.key), partial(self._set_meta, fs.key))
            w.setObjectName(f"blockField_{fs.key}")
            row = QWidget()
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            caption = QLabel(fs.label)
            caption.setFixedWidth(META_LABEL_WIDTH)
            caption.setWordWrap(True)
            caption.setBuddy(w)
            line.addWidget(caption)
            line.addWidget(w, 1)
            self._name_field(w, fs.label, ("meta", 0, fs.key))
            rows.append(row)
        meta = ItemGrid(column_width=META_COLUMN_WIDTH)
        meta.setObjectName("blockMeta")
        meta.set_boxes(rows)
        lay.addWidget(meta)
        self._add_lists(lay)
        self.set_read_only(self.read_only)
        if focus is not None:
            target = self.fields.get(focus)
            if target is None and focus[0] != "meta":
                same_item = [w for p, w in self.fields.items() if p[:2] == focus[:2]]
                target = same_item[0] if same_item else None
            if target is not None:
                target.setFocus(Qt.FocusReason.OtherFocusReason)

    def _add_lists(self, lay: QVBoxLayout) -> None:
        """The block's rows (a table) or its items, under its fields."""
        model, spec = self.model, self.spec
        if model.kind == "datatable" and model.body is not None:
            lay.addWidget(QLabel(tr("Rows")))
            table = DataTable(model, lambda: self._emit(False))
            table.setObjectName("blockTable_rows")
            lay.addWidget(table)
            self._order.append(table.table)
            self.table = table
        elif model.kind == "split":
            for name, fields, heading in (
                ("left", spec.left_fields, tr("Left items")),
                ("right", spec.right_fields, tr("Right items")),
            ):
                self._add_items(lay, name, model.section(name), fields, heading)
        elif model.body is not None and (spec.item_fields or model.body.items):
            self._add_items(lay, "items", model.body, spec.item_fields, tr("Items"))

    def _name_field(self, w: QWidget, label: str, path: FieldPath) -> None:
        w.setAccessibleName(label)
        line = w.lineEdit() if isinstance(w, QComboBox) else None
        if line is not None:
            line.setAccessibleName(label)
        w.setProperty("fieldPath", "/".join(map(str, path)))
        self.fields[path] = w
        self._order.append(w)

    def _add_row(self, form: QFormLayout, label: str, w: QWidget, path: FieldPath) -> None:
        caption = QLabel(label)
        caption.setBuddy(w)
        form.addRow(caption, w)
        self._name_field(w, label, path)

    def _field(
        self, fs: FieldSpec, value: str | None, changed: Callable[[str | None], None]
    ) -> QWidget:
        value = value or ""
        if fs.kind == "bool":
            box = QCheckBox()
            box.setChecked(value.strip().lower() == "true")
            box.toggled.connect(lambda on: changed("true" if on else None))
            return box
        if fs.kind == "choice":
            return ChoiceBox(fs, value, changed)
        edit = QLineEdit(value)
        edit.setCursorPosition(0)  # a long value shows its beginning
        edit.textEdited.connect(lambda v: changed(v))
        if fs.kind == "pipes":
            edit.setPlaceholderText(tr("Separate several with |"))
        return edit

    def _add_items(
        self,
        lay: QVBoxLayout,
        name: str,
        body: ItemList,
        fields: tuple[FieldSpec, ...],
        heading: str,
    ) -> None:
        caption = QLabel(heading)
        font = caption.font()
        font.setBold(True)
        caption.setFont(font)
        add = QPushButton(tr("Add item"))
        add.setObjectName(f"addItemButton_{name}")
        add.setAccessibleName(f"{heading}: {tr('Add item')}")
        add.clicked.connect(lambda _c=False: self.add_item(name, len(body.items) - 1))
        row = QHBoxLayout()
        row.addWidget(caption)
        row.addStretch(1)
        row.addWidget(add)
        lay.addLayout(row)
        keys = [f.key for f in fields]
        for it in body.items:
            for f in it.fields():
                if f.key not in keys:
                    keys.append(f.key)
        specs = {f.key: f for f in fields}
        grid = ItemGrid()
        grid.setObjectName(f"blockItems_{name}")
        grid.set_boxes(
            [
                self._item_box(name, body, index, item, keys, specs)
                for index, item in enumerate(body.items)
            ]
        )
        lay.addWidget(grid)
        self._order.append(add)  # Tab reaches it after the items

    def _item_box(
        self,
        name: str,
        body: ItemList,
        index: int,
        item: Item,
        keys: list[str],
        specs: dict[str, FieldSpec],
    ) -> QFrame:
        box = QFrame()
        box.setObjectName("blockItem")
        box.setAccessibleName(tr("Item {n}", n=index + 1))
        row = QHBoxLayout(box)
        row.setContentsMargins(8, 4, 2, 4)
        outer = QVBoxLayout()
        row.addLayout(outer, 1)
        # the item's number and its buttons in a narrow column at the right
        head = QVBoxLayout()
        head.setSpacing(0)
        title = QLabel(str(index + 1))
        title.setObjectName("blockItemTitle")
        title.setToolTip(tr("Item {n}", n=index + 1))
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        head.addWidget(title)
        for key, text, tip in (
            ("up", "▲", tr("Move the item up ({keys})", keys=ITEM_UP_KEYS)),
            ("down", "▼", tr("Move the item down ({keys})", keys=ITEM_DOWN_KEYS)),
            ("remove", "✕", tr("Remove the item ({keys})", keys=ITEM_REMOVE_KEYS)),
        ):
            b = QToolButton()
            b.setObjectName(f"item_{key}_{name}_{index}")
            b.setText(text)
            b.setToolTip(tip)
            b.setAccessibleName(tr("Item {n}", n=index + 1) + ": " + tip)
            b.setAutoRaise(True)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.clicked.connect(lambda _c=False, k=key: self._item_action(name, index, k))
            head.addWidget(b)
        head.addStretch(1)
        row.addLayout(head)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        if not item.fields():  # an item the form cannot read: shown, kept
            raw = QLabel(item.head.render())
            raw.setTextFormat(Qt.TextFormat.PlainText)
            outer.addWidget(raw)
        else:
            values = item.values()
            for key in keys:
                fs = specs.get(key, FieldSpec(key))
                w = self._field(fs, values.get(key), partial(self._set_item, item, key))
                w.setObjectName(f"itemField_{name}_{index}_{key}")
                w.installEventFilter(_ItemKeys(self, name, index, box))
                self._add_row(form, field_label(key), w, (name, index, key))
        outer.addLayout(form)
        return box

    # --- editing ---
    def _emit(self, typing: bool) -> None:
        if self.read_only:
            return
        self.edited.emit(self, self.model.text(), typing)

    def _set_meta(self, key: str, value: str | None) -> None:
        if self.read_only:
            return
        if value is None:
            remove_field(self.model, key)
        else:
            self.model.set(key, value)
        self._emit(value is not None)

    def _set_item(self, item: Item, key: str, value: str | None) -> None:
        if self.read_only:
            return
        if value is None:
            item.lines = [ln for ln in item.lines if not (isinstance(ln, Field) and ln.key == key)]
            if isinstance(item.head, Field) and item.head.key == key:
                item.head.set_value("")
        else:
            item.set(key, value)
        self._emit(value is not None)

    def _list(self, name: str) -> ItemList | None:
        if self.model.kind == "split":
            return self.model.section(name)
        return self.model.body

    def add_item(self, name: str, after: int) -> None:
        body = self._list(name)
        if body is None or self.read_only:
            return
        keys: list[str] = []
        for it in body.items:
            keys.extend(f.key for f in it.fields() if f.key not in keys)
        fields = self.spec.left_fields if name == "left" else (
            self.spec.right_fields if name == "right" else self.spec.item_fields
        )  # fmt: skip
        keys = [f.key for f in fields] + [k for k in keys if k not in {f.key for f in fields}]
        first = _first_key(keys)
        new = self.model.new_item({first: tr("New item")}, into=name)
        at = body.add(new, after + 1)
        self._emit(False)
        self.build(focus=(name, at, first))
        widget = self.fields.get((name, at, first))
        if isinstance(widget, QLineEdit):
            widget.selectAll()

    def _item_action(self, name: str, index: int, action: str) -> None:
        body = self._list(name)
        if body is None or self.read_only or not 0 <= index < len(body.items):
            return
        if action == "remove":
            body.remove(index)
            self._emit(False)
            self.build(focus=(name, min(index, len(body.items) - 1), ""))
            return
        dst = index + (-1 if action == "up" else 1)
        if not 0 <= dst < len(body.items):
            return
        body.move(index, dst)
        self._emit(False)
        focused = self.focusWidget()
        key = ""
        for path, w in self.fields.items():
            if w is focused:
                key = path[2]
        self.build(focus=(name, dst, key))

    # --- the page editor's questions ---
    def set_source(self, source: str, segment: CardSpan) -> None:
        if source == self.model.text():
            self.source = source
            return
        focused = self.focusWidget()
        path = next((p for p, w in self.fields.items() if w is focused), None)
        self.source = source
        self.model = block_model.parse(source)
        spec = spec_for(self.model.kind, self._items())
        if spec is not self.spec:  # the block became another kind (edited as text)
            self.spec = spec
            self._show_kind()
        if self.is_built:
            self.build(focus=path)

    def focus_widgets(self) -> list[QWidget]:
        self.ensure_built()
        return [w for w in self._order if w.focusPolicy() != Qt.FocusPolicy.NoFocus]

    def set_read_only(self, ro: bool) -> None:
        super().set_read_only(ro)
        for w in self.fields.values():
            if isinstance(w, QLineEdit):
                w.setReadOnly(ro)
            else:
                w.setEnabled(not ro)
        if self.form is not None:
            for b in self.form.findChildren(QAbstractButton):
                if not isinstance(b, QCheckBox):
                    b.setEnabled(not ro)
        if self.table is not None:
            self.table.set_read_only(ro)


class ItemGrid(QWidget):
    """Items side by side in as many columns as fit (one in a narrow window)."""

    def __init__(self, parent: QWidget | None = None, *, column_width: int = 340) -> None:
        super().__init__(parent)
        self.column_width = column_width
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(6)
        self.boxes: list[QWidget] = []
        self.columns = 0

    def set_boxes(self, boxes: list[QWidget]) -> None:
        self.boxes = boxes
        self._place(self._columns_for(max(self.width(), 1)))

    def _columns_for(self, width: int) -> int:
        fit = max(1, (width + self.grid.spacing()) // self.column_width)
        return max(1, min(fit, len(self.boxes) or 1))

    def _place(self, columns: int) -> None:
        for box in self.boxes:
            self.grid.removeWidget(box)
        for n, box in enumerate(self.boxes):
            self.grid.addWidget(box, n // columns, n % columns, Qt.AlignmentFlag.AlignTop)
        for c in range(max(columns, self.columns)):
            self.grid.setColumnStretch(c, 1 if c < columns else 0)
        self.columns = columns

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        columns = self._columns_for(event.size().width())
        if columns != self.columns:
            self._place(columns)


class _ItemKeys(QObject):
    """Enter adds an item after this one; Alt+↑/↓ move it; Alt+Delete removes it."""

    def __init__(self, card: BlockCard, name: str, index: int, parent: QObject) -> None:
        super().__init__(parent)
        self.card, self.name, self.index = card, name, index

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return False
        key, mods = event.key(), event.modifiers()
        alt = mods == Qt.KeyboardModifier.AltModifier
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not mods & ~(
            Qt.KeyboardModifier.KeypadModifier
        ):
            if isinstance(obj, QComboBox) and obj.view().isVisible():
                return False
            self.card.add_item(self.name, self.index)
            return True
        if alt and key == Qt.Key.Key_Up:
            self.card._item_action(self.name, self.index, "up")
            return True
        if alt and key == Qt.Key.Key_Down:
            self.card._item_action(self.name, self.index, "down")
            return True
        if alt and key == Qt.Key.Key_Delete:
            self.card._item_action(self.name, self.index, "remove")
            return True
        return False
