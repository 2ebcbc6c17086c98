"""The 페이지 설정 form (the front matter as fields) and the theme/layout swatches (names and
colours from ``core/brochure/themes.py``, the one table of the site's themes and layouts)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QWidget,
)

from modu_desktop.core.brochure.themes import (
    DEFAULT_THEME,
    LAYOUT_BY_KEY,
    LAYOUTS,
    THEME_BY_KEY,
    THEMES,
)
from modu_desktop.i18n import tr


class FrontMatterForm(QGroupBox):
    """title, nav_label, sidebar_position, theme, layout — edits go back into the text."""

    fieldEdited = Signal(str, object)  # key, value (None = remove)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(tr("Page settings"), parent)
        self.setObjectName("frontMatterForm")
        self.setAccessibleName(tr("Page settings (front matter)"))
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.title_edit = QLineEdit()
        self.title_edit.setObjectName("fmTitle")
        self.nav_edit = QLineEdit()
        self.nav_edit.setObjectName("fmNavLabel")
        self.position_edit = QLineEdit()
        self.position_edit.setObjectName("fmPosition")
        self.position_edit.setMaximumWidth(90)
        self.position_edit.setInputMask("")
        self.position_edit.setPlaceholderText(tr("last"))
        self.theme_box = QComboBox()
        self.theme_box.setObjectName("fmTheme")
        self.theme_box.addItem(tr("(default)"), None)
        for theme in THEMES:
            self.theme_box.addItem(theme_swatch(theme.key), theme.label, theme.key)
            # the whole name where a narrow box cuts it, never the site's key for it
            self.theme_box.setItemData(
                self.theme_box.count() - 1, theme.label, Qt.ItemDataRole.ToolTipRole
            )
        self.layout_box = QComboBox()
        self.layout_box.setObjectName("fmLayout")
        self.layout_box.addItem(tr("(default)"), None)
        for layout in LAYOUTS:
            self.layout_box.addItem(
                layout_swatch(layout.key), f"{layout.label} ({layout.width_px}px)", layout.key
            )

        for box in (self.theme_box, self.layout_box):  # long Korean names must not widen the form
            box.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            box.setMinimumContentsLength(8)
        self.theme_label = QLabel(tr("The&me:"))
        self.theme_label.setBuddy(self.theme_box)
        self.layout_label = QLabel(tr("La&yout:"))
        self.layout_label.setBuddy(self.layout_box)
        row = QWidget()
        self.choices = QGridLayout(row)
        self.choices.setContentsMargins(0, 0, 0, 0)
        self.narrow: bool | None = None
        self._arrange(narrow=False)

        title_label = QLabel(tr("&Title:"))
        title_label.setBuddy(self.title_edit)
        nav_label = QLabel(tr("Menu la&bel:"))
        nav_label.setBuddy(self.nav_edit)
        pos_label = QLabel(tr("O&rder:"))
        pos_label.setBuddy(self.position_edit)
        form.addRow(title_label, self.title_edit)
        form.addRow(nav_label, self.nav_edit)
        form.addRow(pos_label, row)
        self.title_edit.setAccessibleName(tr("Title"))
        self.nav_edit.setAccessibleName(tr("Menu label (nav_label)"))
        self.position_edit.setAccessibleName(tr("Order in the menu (sidebar_position)"))
        self.theme_box.setAccessibleName(tr("Colour theme"))
        self.layout_box.setAccessibleName(tr("Layout"))

        self.title_edit.textEdited.connect(lambda v: self.fieldEdited.emit("title", v or None))
        self.nav_edit.textEdited.connect(lambda v: self.fieldEdited.emit("nav_label", v or None))
        self.position_edit.textEdited.connect(self._position_edited)
        self.theme_box.activated.connect(
            lambda _i: self.fieldEdited.emit("theme", self.theme_box.currentData())
        )
        self.layout_box.activated.connect(
            lambda _i: self.fieldEdited.emit("layout", self.layout_box.currentData())
        )

    def _arrange(self, *, narrow: bool) -> None:
        """Order, theme and layout on one line; in a narrow pane the layout goes under the
        theme, so that neither choice is cut to "공공 블루 (챕"."""
        if narrow == self.narrow:
            return
        self.narrow = narrow
        grid = self.choices
        for w in (self.position_edit, self.theme_label, self.theme_box):
            grid.removeWidget(w)
        for w in (self.layout_label, self.layout_box):
            grid.removeWidget(w)
        grid.addWidget(self.position_edit, 0, 0)
        grid.addWidget(self.theme_label, 0, 1)
        grid.addWidget(self.theme_box, 0, 2)
        at = (1, 1) if narrow else (0, 3)
        grid.addWidget(self.layout_label, *at)
        grid.addWidget(self.layout_box, at[0], at[1] + 1)
        for column in range(5):
            grid.setColumnStretch(column, 1 if column == 2 or (column == 4 and not narrow) else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._arrange(narrow=event.size().width() < self._one_line_width())

    def _one_line_width(self) -> int:
        """How wide the form must be to show both choices whole on one line."""
        fm = self.fontMetrics()

        def whole(box: QComboBox) -> int:
            longest = max(fm.horizontalAdvance(box.itemText(i)) for i in range(box.count()))
            return longest + box.iconSize().width() + 48  # the arrow, the frame and padding

        labels = sum(fm.horizontalAdvance(w.text().replace("&", "")) for w in
                     (self.theme_label, self.layout_label))  # fmt: skip
        form_labels = fm.horizontalAdvance(tr("Menu la&bel:").replace("&", "")) + 40
        return (form_labels + self.position_edit.maximumWidth() + labels
                + whole(self.theme_box) + whole(self.layout_box) + 40)  # fmt: skip

    def _position_edited(self, text: str) -> None:
        text = text.strip()
        if not text:
            self.fieldEdited.emit("sidebar_position", None)
            return
        try:
            self.fieldEdited.emit("sidebar_position", int(text))
        except ValueError:
            return  # not a number (yet): leave the text alone

    def set_values(self, values: dict[str, Any]) -> None:
        """Show values parsed from the text, without echoing them back as edits."""
        for w, key in ((self.title_edit, "title"), (self.nav_edit, "nav_label")):
            v = values.get(key)
            text = "" if v is None else str(v)
            if w.text() != text and not w.hasFocus():
                w.setText(text)
        pos = values.get("sidebar_position")
        ptext = "" if pos is None else str(pos)
        if self.position_edit.text().strip() != ptext and not self.position_edit.hasFocus():
            self.position_edit.setText(ptext)
        for box, key in ((self.theme_box, "theme"), (self.layout_box, "layout")):
            v = values.get(key)
            idx = box.findData(v) if v is not None else 0
            if idx < 0:  # unknown value in the file: show it, keep it
                box.addItem(str(v), v)
                idx = box.count() - 1
            if box.currentIndex() != idx:
                box.setCurrentIndex(idx)

    def set_read_only(self, ro: bool) -> None:
        """Every field at once, and all alike: greyed out and not editable."""
        for w in (self.title_edit, self.nav_edit, self.position_edit):
            w.setReadOnly(ro)
            w.setEnabled(not ro)
        self.theme_box.setEnabled(not ro)
        self.layout_box.setEnabled(not ro)


def theme_swatch(key: str, size: int = 16) -> QIcon:
    """A small square of the theme's colours: dark primary, light tone, accent stripe."""
    c = THEME_BY_KEY[key]
    pix = QPixmap(size * 2, size)
    pix.fill(QColor(c.primary))
    p = QPainter(pix)
    p.fillRect(QRect(size, 0, size, size), QColor(c.light))
    p.fillRect(QRect(0, size - 4, size * 2, 4), QColor(c.accent))
    p.setPen(QColor("#8a94a6"))
    p.drawRect(0, 0, size * 2 - 1, size - 1)
    p.end()
    return QIcon(pix)


def layout_swatch(key: str, size: int = 16) -> QIcon:
    """A page outline as wide as the layout (the widest fills the box)."""
    width = LAYOUT_BY_KEY[key].width_px
    pix = QPixmap(size * 2, size)
    pix.fill(QColor(0, 0, 0, 0))
    p = QPainter(pix)
    widest = max(la.width_px for la in LAYOUTS)
    w = max(6, int((size * 2 - 2) * width / widest))
    x = (size * 2 - w) // 2
    p.fillRect(QRect(x, 2, w, size - 4), QColor("#dbe6f5"))
    p.setPen(QColor(THEME_BY_KEY[DEFAULT_THEME].primary))
    p.drawRect(x, 2, w - 1, size - 5)
    p.end()
    return QIcon(pix)
