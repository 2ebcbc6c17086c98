"""Markdown runs of a brochure page → safe HTML, with the site's MDX components (Qt-free).

The text is read by :func:`~modu_desktop.core.preview.markdown.site_markdown` (the site's own
dialect: CommonMark, GFM and MDX's differences) and written out as the site's DOM; raw HTML in
it goes through :func:`~modu_desktop.core.preview.sanitize.sanitize_html` (nh3). The site's
block-level MDX components (``<Callout>``, ``<Details>``, ``<Columns>``/``<Col>``,
``<StepList>``/``<StepItem>``) and the inline ``<Highlight>`` become the DOM their React
components render; they are put in after sanitising, from our own templates, so a document
can never smuggle markup through them. Docusaurus admonitions (``:::tip[Title]``) render as
Docusaurus renders them.
"""

from __future__ import annotations

import html
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from modu_desktop.core.preview.images import (
    MISSING_IMAGE_PLACEHOLDER,
    REMOTE_IMAGE_PLACEHOLDER,
    ImageResolver,
    resolve_image,
)
from modu_desktop.core.preview.markdown import site_markdown
from modu_desktop.core.preview.sanitize import sanitize_html

__all__ = ["render_markdown", "render_admonition", "clear_markdown_cache"]


def esc(value: str) -> str:
    return html.escape(value, quote=True)


# -- the site's DOM for what remark-gfm and Docusaurus produce -------------------------------
Rule = Callable[[RendererHTML, Sequence[Token], int, OptionsDict, EnvType], str]


def _strike(tokens: Sequence[Token], idx: int) -> str:
    return "<del>" if tokens[idx].nesting == 1 else "</del>"


def _text_directive(tokens: Sequence[Token], idx: int) -> str:
    """Docusaurus writes a bare text directive (``:1`` of ``1:1``) back as text; one with a
    label or attributes is an unknown node, which becomes a ``div`` of its label."""
    meta = tokens[idx].meta
    if meta.get("simple", True):
        return esc(":" + meta["name"])
    return f"<div>{esc(meta.get('label', ''))}</div>"


def _footnote_ref(tokens: Sequence[Token], idx: int) -> str:
    meta = tokens[idx].meta
    label, number = esc(str(meta.get("label") or meta["id"] + 1)), meta["id"] + 1
    return (
        f'<sup><a href="#user-content-fn-{label}" id="user-content-fnref-{label}" '
        'class="anchorTargetStickyNavbar" '
        f'data-footnote-ref="true" aria-describedby="footnote-label">{number}</a></sup>'
    )


def _footnote_block_open(tokens: Sequence[Token], idx: int) -> str:
    return (
        '<section data-footnotes="true" class="footnotes"><h2 id="footnote-label">Footnotes</h2>'
        "\n<ol>\n"
    )


def _footnote_open(tokens: Sequence[Token], idx: int) -> str:
    meta = tokens[idx].meta
    label = esc(str(meta.get("label") or meta["id"] + 1))
    return f'<li class="anchorTargetStickyNavbar" id="user-content-fn-{label}">'


def _footnote_anchor(tokens: Sequence[Token], idx: int) -> str:
    meta = tokens[idx].meta
    label, number = esc(str(meta.get("label") or meta["id"] + 1)), meta["id"] + 1
    return (
        f' <a href="#user-content-fnref-{label}" data-footnote-backref="" '
        f'aria-label="Back to reference {number}" class="data-footnote-backref">↩</a>'
    )


def _heading_open(tokens: Sequence[Token], idx: int) -> str:
    tok = tokens[idx]
    if tok.tag == "h1":  # Docusaurus gives h1 neither id nor anchor
        return "<h1>"
    return f'<{tok.tag} id="{esc(str(tok.attrs.get("id", "")))}">'


def _list_item_open(tokens: Sequence[Token], idx: int) -> str:
    tok = tokens[idx]
    if tok.meta and "checked" in tok.meta:
        checked = " checked" if tok.meta["checked"] else ""
        return f'<li class="task-list-item"><input type="checkbox" disabled{checked}> '
    return "<li>"


_SIMPLE_RULES: dict[str, Callable[[Sequence[Token], int], str]] = {
    "s_open": _strike,
    "s_close": _strike,
    "text_directive": _text_directive,
    "footnote_ref": _footnote_ref,
    "footnote_block_open": _footnote_block_open,
    "footnote_block_close": lambda _t, _i: "</ol>\n</section>\n",
    "footnote_open": _footnote_open,
    "footnote_close": lambda _t, _i: "</li>\n",
    "footnote_anchor": _footnote_anchor,
    "heading_open": _heading_open,
    "list_item_open": _list_item_open,
}


def _renderer() -> RendererHTML:
    renderer = getattr(_local, "renderer", None)
    if renderer is None:
        renderer = RendererHTML()
        for name, rule in _SIMPLE_RULES.items():

            def bound(
                _self: RendererHTML,
                tokens: Sequence[Token],
                idx: int,
                _options: OptionsDict,
                _env: EnvType,
                rule: Callable[[Sequence[Token], int], str] = rule,
            ) -> str:
                return rule(tokens, idx)

            renderer.rules[name] = bound.__get__(renderer)
        _local.renderer = renderer
    return renderer


_local = threading.local()
_TASK_LIST_RE = re.compile(r'<ul class="contains-task-list">')


def markdown_html(text: str, *, inline: bool = False) -> str:
    """The site's reading of ``text`` as (unsanitised) HTML."""
    md = site_markdown()
    env: dict[str, object] = {}
    tokens = md.parseInline(text, env) if inline else md.parse(text, env)
    out = _renderer().render(tokens, md.options, env)
    if "contains-task-list" in out:
        out = _TASK_LIST_RE.sub('<ul class="contains-task-list containsTaskList">', out)
    return out


# -- MDX components --------------------------------------------------------------------------
_MDX_OPEN_RE = re.compile(
    r"^\s*<(Callout|Details|Columns|Col|Column|StepList|StepItem)((?:\s+[^<>]*)?)>\s*$"
)
_MDX_CLOSE_RE = re.compile(r"^\s*</(Callout|Details|Columns|Col|Column|StepList|StepItem)>\s*$")
_ATTR_RE = re.compile(
    r"""([A-Za-z_][\w-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|\{"([^"]*)"\}|([^\s"'>]+)))?"""
)
_FENCE_RE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_INLINE_RE = re.compile(r"<(Text|HeroButton|Highlight)((?:\s+[^<>]*)?)>(.*?)</\1>")
# A line that is one component and nothing else is an MDX *flow* element: no paragraph.
_FLOW_RE = re.compile(
    r"^\s{0,3}<(Text|HeroButton|Highlight|Callout|Details)((?:\s+[^<>]*)?)>(.*)</\1>\s*$"
)
_SIZE_RE = re.compile(r"^\d{1,3}(\.\d+)?(px|rem|em|%|pt)?$")
_WEIGHT_RE = re.compile(r"^([1-9]00|bold|normal)$")
_FAMILIES = {
    "noto": "var(--font-noto)",
    "pretendard": "var(--font-pretendard)",
    "gmarket": "var(--font-gmarket)",
    "nanum": "var(--font-nanum)",
}
_COLOR_RE = re.compile(r"^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\(\s*[\d.,%\s]+\))$")

# Callout types as the site's component defines them: (icon, colour, background, border).
_CALLOUT = {
    "info": ("ℹ️", "#0b1f45", "#eef4ff", "#d8e4f4"),
    "success": ("✅", "#115e59", "#f0fdf4", "#bbf7d0"),
    "warning": ("⚠️", "#92400e", "#fffbeb", "#fde68a"),
    "danger": ("🚨", "#991b1b", "#fef2f2", "#fecaca"),
}


def _parse_attrs(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _ATTR_RE.finditer(text or ""):
        groups = [g for g in m.group(2, 3, 4, 5) if g is not None]
        out[m.group(1).lower()] = groups[0] if groups else "true"
    return out


def _mdx_html(name: str, attrs: dict[str, str]) -> tuple[str, str]:
    """(opening HTML, closing HTML) of one component, as its React code renders it."""
    if name == "callout":
        icon, color, bg, border = _CALLOUT.get(attrs.get("type", "info"), _CALLOUT["info"])
        title = attrs.get("title", "")
        head = (
            f'<div style="font-weight:800;margin-bottom:4px;font-size:1rem">{esc(title)}</div>'
            if title
            else ""
        )
        return (
            f'<div style="padding:16px 20px;border-radius:12px;border:1px solid {border};'
            f"background-color:{bg};color:{color};margin-bottom:20px;display:flex;gap:12px;"
            f'align-items:flex-start"><div style="font-size:1.2rem;line-height:1">{icon}</div>'
            f'<div style="flex:1">{head}<div style="font-size:0.95rem;line-height:1.6;'
            f'opacity:0.9">',
            "</div></div></div>",
        )
    if name == "details":
        summary = attrs.get("summary") or "상세 보기"
        return (
            '<details style="border:1px solid #d8e4f4;border-radius:12px;background-color:#fff;'
            'margin-bottom:16px;overflow:hidden;transition:all 0.2s ease"><summary style="'
            "padding:16px 20px;font-weight:700;cursor:pointer;background-color:#f5f8ff;"
            "list-style:none;display:flex;justify-content:space-between;align-items:center;"
            f'color:#0b1f45"><span>{esc(summary)}</span><span style="font-size:0.8rem;'
            'opacity:0.5">▼</span></summary><div style="padding:20px;border-top:1px solid '
            '#d8e4f4;font-size:0.95rem;line-height:1.7;color:#445577">',
            "</div></details>",
        )
    if name == "columns":
        gap = attrs.get("gap", "32px")
        if not re.match(r"^\d{1,3}(px|rem|em)?$", gap):
            gap = "32px"
        return (
            f'<div style="display:flex;flex-wrap:wrap;gap:{gap};margin:2.5rem 0;'
            'align-items:stretch">',
            "</div>",
        )
    if name in ("col", "column"):
        return (
            '<div style="flex:1 1 300px;min-width:0;display:flex;flex-direction:column"><div>',
            "</div></div>",
        )
    if name == "steplist":
        return '<div style="margin:30px 0;display:flex;flex-direction:column;gap:16px">', "</div>"
    # stepitem
    step, title = attrs.get("step", ""), attrs.get("title", "")
    return (
        '<div style="display:flex;gap:20px;align-items:flex-start"><div style="min-width:36px;'
        "height:36px;border-radius:50%;background-color:#1651c8;color:white;display:flex;"
        "align-items:center;justify-content:center;font-weight:900;font-size:0.9rem;"
        f'flex-shrink:0;margin-top:4px;box-shadow:0 4px 10px rgba(22, 81, 200, 0.2)">{esc(step)}'
        '</div><div style="flex:1;padding-bottom:16px;border-bottom:1px solid #f0f4f8">'
        '<h4 style="margin:0 0 8px 0;font-size:1.1rem;font-weight:800;color:#0b1f45">'
        f'{esc(title)}</h4><div style="color:#667799;font-size:0.95rem;line-height:1.6">',
        "</div></div></div>",
    )


def _inline_tags(name: str, attrs: dict[str, str]) -> tuple[str, str]:
    """(opening, closing) HTML of ``<Highlight color>``, ``<Text size weight color family
    display>`` or ``<HeroButton href outline>``, as the site's components render them; any
    value we cannot vouch for is left out."""
    if name == "Highlight":
        color = attrs.get("color", "").strip()
        if not _COLOR_RE.match(color):
            color = "#2563eb"
        return (
            f'<span style="background-color:{color};border-radius:4px;color:#fff;'
            'padding:2px 6px;font-weight:bold">',
            "</span>",
        )
    if name == "Text":
        style = []
        size = attrs.get("size", "")
        if _SIZE_RE.match(size):
            style.append(
                f"font-size:{size}px" if size.replace(".", "").isdigit() else f"font-size:{size}"
            )
        if _WEIGHT_RE.match(attrs.get("weight", "")):
            style.append(f"font-weight:{attrs['weight']}")
        if _COLOR_RE.match(attrs.get("color", "")):
            style.append(f"color:{attrs['color']}")
        family = attrs.get("family", "")
        if family in _FAMILIES:
            style.append(f"font-family:{_FAMILIES[family]}")
        display = attrs.get("display", "inline-block")
        if display not in ("inline", "inline-block", "block"):
            display = "inline-block"
        style += [f"display:{display}", "line-height:1.4"]
        return f'<span style="{";".join(style)}">', "</span>"
    from modu_desktop.core.preview.blocks import safe_href

    href = safe_href(attrs.get("href")) or "#"
    base = (
        "display:inline-block;padding:12px 24px;border-radius:8px;font-weight:bold;"
        "text-decoration:none;transition:all 0.2s ease;margin-top:10px;margin-bottom:10px"
    )
    look = (
        "border:2px solid #2563eb;color:#2563eb;background-color:transparent"
        if "outline" in attrs
        else "background-color:#2563eb;color:#fff"
    )
    return f'<a href="{esc(href)}" style="{base};{look}" class="hero-button">', "</a>"


def _inline_html(text: str) -> str:
    """Phrasing content (a component's children on one line): Markdown inline, sanitised."""
    return sanitize_html(markdown_html(text.strip(), inline=True), image_src=lambda _src: None)


def _key(nonce: str, store: dict[str, str], frag: str) -> str:
    key = f"MODUPH{nonce}N{len(store)}X"
    store[key] = frag
    return key


def _inline_line(line: str, nonce: str, store: dict[str, str]) -> str:
    """Inline components of one line, outside its `code spans`, become placeholders."""
    parts = re.split(r"(`+[^`]*`+)", line)
    for i in range(0, len(parts), 2):

        def repl(m: re.Match[str]) -> str:
            opening, closing = _inline_tags(m.group(1), _parse_attrs(m.group(2)))
            return f"{_key(nonce, store, opening)}{m.group(3)}{_key(nonce, store, closing)}"

        parts[i] = _INLINE_RE.sub(repl, parts[i])
    return "".join(parts)


def _preprocess_mdx(text: str, nonce: str) -> tuple[str, dict[str, str]]:
    """Replace whole-line MDX component tags by placeholders (filled in after sanitising)."""
    placeholders: dict[str, str] = {}
    if "<" not in text:
        return text, placeholders
    lines = _one_line_components(text, nonce, placeholders)
    return _component_blocks(lines, nonce, placeholders), placeholders


def _one_line_components(text: str, nonce: str, placeholders: dict[str, str]) -> list[str]:
    """A component opened and closed on one line becomes one placeholder line; other tags in
    a line become inline placeholders. Fenced code is left alone."""
    lines: list[str] = []
    in_fence: str | None = None
    for line in text.split("\n"):
        if in_fence is not None:
            if line.strip().startswith(in_fence):
                in_fence = None
            lines.append(line)
            continue
        fm0 = _FENCE_RE.match(line)
        if fm0:
            in_fence = fm0.group(1)
            lines.append(line)
            continue
        m = _FLOW_RE.match(line)
        if m and "</" + m.group(1) not in m.group(3) and "<" + m.group(1) not in m.group(3):
            name, attrs = m.group(1), _parse_attrs(m.group(2))
            if name in ("Callout", "Details"):
                opening, closing = _mdx_html(name.lower(), attrs)
            else:
                opening, closing = _inline_tags(name, attrs)
            inner = _inline_html(_inline_line(m.group(3), nonce, placeholders))
            for key, frag in list(placeholders.items()):
                inner = inner.replace(key, frag)
            lines.extend(["", _key(nonce, placeholders, opening + inner + closing), ""])
        elif "<" in line:
            lines.append(_inline_line(line, nonce, placeholders))
        else:
            lines.append(line)
    return lines


def _component_blocks(lines: list[str], nonce: str, placeholders: dict[str, str]) -> str:
    """A component whose opening and closing tags stand on lines of their own: both lines
    become placeholders, and its indented content is not read as code."""
    tokens: list[tuple[int, str, dict[str, str], bool]] = []
    fence: str | None = None
    for idx, line in enumerate(lines):
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        fm = _FENCE_RE.match(line)
        if fm:
            fence = fm.group(1)
            continue
        mo = _MDX_OPEN_RE.match(line)
        if mo:
            tokens.append((idx, mo.group(1).lower(), _parse_attrs(mo.group(2)), True))
            continue
        mc = _MDX_CLOSE_RE.match(line)
        if mc:
            tokens.append((idx, mc.group(1).lower(), {}, False))
    if not tokens:
        return "\n".join(lines)
    pairs: dict[int, int] = {}
    stack: list[tuple[int, str]] = []
    for pos, (_line, name, _attrs, is_open) in enumerate(tokens):
        if is_open:
            stack.append((pos, name))
        elif stack and stack[-1][1] == name:
            pairs[stack.pop()[0]] = pos
    replace: dict[int, str] = {}
    for open_pos, close_pos in pairs.items():
        o_line, name, attrs, _ = tokens[open_pos]
        c_line = tokens[close_pos][0]
        html_open, html_close = _mdx_html(name, attrs)
        for line_no, frag in ((o_line, html_open), (c_line, html_close)):
            key = f"MODUMDX{nonce}X{line_no}X"
            placeholders[key] = frag
            replace[line_no] = key
    inside: set[int] = set()
    for open_pos, close_pos in pairs.items():
        inside.update(range(tokens[open_pos][0] + 1, tokens[close_pos][0]))
    out: list[str] = []
    for idx, line in enumerate(lines):
        if idx in replace:
            out.extend(["", replace[idx], ""])
        elif idx in inside and line.startswith("  "):
            out.append(line[2:])  # indented component content is not a code block
        else:
            out.append(line)
    return "\n".join(out)


# -- images ----------------------------------------------------------------------------------
_FAILED = "modu-img:failed/"
_FAILED_IMG_RE = re.compile(r"<img([^>]*?)\ssrc=\"modu-img:failed/(remote|missing)\"([^>]*)>")
_ALT_RE = re.compile(r'\salt="([^"]*)"')


def _image_src(resolver: ImageResolver | None) -> Callable[[str], str | None]:
    def image_src(src: str) -> str | None:
        url, reason = resolve_image(html.unescape(src), resolver)
        return url if url is not None else _FAILED + reason

    return image_src


def _placeholder(m: re.Match[str]) -> str:
    alt_m = _ALT_RE.search(m.group(1) + m.group(3))
    alt = html.unescape(alt_m.group(1)) if alt_m else ""
    label = REMOTE_IMAGE_PLACEHOLDER if m.group(2) == "remote" else MISSING_IMAGE_PLACEHOLDER
    text = f"{label}: {alt}" if alt else label
    return f'<span class="modu-img-placeholder" role="img">{esc(text)}</span>'


# -- Docusaurus DOM for code blocks and headings ---------------------------------------------
_PRE_RE = re.compile(r'<pre><code(?: class="language-([^"\s]+)")?>(.*?)</code></pre>', re.S)
_HEADING_RE = re.compile(r'<h([2-6])(?: id="([^"]*)")?>(.*?)</h\1>', re.S)
_TAG_RE = re.compile(r"<[^>]+>")


def _code_block(m: re.Match[str]) -> str:
    """A fenced code block as Docusaurus (prism-react-renderer, light theme) renders it; no
    syntax colouring, one ``token-line`` per line."""
    lang = m.group(1) or "text"
    lines = m.group(2).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    rows = []
    for line in lines:
        plain = (
            f'<span class="token plain">{line}</span>'
            if line
            else '<span class="token plain" style="display:inline-block"></span>'
        )
        rows.append(f'<div class="token-line" style="color:#393A34">{plain}<br></div>')
    return (
        f'<div class="language-{lang} codeBlockContainer theme-code-block" style="--prism-color:'
        '#393A34;--prism-background-color:#f6f8fa"><div class="codeBlockContent"><pre tabindex="0"'
        f' class="prism-code language-{lang} codeBlock thin-scrollbar" style="color:#393A34;'
        f'background-color:#f6f8fa"><code class="codeBlockLines">{"".join(rows)}</code></pre>'
        "</div></div>"
    )


def slug(text: str) -> str:
    """Heading ids like github-slugger (Docusaurus): lower case, no punctuation, - for spaces."""
    import unicodedata

    text = html.unescape(_TAG_RE.sub("", text)).lower()
    kept = [
        c
        for c in text
        if c in "-_ " or unicodedata.category(c)[0] in "LM" or unicodedata.category(c) == "Nd"
    ]
    return "".join(kept).replace(" ", "-")


def _heading(m: re.Match[str]) -> str:
    level, ident, inner = m.group(1), m.group(2), m.group(3)
    ident = ident if ident is not None else esc(slug(inner))
    # Docusaurus names the heading in the label only when it is plain text, else by its id
    named = html.unescape(inner) if "<" not in inner else html.unescape(ident)
    label = esc(named + "에 대한 직접 링크")
    return (
        f'<h{level} class="anchor anchorTargetStickyNavbar" id="{ident}">{inner}'
        f'<a href="#{ident}" class="hash-link" aria-label="{label}" title="{label}"'
        f' translate="no">\u200b</a></h{level}>'
    )


def docusaurus_dom(fragment: str) -> str:
    if "<pre><code" in fragment:
        fragment = _PRE_RE.sub(_code_block, fragment)
    if "<h" in fragment:
        fragment = _HEADING_RE.sub(_heading, fragment)
        if 'id="footnote-label"' in fragment:  # the footnotes' heading is for screen readers
            fragment = fragment.replace(
                'anchorTargetStickyNavbar" id="footnote-label"',
                'anchorTargetStickyNavbar sr-only" id="footnote-label"',
            )
    return fragment


# -- conversion with a cache -----------------------------------------------------------------
_CACHE_MAX = 512
_cache: OrderedDict[str, str] = OrderedDict()
_cache_lock = threading.Lock()


def clear_markdown_cache() -> None:
    with _cache_lock:
        _cache.clear()


def render_markdown(text: str, resolver: ImageResolver | None) -> str:
    """Markdown (with MDX components and raw HTML) → safe HTML. Image-free runs are cached, so
    while typing only the edited part of a document is converted again."""
    if not text.strip():
        return ""
    low = text.lower()
    cacheable = "![" not in text and "<img" not in low
    if cacheable:
        with _cache_lock:
            hit = _cache.get(text)
            if hit is not None:
                _cache.move_to_end(text)
                return hit
    out = _convert(text, resolver)
    if cacheable:
        with _cache_lock:
            _cache[text] = out
            while len(_cache) > _CACHE_MAX:
                _cache.popitem(last=False)
    return out


def _convert(text: str, resolver: ImageResolver | None) -> str:
    nonce = secrets.token_hex(4)
    text, placeholders = _preprocess_mdx(text, nonce)
    converted = markdown_html(text)
    safe = sanitize_html(converted, image_src=_image_src(resolver))
    if _FAILED in safe:
        safe = _FAILED_IMG_RE.sub(_placeholder, safe)
    safe = docusaurus_dom(safe)
    for key, frag in placeholders.items():
        if key.startswith("MODUMDX"):  # block component tags: only where they stand alone
            safe = safe.replace(f"<p>{key}</p>", frag).replace(key, "")
        else:
            safe = safe.replace(f"<p>{key}</p>", frag).replace(key, frag)
    return safe


# -- Docusaurus admonitions ------------------------------------------------------------------
_ADMONITION = {
    # name: (Infima alert colour, icon, default title). Docusaurus' own aliases carry
    # untranslated English titles ("important", "success").
    "note": ("secondary", "note", "노트"),
    "tip": ("success", "tip", "팁"),
    "success": ("success", "tip", "success"),
    "info": ("info", "info", "정보"),
    "important": ("info", "info", "important"),
    "warning": ("warning", "warning", "경고"),
    "caution": ("warning", "warning", "주의"),
    "danger": ("danger", "danger", "위험"),
}
_ICONS = {  # Docusaurus theme-classic's Admonition/Icon/*.js (MIT)
    "note": (
        "0 0 14 16",
        "M6.3 5.69a.942.942 0 0 1-.28-.7c0-.28.09-.52.28-.7.19-.18.42-.28.7-.28.28 0 .52.09.7.28"
        ".18.19.28.42.28.7 0 .28-.09.52-.28.7a1 1 0 0 1-.7.3c-.28 0-.52-.11-.7-.3zM8 7.99c-.02-.25"
        "-.11-.48-.31-.69-.2-.19-.42-.3-.69-.31H6c-.27.02-.48.13-.69.31-.2.2-.3.44-.31.69"
        "h1v3c.02.27"
        ".11.5.31.69.2.2.42.31.69.31h1c.27 0 .48-.11.69-.31.2-.19.3-.42.31-.69H8V7.98v.01zM7 2.3c-3"
        ".14 0-5.7 2.54-5.7 5.68 0 3.14 2.56 5.7 5.7 5.7s5.7-2.55 5.7-5.7c0-3.15-2.56-5.69-5.7-5.69"
        "v.01zM7 .98c3.86 0 7 3.14 7 7s-3.14 7-7 7-7-3.12-7-7 3.14-7 7-7z",
    ),
    "tip": (
        "0 0 12 16",
        "M6.5 0C3.48 0 1 2.19 1 5c0 .92.55 2.25 1 3 1.34 2.25 1.78 2.78 2 4v1h5v-1c.22-1.22.66-1.75"
        " 2-4 .45-.75 1-2.08 1-3 0-2.81-2.48-5-5.5-5zm3.64 7.48c-.25.44-.47.8-.67 1.11-.8"
        "6 1.41-1.25"
        " 2.06-1.45 3.23-.02.05-.02.11-.02.17H5c0-.06 0-.13-.02-.17-.2-1.17-.59-1.83-1.45"
        "-3.23-.2-.31"
        "-.42-.67-.67-1.11C2.44 6.78 2 5.65 2 5c0-2.2 2.02-4 4.5-4 1.22 0 2.36.42 3.22 1.19C10.55"
        " 2.94 11 3.94 11 5c0 .66-.44 1.78-.86 2.48zM4 14h5c-.23 1.14-1.3 2-2.5 2s-2.27-.86-2.5-2z",
    ),
    "info": (
        "0 0 14 16",
        "M7 2.3c3.14 0 5.7 2.56 5.7 5.7s-2.56 5.7-5.7 5.7A5.71 5.71 0 0 1 1.3 8c0-3.14 2.56-5.7 5.7"
        "-5.7zM7 1C3.14 1 0 4.14 0 8s3.14 7 7 7 7-3.14 7-7-3.14-7-7-7zm1 3H6v5h2V4zm0 6H6v2h2v-2z",
    ),
    "warning": (
        "0 0 16 16",
        "M8.893 1.5c-.183-.31-.52-.5-.887-.5s-.703.19-.886.5L.138 13.499a.98.98 0 0 0 0 1.001c.193"
        ".31.53.501.886.501h13.964c.367 0 .704-.19.877-.5a1.03 1.03 0 0 0 .01-1.002L8.893 1.5zm.133"
        " 11.497H6.987v-2.003h2.039v2.003zm0-3.004H6.987V5.987h2.039v4.006z",
    ),
    "danger": (
        "0 0 12 16",
        "M5.05.31c.81 2.17.41 3.38-.52 4.31C3.55 5.67 1.98 6.45.9 7.98c-1.45 2.05-1.7 6.53 3.53 7.7"
        "-2.2-1.16-2.67-4.52-.3-6.61-.61 2.03.53 3.33 1.94 2.86 1.39-.47 2.3.53 2.27 1.67"
        "-.02.78-.31"
        " 1.44-1.13 1.81 3.42-.59 4.78-3.42 4.78-5.56 0-2.84-2.53-3.22-1.25-5.61-1.52.13-2.03 1.13"
        "-1.89 2.75.09 1.08-1.02 1.8-1.86 1.33-.67-.41-.66-1.19-.06-1.78C8.18 5.31 8.68 2"
        ".45 5.05.32"
        "L5.03.3l.02.01z",
    ),
}


def _icon(kind: str) -> str:
    box, path = _ICONS[kind]
    return f'<svg viewBox="{box}"><path fill-rule="evenodd" d="{path}"></path></svg>'


def render_admonition(
    name: str, label: str, body_markdown: str, resolver: ImageResolver | None
) -> str:
    alert, icon, default_title = _ADMONITION.get(name, _ADMONITION["note"])
    title = label or default_title
    body = render_markdown(body_markdown, resolver)
    return (
        f'<div class="theme-admonition theme-admonition-{esc(name)} admonition alert '
        f'alert--{alert}"><div class="admonitionHeading"><span class="admonitionIcon">{_icon(icon)}'
        f'</span>{esc(title)}</div><div class="admonitionContent">{body}</div></div>'
    )
