"""The front matter's lines in the Markdown editor: hidden while 페이지 설정 edits them, shown
with 머리말 보기. Only hidden: the text is untouched, and hidden lines are saved byte for byte.
The cursor never rests on a hidden line."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QPlainTextEdit, QToolButton

from modu_desktop.core.brochure import syntax


class FrontMatterLines:
    def __init__(
        self, editor: QPlainTextEdit, button: QToolButton, plain: Callable[[], str]
    ) -> None:
        self.editor = editor
        self.button = button  # 머리말 보기
        self.plain = plain  # the text as Qt holds it
        self.hidden = True
        self.lines = 0  # the front matter's lines when last looked at
        self.hidden_lines = 0

    def set_hidden(self, hidden: bool) -> None:
        self.hidden = hidden
        if self.button.isChecked() == hidden:
            self.button.setChecked(not hidden)
        self.apply()

    def text_changed(self) -> None:
        """The text changed: the front matter may have grown or shrunk."""
        if self.hidden and syntax.front_matter_lines(self.plain()) != self.lines:
            self.apply()

    def apply(self) -> None:
        doc = self.editor.document()
        n = syntax.front_matter_lines(self.plain())
        # nothing after it: keep it visible so the text can still be reached
        reachable = n < doc.blockCount()
        n_hide = n if self.hidden and reachable else 0
        upto = max(n, self.lines) + 1
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
        self.lines = n
        self.hidden_lines = n_hide
        if changed:
            end = doc.findBlockByNumber(min(upto, doc.blockCount() - 1))
            doc.markContentsDirty(0, end.position() + end.length())
            self.editor.viewport().update()
            self.editor.updateGeometry()
        self.keep_cursor_visible()

    def keep_cursor_visible(self) -> None:
        n = self.hidden_lines
        cur = self.editor.textCursor()
        if n and cur.blockNumber() < n:
            target = self.editor.document().findBlockByNumber(n)
            if target.isValid():
                cur.setPosition(target.position())
                self.editor.setTextCursor(cur)
