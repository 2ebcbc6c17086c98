"""“블록 넣기”: choose one of the 18 brochure blocks by its name, description and a small picture.

The picture is the block's own filled-in example as the preview draws it, made once by
``scripts/block_pictures.py`` with the preview itself (Qt WebEngine paints in steps, too slowly
for a dialog to wait) and shipped in ``resources/blocks/``. Enter (or a double-click) inserts;
Esc closes without changing anything.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QIcon, QImage, QPainter, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.account.paths import resources_dir
from modu_desktop.core.brochure.catalog import CATALOG, BlockSpec
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.fit import fit_to_screen

PICTURE = QSize(168, 96)
_RENDER_WIDTH = 520
_cache: dict[tuple[str, str, int, int], QPixmap] = {}


def block_picture(spec: BlockSpec, theme: str | None = None, size: QSize = PICTURE) -> QPixmap:
    """The block's example as the preview draws it (``resources/blocks/{entry}.png``), framed
    and scaled into ``size`` (cached). ``theme`` is accepted for the picker's sake; the shipped
    pictures use the site's default theme."""
    key = (spec.entry, theme or "", size.width(), size.height())
    hit = _cache.get(key)
    if hit is not None:
        return hit
    image = QImage(str(resources_dir() / "blocks" / f"{spec.entry}.png"))
    scaled = image.scaled(
        size,
        Qt.AspectRatioMode.KeepAspectRatioByExpanding,
        Qt.TransformationMode.SmoothTransformation,
    ).copy(0, 0, size.width(), size.height())
    framed = QPixmap(size)
    framed.fill(QColor("#ffffff"))
    p = QPainter(framed)
    p.drawImage(0, 0, scaled)
    p.setPen(QColor("#c8d1dc"))
    p.drawRect(0, 0, size.width() - 1, size.height() - 1)
    p.end()
    _cache[key] = framed
    return framed


class _Delegate(QStyledItemDelegate):
    """Picture on the left; the name in bold and the description under it."""

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:  # noqa: N802
        return QSize(PICTURE.width() + 260, PICTURE.height() + 10)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        style = opt.widget.style() if opt.widget else QApplication.style()
        opt.text = ""
        opt.icon = QIcon()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        r = option.rect.adjusted(5, 5, -5, -5)
        pix = index.data(Qt.ItemDataRole.DecorationRole)
        if isinstance(pix, QIcon):
            painter.drawPixmap(r.left(), r.top(), pix.pixmap(PICTURE))
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        pen = (
            option.palette.highlightedText().color() if selected else option.palette.text().color()
        )
        painter.save()
        painter.setPen(pen)
        text_rect = r.adjusted(PICTURE.width() + 12, 4, 0, 0)
        bold = QFont(option.font)
        bold.setBold(True)
        bold.setPointSizeF(option.font.pointSizeF() * 1.1)
        painter.setFont(bold)
        name = str(index.data(NAME_ROLE) or "")
        fm = painter.fontMetrics()
        painter.drawText(
            text_rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), name
        )
        painter.setFont(option.font)
        desc_rect = text_rect.adjusted(0, fm.height() + 4, 0, 0)
        painter.drawText(
            desc_rect,
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap),
            str(index.data(DESC_ROLE) or ""),
        )
        painter.restore()


NAME_ROLE = int(Qt.ItemDataRole.UserRole) + 1
DESC_ROLE = int(Qt.ItemDataRole.UserRole) + 2


class BlockPicker(QDialog):
    """Lists the 18 blocks; :attr:`chosen` is the picked :class:`BlockSpec` after ``accept``."""

    picked = Signal(object)  # BlockSpec

    def __init__(self, parent: QWidget | None = None, *, theme: str | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("blockPicker")
        self.setWindowTitle(tr("Insert a block"))
        self.setModal(True)
        self.chosen: BlockSpec | None = None
        lay = QVBoxLayout(self)
        intro = QLabel(
            tr("Choose a block. A filled-in example goes in at the cursor; change it in the form.")
        )
        intro.setWordWrap(True)
        lay.addWidget(intro)
        self.filter = QLineEdit()
        self.filter.setObjectName("blockPickerFilter")
        self.filter.setPlaceholderText(tr("Search blocks"))
        self.filter.setAccessibleName(tr("Search blocks"))
        self.filter.setClearButtonEnabled(True)
        lay.addWidget(self.filter)
        self.list = QListWidget()
        self.list.setObjectName("blockPickerList")
        self.list.setAccessibleName(tr("Blocks"))
        self.list.setIconSize(PICTURE)
        self.list.setSpacing(3)
        self.list.setWordWrap(True)
        self.list.setUniformItemSizes(True)
        self.list.setItemDelegate(_Delegate(self.list))
        for spec in CATALOG:
            item = QListWidgetItem(QIcon(block_picture(spec, theme)), "")
            item.setText(f"{spec.name} — {spec.description}")
            item.setData(NAME_ROLE, spec.name)
            item.setData(DESC_ROLE, spec.description)
            item.setData(Qt.ItemDataRole.UserRole, spec.entry)
            item.setToolTip(f":::{spec.kind}")
            item.setData(Qt.ItemDataRole.AccessibleTextRole, spec.name)
            item.setData(Qt.ItemDataRole.AccessibleDescriptionRole, spec.description)
            self.list.addItem(item)
        self.list.setCurrentRow(0)
        lay.addWidget(self.list, 1)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(tr("Insert"))
        ok.setObjectName("blockPickerInsert")
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.list.itemActivated.connect(lambda _i: self.accept())
        self.filter.textChanged.connect(self._filter)
        self.filter.returnPressed.connect(self.accept)
        fit_to_screen(self, 620, 640)
        self.list.setFocus()

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        first = None
        for row in range(self.list.count()):
            item = self.list.item(row)
            entry = str(item.data(Qt.ItemDataRole.UserRole))
            hay = f"{item.text()} {entry}".lower()
            hidden = bool(needle) and needle not in hay
            item.setHidden(hidden)
            if not hidden and first is None:
                first = row
        if first is not None and (
            self.list.currentItem() is None or self.list.currentItem().isHidden()
        ):
            self.list.setCurrentRow(first)

    def entries(self) -> list[str]:
        return [
            str(self.list.item(r).data(Qt.ItemDataRole.UserRole)) for r in range(self.list.count())
        ]

    def select(self, entry: str) -> None:
        for r in range(self.list.count()):
            if self.list.item(r).data(Qt.ItemDataRole.UserRole) == entry:
                self.list.setCurrentRow(r)
                return
        raise KeyError(entry)

    def accept(self) -> None:
        item = self.list.currentItem()
        if item is None or item.isHidden():
            return
        from modu_desktop.core.brochure.catalog import BY_ENTRY

        self.chosen = BY_ENTRY[str(item.data(Qt.ItemDataRole.UserRole))]
        self.picked.emit(self.chosen)
        super().accept()
