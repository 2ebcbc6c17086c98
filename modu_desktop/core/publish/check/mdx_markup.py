"""Tags and braces in MDX text: reading a tag (:func:`read_tag`), matching a brace
(:func:`match_brace`), and the rules the site's compiler applies to both — a tag left open or
closed twice, a component the site does not know, a ``style="…"`` string, an expression that is
not valid or not defined. :class:`MarkupScanner` holds the scan's state and findings; the MDX
scanner (``mdx.Scanner``) builds on it and walks the lines.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from . import mdx_tables as tb
from .jsexpr import check_expression, check_spread, incomplete_expression
from .mdx_helpers import _id_continue, _id_start, css_to_object, removal_span, without_braces
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


class TagError(Exception):
    """Not a tag MDX can read; ``pos``: where reading stopped."""

    def __init__(self, pos: int) -> None:
        self.pos = pos


class MarkupScanner:
    """The scan's state and findings, and what MDX does with tags and braces."""

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

    def paragraph_limit(self, pos: int) -> int:
        m = tb._PARA_END.search(self.text, pos)
        return m.start() if m else self.n

    # ----- tags --------------------------------------------------------------------------

    def parse_tag(self, p: int, *, flow: bool) -> _Tag:
        return read_tag(self.text, p, self.n if flow else self.paragraph_limit(p))

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
        except TagError:
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

    # ----- expressions -------------------------------------------------------------------

    def match_brace(self, p: int, limit: int) -> int:
        return match_brace(self.text, p, limit)

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


def read_tag(text: str, p: int, limit: int) -> _Tag:
    """The tag that starts with the "<" at ``p`` and ends before ``limit``; ``TagError``
    (with where reading stopped) when it is not a tag MDX can read."""
    r = _TagReader(text, limit)
    i = p + 1
    closing = False
    if text[i] == "/":
        closing = True
        i = r.ws(i + 1)
    if i < limit and text[i] == ">":
        return _Tag(p, i + 1, "", closing, False)
    j = r.name_at(i)
    while j < limit and text[j] in ".:":
        j = r.name_at(j + 1)
    tag = _Tag(p, p, text[i:j], closing, False)
    i = r.ws(j)
    if closing:
        if i < limit and text[i] == ">":
            tag.end = i + 1
            return tag
        raise TagError(i)
    while True:
        if i >= limit:
            raise TagError(i)
        ch = text[i]
        if ch == ">":
            tag.end = i + 1
            return tag
        if ch == "/":
            i = r.ws(i + 1)
            if i < limit and text[i] == ">":
                tag.self_closing = True
                tag.end = i + 1
                return tag
            raise TagError(i)
        i = r.attribute(i, tag)


class _TagReader:
    def __init__(self, text: str, limit: int) -> None:
        self.text = text
        self.limit = limit

    def ws(self, i: int) -> int:
        while i < self.limit and self.text[i] in " \t\r\n":
            i += 1
        return i

    def name_at(self, i: int) -> int:
        text, limit = self.text, self.limit
        if i >= limit or not _id_start(text[i]):
            raise TagError(i)
        i += 1
        while i < limit and _id_continue(text[i]):
            i += 1
        return i

    def attribute(self, i: int, tag: _Tag) -> int:
        """The attribute (or ``{...spread}``) at ``i``, added to ``tag``; where reading goes
        on."""
        text, limit = self.text, self.limit
        if text[i] == "{":
            close = match_brace(text, i, limit)
            if close < 0:
                raise TagError(i)
            tag.attrs.append(_Attr("", "spread", text[i : close + 1], i, close + 1))
            return self.ws(close + 1)
        a_start = i
        j = self.name_at(i)
        if j < limit and text[j] == ":":
            j = self.name_at(j + 1)
        name = text[i:j]
        i = self.ws(j)
        if not (i < limit and text[i] == "="):
            tag.attrs.append(_Attr(name, "bool", "", a_start, j))
            return i
        i = self.ws(i + 1)
        if i >= limit:
            raise TagError(i)
        q = text[i]
        if q in "\"'":
            close = text.find(q, i + 1, limit)
            kind, value = "string", text[i + 1 : close]
        elif q == "{":
            close = match_brace(text, i, limit)
            kind, value = "expr", text[i : close + 1]
        else:
            raise TagError(i)
        if close < 0:
            raise TagError(i)
        tag.attrs.append(_Attr(name, kind, value, a_start, close + 1))
        return self.ws(close + 1)


def match_brace(text: str, p: int, limit: int) -> int:
    """The "}" that closes the "{" at ``p`` (before ``limit``), or -1."""
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
