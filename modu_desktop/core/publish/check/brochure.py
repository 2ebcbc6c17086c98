"""The brochure's own rules: block names, lines the site's plugin ignores, required fields,
pictures that are not in the repository (Qt-free).

The site's plugin (``src/theme/remarkBrochureDirectives.js``) reads a block body as
``key: value`` lines, then a list from the first line starting with ``-``: ``- key: value``
items whose further ``key: value`` lines belong to the item. Keys are ASCII letters, digits,
``_`` and ``-``. A line that does not have that shape is silently dropped, and so is the text
after a blank line that ends the list. These rules say so before the page goes out.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection
from typing import Protocol

from modu_desktop.core.brochure.syntax import ADMONITIONS, BLOCK_KINDS, block_kind
from modu_desktop.core.pictures.rule import locate_picture

from .model import Severity, TextEdit


class Scanner(Protocol):
    """What a block check uses of the MDX scanner (``mdx.Scanner``): the text, where the
    document is, the repository's files, and where findings go."""

    @property
    def text(self) -> str: ...

    @property
    def doc_path(self) -> str: ...

    @property
    def repo_paths(self) -> Collection[str] | None: ...

    def add(
        self,
        code: str,
        severity: Severity,
        start: int,
        end: int,
        fix: TextEdit | None = None,
        **fields: str,
    ) -> None: ...


# Fields the template (docs/99-template.md, "필수" column) says a block needs.
REQUIRED: dict[str, tuple[str, ...]] = {
    "hero": ("title",),
    "panel": ("header",),
    "quote": ("text",),
    "cta": ("title",),
    "datatable": ("header", "columns"),
}
IMAGE_KEYS = frozenset({"image", "img", "src", "logo", "photo", "background", "thumbnail"})
_IMAGE_VALUE = re.compile(r"^\.{0,2}/\S+\.(?:png|jpe?g|gif|svg|webp|avif)$", re.IGNORECASE)

_META = re.compile(r"^([a-zA-Z0-9_-]+):\s*(.*)")
_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$|^[ \t]*[-*+]$")
_SUBKEY = re.compile(r"^\s*([a-zA-Z0-9_-]+):\s*(.*)")
_LOOKS_KEY = re.compile(r"^\s*([^\s:][^:]{0,20}):(?:\s|$)")


def canonical(name: str) -> str | None:
    """The block kind for a directive name the site's plugin handles (case-sensitive, as the
    plugin is), or None."""
    return block_kind(name)


def is_admonition(name: str) -> bool:
    return name in ADMONITIONS


def suggest(name: str) -> str | None:
    lowered = name.lower()
    choices = list(BLOCK_KINDS) + list(ADMONITIONS)
    if lowered in choices:
        return lowered
    match = difflib.get_close_matches(lowered, choices, n=1, cutoff=0.6)
    return match[0] if match else None


def check_block_body(
    scanner: Scanner, name: str, name_start: int, body: list[tuple[int, int]]
) -> None:
    """Findings for the body lines (``(start, end)`` offsets) of one brochure block."""
    text = scanner.text
    kind = canonical(name) or name
    found: set[str] = set()
    section = "meta"
    in_list = False
    in_item = False
    blank_before = False
    fence = None
    for s, e in body:
        line = text[s:e]
        stripped = line.strip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith("```") or stripped.startswith("~~~"):
            fence = stripped[:3]
            continue
        if not stripped:
            blank_before = True
            continue
        if kind == "split" and stripped in ("left:", "right:"):
            section = stripped[:-1]
            in_list = in_item = blank_before = False
            continue
        m_item = _ITEM.match(line) if not (kind == "split" and section == "meta") else None
        if m_item and (stripped.startswith("-") or in_list or kind != "split"):
            in_list = True
            in_item = True
            rest = (m_item.group(1) or "").strip()
            m_kv = _META.match(rest)
            if kind != "datatable" and rest and not m_kv:
                _ignored(scanner, s, e, line)
            elif kind != "datatable" and m_kv:
                _prop(scanner, kind, m_kv, s + line.find(rest), found, item=True)
            blank_before = False
            continue
        if kind == "split" and section == "meta":
            in_list = False
        if in_list:
            indented = line[:1] in " \t"
            if in_item and (indented or not blank_before) and kind != "datatable":
                m_sub = _SUBKEY.match(line)
                if m_sub:
                    _prop(scanner, kind, m_sub, s + m_sub.start(1), found, item=True)
                else:
                    _ignored(scanner, s, e, line)
            else:
                _ignored(scanner, s, e, line)
            blank_before = False
            continue
        m_meta = _META.match(stripped)
        if m_meta:
            _prop(scanner, kind, m_meta, s, found, item=False)
        else:
            _ignored(scanner, s, e, line)
        blank_before = False
    for key in REQUIRED.get(kind, ()):
        if key not in found:
            scanner.add(
                "block-missing-field",
                Severity.PAGE_WRONG,
                name_start,
                name_start + len(name),
                block=name,
                field=key,
            )


def _prop(
    scanner: Scanner, kind: str, m: re.Match[str], key_start: int, found: set[str], *, item: bool
) -> None:
    key, value = m.group(1), m.group(2).strip()
    if not item:
        found.add(key)
    if scanner.repo_paths is None or key.lower() not in IMAGE_KEYS:
        return
    value = value.strip("\"'")
    if not _IMAGE_VALUE.match(value):
        return
    picture = locate_picture(value, scanner.doc_path)
    if picture.kind == "file" and picture.path not in scanner.repo_paths:
        start = scanner.text.find(value, key_start)
        scanner.add(
            "block-image-missing",
            Severity.PAGE_WRONG,
            start,
            start + len(value),
            url=value,
        )


def _ignored(scanner: Scanner, s: int, e: int, line: str) -> None:
    stripped = line.strip()
    shown = stripped if len(stripped) <= 30 else stripped[:29] + "…"
    lead = len(line) - len(line.lstrip())
    # "key": a key the plugin cannot read (Korean, spaces, …); "text": a line without a key.
    hint = "key" if _LOOKS_KEY.match(line) else "text"
    scanner.add("block-ignored-line", Severity.PAGE_WRONG, s + lead, e, line=shown, hint=hint)


_BLOCKISH = re.compile(r"^(\s*$|\s+\S|-(\s|$)|[A-Za-z0-9_-]+:(\s|$))")


def unclosed_fix_offset(scanner: Scanner, body: list[tuple[int, int]]) -> int | None:
    """Where a missing ``:::`` belongs: after the last line that can be block content."""
    text = scanner.text
    last_end = None
    for s, e in body:
        line = text[s:e]
        if not _BLOCKISH.match(line):
            break
        if line.strip():
            last_end = e
    if last_end is None:
        return None
    if last_end >= len(text):
        return None
    return last_end + 1
