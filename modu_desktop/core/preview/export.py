"""A document as one self-contained HTML page, exactly as the preview shows it (Qt-free).

The page is the preview's static page (no script) with everything it needs inside it: the
stylesheets, the pictures as ``data:`` URLs and, unless left out, the fonts the preview draws
it in. A Content-Security-Policy lets it load nothing from anywhere else (the site's
stylesheets name web fonts on CDNs; they are not fetched), so it can be mailed and opened
offline.

Fonts: the preview declares every shipped family and the browser loads what the page needs.
A saved page cannot load on demand, so it carries what the page would load: the families its
stylesheets and ``style`` attributes draw text in (:func:`fonts.families_drawn`), and of a
family cut in slices (Noto Sans KR, Nanum Gothic) only the slices whose ``unicode-range``
covers a character of the page. The rules are the preview's own, with ``data:`` URLs.
"""

from __future__ import annotations

import base64
import mimetypes
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

from modu_desktop.core.preview.fonts import FONT_MIME, FONTS_DIR, families_drawn, font_faces
from modu_desktop.core.preview.page import build_page, render_document
from modu_desktop.core.preview.site_style import SiteStyle

__all__ = ["standalone_page", "local_picture_resolver", "STANDALONE_CSP"]

STANDALONE_CSP = (
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:; "
    "base-uri 'none'; form-action 'none'"
)
_CONTENT_RE = re.compile(r"""(?<![\w-])content\s*:\s*(["'])(.*?)(?<!\\)\1""", re.S)
_CSS_ESCAPE_RE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?|\\(.)", re.S)
# Drawn by the browser, not written in the page: ordered-list numbers.
_GENERATED = "0123456789. "
_PICTURE_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp"}
MAX_PICTURE_BYTES = 20 * 1024 * 1024


def _data_url(path: Path) -> str | None:
    kind = mimetypes.guess_type(path.name)[0]
    if kind not in _PICTURE_TYPES or not path.is_file():
        return None
    if path.stat().st_size > MAX_PICTURE_BYTES:
        return None
    return f"data:{kind};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


def local_picture_resolver(
    doc_dir: Path, static_dir: Path | None = None
) -> Callable[[str], str | None]:
    """Pictures of a local document as ``data:`` URLs: ``/img/x.png`` from the site's
    ``static/`` folder (when known), anything else beside the document. Only files inside those
    folders, of the kinds a browser shows safely (PNG, JPEG, GIF, WebP, BMP)."""
    roots = [doc_dir.resolve()] + ([static_dir.resolve()] if static_dir else [])

    def resolve(src: str) -> str | None:
        path = unquote(src.split("#", 1)[0].split("?", 1)[0].strip())
        if path.startswith("/"):
            if static_dir is None:
                return None
            base, rel = static_dir.resolve(), path.lstrip("/")
        else:
            base, rel = doc_dir.resolve(), path
        found = (base / rel).resolve()
        if not any(root in found.parents for root in roots):
            return None
        return _data_url(found)

    return resolve


class _PageReading(HTMLParser):
    """The CSS of a page (``<style>`` sheets and ``style`` attributes) and the text it shows."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.css: list[str] = []
        self.text: list[str] = []
        self._in_body = False
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_body = self._in_body or tag == "body"
        self._in_style = tag == "style"
        self.css.extend(value for name, value in attrs if name == "style" and value)

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.css.append(data)
        elif self._in_body:
            self.text.append(data)


def _css_strings(css: str) -> str:
    """The characters of the page's CSS ``content`` strings (escapes decoded)."""

    def unescape(m: re.Match[str]) -> str:
        if m.group(1):
            point = int(m.group(1), 16)
            return chr(point) if 0 < point <= 0x10FFFF else ""
        return m.group(2)

    return "".join(_CSS_ESCAPE_RE.sub(unescape, m.group(2)) for m in _CONTENT_RE.finditer(css))


def _font_data_url(name: str) -> str:
    path = FONTS_DIR / name
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f"data:{FONT_MIME[path.suffix]};base64,{data}"


def embedded_fonts_css(page: str) -> str:
    """The preview's ``@font-face`` rules that ``page`` needs, its files as ``data:`` URLs:
    the families its CSS draws text in and, of sliced families, the slices covering its
    characters."""
    reading = _PageReading()
    reading.feed(page)
    reading.close()
    characters = "".join(reading.text) + _css_strings("\n".join(reading.css)) + _GENERATED
    cache: dict[str, str] = {}

    def url_for(name: str) -> str:
        if name not in cache:
            cache[name] = _font_data_url(name)
        return cache[name]

    return font_faces(url_for, families=families_drawn(reading.css), characters=characters)


def standalone_page(
    text: str,
    *,
    style: SiteStyle | None = None,
    image_resolver: Callable[[str], str | None] | None = None,
    embed_font: bool = True,
) -> str:
    """The whole page for ``text`` as the preview shows it, needing nothing outside itself."""
    doc = render_document(text, style=style, image_resolver=image_resolver)
    page = build_page(doc, style, csp=STANDALONE_CSP, no_motion=True, font_url="")
    if not embed_font:
        return page
    faces = embedded_fonts_css(page).replace("</", "<\\/")
    return page.replace("</head>", f'<style data-sheet="fonts">{faces}</style></head>', 1)
