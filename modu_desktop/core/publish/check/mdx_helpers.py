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


def _escape_braces(seg: str) -> str:
    out = []
    prev = ""
    for ch in seg:
        if ch == "{" and prev != "\\":
            out.append("\\{")
        else:
            out.append(ch)
        prev = ch
    return "".join(out)


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
