"""The pictures a page names, each with its place in the text (Qt-free).

A page names a picture four ways, and each is located by the one rule
(:func:`~modu_desktop.core.pictures.rule.locate_picture`):

* a Markdown picture ``![alt](ADDRESS "title")`` (``<ADDRESS>`` too), anywhere outside code;
* a picture written as HTML, ``<img src="ADDRESS" …>`` (``src='…'``, ``src={"…"}``);
* a picture field of a brochure block (``image: /img/a.png``, in its meta lines or its items),
  with a picture file's address as the site's block components take it;
* the front matter's ``image:`` (the picture the site shows when the page is shared).

Code (fenced, indented by a fence, or between backticks) names no picture. Every place carries
the offsets of the address exactly as written, so :func:`rewrite_references` can change one
address and keep every other byte of the page.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote, unquote

from modu_desktop.core.brochure.syntax import BlockPart, FrontMatterPart, split_document
from modu_desktop.core.pictures.rule import (
    Picture,
    address_like,
    locate_picture,
    markdown_destination,
)

PlaceKind = Literal["markdown", "html", "field", "front-matter"]

# The block fields that hold a picture (the publish check reads the same ones).
PICTURE_FIELDS = frozenset({"image", "img", "src", "logo", "photo", "background", "thumbnail"})
FRONT_MATTER_PICTURE = "image"
# A block field's value is a picture address when it names a picture file from the site or the
# page's folder: "/img/a.png", "./a.jpg", "../img/b.svg".
_FIELD_VALUE = re.compile(r"^\.{0,2}/\S+\.(?:png|jpe?g|gif|svg|webp|avif)$", re.IGNORECASE)

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})")
_TICKS = re.compile(r"`+")
_IMAGE_START = re.compile(r"!\[")
_IMG_TAG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
_SRC_ATTR = re.compile(
    r"""\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\s*"([^"]*)"\s*\}|\{\s*'([^']*)'\s*\})""",
    re.IGNORECASE,
)
_ALT_ATTR = re.compile(r"""\balt\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
_URL_SAFE = "/:@?#=&;+!$'*,~-._%"
# What a Markdown address cannot hold as it is (the rest, Hangul too, stays readable).
_MARKDOWN_ESCAPES = str.maketrans({" ": "%20", "(": "%28", ")": "%29", "<": "%3C", ">": "%3E"})
_FIELD_LINE = re.compile(r"^[ \t]*(?:[-*+][ \t]+)?([A-Za-z0-9_-]+):[ \t]*(.*?)[ \t]*$")


@dataclass(frozen=True)
class PictureUse:
    """One place a page names a picture.

    ``start``/``end``: the address as written in the page text (inside ``<…>`` or quotes when
    it has them); ``address``: what the site reads there (escapes decoded); ``picture``: where
    the site takes it from; ``field``: the block field or front matter key; ``alt``: the
    picture's description where the page gives one; ``alt_start``/``alt_end``: where that
    description is written (a Markdown picture's label; an HTML picture's ``alt`` value, or the
    place after ``<img`` where one would go when it has none; None where a place has no
    description: a block field, the front matter)."""

    kind: PlaceKind
    start: int
    end: int
    written: str
    address: str
    picture: Picture
    line: int
    field: str | None = None
    alt: str | None = None
    alt_start: int | None = None
    alt_end: int | None = None

    @property
    def path(self) -> str | None:
        """The repository file the page needs, or None (remote, ``data:``, outside)."""
        return self.picture.path if self.picture.kind == "file" else None


def _masked(text: str) -> str:
    """``text`` with code (fenced blocks, backtick spans) blanked out, offsets kept."""
    out = list(text)
    lines = text.splitlines(keepends=True)
    pos = 0
    fence: str | None = None
    for line in lines:
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(2)[0] == fence[0] and len(m.group(2)) >= len(fence):
                fence = None
            _blank(out, pos, pos + len(line))
        elif m:
            fence = m.group(2)
            _blank(out, pos, pos + len(line))
        pos += len(line)
    fenced = "".join(out)  # the search goes on after each span, so spans never overlap
    pos = 0
    while (m := _TICKS.search(fenced, pos)) is not None:
        ticks = m.group(0)
        close = fenced.find(ticks, m.end())
        while close >= 0 and fenced.startswith("`", close + len(ticks)):
            close = fenced.find(ticks, close + len(ticks) + 1)
        if close < 0:
            pos = m.end()
            continue
        _blank(out, m.start(), close + len(ticks))
        pos = close + len(ticks)
    return "".join(out)


def _blank(out: list[str], start: int, end: int) -> None:
    for i in range(start, end):
        if out[i] not in "\r\n":
            out[i] = " "


def _label_end(text: str, pos: int) -> int | None:
    """The "]" that closes the picture's description starting at ``pos``."""
    depth = 1
    i = pos
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                return i
        elif ch == "\n" and text.startswith("\n", i + 1):
            return None  # a blank line ends the paragraph
        i += 1
    return None


def _destination(text: str, pos: int) -> tuple[int, int] | None:
    """The destination's span after "(" at ``pos`` (``<…>`` included), or None."""
    i = pos
    while i < len(text) and text[i] in " \t\n":
        i += 1
    if i < len(text) and text[i] == "<":
        close = text.find(">", i + 1)
        if close < 0 or "\n" in text[i:close]:
            return None
        return i, close + 1
    depth = 0
    j = i
    while j < len(text):
        ch = text[j]
        if ch == "\\" and j + 1 < len(text):
            j += 2
            continue
        if ch in " \t\n":
            break
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                break
            depth -= 1
        j += 1
    return (i, j) if j > i else None


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(m.end() for m in re.finditer(r"\n", text))
    return starts


def _line_of(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _markdown_uses(
    text: str, masked: str, doc_path: str, starts: list[int]
) -> Iterator[PictureUse]:
    for m in _IMAGE_START.finditer(masked):
        if m.start() > 0 and masked[m.start() - 1] == "\\":
            continue
        label_end = _label_end(masked, m.end())
        if label_end is None or not masked.startswith("(", label_end + 1):
            continue
        span = _destination(masked, label_end + 2)
        if span is None:
            continue
        s, e = span
        written = text[s:e]
        if written.startswith("<") and written.endswith(">"):
            s, e = s + 1, e - 1
        address = markdown_destination(written)
        yield PictureUse(
            "markdown",
            s,
            e,
            text[s:e],
            address,
            locate_picture(address, doc_path),
            _line_of(starts, s),
            alt=text[m.end() : label_end],
            alt_start=m.end(),
            alt_end=label_end,
        )


def _html_uses(text: str, masked: str, doc_path: str, starts: list[int]) -> Iterator[PictureUse]:
    for tag in _IMG_TAG.finditer(masked):
        m = _SRC_ATTR.search(masked, tag.start(), tag.end())
        if m is None:
            continue
        group = next(g for g in range(1, 5) if m.group(g) is not None)
        s, e = m.start(group), m.end(group)
        address = html.unescape(text[s:e])
        alt_m = _ALT_ATTR.search(masked, tag.start(), tag.end())
        alt = None
        alt_start = alt_end = tag.start() + len("<img")  # where an alt attribute would go
        if alt_m is not None:
            quoted = 1 if alt_m.group(1) is not None else 2
            alt_start, alt_end = alt_m.start(quoted), alt_m.end(quoted)
            alt = html.unescape(text[alt_start:alt_end])
        yield PictureUse(
            "html",
            s,
            e,
            text[s:e],
            address,
            locate_picture(address, doc_path),
            _line_of(starts, s),
            alt=alt,
            alt_start=alt_start,
            alt_end=alt_end,
        )


def _key_value_uses(
    text: str,
    part: BlockPart | FrontMatterPart,
    doc_path: str,
    starts: list[int],
) -> Iterator[PictureUse]:
    kind: PlaceKind = "field" if isinstance(part, BlockPart) else "front-matter"
    pos = part.start
    for line in part.text.splitlines(keepends=True):
        m = _FIELD_LINE.match(line.rstrip("\r\n"))
        line_start, pos = pos, pos + len(line)
        if m is None:
            continue
        key = m.group(1).lower()
        if kind == "field" and key not in PICTURE_FIELDS:
            continue
        if kind == "front-matter" and key != FRONT_MATTER_PICTURE:
            continue
        s, e = line_start + m.start(2), line_start + m.end(2)
        if e - s >= 2 and text[s] in "\"'" and text[e - 1] == text[s]:
            s, e = s + 1, e - 1
        value = text[s:e]
        if kind == "field" and not is_picture_value(value):
            continue
        if not value:
            continue
        yield PictureUse(
            kind,
            s,
            e,
            value,
            value,
            locate_picture(value, doc_path),
            _line_of(starts, s),
            field=m.group(1),
        )


def is_picture_value(value: str) -> bool:
    """A block field's value that names a picture file (``/img/a.png``, ``./b.jpg``)."""
    return bool(_FIELD_VALUE.match(value))


def page_pictures(text: str, doc_path: str) -> list[PictureUse]:
    """Every place the page ``doc_path`` (its text ``text``) names a picture, in text order."""
    starts = _line_starts(text)
    parts = split_document(text)
    masked = list(_masked(text))
    uses: list[PictureUse] = []
    for part in parts:
        if isinstance(part, FrontMatterPart):
            _blank(masked, part.start, part.end)
            uses.extend(_key_value_uses(text, part, doc_path, starts))
        elif isinstance(part, BlockPart):
            uses.extend(_key_value_uses(text, part, doc_path, starts))
    flat = "".join(masked)
    uses.extend(_markdown_uses(text, flat, doc_path, starts))
    uses.extend(_html_uses(text, flat, doc_path, starts))
    uses.sort(key=lambda u: u.start)
    return uses


def pictures_needed(text: str, doc_path: str) -> set[str]:
    """The repository files the page's pictures are taken from."""
    return {u.path for u in page_pictures(text, doc_path) if u.path is not None}


def _written_as(use: PictureUse, address: str) -> str:
    """``address`` spelt the way ``use`` spelt its own: percent-escapes where the page used
    them (or where a Markdown address needs them), HTML escapes in an HTML attribute."""
    if use.written != unquote(use.written):
        address = quote(address, safe=_URL_SAFE)
    elif use.kind == "markdown":
        address = address.translate(_MARKDOWN_ESCAPES)
    if use.kind == "html":
        return html.escape(address, quote=True)
    if use.kind == "field" and not address.startswith(("/", "./", "../", "@")):
        address = "./" + address  # a block field names a picture by "/…", "./…" or "../…"
    return address


def rewrite_references(text: str, old: str, new: str, *, doc_path: str) -> str:
    """``text`` with every place that names the repository file ``old`` naming ``new``
    instead, each written the way it was (static-rooted, ``@site/``, relative; query and hash
    kept); every other byte is kept."""
    out: list[str] = []
    last = 0
    for use in page_pictures(text, doc_path):
        if use.path != old:
            continue
        out.append(text[last : use.start])
        out.append(_written_as(use, address_like(use.address, new, doc_path)))
        last = use.end
    out.append(text[last:])
    return "".join(out)
