"""Front matter <-> form adapter. Uses ``core.frontmatter`` (which preserves BOM, CRLF, quoting,
unknown keys and order); a minimal line-based fallback keeps the form usable without it."""

from __future__ import annotations

import contextlib
import re
from typing import Any

FORM_KEYS = ("title", "nav_label", "sidebar_position", "theme", "layout")


def _core() -> Any:
    try:
        from modu_desktop.core import frontmatter

        return frontmatter
    except ImportError:
        return None


def read_fields(text: str) -> dict[str, Any]:
    fm_mod = _core()
    if fm_mod is not None:
        try:
            fm = fm_mod.parse(text)
            out: dict[str, Any] = {}
            for k in FORM_KEYS:
                v = fm.get(k)
                if k == "sidebar_position" and v is not None:
                    with contextlib.suppress(TypeError, ValueError):
                        v = int(v)
                out[k] = v
            return out
        except Exception:
            pass
    return _fallback_read(text)


def write_field(text: str, key: str, value: Any) -> str:
    fm_mod = _core()
    if fm_mod is not None:
        try:
            fm = fm_mod.parse(text)
            if value is None and hasattr(fm, "delete"):
                fm.delete(key)
            elif value is None and hasattr(fm, "remove"):
                fm.remove(key)
            else:
                fm.set(key, value)
            return str(fm.render())
        except Exception:
            pass
    return _fallback_write(text, key, value)


_BLOCK = re.compile(r"\A(\ufeff?)---\r?\n(.*?)(\r?\n)---(\r?\n|\Z)", re.S)


def _fallback_read(text: str) -> dict[str, Any]:
    m = _BLOCK.match(text)
    out: dict[str, Any] = dict.fromkeys(FORM_KEYS)
    if not m:
        return out
    for line in m.group(2).splitlines():
        k, sep, v = line.partition(":")
        k = k.strip()
        if sep and k in FORM_KEYS:
            v = v.strip().strip('"').strip("'")
            if k == "sidebar_position":
                try:
                    out[k] = int(v)
                except ValueError:
                    out[k] = v or None
            else:
                out[k] = v or None
    return out


def _fallback_write(text: str, key: str, value: Any) -> str:
    m = _BLOCK.match(text)
    nl = "\r\n" if "\r\n" in text[:200] else "\n"
    line = None if value is None else f"{key}: {value}"
    if not m:
        if line is None:
            return text
        return f"---{nl}{line}{nl}---{nl}" + text
    lines = m.group(2).split(m.group(3))
    for i, ln in enumerate(lines):
        if ln.partition(":")[0].strip() == key:
            if line is None:
                del lines[i]
            else:
                lines[i] = line
            break
    else:
        if line is not None:
            lines.append(line)
    body = m.group(3).join(lines)
    return f"{m.group(1)}---{m.group(3)}{body}{m.group(3)}---{m.group(4)}" + text[m.end() :]


def read_id(text: str) -> str | None:
    """The front matter ``id`` (None if absent)."""
    fm_mod = _core()
    if fm_mod is not None:
        try:
            v = fm_mod.parse(text).get("id")
            return None if v is None else str(v)
        except Exception:
            pass
    m = _BLOCK.match(text)
    if not m:
        return None
    for line in m.group(2).splitlines():
        k, sep, v = line.partition(":")
        if sep and k.strip() == "id":
            return v.strip().strip('"').strip("'") or None
    return None
