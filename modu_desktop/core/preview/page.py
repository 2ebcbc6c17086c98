"""A brochure document as the site's page: segments, ``<html>`` attributes, the whole HTML.

The content area has the DOM Docusaurus produces for a document page (``main-wrapper`` →
``docRoot`` → ``docMainContainer`` → ``article`` → ``div.theme-doc-markdown.markdown``), without
the navbar, breadcrumbs and footer. Inside it, each segment (the title header, a Markdown run, a
block) is preceded by a comment ``<!--s:KEY-->`` whose key is a hash of its HTML: the preview
widget updates only the segments whose keys changed (see ``resources/preview/preview.js``).

Stylesheets, in cascade order: Infima (Docusaurus's CSS framework, MIT), our small stand-in for
the Docusaurus theme's own CSS (``base.css``), the site's stylesheets (or our ``brochure.css``),
and last the web fonts the site names, from the files we ship (:mod:`.fonts`), so the text is
drawn in the site's own fonts on every computer, offline.
"""

from __future__ import annotations

import hashlib
import html
from dataclasses import dataclass
from functools import lru_cache

from modu_desktop.core.brochure.blocks import Block, parse_block, split_front_matter, split_segments
from modu_desktop.core.brochure.themes import DEFAULT_LAYOUT
from modu_desktop.core.preview.blocks import BLOCK_RENDERERS, render_block
from modu_desktop.core.preview.fonts import fonts_css
from modu_desktop.core.preview.images import ImageResolver
from modu_desktop.core.preview.markdown import block_body_text, first_heading
from modu_desktop.core.preview.mdx import render_admonition, render_markdown
from modu_desktop.core.preview.site_style import (
    LAYOUT_PAPER,
    RESOURCES,
    SiteStyle,
    builtin_style,
)

__all__ = [
    "RenderedDoc",
    "Segment",
    "render_document",
    "build_page",
    "PAPER_MM",
    "FONT_BASE",
    "NO_MOTION_CSS",
]

# Paper sizes (portrait, mm) for PDF export.
PAPER_MM = {"A4": (210.0, 297.0), "A3": (297.0, 420.0), "B5": (176.0, 250.0)}

FONT_BASE = "modu-page:/res/fonts"  # the shipped font files, served by the preview widget
NO_MOTION_CSS = (
    "*, *::before, *::after { animation: none !important; transition: none !important;"
    " caret-color: transparent !important; }"
)


@dataclass(frozen=True)
class Segment:
    key: str
    html: str
    kind: str  # "title" | "markdown" | block kind | "admonition" | "unknown"
    line: int = -1  # a block's opening ``:::`` line in the whole text (0-based); -1 otherwise
    start: int = -1  # the segment's first line in the whole text (-1: the title)
    # Markdown: the first line of each top-level part (paragraph, heading, list, table…), so
    # the preview can follow the cursor into a paragraph, not only into a block
    chunks: tuple[int, ...] = ()


@dataclass(frozen=True)
class RenderedDoc:
    segments: tuple[Segment, ...]
    theme: str
    layout: str
    title: str
    hide_title: bool

    @property
    def keys(self) -> list[str]:
        return [s.key for s in self.segments]

    def content_html(self) -> str:
        return "".join(f"<!--s:{s.key}-->{s.html}\n" for s in self.segments)

    def root_attrs(self, style: SiteStyle) -> dict[str, str]:
        return {
            "data-theme": "light",
            "data-layout": self.layout,
            "data-brochure-theme": self.theme,
            "style": style.root_style(self.theme),
        }

    def paper(self) -> str:
        return LAYOUT_PAPER.get(self.layout, "A4")


def _esc(value: str) -> str:
    return html.escape(value, quote=True)


def _key(kind: str, fragment: str) -> str:
    return hashlib.blake2b(f"{kind}\0{fragment}".encode(), digest_size=8).hexdigest()


def _truthy(value: str | None) -> bool:
    return (value or "").strip().strip("\"'").lower() == "true"


def _raw_box(title: str, raw: str, kind: str) -> str:
    body = _esc(raw) if raw.strip() else "&nbsp;"
    return (
        f'<div class="modu-raw-box" data-block="{kind}"><div class="modu-raw-title">'
        f'{_esc(title)}</div><pre class="modu-raw-body">{body}</pre></div>'
    )


def _block_html(block: Block, resolver: ImageResolver | None) -> tuple[str, str]:
    warning = ""
    if not block.closed:
        warning = (
            f'<p class="modu-warning">⚠ ‘:::{_esc(block.name)}’ 블록이 ‘:::’ 줄로 닫히지'
            " 않았습니다. 블록 끝에 ‘:::’ 한 줄을 넣어 주세요.</p>"
        )
    if block.kind == "admonition":
        return "admonition", warning + render_admonition(
            block.name, block.label, block.raw, resolver
        )
    if block.kind not in BLOCK_RENDERERS:
        title = f"알 수 없는 블록: :::{block.name}"
        return "unknown", warning + _raw_box(title, block.raw, "unknown")
    try:
        out = _site_block_html(block.name, block.raw, block.closed, block.label)
    except Exception:  # one broken block never breaks the preview
        return "error", warning + _raw_box(f":::{block.name}", block.raw, "error")
    if block.extra:
        out += _raw_box(f":::{block.name} 블록에서 읽지 못한 줄", "\n".join(block.extra), "extra")
    return block.kind, warning + out


@lru_cache(maxsize=4096)
def _site_block_html(name: str, raw: str, closed: bool, label: str) -> str:
    """A block's DOM with its values read as the site's remark plugin reads them (Markdown
    first: ``1:1`` loses its ``:1``, links keep their text, ``:smile:`` becomes 😄). Cached:
    while typing, only the edited block is read again."""
    body = block_body_text(raw)
    site = parse_block(name, body.split("\n"), closed=closed, label=label, unquote=False)
    return render_block(site)


def render_document(
    text: str,
    *,
    style: SiteStyle | None = None,
    theme: str | None = None,
    image_resolver: ImageResolver | None = None,
) -> RenderedDoc:
    """Render a brochure document into keyed segments. ``theme`` overrides the front matter."""
    style = style or default_style()
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    fm, body = split_front_matter(text)
    values = fm.values
    theme_name = style.theme_for(theme or values.get("theme"))
    layout = (values.get("layout") or "").strip() or DEFAULT_LAYOUT
    title = values.get("title", "")
    hide = _truthy(values.get("hide_title"))
    segs: list[Segment] = []
    body_line = fm.raw.count("\n") + 1 if fm.raw else 0  # where the body starts in ``text``
    parts = split_segments(body, unquote=False)  # the site shows block values as written
    title_part = _content_title_part(parts)
    if title and not hide and title_part is None:
        frag = f"<header><h1>{_esc(title)}</h1></header>"
        segs.append(Segment(_key("title", frag), frag, "title"))
    body_lines = body.count("\n") + 1
    for index, part in enumerate(parts):
        line = -1
        chunks: tuple[int, ...] = ()
        if isinstance(part, Block):
            kind, frag = _block_html(part, image_resolver)
            line = start = body_line + part.line
        else:
            frag = render_markdown(part, image_resolver)
            kind = "markdown"
            # Markdown lines run up to the next block's opener (or the end of the body).
            following = next((p.line for p in parts[index + 1 :] if isinstance(p, Block)), None)
            end = following if following is not None else body_lines
            start = body_line + end - (part.count("\n") + 1)
            chunks = tuple(start + c for c in markdown_chunks(part))
            if not frag:
                continue
        if index == title_part:
            frag = frag.replace("<h1>", "<header><h1>", 1).replace("</h1>", "</h1></header>", 1)
        segs.append(Segment(_key(kind, frag), frag, kind, line, start, chunks))
    return RenderedDoc(tuple(segs), theme_name, layout, title, hide)


def markdown_chunks(text: str) -> list[int]:
    """The first line (0-based, in ``text``) of each top-level Markdown part: a non-blank line
    after a blank one (or the first line), fenced code counting as one part."""
    starts: list[int] = []
    blank = True
    fence: str | None = None
    for i, line in enumerate(text.split("\n")):
        stripped = line.strip()
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped and blank:
            starts.append(i)
        if stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
        blank = not stripped
    return starts


def _content_title_part(parts: list[str | Block]) -> int | None:
    """Which part holds the page's content title: Docusaurus takes the first heading of the
    document (before any thematic break) when it is a level-1 heading, puts it in a
    ``<header>`` and then shows no title of its own."""
    for index, part in enumerate(parts):
        if isinstance(part, Block):
            if part.kind != "admonition":
                continue
            text = part.raw
        else:
            text = part
        found = (
            first_heading(text)
            if "#" in text or "-" in text or "=" in text or "*" in text or "_" in text
            else None
        )
        if found == "h1":
            return index
        if found is not None:
            return None
    return None


@lru_cache(maxsize=1)
def default_style() -> SiteStyle:
    return builtin_style()


@lru_cache(maxsize=8)
def _resource(name: str) -> str:
    return (RESOURCES / name).read_text("utf-8")


def print_css(paper: str) -> str:
    """Paper size for the site's print rules (they are written for A4)."""
    w, h = PAPER_MM.get(paper, PAPER_MM["A4"])
    return (
        f"@page {{ size: {w:g}mm {h:g}mm; margin: 0; }}\n"
        "@media print {\n"
        f"  html, body {{ width: {w:g}mm !important; }}\n"
        f"  .theme-doc-markdown {{ width: {w - 32:g}mm !important;"
        f" max-width: {w - 32:g}mm !important; }}\n"
        "  html, body { -webkit-print-color-adjust: exact; print-color-adjust: exact; }\n"
        "}\n"
    )


def _style_text(css: str) -> str:
    return css.replace("</", "<\\/")  # a stylesheet can never close its <style> element


def build_page(
    doc: RenderedDoc,
    style: SiteStyle | None = None,
    *,
    script: str | None = None,
    nonce: str | None = None,
    csp: str | None = None,
    paper: str | None = None,
    no_motion: bool = False,
    live: bool = False,
    font_url: str = FONT_BASE,
) -> str:
    """The whole HTML page. ``script``: our page code (the widget's), run with ``nonce`` under
    the ``csp`` policy; ``paper``: add print rules for that paper; ``no_motion``: switch off CSS
    animations and transitions; ``live``: the live preview's rendering shortcuts
    (``preview.css``: off-screen segments are skipped until they scroll into view);
    ``font_url``: where the shipped font files are (the preview widget serves them; empty: no
    font rules, for a saved page that embeds its own)."""
    style = style or default_style()
    attrs = " ".join(f'{k}="{_esc(v)}"' for k, v in doc.root_attrs(style).items() if v)
    sheets = [("infima", _resource("infima.min.css")), ("base", _resource("base.css"))]
    sheets += list(style.stylesheets)
    if font_url:
        sheets.append(("fonts", fonts_css(font_url)))
    if paper:
        sheets.append(("print", print_css(paper)))
    if no_motion:
        sheets.append(("no-motion", NO_MOTION_CSS))
    if live:
        sheets.append(("live", _resource("preview.css")))
    head = "".join(
        f'<style data-sheet="{_esc(name)}">{_style_text(css)}</style>' for name, css in sheets
    )
    nonce_attr = f' nonce="{_esc(nonce)}"' if nonce else ""
    js = f"<script{nonce_attr}>{script}</script>" if script else ""
    policy = f'<meta http-equiv="Content-Security-Policy" content="{_esc(csp)}">' if csp else ""
    title = _esc(doc.title)
    return (
        f'<!DOCTYPE html><html lang="ko" dir="ltr" class="docs-wrapper plugin-docs docs-doc-page" '
        f'{attrs}><head><meta charset="utf-8">{policy}<title>{title}</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1.0">'
        f"{head}</head><body>"
        '<div id="__docusaurus"><div class="theme-layout-main main-wrapper">'
        '<div class="docsWrapper"><div class="docRoot"><main class="docMainContainer">'
        '<div class="docItemWrapper"><div style="width:100%;max-width:100%">'
        '<div style="width:100%;max-width:100%"><article>'
        f'<div class="theme-doc-markdown markdown" id="modu-content">{doc.content_html()}</div>'
        "</article></div></div></div></main></div></div></div></div>"
        f"{js}</body></html>"
    )
