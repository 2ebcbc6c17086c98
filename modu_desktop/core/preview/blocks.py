"""HTML of the 17 brochure block components (18 directive names), as the site's React renders it.

Every function returns the DOM the site's component produces for the same props — the same
elements, class names and inline styles — so the repository's own ``blocks.css`` and
``custom.css`` apply to the preview exactly as they do on the site. Props come from
:mod:`modu_desktop.core.brochure.blocks` (which mirrors the site's remark plugin). Every value is
escaped;
nothing here emits script. The root element of each block carries ``data-block="kind"`` (an
attribute no stylesheet of the site matches) so tests and the live patcher can find it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from modu_desktop.core.brochure.blocks import Block
from modu_desktop.core.brochure.cells import ACCENT, BOLD, ITALIC, alignment, read_cell

__all__ = ["render_block", "BLOCK_RENDERERS", "BADGE_PALETTE"]


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


# The site passes link props straight to <a href>; only harmless schemes are kept here.
_SAFE_HREF = re.compile(r"^(https?:|mailto:|tel:|/|#|\./|\.\./|[A-Za-z0-9_-]+(/|$|\.|#))", re.I)


def safe_href(value: str | None) -> str | None:
    if not value:
        return None
    value = value.strip()
    if not _SAFE_HREF.match(value) or value.lower().startswith(
        ("javascript:", "data:", "vbscript:")
    ):
        return None
    return value


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() == "true"


def _js_number(value: str | None) -> int | None:
    """``Number(x)`` / ``parseInt(x)`` for the small column counts the components read."""
    m = re.match(r"^\s*(\d+)", value or "")
    return int(m.group(1)) if m else None


def _attr(block: Block) -> str:
    return f' data-block="{esc(block.kind)}"'


def _section_header(title: str, subtitle: str, *, big: bool | None) -> str:
    """``bb-section-header``: stats uses 15/38 px inline styles, cards/timeline 11.5/22 px,
    chapters/roadmap/badges none (``big=None``)."""
    if not (title or subtitle):
        return ""
    if big is None:
        sub = f'<span class="bb-section-subtitle">{esc(subtitle)}</span>' if subtitle else ""
        tit = f'<h3 class="bb-section-title">{esc(title)}</h3>' if title else ""
        return f'<div class="bb-section-header">{sub}{tit}</div>'
    sub_size, sub_mb, title_size = ("15px", "10px", "38px") if big else ("11.5px", "8px", "22px")
    sub = (
        f'<span class="bb-section-subtitle" style="font-size:{sub_size};font-weight:700;'
        f"letter-spacing:0.1em;text-transform:uppercase;display:inline-block;"
        f'margin-bottom:{sub_mb}">{esc(subtitle)}</span>'
        if subtitle
        else ""
    )
    tit = (
        f'<h3 class="bb-section-title" style="font-size:{title_size};font-weight:800;margin:0;'
        f'letter-spacing:-0.02em">{esc(title)}</h3>'
        if title
        else ""
    )
    return f'<div class="bb-section-header" style="margin-bottom:32px">{sub}{tit}</div>'


def _bullets(value: str | None) -> list[str]:
    return [b.strip() for b in (value or "").split("|") if b.strip()]


# -- 1. hero ---------------------------------------------------------------------------------
def _hero(b: Block) -> str:
    p = b.props
    badge, title, desc = p.get("badge", ""), p.get("title", ""), p.get("description", "")
    parts = ['<div class="bb-hero-content">']
    if badge:
        parts.append(
            f'<div class="bb-hero-badge"><span class="bb-hero-badge-dot"></span>{esc(badge)}</div>'
        )
    if title:
        parts.append(f'<h1 class="bb-hero-title">{esc(title)}</h1>')
    if desc:
        parts.append(f'<p class="bb-hero-desc">{esc(desc)}</p>')
    href = safe_href(p.get("buttonLink"))
    if p.get("buttonText") and p.get("buttonLink"):
        parts.append(
            f'<a href="{esc(href or "#")}" class="bb-hero-btn">{esc(p["buttonText"])}'
            '<svg width="16" height="16" viewBox="0 0 16 16" fill="none"><path d="M6 12L10 8L6 4"'
            ' stroke="currentColor" stroke-width="2.5" stroke-linecap="round"'
            ' stroke-linejoin="round"></path></svg></a>'
        )
    parts.append("</div>")
    return (
        f'<section class="bb-section bb-hero"{_attr(b)}><div class="bb-hero-deco"><span></span>'
        f"<span></span><span></span><span></span></div>{''.join(parts)}</section>"
    )


# -- 2. stats --------------------------------------------------------------------------------
def _stats(b: Block) -> str:
    cards = []
    for it in b.items:
        inner = ""
        if it.get("label"):
            inner += f'<div class="bb-stat-label">{esc(it["label"])}</div>'
        if it.get("value"):
            inner += f'<div class="bb-stat-value">{esc(it["value"])}</div>'
        sub = f'<div class="bb-stat-sub">{esc(it["sub"])}</div>' if it.get("sub") else ""
        cards.append(f'<div class="bb-stat-card"><div>{inner}</div>{sub}</div>')
    head = _section_header(b.props.get("title", ""), b.props.get("subtitle", ""), big=True)
    return (
        f'<section class="bb-section bb-stats-section"{_attr(b)}>{head}'
        f'<div class="bb-stats-grid">{"".join(cards)}</div></section>'
    )


# -- 3. cards --------------------------------------------------------------------------------
def _cards(b: Block) -> str:
    columns = b.props.get("columns") or "3"
    variant = b.props.get("variant") or "elevated"
    cards = []
    for it in b.items:
        inner = ""
        if it.get("icon"):
            inner += f'<div class="bb-card-icon">{esc(it["icon"])}</div>'
        if it.get("title"):
            inner += f'<h4 class="bb-card-title">{esc(it["title"])}</h4>'
        if it.get("description"):
            inner += f'<p class="bb-card-desc">{esc(it["description"])}</p>'
        cards.append(f'<div class="bb-card variant-{esc(variant)}">{inner}</div>')
    head = _section_header(b.props.get("title", ""), b.props.get("subtitle", ""), big=False)
    return (
        f'<section class="bb-section bb-cards-section"{_attr(b)}>{head}'
        f'<div class="bb-cards-grid cols-{esc(columns)}">{"".join(cards)}</div></section>'
    )


# -- 4. timeline -----------------------------------------------------------------------------
def _timeline(b: Block) -> str:
    steps = []
    for i, it in enumerate(b.items):
        accent = " accent-step" if _truthy(it.get("accent")) else " "
        body = ""
        if it.get("phase"):
            body += f'<div class="bb-timeline-phase">{esc(it["phase"])}</div>'
        if it.get("title"):
            body += f'<h4 class="bb-timeline-title">{esc(it["title"])}</h4>'
        if it.get("description"):
            body += f'<p class="bb-timeline-desc">{esc(it["description"])}</p>'
        steps.append(
            f'<div class="bb-timeline-step{accent}"><div class="bb-timeline-badge">{i + 1}</div>'
            f'<div class="bb-timeline-body">{body}</div></div>'
        )
    head = _section_header(b.props.get("title", ""), b.props.get("subtitle", ""), big=False)
    return (
        f'<section class="bb-section bb-timeline-section"{_attr(b)}>{head}'
        f'<div class="bb-timeline-flow">{"".join(steps)}</div></section>'
    )


# -- 5. quote --------------------------------------------------------------------------------
def _quote(b: Block) -> str:
    p = b.props
    accent = " accent-quote" if _truthy(p.get("accent")) else " "
    inner = '<div class="bb-quote-icon">“</div>'
    if p.get("text"):
        inner += f'<blockquote class="bb-quote-text">{esc(p["text"])}</blockquote>'
    if p.get("author") or p.get("role"):
        inner += '<div class="bb-quote-author">'
        if p.get("author"):
            inner += f'<span class="bb-quote-name">{esc(p["author"])}</span>'
        if p.get("role"):
            inner += f'<span class="bb-quote-role">{esc(p["role"])}</span>'
        inner += "</div>"
    return (
        f'<section class="bb-section" style="padding:0;background:transparent"{_attr(b)}>'
        f'<div class="bb-quote{accent}">{inner}</div></section>'
    )


# -- 6. cta ----------------------------------------------------------------------------------
def _cta(b: Block) -> str:
    p = b.props
    inner = ""
    if p.get("title"):
        inner += f'<h2 class="bb-cta-title">{esc(p["title"])}</h2>'
    if p.get("description"):
        inner += f'<p class="bb-cta-desc">{esc(p["description"])}</p>'
    if p.get("buttonText") and p.get("buttonLink"):
        href = safe_href(p.get("buttonLink")) or "#"
        inner += (
            f'<a href="{esc(href)}" class="bb-cta-btn">{esc(p["buttonText"])}'
            '<svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor"'
            ' stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round">'
            '<line x1="5" y1="12" x2="19" y2="12"></line>'
            '<polyline points="12 5 19 12 12 19"></polyline></svg></a>'
        )
    return f'<section class="bb-section bb-cta"{_attr(b)}>{inner}</section>'


# -- 7. chapters -----------------------------------------------------------------------------
def _chapters(b: Block) -> str:
    cols = _js_number(b.props.get("columns")) or 3
    cards = []
    for i, it in enumerate(b.items):
        inner = f'<div class="bb-chapter-num">{i + 1:02d}</div>'
        if it.get("category"):
            inner += f'<div class="bb-chapter-category">{esc(it["category"])}</div>'
        if it.get("title"):
            inner += f'<h4 class="bb-chapter-title">{esc(it["title"])}</h4>'
        if it.get("description"):
            inner += f'<p class="bb-chapter-desc">{esc(it["description"])}</p>'
        if it.get("link"):
            href = safe_href(it["link"]) or "#"
            inner += (
                f'<a href="{esc(href)}" class="bb-chapter-link">자세히 보기 '
                '<span aria-hidden="true">→</span></a>'
            )
        cards.append(f'<div class="bb-chapter-card">{inner}</div>')
    head = _section_header(b.props.get("title", ""), b.props.get("subtitle", ""), big=None)
    return (
        f'<section class="bb-section"{_attr(b)}>{head}'
        f'<div class="bb-chapters-grid cols-{cols}">{"".join(cards)}</div></section>'
    )


# -- 8. roadmap ------------------------------------------------------------------------------
def _roadmap(b: Block) -> str:
    phases = []
    for i, it in enumerate(b.items):
        head = f'<div class="bb-roadmap-phase-num">{i + 1}</div>'
        if it.get("phase"):
            head += f'<div class="bb-roadmap-phase-name">{esc(it["phase"])}</div>'
        inner = f'<div class="bb-roadmap-phase-header">{head}</div>'
        if it.get("title"):
            inner += f'<h4 class="bb-roadmap-title">{esc(it["title"])}</h4>'
        bullets = _bullets(it.get("bullets"))
        if bullets:
            lis = "".join(f"<li>{esc(x)}</li>" for x in bullets)
            inner += f'<ul class="bb-roadmap-bullets">{lis}</ul>'
        phases.append(f'<div class="bb-roadmap-phase">{inner}</div>')
    head = _section_header(b.props.get("title", ""), b.props.get("subtitle", ""), big=None)
    return (
        f'<section class="bb-section"{_attr(b)}>{head}'
        f'<div class="bb-roadmap-track">{"".join(phases)}</div></section>'
    )


# -- 9. badges -------------------------------------------------------------------------------
BADGE_PALETTE = (
    ("#6366f1", "#4f46e5"),
    ("#0ea5e9", "#0284c7"),
    ("#10b981", "#059669"),
    ("#f59e0b", "#d97706"),
    ("#ef4444", "#dc2626"),
    ("#8b5cf6", "#7c3aed"),
    ("#ec4899", "#db2777"),
    ("#14b8a6", "#0d9488"),
)


def _badges(b: Block) -> str:
    dark = " bb-badges-dark" if _truthy(b.props.get("dark")) else ""
    items = []
    for i, it in enumerate(b.items):
        c1, c2 = BADGE_PALETTE[i % len(BADGE_PALETTE)]
        label = f'<div class="bb-badge-label">{esc(it["label"])}</div>' if it.get("label") else ""
        items.append(
            f'<div class="bb-badge-item"><div class="bb-badge-letter" style="background:'
            f'linear-gradient(135deg, {c1}, {c2})">{esc(it.get("letter", ""))}</div>{label}</div>'
        )
    head = _section_header(b.props.get("title", ""), b.props.get("subtitle", ""), big=None)
    return (
        f'<section class="bb-section bb-badges-section{dark}"{_attr(b)}>{head}'
        f'<div class="bb-badges-grid">{"".join(items)}</div></section>'
    )


# -- 10. chapter-header ----------------------------------------------------------------------
def _chapter_header(b: Block) -> str:
    p = b.props
    left = ""
    chapter = p.get("chapter", "")
    if chapter:
        left += f'<span class="bb-chapter-header-badge">CHAPTER {esc(chapter.rjust(2, "0"))}</span>'
    if p.get("label"):
        left += f'<span class="bb-chapter-header-label">{esc(p["label"])}</span>'
    right = ""
    if p.get("title"):
        right += f'<h2 class="bb-chapter-header-title">{esc(p["title"])}</h2>'
    if p.get("subtitle"):
        right += f'<p class="bb-chapter-header-subtitle">{esc(p["subtitle"])}</p>'
    return (
        f'<div class="bb-chapter-header"{_attr(b)}><div class="bb-chapter-header-left">{left}</div>'
        f'<div class="bb-chapter-header-divider"></div>'
        f'<div class="bb-chapter-header-right">{right}</div></div>'
    )


# -- 11. kpi ---------------------------------------------------------------------------------
def _kpi(b: Block) -> str:
    p = b.props
    head = ""
    if p.get("title") or p.get("subtitle"):
        head = '<div class="bb-kpi-header">'
        if p.get("subtitle"):
            head += f'<span class="bb-kpi-sup">{esc(p["subtitle"])}</span>'
        if p.get("title"):
            head += f'<span class="bb-kpi-title">{esc(p["title"])}</span>'
        head += "</div>"
    n = len(b.items)
    cells = []
    for i, it in enumerate(b.items):
        border = "1px solid #e8f0fc" if i < n - 1 else "none"
        sub = f'<div class="bb-kpi-sub">{esc(it["sub"])}</div>' if it.get("sub") else ""
        cells.append(
            f'<div class="bb-kpi-cell" style="border-right:{border}">'
            f'<div class="bb-kpi-label">{esc(it.get("label", ""))}</div>'
            f'<div class="bb-kpi-value">{esc(it.get("value", ""))}</div>{sub}</div>'
        )
    return (
        f'<div class="bb-kpi-wrap"{_attr(b)}>{head}<div class="bb-kpi-row" style="'
        f'grid-template-columns:repeat({n}, 1fr)">{"".join(cells)}</div></div>'
    )


# -- 12. strategy ----------------------------------------------------------------------------
def _strategy(b: Block) -> str:
    p = b.props
    head = '<div class="bb-strategy-header">'
    if p.get("subtitle"):
        head += f'<div class="bb-strategy-sup">{esc(p["subtitle"])}</div>'
    if p.get("title"):
        head += f'<div class="bb-strategy-title">{esc(p["title"])}</div>'
    head += "</div>"
    cards = []
    for it in b.items:
        inner = ""
        if it.get("letter"):
            inner += f'<div class="bb-strategy-letter">{esc(it["letter"])}</div>'
        if it.get("title"):
            inner += f'<div class="bb-strategy-card-title">{esc(it["title"])}</div>'
        if it.get("desc"):
            inner += f'<div class="bb-strategy-card-desc">{esc(it["desc"])}</div>'
        cards.append(f'<div class="bb-strategy-card">{inner}</div>')
    return (
        f'<div class="bb-strategy-wrap"{_attr(b)}>{head}<div class="bb-strategy-grid" style="'
        f'grid-template-columns:repeat({len(b.items)}, 1fr)">{"".join(cards)}</div></div>'
    )


# -- 13. alphagrid ---------------------------------------------------------------------------
def _alphagrid(b: Block) -> str:
    p = b.props
    cols = _js_number(p.get("columns")) or 4
    head = ""
    if p.get("title") or p.get("subtitle"):
        head = '<div class="bb-alphagrid-header">'
        if p.get("subtitle"):
            head += f'<div class="bb-alphagrid-sup">{esc(p["subtitle"])}</div>'
        if p.get("title"):
            head += f'<div class="bb-alphagrid-title">{esc(p["title"])}</div>'
        head += "</div>"
    items = []
    for it in b.items:
        letter = (
            f'<div class="bb-alphagrid-letter">{esc(it["letter"])}</div>'
            if it.get("letter")
            else ""
        )
        text = ""
        if it.get("label"):
            text += f'<div class="bb-alphagrid-label">{esc(it["label"])}</div>'
        if it.get("sub"):
            text += f'<div class="bb-alphagrid-sub">{esc(it["sub"])}</div>'
        items.append(
            f'<div class="bb-alphagrid-item">{letter}'
            f'<div class="bb-alphagrid-text">{text}</div></div>'
        )
    return (
        f'<div class="bb-alphagrid-wrap"{_attr(b)}>{head}<div class="bb-alphagrid-grid" style="'
        f'grid-template-columns:repeat({cols}, 1fr)">{"".join(items)}</div></div>'
    )


# -- 14. panel -------------------------------------------------------------------------------
def _panel_bar(header: str, sub: str, *, dark: bool = False) -> str:
    if not (header or sub):
        return ""
    cls = "bb-panel-bar bb-panel-bar-dark" if dark else "bb-panel-bar"
    out = f'<div class="{cls}">'
    if sub:
        out += f'<span class="bb-panel-bar-sub">{esc(sub)}</span>'
    if header:
        out += f'<span class="bb-panel-bar-title">{esc(header)}</span>'
    return out + "</div>"


def _panel(b: Block) -> str:
    p = b.props
    cols = _js_number(p.get("columns")) or 3
    bar = _panel_bar(p.get("header", ""), p.get("headersub", ""), dark=_truthy(p.get("dark")))
    cells = []
    for i, it in enumerate(b.items):
        col, row = i % cols, i // cols
        right = "1px solid #e8f0fc" if col < cols - 1 else "none"
        top = "1px solid #e8f0fc" if row > 0 else "none"
        head = ""
        if it.get("icon"):
            head += f'<span class="bb-panel-icon">{esc(it["icon"])}</span>'
        if it.get("title"):
            head += f'<span class="bb-panel-cell-title">{esc(it["title"])}</span>'
        inner = f'<div class="bb-panel-cell-top">{head}</div>'
        bullets = _bullets(it.get("items"))
        if bullets:
            inner += (
                '<ul class="bb-panel-bullets">'
                + "".join(f"<li>{esc(x)}</li>" for x in bullets)
                + "</ul>"
            )
        if it.get("desc"):
            inner += f'<p class="bb-panel-desc">{esc(it["desc"])}</p>'
        cells.append(
            f'<div class="bb-panel-cell" style="border-right:{right};border-top:{top}">'
            f"{inner}</div>"
        )
    return (
        f'<div class="bb-panel-wrap"{_attr(b)}>{bar}<div class="bb-panel-grid" style="'
        f'grid-template-columns:repeat({cols}, 1fr)">{"".join(cells)}</div></div>'
    )


# -- 15. stepper -----------------------------------------------------------------------------
def _stepper(b: Block) -> str:
    p = b.props
    bar = _panel_bar(p.get("header", ""), p.get("headersub", ""))
    n = len(b.items)
    cells = []
    for i, it in enumerate(b.items):
        border = "1px solid var(--theme-border, #e8f0fc)" if i < n - 1 else "none"
        phase = it.get("phase") or f"{i + 1}단계"
        row = f'<span class="bb-stepper-badge">{esc(phase)}</span>'
        if it.get("period"):
            row += f'<span class="bb-stepper-period">{esc(it["period"])}</span>'
        inner = f'<div class="bb-stepper-badge-row">{row}</div>'
        if it.get("title"):
            inner += f'<div class="bb-stepper-title">{esc(it["title"])}</div>'
        bullets = _bullets(it.get("items"))
        if bullets:
            inner += (
                '<ul class="bb-panel-bullets">'
                + "".join(f"<li>{esc(x)}</li>" for x in bullets)
                + "</ul>"
            )
        cells.append(f'<div class="bb-stepper-cell" style="border-right:{border}">{inner}</div>')
    return (
        f'<div class="bb-stepper-wrap"{_attr(b)}>{bar}<div class="bb-stepper-grid" style="'
        f'grid-template-columns:repeat({n}, 1fr)">{"".join(cells)}</div></div>'
    )


# -- 16. split -------------------------------------------------------------------------------
def _split_list(items: list[dict[str, str]]) -> str:
    out = []
    for it in items:
        num = f'<div class="bb-split-list-num">{esc(it["num"])}</div>' if it.get("num") else ""
        text = ""
        if it.get("title"):
            text += f'<div class="bb-split-list-title">{esc(it["title"])}</div>'
        if it.get("desc"):
            text += f'<div class="bb-split-list-desc">{esc(it["desc"])}</div>'
        out.append(f'<div class="bb-split-list-item">{num}<div>{text}</div></div>')
    return f'<div class="bb-split-list">{"".join(out)}</div>'


def _light_panel(sub: str, header: str, items: list[dict[str, str]]) -> str:
    out = '<div class="bb-split-light-panel">'
    if sub:
        out += f'<div class="bb-split-light-sup">{esc(sub)}</div>'
    if header:
        out += f'<div class="bb-split-light-title">{esc(header)}</div>'
    return out + _split_list(items) + "</div>"


def _split(b: Block) -> str:
    p = b.props
    left_sub, left_header = p.get("left-sub", ""), p.get("left-header", "")
    if _truthy(p.get("left-dark")):
        cells = []
        for it in b.left:
            inner = ""
            if it.get("label"):
                inner += f'<div class="bb-split-stat-label">{esc(it["label"])}</div>'
            if it.get("value"):
                inner += f'<div class="bb-split-stat-value">{esc(it["value"])}</div>'
            if it.get("desc"):
                inner += f'<div class="bb-split-stat-desc">{esc(it["desc"])}</div>'
            cells.append(f'<div class="bb-split-stat-cell">{inner}</div>')
        left = '<div class="bb-split-dark-panel">'
        if left_sub:
            left += f'<div class="bb-split-dark-sup">{esc(left_sub)}</div>'
        if left_header:
            left += f'<div class="bb-split-dark-title">{esc(left_header)}</div>'
        left += (
            f'<div class="bb-split-stat-grid" style="grid-template-columns:repeat('
            f'{min(len(b.left), 3)}, 1fr)">{"".join(cells)}</div></div>'
        )
    else:
        left = _light_panel(left_sub, left_header, b.left)
    right = _light_panel(p.get("right-sub", ""), p.get("right-header", ""), b.right)
    return (
        f'<div class="bb-split-wrap"{_attr(b)}><div class="bb-split-left">{left}</div>'
        f'<div class="bb-split-right">{right}</div></div>'
    )


# -- 17. datatable ---------------------------------------------------------------------------
_DT_TAGS = {
    BOLD: ('<strong class="bb-dt-bold">', "</strong>"),
    ACCENT: ('<span class="bb-dt-accent">', "</span>"),
    ITALIC: ("<em>", "</em>"),
}


def _dt_cell(text: str) -> str:
    out = []
    for run in read_cell(text):
        opening, closing = _DT_TAGS.get(run.style, ("", ""))
        out.append(f"{opening}{esc(run.text)}{closing}")
    return "".join(out)


def _datatable(b: Block) -> str:
    p = b.props
    cols = [c.strip() for c in (p.get("columns") or "").split("|") if c.strip()]
    aligns = [a.strip() for a in (p.get("align") or "").split("|")]

    def align(i: int) -> str:
        return alignment(aligns[i]) if i < len(aligns) else "left"

    bar = _panel_bar(p.get("header", ""), p.get("headersub", ""))
    thead = ""
    if cols:
        ths = "".join(
            f'<th style="text-align:{align(i)}">{esc(c)}</th>' for i, c in enumerate(cols)
        )
        thead = f"<thead><tr>{ths}</tr></thead>"
    rows = []
    for raw in b.rows:
        cells = [c.strip() for c in raw.split("|")]
        width = len(cols) if cols else len(cells)
        tds = "".join(
            f'<td style="text-align:{align(ci)}">{_dt_cell(cells[ci] if ci < len(cells) else "")}'
            "</td>"
            for ci in range(width)
        )
        rows.append(f"<tr>{tds}</tr>")
    note = f'<p class="bb-datatable-note">{esc(p["note"])}</p>' if p.get("note") else ""
    return (
        f'<div class="bb-datatable-wrap"{_attr(b)}>{bar}<div class="bb-datatable-body">'
        f'<table class="bb-datatable">{thead}<tbody>{"".join(rows)}</tbody></table>'
        f"{note}</div></div>"
    )


BLOCK_RENDERERS: dict[str, Callable[[Block], str]] = {
    "hero": _hero,
    "stats": _stats,
    "cards": _cards,
    "timeline": _timeline,
    "quote": _quote,
    "cta": _cta,
    "chapters": _chapters,
    "roadmap": _roadmap,
    "badges": _badges,
    "chapter-header": _chapter_header,
    "kpi": _kpi,
    "strategy": _strategy,
    "alphagrid": _alphagrid,
    "panel": _panel,
    "stepper": _stepper,
    "split": _split,
    "datatable": _datatable,
}


def render_block(block: Block) -> str:
    """The site's DOM for one known block (``block.kind`` in :data:`BLOCK_RENDERERS`)."""
    return BLOCK_RENDERERS[block.kind](block)
