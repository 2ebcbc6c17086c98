"""Front matter <-> form adapter over ``core.frontmatter`` (which preserves BOM, CRLF, quoting,
unknown keys and order, and never raises on a document it does not understand)."""

from __future__ import annotations

import contextlib
from typing import Any

from modu_desktop.core.brochure import frontmatter

FORM_KEYS = ("title", "nav_label", "sidebar_position", "theme", "layout")


def read_fields(text: str) -> dict[str, Any]:
    fm = frontmatter.parse(text)
    out: dict[str, Any] = {}
    for k in FORM_KEYS:
        v = fm.get(k)
        out[k] = v
        if k == "sidebar_position" and v is not None:
            with contextlib.suppress(TypeError, ValueError):
                out[k] = int(v)
    return out


def write_field(text: str, key: str, value: Any) -> str:
    fm = frontmatter.parse(text)
    if value is None:
        fm.remove(key)
    else:
        fm.set(key, value)
    return fm.render()
