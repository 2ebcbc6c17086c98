"""Small helpers of the MDX scanner: link labels, table cells, image paths, braces and inline
styles (Qt-free; see ``mdx.py``)."""

from __future__ import annotations

import re


def _id_start(ch: str) -> bool:
    return ch == "$" or ch == "_" or (ch + "a").isidentifier()


def _id_continue(ch: str) -> bool:
    return ch in "$-\u200c\u200d" or ("a" + ch).isidentifier()


def _label_end(text: str, pos: int, end: int) -> int | None:
    """The index of the "]" closing a link label that starts at ``pos`` (None: not closed)."""
    depth = 1
    i = pos
    while i < end:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                return i if text.startswith("(", i + 1) else None
        i += 1
    return None


def _cell_cut(line: str, ncols: int) -> int:
    """Index in a table row where the cells beyond ``ncols`` start (len(line): none)."""
    i, n = 0, len(line)
    while i < n and line[i] in " \t":
        i += 1
    if i < n and line[i] == "|":
        i += 1
    count = 0
    while i < n:
        ch = line[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "`":
            width = len(line[i:]) - len(line[i:].lstrip("`"))
            close = line.find("`" * width, i + width)
            i = close + width if close >= 0 else i + width
            continue
        if ch == "|":
            count += 1
            if count == ncols:
                return i
        i += 1
    return n


_CSS_DECL = re.compile(r"^\s*([A-Za-z-]+)\s*:\s*([^;\"'{}\\]+?)\s*$")


def css_to_object(css: str) -> str | None:
    """``color: red; font-weight: bold`` → ``color: 'red', fontWeight: 'bold'`` (None when the
    CSS is not plain declarations, so no fix is offered)."""
    parts = [p for p in css.split(";") if p.strip()]
    if not parts:
        return None
    out = []
    for part in parts:
        m = _CSS_DECL.match(part)
        if not m:
            return None
        prop, value = m.group(1), m.group(2)
        if prop.startswith("--"):
            key = "'" + prop + "'"
        else:
            head, *rest = prop.lower().split("-")
            if prop.startswith("-"):
                head, *rest = prop[1:].lower().split("-")
                head = head.capitalize() if head != "ms" else head
            key = head + "".join(w.capitalize() for w in rest)
        out.append(f"{key}: '{value}'")
    return ", ".join(out)


_STARTS_ITS_OWN_BLOCK = re.compile(r"[ \t]*(?:[-*+>|#<]|\d{1,9}[.)]|:::|```|~~~)")


def removal_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Where to cut to take ``text[start:end]`` out the way a person would: a part alone on its
    line goes with its line (and with one of the empty lines around it; or it leaves an empty
    line where two lines of one paragraph would otherwise join); a part inside a line takes one
    neighbouring space with it, so no double space is left."""
    n = len(text)
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    if line_end < 0:
        line_end = n
    before, after = text[line_start:start], text[end:line_end]
    if not before.strip() and not after.strip():
        prev_start = text.rfind("\n", 0, max(line_start - 1, 0)) + 1
        prev = text[prev_start : line_start - 1] if line_start else ""
        nxt_end = text.find("\n", line_end + 1)
        nxt = text[line_end + 1 : nxt_end if nxt_end >= 0 else n] if line_end < n else ""
        if prev.strip() and nxt.strip() and not _STARTS_ITS_OWN_BLOCK.match(nxt):
            return line_start, line_end  # keep the paragraph break the line made
        if not prev.strip() and line_end < n and not nxt.strip() and nxt_end >= 0:
            return line_start, nxt_end + 1  # with one of the empty lines around it
        return line_start, min(line_end + 1, n)
    if before.endswith((" ", "\t")) and (not after or after[0] in " \t"):
        return start - 1, end
    if not before and after[:1] in (" ", "\t"):
        return start, end + 1
    return start, end


def without_braces(seg: str) -> str:
    """``{이름}`` → ``이름``: the words a person put in braces, without the braces."""
    out = []
    prev = ""
    for ch in seg:
        if ch in "{}" and prev != "\\":
            prev = ch
            continue
        out.append(ch)
        prev = ch
    return "".join(out).strip()
