"""Where the site will show something the writer probably did not mean (Qt-free).

The page builds, but the site reads the Markdown differently from how it looks in the editor.
These are warnings (``Severity.MAY_SURPRISE``): the writer may mean it. The detection reads the
text with the preview's parser (:func:`modu_desktop.core.preview.markdown.site_markdown`, the
site's own dialect) and looks at what it made of the text, not at patterns in it:

* ``md-emphasis-literal`` — ``**…**``/``__…__``/``*…*``/``_…_`` that stays as typed, stars
  and all (``**마크다운(Markdown)**을``: a closing ``**`` after ``)`` before a letter does not
  close). Fix: ``<strong>…</strong>`` / ``<em>…</em>``, which the site always shows.
* ``md-tilde-strike`` — single tildes that pair up and strike the text between
  (``10~20명, 기간은 3~5일``). Fix: ``\\~``.
* ``md-number-list`` — a date or number at a line start that becomes a numbered list
  (``2024. 3. 1. 개강``: three lists inside each other). Fix: ``2024\\. 3. 1.``.
* ``md-list-not-formed`` — a line that looks like a list item but joins the paragraph above
  (``2. 둘째`` right after a paragraph: only ``1.`` may start a list there; ``-항목`` without a
  space). Warning only.
* ``md-indent-not-code`` — text indented by four spaces, which the site shows as an ordinary
  paragraph (no code box, lines joined). Warning only.
* ``block-directive-dropped`` — inside a brochure block, ``:word``/``:1`` (``1:1``, ``10:00``,
  ``AI:SW``) is read as a directive that the block drops. Fix: ``\\:``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from markdown_it.token import Token

from modu_desktop.core.brochure.syntax import BlockPart, block_spans
from modu_desktop.core.preview.markdown import parse

from .model import Severity, TextEdit

Add = Callable[..., None]  # Scanner.add(code, severity, start, end, fix=None, **fields)

_LIST_LINE = re.compile(r"^([ \t]*(?:>[ \t]?)*[ \t]*)(\d{1,9})([.)])")
_LOOKS_LIKE_ITEM = re.compile(
    r"^[ \t]*(?:(\d{1,9}[.)])[ \t]+\S|(-)(?=[^\W\d_])|(\d{1,9}\.)(?=[^\W\d_]))"
)
_MAYBE_DIRECTIVE = re.compile(r"(?<!:):[^\W_]")
_DOUBLE = re.compile(r"(?<![*_\\])(\*\*|__)(?![*_])")
_SINGLE = re.compile(r"(?<![*_\\])([*_])(?![*_])")


class _Lines:
    """Offsets of a text's lines."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        at = text.find("\n")
        while at >= 0:
            self.starts.append(at + 1)
            at = text.find("\n", at + 1)

    def line(self, n: int) -> str:
        end = self.starts[n + 1] - 1 if n + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[n] : end]


def _markdown_parts(text: str, body_start: int, spans: list[BlockPart]) -> list[tuple[int, int]]:
    """The body's Markdown between the brochure blocks, as ``(first line, end line)`` ranges:
    each is read on its own, as the preview renders it (and as the site does: a ``:::`` block
    ends a list or a paragraph before it)."""
    n_lines = text.count("\n") + 1
    first = text[:body_start].count("\n")
    out = []
    for span in spans:
        if span.first_line > first:
            out.append((first, span.first_line))
        first = max(first, span.last_line + 1)
    if first < n_lines:
        out.append((first, n_lines))
    return out


@dataclass(frozen=True, slots=True)
class _Found:
    """A warning inside one part, its offsets counted from the part's start."""

    code: str
    start: int
    end: int
    fix: TextEdit | None
    fields: tuple[tuple[str, str], ...]


@lru_cache(maxsize=4096)
def _part_warnings(part: str, in_block: bool) -> tuple[_Found, ...]:
    """The warnings of one part read on its own: Markdown between blocks, or (``in_block``) a
    brochure block's body. Cached by the part's text, so between two checks only the parts
    that were edited are read again."""
    found: list[_Found] = []

    def add(code: str, _severity: Severity, start: int, end: int, fix: TextEdit | None = None,
            **fields: str) -> None:  # fmt: skip
        found.append(_Found(code, start, end, fix, tuple(fields.items())))

    lines = _Lines(part)
    tokens = parse(part)
    for tok in tokens:
        if tok.type != "inline" or not tok.children:
            continue
        offsets = _content_offsets(tok, lines)
        if offsets is None:
            continue
        if in_block:
            _directives(tok, offsets, part, add)
        else:
            _emphasis(tok, offsets, part, add)
            _tildes(tok, offsets, part, add)
    if not in_block:
        _number_lists(tokens, lines, part, add)
        _paragraph_lines(tokens, lines, add)
    return tuple(found)


def clear_surprise_cache() -> None:
    _part_warnings.cache_clear()


def _content_offsets(inline: Token, lines: _Lines) -> list[int] | None:
    """For each character of ``inline.content``, its offset in the text (None when a line of
    the content cannot be found on its source line)."""
    if inline.map is None:
        return None
    out: list[int] = []
    content_lines = inline.content.split("\n")
    for i, part in enumerate(content_lines):
        n = inline.map[0] + i
        if n >= len(lines.starts):
            return None
        at = lines.line(n).find(part)
        if at < 0:
            return None
        base = lines.starts[n] + at
        out.extend(range(base, base + len(part)))
        if i + 1 < len(content_lines):
            out.append(base + len(part))  # the line break
    return out


def _aligned(inline: Token) -> Iterator[tuple[Token, int]]:
    """The inline's children with their index in its content (best effort: a child whose
    text is not in the content as typed — escapes, entities — is passed over)."""
    content = inline.content
    cursor = 0
    for child in inline.children or []:
        if child.type == "text" or child.type == "text_directive":
            at = content.find(child.content, cursor)
            if at >= 0:
                yield child, at
                cursor = at + len(child.content)
        elif child.type in ("s_open", "s_close"):
            at = content.find(child.markup, cursor)
            if at >= 0:
                yield child, at
                cursor = at + len(child.markup)
        elif child.type == "code_inline":
            at = content.find(child.content, cursor)
            if at >= 0:
                cursor = at + len(child.content)


def _emphasis(inline: Token, offsets: list[int], text: str, add: Add) -> None:
    content = inline.content
    runs: list[tuple[int, str]] = []
    for child, at in _aligned(inline):
        if child.type != "text":
            continue
        for rx in (_DOUBLE, _SINGLE):
            for m in rx.finditer(child.content):
                runs.append((at + m.start(), m.group(1)))
    runs.sort()
    for marker in ("**", "__", "*", "_"):
        mine = [pos for pos, mark in runs if mark == marker]
        i = 0
        while i + 1 < len(mine):
            start, end = mine[i], mine[i + 1]
            inner = content[start + len(marker) : end]
            before = content[start - 1] if start > 0 else " "
            # a single * or _ inside a word (snake_case_name, 2*3) is not meant as emphasis
            meant = bool(inner) and inner.strip() == inner and "\n" not in inner
            if len(marker) == 1 and before.isalnum():
                meant = False
            if not meant:
                i += 1
                continue
            s, e = offsets[start], offsets[end + len(marker) - 1] + 1
            tag = "strong" if len(marker) == 2 else "em"
            original = text[s:e]
            body = original[len(marker) : -len(marker)]
            fix = TextEdit(s, e, f"<{tag}>{body}</{tag}>", original)
            add("md-emphasis-literal", Severity.MAY_SURPRISE, s, e, fix, marker=marker, text=body)
            i += 2


def _tildes(inline: Token, offsets: list[int], text: str, add: Add) -> None:
    opened: int | None = None
    for child, at in _aligned(inline):
        if child.type == "s_open" and child.markup == "~":
            opened = at
        elif child.type == "s_close" and child.markup == "~" and opened is not None:
            s, e = offsets[opened], offsets[at] + 1
            original = text[s:e]
            if original.startswith("~") and original.endswith("~") and len(original) >= 2:
                fix = TextEdit(s, e, "\\~" + original[1:-1] + "\\~", original)
                add("md-tilde-strike", Severity.MAY_SURPRISE, s, e, fix, text=original[1:-1])
            opened = None


def _directives(inline: Token, offsets: list[int], text: str, add: Add) -> None:
    for child, at in _aligned(inline):
        if child.type == "text_directive" and child.meta.get("simple", True):
            s = offsets[at]
            e = s + len(child.content)
            fix = TextEdit(s, s + 1, "\\:", ":")
            add("block-directive-dropped", Severity.MAY_SURPRISE, s, e, fix, word=child.content)


def _number_lists(tokens: list[Token], lines: _Lines, text: str, add: Add) -> None:
    for i, tok in enumerate(tokens):
        if tok.type != "ordered_list_open" or tok.map is None:
            continue
        outer = tokens[i - 1] if i > 0 else None
        if (
            outer is not None
            and outer.type == "list_item_open"
            and outer.map is not None
            and outer.map[0] == tok.map[0]
        ):
            continue  # the inner list of a line already reported
        inner = tokens[i + 2] if i + 2 < len(tokens) else None
        nested = (
            tokens[i + 1].type == "list_item_open"
            and inner is not None
            and inner.type in ("ordered_list_open", "bullet_list_open")
            and inner.map is not None
            and inner.map[0] == tok.map[0]
        )
        start = int(tokens[i + 1].info or "1") if i + 1 < len(tokens) else 1
        if not nested and start < 1000:
            continue
        n = tok.map[0]
        m = _LIST_LINE.match(lines.line(n))
        if not m:
            continue
        dot = lines.starts[n] + m.end(3) - 1
        first = lines.line(n).strip()
        fix = TextEdit(dot, dot + 1, "\\" + m.group(3), m.group(3))
        add("md-number-list", Severity.MAY_SURPRISE, lines.starts[n] + m.start(2), dot + 1, fix,
            line=first[:40])  # fmt: skip


def _paragraph_lines(tokens: list[Token], lines: _Lines, add: Add) -> None:
    for tok in tokens:
        if tok.type != "paragraph_open" or tok.map is None:
            continue
        first, last = tok.map
        if tok.level == 0 and not tok.hidden:
            src = lines.line(first)
            indent = len(src) - len(src.lstrip(" \t"))
            if src[:indent].expandtabs(4).count(" ") >= 4 and (
                first == 0 or not lines.line(first - 1).strip()
            ):
                s = lines.starts[first]
                add("md-indent-not-code", Severity.MAY_SURPRISE, s, s + len(src),
                    line=src.strip()[:40])  # fmt: skip
        for n in range(first, last):
            src = lines.line(n)
            m = _LOOKS_LIKE_ITEM.match(src)
            if m is None:
                continue
            if m.group(1) and n == first:
                continue  # a real list would have formed here
            s = lines.starts[n]
            hint = "blank" if m.group(1) else "space"
            add("md-list-not-formed", Severity.MAY_SURPRISE, s, s + len(src),
                line=src.strip()[:40], hint=hint)  # fmt: skip


def _shifted(fix: TextEdit | None, by: int) -> TextEdit | None:
    if fix is None:
        return None
    return TextEdit(fix.start + by, fix.end + by, fix.replacement, fix.original)


def check_surprises(text: str, body_start: int, add: Add) -> None:
    """Add a warning for each place where the site will show something unexpected."""
    lines = _Lines(text)
    spans = block_spans(text)
    parts = [(first, end, False) for first, end in _markdown_parts(text, body_start, spans)]
    for span in spans:
        body_first = span.first_line + 1
        body_end = span.last_line if span.closed else span.last_line + 1
        if body_first < body_end:
            parts.append((body_first, body_end, True))
    for first, end, in_block in parts:
        start = lines.starts[first]
        stop = lines.starts[end] - 1 if end < len(lines.starts) else len(text)
        part = text[start:stop]
        if not part.strip():
            continue
        if in_block and not _MAYBE_DIRECTIVE.search(part):
            continue  # no ":" before a letter or digit: nothing a block could drop
        for f in _part_warnings(part, in_block):
            add(f.code, Severity.MAY_SURPRISE, start + f.start, start + f.end,
                _shifted(f.fix, start), **dict(f.fields))  # fmt: skip
