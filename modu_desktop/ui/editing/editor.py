"""The editing area: toolbar, front matter form, the page editor of cards (the default view) or
the Markdown editor with a block form (원문 편집), find bar, live preview (splitters).

- The document text lives in the Markdown editor's ``QTextDocument``; the page editor
  (:mod:`modu_desktop.ui.editing.cards.page_editor`) is a view of the same text whose edits go
  into that document, so both views share one undo history and every signal (drafts, saving,
  preview, publish check) sees one text. ``rawEditorToggle`` switches views at the same place.
- :meth:`EditorPane.text` gives the text with the line endings and byte-order mark it was
  loaded with (Qt's document keeps neither); an untouched document is given back exactly.

- The toolbar: collapse the document list, Save with a plain saved/unsaved state, 블록 넣기, the
  view switch (editor / preview / both) and 머리말 보기 (show the raw front matter). Under it,
  the publishing line of the last save (:mod:`modu_desktop.ui.editing.publish_status`).
- Front matter is edited in the 페이지 설정 form; its ``---`` lines are hidden in the editor
  (the text is untouched: hidden lines are saved byte for byte).
- With the cursor inside a brochure block, the block form
  (:mod:`modu_desktop.ui.editing.block_form`) shows its fields and items; Tab / Shift+Tab
  there indent by two spaces.
- Splitter sizes, the view and the collapsed list are remembered in a small JSON file.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QFont,
    QFontDatabase,
    QKeyEvent,
    QTextCursor,
    QTextOption,
)
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.brochure import block_model, syntax
from modu_desktop.core.publish.status import DocStatus, EditPhase
from modu_desktop.i18n import tr
from modu_desktop.ui.editing import fmsync
from modu_desktop.ui.editing.block_form import BlockForm
from modu_desktop.ui.editing.card_find import CardSearch
from modu_desktop.ui.editing.cards.autosize import raw_text
from modu_desktop.ui.editing.cards.page_editor import PageEditor
from modu_desktop.ui.editing.find_bar import FindBar
from modu_desktop.ui.editing.highlighter import MarkdownHighlighter
from modu_desktop.ui.editing.page_settings import FrontMatterForm
from modu_desktop.ui.editing.preedit import install_preedit_tracker
from modu_desktop.ui.editing.publish_status import PublishStatus
from modu_desktop.ui.kit.shortcuts import bind, keys_text, sequences
from modu_desktop.ui.preview.pane import PreviewPane
from modu_desktop.ui.publish.status_words import save_words

log = logging.getLogger(__name__)


def _make_preview(parent: QWidget) -> PreviewPane | _NoPreview:
    """The WebEngine preview (its view is created at the first render, not here), or a
    sentence saying there is none when ``MODU_NO_PREVIEW`` asks (the real-window tests run
    without a GPU process)."""
    import os

    pane: PreviewPane | _NoPreview
    pane = _NoPreview(parent) if os.environ.get("MODU_NO_PREVIEW") else PreviewPane(parent)
    pane.setObjectName("preview")
    return pane


class _NoPreview(QLabel):
    """Shown instead of the preview when ``MODU_NO_PREVIEW`` is set."""

    rendered = Signal()
    blockActivated = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setText(tr("The preview is not available in this installation."))

    def schedule_render(self, text: str) -> None:
        pass

    def render_now(self, text: str) -> None:
        pass

    def scroll_to_line(self, line: int) -> bool:
        return False

    def follow_line(self, line: int) -> bool:
        return False


def _attach_highlighter(editor: QPlainTextEdit) -> MarkdownHighlighter | None:
    import os

    if os.environ.get("MODU_NO_HIGHLIGHTER"):
        return None
    return MarkdownHighlighter(editor.document())


def _u16(text: str, index: int) -> int:
    """A Python str index → a QTextDocument position (UTF-16 code units)."""
    return len(text[:index].encode("utf-16-le")) // 2


class EditorPane(QWidget):
    """Everything about one open document except the lock (the window owns that)."""

    textEdited = Signal()
    saveRequested = Signal()
    listToggled = Signal(bool)  # True = the document list is shown
    phaseChanged = Signal()  # saved / unsaved / saving / read-only may have changed

    VIEWS = ("editor", "preview", "both")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("editorPane")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)

        # --- toolbar ---
        bar = QHBoxLayout()
        bar.setSpacing(4)
        self.toggle_list_button = QToolButton()
        self.toggle_list_button.setObjectName("toggleListButton")
        self.toggle_list_button.setText(tr("☰ List"))
        self.toggle_list_button.setCheckable(True)
        self.toggle_list_button.setChecked(True)
        self.toggle_list_button.setToolTip(tr("Show or hide the document list"))
        self.toggle_list_button.setAccessibleName(tr("Show or hide the document list"))
        bar.addWidget(self.toggle_list_button)
        self.save_button = QPushButton(tr("Save"))
        self.save_button.setObjectName("saveButton")
        self.save_button.setAccessibleName(tr("Save the document"))
        self.save_button.setToolTip(tr("Save ({keys})", keys=keys_text("save")))
        bar.addWidget(self.save_button)
        self.save_state = QLabel("")
        self.save_state.setObjectName("saveState")
        self.save_state.setAccessibleName(tr("Saved or not"))
        # the label takes the toolbar's free room, whatever its text: the buttons after it
        # never move when "✔ 저장됨" becomes "저장하기 전에 확인하는 중…" (in a full toolbar at
        # 800 px they were pushed about as the state changed)
        self.save_state.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.save_state.setMinimumWidth(self.fontMetrics().horizontalAdvance("✔ 저장됨 "))
        bar.addWidget(self.save_state, 1)
        self.insert_block_button = QPushButton(tr("Insert block"))
        self.insert_block_button.setObjectName("insertBlockButton")
        self.insert_block_button.setAccessibleName(tr("Insert a brochure block"))
        self.insert_block_button.setToolTip(
            tr("Insert a brochure block ({keys})", keys=keys_text("insertBlock"))
        )
        bar.addWidget(self.insert_block_button)
        self.raw_toggle = QToolButton()
        self.raw_toggle.setObjectName("rawEditorToggle")
        self.raw_toggle.setText(tr("Edit original text"))
        self.raw_toggle.setCheckable(True)
        self.raw_toggle.setShortcut(sequences("rawView")[0])
        self.raw_toggle.setProperty("shortcutName", "rawView")  # listed on the 단축키 page
        self.raw_toggle.setToolTip(
            tr("Edit the page as Markdown text (for advanced users); press again for the cards")
            + f" ({keys_text('rawView')})"
        )
        self.raw_toggle.setAccessibleName(tr("Edit original text"))
        bar.addWidget(self.raw_toggle)
        self.view_buttons: dict[str, QToolButton] = {}
        self.view_group = QButtonGroup(self)
        for key, text, name in (
            ("editor", tr("Edit"), "viewEditorButton"),
            ("preview", tr("Preview"), "viewPreviewButton"),
            ("both", tr("Both"), "viewBothButton"),
        ):
            b = QToolButton()
            b.setObjectName(name)
            b.setText(text)
            b.setCheckable(True)
            b.setAccessibleName(tr("View: {name}", name=text))
            self.view_group.addButton(b)
            self.view_buttons[key] = b
            bar.addWidget(b)
            b.clicked.connect(lambda _c=False, k=key: self.set_view(k))
        self.view_buttons["both"].setChecked(True)
        self.show_fm_button = QToolButton()
        self.show_fm_button.setObjectName("showFrontMatterButton")
        self.show_fm_button.setText(tr("Header lines"))
        self.show_fm_button.setCheckable(True)
        self.show_fm_button.setToolTip(
            tr("Show the page settings as text (the --- lines at the top)")
        )
        self.show_fm_button.setAccessibleName(tr("Show the raw page settings"))
        bar.addWidget(self.show_fm_button)
        lay.addLayout(bar)

        self.publish = PublishStatus(self)
        lay.addWidget(self.publish)

        self.form = FrontMatterForm(self)
        lay.addWidget(self.form)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("editorSplitter")
        self.left_splitter = QSplitter(Qt.Orientation.Vertical)
        self.left_splitter.setObjectName("editorFormSplitter")
        left = QWidget()
        left_lay = QVBoxLayout(left)
        left_lay.setContentsMargins(0, 0, 0, 0)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("editor")
        self.editor.setAccessibleName(tr("Document text (Markdown)"))
        self.editor.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.editor.setTabChangesFocus(False)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSize(max(font.pointSize(), 11))
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.editor.setFont(font)
        self.highlighter = _attach_highlighter(self.editor)
        self.find_bar = FindBar(self.editor)
        left_lay.addWidget(self.editor)
        self.block_form = BlockForm()
        self.block_form.hide()
        self.left_splitter.addWidget(left)
        self.left_splitter.addWidget(self.block_form)
        self.left_splitter.setStretchFactor(0, 3)
        self.left_splitter.setStretchFactor(1, 2)
        self.page_editor = PageEditor(self.editor.document())
        self.page_editor.block_picker = self._pick_block_for_cards
        self.left_stack = QStackedWidget()
        self.left_stack.setObjectName("editorViews")
        self.left_stack.addWidget(self.page_editor)
        self.left_stack.addWidget(self.left_splitter)
        # find and replace under either view: in the cards it searches the cards as they read
        self.find_bar.cards = CardSearch(self.page_editor)
        self.find_bar.in_cards = lambda: not self.raw_view
        self.left_pane = QWidget()
        self.left_pane.setObjectName("editorColumn")
        column = QVBoxLayout(self.left_pane)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(self.left_stack, 1)
        column.addWidget(self.find_bar)
        self.preview = _make_preview(self)
        self.preview.setAccessibleName(tr("Preview"))
        self.splitter.addWidget(self.left_pane)
        self.splitter.addWidget(self.preview)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        lay.addWidget(self.splitter, 1)

        self.insert_block_action = QAction(tr("Insert &block…"), self)
        self.insert_block_action.setObjectName("insertBlockAction")
        bind(self.insert_block_action, "insertBlock")
        self.insert_block_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.insert_block_action.triggered.connect(self.open_block_picker)
        self.addAction(self.insert_block_action)

        self.view = "both"
        self._remember_list = True
        self._list_wanted = True  # the user's choice (a narrow window may hide it for now)
        self.narrow = False  # the window is narrow now: its list width is not the user's
        self.fitted_sizes: list[int] | None = None  # the cards/preview sizes a narrow window chose
        self.raw_view = False
        self._loaded = ""
        self._loaded_plain = ""
        self._bom = False
        self._crlf = False
        self.front_matter_hidden = True
        self._fm_lines = 0
        self._saving = False
        self._checking = False
        self._loading = False
        self._applying_form = False
        self._applying_block = False
        self._block_span: syntax.BlockPart | None = None
        self._form_sized = False
        self._layout_path: Path | None = None
        self._outer: QSplitter | None = None
        self._doc_list: QWidget | None = None
        self.picker: Any = None
        self._fm_timer = QTimer(self)
        self._fm_timer.setSingleShot(True)
        self._fm_timer.setInterval(200)
        self._fm_timer.timeout.connect(self._sync_form_from_text)
        self._block_timer = QTimer(self)
        self._block_timer.setSingleShot(True)
        self._block_timer.setInterval(120)
        self._block_timer.timeout.connect(self._sync_block_form)
        self._save_layout_timer = QTimer(self)
        self._save_layout_timer.setSingleShot(True)
        self._save_layout_timer.setInterval(400)
        self._save_layout_timer.timeout.connect(self.save_layout)
        self.editor.textChanged.connect(self._on_text_changed)
        self.editor.cursorPositionChanged.connect(self._cursor_moved)
        self.editor.document().modificationChanged.connect(lambda _m: self._update_save_state())
        self.editor.installEventFilter(self)
        install_preedit_tracker().watch(self.editor)  # Korean input: see preedit.py
        self.preview.blockActivated.connect(self.open_block_at_line)
        self.preview.rendered.connect(self._refollow)  # a new rendering: keep the block in view
        self.form.fieldEdited.connect(self._apply_form_edit)
        self.block_form.blockEdited.connect(self._apply_block_text)
        self.save_button.clicked.connect(self.saveRequested)
        self.insert_block_button.clicked.connect(self.open_block_picker)
        self.show_fm_button.toggled.connect(lambda on: self.set_front_matter_hidden(not on))
        self.toggle_list_button.toggled.connect(self._toggle_list)
        self.raw_toggle.toggled.connect(self.set_raw_view)
        self._followed_card: object = None
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._card_focus_changed)
        self.show_fm_button.setVisible(False)
        for sp in (self.splitter, self.left_splitter):
            sp.splitterMoved.connect(lambda *_a: self._save_layout_timer.start())
        self._update_save_state()

    # --- content ---
    def open_page(self, text: str, *, read_only: bool) -> None:
        """Another page: it opens as cards (원문 편집 is chosen for one page, not for all)."""
        if self.raw_view:
            self.raw_view = False
            self.left_stack.setCurrentIndex(0)
            self.show_fm_button.setVisible(False)
            self.raw_toggle.blockSignals(True)
            self.raw_toggle.setChecked(False)
            self.raw_toggle.blockSignals(False)
        self.find_bar.hide()
        if self.find_bar.cards is not None:
            self.find_bar.cards.current = None
        self.load_text(text, read_only=read_only)

    def load_text(self, text: str, *, read_only: bool) -> None:
        self._remember_loaded(text)
        self._loading = True
        try:
            self.editor.setPlainText(self._loaded_plain)  # also clears undo history
            self.editor.document().setModified(False)
            self._apply_front_matter_visibility()
            cur = self.editor.textCursor()
            cur.movePosition(QTextCursor.MoveOperation.Start)
            self.editor.setTextCursor(cur)
            self._keep_cursor_visible()
        finally:
            self._loading = False
        self.set_read_only(read_only)
        self.publish.clear()
        self._sync_form_from_text()
        self._sync_block_form()
        self._render_now()
        if not self.raw_view:
            self.page_editor.reconcile()
            self.page_editor.verticalScrollBar().setValue(0)

    def _remember_loaded(self, text: str) -> None:
        """What Qt's document will hold of ``text``, and how to give it back: the BOM and the
        line endings (Qt keeps neither), the untouched text exactly."""
        self._loaded = text
        self._bom = text.startswith("\ufeff")
        body = text[1:] if self._bom else text
        crlf = body.count("\r\n")
        self._crlf = crlf > 0 and crlf >= body.count("\n") - crlf
        self._loaded_plain = body.replace("\r\n", "\n").replace("\r", "\n")

    def _plain(self) -> str:
        """The document's characters as Qt holds them (``\n`` line ends, no BOM)."""
        return raw_text(self.editor.document())

    def text(self) -> str:
        """The document's text as it will be saved: exactly the loaded text while nothing
        changed, else with the loaded text's BOM and line endings."""
        current = self._plain()
        if current == self._loaded_plain:
            return self._loaded
        if self._crlf:
            current = current.replace("\n", "\r\n")
        return "\ufeff" + current if self._bom else current

    def is_modified(self) -> bool:
        return self.editor.document().isModified()

    def set_modified(self, modified: bool) -> None:
        self.editor.document().setModified(modified)
        self._update_save_state()

    def set_read_only(self, ro: bool) -> None:
        self.editor.setReadOnly(ro)
        self.form.set_read_only(ro)
        self.find_bar.set_read_only(ro)
        self.block_form.set_read_only(ro)
        self.page_editor.set_read_only(ro)
        self.save_button.setEnabled(not ro)
        self.insert_block_button.setEnabled(not ro)
        self.insert_block_action.setEnabled(not ro)
        self._update_save_state()

    def replace_all_text(self, text: str, *, modified: bool) -> None:
        """Put new text in (e.g. 'take theirs') as one undoable step."""
        self._remember_loaded(text)
        cur = QTextCursor(self.editor.document())
        cur.beginEditBlock()
        cur.select(QTextCursor.SelectionType.Document)
        cur.insertText(self._loaded_plain)
        cur.endEditBlock()
        self.editor.document().setModified(modified)
        self._update_save_state()

    # --- saved / unsaved ---
    def set_saving(self, saving: bool) -> None:
        self._saving = saving
        self._update_save_button()
        self._update_save_state()

    def set_checking(self, checking: bool) -> None:
        """The check before a save is running (off the UI thread): the button waits, the
        label says so, and typing goes on."""
        self._checking = checking
        self._update_save_button()
        self._update_save_state()

    def _update_save_button(self) -> None:
        busy = self._saving or self._checking
        self.save_button.setEnabled(not busy and not self.editor.isReadOnly())

    def phase(self) -> EditPhase:
        """The editor's side of the document's state (the window adds "waiting to save")."""
        if self.editor.isReadOnly():
            return EditPhase.READ_ONLY
        if self._saving:
            return EditPhase.SAVING
        if self._checking:
            return EditPhase.CHECKING
        if self.editor.document().isModified():
            return EditPhase.UNSAVED
        return EditPhase.CLEAN

    def show_status(self, status: DocStatus | None, now: float | None = None) -> None:
        """The window's state of the open document: the saved/unsaved label and the
        publishing line, both from it."""
        self.publish.show_status(status, now)
        self._show_save_state(status.phase if status is not None else None)

    def _update_save_state(self) -> None:
        self._show_save_state(self.phase())
        self.phaseChanged.emit()

    def _show_save_state(self, phase: EditPhase | None) -> None:
        text, kind = save_words(phase or self.phase())
        self.save_state.setText(text)
        self.save_state.setToolTip(text)  # when the toolbar is too narrow for all of it
        self.save_state.setProperty("kind", kind)
        color = {"ok": "#1a7f37", "warning": "#b45309", "info": "#5b6b88"}[kind]
        self.save_state.setStyleSheet(f"color: {color}; font-weight: 600;")

    # --- sync ---
    def _on_text_changed(self) -> None:
        if not self._loading:
            self.textEdited.emit()
        if not self._applying_form:
            self._fm_timer.start()
        if self.front_matter_hidden and not self._loading:
            n = syntax.front_matter_lines(self._plain())
            if n != self._fm_lines:
                self._apply_front_matter_visibility()
        if not self._applying_block:
            self._block_timer.start()
        self.preview.schedule_render(self._plain())

    def _render_now(self) -> None:
        self.preview.render_now(self._plain())

    def _sync_form_from_text(self) -> None:
        self.form.set_values(fmsync.read_fields(self._plain()))

    def apply_field(self, key: str, value: object) -> None:
        """Set one front matter key in the text (one undoable step), e.g. after a reorder."""
        self._apply_form_edit(key, value)
        self._sync_form_from_text()

    def _apply_form_edit(self, key: str, value: object) -> None:
        if self.editor.isReadOnly():
            return
        old = self._plain()
        new = fmsync.write_field(old, key, value)
        if new == old:
            return
        self._applying_form = True
        try:
            self._replace_text(old, new)
        finally:
            self._applying_form = False

    def _replace_text(self, old: str, new: str) -> None:
        """Replace only the changed middle part (one undoable step; cursor kept)."""
        cur = QTextCursor(self.editor.document())
        pos = self.editor.textCursor().position()
        cur.beginEditBlock()
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
            c2.setPosition(min(pos, self.editor.document().characterCount() - 1))
            self.editor.setTextCursor(c2)

    # --- front matter: edited in the form, hidden in the editor ---
    def set_front_matter_hidden(self, hidden: bool) -> None:
        self.front_matter_hidden = hidden
        if self.show_fm_button.isChecked() == hidden:
            self.show_fm_button.setChecked(not hidden)
        self._apply_front_matter_visibility()

    def _apply_front_matter_visibility(self) -> None:
        doc = self.editor.document()
        n = syntax.front_matter_lines(self._plain())
        # nothing after it: keep it visible so the text can still be reached
        reachable = n < doc.blockCount()
        n_hide = n if self.front_matter_hidden and reachable else 0
        upto = max(n, self._fm_lines) + 1
        block = doc.firstBlock()
        idx = 0
        changed = False
        while block.isValid() and idx < upto:
            want = idx >= n_hide
            if block.isVisible() != want:
                block.setVisible(want)
                changed = True
            block = block.next()
            idx += 1
        self._fm_lines = n
        self._hidden_lines = n_hide
        if changed:
            end = doc.findBlockByNumber(min(upto, doc.blockCount() - 1))
            doc.markContentsDirty(0, end.position() + end.length())
            self.editor.viewport().update()
            self.editor.updateGeometry()
        self._keep_cursor_visible()

    def hidden_line_count(self) -> int:
        return getattr(self, "_hidden_lines", 0)

    def _keep_cursor_visible(self) -> None:
        n = self.hidden_line_count()
        cur = self.editor.textCursor()
        if n and cur.blockNumber() < n:
            target = self.editor.document().findBlockByNumber(n)
            if target.isValid():
                cur.setPosition(target.position())
                self.editor.setTextCursor(cur)

    # --- blocks: picker, form, indent ---
    def _cursor_moved(self) -> None:
        if self.front_matter_hidden and not self._applying_form:
            self._keep_cursor_visible()
        if not self._applying_block:
            self._block_timer.start()

    def current_block_span(self) -> syntax.BlockPart | None:
        line = self.editor.textCursor().blockNumber()
        return syntax.block_at(self._plain(), line)

    def _sync_block_form(self) -> None:
        span = self.current_block_span()
        if span is None or not span.closed:
            self._block_span = None
            self.block_form.hide()
            if self.preview.isVisible():  # an ordinary paragraph: the preview follows it too
                self.preview.follow_line(self.editor.textCursor().blockNumber())
            return
        same = (
            self._block_span is not None
            and self._block_span.first_line == span.first_line
            and self.block_form.isVisible()
            and self.block_form.model is not None
            and self.block_form.model.text() == span.text
        )
        self._block_span = span
        if same:
            return
        model = block_model.parse(span.text)
        self.block_form.show_model(model)
        self.block_form.set_read_only(self.editor.isReadOnly())
        if not self.block_form.isVisible():
            self.block_form.show()
            total = sum(self.left_splitter.sizes())
            if total > 0 and not self._form_sized:
                # room for fields and items; the user's own split is kept afterwards
                self.left_splitter.setSizes([total * 2 // 5, total - total * 2 // 5])
                self._form_sized = True
        self.follow_in_preview(model, span)

    def _refollow(self) -> None:
        if self.block_form.isVisible() and self.block_form.model is not None and self._block_span:
            self.follow_in_preview(self.block_form.model, self._block_span)

    def follow_in_preview(self, model: block_model.BlockModel, span: syntax.BlockPart) -> bool:
        """Scroll the preview to the block being edited (the page knows each block's line)."""
        if not self.preview.isVisible():
            return False
        if self.preview.scroll_to_line(span.first_line):
            self.preview_followed = span.first_line
            return True
        return False

    def _apply_block_text(self, new_block: str) -> None:
        span = self._block_span
        if span is None or self.editor.isReadOnly():
            return
        doc = self.editor.document()
        first = doc.findBlockByNumber(span.first_line)
        last = doc.findBlockByNumber(span.last_line)
        if not first.isValid() or not last.isValid():
            return
        start = first.position()
        end = last.position() + last.length() - 1  # without the block's own line break
        cur = QTextCursor(doc)
        cur.setPosition(start)
        cur.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        old_block = cur.selectedText().replace("\u2029", "\n")
        if old_block == new_block:
            return
        # only the changed middle of the block (cursor and undo stay sensible)
        a = 0
        while a < min(len(old_block), len(new_block)) and old_block[a] == new_block[a]:
            a += 1
        b_old, b_new = len(old_block), len(new_block)
        while b_old > a and b_new > a and old_block[b_old - 1] == new_block[b_new - 1]:
            b_old -= 1
            b_new -= 1
        self._applying_block = True
        try:
            edit = QTextCursor(doc)
            edit.beginEditBlock()
            edit.setPosition(start + _u16(old_block, a))
            edit.setPosition(start + _u16(old_block, b_old), QTextCursor.MoveMode.KeepAnchor)
            edit.insertText(new_block[a:b_new])
            edit.endEditBlock()
            n_lines = new_block.count("\n") + 1
            self._block_span = dataclasses.replace(
                span,
                end=span.start + len(new_block),
                text=new_block,
                last_line=span.first_line + n_lines - 1,
            )
            # Qt moved the editor's cursor along with the edit; only bring it back into the
            # block if its line went away (a removed item)
            now = self.editor.textCursor().blockNumber()
            if not (self._block_span.first_line <= now <= self._block_span.last_line):
                c = self.editor.textCursor()
                c.setPosition(doc.findBlockByNumber(self._block_span.first_line + 1).position())
                self.editor.setTextCursor(c)
        finally:
            self._applying_block = False

    def open_block_picker(self) -> None:
        if self.editor.isReadOnly():
            return
        if not self.raw_view:
            card = self.page_editor.current_card()
            self._pick_block_for_cards(
                lambda block: self.page_editor.insert_block(block, card, "below")
            )
            return
        self._pick_block(self.insert_block)

    def _pick_block(self, insert: Callable[[str], None]) -> None:
        from modu_desktop.ui.editing.block_picker import BlockPicker

        theme = fmsync.read_fields(self._plain()).get("theme")
        dlg = BlockPicker(self, theme=str(theme) if theme else None)
        self.picker = dlg
        dlg.picked.connect(lambda spec: insert(spec.example))
        dlg.finished.connect(lambda _r: setattr(self, "picker", None))
        dlg.open()

    def _pick_block_for_cards(self, insert: Callable[[str], None]) -> None:
        if not self.editor.isReadOnly():
            self._pick_block(insert)

    # --- the two views of one text ---
    def set_raw_view(self, raw: bool) -> None:
        """원문 편집 (the Markdown editor) or the cards, at the same place of the document."""
        if raw == self.raw_view and self.left_stack.currentIndex() == (1 if raw else 0):
            return
        if raw:
            place = self.page_editor.place()
            self.raw_view = True
            self.left_stack.setCurrentIndex(1)
            if place is not None:
                cur = self.editor.textCursor()
                cur.setPosition(min(place, self.editor.document().characterCount() - 1))
                self.editor.setTextCursor(cur)
                self.editor.centerCursor()
            self._keep_cursor_visible()
            self.editor.setFocus()
            self._sync_block_form()
        else:
            place = self.editor.textCursor().position()
            self.raw_view = False
            self.left_stack.setCurrentIndex(0)
            self.page_editor.ensure_current()
            self.page_editor.show_place(place)
        self.show_fm_button.setVisible(raw)
        if self.raw_toggle.isChecked() != raw:
            self.raw_toggle.setChecked(raw)
        self._save_layout_timer.start()

    def _card_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        """The keyboard went into another block card: the preview shows that block."""
        if self.raw_view or new is None or not self.page_editor.isAncestorOf(new):
            return
        card = self.page_editor.current_card()
        if card is None or card is self._followed_card:
            return
        self._followed_card = card
        if card.kind == "block" and self.preview.isVisible():
            line = self.editor.document().findBlock(card.qstart).blockNumber()
            self.preview.scroll_to_line(line)

    def show_line(self, line: int, column: int = 1) -> None:
        """Put the keyboard at 1-based ``line`` and ``column`` of the text: in the Markdown
        editor, or in the card that holds that place."""
        block = self.editor.document().findBlockByNumber(line - 1)
        if not block.isValid():
            return
        position = block.position() + max(0, min(column - 1, block.length() - 1))
        if not self.raw_view:
            self.page_editor.show_place(position)
            return
        cur = self.editor.textCursor()
        cur.setPosition(position)
        self.editor.setTextCursor(cur)
        self.editor.centerCursor()
        self.editor.setFocus()

    def focus_editor(self) -> None:
        """The keyboard goes to the document: the first card, or the Markdown editor."""
        if self.raw_view:
            self.editor.setFocus()
        elif self.page_editor.current_card() is None:
            self.page_editor.focus_first()

    def insert_markdown(self, markdown: str) -> None:
        """Text from elsewhere (an uploaded picture's Markdown) at the keyboard's place."""
        if self.editor.isReadOnly():
            return
        if not self.raw_view and self.page_editor.insert_markdown(markdown):
            return
        if not self.raw_view:
            self.page_editor.insert_block(markdown, self.page_editor.current_card(), "below")
            return
        self.editor.insertPlainText(markdown)

    def insert_block(self, block_text: str) -> None:
        """Put a block at the cursor on lines of its own (after the block the cursor is in),
        with a blank line around it; the cursor lands in it, so its form shows."""
        if self.editor.isReadOnly():
            return
        text = self._plain()
        lines = text.split("\n")
        line = self.editor.textCursor().blockNumber()
        span = syntax.block_at(text, line)
        if span is not None:
            line = span.last_line
        line = max(line, syntax.front_matter_lines(text) - 1)
        before = lines[: line + 1]
        after = lines[line + 1 :]
        if before == [""]:
            before = []
        new_lines = list(before)
        if new_lines and new_lines[-1].strip():
            new_lines.append("")
        start = len(new_lines)
        new_lines.extend(block_text.split("\n"))
        if after and after[0].strip():
            new_lines.append("")
        new_lines.extend(after)
        if not after:
            new_lines.append("")
        new = "\n".join(new_lines)
        self._replace_text(text, new)
        cur = self.editor.textCursor()
        b = self.editor.document().findBlockByNumber(start + 1)
        cur.setPosition(b.position())
        self.editor.setTextCursor(cur)
        self.editor.setFocus()
        self._sync_block_form()

    def open_block_at_line(self, line: int) -> bool:
        """A block double-clicked in the preview: the cursor goes to its first line (and so
        its form opens); in the card view, its card comes into view."""
        if not self.raw_view:
            block = self.editor.document().findBlockByNumber(line)
            if not block.isValid():
                return False
            self.page_editor.show_place(block.position())
            return True
        block = self.editor.document().findBlockByNumber(line + 1)
        if not block.isValid() or syntax.block_at(self._plain(), line + 1) is None:
            return False
        cur = self.editor.textCursor()
        text = block.text()
        cur.setPosition(block.position() + len(text) - len(text.lstrip()))
        self.editor.setTextCursor(cur)
        self.editor.centerCursor()
        self._sync_block_form()
        return True

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if obj is self.editor and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and not self.editor.isReadOnly():
                outdent = key == Qt.Key.Key_Backtab or bool(
                    event.modifiers() & Qt.KeyboardModifier.ShiftModifier
                )
                if self.indent_selection(outdent=outdent):
                    return True
        return super().eventFilter(obj, event)

    def indent_selection(self, *, outdent: bool = False) -> bool:
        """Tab / Shift+Tab inside a block: the selected lines (or the cursor's line) move by
        two spaces. False when the cursor is not in a block (Tab then does what it always did)."""
        cur = self.editor.textCursor()
        doc = self.editor.document()
        first = doc.findBlock(cur.selectionStart()).blockNumber()
        last = doc.findBlock(cur.selectionEnd()).blockNumber()
        if (
            cur.hasSelection()
            and last > first
            and doc.findBlock(cur.selectionEnd()).position() == (cur.selectionEnd())
        ):
            last -= 1  # a selection ending at a line start does not take that line
        text = self._plain()
        spans = syntax.block_spans(text)
        inside = any(
            sp.first_line < first <= sp.last_line or sp.first_line < last <= sp.last_line
            for sp in spans
        )
        if not inside:
            return False
        edit = QTextCursor(doc)
        edit.beginEditBlock()
        for n in range(first, last + 1):
            block = doc.findBlockByNumber(n)
            line = block.text()
            edit.setPosition(block.position())
            if outdent:
                strip = min(2, len(line) - len(line.lstrip(" ")))
                if strip:
                    edit.setPosition(block.position() + strip, QTextCursor.MoveMode.KeepAnchor)
                    edit.removeSelectedText()
            elif line.strip() or first == last:
                edit.insertText("  ")
        edit.endEditBlock()
        return True

    # --- window layout: list, view, splitter sizes ---
    def attach_window(self, outer: QSplitter, doc_list: QWidget, layout_path: Path) -> None:
        """Let the toolbar collapse ``doc_list`` and remember every splitter in ``layout_path``."""
        self._outer = outer
        self._doc_list = doc_list
        self._layout_path = layout_path
        outer.splitterMoved.connect(lambda *_a: self._save_layout_timer.start())
        self.restore_layout()

    def _toggle_list(self, shown: bool) -> None:
        if self._doc_list is not None:
            self._doc_list.setVisible(shown)
        self.toggle_list_button.setText(tr("☰ List") if shown else tr("☰ Show list"))
        self.listToggled.emit(shown)
        if self._remember_list:
            self._list_wanted = shown
            self._save_layout_timer.start()

    def set_list_shown(self, shown: bool, *, remember: bool = True) -> None:
        """Show or hide the document list; ``remember=False``: only for now (a narrow window
        tucks it away), not the user's choice for the next start."""
        self._remember_list = remember
        try:
            self.toggle_list_button.setChecked(shown)
            self._toggle_list(shown)
        finally:
            self._remember_list = True

    def set_view(self, view: str) -> None:
        if view not in self.VIEWS:
            return
        self.view = view
        self.left_pane.setVisible(view in ("editor", "both"))
        self.preview.setVisible(view in ("preview", "both"))
        b = self.view_buttons[view]
        if not b.isChecked():
            b.setChecked(True)
        if view == "preview":
            self._render_now()
        self._save_layout_timer.start()

    def layout_state(self) -> dict[str, Any]:
        state: dict[str, Any] = {
            "view": self.view,
            "editor": self.splitter.sizes(),
            "form": self.left_splitter.sizes(),
            "list_shown": self._list_wanted,
        }
        old: dict[str, Any] = {}
        if self._layout_path is not None:
            with contextlib.suppress(Exception):
                read = json.loads(self._layout_path.read_text("utf-8"))
                old = read if isinstance(read, dict) else {}
        fitted = self.splitter.sizes() == self.fitted_sizes or (
            self.view == "both" and self.preview.isHidden()
        )
        if self.narrow and fitted:
            # a narrow window sized the cards and the preview for now, not for the next start
            state.pop("editor")
            if isinstance(old.get("editor"), list):
                state["editor"] = old["editor"]
        if (
            self._outer is not None
            and self._doc_list is not None
            and self._doc_list.isVisible()
            and not self.narrow
        ):
            state["outer"] = self._outer.sizes()
        elif isinstance(old.get("outer"), list):
            state["outer"] = old["outer"]
        return state

    def save_layout(self) -> None:
        if self._layout_path is None:
            return
        try:
            self._layout_path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self._layout_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.layout_state()), encoding="utf-8")
            tmp.replace(self._layout_path)
        except OSError:
            log.info("could not remember the window layout", exc_info=True)

    def restore_layout(self) -> None:
        if self._layout_path is None:
            return
        try:
            state = json.loads(self._layout_path.read_text("utf-8"))
        except (OSError, ValueError):
            return
        if not isinstance(state, dict):
            return

        def sizes(v: Any) -> list[int] | None:
            if isinstance(v, list) and v and all(isinstance(x, int) and x >= 0 for x in v):
                return v
            return None

        if (s := sizes(state.get("editor"))) and len(s) == 2:
            self.splitter.setSizes(s)
        if (s := sizes(state.get("form"))) and len(s) == 2 and all(s):
            self.left_splitter.setSizes(s)
            self._form_sized = True
        if self._outer is not None and (s := sizes(state.get("outer"))) and len(s) == 2:
            self._outer.setSizes(s)
        if state.get("view") in self.VIEWS:
            self.set_view(str(state["view"]))
        if state.get("list_shown") is False:
            self.set_list_shown(False)
