"""A text card ("글 상자"): rich text with a small toolbar — 제목, 굵게, 기울임, 취소선, 목록,
번호 목록, 링크, 그림, 표, 인용, 줄바꿈 — saved as site-safe Markdown.

Every change is read back into the card's model (:mod:`.richdoc`), written over the card's
original text by :func:`modu_desktop.core.pageedit.writing.rewrite` (paragraphs the user did
not touch keep their bytes) and handed to the page editor as the card's new text. When the
site would show something other than the card (a web address the site turns into a link, an
emoji shortcode), the card shows the site's reading once the keyboard leaves it.

Keys: Ctrl+B/I/K bold, italic, link; Ctrl+Shift+X strikethrough; Shift+Enter a line break;
Ctrl+] / Ctrl+[ indent and outdent a list item; Tab / Shift+Tab leave the card (in a table they
go from cell to cell first); Ctrl+Z / Ctrl+Y undo and redo in the whole document.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QMimeData, Qt, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QImage,
    QKeyEvent,
    QPainter,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QInputDialog,
    QLineEdit,
    QMenu,
    QTextEdit,
    QToolButton,
    QWidget,
)

from modu_desktop.core.pageedit.model import (
    BOLD,
    ITALIC,
    STRIKE,
    InlinePicture,
    Paragraph,
    RichText,
)
from modu_desktop.core.pageedit.reading import SourceBlock, read_pieces
from modu_desktop.core.pageedit.segments import CardSpan
from modu_desktop.core.pageedit.writing import rewrite
from modu_desktop.i18n import tr
from modu_desktop.ui.editing.cards import richdoc, text_formatting
from modu_desktop.ui.editing.cards.autosize import AutoHeight
from modu_desktop.ui.editing.cards.base import Card, is_redo, is_undo
from modu_desktop.ui.kit.flow_layout import FlowLayout
from modu_desktop.ui.kit.preedit import commit_preedit
from modu_desktop.ui.kit.shortcuts import page_keys_text

ImageSource = Callable[[str], QImage | None]

HEADINGS = (
    (0, "Body text"),
    (2, "Large heading"),
    (3, "Medium heading"),
    (4, "Small heading"),
)


def _placeholder(alt: str, width: int = 240, height: int = 120) -> QImage:
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(QColor("#eef2f7"))
    p = QPainter(image)
    p.setPen(QColor("#8a9bb4"))
    p.drawRect(0, 0, width - 1, height - 1)
    p.setPen(QColor("#44546a"))
    p.drawText(image.rect(), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, f"🖼 {alt}")
    p.end()
    return image


def _fit(image: QImage) -> QImage:
    if image.width() > 480:
        return image.scaledToWidth(480, Qt.TransformationMode.SmoothTransformation)
    return image


class RichTextEdit(QTextEdit):
    """The card's editor: its own undo is off (the document's is the one history), pastes
    plain text, draws pictures from ``image_source`` (a placeholder with the description when
    there is none)."""

    undoRequested = Signal()
    redoRequested = Signal()

    def __init__(self, card: TextCard) -> None:
        super().__init__()
        self.card = card
        self.image_source: ImageSource | None = None
        self.setAcceptRichText(False)
        self.setUndoRedoEnabled(False)
        self.setTabChangesFocus(True)
        self.setObjectName("textCardEditor")

    def loadResource(self, kind: int, name: QUrl | str) -> object:  # noqa: N802 - Qt API
        if kind == QTextDocument.ResourceType.ImageResource.value:
            src = name.toString() if isinstance(name, QUrl) else name
            image = self.image_source(src) if self.image_source is not None else None
            if image is not None and not image.isNull():
                return _fit(image)
            return _placeholder(self.card.alt_for(src) or src)
        return super().loadResource(kind, name)

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 - Qt API
        # formatting from elsewhere carries none of the card's marks: its text comes in
        if source.hasText():
            self.textCursor().insertText(source.text())

    def event(self, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and (is_undo(event) or is_redo(event) or self.card.shortcut_for(event))
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if is_undo(event):
            self.undoRequested.emit()
            return
        if is_redo(event):
            self.redoRequested.emit()
            return
        action = self.card.shortcut_for(event)
        if action is not None:
            action()
            return
        key = event.key()
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and self.card.move_in_table(
            back=key == Qt.Key.Key_Backtab
            or bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        ):
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.card.line_break()
                return
            was_heading = richdoc.heading_level(self.textCursor().block())
            super().keyPressEvent(event)
            if was_heading:  # a new line after a heading is body text
                self.card.set_heading(0)
            return
        super().keyPressEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt API
        super().focusOutEvent(event)
        self.card.left()


class TextCard(Card):
    kind = "text"
    pictureRequested = Signal(object)  # the card: the page editor asks for a picture
    undoRequested = Signal()
    redoRequested = Signal()

    def __init__(self, source: str, blocks: tuple[SourceBlock, ...],
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(tr("Text box"), parent)
        self.source = source
        self.blocks = blocks
        self.model = RichText(tuple(b.block for b in blocks))
        self._filling = False
        self._stale = False
        self.image_source: ImageSource | None = None

    def _build(self) -> None:
        self.toolbar = FlowLayout(spacing=2)
        self.body.addLayout(self.toolbar)
        self.editor = RichTextEdit(self)
        self.editor.image_source = self.image_source
        self.editor.undoRequested.connect(self.undoRequested)
        self.editor.redoRequested.connect(self.redoRequested)
        self.editor.setAccessibleName(tr("Text box"))
        self.body.addWidget(self.editor)
        self.sizer = AutoHeight(self.editor, min_lines=2.2)
        self.tool_buttons: dict[str, QToolButton] = {}
        self._build_toolbar()
        self.editor.ensurePolished()  # the style sheet's font first: text sizes follow it
        self.editor.document().contentsChanged.connect(self._changed)
        self.editor.cursorPositionChanged.connect(self._update_toolbar)
        self._fill(self.model)

    # --- toolbar ---
    def _build_toolbar(self) -> None:
        heading = self._tool("heading", tr("Heading"), tr("Heading level"), None)
        menu = QMenu(heading)
        menu.setObjectName("headingMenu")
        for level, name in HEADINGS:
            a = menu.addAction(tr(name))
            a.setObjectName(f"heading{level}")
            a.triggered.connect(lambda _c=False, lv=level: self.set_heading(lv))
        heading.setMenu(menu)
        heading.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu.aboutToShow.connect(self._take_keyboard)
        for key, text, name, keys, slot in (
            ("bold", tr("Bold"), tr("Bold"), "bold", lambda: self.toggle_mark(BOLD)),
            ("italic", tr("Italic"), tr("Italic"), "italic", lambda: self.toggle_mark(ITALIC)),
            (
                "strike",
                tr("Strikethrough"),
                tr("Strikethrough"),
                "strike",
                lambda: self.toggle_mark(STRIKE),
            ),
            ("bullets", tr("List"), tr("Bulleted list"), None, lambda: self.toggle_list(False)),
            ("numbers", tr("Numbers"), tr("Numbered list"), None, lambda: self.toggle_list(True)),
            ("link", tr("Link"), tr("Link"), "link", self.edit_link),
            ("picture", tr("Picture"), tr("Insert a picture"), None, self.ask_picture),
            ("table", tr("Table"), tr("Insert a table"), None, self.insert_table),
            ("quote", tr("Quote"), tr("Quotation"), None, self.toggle_quote),
            ("break", tr("Line break"), tr("Line break"), "lineBreak", self.line_break),
        ):
            b = self._tool(key, text, name, keys)
            b.clicked.connect(lambda _c=False, f=slot: f())
        for key in ("bold", "italic", "strike"):
            font = self.tool_buttons[key].font()
            font.setBold(key == "bold")
            font.setItalic(key == "italic")
            font.setStrikeOut(key == "strike")
            self.tool_buttons[key].setFont(font)
        for key in ("bold", "italic", "strike"):
            self.tool_buttons[key].setCheckable(True)

    def _tool(self, key: str, text: str, name: str, keys: str | None) -> QToolButton:
        """``keys``: the tool's key in :data:`PAGE_EDITOR` (its tooltip shows it)."""
        b = QToolButton()
        b.setObjectName(f"textTool_{key}")
        b.setText(text)
        tip = f"{name} ({page_keys_text(keys)})" if keys else name
        b.setToolTip(tip)
        b.setAccessibleName(name)
        b.setAutoRaise(True)
        b.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the editor keeps the keyboard
        b.pressed.connect(self._take_keyboard)
        self.toolbar.addWidget(b)
        self.tool_buttons[key] = b
        return b

    def _take_keyboard(self) -> None:
        """A tool pressed: the keyboard goes to this card's text box, its caret where it was
        (the keyboard may have been in another card: the tool acts here, the next key too)."""
        commit_preedit()  # the syllable being composed stays where it was typed
        if not self.editor.hasFocus():
            self.editor.setFocus(Qt.FocusReason.MouseFocusReason)

    def shortcut_for(self, event: QKeyEvent) -> Callable[[], None] | None:
        ctrl = Qt.KeyboardModifier.ControlModifier
        shift = Qt.KeyboardModifier.ShiftModifier
        mods, key = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier, event.key()
        table: dict[tuple[object, int], Callable[[], None]] = {
            (ctrl, Qt.Key.Key_B): lambda: self.toggle_mark(BOLD),
            (ctrl, Qt.Key.Key_I): lambda: self.toggle_mark(ITALIC),
            (ctrl | shift, Qt.Key.Key_X): lambda: self.toggle_mark(STRIKE),
            (ctrl, Qt.Key.Key_K): self.edit_link,
            (ctrl, Qt.Key.Key_BracketRight): lambda: self.indent_list(1),
            (ctrl, Qt.Key.Key_BracketLeft): lambda: self.indent_list(-1),
        }
        return table.get((mods, key))

    def _update_toolbar(self) -> None:
        marks = richdoc.marks_of(self.editor.currentCharFormat())
        for key, mark in (("bold", BOLD), ("italic", ITALIC), ("strike", STRIKE)):
            self.tool_buttons[key].setChecked(mark in marks)

    # --- the model and the document text ---
    def _fill(self, model: RichText) -> None:
        self._filling = True
        try:
            richdoc.fill_document(self.editor.document(), model)
        finally:
            self._filling = False
        self.sizer.fit()

    def _changed(self) -> None:
        if self._filling or self.read_only:
            return
        model = richdoc.read_document(self.editor.document())
        if model == self.model:
            return
        written = rewrite(self.source, self.blocks, model)
        self.model = model
        self.edited.emit(self, written.text, True)
        self.source = written.text
        self.blocks = written.blocks
        # the site would read it otherwise (a web address, an emoji name): show it on leaving
        self._stale = self._stale or not written.exact

    def left(self) -> None:
        """The keyboard left the card: show what the site will show, if it differs."""
        if not self._stale:
            return
        self._stale = False
        pieces = read_pieces(self.source)
        if len(pieces) == 1 and pieces[0].kind == "rich" and pieces[0].start == 0:
            self.blocks = pieces[0].blocks
            self.model = pieces[0].model
            self._fill(self.model)
        elif pieces:
            self.lookRequested.emit()

    def set_source(self, source: str, segment: CardSpan) -> None:
        if source == self.source:
            self.blocks = segment.blocks
            return
        if not self.is_built:
            self.source = source
            self.blocks = segment.blocks
            self.model = RichText(tuple(b.block for b in segment.blocks))
            return
        offset = self.editor.textCursor().position()
        had_focus = self.editor.hasFocus()
        self.source = source
        self.blocks = segment.blocks
        self.model = RichText(tuple(b.block for b in segment.blocks))
        self._stale = False
        self._fill(self.model)
        if had_focus:
            self.show_offset(offset)

    def alt_for(self, src: str) -> str:
        for node in self._pictures():
            if node.src == src:
                return node.alt
        return self._alt_in_editor(src) if self.is_built else ""

    def _pictures(self) -> list[InlinePicture]:
        out: list[InlinePicture] = []
        for block in self.model.blocks:
            if isinstance(block, Paragraph):
                out.extend(n for n in block.content if isinstance(n, InlinePicture))
        return out

    def _alt_in_editor(self, src: str) -> str:
        block = self.editor.document().begin()
        while block.isValid():
            for node in richdoc.read_inlines(block):
                if isinstance(node, InlinePicture) and node.src == src:
                    return node.alt
            block = block.next()
        return ""

    def focus_widgets(self) -> list[QWidget]:
        self.ensure_built()
        return [self.editor]

    def set_read_only(self, ro: bool) -> None:
        super().set_read_only(ro)
        if not self.is_built:
            return
        self.editor.setReadOnly(ro)
        for b in self.tool_buttons.values():
            b.setEnabled(not ro)

    def set_image_source(self, source: ImageSource | None) -> None:
        self.image_source = source
        if self.is_built:
            self.editor.image_source = source

    def reload_pictures(self) -> None:
        """Pictures that arrived after the card was drawn (fetched from the repository in the
        background, or just uploaded) take the place of their placeholders."""
        if not self.is_built or self.image_source is None:
            return
        doc = self.editor.document()
        sources: set[str] = set()
        block = doc.begin()
        while block.isValid():
            sources.update(
                n.src for n in richdoc.read_inlines(block) if isinstance(n, InlinePicture)
            )
            block = block.next()
        found = False
        for src in sources:
            image = self.image_source(src)
            if image is not None and not image.isNull():
                doc.addResource(
                    QTextDocument.ResourceType.ImageResource.value, QUrl(src), _fit(image)
                )
                found = True
        if found:
            self._filling = True
            try:
                doc.markContentsDirty(0, doc.characterCount())
            finally:
                self._filling = False
            self.sizer.fit()  # a picture is seldom as tall as its placeholder

    def focus_offset(self) -> int:
        return self.editor.textCursor().position() if self.is_built else 0

    def show_offset(self, offset: int) -> None:
        self.ensure_built()
        cur = self.editor.textCursor()
        cur.setPosition(max(0, min(offset, self.editor.document().characterCount() - 1)))
        self.editor.setTextCursor(cur)
        self.editor.setFocus(Qt.FocusReason.OtherFocusReason)

    # --- formatting: the tools act on the box unless the card is read-only ---
    def toggle_mark(self, mark: str) -> None:
        if self.read_only:
            return
        text_formatting.toggle_mark(self.editor, mark)
        self._update_toolbar()

    def set_heading(self, level: int) -> None:
        if not self.read_only:
            text_formatting.set_heading(self.editor.textCursor(), level)

    def toggle_list(self, ordered: bool) -> None:
        if not self.read_only:
            text_formatting.toggle_list(self.editor.textCursor(), ordered)

    def indent_list(self, delta: int) -> None:
        if not self.read_only:
            text_formatting.indent_list(self.editor.textCursor(), delta)

    def toggle_quote(self) -> None:
        if not self.read_only:
            text_formatting.toggle_quote(self.editor.textCursor())

    def line_break(self) -> None:
        if not self.read_only:
            self.editor.textCursor().insertText(richdoc.LINE_BREAK)

    def edit_link(self) -> None:
        if self.read_only:
            return
        cur = self.editor.textCursor()
        current = richdoc.link_of(self.editor.currentCharFormat()) or ""
        if not cur.hasSelection() and current:
            cur.select(QTextCursor.SelectionType.WordUnderCursor)
        url, ok = QInputDialog.getText(
            self,
            tr("Link"),
            tr("Web address (leave empty to remove the link):"),
            QLineEdit.EchoMode.Normal,
            current,
        )
        if not ok:
            return
        self.set_link(url.strip(), cur)

    def set_link(self, url: str, cur: QTextCursor | None = None) -> None:
        cur = cur if cur is not None else self.editor.textCursor()
        text_formatting.set_link(self.editor, url, cur)

    def ask_picture(self) -> None:
        if not self.read_only:
            self.pictureRequested.emit(self)

    def insert_picture(self, picture: InlinePicture) -> None:
        if self.read_only:
            return
        self.editor.textCursor().insertImage(richdoc.picture_format(picture))

    def insert_table(self, rows: int = 2, cols: int = 2) -> None:
        if not self.read_only:
            text_formatting.insert_table(self.editor, rows, cols)

    def move_in_table(self, *, back: bool) -> bool:
        return text_formatting.move_in_table(self.editor, back=back)
