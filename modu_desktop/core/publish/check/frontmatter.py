"""The front matter part of the publish check (Qt-free).

Docusaurus reads the ``---`` block with gray-matter (js-yaml) and validates the fields it knows
(``title`` a string, ``sidebar_position`` a number, ``hide_title`` a boolean, …); a YAML error
or a wrong type fails the whole build. Our documents use flat ``key: value`` front matter, so
this reads YAML only as far as such a block needs, and says what js-yaml would refuse:
``title: 전략: 2025`` (a second ``: ``), an unclosed quote, a value starting with ``@``, `` ` ``,
``%``, ``*``, ``&`` or ``!``, a key written twice, a line that is not ``key: value``, and a
missing closing ``---`` (then the whole file is read as YAML).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .model import Severity, TextEdit

if TYPE_CHECKING:
    from .mdx import Scanner

_KEY_LINE = re.compile(r"^([^\s#:\-?][^:]*?|-[^\s:][^:]*?)[ \t]*:(?=[ \t]|$)[ \t]*(.*)$")
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT = re.compile(
    r"^[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|0[0-7_]+|(?:0|[1-9][0-9_]*)|[1-9][0-9_]*(?::[0-5]?[0-9])+)$"
)
_FLOAT = re.compile(
    r"^(?:[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)

_YES_NO = {"yes": "true", "no": "false", "on": "true", "off": "false", "y": "true", "n": "false"}
STRING_FIELDS = ("id", "title", "description", "sidebar_label", "pagination_label", "slug")
NUMBER_FIELDS = ("sidebar_position",)
BOOL_FIELDS = (
    "hide_title",
    "hide_table_of_contents",
    "draft",
    "unlisted",
    "parse_number_prefixes",
)
ARRAY_FIELDS = ("keywords",)
# The brochure needs these on every page (home cards, navigation, the web admin's list).
REQUIRED = ("id", "title")


@dataclass(slots=True)
class FrontMatterInfo:
    end: int  # offset just after the closing line (0 when there is no front matter)
    keys: dict[str, str]  # key → raw value (first line)


def _kind(value: str) -> str:
    """The YAML type of a plain scalar: null, bool, int, float or str."""
    if _NULL.match(value):
        return "null"
    if _BOOL.match(value):
        return "bool"
    if _INT.match(value) or _FLOAT.match(value):
        return "number"
    return "str"


def check_front_matter(scanner: Scanner) -> FrontMatterInfo:
    text = scanner.text
    start = 1 if text.startswith("\ufeff") else 0
    if not text.startswith("---", start):
        _missing(scanner, {}, 0)
        return FrontMatterInfo(0, {})
    first_end = text.find("\n", start)
    if first_end < 0 or text[start:first_end].rstrip() != "---":
        return FrontMatterInfo(0, {})
    lines: list[tuple[int, int]] = []
    pos = first_end + 1
    close = None
    while pos <= len(text):
        nl = text.find("\n", pos)
        e = len(text) if nl < 0 else nl
        if text[pos:e].rstrip() == "---":
            close = (pos, e)
            break
        lines.append((pos, e))
        if nl < 0:
            break
        pos = nl + 1
    if close is None:
        # The closing line belongs after the last "key: value" line of the block.
        fix = None
        last = None
        for ls, le in lines:
            line = text[ls:le]
            if _KEY_LINE.match(line) or (last is not None and line[:1] in " -" and line.strip()):
                last = le
            elif line.strip():
                break
        if last is not None:
            fix = TextEdit(last, last, "\n---", "")
        scanner.add("fm-unclosed", Severity.BREAKS_BUILD, start, start + 3, fix)
        return FrontMatterInfo(0, {})
    keys: dict[str, str] = {}
    key_pos: dict[str, int] = {}
    prev_plain = False  # the previous key had a one-line plain value
    idx = 0
    while idx < len(lines):
        s, e = lines[idx]
        line = text[s:e].rstrip("\r")
        idx += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[:1] in " \t":
            if prev_plain and line[:1] == " " and _KEY_LINE.match(line.strip()):
                scanner.add(
                    "fm-yaml", Severity.BREAKS_BUILD, s, e, problem="indent", line=line.strip()
                )
            continue
        if line.startswith("- ") or line == "-":
            continue  # an item of the previous key's list
        m = _KEY_LINE.match(line)
        if not m:
            scanner.add(
                "fm-yaml", Severity.BREAKS_BUILD, s, e, problem="not-key-value", line=line.strip()
            )
            prev_plain = False
            continue
        key = m.group(1).strip().strip("\"'")
        value = m.group(2)
        vstart = s + m.start(2)
        if key in keys:
            scanner.add("fm-duplicate-key", Severity.BREAKS_BUILD, s, s + len(m.group(1)), key=key)
        keys[key] = value
        key_pos[key] = s
        kind, idx, prev_plain = _value(scanner, key, value, vstart, lines, idx)
        _check_type(scanner, key, kind, vstart, s + len(line))
    _missing(scanner, keys, start)
    return FrontMatterInfo(close[1] + 1 if close[1] < len(text) else close[1], keys)


def _value(
    scanner: Scanner,
    key: str,
    value: str,
    vstart: int,
    lines: list[tuple[int, int]],
    idx: int,
) -> tuple[str, int, bool]:
    """(YAML kind, next line index, value is a one-line plain scalar)."""
    text = scanner.text
    v = value.rstrip()
    if not v or v.startswith("#"):
        return "null-or-nested", idx, False
    first = v[0]
    if first in "\"'":
        return _quoted(scanner, key, v, vstart, lines, idx)
    if first in "[{":
        return _flow(scanner, key, v, vstart, lines, idx)
    if first in "|>":
        return "str", idx, False
    if _starts_with_indicator(v):
        fix = _quote_fix(text, vstart, v)
        scanner.add(
            "fm-yaml",
            Severity.BREAKS_BUILD,
            vstart,
            vstart + len(v),
            fix,
            problem="indicator",
            key=key,
            char=first,
        )
        return "str", idx, False
    plain = re.split(r"[ \t]#", v, maxsplit=1)[0].rstrip()
    colon = re.search(r":(?:[ \t]|$)", plain)
    if colon:
        fix = _quote_fix(text, vstart, plain)
        scanner.add(
            "fm-yaml",
            Severity.BREAKS_BUILD,
            vstart + colon.start(),
            vstart + colon.start() + 1,
            fix,
            problem="colon",
            key=key,
        )
        return "str", idx, True
    return _kind(plain), idx, True


def _starts_with_indicator(v: str) -> bool:
    """A plain value may not start with one of YAML's indicator characters (quoting it keeps
    the same text)."""
    first = v[0]
    alone = len(v) == 1 or v[1] in " \t"
    if first in "`@%" or first == "*" or (first == "&" and alone):
        return True
    if first == "!" and not v.startswith("!!"):
        return True
    return first in "-?:" and alone


def _quoted(
    scanner: Scanner, key: str, v: str, vstart: int, lines: list[tuple[int, int]], idx: int
) -> tuple[str, int, bool]:
    """A quoted scalar, which may continue on the next lines; nothing may follow it."""
    text = scanner.text
    buf_end = _closing_quote(text, vstart, v[0], lines, idx)
    if buf_end is None:
        scanner.add(
            "fm-yaml", Severity.BREAKS_BUILD, vstart, vstart + len(v), problem="quote", key=key
        )
        return "str", len(lines), False
    close_at, idx = buf_end
    line_end = text.find("\n", close_at)
    rest = text[close_at + 1 : line_end if line_end >= 0 else len(text)].strip()
    if rest and not rest.startswith("#"):
        scanner.add(
            "fm-yaml",
            Severity.BREAKS_BUILD,
            vstart,
            close_at + 1 + len(rest),
            None,
            problem="after-quote",
            key=key,
        )
    return "str", idx, False


def _flow(
    scanner: Scanner, key: str, v: str, vstart: int, lines: list[tuple[int, int]], idx: int
) -> tuple[str, int, bool]:
    """A ``[…]`` list or ``{…}`` map, which must be closed (it may run over several lines)."""
    text = scanner.text
    depth = 0
    pos = vstart
    end_limit = lines[-1][1] if lines else len(text)
    quote = ""
    while pos < end_limit:
        ch = text[pos]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth == 0:
                break
        pos += 1
    if depth != 0:
        scanner.add(
            "fm-yaml",
            Severity.BREAKS_BUILD,
            vstart,
            vstart + len(v),
            problem="bracket",
            key=key,
        )
        return "str", len(lines), False
    while idx < len(lines) and lines[idx][0] <= pos:
        idx += 1
    return ("array" if v[0] == "[" else "map"), idx, False


def _quote_fix(text: str, vstart: int, value: str) -> TextEdit | None:
    """Put a plain value in double quotes (escaping ``\\`` and ``"``): same text, valid YAML."""
    if "\n" in value:
        return None
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return TextEdit(vstart, vstart + len(value), '"' + escaped + '"', value)


def _closing_quote(
    text: str, vstart: int, quote: str, lines: list[tuple[int, int]], idx: int
) -> tuple[int, int] | None:
    limit = lines[-1][1] if lines else len(text)
    pos = vstart + 1
    while pos < limit:
        ch = text[pos]
        if quote == '"' and ch == "\\":
            pos += 2
            continue
        if ch == quote:
            if quote == "'" and pos + 1 < limit and text[pos + 1] == "'":
                pos += 2
                continue
            while idx < len(lines) and lines[idx][0] <= pos:
                idx += 1
            return pos, idx
        pos += 1
    return None


def _check_type(scanner: Scanner, key: str, kind: str, vstart: int, line_end: int) -> None:
    bad = False
    if key in STRING_FIELDS:
        bad = kind in ("bool", "null", "null-or-nested", "array", "map")
        if kind == "null-or-nested" and key == "description":
            bad = False
        expected = "string"
    elif key in NUMBER_FIELDS:
        raw = scanner.text[vstart:line_end].strip().strip("\"'")
        bad = kind != "number" and not (kind == "str" and _FLOAT.match(raw))
        expected = "number"
    elif key in BOOL_FIELDS:
        raw = scanner.text[vstart:line_end].strip().strip("\"'")
        bad = kind != "bool" and raw not in ("true", "false")
        expected = "boolean"
    elif key in ARRAY_FIELDS:
        bad = kind not in ("array", "null-or-nested")
        expected = "list"
    else:
        return
    if bad:
        fix = None
        raw = scanner.text[vstart:line_end].strip()
        if expected == "boolean" and raw.lower() in _YES_NO:
            fix = TextEdit(vstart, vstart + len(raw), _YES_NO[raw.lower()], raw)
        elif expected == "string" and kind == "bool" and "\n" not in raw:
            fix = TextEdit(vstart, vstart + len(raw), '"' + raw + '"', raw)
        scanner.add(
            "fm-type",
            Severity.BREAKS_BUILD,
            vstart,
            max(vstart + 1, line_end),
            fix,
            key=key,
            expected=expected,
        )


def _missing(scanner: Scanner, keys: dict[str, str], at: int) -> None:
    for key in REQUIRED:
        if key not in keys:
            scanner.add("fm-missing-field", Severity.PAGE_WRONG, at, at, field=key)
