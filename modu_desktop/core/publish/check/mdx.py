"""The MDX part of the publish check: what the site's compiler would reject (Qt-free).

The site compiles every ``.md`` file as MDX (Docusaurus 3 with ``future.v4``, so without the
MDX 1 compatibility that used to accept HTML comments and ``{#id}``). This scanner follows the
MDX 3 grammar closely enough to find, with their position, the constructs that fail the build:
JSX tags that are not closed or not tags at all, ``{…}`` that is not a valid and defined
expression, HTML comments, ``style="…"`` strings, ``import``/``export`` paragraphs, and
Markdown images whose file is missing. Code (fenced and inline) is skipped, as MDX does.

Inside a brochure block (``:::hero`` … ``:::``) the site's plugin turns the body into props and
drops the parsed content, so what fails only when rendered (an undefined name, a style string,
an unknown component) does not break the build there — it only disappears from the page.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from modu_desktop.core.pictures.rule import (
    base_url_dropped,
    locate_picture,
    markdown_destination,
)

from . import brochure
from . import mdx_tables as tb
from .jsexpr import check_expression, check_spread, incomplete_expression
from .mdx_helpers import (
    _cell_cut,
    _id_continue,
    _id_start,
    _label_end,
    css_to_object,
    removal_span,
    without_braces,
)
from .mdx_tables import HTML, PROVIDED, VOID
from .model import Finding, LineIndex, Severity, TextEdit


@dataclass(slots=True)
class _Attr:
    name: str
    kind: str  # "string" | "expr" | "bool" | "spread"
    value: str
    start: int
    end: int


@dataclass(slots=True)
class _Tag:
    start: int
    end: int
    name: str  # "" for a fragment
    closing: bool
    self_closing: bool
    attrs: list[_Attr] = field(default_factory=list)


@dataclass(slots=True)
class _Open:
    tag: _Tag
    in_block: bool
    depth: int  # directive depth (flow elements)


@dataclass(slots=True)
class _Directive:
    name: str
    colons: int
    start: int  # offset of the opening line
    line_no: int  # 0-based line index of the opener
    name_start: int
    body_first: int  # 0-based line index of the first body line
    known: bool  # a brochure block (its body becomes props)


class _TagError(Exception):
    def __init__(self, pos: int) -> None:
        self.pos = pos


class Scanner:
    def __init__(
        self,
        text: str,
        body_start: int,
        index: LineIndex,
        *,
        doc_path: str,
        repo_paths: Collection[str] | None,
    ) -> None:
        self.text = text
        self.n = len(text)
        self.body_start = body_start
        self.index = index
        self.doc_path = doc_path
        self.repo_paths = repo_paths
        self.findings: list[Finding] = []
        self.consumed = body_start
        self.text_stack: list[_Open] = []
        self.flow_stack: list[_Open] = []
        self.directives: list[_Directive] = []
        self.para_open = False
        self.code_spans: list[tuple[int, int]] = []
        self.lines: list[tuple[int, int]] = []
        self.table_cols = 0  # columns of the GFM table being read (0: not in a table)
        self.not_rendered = False  # scanning text that is parsed but never rendered

    # ----- findings ----------------------------------------------------------------------

    def add(
        self,
        code: str,
        severity: Severity,
        start: int,
        end: int,
        fix: TextEdit | None = None,
        **fields: str,
    ) -> None:
        line, col = self.index.position(start)
        self.findings.append(Finding(code, severity, start, end, line, col, fields, fix))

    def escape_fix(self, pos: int) -> TextEdit:
        """Show the character at ``pos`` as typed (a "<" or "{" the person meant as text)."""
        ch = self.text[pos]
        return TextEdit(pos, pos + 1, "\\" + ch, ch)

    def removal_fix(self, start: int, end: int) -> TextEdit:
        """Take out a part the site would never show (a stray tag, a hidden note)."""
        s, e = removal_span(self.text, start, end)
        return TextEdit(s, e, "", self.text[s:e])

    def in_block(self) -> bool:
        """Is this text parsed but not rendered? (A brochure block's body, whose parsed
        content the site's plugin replaces by props, or a table cell GFM drops.)"""
        return self.not_rendered or any(d.known for d in self.directives)

    # ----- main loop ---------------------------------------------------------------------

    def run(self) -> list[Finding]:
        text = self.text
        starts = self.index.starts
        first = bisect.bisect_left(starts, self.body_start)
        fence: tuple[str, int] | None = None
        lines = self.lines
        for i in range(len(starts)):
            s = starts[i]
            e = starts[i + 1] - 1 if i + 1 < len(starts) else self.n
            lines.append((s, e))
        for i in range(first, len(lines)):
            s, e = lines[i]
            if e < self.consumed:
                continue
            line = text[s:e]
            if fence is not None:
                stripped = line.strip()
                if stripped.startswith(fence[0] * fence[1]) and set(stripped) == {fence[0]}:
                    fence = None
                continue
            if s < self.consumed:
                # The rest of a line a multi-line construct ended on.
                self.scan_inline(self.consumed, e, i)
                continue
            if (
                self.para_open
                and not self.table_cols
                and tb._PLAIN_START.match(line)
                and not tb._ANY_SPECIAL.search(line)
            ):
                continue  # a plain continuation line of a paragraph: nothing to read in it
            m_fence = tb._FENCE.match(line)
            if m_fence and not (m_fence.group(2)[0] == "`" and "`" in m_fence.group(3)):
                self.end_paragraph()
                fence = (m_fence.group(2)[0], len(m_fence.group(2)))
                continue
            if not line.strip():
                self.end_paragraph()
                self.table_cols = 0
                continue
            if ":::" in line[:8] and self.directive_line(line, s, i):
                continue
            if tb._TABLE_ROW.match(line):
                self.end_paragraph()
                if i + 1 < len(lines) and tb._TABLE_DELIM.match(
                    text, lines[i + 1][0], lines[i + 1][1]
                ):
                    delim = text[lines[i + 1][0] : lines[i + 1][1]]
                    self.table_cols = len(re.findall(r":?-+:?", delim))
                # GFM drops the cells of a row beyond the header's columns: they are parsed
                # (so a "<" that is not a tag still breaks the build) but never rendered.
                cut = _cell_cut(line, self.table_cols) if self.table_cols else len(line)
                self.scan_inline(s, s + cut, i)
                if cut < len(line):
                    self.not_rendered = True
                    self.scan_inline(s + cut, e, i)
                    self.not_rendered = False
                self.end_paragraph()
                continue
            self.table_cols = 0
            if tb._HEADING.match(line) or tb._THEMATIC.match(line):
                self.end_paragraph()
                if not tb._THEMATIC.match(line):
                    self.scan_inline(s, e, i)
                    self.end_paragraph()
                continue
            if tb._LIST_ITEM.match(line):
                self.end_paragraph()
            if not self.para_open and tb._ESM.match(text, s):
                end = tb._BLANK_LINE.search(text, s)
                stop = end.start() if end else self.n
                word = text[s : s + 6].strip()
                # Only a word at the very start of a line is read as code; one space before it
                # (which the page does not show) keeps the word as the person wrote it.
                fix = TextEdit(s, s, " ", "")
                self.add("mdx-esm", Severity.BREAKS_BUILD, s, s + 6, fix, word=word)
                self.consumed = stop
                continue
            cstart = s + tb._CONTENT_START.match(line).end()  # type: ignore[union-attr]
            if cstart < e and text[cstart] in "<{" and self.flow_line(cstart, i):
                continue
            self.para_open = True
            self.scan_inline(cstart, e, i)
        self.end_paragraph()
        while self.directives:
            self.close_directive(None, len(lines) - 1)
        self.end_flow(0)
        return self.findings

    # ----- directives --------------------------------------------------------------------

    def directive_line(self, line: str, s: int, i: int) -> bool:
        m_close = tb._CLOSER.match(line)
        if m_close:
            colons = len(m_close.group(1))
            if self.directives and colons >= self.directives[-1].colons:
                self.end_paragraph()
                self.close_directive(i, i)
                return True
            if not self.directives:
                self.end_paragraph()
                self.add("block-stray-close", Severity.PAGE_WRONG, s, s + len(line.rstrip()))
                return True
            return False
        m = tb._DIRECTIVE.match(line)
        if not m:
            return False
        name = m.group(2)
        if name is None:
            rest = line[m.end(1) :]
            word = re.match(r"[^\s\[{]+", rest)
            if word and not self.directives:
                self.end_paragraph()
                self.add(
                    "block-unknown",
                    Severity.PAGE_WRONG,
                    s + m.end(1),
                    s + m.end(1) + word.end(),
                    name=word.group(0),
                    suggestion="",
                )
            return False
        if not tb._DIRECTIVE_REST.match(m.group(3)):
            # ":::tip 제목" or ":::cards 설명": not a block for the site but a line of text.
            self.end_paragraph()
            rest_start = s + m.end(2)
            fix = None
            title = m.group(3).strip()
            if brochure.is_admonition(name) and "]" not in title and "[" not in title:
                fix = TextEdit(rest_start, s + len(line), "[" + title + "]", line[m.end(2) :])
            self.add(
                "block-opener-text",
                Severity.PAGE_WRONG,
                s + m.start(2),
                s + len(line),
                fix,
                name=name,
            )
            return False
        self.end_paragraph()
        name_start = s + m.start(2)
        known = brochure.canonical(name) is not None
        if not known and not brochure.is_admonition(name):
            suggestion = brochure.suggest(name)
            fix = (
                TextEdit(name_start, name_start + len(name), suggestion, name)
                if suggestion
                else None
            )
            self.add(
                "block-unknown",
                Severity.PAGE_WRONG,
                name_start,
                name_start + len(name),
                fix,
                name=name,
                suggestion=suggestion or "",
            )
        self.directives.append(_Directive(name, len(m.group(1)), s, i, name_start, i + 1, known))
        return True

    def close_directive(self, close_line: int | None, last_line: int) -> None:
        d = self.directives.pop()
        self.end_flow(len(self.directives) + 1)
        body_end = close_line if close_line is not None else last_line + 1
        body = [self.lines[k] for k in range(d.body_first, min(body_end, len(self.lines)))]
        if d.known:
            brochure.check_block_body(self, d.name, d.name_start, body)
        if close_line is None:
            fix_at = brochure.unclosed_fix_offset(self, body)
            fix = TextEdit(fix_at, fix_at, ":::\n", "") if fix_at is not None else None
            self.add(
                "block-unclosed",
                Severity.PAGE_WRONG,
                d.name_start - d.colons,
                d.name_start + len(d.name),
                fix,
                name=d.name,
            )

    # ----- paragraphs and flow -----------------------------------------------------------

    def end_paragraph(self) -> None:
        self.para_open = False
        while self.text_stack:
            self.unclosed(self.text_stack.pop())

    def end_flow(self, depth: int) -> None:
        while self.flow_stack and self.flow_stack[-1].depth >= depth:
            self.unclosed(self.flow_stack.pop())

    def unclosed(self, op: _Open) -> None:
        tag = op.tag
        name = tag.name
        if name.lower() in VOID and name == name.lower():
            before = self.text[tag.end - 2]
            repl = "/>" if before in " \t\n" else " />"
            fix = TextEdit(tag.end - 1, tag.end, repl, ">")
            self.add("mdx-void-tag", Severity.BREAKS_BUILD, tag.start, tag.end, fix, tag=name)
        elif self.is_real_tag(name):
            # A tag left open is markup the page never shows: take it out, keep the words.
            fix = self.removal_fix(tag.start, tag.end)
            self.add("mdx-unclosed-tag", Severity.BREAKS_BUILD, tag.start, tag.end, fix, tag=name)
        else:
            self.add(
                "mdx-not-a-tag",
                Severity.BREAKS_BUILD,
                tag.start,
                tag.end,
                self.escape_fix(tag.start),
                tag=self.text[tag.start : tag.end],
            )

    @staticmethod
    def is_real_tag(name: str) -> bool:
        base = name.split(".")[0]
        return name == "" or name.lower() in HTML or base in PROVIDED or "-" in name

    def flow_line(self, cstart: int, i: int) -> bool:
        """A line holding only tags and expressions (MDX "flow" JSX). Processes it and returns
        True; returns False (nothing done) when other text follows, so it is a paragraph."""
        text = self.text
        pos = cstart
        items: list[tuple[str, int, object]] = []
        while True:
            while pos < self.n and text[pos] in " \t":
                pos += 1
            if pos >= self.n or text[pos] == "\n":
                break
            if text[pos] == "<":
                nxt = text[pos + 1 : pos + 2]
                if not (nxt in ("/", ">") or (nxt and _id_start(nxt))):
                    return False
                try:
                    tag = self.parse_tag(pos, flow=True)
                except _TagError:
                    return False
                items.append(("tag", pos, tag))
                pos = tag.end
            elif text[pos] == "{":
                close = self.match_brace(pos, self.n)
                if close < 0:
                    return False
                items.append(("expr", pos, close))
                pos = close + 1
            else:
                return False
        self.end_paragraph()
        depth = len(self.directives)
        for kind, start, obj in items:
            if kind == "tag":
                assert isinstance(obj, _Tag)
                self.handle_tag(obj, self.flow_stack, depth)
            else:
                assert isinstance(obj, int)
                self.check_expr(start, obj)
        self.consumed = pos
        return True

    # ----- inline ------------------------------------------------------------------------

    def paragraph_limit(self, pos: int) -> int:
        m = tb._PARA_END.search(self.text, pos)
        return m.start() if m else self.n

    def scan_inline(self, pos: int, end: int, line_no: int) -> None:
        text = self.text
        search = tb._SPECIAL.search
        while pos < end:
            m = search(text, pos, end)
            if m is None:
                break
            tok = m.group(0)
            p = m.start()
            c = tok[0]
            if c == "\\":
                pos = m.end()
            elif c == "`":
                n = len(tok)
                limit = self.paragraph_limit(p)
                close = re.compile(f"(?<!`)`{{{n}}}(?!`)").search(text, m.end(), limit)
                if close:
                    self.code_spans.append((p, close.end()))
                    pos = close.end()
                else:
                    pos = m.end()
            elif c == "<":
                pos = self.handle_lt(p)
            elif c == "{":
                pos = self.handle_brace(p, flow=False)
            elif tok == "](":
                pos = self.skip_destination(m.end(), end)
            elif tok == "![":
                self.check_image(p, end)
                label_end = _label_end(text, m.end(), end)
                if label_end is not None and not self.not_rendered:
                    # An image's alt text is parsed, but only its plain text is used.
                    self.not_rendered = True
                    self.scan_inline(m.end(), label_end, line_no)
                    self.not_rendered = False
                    pos = label_end
                else:
                    pos = m.end()
            else:  # a bare URL (GFM autolink literal)
                q = m.end()
                while q < end and not text[q].isspace() and text[q] != "<":
                    q += 1
                pos = q
        if pos > end:
            self.consumed = max(self.consumed, pos)

    def skip_destination(self, pos: int, end: int) -> int:
        text = self.text
        if pos < end and text[pos] == "<":
            q = text.find(">", pos, end)
            return q + 1 if q >= 0 else pos
        depth = 1
        q = pos
        while q < end:
            ch = text[q]
            if ch == "\\":
                q += 2
                continue
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    return q + 1
            elif ch.isspace():
                return q
            q += 1
        return pos

    def handle_lt(self, p: int) -> int:
        text = self.text
        nxt = text[p + 1 : p + 2]
        if nxt in (" ", "\t"):
            return p + 1
        if nxt in ("", "\n", "\r"):
            # At a line end "<" is text, unless the paragraph ends there (then MDX reads on
            # into the end of the input and fails).
            if text[p + 1 : self.paragraph_limit(p)].strip():
                return p + 1
            self.add("mdx-lt-not-tag", Severity.BREAKS_BUILD, p, p + 1, self.escape_fix(p))
            return p + 1
        if nxt == "!":
            if text.startswith("<!--", p):
                close = text.find("-->", p + 4)
                fix = None
                end = p + 4
                if close >= 0:
                    end = close + 3
                    # A note kept out of the page: removing it leaves the page as it looked.
                    fix = self.removal_fix(p, end)
                    note = text[p + 4 : close]
                else:
                    line_end = text.find("\n", end)
                    note = text[end : line_end if line_end >= 0 else self.n]
                note = " ".join(note.split())
                if len(note) > 40:
                    note = note[:37] + "…"
                self.add("mdx-html-comment", Severity.BREAKS_BUILD, p, end, fix, note=note)
                return end if close >= 0 else p + 4
            self.add("mdx-lt-not-tag", Severity.BREAKS_BUILD, p, p + 2, self.escape_fix(p))
            return p + 1
        if not (nxt in ("/", ">") or _id_start(nxt)):
            self.add(
                "mdx-lt-not-tag", Severity.BREAKS_BUILD, p, p + 2, self.escape_fix(p), char=nxt
            )
            return p + 1
        auto = tb._AUTOLINK.match(text, p)
        if auto:
            # <https://…> and <name@host> are links in Markdown, tags in MDX: write the bare
            # address, which the site links by itself.
            fix = TextEdit(p, auto.end(), auto.group(1), auto.group(0))
            self.add("mdx-autolink", Severity.BREAKS_BUILD, p, auto.end(), fix, url=auto.group(1))
            return auto.end()
        try:
            tag = self.parse_tag(p, flow=False)
        except _TagError:
            repaired = self.unquoted_values(p)
            if repaired is not None:
                return repaired
            line_end = text.find("\n", p)
            shown = text[p : line_end if line_end >= 0 else self.n][:20]
            self.add(
                "mdx-lt-not-tag", Severity.BREAKS_BUILD, p, p + 1, self.escape_fix(p), tag=shown
            )
            return p + 1
        self.handle_tag(tag, self.text_stack, len(self.directives))
        return tag.end

    def unquoted_values(self, p: int) -> int | None:
        """``<a href=https://x.kr>`` (a value without quotes, as HTML allows): the person meant
        the link or picture, so the fix puts the values in quotes and the tag is read as one.
        None when the text at ``p`` is not such a tag."""
        m = tb._UNQUOTED_TAG.match(self.text, p, self.paragraph_limit(p))
        if m is None or not tb._UNQUOTED_VALUE.search(m.group(2)):
            return None
        original = m.group(0)
        attrs = tb._UNQUOTED_VALUE.sub(lambda v: '="' + v.group(1) + '"', m.group(2))
        name, end_mark = m.group(1), m.group(3)
        if name.lower() in VOID and "/" not in end_mark:
            end_mark = " />"  # a picture or line break closes itself, as the site needs
        fix = TextEdit(p, m.end(), "<" + name + attrs + end_mark, original)
        self.add("mdx-unquoted-value", Severity.BREAKS_BUILD, p, m.end(), fix, tag=original)
        tag = _Tag(p, m.end(), name, False, "/" in end_mark)
        self.handle_tag(tag, self.text_stack, len(self.directives))
        return m.end()

    def handle_tag(self, tag: _Tag, stack: list[_Open], depth: int) -> None:
        in_block = self.in_block()
        if tag.closing:
            idx = next(
                (k for k in range(len(stack) - 1, -1, -1) if stack[k].tag.name == tag.name),
                -1,
            )
            if idx < 0:
                self.add(
                    "mdx-stray-closing-tag",
                    Severity.BREAKS_BUILD,
                    tag.start,
                    tag.end,
                    self.removal_fix(tag.start, tag.end),
                    tag=tag.name,
                )
                return
            if idx != len(stack) - 1:
                top = stack[-1].tag
                self.add(
                    "mdx-mismatched-closing-tag",
                    Severity.BREAKS_BUILD,
                    tag.start,
                    tag.end,
                    tag=tag.name,
                    expected=top.name,
                )
                del stack[idx:]
                return
            op = stack.pop()
            self.closed(op, tag)
            return
        self.check_attrs(tag, in_block)
        if tag.self_closing:
            self.check_component(tag, None, in_block)
            return
        stack.append(_Open(tag, in_block, depth))

    def closed(self, op: _Open, close: _Tag) -> None:
        tag = op.tag
        name = tag.name
        if name in VOID and self.text[tag.end : close.start].strip():
            severity = Severity.PAGE_WRONG if op.in_block else Severity.BREAKS_BUILD
            seg = self.text[tag.start : close.end]
            fix = None
            if name == "br" and not tag.attrs:
                # Browsers read </br> as another <br>: write both as <br />.
                inner = self.text[tag.end : close.start]
                fix = TextEdit(tag.start, close.end, "<br />" + inner + "<br />", seg)
            self.add("mdx-void-children", severity, tag.start, close.end, fix, tag=name)
        self.check_component(tag, close, op.in_block)

    def check_component(self, tag: _Tag, close: _Tag | None, in_block: bool) -> None:
        name = tag.name
        if not name or self.is_intrinsic(name) or name.split(".")[0] in PROVIDED:
            return
        # The site does not know this name: take the markup out, keep the words inside it.
        if close is None:
            fix = self.removal_fix(tag.start, tag.end)
        else:
            a_start, a_end = removal_span(self.text, tag.start, tag.end)
            b_start, b_end = removal_span(self.text, close.start, close.end)
            if a_end > b_start:  # nothing between the two: they go together
                a_end = b_start = max(a_end, b_start)
            fix = TextEdit(a_start, b_end, self.text[a_end:b_start], self.text[a_start:b_end])
        severity = Severity.PAGE_WRONG if in_block else Severity.BREAKS_BUILD
        self.add("mdx-unknown-component", severity, tag.start, tag.end, fix, tag=name)

    @staticmethod
    def is_intrinsic(name: str) -> bool:
        if "." in name:
            return False
        return not tb._IDENT.match(name) or name[0].islower() and name[0].isascii()

    def check_attrs(self, tag: _Tag, in_block: bool) -> None:
        for attr in tag.attrs:
            if attr.kind == "string" and attr.name == "style" and self.is_intrinsic(tag.name):
                fix = None
                obj = css_to_object(attr.value)
                if obj is not None:
                    fix = TextEdit(
                        attr.start,
                        attr.end,
                        "style={{" + obj + "}}",
                        self.text[attr.start : attr.end],
                    )
                severity = Severity.PAGE_WRONG if in_block else Severity.BREAKS_BUILD
                self.add("mdx-style-string", severity, attr.start, attr.end, fix, tag=tag.name)
            elif attr.kind in ("expr", "spread"):
                v = (check_spread if attr.kind == "spread" else check_expression)(
                    attr.value[1:-1], **({} if attr.kind == "spread" else {"as_child": False})
                )
                self.expr_finding(v, attr.start, attr.end, in_block, escape=False)

    # ----- tags --------------------------------------------------------------------------

    def parse_tag(self, p: int, *, flow: bool) -> _Tag:
        text, n = self.text, self.n
        limit = n if flow else self.paragraph_limit(p)
        i = p + 1

        def ws(i: int) -> int:
            while i < limit and text[i] in " \t\r\n":
                i += 1
            return i

        def name_at(i: int) -> int:
            if i >= limit or not _id_start(text[i]):
                raise _TagError(i)
            i += 1
            while i < limit and _id_continue(text[i]):
                i += 1
            return i

        closing = False
        if text[i] == "/":
            closing = True
            i = ws(i + 1)
        if i < limit and text[i] == ">":
            return _Tag(p, i + 1, "", closing, False)
        j = name_at(i)
        while j < limit and text[j] in ".:":
            j = name_at(j + 1)
        name = text[i:j]
        i = ws(j)
        tag = _Tag(p, p, name, closing, False)
        if closing:
            if i < limit and text[i] == ">":
                tag.end = i + 1
                return tag
            raise _TagError(i)
        while True:
            if i >= limit:
                raise _TagError(i)
            ch = text[i]
            if ch == ">":
                tag.end = i + 1
                return tag
            if ch == "/":
                i = ws(i + 1)
                if i < limit and text[i] == ">":
                    tag.self_closing = True
                    tag.end = i + 1
                    return tag
                raise _TagError(i)
            if ch == "{":
                close = self.match_brace(i, limit)
                if close < 0:
                    raise _TagError(i)
                tag.attrs.append(_Attr("", "spread", text[i : close + 1], i, close + 1))
                i = ws(close + 1)
                continue
            a_start = i
            j = name_at(i)
            if j < limit and text[j] == ":":
                j = name_at(j + 1)
            aname = text[i:j]
            i = ws(j)
            if i < limit and text[i] == "=":
                i = ws(i + 1)
                if i >= limit:
                    raise _TagError(i)
                q = text[i]
                if q in "\"'":
                    close = text.find(q, i + 1, limit)
                    if close < 0:
                        raise _TagError(i)
                    tag.attrs.append(
                        _Attr(aname, "string", text[i + 1 : close], a_start, close + 1)
                    )
                    i = ws(close + 1)
                elif q == "{":
                    close = self.match_brace(i, limit)
                    if close < 0:
                        raise _TagError(i)
                    tag.attrs.append(_Attr(aname, "expr", text[i : close + 1], a_start, close + 1))
                    i = ws(close + 1)
                else:
                    raise _TagError(i)
            else:
                tag.attrs.append(_Attr(aname, "bool", "", a_start, j))

    # ----- expressions -------------------------------------------------------------------

    def match_brace(self, p: int, limit: int) -> int:
        text = self.text
        depth = 0
        i = p
        find_open, find_close = text.find, text.find
        while True:
            o = find_open("{", i, limit)
            c = find_close("}", i, limit)
            if c < 0:
                return -1
            if 0 <= o < c:
                depth += 1
                i = o + 1
            else:
                depth -= 1
                i = c + 1
                if depth == 0:
                    # Like MDX (acorn): a "}" inside a string or comment does not end it.
                    if incomplete_expression(text[p + 1 : c]):
                        depth = 1
                        continue
                    return c

    def handle_brace(self, p: int, *, flow: bool) -> int:
        limit = self.n if flow else self.paragraph_limit(p)
        close = self.match_brace(p, limit)
        if close < 0:
            self.add("mdx-unclosed-brace", Severity.BREAKS_BUILD, p, p + 1, self.escape_fix(p))
            return p + 1
        self.check_expr(p, close)
        return close + 1

    def check_expr(self, p: int, close: int) -> None:
        v = check_expression(self.text[p + 1 : close])
        self.expr_finding(v, p, close + 1, self.in_block(), escape=True)

    def expr_finding(
        self, v: object, start: int, end: int, in_block: bool, *, escape: bool
    ) -> None:
        kind = getattr(v, "kind", "ok")
        if kind in ("ok", "empty"):
            return
        fix = None
        if escape:
            fix = self.brace_fix(start, end)
        shown = self.text[start:end]
        if len(shown) > 40:
            shown = shown[:37] + "…"
        if kind == "syntax":
            self.add("mdx-expression-syntax", Severity.BREAKS_BUILD, start, end, fix, expr=shown)
        elif kind == "undefined":
            severity = Severity.PAGE_WRONG if in_block else Severity.BREAKS_BUILD
            code = "block-expression-dropped" if in_block else "mdx-undefined-name"
            self.add(code, severity, start, end, fix, expr=shown, name=getattr(v, "name", ""))
        else:
            severity = Severity.PAGE_WRONG if in_block else Severity.BREAKS_BUILD
            code = "block-expression-dropped" if in_block else "mdx-object-content"
            self.add(code, severity, start, end, fix, expr=shown, name="")

    def brace_fix(self, start: int, end: int) -> TextEdit:
        """``{이름}`` becomes the plain word ``이름``; a heading's ``{#id}`` (an address for the
        heading that the page never shows) is taken out."""
        seg = self.text[start:end]
        line_start = self.text.rfind("\n", 0, start) + 1
        if seg.startswith("{#") and tb._HEADING.match(self.text[line_start:start]):
            return self.removal_fix(start, end)
        words = without_braces(seg)
        if not words:
            return self.removal_fix(start, end)
        return TextEdit(start, end, words, seg)

    # ----- images ------------------------------------------------------------------------

    def check_image(self, p: int, end: int) -> None:
        if self.repo_paths is None:
            return
        m = tb._IMAGE.match(self.text, p, end)
        if not m:
            return
        url = m.group(1)
        picture = locate_picture(markdown_destination(url), self.doc_path)
        if picture.kind != "file" or picture.path in self.repo_paths:
            return
        wrapped = url.startswith("<") and url.endswith(">")
        dropped = base_url_dropped(url[1:-1] if wrapped else url, self.doc_path, self.repo_paths)
        if dropped is not None:
            fixed = f"<{dropped.address}>" if wrapped else dropped.address
            self.add(
                "image-base-url",
                Severity.BREAKS_BUILD,
                m.start(1),
                m.end(1),
                TextEdit(m.start(1), m.end(1), fixed, url),
                url=url,
                base=dropped.base,
                fixed=fixed,
            )
            return
        self.add(
            "image-missing",
            Severity.BREAKS_BUILD,
            m.start(1),
            m.end(1),
            url=url,
        )
