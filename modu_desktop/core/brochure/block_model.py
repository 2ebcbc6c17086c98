"""An editable model of one brochure block (Qt-free): text → fields + list items → text.

The site (``src/theme/remarkBrochureDirectives.js``) reads a block like this::

    :::cards                  ← opener: one of the 18 directive names
    title: 5대 핵심 교육 미션   ← meta lines ``key: value`` until the first line starting with "-"
    columns: 3

    - title: AI·SW 전문인력 양성  ← an item: ``- key: value``
      icon: 🎯               ← its sub-keys, indented by two or more spaces
    :::                       ← closer

``datatable`` items are rows (``- cell | cell``); ``split`` has ``left:`` and ``right:`` sections,
each a list of items. :func:`parse` turns the text of one block (opener to closer, inclusive: a
:class:`~modu_desktop.core.brochure.syntax.BlockPart`'s text) into a :class:`BlockModel`;
:meth:`BlockModel.text` writes it back. Every line keeps its exact spelling (spaces after the
colon, quotes, trailing spaces, blank lines, a CR before the line break), so an unchanged model
gives back the text byte for byte, and an edit changes only the lines it touches. Lines the model
cannot read are kept where they are, as :class:`Raw` lines, and listed in
:attr:`BlockModel.problems`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from modu_desktop.core.brochure.cells import alignment
from modu_desktop.core.brochure.syntax import CLOSER, OPENER, block_kind

_KEY = re.compile(r"^(\s*)([A-Za-z0-9_-]+):(\s*)(.*?)(\s*)$")
_ITEM = re.compile(r"^(-\s+)(.*)$")


# ---------------------------------------------------------------------------------------- lines
@dataclass(slots=True)
class Field:
    """``key: value`` on one line. ``indent`` is the leading space (two for an item's sub-key,
    none for meta lines and for the key on a ``- `` line); ``sep`` what follows the colon;
    ``quote`` a surrounding ``"`` or ``'`` (kept, not shown); ``trail`` trailing white space."""

    key: str
    value: str
    quote: str = ""
    indent: str = ""
    sep: str = " "
    trail: str = ""

    def render(self) -> str:
        if self.value == "" and not self.quote:
            return f"{self.indent}{self.key}:{self.sep}{self.trail}"
        q = self.quote
        return f"{self.indent}{self.key}:{self.sep}{q}{self.value}{q}{self.trail}"

    def set_value(self, value: str) -> None:
        value = " ".join(value.splitlines()).strip()
        if value and not self.sep:
            self.sep = " "
        if not value:
            self.sep = ""
            self.quote = ""
        elif not self.quote and needs_quotes(value):
            self.quote = '"'
        self.value = value


def needs_quotes(value: str) -> bool:
    """The guide's rule: a value that starts with a circled number (①, ❶ …) is quoted."""
    first = ord(value[0]) if value else 0
    return 0x2460 <= first <= 0x24FF or 0x2776 <= first <= 0x2793


@dataclass(slots=True)
class Raw:
    """A line kept exactly as written: a blank line, or one the model cannot read."""

    text: str

    def render(self) -> str:
        return self.text

    @property
    def blank(self) -> bool:
        return not self.text.strip()


@dataclass(slots=True)
class Row:
    """One ``datatable`` row: the text after ``- ``, cells separated by ``|``."""

    text: str

    @property
    def cells(self) -> list[str]:
        return split_pipes(self.text)

    def set_cells(self, cells: Iterable[str]) -> None:
        self.text = join_pipes(cells)

    def render(self) -> str:
        return self.text


Line = Field | Raw


def _is_blank(line: Line) -> bool:
    return isinstance(line, Raw) and line.blank


def split_pipes(text: str) -> list[str]:
    """``a | b | c`` → ``["a", "b", "c"]`` (the site's cell and ``items:`` separator)."""
    if not text.strip():
        return []
    return [c.strip() for c in text.split("|")]


def join_pipes(cells: Iterable[str]) -> str:
    return " | ".join(" ".join(str(c).splitlines()).strip() for c in cells)


def _parse_field(line: str, *, indent_ok: bool) -> Field | None:
    m = _KEY.match(line)
    if not m:
        return None
    indent, key, sep, value, trail = m.groups()
    if indent and not indent_ok:
        return None
    quote = ""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        quote, value = value[0], value[1:-1]
    if not value and not quote:
        trail = sep + trail
        sep = ""
    return Field(key=key, value=value, quote=quote, indent=indent, sep=sep, trail=trail)


# ---------------------------------------------------------------------------------------- items
@dataclass(slots=True)
class Item:
    """One ``- `` item: the first line (a :class:`Field`, a :class:`Row` or an unreadable
    :class:`Raw`) and the lines under it."""

    head: Field | Row | Raw
    dash: str = "- "
    lines: list[Line] = field(default_factory=list)

    def fields(self) -> list[Field]:
        out = [self.head] if isinstance(self.head, Field) else []
        return out + [ln for ln in self.lines if isinstance(ln, Field)]

    def get(self, key: str) -> str | None:
        for f in self.fields():
            if f.key == key:
                return f.value
        return None

    def values(self) -> dict[str, str]:
        return {f.key: f.value for f in self.fields()}

    def set(self, key: str, value: str) -> None:
        """Change ``key`` (added under the item when missing and ``value`` is not empty)."""
        for f in self.fields():
            if f.key == key:
                f.set_value(value)
                return
        if not value.strip():
            return
        new = Field(key, "", indent=_sub_indent(self))
        new.set_value(value)
        # after the last readable line, before trailing blank lines
        idx = len(self.lines)
        while idx > 0 and _is_blank(self.lines[idx - 1]):
            idx -= 1
        self.lines.insert(idx, new)

    def render(self) -> list[str]:
        return [self.dash + self.head.render(), *(ln.render() for ln in self.lines)]


def _sub_indent(item: Item) -> str:
    for ln in item.lines:
        if isinstance(ln, Field) and ln.indent:
            return ln.indent
    return " " * max(2, len(item.dash))


@dataclass(slots=True)
class ItemList:
    """The list part of a block: items and the blank lines around them.

    ``leads[i]`` are the lines before item *i* (they stay in place when items are reordered);
    ``pre`` lines before the first item that are not items; ``tail`` lines after the last."""

    items: list[Item] = field(default_factory=list)
    leads: list[list[Raw]] = field(default_factory=list)
    pre: list[Raw] = field(default_factory=list)
    tail: list[Raw] = field(default_factory=list)
    default_gap: int = 1

    def render(self) -> list[str]:
        out = [r.text for r in self.pre]
        for lead, item in zip(self.leads, self.items, strict=True):
            out.extend(r.text for r in lead)
            out.extend(item.render())
        out.extend(r.text for r in self.tail)
        return out

    def _gap(self) -> list[Raw]:
        if len(self.leads) >= 2:
            return [Raw(r.text) for r in self.leads[-1]]
        return [Raw("") for _ in range(self.default_gap)]

    def add(self, item: Item, index: int | None = None) -> int:
        index = len(self.items) if index is None else max(0, min(index, len(self.items)))
        gap = self._gap() if self.items else []
        if index == 0 and self.items:
            # the new first item takes the first lead; the old first gets a gap
            self.leads.insert(1, gap)
        else:
            self.leads.insert(index, gap)
        self.items.insert(index, item)
        return index

    def remove(self, index: int) -> Item:
        item = self.items.pop(index)
        self.leads.pop(1 if index == 0 and self.leads[1:] else index)
        return item

    def move(self, src: int, dst: int) -> None:
        """Move item ``src`` to position ``dst``; blank lines stay where they are."""
        if src == dst or not (0 <= src < len(self.items)) or not (0 <= dst < len(self.items)):
            return
        item = self.items.pop(src)
        self.items.insert(dst, item)


def _parse_list(lines: list[str], *, rows: bool, problems: list[Problem], offset: int) -> ItemList:
    out = ItemList()
    pending: list[Raw] = []
    current: Item | None = None
    for i, line in enumerate(lines):
        m = _ITEM.match(line)
        if m:
            dash, rest = m.groups()
            head: Field | Row | Raw
            if rows:
                head = Row(rest)
            else:
                f = _parse_field(rest, indent_ok=False)
                if f is None:
                    head = Raw(rest)
                    problems.append(Problem(offset + i, line, "item-without-key"))
                else:
                    head = f
            current = Item(head=head, dash=dash)
            out.items.append(current)
            out.leads.append(pending)
            pending = []
            continue
        if not line.strip():
            pending.append(Raw(line))
            continue
        if current is None:
            out.pre.extend(pending)
            pending = []
            out.pre.append(Raw(line))
            problems.append(Problem(offset + i, line, "before-first-item"))
            continue
        f = None if rows else _parse_field(line, indent_ok=True)
        if f is not None and len(f.indent.replace("\t", "  ")) >= 2:
            current.lines.extend(pending)
            current.lines.append(f)
        else:
            current.lines.extend(pending)
            current.lines.append(Raw(line))
            problems.append(Problem(offset + i, line, "not-a-key"))
        pending = []
    out.tail = pending
    return out


# ---------------------------------------------------------------------------------------- block
@dataclass(slots=True)
class Problem:
    """A line the model keeps but cannot read. ``line`` counts from the opener (0)."""

    line: int
    text: str
    reason: str  # "item-without-key" | "before-first-item" | "not-a-key" | "unclosed" | …


@dataclass(slots=True)
class Section:
    """A ``split`` section: ``left:`` or ``right:`` and its items."""

    name: str
    header: str  # the header line as written, e.g. "left:"
    body: ItemList


@dataclass(slots=True)
class BlockModel:
    name: str  # as written, e.g. "chapterheader"
    kind: str  # canonical, e.g. "chapter-header"
    opener: str
    closer: str | None
    meta: list[Line] = field(default_factory=list)
    body: ItemList | None = None  # every kind but split
    sections: list[Section] = field(default_factory=list)  # split
    problems: list[Problem] = field(default_factory=list)

    # --- meta ---
    def meta_fields(self) -> list[Field]:
        return [ln for ln in self.meta if isinstance(ln, Field)]

    def get(self, key: str) -> str | None:
        for f in self.meta_fields():
            if f.key == key:
                return f.value
        return None

    def values(self) -> dict[str, str]:
        return {f.key: f.value for f in self.meta_fields()}

    def set(self, key: str, value: str) -> None:
        for f in self.meta_fields():
            if f.key == key:
                f.set_value(value)
                return
        if not value.strip():
            return
        new = Field(key, "")
        new.set_value(value)
        idx = len(self.meta)
        while idx > 0 and _is_blank(self.meta[idx - 1]):
            idx -= 1
        self.meta.insert(idx, new)

    # --- lists ---
    def section(self, name: str) -> ItemList:
        """``split``'s ``left`` / ``right`` list (added at the end when missing)."""
        for s in self.sections:
            if s.name == name:
                return s.body
        body = ItemList(default_gap=0)
        self.sections.append(Section(name, f"{name}:", body))
        return body

    def lists(self) -> list[tuple[str, ItemList]]:
        if self.kind == "split":
            return [(s.name, s.body) for s in self.sections]
        return [("items", self.body)] if self.body is not None else []

    def new_item(self, values: dict[str, str], *, into: str = "items") -> Item:
        """An item in this block's spelling, first key on the ``- `` line."""
        body = self.section(into) if self.kind == "split" else self.body
        assert body is not None
        dash, indent = "- ", "  "
        if body.items:
            dash = body.items[-1].dash
            indent = _sub_indent(body.items[-1])
        pairs = [(k, v) for k, v in values.items() if v.strip()] or list(values.items())[:1]
        if self.kind == "datatable":
            return Item(head=Row(join_pipes(values.get("row", "").split("|"))), dash=dash)
        first_key, first_value = pairs[0] if pairs else ("title", "")
        head = Field(first_key, "")
        head.set_value(first_value)
        item = Item(head=head, dash=dash)
        for k, v in pairs[1:]:
            f = Field(k, "", indent=indent)
            f.set_value(v)
            item.lines.append(f)
        return item

    # --- datatable ---
    def columns(self) -> list[str]:
        return split_pipes(self.get("columns") or "")

    def rows(self) -> list[list[str]]:
        if self.body is None:
            return []
        return [it.head.cells for it in self.body.items if isinstance(it.head, Row)]

    def add_column(self, name: str, index: int | None = None) -> None:
        cols = self.columns()
        index = len(cols) if index is None else max(0, min(index, len(cols)))
        cols.insert(index, name)
        self.set("columns", join_pipes(cols))
        align = self.get("align")
        if align is not None:
            al = split_pipes(align)
            al.insert(min(index, len(al)), "left")
            self.set("align", join_pipes(al))
        for it in self.body.items if self.body else []:
            if isinstance(it.head, Row):
                cells = it.head.cells
                while len(cells) < index:
                    cells.append("")
                cells.insert(index, "-")
                it.head.set_cells(cells)

    def remove_column(self, index: int) -> None:
        cols = self.columns()
        if not 0 <= index < len(cols):
            return
        cols.pop(index)
        self.set("columns", join_pipes(cols))
        align = self.get("align")
        if align is not None:
            al = split_pipes(align)
            if index < len(al):
                al.pop(index)
            self.set("align", join_pipes(al))
        for it in self.body.items if self.body else []:
            if isinstance(it.head, Row):
                cells = it.head.cells
                if index < len(cells):
                    cells.pop(index)
                it.head.set_cells(cells)

    def set_column_name(self, index: int, name: str) -> None:
        """Column ``index``'s heading is ``name`` (columns before it without a heading get an
        empty one). A ``|`` would split the heading in two on the site: it becomes ``/``."""
        cols = self.columns()
        if index < 0:
            return
        cols += [""] * (index + 1 - len(cols))
        name = " ".join(name.replace("|", "/").split())
        if cols[index] == name and self.get("columns") is not None:
            return
        cols[index] = name
        self.set("columns", join_pipes(cols))

    def aligns(self) -> list[str]:
        """Each column's alignment as the site reads ``align:`` ("left" when not given)."""
        words = split_pipes(self.get("align") or "")
        width = max(len(self.columns()), len(words))
        return [alignment(words[i]) if i < len(words) else "left" for i in range(width)]

    def set_align(self, index: int, value: str) -> None:
        """Column ``index`` aligned ``value`` ("left", "center", "right"); the other columns
        keep what they had (written out as "left" where ``align:`` left them out)."""
        aligns = self.aligns()
        if not 0 <= index < len(aligns) or aligns[index] == value:
            return
        words = split_pipes(self.get("align") or "")
        words += ["left"] * (len(aligns) - len(words))
        words[index] = value
        self.set("align", join_pipes(words))

    # --- text ---
    def lines(self) -> list[str]:
        out = [self.opener]
        out.extend(ln.render() for ln in self.meta)
        if self.kind == "split":
            for s in self.sections:
                out.append(s.header)
                out.extend(s.body.render())
        elif self.body is not None:
            out.extend(self.body.render())
        if self.closer is not None:
            out.append(self.closer)
        return out

    def text(self) -> str:
        return "\n".join(self.lines())

    @property
    def understood(self) -> bool:
        return not self.problems


class NotABlock(ValueError):
    """The text does not start with a brochure block's ``:::name`` line."""


def parse(text: str) -> BlockModel:
    """Parse one block: its opener line, body, and closer line (no trailing newline needed)."""
    lines = text.split("\n")
    m = OPENER.match(lines[0]) if lines else None
    kind = block_kind(m.group(2).lower()) if m else None
    if not m or kind is None:
        raise NotABlock(lines[0] if lines else "")
    name = m.group(2).lower()
    closer: str | None = None
    body = lines[1:]
    if body and CLOSER.match(body[-1]):
        closer = body[-1]
        body = body[:-1]
    model = BlockModel(name=name, kind=kind, opener=lines[0], closer=closer)
    if closer is None:
        model.problems.append(Problem(len(lines), "", "unclosed"))
    if m.group(3).strip():
        model.problems.append(Problem(0, lines[0], "opener-label"))
    if kind == "split":
        _parse_split(model, body)
    else:
        start = next((i for i, ln in enumerate(body) if ln.strip().startswith("-")), len(body))
        _parse_meta(model, body[:start], offset=1)
        model.body = _parse_list(
            body[start:], rows=kind == "datatable", problems=model.problems, offset=1 + start
        )
        if kind == "datatable":
            model.body.default_gap = 0
        elif model.body.items and len(model.body.leads) >= 2:
            model.body.default_gap = len(model.body.leads[1])
    return model


def _parse_meta(model: BlockModel, lines: list[str], *, offset: int) -> None:
    for i, line in enumerate(lines):
        if not line.strip():
            model.meta.append(Raw(line))
            continue
        f = _parse_field(line, indent_ok=False)
        if f is None:
            model.meta.append(Raw(line))
            model.problems.append(Problem(offset + i, line, "not-a-key"))
        else:
            model.meta.append(f)


def _parse_split(model: BlockModel, body: list[str]) -> None:
    starts = [i for i, ln in enumerate(body) if ln.strip() in ("left:", "right:")]
    meta_end = starts[0] if starts else len(body)
    _parse_meta(model, body[:meta_end], offset=1)
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(body)
        name = body[start].strip()[:-1]
        items = _parse_list(
            body[start + 1 : end], rows=False, problems=model.problems, offset=2 + start
        )
        items.default_gap = len(items.leads[1]) if len(items.leads) >= 2 else 0
        model.sections.append(Section(name, body[start], items))


# -------------------------------------------------------------------------------- new block
def build(
    name: str,
    meta: dict[str, str],
    items: list[dict[str, str]] | None = None,
    *,
    sections: dict[str, list[dict[str, str]]] | None = None,
    rows: list[list[str]] | None = None,
) -> str:
    """A new block in the spelling the site's guide uses: ``key: value`` lines, a blank line,
    ``- key: value`` items with two-space sub-keys and a blank line between items (``datatable``
    rows follow each other), ``left:`` / ``right:`` sections after a blank line."""
    out = [f":::{name}"]
    for k, v in meta.items():
        mf = Field(k, "")
        mf.set_value(v)
        out.append(mf.render())

    def item_lines(values: dict[str, str]) -> list[str]:
        lines: list[str] = []
        for n, (k, v) in enumerate(values.items()):
            f = Field(k, "", indent="" if n == 0 else "  ")
            f.set_value(v)
            lines.append(("- " if n == 0 else "") + f.render())
        return lines

    if rows is not None:
        if meta:
            out.append("")
        out.extend("- " + join_pipes(r) for r in rows)
    elif sections is not None:
        for sec, sec_items in sections.items():
            out.append("")
            out.append(f"{sec}:")
            for n, it in enumerate(sec_items):
                if n:
                    out.append("")
                out.extend(item_lines(it))
    elif items:
        for it in items:
            out.append("")
            out.extend(item_lines(it))
    out.append(":::")
    return "\n".join(out)
