"""The ``:::`` block syntax of a brochure document, read once (Qt-free).

A brochure page is front matter, Markdown, and container directives::

    ---
    title: 교육과정 안내
    ---
    글 한 줄

    :::cards
    title: 5대 핵심 교육 미션
    - title: AI·SW 전문인력 양성
    :::

This module is the one place that knows the directive names (the site's own list, with its
alias), the opener, closer and code-fence lines, where front matter ends, and where each block
begins and ends. :func:`split_document` cuts a document into :class:`FrontMatterPart`,
:class:`TextPart` and :class:`BlockPart` pieces with exact offsets: joining their ``text`` gives
the document back character for character (BOM, CRLF and all). The preview
(:mod:`modu_desktop.core.brochure.blocks`), the editable model of one block
(:mod:`modu_desktop.core.brochure.block_model`), the editor and its highlighter read blocks
through it.

How a block ends: at its ``:::`` line. Without one, an admonition (Markdown inside) runs to the
next ``:::`` line; any other block keeps only the lines before it that can belong to a block
(``key: value``, ``- item``, indented or blank lines; trailing blank lines go back to the
Markdown), so the text after a forgotten closer still reads as Markdown. ``:::`` lines inside
fenced code are code.

The publish check (:mod:`modu_desktop.core.publish.check`) takes the names from here but reads
directives with the grammar of the site's MDX parser itself (colon counts, attributes, case), as it
reports what the site's build will do rather than what the editor shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate
from operator import add

BLOCK_NAMES: tuple[str, ...] = (
    "hero",
    "stats",
    "cards",
    "timeline",
    "quote",
    "cta",
    "chapters",
    "roadmap",
    "badges",
    "chapter-header",
    "chapterheader",
    "kpi",
    "strategy",
    "alphagrid",
    "panel",
    "stepper",
    "split",
    "datatable",
)
"""The 18 directive names the site turns into brochure blocks: its remark plugin's
``targetBlocks`` (``src/theme/remarkBrochureDirectives.js``), in its order."""

ALIASES: dict[str, str] = {"chapterheader": "chapter-header"}
"""Directive names that are another spelling of a block kind."""

BLOCK_KINDS: tuple[str, ...] = tuple(n for n in BLOCK_NAMES if n not in ALIASES)
"""The 17 block kinds the site draws (one component each)."""

ADMONITIONS: tuple[str, ...] = (
    "note",
    "tip",
    "info",
    "warning",
    "caution",
    "danger",
    "important",
    "success",
)
"""Docusaurus admonitions: ``:::tip[Title]`` … ``:::`` with Markdown inside."""

OPENER = re.compile(r"^(\s{0,3}):::\s*([A-Za-z][\w-]*)(.*)$")
"""A ``:::name`` line; groups: indent, name, the rest of the line (an admonition's title)."""
CLOSER = re.compile(r"^\s{0,3}:::+\s*$")
FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")

# Lines that can stand inside a block body: blank, indented, "- item" or "key: value".
_BLOCKISH = re.compile(r"^(\s*$|\s+\S|-(\s|$)|[A-Za-z0-9_-]+:(\s|$))")
# A line ends at \r\n, \r or \n only (not at U+2028 or a form feed, as str.splitlines would).
_LINE_BREAK = re.compile(r"(\r\n|\r|\n)")


def block_kind(name: str) -> str | None:
    """The block kind of a brochure directive name (``chapterheader`` → ``chapter-header``),
    or None. Exact spelling, as the site's plugin compares; callers that forgive case lower
    the name first."""
    if name not in BLOCK_NAMES:
        return None
    return ALIASES.get(name, name)


def directive_kind(name: str) -> str:
    """What a ``:::name`` opener starts: a block kind, ``"admonition"``, or ``""`` (unknown).
    Case does not matter here (the editor and the preview forgive it)."""
    lowered = name.lower()
    return block_kind(lowered) or ("admonition" if lowered in ADMONITIONS else "")


# ------------------------------------------------------------------------------------- lines
@dataclass(frozen=True, slots=True)
class Lines:
    """A text cut into lines: ``contents[i]`` is line *i* without its line break, ``starts[i]``
    where it begins in the text. There is always one more line than line breaks."""

    text: str
    contents: tuple[str, ...]
    starts: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> Lines:
        if "\r" in text:
            pieces = _LINE_BREAK.split(text)  # line, break, line, break, …, line
            offsets = list(accumulate(map(len, pieces), initial=0))
            return cls(text, tuple(pieces[0::2]), tuple(offsets[0::2]))
        contents = text.split("\n")
        ends = accumulate(map(len, contents), initial=0)
        return cls(text, tuple(contents), tuple(map(add, ends, range(len(contents)))))

    def __len__(self) -> int:
        return len(self.contents)

    def end(self, i: int) -> int:
        """Where line *i*'s content ends (its line break, if any, follows)."""
        return self.starts[i] + len(self.contents[i])


@dataclass(frozen=True, slots=True)
class _FoundBlock:
    first: int  # the opener's line
    last: int  # the closer's line, or the last line that belongs to an unclosed block
    name: str  # as written
    label: str  # the rest of the opener line
    closed: bool


def _front_matter_end(lines: list[str]) -> int:
    """Lines taken by ``---`` front matter, both fences included (0 without a closed one)."""
    if not lines or lines[0].lstrip("\ufeff").strip() != "---":
        return 0
    for idx in range(1, len(lines)):
        if lines[idx].strip() in ("---", "..."):
            return idx + 1
    return 0


def _unclosed_last(lines: list[str], start: int, stop: int) -> int:
    """Last line of an unclosed block whose body may run from ``start`` up to ``stop``
    (exclusive): the lines that can be block content, without trailing blank lines."""
    idx = start
    while idx < stop and _BLOCKISH.match(lines[idx]):
        idx += 1
    while idx > start and not lines[idx - 1].strip():
        idx -= 1
    return idx - 1


def _scan(lines: list[str], start: int) -> Iterator[_FoundBlock]:
    """Every ``:::name`` block from line ``start`` on, outside fenced code."""
    fence: str | None = None
    n = len(lines)
    i = start
    while i < n:
        line = lines[i]
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:
                fence = None
            i += 1
            continue
        m_fence = FENCE.match(line)
        if m_fence:
            fence = m_fence.group(1)
            i += 1
            continue
        m_open = OPENER.match(line)
        if not m_open:
            i += 1
            continue
        name = m_open.group(2)
        j = i + 1
        while j < n and not CLOSER.match(lines[j]) and not OPENER.match(lines[j]):
            j += 1
        closed = j < n and bool(CLOSER.match(lines[j]))
        if closed:
            last = j
        elif name.lower() in ADMONITIONS:
            last = j - 1  # Markdown inside: it runs to the next ::: line
        else:
            last = _unclosed_last(lines, i + 1, j)
        yield _FoundBlock(i, last, name, m_open.group(3), closed)
        i = last + 1


# ------------------------------------------------------------------------------ in a document
@dataclass(frozen=True, slots=True)
class FrontMatterPart:
    """The ``---`` front matter, fences included (and the BOM before it, if any)."""

    start: int  # offset of the first character in the document
    end: int  # offset after the closing fence (its line break belongs to the next part)
    text: str
    first_line: int
    last_line: int


@dataclass(frozen=True, slots=True)
class TextPart:
    """Markdown between the other parts, with the line breaks around them."""

    start: int
    end: int
    text: str
    first_line: int  # the line of the first character (a line break belongs to the line it
    last_line: int  # ends), and the line of the last one


@dataclass(frozen=True, slots=True)
class BlockPart:
    """A ``:::name`` block from the start of its opener line to the end of its last line (its
    ``:::`` closer when ``closed``), line break after it excluded."""

    start: int
    end: int
    text: str
    first_line: int  # the opener's line, 0-based
    last_line: int  # the closer's line (or the last line of an unclosed block), inclusive
    name: str  # lower-cased, as written otherwise (``chapterheader``)
    kind: str  # block kind, "admonition", or "" for a name nobody knows
    closed: bool
    label: str = ""  # the rest of the opener line (an admonition's ``[Title]``)

    @property
    def is_brochure_block(self) -> bool:
        return self.kind in BLOCK_KINDS


Part = FrontMatterPart | TextPart | BlockPart


def split_document(text: str, *, front_matter: bool = True) -> list[Part]:
    """The document as front matter, Markdown runs and blocks, in order, without gaps:
    ``"".join(p.text for p in split_document(t)) == t`` for every text. Empty runs are left
    out. ``front_matter=False`` reads a body whose front matter was already taken off."""
    lines = Lines.of(text)
    contents = list(lines.contents)
    bom = 1 if text.startswith("\ufeff") else 0
    contents[0] = contents[0][bom:]  # a BOM is not part of the first line's syntax
    fm_lines = _front_matter_end(contents) if front_matter else 0
    out: list[Part] = []
    pos = 0

    def text_up_to(offset: int) -> None:
        if offset > pos:
            first, last = _line_of(lines, pos), _line_of(lines, offset - 1)
            out.append(TextPart(pos, offset, text[pos:offset], first, last))

    if fm_lines:
        end = lines.end(fm_lines - 1)
        out.append(FrontMatterPart(0, end, text[:end], 0, fm_lines - 1))
        pos = end
    for found in _scan(contents, fm_lines):
        start, end = lines.starts[found.first], lines.end(found.last)
        start += bom if found.first == 0 else 0
        text_up_to(start)
        name = found.name.lower()
        out.append(
            BlockPart(
                start,
                end,
                text[start:end],
                found.first,
                found.last,
                name,
                directive_kind(name),
                found.closed,
                found.label,
            )
        )
        pos = end
    text_up_to(len(text))
    return out


def _line_of(lines: Lines, offset: int) -> int:
    """The line that holds ``offset`` (a line break belongs to the line it ends)."""
    lo, hi = 0, len(lines.starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if lines.starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo


def front_matter_lines(text: str) -> int:
    """How many lines the front matter takes (``---`` lines included; 0 without any)."""
    return _front_matter_end(list(Lines.of(text).contents))


def block_spans(text: str) -> list[BlockPart]:
    """The brochure blocks of a document (no admonitions or unknown names), in order."""
    return [p for p in split_document(text) if isinstance(p, BlockPart) and p.is_brochure_block]


def block_at(text: str, line: int) -> BlockPart | None:
    """The brochure block that holds 0-based ``line``, if any."""
    for part in block_spans(text):
        if part.first_line <= line <= part.last_line:
            return part
        if part.first_line > line:
            break
    return None


def replace_block(text: str, part: BlockPart, new_block: str) -> str:
    """``text`` with ``part`` (found in that same text) replaced by ``new_block``."""
    return text[: part.start] + new_block + text[part.end :]
