"""A data table's cells as the site shows them (the Qt side of :mod:`core.brochure.cells`): bold
words bold, accent words in the accent colour, italic words italic, each column aligned as
chosen — never ``**``, ``[!…]`` or ``[~…]``.

:class:`CellDelegate` draws a cell from its text as written and edits it in a
:class:`CellEditor`, a one-line rich text box (Ctrl+B bold, Ctrl+I italic, Ctrl+E the accent
colour; Enter keeps the cell); :class:`ColumnHeader` makes every column's heading a box to
type in, with a 왼쪽 / 가운데 / 오른쪽 choice under it.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QRegularExpression,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QKeyEvent,
    QPainter,
    QRegularExpressionValidator,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QApplication,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionHeader,
    QStyleOptionViewItem,
    QTableWidget,
    QTextEdit,
    QWidget,
)

from modu_desktop.core.brochure.catalog import choice_label
from modu_desktop.core.brochure.cells import (
    ACCENT,
    ALIGNMENTS,
    BOLD,
    ITALIC,
    PLAIN,
    Cell,
    CellRun,
    merged,
    read_cell,
)
from modu_desktop.i18n import tr

Index = QModelIndex | QPersistentModelIndex
RAW_ROLE = int(Qt.ItemDataRole.UserRole) + 1  # the cell's text as written in the row
STYLE_PROP = int(QTextFormat.Property.UserProperty) + 30
ACCENT_COLOUR = QColor("#e63312")  # the site's accent colour of its default theme
_HTML_TAGS = {
    BOLD: ("<b>", "</b>"),
    ACCENT: (f'<b><span style="color: {ACCENT_COLOUR.name()}">', "</span></b>"),
    ITALIC: ("<i>", "</i>"),
}
_STYLE_KEYS = {Qt.Key.Key_B: BOLD, Qt.Key.Key_I: ITALIC, Qt.Key.Key_E: ACCENT}


def cell_html(cell: Cell, align: str = "left") -> str:
    """A cell as rich text, drawn as the site draws it."""
    parts = []
    for run in cell:
        opening, closing = _HTML_TAGS.get(run.style, ("", ""))
        parts.append(f"{opening}{html.escape(run.text)}{closing}")
    return f'<div align="{align}">{"".join(parts)}</div>'


def style_format(style: str) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setProperty(STYLE_PROP, style)
    heavy = style in (BOLD, ACCENT)
    fmt.setFontWeight(QFont.Weight.Bold if heavy else QFont.Weight.Normal)
    fmt.setFontItalic(style == ITALIC)
    if style == ACCENT:
        fmt.setForeground(ACCENT_COLOUR)
    else:
        fmt.clearForeground()
    return fmt


def style_of(fmt: QTextCharFormat) -> str:
    return str(fmt.stringProperty(STYLE_PROP) or PLAIN)


def toggled(cell: Cell, style: str) -> Cell:
    """The whole cell in ``style``, or plain again when it all was."""
    every = bool(cell) and all(run.style == style for run in cell)
    return merged(CellRun(run.text, PLAIN if every else style) for run in cell)


class CellEditor(QTextEdit):
    """One cell's words on one line, with their bold, accent and italic."""

    finished = Signal()  # Enter: keep the cell

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tableCellEditor")
        self.setAcceptRichText(False)
        self.setLineWrapMode(QTextEdit.LineWrapMode.NoWrap)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setTabChangesFocus(True)
        self.document().setDocumentMargin(2)

    def set_cell(self, cell: Cell) -> None:
        self.clear()
        cur = QTextCursor(self.document())
        for run in cell:
            cur.insertText(run.text, style_format(run.style))
        # the whole cell chosen, as a line's editor in a table is: typing replaces it
        self.selectAll()

    def cell(self) -> Cell:
        runs = []
        block = self.document().begin()
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            it += 1
            runs.append(CellRun(frag.text(), style_of(frag.charFormat())))
        return merged(runs)

    def toggle(self, style: str) -> None:
        """``style`` on the chosen words (or what is typed next), off when they all had it."""
        cur = self.textCursor()
        if not cur.hasSelection():
            now = style_of(self.currentCharFormat())
            self.setCurrentCharFormat(style_format(PLAIN if now == style else style))
            return
        start, end = cur.selectionStart(), cur.selectionEnd()
        chosen = [r for r in self._runs_between(start, end)]
        every = bool(chosen) and all(s == style for s in chosen)
        cur.setCharFormat(style_format(PLAIN if every else style))
        self.setTextCursor(cur)

    def _runs_between(self, start: int, end: int) -> list[str]:
        out = []
        it = self.document().begin().begin()
        while not it.atEnd():
            frag = it.fragment()
            it += 1
            if frag.position() < end and frag.position() + frag.length() > start:
                out.append(style_of(frag.charFormat()))
        return out

    def event(self, event: QEvent) -> bool:
        # the window's own Ctrl+B / Ctrl+I / Ctrl+E never take the keys from a cell
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and self._style_key(event) is not None
        ):
            event.accept()
            return True
        return super().event(event)

    @staticmethod
    def _style_key(event: QKeyEvent) -> str | None:
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier != (
            Qt.KeyboardModifier.ControlModifier
        ):
            return None
        return _STYLE_KEYS.get(Qt.Key(event.key()))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        style = self._style_key(event)
        if style is not None:
            self.toggle(style)
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finished.emit()  # a cell is one line: Enter keeps it
            return
        super().keyPressEvent(event)

    def insertFromMimeData(self, source: object) -> None:  # noqa: N802 - Qt API
        text = getattr(source, "text", lambda: "")()
        if text:
            self.textCursor().insertText(" ".join(str(text).splitlines()))


class CellDelegate(QStyledItemDelegate):
    """Draws a cell from its text as written; edits it in a :class:`CellEditor`.

    ``align(column)`` says how a column is aligned; ``commit(row, column, cell)`` writes an
    edited cell into the block."""

    def __init__(
        self,
        view: QTableWidget,
        align: Callable[[int], str],
        commit: Callable[[int, int, Cell], None],
    ) -> None:
        super().__init__(view)
        self.view = view
        self.align = align
        self.commit = commit
        self.editor: CellEditor | None = None  # the cell open for typing, if any

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        doc = QTextDocument()
        doc.setDefaultFont(opt.font)
        doc.setDocumentMargin(2)
        doc.setHtml(
            cell_html(read_cell(str(index.data(RAW_ROLE) or "")), self.align(index.column()))
        )
        doc.setTextWidth(opt.rect.width())
        painter.save()
        top = opt.rect.top() + max(0, (opt.rect.height() - int(doc.size().height())) // 2)
        painter.translate(opt.rect.left(), top)
        painter.setClipRect(QRect(0, 0, opt.rect.width(), opt.rect.height()))
        doc.drawContents(painter)
        painter.restore()

    def createEditor(  # noqa: N802 - Qt API
        self, parent: QWidget, option: QStyleOptionViewItem, index: Index
    ) -> QWidget:
        editor = CellEditor(parent)
        editor.finished.connect(lambda: self._finish(editor))
        editor.destroyed.connect(lambda _o=None: self._forget(editor))
        self.editor = editor
        return editor

    def _forget(self, editor: CellEditor) -> None:
        if self.editor is editor:
            self.editor = None

    def _finish(self, editor: CellEditor) -> None:
        self.commitData.emit(editor)
        self.closeEditor.emit(editor, QAbstractItemDelegate.EndEditHint.NoHint)

    def setEditorData(self, editor: QWidget, index: Index) -> None:  # noqa: N802
        if isinstance(editor, CellEditor):
            editor.set_cell(read_cell(str(index.data(RAW_ROLE) or "")))

    def setModelData(  # noqa: N802 - Qt API
        self, editor: QWidget, model: QAbstractItemModel, index: Index
    ) -> None:
        if isinstance(editor, CellEditor):
            self.commit(index.row(), index.column(), editor.cell())

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:  # noqa: N802
        size = super().sizeHint(option, index)
        return QSize(size.width(), max(size.height(), option.fontMetrics.height() + 10))


class ColumnHeader(QHeaderView):
    """Each column's heading as a box to type in, with a 왼쪽 / 가운데 / 오른쪽 choice under it;
    ``renamed(column, heading)`` as a heading is typed, ``chosen(column, alignment)`` when an
    alignment is picked. The headings are never a line of ``|``-separated words."""

    chosen = Signal(int, str)
    renamed = Signal(int, str)

    def __init__(self, parent: QTableWidget) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setObjectName("dataTableHeader")
        self.setSectionsClickable(False)  # a click types a heading or picks an alignment
        self.combos: list[QComboBox] = []
        self.headings: list[QLineEdit] = []
        self._combo_height = QComboBox().sizeHint().height()
        self._heading_height = QLineEdit().sizeHint().height()
        self.sectionResized.connect(lambda *_a: self.place())
        parent.horizontalScrollBar().valueChanged.connect(lambda _v: self.place())

    def set_columns(self, aligns: list[str], names: list[str]) -> None:
        for widget in [*self.combos, *self.headings]:
            widget.hide()
            widget.deleteLater()
        self.combos = []
        self.headings = []
        for column, value in enumerate(aligns):
            given = names[column] if column < len(names) else ""
            name = given or str(column + 1)
            heading = QLineEdit(given, self.viewport())
            heading.setObjectName(f"columnHeading_{column}")
            heading.setAlignment(Qt.AlignmentFlag.AlignCenter)
            heading.setAccessibleName(tr("Heading of column {number}", number=column + 1))
            heading.setPlaceholderText(tr("Column heading"))
            # a | would split the heading in two on the site
            heading.setValidator(QRegularExpressionValidator(QRegularExpression(r"[^|]*"), heading))
            heading.textEdited.connect(lambda text, c=column: self.renamed.emit(c, text))
            self.headings.append(heading)
            combo = QComboBox(self.viewport())
            combo.setObjectName(f"columnAlign_{column}")
            combo.setAccessibleName(tr("Alignment of the column “{column}”", column=name))
            combo.setToolTip(combo.accessibleName())
            for word in ALIGNMENTS:
                combo.addItem(choice_label("align", word), word)
            combo.setCurrentIndex(ALIGNMENTS.index(value) if value in ALIGNMENTS else 0)
            combo.activated.connect(
                lambda i, c=column, box=combo: self.chosen.emit(c, str(box.itemData(i)))
            )
            self.combos.append(combo)
        self.updateGeometry()
        self.place()

    def place(self) -> None:
        below = self._combo_height + 4
        for column, (heading, combo) in enumerate(zip(self.headings, self.combos, strict=True)):
            if column >= self.count() or self.isSectionHidden(column):
                heading.hide()
                combo.hide()
                continue
            x = self.sectionViewportPosition(column)
            width = self.sectionSize(column) - 4
            heading.setGeometry(x + 2, 2, width, self._heading_height)
            combo.setGeometry(x + 2, self.height() - below + 2, width, self._combo_height)
            heading.show()
            combo.show()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        size = super().sizeHint()
        return QSize(size.width(), self._heading_height + self._combo_height + 8)

    def paintSection(self, painter: QPainter, rect: QRect, index: int) -> None:  # noqa: N802
        # the section's frame only: its heading is the box typed in, drawn over it
        option = QStyleOptionHeader()
        self.initStyleOption(option)
        option.rect = rect
        option.section = index
        self.style().drawControl(QStyle.ControlElement.CE_HeaderSection, option, painter, self)

    def resizeEvent(self, event: QEvent) -> None:  # type: ignore[override]  # noqa: N802
        super().resizeEvent(event)  # type: ignore[arg-type]
        self.place()

    def set_enabled(self, on: bool) -> None:
        for combo in self.combos:
            combo.setEnabled(on)
        for heading in self.headings:
            heading.setReadOnly(not on)
