"""A document as a person reads it (Qt-free): :func:`readable_lines`.

The page editor shows a page as cards: 페이지 설정, text boxes with headings, paragraphs and
lists, blocks with named fields, and "원문" cards. Where two versions of a page are put side by
side for someone who never saw the Markdown (a save conflict), each version is read here the
same way, one line per thing a person sees: headings, paragraphs and list items without their
marks, a block by its name and each field by its label, the page settings by their names. Lines
compare equal exactly when they read the same, so only changes a person would notice show.
"""

from __future__ import annotations

from dataclasses import dataclass

from modu_desktop.core.brochure import block_model, catalog
from modu_desktop.core.brochure import frontmatter as fm
from modu_desktop.core.pageedit.model import (
    Block,
    Heading,
    InlinePicture,
    Inlines,
    LineBreak,
    ListBlock,
    Paragraph,
    Quote,
    Rule,
    Table,
    TextRun,
)
from modu_desktop.core.pageedit.segments import split_cards
from modu_desktop.i18n import tr

__all__ = ["ReadableLine", "readable_lines"]


@dataclass(frozen=True, slots=True)
class ReadableLine:
    """One line as shown. ``kind``: "section" (the start of a card: 페이지 설정, a block by
    its name, 원문), "heading" (``level`` 2–4 as written), "paragraph", "item" (a list item or
    a block's item, ``level`` its depth from 0), "quote", "row" (a table row; ``level`` 1 for
    the heading row), "rule", "field" (a setting or a block's field: "label: value"), "raw"
    (a line of a 원문 card, as written)."""

    kind: str
    text: str
    level: int = 0
    marks: str = ""  # where the text is bold, italic, … or a link (only compared, not shown)


_SETTING_LABELS = {
    "id": "Page address",
    "title": "Title",
    "nav_label": "Menu name",
    "sidebar_label": "Menu name",
    "sidebar_position": "Order in the menu",
    "theme": "Colour theme",
    "layout": "Layout",
    "hide_title": "Title hidden",
    "description": "Page description",
    "draft": "Not published",
}


def readable_lines(text: str) -> list[ReadableLine]:
    """``text`` (a whole document) as the lines a person reads on its cards."""
    out: list[ReadableLine] = []
    for seg in split_cards(text):
        piece = seg.text(text)
        if seg.kind == "front_matter":
            out.extend(_settings(piece))
        elif seg.kind == "text":
            for source in seg.blocks:
                out.extend(_block_lines(source.block))
        elif seg.kind == "block":
            out.extend(_brochure_block(piece))
        elif seg.kind == "raw":
            out.append(ReadableLine("section", tr("Original text")))
            out.extend(ReadableLine("raw", ln.rstrip()) for ln in piece.splitlines() if ln.strip())
    return out


def _settings(piece: str) -> list[ReadableLine]:
    parsed = fm.parse(piece)
    lines = [ReadableLine("section", tr("Page settings"))]
    for key, value in parsed.items():
        label = _SETTING_LABELS.get(key.replace("-", "_"))
        if label and value.strip().lower() in ("true", "false"):
            value = tr("yes") if value.strip().lower() == "true" else tr("no")
        lines.append(ReadableLine("field", f"{tr(label) if label else key}: {value}"))
    return lines


def _marks(content: Inlines) -> str:
    """Which letters carry which marks, so that making a word bold is a change too."""
    out, at = [], 0
    for node in content:
        if isinstance(node, TextRun):
            if node.marks or node.link:
                out.append(f"{at}:{len(node.text)}:{','.join(sorted(node.marks))}:{node.link}")
            at += len(node.text)
        else:
            at += 1
    return ";".join(out)


def _inline(content: Inlines) -> str:
    out: list[str] = []
    for node in content:
        if isinstance(node, TextRun):
            out.append(node.text)
        elif isinstance(node, LineBreak):
            out.append("\n")
        elif isinstance(node, InlinePicture):
            out.append(tr("[picture: {what}]", what=node.alt or node.src.rsplit("/", 1)[-1]))
    return "".join(out)


def _block_lines(block: Block, depth: int = 0) -> list[ReadableLine]:
    if isinstance(block, Heading):
        text = _inline(block.content)
        return [ReadableLine("heading", text, block.level, _marks(block.content))]
    if isinstance(block, Paragraph):
        return [ReadableLine("paragraph", _inline(block.content), 0, _marks(block.content))]
    if isinstance(block, ListBlock):
        lines: list[ReadableLine] = []
        for n, item in enumerate(block.items):
            mark = f"{block.start + n}." if block.ordered else "•"
            text = f"{mark} {_inline(item.content)}"
            lines.append(ReadableLine("item", text, depth, _marks(item.content)))
            for child in item.children:
                lines.extend(_block_lines(child, depth + 1))
        return lines
    if isinstance(block, Quote):
        return [
            ReadableLine("quote", _inline(p.content), 0, _marks(p.content))
            for p in block.paragraphs
        ]
    if isinstance(block, Table):
        rows = [ReadableLine("row", " | ".join(_inline(c) for c in block.header), 1)]
        rows.extend(ReadableLine("row", " | ".join(_inline(c) for c in r)) for r in block.rows)
        return rows
    if isinstance(block, Rule):
        return [ReadableLine("rule", "―" * 12)]
    return []


def _brochure_block(piece: str) -> list[ReadableLine]:
    try:
        model = block_model.parse(piece)
    except block_model.NotABlock:
        return [ReadableLine("raw", ln.rstrip()) for ln in piece.splitlines() if ln.strip()]
    items_seen = [it.values() for it in (model.body.items if model.body else [])]
    try:
        name = catalog.spec_for(model.kind, items_seen).name
    except KeyError:
        name = model.name
    lines = [ReadableLine("section", tr("Block: {name}", name=name))]
    lines.extend(_fields(model.meta))
    lists = [(None, model.body)] if model.body else [(s.name, s.body) for s in model.sections]
    for section, body in lists:
        if body is None:
            continue
        if section:
            lines.append(ReadableLine("field", f"{catalog.field_label(section)}:"))
        for item in body.items:
            head = item.head
            if isinstance(head, block_model.Row):
                lines.append(ReadableLine("item", "• " + " | ".join(head.cells)))
                continue
            fields = item.fields()
            if not fields:
                lines.append(ReadableLine("item", "• " + head.render().strip()))
                continue
            first, *rest = fields
            lines.append(ReadableLine("item", "• " + _field_text(first)))
            lines.extend(ReadableLine("field", _field_text(f), 1) for f in rest)
    return lines


def _fields(lines: list[block_model.Line]) -> list[ReadableLine]:
    out = []
    for line in lines:
        if isinstance(line, block_model.Field):
            out.append(ReadableLine("field", _field_text(line)))
        elif line.text.strip():
            out.append(ReadableLine("raw", line.text.strip()))
    return out


def _field_text(f: block_model.Field) -> str:
    return f"{catalog.field_label(f.key)}: {f.value}"
