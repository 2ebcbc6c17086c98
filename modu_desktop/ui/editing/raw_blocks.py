"""Brochure blocks in the Markdown editor (원문 편집): with the cursor inside a block, the block
form shows its fields and items, the preview follows it, and the form's edits go back into the
text as one undo step touching only what changed; a new block goes on lines of its own; Tab and
Shift+Tab inside a block move the lines by two spaces."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QSplitter

from modu_desktop.core.brochure import block_model, syntax
from modu_desktop.ui.editing.block_form import BlockForm

SYNC_AFTER_MS = 120  # the form follows the cursor once it rests this long


class FollowingPreview(Protocol):
    """The preview, which scrolls to the block being edited."""

    def isVisible(self) -> bool: ...  # noqa: N802 - Qt API

    def scroll_to_line(self, line: int) -> bool: ...

    def follow_line(self, line: int) -> bool: ...


def u16(text: str, index: int) -> int:
    """A Python str index → a QTextDocument position (UTF-16 code units)."""
    return len(text[:index].encode("utf-16-le")) // 2


class RawBlocks(QObject):
    def __init__(
        self,
        editor: QPlainTextEdit,
        form: BlockForm,
        splitter: QSplitter,
        preview: FollowingPreview,
        *,
        plain: Callable[[], str],
        replace_text: Callable[[str, str], None],
    ) -> None:
        super().__init__(editor)
        self.editor = editor
        self.form = form
        self.splitter = splitter  # the text over the form
        self.preview = preview
        self.plain = plain  # the text as Qt holds it
        self.replace_text = replace_text  # one undo step, only the changed middle
        self.span: syntax.BlockPart | None = None  # the block the form shows
        self.applying = False  # the form's edit is going into the text
        self.form_sized = False  # the text/form split was given room once (then the user's)
        self.preview_followed: int | None = None  # the block line the preview last went to
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(SYNC_AFTER_MS)
        self.timer.timeout.connect(self.sync)
        form.blockEdited.connect(self.apply_text)
        editor.installEventFilter(self)

    def later(self) -> None:
        """The text or the cursor moved: the form follows once it rests."""
        if not self.applying:
            self.timer.start()

    def current_span(self) -> syntax.BlockPart | None:
        line = self.editor.textCursor().blockNumber()
        return syntax.block_at(self.plain(), line)

    def sync(self) -> None:
        """The form shows the block under the cursor (hidden outside blocks)."""
        span = self.current_span()
        if span is None or not span.closed:
            self.span = None
            self.form.hide()
            if self.preview.isVisible():  # an ordinary paragraph: the preview follows it too
                self.preview.follow_line(self.editor.textCursor().blockNumber())
            return
        same = (
            self.span is not None
            and self.span.first_line == span.first_line
            and self.form.isVisible()
            and self.form.model is not None
            and self.form.model.text() == span.text
        )
        self.span = span
        if same:
            return
        model = block_model.parse(span.text)
        self.form.show_model(model)
        self.form.set_read_only(self.editor.isReadOnly())
        if not self.form.isVisible():
            self.form.show()
            total = sum(self.splitter.sizes())
            if total > 0 and not self.form_sized:
                # room for fields and items; the user's own split is kept afterwards
                self.splitter.setSizes([total * 2 // 5, total - total * 2 // 5])
                self.form_sized = True
        self.follow_in_preview(span)

    def refollow(self) -> None:
        """A new rendering: keep the block in view."""
        if self.form.isVisible() and self.form.model is not None and self.span:
            self.follow_in_preview(self.span)

    def follow_in_preview(self, span: syntax.BlockPart) -> bool:
        """Scroll the preview to the block being edited (the page knows each block's line)."""
        if not self.preview.isVisible():
            return False
        if self.preview.scroll_to_line(span.first_line):
            self.preview_followed = span.first_line
            return True
        return False

    def apply_text(self, new_block: str) -> None:
        """The form changed the block: only the changed middle goes into the text."""
        span = self.span
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
        self.applying = True
        try:
            edit = QTextCursor(doc)
            edit.beginEditBlock()
            edit.setPosition(start + u16(old_block, a))
            edit.setPosition(start + u16(old_block, b_old), QTextCursor.MoveMode.KeepAnchor)
            edit.insertText(new_block[a:b_new])
            edit.endEditBlock()
            n_lines = new_block.count("\n") + 1
            self.span = dataclasses.replace(
                span,
                end=span.start + len(new_block),
                text=new_block,
                last_line=span.first_line + n_lines - 1,
            )
            # Qt moved the editor's cursor along with the edit; only bring it back into the
            # block if its line went away (a removed item)
            now = self.editor.textCursor().blockNumber()
            if not (self.span.first_line <= now <= self.span.last_line):
                c = self.editor.textCursor()
                c.setPosition(doc.findBlockByNumber(self.span.first_line + 1).position())
                self.editor.setTextCursor(c)
        finally:
            self.applying = False

    def insert(self, block_text: str) -> None:
        """Put a block at the cursor on lines of its own (after the block the cursor is in),
        with a blank line around it; the cursor lands in it, so its form shows."""
        if self.editor.isReadOnly():
            return
        text = self.plain()
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
        self.replace_text(text, new)
        cur = self.editor.textCursor()
        b = self.editor.document().findBlockByNumber(start + 1)
        cur.setPosition(b.position())
        self.editor.setTextCursor(cur)
        self.editor.setFocus()
        self.sync()

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
        text = self.plain()
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

    def go_to(self, line: int) -> bool:
        """A block double-clicked in the preview (its 0-based opening ``line``): the cursor
        goes to its first line inside, and so its form opens."""
        block = self.editor.document().findBlockByNumber(line + 1)
        if not block.isValid() or syntax.block_at(self.plain(), line + 1) is None:
            return False
        cur = self.editor.textCursor()
        text = block.text()
        cur.setPosition(block.position() + len(text) - len(text.lstrip()))
        self.editor.setTextCursor(cur)
        self.editor.centerCursor()
        self.sync()
        return True
