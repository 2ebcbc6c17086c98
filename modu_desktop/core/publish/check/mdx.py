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

from modu_desktop.core.pictures.rule import (
    base_url_dropped,
    locate_picture,
    markdown_destination,
)

from . import brochure
from . import mdx_tables as tb
from .mdx_helpers import (
    _cell_cut,
    _id_start,
    _label_end,
)
from .mdx_markup import MarkupScanner, TagError, _Directive, _Tag
from .model import Finding, Severity, TextEdit


class Scanner(MarkupScanner):
    """Walks the page line by line: fenced code, blocks (``:::``), tables, headings, lists,
    paragraphs; what is read inline goes to the markup rules."""

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
                self._table_row(line, s, e, i)
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
                self._esm_paragraph(s)
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

    def _table_row(self, line: str, s: int, e: int, i: int) -> None:
        self.end_paragraph()
        lines, text = self.lines, self.text
        if i + 1 < len(lines) and tb._TABLE_DELIM.match(text, lines[i + 1][0], lines[i + 1][1]):
            delim = text[lines[i + 1][0] : lines[i + 1][1]]
            self.table_cols = len(re.findall(r":?-+:?", delim))
        # GFM drops the cells of a row beyond the header's columns: they are parsed (so a "<"
        # that is not a tag still breaks the build) but never rendered.
        cut = _cell_cut(line, self.table_cols) if self.table_cols else len(line)
        self.scan_inline(s, s + cut, i)
        if cut < len(line):
            self.not_rendered = True
            self.scan_inline(s + cut, e, i)
            self.not_rendered = False
        self.end_paragraph()

    def _esm_paragraph(self, s: int) -> None:
        """A paragraph starting with ``import`` or ``export``: MDX reads it as code."""
        text = self.text
        end = tb._BLANK_LINE.search(text, s)
        stop = end.start() if end else self.n
        word = text[s : s + 6].strip()
        # Only a word at the very start of a line is read as code; one space before it (which
        # the page does not show) keeps the word as the person wrote it.
        fix = TextEdit(s, s, " ", "")
        self.add("mdx-esm", Severity.BREAKS_BUILD, s, s + 6, fix, word=word)
        self.consumed = stop

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
                except TagError:
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
