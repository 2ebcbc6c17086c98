"""The text card's model → Markdown that the site renders exactly as the card showed it
(Qt-free).

- Characters that mean something to Markdown or MDX are escaped where they would: ``\\ ` * _ [ ]
  { } < ~`` always, ``# - + = >`` and ``:`` at a line start, ``1.``/``1)`` at a line start (so
  ``2024. 3. 1.`` stays a date, not a numbered list), ``:`` before a name (``1:1``: a text
  directive otherwise), ``&`` before an entity name, ``|`` in tables.
- Emphasis is written with ``**``, ``*`` and ``~~`` where CommonMark opens and closes them; where
  it would not (``**마크다운(Markdown)**을``: a closing ``**`` after punctuation and before a
  letter does not close) as ``<strong>``, ``<em>``, ``<del>``.
- Every block written is read back with the site's reading and compared with what was meant;
  when they differ the block is written again in tags only.

:func:`rewrite` writes a card back over its original text: blocks the user did not change keep
their original bytes (and the blank lines between them), only new or changed blocks are written.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import groupby

from modu_desktop.core.pageedit.model import (
    BOLD,
    CODE,
    ITALIC,
    STRIKE,
    Block,
    Heading,
    Inline,
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
)
from modu_desktop.core.pageedit.reading import SourceBlock, Unrepresentable, read_blocks

__all__ = ["Written", "to_markdown", "write_block", "rewrite", "escape_text"]

_DELIMS = {BOLD: "**", ITALIC: "*", STRIKE: "~~"}
_TAGS = {BOLD: "strong", ITALIC: "em", STRIKE: "del"}
_ALWAYS = set("\\`*_[]{}<~")
_ENTITY = re.compile(r"&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


@dataclass(frozen=True, slots=True)
class Written:
    """Markdown, whether the site's reading of it is exactly the model (``exact``), and where
    each block of the model is in it."""

    text: str
    exact: bool
    blocks: tuple[SourceBlock, ...] = ()


# ------------------------------------------------------------------------------- characters
def _punct(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "PS"


def _space(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch) == "Zs"


def _name_char(ch: str) -> bool:
    return not _space(ch) and not _punct(ch)


def escape_text(text: str, *, line_start: bool = False, table: bool = False,
                heading: bool = False) -> str:  # fmt: skip
    """``text`` written so the site reads exactly these characters."""
    out: list[str] = []
    n = len(text)
    for i, ch in enumerate(text):
        at_start = line_start and i == 0
        nxt = text[i + 1] if i + 1 < n else ""
        if (
            ch in _ALWAYS
            or (ch == "|" and table)
            or (ch == "#" and (at_start or heading))
            or (ch in "-+=>" and at_start)
            or (ch == ":" and (at_start or (nxt and _name_char(nxt))))
            or (ch == "&" and _ENTITY.match(text, i))
            or (ch in ".)" and line_start and 0 < i <= 9 and text[:i].isdigit())
        ):
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def _code(text: str) -> str:
    ticks = max((len(m) for m in re.findall(r"`+", text)), default=0) + 1
    fence = "`" * ticks
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip(" ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _destination(url: str) -> str:
    from mdurl import encode

    url = encode(url)
    return re.sub(r"([()\\])", r"\\\1", url)


# ------------------------------------------------------------------------------------ inline
@dataclass(frozen=True, slots=True)
class _Ctx:
    tags: bool  # every mark as a tag
    newline: str  # what a line break continues with ("\\\n" + indent, or "<br />")
    table: bool = False
    heading: bool = False


_KEYS = ("link", STRIKE, BOLD, ITALIC, CODE)


def _key(node: tuple[Inline, bool], key: str) -> object:
    inline = node[0]
    if not isinstance(inline, TextRun):
        return None
    if key == "link":
        return inline.link
    return key in inline.marks or None


def _left_flanking(first: str, before: str) -> bool:
    return not _space(first) and (not _punct(first) or _space(before) or _punct(before))


def _right_flanking(last: str, after: str) -> bool:
    return not _space(last) and (not _punct(last) or _space(after) or _punct(after))


def _render(nodes: list[tuple[Inline, bool]], keys: tuple[str, ...], ctx: _Ctx,
            before: str, after: str) -> str:  # fmt: skip
    if not keys:
        return "".join(_atom(node, line_start, ctx) for node, line_start in nodes)
    key, rest = keys[0], keys[1:]
    groups = [(value, list(group)) for value, group in groupby(nodes, key=lambda n: _key(n, key))]
    if key == CODE:
        parts: list[tuple[object, str]] = []
        for value, group in groups:
            if value:
                code = "".join(n.text for n, _ in group if isinstance(n, TextRun))
                parts.append((None, _code(code)))
            else:
                parts.append((None, _render(group, rest, ctx, before, after)))
        return "".join(p for _, p in parts)
    # inner texts first: a mark's delimiters depend on the characters around them
    inner: list[str] = []
    for i, (value, group) in enumerate(groups):
        b = before if i == 0 else "*"
        a = after if i == len(groups) - 1 else "*"
        inner.append(_render(group, rest, ctx, "*" if value else b, "*" if value else a))
    out: list[str] = []
    for i, (value, _group) in enumerate(groups):
        text = inner[i]
        if not value:
            out.append(text)
            continue
        if key == "link":
            if out and out[-1].endswith("!") and not out[-1].endswith("\\!"):
                out[-1] = out[-1][:-1] + "\\!"  # "![" would start a picture
            out.append(f"[{text}]({_destination(str(value))})")
            continue
        b = (out[-1][-1] if out and out[-1] else before) if i else before
        nxt = inner[i + 1] if i + 1 < len(groups) else ""
        a = ("*" if groups[i + 1][0] else (nxt[:1] or after)) if i + 1 < len(groups) else after
        delim = _DELIMS[key]
        # a delimiter run is judged by what lies beyond all its characters (``***강조***``)
        core = text.strip(delim[0])
        if not ctx.tags and core and _left_flanking(core[0], b) and _right_flanking(core[-1], a):
            out.append(f"{delim}{text}{delim}")
        else:
            tag = _TAGS[key]
            out.append(f"<{tag}>{text}</{tag}>")
    return "".join(out)


def _atom(node: Inline, line_start: bool, ctx: _Ctx) -> str:
    if isinstance(node, TextRun):
        return escape_text(node.text, line_start=line_start, table=ctx.table, heading=ctx.heading)
    if isinstance(node, LineBreak):
        return ctx.newline
    return f"![{escape_text(node.alt, table=ctx.table)}]({_destination(node.src)})"


def write_inlines(content: Inlines, ctx: _Ctx) -> str:
    nodes: list[tuple[Inline, bool]] = []
    line_start = True
    for node in content:
        nodes.append((node, line_start))
        line_start = isinstance(node, LineBreak)
    return _render(nodes, _KEYS, ctx, " ", " ")


# ------------------------------------------------------------------------------------ blocks
def _paragraph(content: Inlines, indent: str, tags: bool, prefix: str = "") -> str:
    return write_inlines(content, _Ctx(tags, "\\\n" + indent + prefix))


def _list(block: ListBlock, indent: str, tags: bool, marker: str | None) -> str:
    lines: list[str] = []
    for n, item in enumerate(block.items):
        mark = f"{block.start + n}{marker or '.'}" if block.ordered else marker or "-"
        lines.append(_item(item, mark, indent, tags))
    return "\n".join(lines)


def _item(item: ListItem, mark: str, indent: str, tags: bool) -> str:
    inner = indent + " " * (len(mark) + 1)
    first = _paragraph(item.content, inner, tags)
    out = f"{indent}{mark} {first}" if first else f"{indent}{mark}"
    for child in item.children:
        out += "\n" + _list(child, inner, tags, None)
    return out


def _table(block: Table, tags: bool) -> str:
    ctx = _Ctx(tags, "<br />", table=True)

    def row(cells: tuple[Inlines, ...]) -> str:
        return "| " + " | ".join(write_inlines(c, ctx) or " " for c in cells) + " |"

    rule = {"": "---", "left": ":---", "center": ":---:", "right": "---:"}
    lines = [row(block.header), "| " + " | ".join(rule[a] for a in block.align) + " |"]
    lines.extend(row(r) for r in block.rows)
    return "\n".join(lines)


def write_block(block: Block, *, tags: bool = False, marker: str | None = None) -> str:
    """One block in Markdown (no verification; see :func:`to_markdown`). ``marker`` is the
    list marker to use (``-``/``*`` or ``.``/``)``)."""
    if isinstance(block, Paragraph):
        return _paragraph(block.content, "", tags)
    if isinstance(block, Heading):
        ctx = _Ctx(tags, "<br />", heading=True)
        return "#" * block.level + " " + write_inlines(block.content, ctx)
    if isinstance(block, ListBlock):
        return _list(block, "", tags, marker)
    if isinstance(block, Quote):
        paras = ["> " + _paragraph(p.content, "", tags, "> ") for p in block.paragraphs]
        return "\n>\n".join(paras)
    if isinstance(block, Table):
        return _table(block, tags)
    if isinstance(block, Rule):
        return "---"
    raise TypeError(block)


def _reads_as(text: str, blocks: Sequence[Block]) -> bool:
    try:
        return read_blocks(text) == tuple(blocks)
    except Unrepresentable:
        return False


_BULLET = re.compile(r"^\s*([-*+])(?:\s|$)")
_ORDERED = re.compile(r"^\s*\d{1,9}([.)])(?:\s|$)")


def _marker_of(text: str, ordered: bool) -> str | None:
    m = (_ORDERED if ordered else _BULLET).match(text)
    return m.group(1) if m else None


def _free_marker(block: ListBlock, neighbours: Sequence[str | None]) -> str:
    """A marker that does not continue a neighbouring list of the same kind."""
    choices = (".", ")") if block.ordered else ("-", "*", "+")
    taken = {m for m in neighbours if m}
    return next(c for c in choices if c not in taken)


def _write_parts(parts: list[tuple[Block, str | None]], tags: list[bool]) -> list[str]:
    """Each part's text: its original text, or the block written (``tags[i]``: marks as tags),
    a list next to a list of its kind with a marker of its own."""
    texts: list[str | None] = [orig for _, orig in parts]
    for i, (block, orig) in enumerate(parts):
        if orig is not None:
            continue
        marker = None
        if isinstance(block, ListBlock):
            prev = parts[i - 1][0] if i else None
            nxt = parts[i + 1][0] if i + 1 < len(parts) else None
            near: list[str | None] = []
            if isinstance(prev, ListBlock) and prev.ordered == block.ordered:
                near.append(_marker_of(texts[i - 1] or "", block.ordered))
            if isinstance(nxt, ListBlock) and nxt.ordered == block.ordered:
                near.append(_marker_of(texts[i + 1] or "", block.ordered))
            marker = _free_marker(block, near)
        texts[i] = write_block(block, tags=tags[i], marker=marker)
    return [t or "" for t in texts]


def _join(texts: list[str], seps: list[str]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The texts with ``seps`` between them, and where each text is in the result."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    for i, text in enumerate(texts):
        if i:
            out.append(seps[i - 1])
            pos += len(seps[i - 1])
        spans.append((pos, pos + len(text)))
        out.append(text)
        pos += len(text)
    return "".join(out), tuple(spans)


def _written(text: str, exact: bool, blocks: Sequence[Block],
             spans: tuple[tuple[int, int], ...]) -> Written:  # fmt: skip
    return Written(
        text, exact, tuple(SourceBlock(b, a, e) for b, (a, e) in zip(blocks, spans, strict=True))
    )


def to_markdown(model: RichText) -> Written:
    """The whole model in Markdown, blocks separated by a blank line."""
    parts: list[tuple[Block, str | None]] = [(b, None) for b in model.blocks]
    seps = ["\n\n"] * max(0, len(parts) - 1)
    for tags in (False, True):
        text, spans = _join(_write_parts(parts, [tags] * len(parts)), seps)
        if _reads_as(text, model.blocks):
            return _written(text, True, model.blocks, spans)
    return _written(text, False, model.blocks, spans)


def rewrite(source: str, originals: Sequence[SourceBlock], model: RichText) -> Written:
    """``model`` written over ``source`` (a card's original text, whose blocks are
    ``originals`` with offsets into ``source``): unchanged blocks keep their bytes and the
    text between them; new and changed blocks are written. Each run of written blocks is
    read back together with its neighbours (not the whole card: a long card is rewritten
    at every keystroke); a run that does not read back is written again in tags, and when
    that fails too, the whole card is written anew and checked as a whole."""
    old = [o.block for o in originals]
    new = list(model.blocks)
    matcher = SequenceMatcher(None, old, new, autojunk=False)  # type: ignore[arg-type]
    origin: list[int | None] = [None] * len(new)
    for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                origin[j1 + k] = i1 + k
    if origin == list(range(len(old))) and len(new) == len(old):
        return Written(source, True, tuple(originals))
    parts: list[tuple[Block, str | None]] = []
    for block, o in zip(new, origin, strict=True):
        parts.append(
            (block, source[originals[o].start : originals[o].end] if o is not None else None)
        )
    seps = []
    for i in range(1, len(new)):
        a, b = origin[i - 1], origin[i]
        if a is not None and b is not None and b == a + 1:
            seps.append(source[originals[a].end : originals[b].start])
        else:
            seps.append("\n\n")
    tags = [False] * len(new)
    runs: list[tuple[int, int]] = []  # written blocks i..j
    i = 0
    while i < len(new):
        if origin[i] is None:
            j = i
            while j + 1 < len(new) and origin[j + 1] is None:
                j += 1
            runs.append((i, j))
            i = j + 1
        else:
            i += 1
    texts = _write_parts(parts, tags)
    for first, last in runs:
        a, b = max(0, first - 1), min(len(new) - 1, last + 1)
        for tagged in (False, True):
            for k in range(first, last + 1):
                tags[k] = tagged
            texts = _write_parts(parts, tags)
            window, _spans = _join(texts[a : b + 1], seps[a:b])
            if _reads_as(window, new[a : b + 1]):
                break
        else:
            break  # this run does not read back even in tags: check the whole card
    else:
        text, spans = _join(texts, seps)
        return _written(text, True, new, spans)
    fresh: list[tuple[Block, str | None]] = [(b, None) for b in new]
    for tagged in (False, True):
        text, spans = _join(_write_parts(fresh, [tagged] * len(new)), ["\n\n"] * (len(new) - 1))
        if _reads_as(text, new):
            return _written(text, True, new, spans)
    return _written(text, False, new, spans)
