"""The editing area: front matter form, Markdown editor, find bar, live preview (splitter)."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontDatabase, QTextCursor, QTextOption
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.ops import LAYOUTS, THEMES
from modu_desktop.ui import fmsync
from modu_desktop.ui.find_bar import FindBar

log = logging.getLogger(__name__)


def _make_preview(parent: QWidget) -> QWidget:
    """The WebEngine preview (its view is created at the first render, not here)."""
    import os

    try:
        if os.environ.get("MODU_NO_PREVIEW"):
            raise ImportError("preview disabled (MODU_NO_PREVIEW)")
        from modu_desktop.ui.preview import PreviewPane

        pane: QWidget = PreviewPane(parent)
    except Exception:  # WebEngine missing from this build: say so, never pretend
        log.info("preview unavailable", exc_info=True)
        pane = _NoPreview(parent)
    pane.setObjectName("preview")
    return pane


class _NoPreview(QLabel):
    """Shown instead of the preview when Qt WebEngine cannot be loaded at all."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        from modu_desktop.i18n import tr

        self.setText(tr("The preview is not available in this installation."))

    def schedule_render(self, text: str) -> None:
        pass

    def render_now(self, text: str) -> None:
        pass


def _attach_highlighter(editor: QPlainTextEdit) -> Any:
    import os

    if os.environ.get("MODU_NO_HIGHLIGHTER"):
        return None
    try:
        from modu_desktop.ui.highlighter import MarkdownHighlighter

        return MarkdownHighlighter(editor.document())
    except Exception:
        log.info("MarkdownHighlighter unavailable", exc_info=True)
        return None


class FrontMatterForm(QGroupBox):
    """title, nav_label, sidebar_position, theme, layout — edits go back into the text."""

    fieldEdited = Signal(str, object)  # key, value (None = remove)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Page settings"), parent)
        self.setObjectName("frontMatterForm")
        self.setAccessibleName(self.tr("Page settings (front matter)"))
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
        self.position_edit.setPlaceholderText(self.tr("last"))
        self.theme_box = QComboBox()
        self.theme_box.setObjectName("fmTheme")
        self.theme_box.addItem(self.tr("(default)"), None)
        for t in THEMES:
            self.theme_box.addItem(t, t)
        self.layout_box = QComboBox()
        self.layout_box.setObjectName("fmLayout")
        self.layout_box.addItem(self.tr("(default)"), None)
        for lay in LAYOUTS:
            self.layout_box.addItem(lay, lay)

        row = QHBoxLayout()
        row.addWidget(self.position_edit)
        self.theme_label = QLabel(self.tr("T&heme:"))
        self.theme_label.setBuddy(self.theme_box)
        row.addWidget(self.theme_label)
        row.addWidget(self.theme_box, 1)
        self.layout_label = QLabel(self.tr("&Layout:"))
        self.layout_label.setBuddy(self.layout_box)
        row.addWidget(self.layout_label)
        row.addWidget(self.layout_box, 1)

        title_label = QLabel(self.tr("&Title:"))
        title_label.setBuddy(self.title_edit)
        nav_label = QLabel(self.tr("&Menu label:"))
        nav_label.setBuddy(self.nav_edit)
        pos_label = QLabel(self.tr("&Order:"))
        pos_label.setBuddy(self.position_edit)
        form.addRow(title_label, self.title_edit)
        form.addRow(nav_label, self.nav_edit)
        form.addRow(pos_label, row)
        self.title_edit.setAccessibleName(self.tr("Title"))
        self.nav_edit.setAccessibleName(self.tr("Menu label (nav_label)"))
        self.position_edit.setAccessibleName(self.tr("Order in the menu (sidebar_position)"))
        self.theme_box.setAccessibleName(self.tr("Colour theme"))
        self.layout_box.setAccessibleName(self.tr("Layout"))

        self.title_edit.textEdited.connect(lambda v: self.fieldEdited.emit("title", v or None))
        self.nav_edit.textEdited.connect(lambda v: self.fieldEdited.emit("nav_label", v or None))
        self.position_edit.textEdited.connect(self._position_edited)
        self.theme_box.activated.connect(
            lambda _i: self.fieldEdited.emit("theme", self.theme_box.currentData())
        )
        self.layout_box.activated.connect(
            lambda _i: self.fieldEdited.emit("layout", self.layout_box.currentData())
        )

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
        for w in (self.title_edit, self.nav_edit, self.position_edit):
            w.setReadOnly(ro)
        self.theme_box.setEnabled(not ro)
        self.layout_box.setEnabled(not ro)


def _u16(text: str, index: int) -> int:
    """A Python str index → a QTextDocument position (UTF-16 code units)."""
    return len(text[:index].encode("utf-16-le")) // 2


class EditorPane(QWidget):
    """Everything about one open document except the lock (the window owns that)."""

    textEdited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("editorPane")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)

        self.form = FrontMatterForm(self)
        lay.addWidget(self.form)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("editorSplitter")
        left = QWidget()
        left_lay = QVBoxLayout(left)
        left_lay.setContentsMargins(0, 0, 0, 0)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("editor")
        self.editor.setAccessibleName(self.tr("Document text (Markdown)"))
        self.editor.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.editor.setTabChangesFocus(False)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSize(max(font.pointSize(), 11))
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.editor.setFont(font)
        self.highlighter = _attach_highlighter(self.editor)
        self.find_bar = FindBar(self.editor, left)
        left_lay.addWidget(self.editor)
        left_lay.addWidget(self.find_bar)
        self.preview = _make_preview(self)
        self.preview.setAccessibleName(self.tr("Preview"))
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.preview)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        lay.addWidget(self.splitter, 1)

        self._loading = False
        self._applying_form = False
        self._fm_timer = QTimer(self)
        self._fm_timer.setSingleShot(True)
        self._fm_timer.setInterval(200)
        self._fm_timer.timeout.connect(self._sync_form_from_text)
        self.editor.textChanged.connect(self._on_text_changed)
        self.form.fieldEdited.connect(self._apply_form_edit)

    # --- content ---
    def load_text(self, text: str, *, read_only: bool) -> None:
        self._loading = True
        try:
            self.editor.setPlainText(text)  # also clears undo history
            self.editor.document().setModified(False)
            cur = self.editor.textCursor()
            cur.movePosition(QTextCursor.MoveOperation.Start)
            self.editor.setTextCursor(cur)
        finally:
            self._loading = False
        self.set_read_only(read_only)
        self._sync_form_from_text()
        self._render_now()

    def text(self) -> str:
        return self.editor.toPlainText()

    def is_modified(self) -> bool:
        return self.editor.document().isModified()

    def set_modified(self, modified: bool) -> None:
        self.editor.document().setModified(modified)

    def set_read_only(self, ro: bool) -> None:
        self.editor.setReadOnly(ro)
        self.form.set_read_only(ro)
        self.find_bar.set_read_only(ro)

    def replace_all_text(self, text: str, *, modified: bool) -> None:
        """Put new text in (e.g. 'take theirs') as one undoable step."""
        cur = QTextCursor(self.editor.document())
        cur.beginEditBlock()
        cur.select(QTextCursor.SelectionType.Document)
        cur.insertText(text)
        cur.endEditBlock()
        self.editor.document().setModified(modified)

    # --- sync ---
    def _on_text_changed(self) -> None:
        if not self._loading:
            self.textEdited.emit()
        if not self._applying_form:
            self._fm_timer.start()
        sched = getattr(self.preview, "schedule_render", None)
        if callable(sched):
            sched(self.editor.toPlainText())

    def _render_now(self) -> None:
        now = getattr(self.preview, "render_now", None)
        if callable(now):
            now(self.editor.toPlainText())

    def _sync_form_from_text(self) -> None:
        self.form.set_values(fmsync.read_fields(self.editor.toPlainText()))

    def apply_field(self, key: str, value: object) -> None:
        """Set one front matter key in the text (one undoable step), e.g. after a reorder."""
        self._apply_form_edit(key, value)
        self._sync_form_from_text()

    def _apply_form_edit(self, key: str, value: object) -> None:
        if self.editor.isReadOnly():
            return
        old = self.editor.toPlainText()
        new = fmsync.write_field(old, key, value)
        if new == old:
            return
        self._applying_form = True
        try:
            cur = QTextCursor(self.editor.document())
            pos = self.editor.textCursor().position()
            cur.beginEditBlock()
            # Replace only the changed middle part so the cursor and undo stay sensible.
            start = 0
            while start < min(len(old), len(new)) and old[start] == new[start]:
                start += 1
            end_old, end_new = len(old), len(new)
            while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
                end_old -= 1
                end_new -= 1
            cur.setPosition(_u16(old, start))
            cur.setPosition(_u16(old, end_old), QTextCursor.MoveMode.KeepAnchor)
            cur.insertText(new[start:end_new])
            cur.endEditBlock()
            with contextlib.suppress(Exception):
                c2 = self.editor.textCursor()
                c2.setPosition(min(pos, len(new)))
                self.editor.setTextCursor(c2)
        finally:
            self._applying_form = False
