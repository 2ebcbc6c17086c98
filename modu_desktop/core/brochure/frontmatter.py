"""Read and edit the YAML-ish front matter of a brochure document without disturbing its bytes.

`parse(text)` never raises. It keeps every line of the block as written (BOM, CRLF, quoting,
comments, unknown keys, key order, spacing), so `parse(text).render() == text` always holds,
and `set()` rewrites only the line of the key it changes (or appends one line for a new key).

Keys in use: id, title, nav_label, sidebar_position, theme, layout, hide_title, description.
Values are single-line scalars: plain, "double quoted" (with backslash escapes) or 'single
quoted'. Indented continuation lines (lists, block scalars of unknown keys) are kept verbatim.
Malformed front matter gives `has_block=False` (no closing fence) or skips the lines it does not
understand, with the reasons in `problems`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

__all__ = ["FrontMatter", "parse", "KNOWN_KEYS", "format_scalar"]

KNOWN_KEYS = (
    "id",
    "title",
    "nav_label",
    "sidebar_position",
    "theme",
    "layout",
    "hide_title",
    "description",
)
_STRING_KEYS = {"id", "title", "nav_label", "theme", "layout", "description"}

BOM = "\ufeff"
# Lines end only at \r\n, \n or \r (not at U+2028, form feeds... as str.splitlines would).
_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_FENCE_RE = re.compile(r"^---[ \t]*$")
_CLOSE_RE = re.compile(r"^(?:---|\.\.\.)[ \t]*$")
_KEY_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*:(?=[ \t]|$)([ \t]*)(.*)$")
_YAML_SPECIAL_START = set("-?:,[]{}#&*!|>'\"%@`")
_YAML_TYPED = re.compile(
    r"^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|"
    r"off|Off|OFF|y|Y|n|N|[-+]?(?:\d[\d_]*)?\.?\d+(?:[eE][-+]?\d+)?|0x[0-9a-fA-F]+|0o[0-7]+|"
    r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)


def _split_ending(raw: str) -> tuple[str, str]:
    if raw.endswith("\r\n"):
        return raw[:-2], "\r\n"
    if raw.endswith(("\n", "\r")):
        return raw[:-1], raw[-1]
    return raw, ""


@dataclass
class _Line:
    raw: str  # exactly as in the file, line ending included
    key: str | None = None
    value: str | None = None  # decoded scalar (for key lines)
    quote: str = ""  # '"', "'" or "" (plain)
    sep: str = " "  # whitespace between ':' and the value
    comment: str = ""  # trailing ' # ...' after the value, as written
    continuation: bool = False  # indented line belonging to the previous key
    problem: str | None = None


def _decode_double(s: str) -> tuple[str, str] | None:
    """s starts after the opening quote. Returns (value, rest after closing quote) or None."""
    out: list[str] = []
    i = 0
    simple = {
        "n": "\n",
        "t": "\t",
        "r": "\r",
        "\\": "\\",
        '"': '"',
        "/": "/",
        "0": "\0",
        " ": " ",
        "b": "\b",
        "f": "\f",
        "e": "\x1b",
        "a": "\a",
        "v": "\v",
        "N": "\x85",
        "_": "\xa0",
        "L": "\u2028",
        "P": "\u2029",
        "\t": "\t",
    }
    while i < len(s):
        ch = s[i]
        if ch == '"':
            return "".join(out), s[i + 1 :]
        if ch == "\\" and i + 1 < len(s):
            nxt = s[i + 1]
            if nxt in simple:
                out.append(simple[nxt])
                i += 2
                continue
            width = {"x": 2, "u": 4, "U": 8}.get(nxt)
            if width and re.fullmatch(f"[0-9a-fA-F]{{{width}}}", s[i + 2 : i + 2 + width]):
                try:
                    out.append(chr(int(s[i + 2 : i + 2 + width], 16)))
                except ValueError:
                    return None
                i += 2 + width
                continue
            return None
        out.append(ch)
        i += 1
    return None


def _decode_single(s: str) -> tuple[str, str] | None:
    out: list[str] = []
    i = 0
    while i < len(s):
        ch = s[i]
        if ch == "'":
            if s[i + 1 : i + 2] == "'":
                out.append("'")
                i += 2
                continue
            return "".join(out), s[i + 1 :]
        out.append(ch)
        i += 1
    return None


def _parse_value(text: str) -> tuple[str, str, str, str | None]:
    """text after 'key:' and its spacing → (value, quote, comment, problem)."""
    if text.startswith('"') or text.startswith("'"):
        res = _decode_double(text[1:]) if text[0] == '"' else _decode_single(text[1:])
        if res is not None:
            value, rest = res
            if not rest.strip():
                return value, text[0], rest, None
            if re.match(r"^[ \t]+#", rest):
                return value, text[0], rest, None
        # Unbalanced or trailing junk: keep the text as a plain value.
        return text.rstrip(), "", "", "quoted value not closed properly"
    m = re.search(r"[ \t]+#", text)
    if text.startswith("#"):
        return "", "", text, None
    if m:
        return text[: m.start()], "", text[m.start() :], None
    stripped = text.rstrip(" \t")
    return stripped, "", text[len(stripped) :], None


def format_scalar(
    value: str | int | float | bool | None, *, quote: str = "", string_key: bool = True
) -> str:
    """A YAML scalar for one line. `quote` is the preferred style ('"', "'" or '')."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    s = str(value)
    if quote == "'" and not any(c in s for c in "\n\r\t\\") and s.isprintable():
        return "'" + s.replace("'", "''") + "'"
    if quote == '"' or not _plain_ok(s, string_key):
        return '"' + _escape_double(s) + '"'
    return s


def _plain_ok(s: str, string_key: bool) -> bool:
    if not s or s != s.strip() or not s.isprintable():
        return False
    if s[0] in _YAML_SPECIAL_START:
        return False
    if ": " in s or " #" in s or s.endswith(":") or "\t" in s:
        return False
    return not (string_key and _YAML_TYPED.match(s))


def _escape_double(s: str) -> str:
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif not ch.isprintable() and ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        elif not ch.isprintable():
            out.append(f"\\U{ord(ch):08x}")
        else:
            out.append(ch)
    return "".join(out)


@dataclass
class FrontMatter:
    """The parsed document: BOM, optional front matter block, body (text after the block)."""

    bom: bool = False
    has_block: bool = False
    prefix: str = ""  # blank lines before the opening fence (kept as is)
    open_fence: str = "---\n"
    lines: list[_Line] = field(default_factory=list)
    close_fence: str = "---\n"
    body: str = ""
    problems: list[str] = field(default_factory=list)

    # -------------------------------------------------------------- reading

    @property
    def newline(self) -> str:
        """The block's line ending ("\\r\\n" or "\\n"), used for lines we add."""
        if self.has_block:
            ending = _split_ending(self.open_fence)[1]
            if ending:
                return ending
        return "\r\n" if "\r\n" in self.body else "\n"

    def _find(self, key: str) -> int | None:
        for i, ln in enumerate(self.lines):
            if ln.key == key:
                return i
        return None

    def _find_alias(self, key: str) -> int | None:
        i = self._find(key)
        if i is None and "_" in key:
            i = self._find(key.replace("_", "-"))
        return i

    def keys(self) -> list[str]:
        return [ln.key for ln in self.lines if ln.key is not None]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._find_alias(key) is not None

    def items(self) -> Iterator[tuple[str, str]]:
        for i, ln in enumerate(self.lines):
            if ln.key is not None:
                yield ln.key, self._value_of(i)

    def _value_of(self, i: int) -> str:
        ln = self.lines[i]
        value = ln.value or ""
        if ln.quote or value[:1] not in ("|", ">"):
            return value
        # A block scalar of an unknown key: join its indented lines.
        parts = []
        for nxt in self.lines[i + 1 :]:
            if not nxt.continuation:
                break
            parts.append(_split_ending(nxt.raw)[0].strip())
        return ("\n" if value.startswith("|") else " ").join(parts)

    def get(self, key: str, default: str | None = None) -> str | None:
        """The value of `key` as a string (quotes removed), or `default` if absent.
        A hyphenated spelling (`nav-label`) is accepted for an underscore key."""
        i = self._find_alias(key)
        if i is None:
            return default
        return self._value_of(i)

    def get_int(self, key: str) -> int | None:
        v = self.get(key)
        if v is None:
            return None
        v = v.strip()
        try:
            return int(v)
        except ValueError:
            try:
                f = float(v)
            except ValueError:
                return None
            return int(f) if f.is_integer() else None

    def get_number(self, key: str) -> int | float | None:
        """An int, or a float for fractional values (Docusaurus allows them)."""
        v = self.get(key)
        if v is None:
            return None
        try:
            return int(v.strip())
        except ValueError:
            pass
        try:
            f = float(v.strip())
        except ValueError:
            return None
        if f != f or f in (float("inf"), float("-inf")):
            return None
        return int(f) if f.is_integer() else f

    def get_bool(self, key: str) -> bool | None:
        v = self.get(key)
        if v is None:
            return None
        low = v.strip().lower()
        if low in ("true", "yes", "on", "y"):
            return True
        if low in ("false", "no", "off", "n"):
            return False
        return None

    # -------------------------------------------------------------- editing

    def set(self, key: str, value: str | int | float | bool | None) -> None:
        """Set `key`, rewriting only its line (or adding one line). Same value → no change."""
        string_key = key in _STRING_KEYS or key not in KNOWN_KEYS
        i = self._find_alias(key)
        if i is not None:
            ln = self.lines[i]
            current = self._value_of(i)
            if isinstance(value, bool):
                same = self.get_bool(ln.key or key) is value
            elif isinstance(value, (int, float)):
                same = self.get_number(ln.key or key) == value and not ln.quote
            else:
                same = current == ("" if value is None else str(value))
            if same and not (ln.quote == "" and current[:1] in ("|", ">")):
                return
            text = format_scalar(value, quote=ln.quote, string_key=string_key)
            _, ending = _split_ending(ln.raw)
            ending = ending or self.newline
            sep = ln.sep if text else ""
            if text and not sep:
                sep = " "
            comment = ln.comment if ln.comment.strip() else ""
            raw = f"{ln.key}:{sep}{text}{comment}{ending}"
            self.lines[i] = _parse_line(raw)
            # Drop the old continuation lines (list items or block scalar).
            j = i + 1
            while j < len(self.lines) and self.lines[j].continuation:
                del self.lines[j]
            return
        text = format_scalar(value, string_key=string_key)
        nl = self.newline
        new = _parse_line(f"{key}:{' ' if text else ''}{text}{nl}")
        if not self.has_block:
            self.has_block = True
            self.open_fence = "---" + nl
            self.close_fence = "---" + nl
            self.prefix = ""
            self.lines = [new]
            return
        # After the last key line (and its continuation lines), else at the top.
        pos = 0
        for j, ln in enumerate(self.lines):
            if ln.key is not None or ln.continuation:
                pos = j + 1
        if pos > 0:
            prev = self.lines[pos - 1]
            if not _split_ending(prev.raw)[1]:
                prev.raw += nl
        self.lines.insert(pos, new)

    def remove(self, key: str) -> bool:
        i = self._find_alias(key)
        if i is None:
            return False
        del self.lines[i]
        while i < len(self.lines) and self.lines[i].continuation:
            del self.lines[i]
        return True

    # -------------------------------------------------------------- output

    def render(self) -> str:
        out = [BOM if self.bom else ""]
        if self.has_block:
            out.append(self.prefix)
            out.append(self.open_fence)
            out.extend(ln.raw for ln in self.lines)
            out.append(self.close_fence)
        out.append(self.body)
        return "".join(out)


def _parse_line(raw: str) -> _Line:
    text, _ = _split_ending(raw)
    if not text.strip() or text.lstrip().startswith("#"):
        return _Line(raw)
    if text[0] in " \t" or text.startswith("- ") or text == "-":
        return _Line(raw, continuation=True)
    m = _KEY_RE.match(text)
    if not m:
        return _Line(raw)
    key, sep, rest = m.group(1), m.group(2), m.group(3)
    value, quote, comment, problem = _parse_value(rest)
    return _Line(raw, key=key, value=value, quote=quote, sep=sep, comment=comment, problem=problem)


def parse(text: str) -> FrontMatter:
    """Parse a document. Never raises; `problems` lists what was not understood."""
    try:
        return _parse(text)
    except Exception as exc:  # pragma: no cover - defensive: never crash on garbage
        return FrontMatter(bom=False, body=text, problems=[f"unreadable front matter: {exc!r}"])


def _parse(text: str) -> FrontMatter:
    fm = FrontMatter()
    if text.startswith(BOM):
        fm.bom = True
        text = text[1:]
    raw_lines = _LINE_RE.findall(text)
    # Blank lines before the opening fence are tolerated (kept verbatim in `prefix`).
    start = 0
    while start < len(raw_lines) and not raw_lines[start].strip():
        start += 1
    if start >= len(raw_lines) or not _FENCE_RE.match(_split_ending(raw_lines[start])[0]):
        fm.body = text
        return fm
    if not _split_ending(raw_lines[start])[1]:  # a lone '---' with nothing after it
        fm.body = text
        return fm
    close = None
    for j in range(start + 1, len(raw_lines)):
        if _CLOSE_RE.match(_split_ending(raw_lines[j])[0]):
            close = j
            break
    if close is None:
        fm.body = text
        fm.problems.append("front matter has no closing '---' line")
        return fm
    fm.has_block = True
    fm.prefix = "".join(raw_lines[:start])
    fm.open_fence = raw_lines[start]
    fm.close_fence = raw_lines[close]
    fm.body = "".join(raw_lines[close + 1 :])
    previous_key = False
    for n, raw in enumerate(raw_lines[start + 1 : close], start=start + 2):
        ln = _parse_line(raw)
        if ln.continuation and not previous_key:
            ln.continuation = False
            fm.problems.append(f"line {n}: indented line without a key")
        elif ln.key is None and not ln.continuation:
            body_text = _split_ending(raw)[0].strip()
            if body_text and not body_text.startswith("#"):
                fm.problems.append(f"line {n}: not a 'key: value' line")
        if ln.key is not None:
            if ln.problem:
                fm.problems.append(f"line {n}: {ln.problem}")
            previous_key = True
        elif not ln.continuation and _split_ending(raw)[0].strip():
            previous_key = previous_key and _split_ending(raw)[0].lstrip().startswith("#")
        fm.lines.append(ln)
    seen: set[str] = set()
    for k in [ln.key for ln in fm.lines if ln.key is not None]:
        if k in seen:
            fm.problems.append(f"key {k!r} appears more than once (the first one is used)")
        seen.add(k)
    return fm
