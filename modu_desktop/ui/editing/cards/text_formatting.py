"""What a text card's tools do to its rich text box: marks (굵게, 기울임, 취소선) and links on the
selected text, the kind of the selected paragraphs (제목, 목록, 번호 목록, 인용, a list item's
depth), a table at the caret and Tab from cell to cell.

Each function acts on a ``QTextEdit`` or a cursor in its document, in the formats of
:mod:`.richdoc`, as one undo step of the box; whether the card may be changed is the card's
question, asked before."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QTextBlock, QTextBlockFormat, QTextCursor, QTextList
from PySide6.QtWidgets import QTextEdit

from modu_desktop.core.pageedit.model import Table, TextRun
from modu_desktop.i18n import tr
from modu_desktop.ui.editing.cards import richdoc

MarksChange = Callable[[frozenset[str], str | None], tuple[frozenset[str], str | None]]


def blocks_of(cursor: QTextCursor) -> list[QTextBlock]:
    """The paragraphs the selection touches (the caret's one without a selection)."""
    doc = cursor.document()
    first = doc.findBlock(cursor.selectionStart())
    last = doc.findBlock(cursor.selectionEnd())
    out = []
    block = first
    while block.isValid():
        out.append(block)
        if block == last:
            break
        block = block.next()
    return out


# --- marks and links on the text ---
def toggle_mark(editor: QTextEdit, mark: str) -> None:
    """The selection gets ``mark`` unless all of it has it already (then none of it has it);
    without a selection, what is typed next."""
    cur = editor.textCursor()
    if not cur.hasSelection():
        fmt = editor.currentCharFormat()
        marks = richdoc.marks_of(fmt) ^ {mark}
        level = richdoc.heading_level(cur.block())
        size = richdoc.base_size(editor.document())
        editor.setCurrentCharFormat(
            richdoc.char_format(marks, richdoc.link_of(fmt), heading=level, base_size=size)
        )
        return
    on = not _all_marked(cur, mark)
    change_marks(cur, lambda marks, link: (marks | {mark} if on else marks - {mark}, link))


def _all_marked(cur: QTextCursor, mark: str) -> bool:
    found = [mark in marks for marks, _link in _selected_formats(cur)]
    return bool(found) and all(found)


def _selected_formats(cur: QTextCursor) -> list[tuple[frozenset[str], str | None]]:
    doc = cur.document()
    start, end = cur.selectionStart(), cur.selectionEnd()
    out = []
    block = doc.findBlock(start)
    while block.isValid() and block.position() <= end:
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            it += 1
            a, b = frag.position(), frag.position() + frag.length()
            if b <= start or a >= end or frag.charFormat().isImageFormat():
                continue
            fmt = frag.charFormat()
            out.append((richdoc.marks_of(fmt), richdoc.link_of(fmt)))
        block = block.next()
    return out


def change_marks(cur: QTextCursor, change: MarksChange) -> None:
    """Apply ``change`` to the marks and link of every piece of text in the selection."""
    doc = cur.document()
    start, end = cur.selectionStart(), cur.selectionEnd()
    size = richdoc.base_size(doc)
    pieces = []
    block = doc.findBlock(start)
    while block.isValid() and block.position() <= end:
        level = richdoc.heading_level(block)
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            it += 1
            fmt = frag.charFormat()
            a, b = max(start, frag.position()), min(end, frag.position() + frag.length())
            if a >= b or fmt.isImageFormat():
                continue
            pieces.append((a, b, level, fmt))
        block = block.next()
    edit = QTextCursor(doc)
    edit.beginEditBlock()
    for a, b, level, fmt in pieces:
        marks, link = change(richdoc.marks_of(fmt), richdoc.link_of(fmt))
        edit.setPosition(a)
        edit.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
        edit.setCharFormat(richdoc.char_format(marks, link, heading=level, base_size=size))
    edit.endEditBlock()


def set_link(editor: QTextEdit, url: str, cur: QTextCursor) -> None:
    """The selection links to ``url`` (no link when it is empty); without a selection the
    address is written at the caret as its own link."""
    link = url or None
    if not cur.hasSelection():
        if link is None:
            return
        size = richdoc.base_size(editor.document())
        level = richdoc.heading_level(cur.block())
        marks = richdoc.marks_of(editor.currentCharFormat())
        cur.insertText(url, richdoc.char_format(marks, link, heading=level, base_size=size))
        # what is typed next follows the link instead of lengthening it
        editor.setCurrentCharFormat(richdoc.char_format(marks, None, heading=level, base_size=size))
        return
    change_marks(cur, lambda marks, _old: (marks, link))


# --- the kind of paragraph ---
def set_heading(cursor: QTextCursor, level: int) -> None:
    """The selected paragraphs become headings of ``level`` (0: body text)."""
    doc = cursor.document()
    edit = QTextCursor(doc)
    edit.beginEditBlock()
    blocks = blocks_of(cursor)
    for block in blocks:
        edit.setPosition(block.position())
        qlist = block.textList()
        if qlist is not None and level:
            qlist.remove(block)
        fmt = richdoc.heading_format(level) if level else QTextBlockFormat()
        edit.setBlockFormat(fmt)
    edit.endEditBlock()
    richdoc.restyle(doc, blocks[0], blocks[-1])


def toggle_list(cursor: QTextCursor, ordered: bool) -> None:
    """The selected paragraphs become one list (numbered or not); when they are all in such a
    list already, they leave it."""
    blocks = blocks_of(cursor)
    lists = [b.textList() for b in blocks]
    same = all(lst is not None and richdoc.is_ordered(lst) == ordered for lst in lists)
    doc = cursor.document()
    edit = QTextCursor(doc)
    edit.beginEditBlock()
    if same:
        for block, lst in zip(blocks, lists, strict=True):
            assert lst is not None
            lst.remove(block)
            edit.setPosition(block.position())
            fmt = edit.blockFormat()
            fmt.setIndent(0)
            edit.setBlockFormat(fmt)
    else:
        qlist: QTextList | None = None
        for block in blocks:
            edit.setPosition(block.position())
            edit.setBlockFormat(QTextBlockFormat())
            if qlist is None:
                qlist = edit.createList(richdoc.list_format(ordered, 1))
            else:
                qlist.add(block)
    edit.endEditBlock()
    richdoc.restyle(doc, blocks[0], blocks[-1])


def indent_list(cursor: QTextCursor, delta: int) -> None:
    """The list item at the caret goes ``delta`` levels deeper (out of the list above the
    first); nothing outside a list."""
    block = cursor.block()
    qlist = block.textList()
    if qlist is None:
        return
    depth = max(1, qlist.format().indent()) + delta
    ordered = richdoc.is_ordered(qlist)
    edit = QTextCursor(cursor.document())
    edit.beginEditBlock()
    qlist.remove(block)
    edit.setPosition(block.position())
    if depth < 1:
        fmt = edit.blockFormat()
        fmt.setIndent(0)
        edit.setBlockFormat(fmt)
    else:
        target = _list_above(block, depth)
        if target is not None:
            target.add(block)
        else:
            edit.createList(richdoc.list_format(ordered, depth))
    edit.endEditBlock()


def _list_above(block: QTextBlock, depth: int) -> QTextList | None:
    """The list of ``depth`` just above ``block`` in the same run of list items, to join."""
    prev = block.previous()
    while prev.isValid() and prev.textList() is not None:
        above = prev.textList()
        if above.format().indent() == depth:
            return above
        if above.format().indent() < depth:
            return None
        prev = prev.previous()
    return None


def toggle_quote(cursor: QTextCursor) -> None:
    """The selected paragraphs become a quotation (joining one just above); when they all are
    quoted already, body text."""
    blocks = blocks_of(cursor)
    doc = cursor.document()
    edit = QTextCursor(doc)
    edit.beginEditBlock()
    if all(richdoc.is_quote(b) for b in blocks):
        for block in blocks:
            edit.setPosition(block.position())
            edit.setBlockFormat(QTextBlockFormat())
    else:
        above = blocks[0].previous()
        group = (
            above.blockFormat().intProperty(richdoc.QUOTE_GROUP_PROP)
            if above.isValid() and richdoc.is_quote(above)
            else richdoc.new_quote_group()
        )
        for block in blocks:
            lst = block.textList()
            if lst is not None:
                lst.remove(block)
            edit.setPosition(block.position())
            edit.setBlockFormat(richdoc.quote_format(group))
    edit.endEditBlock()
    richdoc.restyle(doc, blocks[0], blocks[-1])


# --- tables ---
def insert_table(editor: QTextEdit, rows: int, cols: int) -> None:
    """A table of ``rows`` (the heading row among them) on a line of its own at the caret."""
    cur = editor.textCursor()
    cur.beginEditBlock()
    if cur.block().length() > 1:
        cur.movePosition(QTextCursor.MoveOperation.EndOfBlock)
        cur.insertBlock(QTextBlockFormat())
    doc = editor.document()
    at = cur.position()
    filler = richdoc.Filler(doc, cur, richdoc.base_size(doc))
    header = tuple((TextRun(tr("Column {n}", n=n + 1)),) for n in range(cols))
    body = tuple(tuple(() for _ in range(cols)) for _ in range(rows - 1))
    filler.table(Table(("",) * cols, header, body))
    cur.endEditBlock()
    # the caret goes into the first heading cell, its placeholder selected: typing names it
    inside = QTextCursor(doc)
    inside.setPosition(at + 1)
    table = inside.currentTable()
    if table is not None:
        cell = table.cellAt(0, 0)
        first = cell.firstCursorPosition()
        first.setPosition(cell.lastCursorPosition().position(), QTextCursor.MoveMode.KeepAnchor)
        editor.setTextCursor(first)


def move_in_table(editor: QTextEdit, *, back: bool) -> bool:
    """The caret to the next (or previous) cell of the table it is in; False when it is in no
    table or at its first or last cell, so that Tab leaves the box."""
    cur = editor.textCursor()
    table = cur.currentTable()
    if table is None:
        return False
    cell = table.cellAt(cur)
    index = cell.row() * table.columns() + cell.column() + (-1 if back else 1)
    if not 0 <= index < table.rows() * table.columns():
        return False
    target = table.cellAt(index // table.columns(), index % table.columns())
    editor.setTextCursor(target.firstCursorPosition())
    return True
