"""The text card's model in a ``QTextDocument`` and back: :func:`fill_document`,
:func:`read_document`.

Marks live in char-format properties of their own (``BOLD_PROP`` …), not in the font: a
heading is drawn bold and large, yet its text is bold only when the user made it so. The font,
colours and underline are drawn from the properties (:func:`char_format`, :func:`restyle`).
Blocks: headings by ``headingLevel``, lists by ``QTextList`` (its indent is the depth), quotes
by ``BlockQuoteLevel`` (consecutive quote paragraphs with the same group number are one quote),
dividing lines by ``BlockTrailingHorizontalRulerWidth``, tables by ``QTextTable`` (the first
row is the header; column alignment in ``TABLE_ALIGN_PROP``), pictures by image formats whose
name is the picture's address (``ALT_PROP`` its description), line breaks by U+2028.

``read_document(fill_document(model))`` is ``model`` for every model the reading gives: a card
that was only looked at writes nothing back.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from mdurl import encode
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextFrame,
    QTextFrameFormat,
    QTextImageFormat,
    QTextLength,
    QTextList,
    QTextListFormat,
    QTextTable,
    QTextTableFormat,
)

from modu_desktop.core.pageedit.model import (
    BOLD,
    CODE,
    ITALIC,
    STRIKE,
    Block,
    Heading,
    Inline,
    InlinePicture,
    Inlines,
    LineBreak,
    ListBlock,
    ListItem,
    Paragraph,
    Quote,
    RichText,
    Rule,
    Table,
    TextRun,
    normalise,
    normalise_inlines,
)

_USER = int(QTextFormat.Property.UserProperty)
BOLD_PROP = _USER + 1
ITALIC_PROP = _USER + 2
STRIKE_PROP = _USER + 3
CODE_PROP = _USER + 4
ALT_PROP = _USER + 10
QUOTE_GROUP_PROP = _USER + 11
TABLE_ALIGN_PROP = _USER + 20
MARK_PROPS = {BOLD: BOLD_PROP, ITALIC: ITALIC_PROP, STRIKE: STRIKE_PROP, CODE: CODE_PROP}
QUOTE_LEVEL = int(QTextFormat.Property.BlockQuoteLevel)
RULER = int(QTextFormat.Property.BlockTrailingHorizontalRulerWidth)
LINE_BREAK = "\u2028"
OBJECT = "\ufffc"
HEADING_SCALE = {1: 1.9, 2: 1.6, 3: 1.3, 4: 1.12, 5: 1.0, 6: 0.95}
LINK_COLOUR = QColor("#1565c0")
CODE_BACKGROUND = QColor("#eef1f5")
QUOTE_BACKGROUND = QColor("#f3f6fa")
ORDERED_STYLES = {
    QTextListFormat.Style.ListDecimal,
    QTextListFormat.Style.ListLowerAlpha,
    QTextListFormat.Style.ListUpperAlpha,
    QTextListFormat.Style.ListLowerRoman,
    QTextListFormat.Style.ListUpperRoman,
}
_BULLETS = (
    QTextListFormat.Style.ListDisc,
    QTextListFormat.Style.ListCircle,
    QTextListFormat.Style.ListSquare,
)
_quote_groups = itertools.count(1)


def new_quote_group() -> int:
    return next(_quote_groups)


# ------------------------------------------------------------------------------- formats
def _mono_families() -> list[str]:
    return [QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()]


def marks_of(fmt: QTextCharFormat) -> frozenset[str]:
    return frozenset(m for m, prop in MARK_PROPS.items() if fmt.boolProperty(prop))


def link_of(fmt: QTextCharFormat) -> str | None:
    if fmt.isAnchor() and fmt.anchorHref():
        return encode(fmt.anchorHref())
    return None


def char_format(
    marks: frozenset[str] = frozenset(),
    link: str | None = None,
    *,
    heading: int = 0,
    base_size: float = 0.0,
    strong: bool = False,
) -> QTextCharFormat:
    """A complete char format for text with ``marks`` and ``link`` (every property set, so
    it can replace whatever was there)."""
    fmt = QTextCharFormat()
    for mark, prop in MARK_PROPS.items():
        fmt.setProperty(prop, mark in marks)
    heavy = BOLD in marks or heading or strong  # a table's header row is drawn bold
    fmt.setFontWeight(QFont.Weight.Bold if heavy else QFont.Weight.Normal)
    fmt.setFontItalic(ITALIC in marks)
    fmt.setFontStrikeOut(STRIKE in marks)
    if CODE in marks:  # other text keeps the editor's font (no family of its own)
        fmt.setFontFamilies(_mono_families())
        fmt.setBackground(CODE_BACKGROUND)
    if heading and base_size > 0:
        fmt.setFontPointSize(base_size * HEADING_SCALE.get(heading, 1.0))
    elif base_size > 0:
        fmt.setFontPointSize(base_size)
    fmt.setAnchor(link is not None)
    fmt.setAnchorHref(link or "")
    fmt.setFontUnderline(link is not None)
    if link is not None:
        fmt.setForeground(LINK_COLOUR)
        fmt.setToolTip(link)
    else:
        fmt.clearForeground()
        fmt.setToolTip("")
    return fmt


def base_size(doc: QTextDocument) -> float:
    size = doc.defaultFont().pointSizeF()
    return size if size > 0 else 10.0


def list_format(ordered: bool, depth: int, start: int = 1) -> QTextListFormat:
    fmt = QTextListFormat()
    if ordered:
        fmt.setStyle(QTextListFormat.Style.ListDecimal)
        fmt.setStart(start)
    else:
        fmt.setStyle(_BULLETS[(depth - 1) % len(_BULLETS)])
    fmt.setIndent(depth)
    return fmt


def is_ordered(qlist: QTextList) -> bool:
    return qlist.format().style() in ORDERED_STYLES


def quote_format(group: int) -> QTextBlockFormat:
    fmt = QTextBlockFormat()
    fmt.setProperty(QUOTE_LEVEL, 1)
    fmt.setProperty(QUOTE_GROUP_PROP, group)
    fmt.setLeftMargin(18)
    fmt.setBackground(QUOTE_BACKGROUND)
    return fmt


def heading_format(level: int) -> QTextBlockFormat:
    fmt = QTextBlockFormat()
    fmt.setHeadingLevel(level)
    fmt.setTopMargin(6)
    return fmt


def rule_format() -> QTextBlockFormat:
    fmt = QTextBlockFormat()
    fmt.setProperty(RULER, QTextLength(QTextLength.Type.PercentageLength, 100))
    return fmt


def picture_format(picture: InlinePicture) -> QTextImageFormat:
    fmt = QTextImageFormat()
    fmt.setName(picture.src)
    fmt.setProperty(ALT_PROP, picture.alt)
    fmt.setToolTip(picture.alt or picture.src)
    return fmt


def heading_level(block: QTextBlock) -> int:
    return block.blockFormat().headingLevel()


def is_quote(block: QTextBlock) -> bool:
    return block.blockFormat().intProperty(QUOTE_LEVEL) > 0


def is_rule(block: QTextBlock) -> bool:
    return block.blockFormat().hasProperty(RULER)


# ---------------------------------------------------------------------------------- filling
@dataclass
class Filler:
    doc: QTextDocument
    cursor: QTextCursor
    size: float
    reuse: bool = True  # the cursor's block is empty and unused: the next block goes there

    def block(self, bfmt: QTextBlockFormat, heading: int = 0) -> None:
        cfmt = char_format(heading=heading, base_size=self.size)
        if self.reuse:
            self.cursor.setBlockFormat(bfmt)
            self.cursor.setBlockCharFormat(cfmt)
            self.reuse = False
        else:
            self.cursor.insertBlock(bfmt, cfmt)

    def inlines(self, content: Inlines, heading: int = 0, strong: bool = False) -> None:
        for node in content:
            if isinstance(node, TextRun):
                fmt = char_format(
                    node.marks, node.link, heading=heading, base_size=self.size, strong=strong
                )
                self.cursor.insertText(node.text, fmt)
            elif isinstance(node, LineBreak):
                fmt = char_format(heading=heading, base_size=self.size, strong=strong)
                self.cursor.insertText(LINE_BREAK, fmt)
            else:
                self.cursor.insertImage(picture_format(node))

    def list(self, block: ListBlock, depth: int) -> None:
        qlist: QTextList | None = None
        for item in block.items:
            self.block(QTextBlockFormat())
            if qlist is None:
                qlist = self.cursor.createList(list_format(block.ordered, depth, block.start))
            else:
                qlist.add(self.cursor.block())
            self.inlines(item.content)
            for child in item.children:
                self.list(child, depth + 1)

    def table(self, block: Table) -> None:
        if not self.reuse:
            self.block(QTextBlockFormat())
        fmt = QTextTableFormat()
        fmt.setHeaderRowCount(1)
        fmt.setCellPadding(4)
        fmt.setCellSpacing(0)
        fmt.setBorder(1)
        fmt.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
        fmt.setBorderCollapse(True)
        fmt.setWidth(QTextLength(QTextLength.Type.PercentageLength, 100))
        fmt.setProperty(TABLE_ALIGN_PROP, "|".join(block.align))
        rows = 1 + len(block.rows)
        cols = len(block.align)
        table = self.cursor.insertTable(rows, cols, fmt)
        for r, row in enumerate((block.header, *block.rows)):
            for c, content in enumerate(row):
                cell_cursor = table.cellAt(r, c).firstCursorPosition()
                if r == 0:
                    cell_cursor.setBlockCharFormat(char_format(base_size=self.size, strong=True))
                sub = Filler(self.doc, cell_cursor, self.size, reuse=False)
                sub.inlines(content, strong=r == 0)
        self.cursor.setPosition(table.lastPosition() + 1)
        self.reuse = True


def fill_document(doc: QTextDocument, model: RichText) -> None:
    """Replace ``doc``'s content with ``model`` (no undo history is kept)."""
    undo = doc.isUndoRedoEnabled()
    doc.setUndoRedoEnabled(False)
    doc.clear()
    cursor = QTextCursor(doc)
    filler = Filler(doc, cursor, base_size(doc))
    for block in model.blocks:
        _fill_block(filler, block)
    doc.setUndoRedoEnabled(undo)


def _fill_block(f: Filler, block: Block) -> None:
    if isinstance(block, Paragraph):
        f.block(QTextBlockFormat())
        f.inlines(block.content)
    elif isinstance(block, Heading):
        f.block(heading_format(block.level), heading=block.level)
        f.inlines(block.content, heading=block.level)
    elif isinstance(block, ListBlock):
        f.list(block, 1)
    elif isinstance(block, Quote):
        group = new_quote_group()
        for para in block.paragraphs:
            f.block(quote_format(group))
            f.inlines(para.content)
    elif isinstance(block, Rule):
        f.block(rule_format())
    elif isinstance(block, Table):
        f.table(block)


# ---------------------------------------------------------------------------------- reading
def read_inlines(block: QTextBlock) -> list[Inline]:
    out: list[Inline] = []
    it = block.begin()
    while not it.atEnd():
        frag = it.fragment()
        it += 1
        if not frag.isValid():
            continue
        fmt = frag.charFormat()
        text = frag.text()
        if fmt.isImageFormat():
            image = fmt.toImageFormat()
            for _ in text:
                out.append(InlinePicture(image.name(), str(image.property(ALT_PROP) or "")))
            continue
        marks, link = marks_of(fmt), link_of(fmt)
        for n, part in enumerate(text.replace(OBJECT, "").split(LINE_BREAK)):
            if n:
                out.append(LineBreak())
            if part:
                out.append(TextRun(part, marks, link))
    return out


@dataclass
class _ListFrame:
    qlist: QTextList
    depth: int
    ordered: bool
    start: int
    items: list[tuple[list[Inline], list[_ListFrame]]] = field(default_factory=list)


def _freeze(frame: _ListFrame) -> ListBlock:
    return ListBlock(
        frame.ordered,
        tuple(
            ListItem(normalise_inlines(content), tuple(_freeze(c) for c in children))
            for content, children in frame.items
        ),
        frame.start,
    )


class _Reader:
    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.stack: list[_ListFrame] = []
        self.quote: tuple[int, list[Paragraph]] | None = None

    def end_lists(self) -> None:
        if self.stack:
            self.blocks.append(_freeze(self.stack[0]))
            self.stack = []

    def end_quote(self) -> None:
        if self.quote is not None:
            self.blocks.append(Quote(tuple(self.quote[1])))
            self.quote = None

    def end_all(self) -> None:
        self.end_lists()
        self.end_quote()

    def list_item(self, block: QTextBlock, qlist: QTextList) -> None:
        self.end_quote()
        depth = max(1, qlist.format().indent())
        while self.stack and (
            self.stack[-1].depth > depth
            or (self.stack[-1].depth == depth and self.stack[-1].qlist != qlist)
        ):
            ended = self.stack.pop()
            if not self.stack:  # a list at the top ended (another one follows)
                self.blocks.append(_freeze(ended))
        if self.stack and self.stack[-1].qlist == qlist:
            frame = self.stack[-1]
        else:
            fmt = qlist.format()
            frame = _ListFrame(qlist, depth, is_ordered(qlist), max(1, fmt.start()))
            if self.stack:
                parent = self.stack[-1]
                if parent.items:
                    parent.items[-1][1].append(frame)
                else:  # a deeper list before any item of its parent
                    parent.items.append(([], [frame]))
            self.stack.append(frame)
        frame.items.append((read_inlines(block), []))

    def block(self, block: QTextBlock) -> None:
        qlist = block.textList()
        if qlist is not None:
            self.list_item(block, qlist)
            return
        self.end_lists()
        if is_quote(block):
            group = block.blockFormat().intProperty(QUOTE_GROUP_PROP)
            if self.quote is None or self.quote[0] != group:
                self.end_quote()
                self.quote = (group, [])
            self.quote[1].append(Paragraph(normalise_inlines(read_inlines(block))))
            return
        self.end_quote()
        if is_rule(block):
            self.blocks.append(Rule())
        elif heading_level(block):
            self.blocks.append(Heading(heading_level(block), tuple(read_inlines(block))))
        else:
            self.blocks.append(Paragraph(tuple(read_inlines(block))))

    def table(self, table: QTextTable) -> None:
        self.end_all()
        fmt = table.format()
        align_text = str(fmt.property(TABLE_ALIGN_PROP) or "")
        align = align_text.split("|") if align_text else []
        cols = table.columns()
        align = (align + [""] * cols)[:cols]
        rows: list[tuple[Inlines, ...]] = []
        for r in range(table.rows()):
            cells: list[Inlines] = []
            for c in range(cols):
                cells.append(_cell_inlines(table, r, c))
            rows.append(tuple(cells))
        if rows:
            self.blocks.append(Table(tuple(align), rows[0], tuple(rows[1:])))


def _cell_inlines(table: QTextTable, row: int, col: int) -> Inlines:
    cell = table.cellAt(row, col)
    first = cell.firstCursorPosition().block()
    last = cell.lastCursorPosition().block()
    out: list[Inline] = []
    block = first
    while block.isValid():
        if out:
            out.append(LineBreak())
        out.extend(read_inlines(block))
        if block == last:
            break
        block = block.next()
    return normalise_inlines(out)


def read_document(doc: QTextDocument) -> RichText:
    """What ``doc`` shows, as a normalised model."""
    reader = _Reader()
    _read_frame(reader, doc.rootFrame())
    reader.end_all()
    return normalise(RichText(tuple(reader.blocks)))


def _read_frame(reader: _Reader, frame: QTextFrame) -> None:
    it = frame.begin()
    while not it.atEnd():
        child = it.currentFrame()
        block = it.currentBlock()
        if child is not None:
            if isinstance(child, QTextTable):
                reader.table(child)
            else:
                _read_frame(reader, child)
        elif block.isValid():
            reader.block(block)
        it += 1


# -------------------------------------------------------------------------------- restyling
def restyle(doc: QTextDocument, first: QTextBlock, last: QTextBlock | None = None) -> None:
    """Draw the blocks ``first``..``last`` from their marks and kind again (after a block
    became a heading or stopped being one)."""
    size = base_size(doc)
    block = first
    cursor = QTextCursor(doc)
    while block.isValid():
        level = heading_level(block)
        cursor.setPosition(block.position())
        cursor.setBlockCharFormat(char_format(heading=level, base_size=size))
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            it += 1
            fmt = frag.charFormat()
            if fmt.isImageFormat():
                continue
            cursor.setPosition(frag.position())
            cursor.setPosition(frag.position() + frag.length(), QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(
                char_format(marks_of(fmt), link_of(fmt), heading=level, base_size=size)
            )
        if last is None or block == last:
            break
        block = block.next()
