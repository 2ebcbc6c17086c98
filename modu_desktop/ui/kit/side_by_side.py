"""Two versions of a page side by side, as a person reads them: the conflict screen, 기록's
comparison and the recovery of unsaved text show both versions the way the page editor shows a
page (:func:`core.pageedit.readable.readable_lines`: headings, paragraphs, list items, a block by
its name and each field by its label, no Markdown marks), line against line, the lines that
differ coloured and the changed letters bold; their original text one tick away, in two
read-only panes that scroll together.
"""

from __future__ import annotations

import html

from PySide6.QtWidgets import QLabel, QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from modu_desktop.core.documents.history import SideRow, changed_parts, side_by_side_lines
from modu_desktop.core.pageedit.readable import ReadableLine, readable_lines
from modu_desktop.i18n import tr

ReadingRow = tuple[SideRow, ReadableLine | None, ReadableLine | None]


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


def reading_rows(mine: list[ReadableLine], theirs: list[ReadableLine]) -> list[ReadingRow]:
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
    rows: list[ReadingRow],
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


def compare_readings(old: str, new: str) -> list[ReadingRow]:
    """Two whole texts as they read, line against line (empty when they read the same)."""
    return reading_rows(readable_lines(old), readable_lines(new))
