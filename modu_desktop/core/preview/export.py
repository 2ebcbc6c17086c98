"""A document as one self-contained HTML page, exactly as the preview shows it (Qt-free).

The page is the preview's static page (no script) with everything it needs inside it: the
stylesheets, the pictures as ``data:`` URLs and, unless left out, the shipped font. A
Content-Security-Policy lets it load nothing from anywhere else (the site's stylesheets name
web fonts; they are not fetched), so it can be mailed and opened offline.
"""

from __future__ import annotations

import base64
import mimetypes
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote

from modu_desktop.core.preview.page import build_page, render_document
from modu_desktop.core.preview.site_style import RESOURCES, SiteStyle

__all__ = ["standalone_page", "local_picture_resolver", "STANDALONE_CSP"]

STANDALONE_CSP = (
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:; "
    "base-uri 'none'; form-action 'none'"
)
_FAMILY_RE = re.compile(r"""(&quot;|["']?)\b(Noto Sans KR|Nanum Gothic|GmarketSans)\b\1""")
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
    # The preview draws the four families the site names with the one font we ship; the
    # saved page says so in its stylesheets and carries that font once (not four times).
    head, body = page.split("<body>", 1)  # stylesheets and the palette on <html>; not the text
    page = _FAMILY_RE.sub("Pretendard", head) + "<body>" + body
    data = (RESOURCES / "fonts" / "PretendardVariable.ttf").read_bytes()
    face = (
        '<style data-sheet="fonts">@font-face { font-family: "Pretendard"; src: url("data:font/'
        f'ttf;base64,{base64.b64encode(data).decode("ascii")}") format("truetype"); '
        "font-weight: 45 920; font-style: normal; font-display: block; }</style>"
    )
    return page.replace("</head>", face + "</head>", 1)
