"""The editing area: toolbar, front matter form, the page editor of cards (the default view) or
the Markdown editor with a block form (원문 편집), find bar, live preview (splitters).

- The document text lives in the Markdown editor's ``QTextDocument``; the page editor
  (:mod:`modu_desktop.ui.editing.cards.page_editor`) is a view of the same text whose edits go
  into that document, so both views share one undo history and every signal (drafts, saving,
  preview, publish check) sees one text. ``rawEditorToggle`` switches views at the same place.
- :meth:`EditorPane.text` gives the text with the line endings and byte-order mark it was
  loaded with (Qt's document keeps neither); an untouched document is given back exactly.

- The toolbar (:mod:`modu_desktop.ui.editing.editor_toolbar`): collapse the document list,
  Save with a plain saved/unsaved state, 블록 넣기, the view switch (editor / preview / both)
  and 머리말 보기 (show the raw front matter). Under it, the publishing line of the last save
  (:mod:`modu_desktop.ui.editing.publish_status`).
- Front matter is edited in the 페이지 설정 form; its ``---`` lines are hidden in the editor
  (:mod:`modu_desktop.ui.editing.front_matter_lines`; the text is untouched).
- With the cursor inside a brochure block, the block form
  (:mod:`modu_desktop.ui.editing.block_form`) shows its fields and items; Tab / Shift+Tab
  there indent by two spaces (:mod:`modu_desktop.ui.editing.raw_blocks`).
- Splitter sizes, the view and the collapsed list are remembered in a small JSON file
  (:mod:`modu_desktop.ui.editing.editor_layout`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QFont,
    QFontDatabase,
    QTextCursor,
    QTextOption,
)
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.brochure import syntax
from modu_desktop.core.publish.status import DocStatus, EditPhase
from modu_desktop.i18n import tr
from modu_desktop.ui.editing import fmsync
from modu_desktop.ui.editing.block_form import BlockForm
from modu_desktop.ui.editing.card_find import CardSearch
from modu_desktop.ui.editing.cards.page_editor import PageEditor
from modu_desktop.ui.editing.editor_layout import EditorLayout
from modu_desktop.ui.editing.editor_toolbar import build_toolbar
from modu_desktop.ui.editing.find_bar import FindBar
from modu_desktop.ui.editing.front_matter_lines import FrontMatterLines
from modu_desktop.ui.editing.highlighter import MarkdownHighlighter
from modu_desktop.ui.editing.page_settings import FrontMatterForm
from modu_desktop.ui.editing.publish_status import PublishStatus
from modu_desktop.ui.editing.raw_blocks import RawBlocks, u16
from modu_desktop.ui.kit.editor_text import raw_text
from modu_desktop.ui.kit.preedit import install_preedit_tracker
from modu_desktop.ui.kit.shortcuts import bind
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


class EditorPane(QWidget):
    """Everything about one open document except the lock (the window owns that)."""

    textEdited = Signal()
    saveRequested = Signal()
    listToggled = Signal(bool)  # True = the document list is shown
    phaseChanged = Signal()  # saved / unsaved / saving / read-only may have changed

    VIEWS: tuple[str, ...] = ("editor", "preview", "both")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("editorPane")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        bar = build_toolbar(self)
        self.toggle_list_button = bar.toggle_list
        self.save_button = bar.save
        self.save_state = bar.save_state
        self.insert_block_button = bar.insert_block
        self.raw_toggle = bar.raw_toggle
        self.view_buttons = bar.views
        self.view_group = bar.view_group
        self.show_fm_button = bar.show_front_matter
        lay.addLayout(bar.row)
        self.publish = PublishStatus(self)
        lay.addWidget(self.publish)
        self.form = FrontMatterForm(self)
        lay.addWidget(self.form)
        self._build_views()
        lay.addWidget(self.splitter, 1)
        self.view = "both"
        self.narrow = False  # the window is narrow now: its list width is not the user's
        self.fitted_sizes: list[int] | None = None  # the cards/preview sizes a narrow window chose
        self.raw_view = False
        self._loaded = ""
        self._loaded_plain = ""
        self._bom = False
        self._crlf = False
        self._saving = False
        self._checking = False
        self._loading = False
        self._applying_form = False
        self.picker: Any = None
        self._followed_card: object = None
        self._fm_timer = QTimer(self)
        self._fm_timer.setSingleShot(True)
        self._fm_timer.setInterval(200)
        self._fm_timer.timeout.connect(self._sync_form_from_text)
        self.front_matter = FrontMatterLines(self.editor, self.show_fm_button, self._plain)
        self.blocks = RawBlocks(
            self.editor,
            self.block_form,
            self.left_splitter,
            self.preview,
            plain=self._plain,
            replace_text=self._replace_text,
        )
        self.layout_memory = EditorLayout(self, self)
        self._connect()
        self.show_fm_button.setVisible(False)
        self._update_save_state()

    def _build_views(self) -> None:
        """The page editor of cards and the Markdown editor (with its find bar and block form)
        on one side, the preview on the other."""
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
        self.insert_block_action = QAction(tr("Insert &block…"), self)
        self.insert_block_action.setObjectName("insertBlockAction")
        bind(self.insert_block_action, "insertBlock")
        self.insert_block_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.insert_block_action.triggered.connect(self.open_block_picker)
        self.addAction(self.insert_block_action)

    def _connect(self) -> None:
        self.editor.textChanged.connect(self._on_text_changed)
        self.editor.cursorPositionChanged.connect(self._cursor_moved)
        self.editor.document().modificationChanged.connect(lambda _m: self._update_save_state())
        install_preedit_tracker().watch(self.editor)  # Korean input: see preedit.py
        self.preview.blockActivated.connect(self.open_block_at_line)
        self.preview.rendered.connect(self.blocks.refollow)  # a new rendering: keep the block
        self.form.fieldEdited.connect(self._apply_form_edit)
        self.save_button.clicked.connect(self.saveRequested)
        self.insert_block_button.clicked.connect(self.open_block_picker)
        self.show_fm_button.toggled.connect(lambda on: self.set_front_matter_hidden(not on))
        self.raw_toggle.toggled.connect(self.set_raw_view)
        for key, button in self.view_buttons.items():
            button.clicked.connect(lambda _c=False, k=key: self.set_view(k))
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._card_focus_changed)

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
            self.front_matter.apply()
            cur = self.editor.textCursor()
            cur.movePosition(QTextCursor.MoveOperation.Start)
            self.editor.setTextCursor(cur)
            self.front_matter.keep_cursor_visible()
        finally:
            self._loading = False
        self.set_read_only(read_only)
        self.publish.clear()
        self._sync_form_from_text()
        self.blocks.sync()
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
        if not self._loading:
            self.front_matter.text_changed()
        self.blocks.later()
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
        cur.setPosition(u16(old, start))
        cur.setPosition(u16(old, end_old), QTextCursor.MoveMode.KeepAnchor)
        cur.insertText(new[start:end_new])
        cur.endEditBlock()
        with contextlib.suppress(Exception):
            c2 = self.editor.textCursor()
            c2.setPosition(min(pos, self.editor.document().characterCount() - 1))
            self.editor.setTextCursor(c2)

    # --- front matter: edited in the form, hidden in the editor ---
    def set_front_matter_hidden(self, hidden: bool) -> None:
        self.front_matter.set_hidden(hidden)

    # --- blocks: picker, form ---
    def _cursor_moved(self) -> None:
        if self.front_matter.hidden and not self._applying_form:
            self.front_matter.keep_cursor_visible()
        self.blocks.later()

    def current_block_span(self) -> syntax.BlockPart | None:
        return self.blocks.current_span()

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
            self.front_matter.keep_cursor_visible()
            self.editor.setFocus()
            self.blocks.sync()
        else:
            place = self.editor.textCursor().position()
            self.raw_view = False
            self.left_stack.setCurrentIndex(0)
            self.page_editor.ensure_current()
            self.page_editor.show_place(place)
        self.show_fm_button.setVisible(raw)
        if self.raw_toggle.isChecked() != raw:
            self.raw_toggle.setChecked(raw)
        self.layout_memory.save_soon()

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
        self.blocks.insert(block_text)

    def open_block_at_line(self, line: int) -> bool:
        """A block double-clicked in the preview: the cursor goes to its first line (and so
        its form opens); in the card view, its card comes into view."""
        if not self.raw_view:
            block = self.editor.document().findBlockByNumber(line)
            if not block.isValid():
                return False
            self.page_editor.show_place(block.position())
            return True
        return self.blocks.go_to(line)

    # --- window layout: list, view, splitter sizes ---
    def attach_window(self, outer: QSplitter, doc_list: QWidget, layout_path: Path) -> None:
        """Let the toolbar collapse ``doc_list`` and remember every splitter in ``layout_path``."""
        self.layout_memory.attach_window(outer, doc_list, layout_path)

    def set_list_shown(self, shown: bool, *, remember: bool = True) -> None:
        """Show or hide the document list; ``remember=False``: only for now (a narrow window
        tucks it away), not the user's choice for the next start."""
        self.layout_memory.set_list_shown(shown, remember=remember)

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
        self.layout_memory.save_soon()

    def save_layout(self) -> None:
        self.layout_memory.save()
