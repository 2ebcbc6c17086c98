"""A document as a person reads it (Qt-free): :func:`readable_lines`.

The page editor shows a page as cards: 페이지 설정, text boxes with headings, paragraphs and
lists, blocks with named fields, and "원문" cards. Where two versions of a page are put side by
side for someone who never saw the Markdown (a save conflict), each version is read here the
same way, one line per thing a person sees: headings, paragraphs and list items without their
marks, a block by its name and each field by its label, the page settings by their names. Lines
compare equal exactly when they read the same, so only changes a person would notice show.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from modu_desktop.core.brochure import block_model, catalog
from modu_desktop.core.brochure import frontmatter as fm
from modu_desktop.core.brochure.catalog import FieldSpec
from modu_desktop.core.brochure.cells import plain_text as cells_plain
from modu_desktop.core.brochure.cells import read_cell
from modu_desktop.core.brochure.themes import LAYOUT_BY_KEY, THEME_BY_KEY
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

__all__ = ["ReadableLine", "readable_lines", "readable_text"]

_HOW_TO_TYPE = re.compile(r"\s*\([^()]*\|[^()]*\)$")


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
        if label:
            value = _setting_value(key, value)
        lines.append(ReadableLine("field", f"{tr(label) if label else key}: {value}"))
    return lines


def _setting_value(key: str, value: str) -> str:
    """A page setting's value by the name its form shows (a theme by its name, not its id)."""
    word = value.strip()
    if word.lower() in ("true", "false"):
        return tr("yes") if word.lower() == "true" else tr("no")
    if key == "theme" and word in THEME_BY_KEY:
        return THEME_BY_KEY[word].label
    if key == "layout" and word in LAYOUT_BY_KEY:
        return LAYOUT_BY_KEY[word].label
    return value


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
        spec: catalog.BlockSpec | None = catalog.spec_for(model.kind, items_seen)
    except KeyError:
        spec = None
    name = spec.name if spec is not None else model.name
    lines = [ReadableLine("section", tr("Block: {name}", name=name))]
    lines.extend(_fields(model.meta, spec.fields if spec else ()))
    lists = [(None, model.body)] if model.body else [(s.name, s.body) for s in model.sections]
    for section, body in lists:
        if body is None:
            continue
        if section:
            lines.append(ReadableLine("field", f"{catalog.field_label(section)}:"))
        specs = _item_specs(spec, section)
        for item in body.items:
            head = item.head
            if isinstance(head, block_model.Row):
                cells = " | ".join(cells_plain(c) for c in head.cells)
                lines.append(ReadableLine("item", "• " + cells, 0, _row_marks(head.cells)))
                continue
            fields = item.fields()
            if not fields:
                lines.append(ReadableLine("item", "• " + head.render().strip()))
                continue
            first, *rest = fields
            lines.append(ReadableLine("item", "• " + _field_text(first, specs)))
            lines.extend(ReadableLine("field", _field_text(f, specs), 1) for f in rest)
    return lines


def _item_specs(spec: catalog.BlockSpec | None, section: str | None) -> tuple[FieldSpec, ...]:
    if spec is None:
        return ()
    if section == "left":
        return spec.left_fields
    if section == "right":
        return spec.right_fields
    return spec.item_fields


def _row_marks(cells: list[str]) -> str:
    """Which words of a table row are bold, accent-coloured or italic (compared only)."""
    return ";".join(
        ",".join(f"{run.style}:{run.text}" for run in read_cell(c) if run.style) for c in cells
    )


def _fields(lines: list[block_model.Line], specs: tuple[FieldSpec, ...]) -> list[ReadableLine]:
    out = []
    for line in lines:
        if isinstance(line, block_model.Field):
            out.append(ReadableLine("field", _field_text(line, specs)))
        elif line.text.strip():
            out.append(ReadableLine("raw", line.text.strip()))
    return out


def _field_text(f: block_model.Field, specs: tuple[FieldSpec, ...]) -> str:
    spec = next((s for s in specs if s.key == f.key), None) or FieldSpec(f.key)
    label = _HOW_TO_TYPE.sub("", spec.label)  # "(| 로 구분)" tells how to type, not what it is
    return f"{label}: {spec.value_text(f.value)}"


def readable_text(text: str) -> str:
    """``text`` (a whole document) as plain text a person can paste anywhere: its title, then
    what its cards show — headings, paragraphs, list items, each block by its name and its
    fields by their labels — a blank line between paragraphs, no marks and no settings."""
    parsed = fm.parse(text)
    title = (parsed.get("title") or "").strip()
    out: list[str] = [title, ""] if title else []
    in_settings = False
    for line in readable_lines(text):
        if line.kind == "section":
            in_settings = line.text == tr("Page settings")
        if in_settings:
            continue
        alone = line.kind in ("section", "heading", "paragraph", "quote", "rule")
        if alone and out and out[-1] != "":
            out.append("")  # a paragraph, a heading and a block stand apart
        indent = "  " * line.level if line.kind in ("item", "field") else ""
        out.append(f"[{line.text}]" if line.kind == "section" else indent + line.text)
        if alone and line.kind != "section":
            out.append("")
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n" if out else ""
