"""Side-by-side "your version / the version on the site" for save conflicts and comparisons."""

from __future__ import annotations

import difflib
from enum import Enum

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QShowEvent, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.i18n import tr
from modu_desktop.ui.kit.fit import fit_to_screen


def read_only_pane(
    split: QSplitter, title: str, name: str, text: str | None = None
) -> QPlainTextEdit:
    """A bold title over a read-only text view (object name ``name``), added to ``split``; the
    side-by-side panes of the conflict and recovery dialogs."""
    box = QWidget()
    v = QVBoxLayout(box)
    v.setContentsMargins(0, 0, 0, 0)
    v.addWidget(QLabel(f"<b>{title}</b>"))
    view = QPlainTextEdit()
    view.setObjectName(name)
    view.setReadOnly(True)
    if text is not None:
        view.setPlainText(text)
    view.setAccessibleName(title)
    v.addWidget(view, 1)
    split.addWidget(box)
    return view


def link_scrolling(a: QPlainTextEdit, b: QPlainTextEdit) -> None:
    """Scroll the two panes together (both ways), line by line, so the same place of both
    versions stays side by side."""
    busy = [False]

    def follow(src: QPlainTextEdit, dst: QPlainTextEdit) -> None:
        def moved(value: int) -> None:
            if busy[0]:
                return
            busy[0] = True
            try:
                bar = dst.verticalScrollBar()
                bar.setValue(min(value, bar.maximum()))
            finally:
                busy[0] = False

        src.verticalScrollBar().valueChanged.connect(moved)

    follow(a, b)
    follow(b, a)


class ConflictChoice(Enum):
    KEEP_MINE = "keep_mine"
    TAKE_THEIRS = "take_theirs"
    SAVE_AS_NEW = "save_as_new"
    CANCEL = "cancel"


def _changed_lines(a: list[str], b: list[str]) -> tuple[set[int], set[int]]:
    sm = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    ca: set[int] = set()
    cb: set[int] = set()
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag != "equal":
            ca.update(range(i1, i2))
            cb.update(range(j1, j2))
    return ca, cb


def _highlight(view: QPlainTextEdit, lines: set[int], color: str) -> None:
    sels = []
    doc = view.document()
    for n in sorted(lines):
        block = doc.findBlockByNumber(n)
        if not block.isValid():
            continue
        sel = QTextEdit.ExtraSelection()
        fmt = QTextCharFormat()
        fmt.setBackground(QColor(color))
        fmt.setProperty(QTextFormat.Property.FullWidthSelection, True)
        sel.format = fmt
        cur = QTextCursor(block)
        sel.cursor = cur
        sels.append(sel)
    view.setExtraSelections(sels)


def _scroll_to(view: QPlainTextEdit, line: int) -> None:
    """Put the first changed line in view (a few lines of context above it)."""
    block = view.document().findBlockByNumber(max(0, line))
    if not block.isValid():
        return
    cur = QTextCursor(view.document())
    cur.movePosition(QTextCursor.MoveOperation.End)
    view.setTextCursor(cur)  # scroll past it first, so that it ends up near the top
    ctx = view.document().findBlockByNumber(max(0, line - 3))
    view.setTextCursor(QTextCursor(ctx if ctx.isValid() else block))
    view.ensureCursorVisible()


class ConflictDialog(QDialog):
    """``title``: the page's title (the headline names it); ``compare_only`` hides keep/take
    (used by "compare with the current version")."""

    def __init__(
        self,
        title: str,
        mine: str,
        theirs: str,
        *,
        theirs_by: str | None = None,
        compare_only: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("conflictDialog" if not compare_only else "compareDialog")
        self.choice = ConflictChoice.CANCEL
        self.setWindowTitle(
            tr("Compare versions") if compare_only else tr("Someone else saved this document")
        )
        self.setAccessibleName(self.windowTitle())
        lay = QVBoxLayout(self)
        by = tr(" by {who}", who=theirs_by) if theirs_by else ""
        if compare_only:
            msg = tr(
                "Your text (left) and the current version on the site (right) of “{doc}”.",
                doc=title,
            )
        else:
            msg = tr(
                "While you were editing “{doc}”, a newer version was saved{by}. "
                "Nothing has been overwritten. Choose what to keep.",
                doc=title,
                by=by,
            )
        head = QLabel(msg)
        head.setWordWrap(True)
        head.setObjectName("conflictHeadline")
        lay.addWidget(head)

        split = QSplitter(Qt.Orientation.Horizontal)
        self.mine_view = read_only_pane(split, tr("Your version"), "mineText", mine)
        self.theirs_view = read_only_pane(
            split, tr("Current version on the site"), "theirsText", theirs
        )
        lay.addWidget(split, 1)
        ca, cb = _changed_lines(mine.splitlines(), theirs.splitlines())
        _highlight(self.mine_view, ca, "#fff3c4")
        _highlight(self.theirs_view, cb, "#dceeff")
        self._first_change = (min(ca) if ca else 0, min(cb) if cb else 0)
        _scroll_to(self.mine_view, self._first_change[0])
        _scroll_to(self.theirs_view, self._first_change[1])
        self.summary = QLabel(
            tr("The two versions are identical.")
            if mine == theirs
            else tr("Changed lines are highlighted.")
        )
        lay.addWidget(self.summary)

        row = QHBoxLayout()
        self.keep_mine_button = QPushButton(tr("&Keep mine (overwrite theirs)"))
        self.keep_mine_button.setObjectName("keepMineButton")
        self.take_theirs_button = QPushButton(tr("&Take theirs (discard mine)"))
        self.take_theirs_button.setObjectName("takeTheirsButton")
        self.save_new_button = QPushButton(tr("Save mine as a &new document"))
        self.save_new_button.setObjectName("saveAsNewButton")
        self.cancel_button = QPushButton(tr("&Close") if compare_only else tr("&Cancel"))
        self.cancel_button.setObjectName("cancelButton")
        for b in (
            self.keep_mine_button,
            self.take_theirs_button,
            self.save_new_button,
            self.cancel_button,
        ):
            b.setAccessibleName(b.text().replace("&", ""))
        if compare_only:
            self.keep_mine_button.hide()
            self.take_theirs_button.hide()
        # Enter and Esc never destroy anyone's text: the two buttons that overwrite (theirs or
        # mine) are never the default and ignore Enter; the safe choice comes first and has the
        # focus. In the comparison, Enter closes.
        for destructive in (self.keep_mine_button, self.take_theirs_button):
            destructive.setAutoDefault(False)
            destructive.setDefault(False)
        safe = self.cancel_button if compare_only else self.save_new_button
        self.save_new_button.setAutoDefault(False)
        self.cancel_button.setAutoDefault(False)
        safe.setDefault(True)
        row.addWidget(self.save_new_button)
        row.addWidget(self.take_theirs_button)
        row.addWidget(self.keep_mine_button)
        row.addStretch(1)
        row.addWidget(self.cancel_button)
        lay.addLayout(row)
        safe.setFocus()
        self._safe = safe
        link_scrolling(self.mine_view, self.theirs_view)
        self.keep_mine_button.clicked.connect(lambda: self._done(ConflictChoice.KEEP_MINE))
        self.take_theirs_button.clicked.connect(lambda: self._done(ConflictChoice.TAKE_THEIRS))
        self.save_new_button.clicked.connect(lambda: self._done(ConflictChoice.SAVE_AS_NEW))
        self.cancel_button.clicked.connect(lambda: self._done(ConflictChoice.CANCEL))
        fit_to_screen(self, 1000, 620)  # never wider than its window (취소 stays in view)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        self._safe.setFocus()
        # Once laid out, put the first difference in view (the panes then scroll together).
        QTimer.singleShot(0, lambda: _scroll_to(self.mine_view, self._first_change[0]))

    def _done(self, choice: ConflictChoice) -> None:
        self.choice = choice
        if choice is ConflictChoice.CANCEL:
            self.reject()
        else:
            self.accept()
