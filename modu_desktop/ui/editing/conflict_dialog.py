"""Side-by-side "your version / the version on the site" for save conflicts and comparisons.

Both versions are shown as the page editor shows a page — headings, paragraphs, list items, a
block by its name and each field by its label, no Markdown marks — line against line, the lines
that differ coloured and the changed letters bold. 원문 보기 shows the two texts as written.
"""

from __future__ import annotations

import difflib
import html
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

from modu_desktop.core.documents.history import SideRow, changed_parts, side_by_side_lines
from modu_desktop.core.pageedit.readable import ReadableLine, readable_lines
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


# ------------------------------------------------------------------------ the reading view
_MINE_LINE, _MINE_PART = "#fff3c4", "#ffd966"
_THEIRS_LINE, _THEIRS_PART = "#dceeff", "#9fc5f8"
_GAP = "#f4f4f4"
_CONTEXT = 3  # unchanged lines kept around each change


def _key(line: ReadableLine) -> str:
    return f"{line.kind}\x1f{line.level}\x1f{line.marks}\x1f{line.text}"


def reading_rows(
    mine: list[ReadableLine], theirs: list[ReadableLine]
) -> list[tuple[SideRow, ReadableLine | None, ReadableLine | None]]:
    """The two readings line against line (a row's lines, None where a side has none)."""
    rows = side_by_side_lines([_key(x) for x in mine], [_key(x) for x in theirs], context=_CONTEXT)
    return [
        (
            row,
            mine[row.old_no - 1] if row.old_no else None,
            theirs[row.new_no - 1] if row.new_no else None,
        )
        for row in rows
    ]


def _cell(line: ReadableLine | None, parts: list[tuple[int, int]], part_colour: str) -> str:
    """One line as the cards show it: a heading large and bold, a field's label grey, a list
    item indented, 원문 in a fixed-width font; ``parts`` (character spans) bold on colour."""
    if line is None:
        return "&nbsp;"
    text = line.text
    out, at = [], 0
    for start, end in parts:
        out.append(html.escape(text[at:start]))
        piece = html.escape(text[start:end]) or "&nbsp;"
        out.append(f'<span style="background-color: {part_colour}"><b>{piece}</b></span>')
        at = end
    out.append(html.escape(text[at:]))
    shown = "".join(out).replace("\n", "<br>") or "&nbsp;"
    indent = "&nbsp;" * 4 * line.level if line.kind in ("item", "field") else ""
    if line.kind == "section":
        return f'<span style="color: #555"><b>{shown}</b></span>'
    if line.kind == "heading":
        size = {2: "x-large", 3: "large"}.get(line.level, "medium")
        return f'<span style="font-size: {size}"><b>{shown}</b></span>'
    if line.kind == "field" and not parts and ": " in text:
        label, value = text.split(": ", 1)
        return (
            f'{indent}<span style="color: #666">{html.escape(label)}:</span> '
            f"{html.escape(value).replace(chr(10), '<br>')}"
        )
    if line.kind == "quote":
        return f'<span style="color: #555">│ <i>{shown}</i></span>'
    if line.kind == "row" and line.level:
        return f"<b>{shown}</b>"
    if line.kind == "raw":
        return f'<span style="font-family: monospace">{shown}</span>'
    return indent + shown


def reading_html(
    rows: list[tuple[SideRow, ReadableLine | None, ReadableLine | None]],
    mine_title: str,
    theirs_title: str,
) -> str:
    """The two readings as a two-column table, one row per line, changes coloured."""
    out = [
        '<table width="100%" cellspacing="0" cellpadding="5" style="border-collapse: collapse">',
        f'<tr><th width="50%" align="left">{html.escape(mine_title)}</th>'
        f'<th width="50%" align="left">{html.escape(theirs_title)}</th></tr>',
    ]
    for row, left, right in rows:
        if row.kind == "skipped":
            out.append(
                '<tr><td colspan="2" align="center" style="color: #777">'
                f"⋯ {html.escape(tr('{n} unchanged line(s)', n=row.skipped))} ⋯</td></tr>"
            )
            continue
        a_parts: list[tuple[int, int]] = []
        b_parts: list[tuple[int, int]] = []
        if row.kind == "changed" and left is not None and right is not None:
            a_parts, b_parts = changed_parts(left.text, right.text)
        colours = {
            "same": ("", ""),
            "changed": (_MINE_LINE, _THEIRS_LINE),
            "removed": (_MINE_LINE, _GAP),
            "added": (_GAP, _THEIRS_LINE),
        }[row.kind]
        whole_a = [(0, len(left.text))] if row.kind == "removed" and left else a_parts
        whole_b = [(0, len(right.text))] if row.kind == "added" and right else b_parts
        cells = (_cell(left, whole_a, _MINE_PART), _cell(right, whole_b, _THEIRS_PART))
        tds = "".join(
            f'<td width="50%" valign="top"{f" bgcolor={colour!r}" if colour else ""}>{c}</td>'
            for c, colour in zip(cells, colours, strict=True)
        )
        out.append(f"<tr>{tds}</tr>")
    out.append("</table>")
    return "".join(out)


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
