"""Side-by-side "your version / the version on the site" for save conflicts and comparisons.

Both versions are shown as the page editor shows a page — headings, paragraphs, list items, a
block by its name and each field by its label, no Markdown marks — line against line, the lines
that differ coloured and the changed letters bold. 원문 보기 shows the two texts as written.
"""

from __future__ import annotations

import difflib
from enum import Enum

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QShowEvent, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTextBrowser,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.pageedit.readable import readable_lines
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.fit import fit_to_screen
from modu_desktop.ui.kit.side_by_side import (
    link_scrolling,
    read_only_pane,
    reading_html,
    reading_rows,
)


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


def headline(title: str, theirs_by: str | None, compare_only: bool) -> str:
    if compare_only:
        return tr(
            "Your text (left) and the current version on the site (right) of “{doc}”.",
            doc=title,
        )
    if theirs_by:
        return tr(
            "While you were editing “{doc}”, {who} saved a newer version. Nothing has been "
            "overwritten yet. Choose what to keep.",
            doc=title,
            who=theirs_by,
        )
    return tr(
        "While you were editing “{doc}”, someone saved a newer version. Nothing has been "
        "overwritten yet. Choose what to keep.",
        doc=title,
    )


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
        head = QLabel(headline(title, theirs_by, compare_only))
        head.setWordWrap(True)
        head.setObjectName("conflictHeadline")
        lay.addWidget(head)
        self.mine, self.theirs = mine, theirs
        lay.addWidget(self._versions(mine, theirs, theirs_by), 1)
        lay.addLayout(self._summary_row(mine, theirs))
        lay.addLayout(self._buttons(compare_only))
        self._safe.setFocus()
        link_scrolling(self.mine_view, self.theirs_view)
        fit_to_screen(self, 1000, 620)  # never wider than its window (취소 stays in view)

    def _versions(self, mine: str, theirs: str, theirs_by: str | None) -> QStackedWidget:
        """The two versions as read (paragraphs, blocks, settings), or as their original text
        with the changed lines coloured."""
        theirs_title = (
            tr("Saved by {who}", who=theirs_by) if theirs_by else tr("Current version on the site")
        )
        self.rows = reading_rows(readable_lines(mine), readable_lines(theirs))
        self.reading_view = QTextBrowser()
        self.reading_view.setObjectName("readingView")
        self.reading_view.setOpenLinks(False)
        self.reading_view.setAccessibleName(tr("The two versions side by side"))
        self.reading_view.setHtml(reading_html(self.rows, tr("Your version"), theirs_title))

        raw_page = QWidget()
        raw_lay = QVBoxLayout(raw_page)
        raw_lay.setContentsMargins(0, 0, 0, 0)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.mine_view = read_only_pane(split, tr("Your version"), "mineText", mine)
        self.theirs_view = read_only_pane(split, theirs_title, "theirsText", theirs)
        raw_lay.addWidget(split)
        self.views = QStackedWidget()
        self.views.addWidget(self.reading_view)
        self.views.addWidget(raw_page)
        ca, cb = _changed_lines(mine.splitlines(), theirs.splitlines())
        _highlight(self.mine_view, ca, "#fff3c4")
        _highlight(self.theirs_view, cb, "#dceeff")
        self._first_change = (min(ca) if ca else 0, min(cb) if cb else 0)
        _scroll_to(self.mine_view, self._first_change[0])
        _scroll_to(self.theirs_view, self._first_change[1])
        return self.views

    def _summary_row(self, mine: str, theirs: str) -> QHBoxLayout:
        info = QHBoxLayout()
        if mine == theirs:
            summary = tr("The two versions are identical.")
        elif not self.rows:
            summary = tr(
                "The two versions read the same; only the way the original text is written differs."
            )
        else:
            summary = tr("What differs is coloured; changed letters are bold.")
        self.summary = QLabel(summary)
        self.summary.setObjectName("conflictSummary")
        self.summary.setWordWrap(True)
        info.addWidget(self.summary, 1)
        self.raw_toggle = QCheckBox(tr("Show the &original text (Markdown)"))
        self.raw_toggle.setObjectName("rawToggle")
        self.raw_toggle.toggled.connect(self._show_raw)
        info.addWidget(self.raw_toggle)
        return info

    def _buttons(self, compare_only: bool) -> QHBoxLayout:
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
        self._safe = safe
        self.keep_mine_button.clicked.connect(lambda: self._done(ConflictChoice.KEEP_MINE))
        self.take_theirs_button.clicked.connect(lambda: self._done(ConflictChoice.TAKE_THEIRS))
        self.save_new_button.clicked.connect(lambda: self._done(ConflictChoice.SAVE_AS_NEW))
        self.cancel_button.clicked.connect(lambda: self._done(ConflictChoice.CANCEL))
        return row

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        self._safe.setFocus()
        # Once laid out, put the first difference in view (the panes then scroll together).
        QTimer.singleShot(0, lambda: _scroll_to(self.mine_view, self._first_change[0]))

    def _show_raw(self, raw: bool) -> None:
        self.views.setCurrentIndex(1 if raw else 0)
        if raw:
            QTimer.singleShot(0, lambda: _scroll_to(self.mine_view, self._first_change[0]))

    def _done(self, choice: ConflictChoice) -> None:
        self.choice = choice
        if choice is ConflictChoice.CANCEL:
            self.reject()
        else:
            self.accept()
