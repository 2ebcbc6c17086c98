"""Preview HTML for brochure pages (Qt-free; never imports PySide6).

:func:`render_preview` turns a brochure Markdown document into one HTML document designed for a
Qt ``QTextBrowser``: that engine knows only a subset of HTML4/CSS (tables, ``bgcolor``, font
sizes and colours, cell padding and borders — no flex, grid, gradients or rounded corners), so
every brochure block is laid out with tables.

Safety: every block value is escaped; the Markdown output goes through a whitelist sanitizer that
drops ``<script>``, ``<style>``, ``<iframe>``, ``<object>``, event-handler attributes,
``javascript:`` URLs and CSS ``url(...)``. The result never references a remote resource: remote
images become a placeholder text and local images are shown only through ``image_resolver``.
"""

from __future__ import annotations

import html
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import markdown

from modu_desktop.core.blocks import Block, split_front_matter, split_segments
from modu_desktop.core.themes import Palette, get_palette

ImageResolver = Callable[[str], "str | None"]

__all__ = [
    "ImageResolver",
    "REMOTE_IMAGE_PLACEHOLDER",
    "MISSING_IMAGE_PLACEHOLDER",
    "render_preview",
    "render_body",
    "clear_render_cache",
    "directory_image_resolver",
    "resolve_image",
]

REMOTE_IMAGE_PLACEHOLDER = "외부 이미지는 미리보기에 표시하지 않습니다"
MISSING_IMAGE_PLACEHOLDER = "이미지를 찾을 수 없습니다"

FONT_STACK = (
    "'Malgun Gothic', 'Apple SD Gothic Neo', 'NanumGothic', 'Noto Sans KR', "
    "'Noto Sans CJK KR', sans-serif"
)
MONO_STACK = "'D2Coding', 'NanumGothicCoding', 'DejaVu Sans Mono', 'Consolas', monospace"

_MD_EXTENSIONS = ["tables", "fenced_code", "sane_lists"]
_local = threading.local()


def _markdown() -> markdown.Markdown:
    md = getattr(_local, "md", None)
    if md is None:
        md = markdown.Markdown(extensions=_MD_EXTENSIONS, output_format="html")
        _local.md = md
    return md


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------

_COLOR_RE = re.compile(r"^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\(\s*[\d.,%\s]+\))$")
_BOLD_RE = re.compile(r"\*\*(.+?)\*\*")
_CODE_RE = re.compile(r"`([^`]+)`")
_ITALIC_MARK_RE = re.compile(r"\[~(.+?)\]")
_ACCENT_MARK_RE = re.compile(r"\[!(.+?)\]")


def _esc(value: str) -> str:
    return html.escape(value, quote=True)


def _safe_color(value: str | None) -> str | None:
    if not value:
        return None
    value = value.strip()
    return value if _COLOR_RE.match(value) else None


def _mix(c1: str, c2: str, t: float) -> str:
    """Mix two #rrggbb colours (t=0 → c1, t=1 → c2)."""

    def rgb(c: str) -> tuple[int, int, int]:
        c = c.lstrip("#")
        if len(c) == 3:
            c = "".join(ch * 2 for ch in c)
        return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)

    a, b = rgb(c1), rgb(c2)
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b, strict=True))


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in ("true", "yes", "1", "on")


def _int(value: str | None, default: int, lo: int, hi: int) -> int:
    try:
        n = int((value or "").strip().strip("\"'"))
    except ValueError:
        return default
    return max(lo, min(hi, n))


def _chunks(seq: list[str], size: int) -> list[list[str]]:
    return [seq[i : i + size] for i in range(0, len(seq), size)] or [[]]


def _safe_href(value: str) -> str | None:
    """A link target that is harmless to keep (never fetched by the preview) or None."""
    cleaned = re.sub(r"[\x00-\x20\x7f]+", "", value)
    if not cleaned:
        return None
    low = cleaned.lower()
    if low.startswith(("http://", "https://", "mailto:", "#", "/", "./", "../")):
        return value.strip()
    if re.match(r"^[a-z][a-z0-9+.-]*:", low):
        return None  # javascript:, data:, vbscript:, file:, …
    return value.strip()


class _Ctx:
    def __init__(self, pal: Palette, resolver: ImageResolver | None) -> None:
        self.p = pal
        self.resolver = resolver
        self.nonce = secrets.token_hex(4)


def _inline(value: str, ctx: _Ctx, *, strong_color: str | None = None) -> str:
    """Escape a block value, then apply the tiny inline syntax (**bold**, `code`)."""
    out = _esc(value)
    style = f' style="color:{strong_color};"' if strong_color else ""
    out = _BOLD_RE.sub(lambda m: f"<b{style}>{m.group(1)}</b>", out)
    out = _CODE_RE.sub(
        lambda m: f'<code style="font-family:{MONO_STACK};">{m.group(1)}</code>', out
    )
    return out


def _pipe_list(value: str) -> list[str]:
    return [part.strip() for part in value.split("|") if part.strip()]


# --------------------------------------------------------------------------------------------
# Image handling
# --------------------------------------------------------------------------------------------

_DATA_IMAGE_RE = re.compile(r"^data:image/(png|jpe?g|gif|webp|bmp);base64,[A-Za-z0-9+/=\s]+$", re.I)


def _is_remote(src: str) -> bool:
    low = re.sub(r"[\x00-\x20]+", "", src).lower()
    return low.startswith(("http:", "https:", "//", "ftp:", "ws:", "wss:"))


def resolve_image(src: str, resolver: ImageResolver | None) -> tuple[str | None, str]:
    """(safe URL or None, reason). Only ``file:`` URLs and image data URIs are ever returned."""
    src = src.strip()
    if not src:
        return None, "missing"
    if _is_remote(src):
        return None, "remote"
    if _DATA_IMAGE_RE.match(src):
        return src, "ok"
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", src) and not re.match(r"^[a-zA-Z]:[\\/]", src):
        return None, "missing"  # javascript:, file:, data:text … never taken from the document
    if resolver is None:
        return None, "missing"
    try:
        url = resolver(src)
    except Exception:  # a broken resolver must not break the preview
        return None, "missing"
    if not url:
        return None, "missing"
    if url.startswith("file:") or _DATA_IMAGE_RE.match(url):
        return url, "ok"
    return None, "missing"


def directory_image_resolver(static_root: Path, *, base_url: str = "/") -> ImageResolver:
    """A resolver for a local copy of the site's ``static/`` folder.

    Maps the site paths the web admin writes (``{base_url}img/uploads/x.png``, ``/img/x.png``,
    ``img/x.png``, ``../static/img/x.png``) to ``file:`` URLs of existing files under
    ``static_root``; anything that would leave ``static_root`` or does not exist gives None.
    """
    root = static_root.resolve()
    prefixes = sorted({base_url if base_url.endswith("/") else base_url + "/", "/"}, key=len)

    def resolve(src: str) -> str | None:
        path = src.split("#", 1)[0].split("?", 1)[0].strip()
        path = unquote(path)
        if path.startswith("../static/"):
            rel = path[len("../static/") :]
        else:
            rel = path
            for prefix in reversed(prefixes):  # longest first
                if rel.startswith(prefix):
                    rel = rel[len(prefix) :]
                    break
            rel = rel[2:] if rel.startswith("./") else rel
        if not rel or rel.startswith("/"):
            return None
        candidate = (root / rel).resolve()
        if root not in candidate.parents or not candidate.is_file():
            return None
        return candidate.as_uri()

    return resolve


def _image_placeholder(src: str, alt: str, reason: str, pal: Palette) -> str:
    label = REMOTE_IMAGE_PLACEHOLDER if reason == "remote" else MISSING_IMAGE_PLACEHOLDER
    detail = alt or src
    text = f"[{label}: {detail}]" if detail else f"[{label}]"
    return (
        f'<span class="img-placeholder" style="color:{pal.muted}; background-color:{pal.tint};'
        f' font-size:12px;">&nbsp;{_esc(text)}&nbsp;</span>'
    )


# --------------------------------------------------------------------------------------------
# HTML sanitizer for the Markdown output
# --------------------------------------------------------------------------------------------

_VOID = {"br", "hr", "img", "wbr"}
_DROP_CONTENT = {
    "script",
    "style",
    "iframe",
    "object",
    "applet",
    "frame",
    "frameset",
    "noscript",
    "noembed",
    "noframes",
    "template",
    "svg",
    "math",
    "title",
    "head",
    "select",
    "canvas",
    "xml",
}
_DROP_VOID = {
    "link",
    "meta",
    "base",
    "embed",
    "param",
    "source",
    "track",
    "input",
    "area",
    "keygen",
}
_GLOBAL_ATTRS = {"style", "title", "align"}
_ALLOWED: dict[str, set[str]] = {
    "p": set(),
    "div": set(),
    "span": set(),
    "br": set(),
    "hr": set(),
    "h1": set(),
    "h2": set(),
    "h3": set(),
    "h4": set(),
    "h5": set(),
    "h6": set(),
    "ul": set(),
    "ol": {"start", "type"},
    "li": set(),
    "dl": set(),
    "dt": set(),
    "dd": set(),
    "blockquote": set(),
    "pre": set(),
    "code": set(),
    "kbd": set(),
    "samp": set(),
    "tt": set(),
    "em": set(),
    "strong": set(),
    "b": set(),
    "i": set(),
    "u": set(),
    "s": set(),
    "del": set(),
    "ins": set(),
    "strike": set(),
    "sub": set(),
    "sup": set(),
    "small": set(),
    "big": set(),
    "mark": set(),
    "center": set(),
    "font": {"color", "size"},
    "a": {"href", "name"},
    "img": {"src", "alt", "width", "height"},
    "table": {"border", "cellpadding", "cellspacing", "width", "bgcolor"},
    "thead": set(),
    "tbody": set(),
    "tfoot": set(),
    "tr": {"bgcolor", "valign"},
    "th": {"colspan", "rowspan", "width", "valign", "bgcolor"},
    "td": {"colspan", "rowspan", "width", "valign", "bgcolor"},
    "caption": set(),
}
_STYLE_PROPS = {
    "color",
    "background-color",
    "font-size",
    "font-weight",
    "font-style",
    "font-family",
    "text-align",
    "text-decoration",
    "text-indent",
    "vertical-align",
    "white-space",
    "line-height",
    "margin",
    "margin-top",
    "margin-bottom",
    "margin-left",
    "margin-right",
    "padding",
    "padding-top",
    "padding-bottom",
    "padding-left",
    "padding-right",
    "border",
    "border-color",
    "border-width",
    "border-style",
    "border-collapse",
}
_STYLE_BAD = re.compile(r"url\s*\(|expression|javascript:|@import|[\\<>{}]", re.I)
_NUMBER_ATTR = re.compile(r"^\d{1,4}%?$")
_ALIGN = {"left", "right", "center", "justify"}
_VALIGN = {"top", "middle", "bottom", "baseline"}
_FAMILY_MAP = {
    "noto": "'Noto Sans KR', 'Noto Sans CJK KR', sans-serif",
    "pretendard": "'Pretendard', 'Noto Sans KR', sans-serif",
    "gmarket": "'GmarketSans', 'NanumSquare', sans-serif",
    "nanum": "'NanumGothic', 'Nanum Gothic', sans-serif",
}


def _clean_style(value: str) -> str:
    kept: list[str] = []
    for decl in value.split(";"):
        prop, sep, val = decl.partition(":")
        prop = prop.strip().lower()
        val = val.strip()
        if not sep or prop not in _STYLE_PROPS or not val or _STYLE_BAD.search(val):
            continue
        kept.append(f"{prop}: {val}")
    return "; ".join(kept)


def _css_size(value: str | None) -> str | None:
    m = re.match(r"^\s*(\d+(?:\.\d+)?)\s*(px|rem|em|pt)?\s*$", value or "")
    if not m:
        return None
    num = float(m.group(1))
    unit = m.group(2) or "px"
    if unit in ("rem", "em"):
        num *= 16
        unit = "px"
    return f"{max(6.0, min(num, 96.0)):g}{unit}"


class _Sanitizer(HTMLParser):
    """Whitelist re-serialiser: keeps safe tags/attributes, maps MDX inline components."""

    def __init__(self, ctx: _Ctx) -> None:
        super().__init__(convert_charrefs=True)
        self.ctx = ctx
        self.out: list[str] = []
        self.stack: list[tuple[str, str]] = []  # (source tag, closing html)
        self.drop: list[str] = []

    # -- helpers ---------------------------------------------------------------------------
    def _attrs(self, tag: str, attrs: list[tuple[str, str | None]]) -> str:
        allowed = _ALLOWED.get(tag, set()) | _GLOBAL_ATTRS
        parts: list[str] = []
        seen: set[str] = set()
        for name, raw in attrs:
            name = name.lower()
            value = (raw or "").strip()
            if name in seen or name not in allowed or name.startswith("on"):
                continue
            seen.add(name)
            if name == "style":
                value = _clean_style(value)
                if not value:
                    continue
            elif name == "href":
                href = _safe_href(value)
                if href is None:
                    continue
                value = href
            elif name in ("color", "bgcolor"):
                color = _safe_color(value)
                if color is None:
                    continue
                value = color
            elif name in (
                "width",
                "height",
                "colspan",
                "rowspan",
                "cellpadding",
                "cellspacing",
                "border",
                "start",
                "size",
            ):
                if not _NUMBER_ATTR.match(value.lstrip("+-")):
                    continue
            elif (name == "align" and value.lower() not in _ALIGN) or (
                name == "valign" and value.lower() not in _VALIGN
            ):
                continue
            parts.append(f' {name}="{_esc(value)}"')
        if tag == "table" and "border" not in seen:
            p = self.ctx.p
            parts.append(
                f' border="1" cellspacing="0" cellpadding="6"'
                f' style="border-collapse: collapse; border-color: {p.border};'
                f' margin-top: 6px; margin-bottom: 10px;"'
            )
        return "".join(parts)

    def _open(self, tag: str, html_open: str, html_close: str) -> None:
        self.out.append(html_open)
        self.stack.append((tag, html_close))

    def _img(self, attrs: list[tuple[str, str | None]]) -> None:
        amap = {k.lower(): (v or "") for k, v in attrs}
        src = amap.get("src", "")
        alt = amap.get("alt", "")
        url, reason = resolve_image(src, self.ctx.resolver)
        if url is None:
            self.out.append(_image_placeholder(src, alt, reason, self.ctx.p))
            return
        extra = ""
        for key in ("width", "height"):
            if _NUMBER_ATTR.match(amap.get(key, "")):
                extra += f' {key}="{_esc(amap[key])}"'
        self.out.append(f'<img src="{_esc(url)}" alt="{_esc(alt)}"{extra} />')

    def _mdx_inline(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        p = self.ctx.p
        amap = {k.lower(): (v or "") for k, v in attrs}
        if tag == "highlight":
            color = _safe_color(amap.get("color")) or p.primary_mid
            self._open(
                tag,
                f'<span style="background-color: {color}; color: #ffffff;">&#8202;',
                "&#8202;</span>",
            )
            return True
        if tag == "text":
            styles: list[str] = []
            size = _css_size(amap.get("size"))
            if size:
                styles.append(f"font-size: {size}")
            weight = amap.get("weight", "").strip()
            if re.match(r"^[1-9]00$", weight) or weight in ("bold", "normal"):
                styles.append(f"font-weight: {weight}")
            text_color = _safe_color(amap.get("color"))
            if text_color:
                styles.append(f"color: {text_color}")
            family = amap.get("family", "").strip().lower()
            if family in _FAMILY_MAP:
                styles.append(f"font-family: {_FAMILY_MAP[family]}")
            close = "</span>"
            if amap.get("display", "").strip().lower() == "block":
                close += "<br />"
            self._open(tag, f'<span style="{_esc("; ".join(styles))}">', close)
            return True
        if tag == "herobutton":
            outline = "outline" in amap and amap.get("outline", "").lower() != "false"
            if outline:
                style = f"color: {p.primary_mid}; background-color: {p.tint}; font-weight: bold;"
            else:
                style = f"color: #ffffff; background-color: {p.primary_mid}; font-weight: bold;"
            self._open(tag, f'<span style="{style}">&nbsp;&nbsp;', "&nbsp;→&nbsp;&nbsp;</span> ")
            return True
        return False

    # -- HTMLParser callbacks ----------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        tag = tag.lower()
        if self.drop:
            if tag in _DROP_CONTENT:
                self.drop.append(tag)
            return
        if tag in _DROP_CONTENT:
            self.drop.append(tag)
            return
        if tag in _DROP_VOID:
            return
        if tag == "img":
            self._img(attrs)
            return
        if self._mdx_inline(tag, attrs):
            return
        if tag not in _ALLOWED:
            return  # unknown tag: drop the tag, keep its content
        attr_html = self._attrs(tag, attrs)
        p = self.ctx.p
        if tag == "pre":
            attr_html = (
                f' style="white-space: pre-wrap; background-color: {p.tint}; color: {p.text};'
                f' font-family: {MONO_STACK}; font-size: 12px;"'
            )
        elif tag == "code" and any(t == "pre" for t, _ in self.stack):
            attr_html = f' style="color: {p.text}; background-color: {p.tint};"'
        if tag in _VOID:
            self.out.append(f"<{tag}{attr_html} />")
        else:
            self._open(tag, f"<{tag}{attr_html}>", f"</{tag}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        tag = tag.lower()
        if tag in _VOID:
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        tag = tag.lower()
        if self.drop:
            if tag == self.drop[-1]:
                self.drop.pop()
            return
        for idx in range(len(self.stack) - 1, -1, -1):
            if self.stack[idx][0] == tag:
                while len(self.stack) > idx:
                    self.out.append(self.stack.pop()[1])
                return

    def handle_data(self, data: str) -> None:
        if not self.drop:
            self.out.append(html.escape(data, quote=False))

    def result(self) -> str:
        self.close()
        while self.stack:
            self.out.append(self.stack.pop()[1])
        return "".join(self.out)


def sanitize_html(fragment: str, ctx: _Ctx) -> str:
    parser = _Sanitizer(ctx)
    parser.feed(fragment)
    return parser.result()


# --------------------------------------------------------------------------------------------
# MDX block components (<Callout>, <Details>, <Columns>/<Col>, <StepList>/<StepItem>)
# --------------------------------------------------------------------------------------------

_MDX_BLOCK = ("callout", "details", "columns", "col", "column", "steplist", "stepitem")
_MDX_OPEN_RE = re.compile(
    r"^\s*<(Callout|Details|Columns|Col|Column|StepList|StepItem)((?:\s+[^<>]*)?)>\s*$"
)
_MDX_CLOSE_RE = re.compile(r"^\s*</(Callout|Details|Columns|Col|Column|StepList|StepItem)>\s*$")
_MDX_ONELINE_RE = re.compile(r"^\s*<(Callout|Details)((?:\s+[^<>]*)?)>(.*)</\1>\s*$")
_ATTR_RE = re.compile(r"""([A-Za-z_][\w-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
_FENCE_RE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")

_CALLOUT = {
    # type: (background, bar/title colour, icon)
    "info": ("#e8f1fd", "#1d63c9", "ℹ"),
    "success": ("#e7f6ec", "#1a7f43", "✔"),
    "warning": ("#fff4e0", "#b45309", "⚠"),
    "danger": ("#fde8e8", "#c0262d", "✖"),
}


def _parse_attrs(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _ATTR_RE.finditer(text or ""):
        groups = [g for g in m.group(2, 3, 4) if g is not None]
        out[m.group(1).lower()] = groups[0] if groups else "true"
    return out


def _mdx_open_html(name: str, attrs: dict[str, str], ctx: _Ctx) -> tuple[str, str]:
    p = ctx.p
    if name == "callout":
        bg, fg, icon = _CALLOUT.get(attrs.get("type", "info").lower(), _CALLOUT["info"])
        title = attrs.get("title", "")
        head = (
            f'<p style="margin:0; color:{fg}; font-weight:bold;">{icon} {_esc(title)}</p>'
            if title
            else f'<p style="margin:0; color:{fg}; font-weight:bold;">{icon}</p>'
        )
        return (
            f'<table width="100%" cellspacing="0" cellpadding="0" style="margin-top:8px;'
            f' margin-bottom:8px;"><tr><td width="5" bgcolor="{fg}"></td>'
            f'<td bgcolor="{bg}" style="padding:10px; color:#1f2937;">{head}',
            "</td></tr></table>",
        )
    if name == "details":
        summary = attrs.get("summary", "")
        return (
            f'<table width="100%" cellspacing="0" cellpadding="10" bgcolor="{p.card_bg}"'
            f' border="1" style="border-collapse:collapse; border-color:{p.border};'
            f' margin-top:8px; margin-bottom:8px;"><tr><td>'
            f'<p style="margin:0; font-weight:bold; color:{p.primary};">▾ {_esc(summary)}</p>',
            "</td></tr></table>",
        )
    if name == "columns":
        return (
            '<table width="100%" cellspacing="8" cellpadding="0" style="margin-top:6px;'
            ' margin-bottom:6px;"><tr>',
            "</tr></table>",
        )
    if name in ("col", "column"):
        return '<td valign="top">', "</td>"
    if name == "steplist":
        return (
            '<table width="100%" cellspacing="6" cellpadding="6" style="margin-top:6px;'
            ' margin-bottom:6px;">',
            "</table>",
        )
    # stepitem
    step = attrs.get("step", "")
    title = attrs.get("title", "")
    return (
        f'<tr><td width="34" align="center" valign="top" bgcolor="{p.primary_mid}"'
        f' style="color:#ffffff; font-weight:bold; font-size:15px;">{_esc(step)}</td>'
        f'<td valign="top" bgcolor="{p.card_bg}" style="color:{p.text};">'
        f'<p style="margin:0; font-weight:bold; color:{p.primary};">{_esc(title)}</p>',
        "</td></tr>",
    )


def _preprocess_mdx(text: str, ctx: _Ctx) -> tuple[str, dict[str, str]]:
    """Replace whole-line MDX block tags by placeholder paragraphs (filled in after sanitizing)."""
    if "<" not in text:
        return text, {}
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
        m = _MDX_ONELINE_RE.match(line)
        if m:
            lines.extend([f"<{m.group(1)}{m.group(2)}>", m.group(3).strip(), f"</{m.group(1)}>"])
        else:
            lines.append(line)
    tokens: list[tuple[int, str, dict[str, str], bool]] = []  # (line, name, attrs, is_open)
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
        return "\n".join(lines), {}
    # Pair openers and closers; unmatched tags stay as text (the sanitizer drops the tag).
    pairs: dict[int, int] = {}
    stack: list[tuple[int, str]] = []
    for pos, (_line, name, _attrs, is_open) in enumerate(tokens):
        if is_open:
            stack.append((pos, name))
        elif stack and stack[-1][1] == name:
            pairs[stack.pop()[0]] = pos
    placeholders: dict[str, str] = {}
    replace: dict[int, str] = {}
    for open_pos, close_pos in pairs.items():
        o_line, name, attrs, _ = tokens[open_pos]
        c_line = tokens[close_pos][0]
        html_open, html_close = _mdx_open_html(name, attrs, ctx)
        for line_no, frag in ((o_line, html_open), (c_line, html_close)):
            key = f"MODUMDX{ctx.nonce}X{line_no}X"
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
            # Contents of MDX components are indented in the source; Markdown must not take
            # them for code blocks.
            out.append(line[2:])
        else:
            out.append(line)
    return "\n".join(out), placeholders


_TABLE_SEP_RE = re.compile(r"^\s{0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")


def _separate_tables(text: str) -> str:
    """GFM accepts a table right after a paragraph line; Python-Markdown needs a blank line."""
    if "|" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    fence: str | None = None
    for idx, line in enumerate(lines):
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            out.append(line)
            continue
        fm = _FENCE_RE.match(line)
        if fm:
            fence = fm.group(1)
        elif (
            "|" in line
            and idx + 1 < len(lines)
            and "-" in lines[idx + 1]
            and _TABLE_SEP_RE.match(lines[idx + 1])
            and out
            and out[-1].strip()
            and "|" not in out[-1]
        ):
            out.append("")
        out.append(line)
    return "\n".join(out)


_CACHE_MAX = 512
_cache: OrderedDict[tuple[str, str], str] = OrderedDict()
_cache_lock = threading.Lock()


def clear_render_cache() -> None:
    """Forget cached Markdown fragments (they are keyed by text and theme)."""
    with _cache_lock:
        _cache.clear()


def _render_markdown(text: str, ctx: _Ctx) -> str:
    """Markdown → sanitized HTML. Image-free fragments are cached: while typing, only the
    edited part of a document is converted again."""
    if not text.strip():
        return ""
    cacheable = "![" not in text and "<img" not in text.lower()
    key = (text, ctx.p.name)
    if cacheable:
        with _cache_lock:
            hit = _cache.get(key)
            if hit is not None:
                _cache.move_to_end(key)
                return hit
    out = _convert_markdown(text, ctx)
    if cacheable:
        with _cache_lock:
            _cache[key] = out
            while len(_cache) > _CACHE_MAX:
                _cache.popitem(last=False)
    return out


def _convert_markdown(text: str, ctx: _Ctx) -> str:
    text = _separate_tables(text)
    text, placeholders = _preprocess_mdx(text, ctx)
    md = _markdown()
    md.reset()
    converted = md.convert(text)
    safe = sanitize_html(converted, ctx)
    for key, frag in placeholders.items():
        safe = safe.replace(f"<p>{key}</p>", frag).replace(key, "")
    return safe


# --------------------------------------------------------------------------------------------
# Brochure blocks
# --------------------------------------------------------------------------------------------


def _wrap(inner: str, kind: str, *, margin: int = 14) -> str:
    return (
        f'<table class="block block-{kind}" width="100%" cellspacing="0" cellpadding="0"'
        f' style="margin-top:{margin}px; margin-bottom:{margin}px;"><tr><td>{inner}</td></tr>'
        "</table>"
    )


def _heading(
    title: str, subtitle: str, ctx: _Ctx, *, on_dark: bool = False, align: str = "left"
) -> str:
    p = ctx.p
    if not title and not subtitle:
        return ""
    sub_color = p.primary_light if on_dark else p.primary_mid
    title_color = p.hero_text if on_dark else p.primary
    out = ""
    if subtitle:
        out += (
            f'<p align="{align}" style="margin:0; font-size:11px; font-weight:bold;'
            f' color:{sub_color};">{_inline(subtitle, ctx)}</p>'
        )
    if title:
        out += (
            f'<p align="{align}" style="margin-top:2px; margin-bottom:8px; font-size:20px;'
            f' font-weight:bold; color:{title_color};">{_inline(title, ctx)}</p>'
        )
    return out


def _header_bar(header: str, sub: str, ctx: _Ctx) -> str:
    p = ctx.p
    if not header and not sub:
        return ""
    sub_color = _mix(p.primary, "#ffffff", 0.72)
    sub_html = (
        f'&nbsp;&nbsp;<span style="font-size:11px; color:{sub_color};">{_inline(sub, ctx)}</span>'
        if sub
        else ""
    )
    return (
        f'<table width="100%" cellspacing="0" cellpadding="12" bgcolor="{p.primary}">'
        f'<tr><td><span style="font-size:17px; font-weight:bold; color:#ffffff;">'
        f"{_inline(header, ctx)}</span>{sub_html}</td></tr></table>"
    )


def _grid(
    cells: list[str],
    columns: int,
    ctx: _Ctx,
    *,
    bg: str | None = None,
    border: str | None = None,
    pad: int = 14,
    spacing: int = 10,
    top_border: str | None = None,
) -> str:
    columns = max(1, columns)
    width = 100 // columns
    rows: list[str] = []
    for row in _chunks(cells, columns):
        tds: list[str] = []
        for cell in row:
            style = ""
            if border:
                style += f"border: 1px solid {border};"
            if top_border:
                style += f" border-top: 3px solid {top_border};"
            bg_attr = f' bgcolor="{bg}"' if bg else ""
            tds.append(f'<td width="{width}%" valign="top"{bg_attr} style="{style}">{cell}</td>')
        tds.extend(f'<td width="{width}%"></td>' for _ in range(columns - len(row)))
        rows.append("<tr>" + "".join(tds) + "</tr>")
    return (
        f'<table width="100%" cellspacing="{spacing}" cellpadding="{pad}">'
        + "".join(rows)
        + "</table>"
    )


def _p(
    text_html: str,
    *,
    size: int = 13,
    color: str,
    bold: bool = False,
    top: int = 0,
    bottom: int = 0,
    align: str | None = None,
) -> str:
    if not text_html:
        return ""
    weight = " font-weight:bold;" if bold else ""
    align_attr = f' align="{align}"' if align else ""
    return (
        f'<p{align_attr} style="margin-top:{top}px; margin-bottom:{bottom}px; font-size:{size}px;'
        f' color:{color};{weight}">{text_html}</p>'
    )


def _bullets(values: Iterable[str], ctx: _Ctx, *, color: str, bullet: str) -> str:
    return "".join(
        f'<p style="margin-top:2px; margin-bottom:0; font-size:12px; color:{color};">'
        f'<span style="color:{bullet};">•</span>&nbsp;{_inline(v, ctx)}</p>'
        for v in values
    )


def _render_hero(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    pr = b.props
    parts = ""
    if pr.get("badge"):
        parts += (
            f'<p style="margin:0;"><span style="background-color:{p.accent}; color:#ffffff;'
            f' font-size:11px; font-weight:bold;">&nbsp;&nbsp;{_inline(pr["badge"], ctx)}'
            "&nbsp;&nbsp;</span></p>"
        )
    title = pr.get("title", "")
    parts += _p(_inline(title, ctx), size=26, color=p.hero_text, bold=True, top=12, bottom=6)
    desc = pr.get("description") or pr.get("desc") or pr.get("subtitle", "")
    parts += _p(_inline(desc, ctx), size=14, color=p.hero_muted, top=4)
    return _wrap(
        f'<table width="100%" cellspacing="0" cellpadding="28" bgcolor="{p.hero_bg}">'
        f"<tr><td>{parts}</td></tr></table>",
        "hero",
        margin=8,
    )


def _metric_cell(value: str, label: str, sub: str, ctx: _Ctx, *, align: str = "center") -> str:
    p = ctx.p
    return (
        _p(_inline(value, ctx), size=26, color=p.primary_mid, bold=True, align=align)
        + _p(_inline(label, ctx), size=13, color=p.text, bold=True, top=4, align=align)
        + _p(_inline(sub, ctx), size=11, color=p.muted, top=3, align=align)
    )


def _render_kpi(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    cells = [
        _metric_cell(it.get("value", ""), it.get("label", ""), it.get("sub", ""), ctx)
        for it in b.items
    ]
    head = _heading(b.props.get("title", ""), b.props.get("subtitle", ""), ctx)
    body = (
        _grid(
            cells,
            max(1, min(len(cells), 5)),
            ctx,
            bg=p.card_bg,
            spacing=0,
            pad=16,
            top_border=p.accent,
        )
        if cells
        else ""
    )
    return _wrap(
        f'<table width="100%" cellspacing="0" cellpadding="14" bgcolor="{p.tint}"><tr><td>'
        f"{head}{body}</td></tr></table>",
        "kpi",
    )


def _render_stats(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    cells = [
        _metric_cell(it.get("value", ""), it.get("label", ""), it.get("sub", ""), ctx)
        for it in b.items
    ]
    cols = max(1, min(len(cells), 4))
    head = _heading(b.props.get("title", ""), b.props.get("subtitle", ""), ctx, align="center")
    return _wrap(
        head + _grid(cells, cols, ctx, bg=p.card_bg, border=p.border, top_border=p.primary_mid),
        "stats",
    )


def _render_cards(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    variant = b.props.get("variant", "elevated").strip().lower()
    cols = _int(b.props.get("columns"), 3, 1, 4)
    cells = []
    for it in b.items:
        icon = it.get("icon", "")
        cells.append(
            (_p(_esc(icon), size=24, color=p.text, bottom=6) if icon else "")
            + _p(_inline(it.get("title", ""), ctx), size=15, color=p.primary, bold=True, bottom=4)
            + _p(
                _inline(it.get("description", "") or it.get("desc", ""), ctx), size=13, color=p.text
            )
        )
    if variant == "borderless":
        grid = _grid(cells, cols, ctx, bg=p.tint)
    elif variant == "outlined":
        grid = _grid(cells, cols, ctx, bg=p.card_bg, border=p.primary_light)
    else:
        grid = _grid(cells, cols, ctx, bg=p.card_bg, border=p.border, top_border=p.primary_mid)
    head = _heading(b.props.get("title", ""), b.props.get("subtitle", ""), ctx)
    return _wrap(head + grid, "cards")


def _render_panel(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    cols = _int(b.props.get("columns"), 3, 1, 4)
    cells = []
    for it in b.items:
        icon = it.get("icon", "")
        title = _inline(it.get("title", ""), ctx)
        head = f"{_esc(icon)}&nbsp; {title}" if icon else title
        cell = _p(head, size=14, color=p.primary, bold=True, bottom=6)
        if it.get("items"):
            cell += _bullets(_pipe_list(it["items"]), ctx, color=p.text, bullet=p.primary_mid)
        if it.get("desc") or it.get("description"):
            cell += _p(
                _inline(it.get("desc") or it.get("description", ""), ctx), size=12, color=p.text
            )
        cells.append(cell)
    bar = _header_bar(
        b.props.get("header", "") or b.props.get("title", ""),
        b.props.get("headersub", "") or b.props.get("subtitle", ""),
        ctx,
    )
    grid = _grid(cells, cols, ctx, bg=p.card_bg, border=p.border, spacing=8, pad=12)
    return _wrap(
        bar + f'<table width="100%" cellspacing="0" cellpadding="4" bgcolor="{p.tint}">'
        f"<tr><td>{grid}</td></tr></table>",
        "panel",
    )


def _render_stepper(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    rows_html = ""
    per_row = 5 if len(b.items) <= 5 else 4
    for chunk_start in range(0, max(len(b.items), 1), per_row):
        chunk = b.items[chunk_start : chunk_start + per_row]
        if not chunk:
            break
        tds: list[str] = []
        # Arrow columns only when there is room for them (Qt squeezes the last column).
        arrows = len(chunk) <= 3
        width = (100 - (3 * (len(chunk) - 1) if arrows else 0)) // len(chunk)
        for idx, it in enumerate(chunk):
            if idx and arrows:
                tds.append(
                    f'<td width="3%" align="center" valign="middle" style="color:'
                    f'{p.primary_light}; font-size:20px; font-weight:bold;">›</td>'
                )
            cell = (
                f'<p style="margin:0;"><span style="background-color:{p.primary_mid};'
                f' color:#ffffff; font-size:11px; font-weight:bold;">&nbsp;&nbsp;'
                f"{_inline(it.get('phase', ''), ctx)}&nbsp;&nbsp;</span></p>"
                + _p(_inline(it.get("period", ""), ctx), size=11, color=p.muted, top=6)
                + _p(
                    _inline(it.get("title", ""), ctx),
                    size=14,
                    color=p.primary,
                    bold=True,
                    top=4,
                    bottom=6,
                )
                + _bullets(_pipe_list(it.get("items", "")), ctx, color=p.text, bullet=p.accent)
                + _p(
                    _inline(it.get("desc", "") or it.get("description", ""), ctx),
                    size=12,
                    color=p.text,
                )
            )
            tds.append(
                f'<td width="{width}%" valign="top" bgcolor="{p.card_bg}" style="border: 1px'
                f' solid {p.border}; border-top: 3px solid {p.primary_mid};">{cell}</td>'
            )
        pad = 12 if len(chunk) <= 3 else 9
        rows_html += (
            f'<table width="100%" cellspacing="6" cellpadding="{pad}"><tr>'
            + "".join(tds)
            + "</tr></table>"
        )
    bar = _header_bar(
        b.props.get("header", "") or b.props.get("title", ""),
        b.props.get("headersub", "") or b.props.get("subtitle", ""),
        ctx,
    )
    return _wrap(
        bar + f'<table width="100%" cellspacing="0" cellpadding="4" bgcolor="{p.tint}">'
        f"<tr><td>{rows_html}</td></tr></table>",
        "stepper",
    )


def _render_timeline(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    rows: list[str] = []
    for idx, it in enumerate(b.items, start=1):
        accent = _truthy(it.get("accent"))
        num_bg = p.accent if accent else p.primary_mid
        content_bg = p.tint if accent else p.card_bg
        content = (
            _p(_inline(it.get("phase", ""), ctx), size=11, color=num_bg, bold=True)
            + _p(_inline(it.get("title", ""), ctx), size=15, color=p.primary, bold=True, top=3)
            + _p(
                _inline(it.get("description", "") or it.get("desc", ""), ctx),
                size=13,
                color=p.text,
                top=3,
            )
        )
        rows.append(
            f'<tr><td width="46" align="center" valign="top" bgcolor="{num_bg}"'
            f' style="color:#ffffff; font-size:16px; font-weight:bold;">{idx:02d}</td>'
            f'<td valign="top" bgcolor="{content_bg}" style="border: 1px solid {p.border};">'
            f"{content}</td></tr>"
        )
    head = _heading(b.props.get("title", ""), b.props.get("subtitle", ""), ctx)
    return _wrap(
        head + '<table width="100%" cellspacing="6" cellpadding="12">' + "".join(rows) + "</table>",
        "timeline",
    )


def _render_strategy(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    cell_bg = _mix(p.dark_bg, "#ffffff", 0.10)
    cells = [
        _p(_inline(it.get("letter", ""), ctx), size=32, color=p.accent_soft, bold=True)
        + _p(_inline(it.get("title", ""), ctx), size=14, color="#ffffff", bold=True, top=4)
        + _p(
            _inline(it.get("desc", "") or it.get("description", ""), ctx),
            size=12,
            color=_mix(p.dark_bg, "#ffffff", 0.78),
            top=4,
        )
        for it in b.items
    ]
    cols = max(1, min(len(cells), 4))
    head = _heading(b.props.get("title", ""), b.props.get("subtitle", ""), ctx, on_dark=True)
    grid = _grid(cells, cols, ctx, bg=cell_bg, spacing=8, pad=14)
    return _wrap(
        f'<table width="100%" cellspacing="0" cellpadding="18" bgcolor="{p.dark_bg}"><tr><td>'
        f"{head}{grid}</td></tr></table>",
        "strategy",
    )


def _letter_badge(letter: str, color: str, ctx: _Ctx, *, size: int = 22, box: int = 44) -> str:
    return (
        f'<table cellspacing="0" cellpadding="0"><tr><td width="{box}" height="{box}"'
        f' align="center" valign="middle" bgcolor="{color}" style="color:#ffffff;'
        f' font-size:{size}px; font-weight:bold;">{_inline(letter, ctx)}</td></tr></table>'
    )


def _render_alphagrid(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    cols = _int(b.props.get("columns"), 4, 1, 6)
    cells = []
    for idx, it in enumerate(b.items):
        color = p.badge_colors[idx % len(p.badge_colors)]
        cells.append(
            '<table width="100%" cellspacing="0" cellpadding="0"><tr>'
            f'<td width="52" valign="middle">{_letter_badge(it.get("letter", ""), color, ctx)}'
            '</td><td valign="middle">'
            + _p(_inline(it.get("label", ""), ctx), size=13, color=p.primary, bold=True)
            + _p(_inline(it.get("sub", ""), ctx), size=11, color=p.muted, top=2)
            + "</td></tr></table>"
        )
    head = _heading(b.props.get("title", ""), b.props.get("subtitle", ""), ctx)
    return _wrap(head + _grid(cells, cols, ctx, bg=p.card_bg, border=p.border, pad=10), "alphagrid")


def _render_roadmap(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    cells = []
    for idx, it in enumerate(b.items, start=1):
        cells.append(
            '<table cellspacing="0" cellpadding="0"><tr>'
            f"<td>{_letter_badge(str(idx), p.primary_mid, ctx, size=15, box=30)}</td>"
            f'<td style="padding-left:8px;" valign="middle">'
            + _p(_inline(it.get("phase", ""), ctx), size=12, color=p.accent, bold=True)
            + "</td></tr></table>"
            + _p(
                _inline(it.get("title", ""), ctx),
                size=15,
                color=p.primary,
                bold=True,
                top=8,
                bottom=4,
            )
            + _bullets(
                _pipe_list(it.get("bullets", "") or it.get("items", "")),
                ctx,
                color=p.text,
                bullet=p.primary_mid,
            )
        )
    cols = max(1, min(len(cells), 4))
    head = _heading(b.props.get("title", ""), b.props.get("subtitle", ""), ctx)
    return _wrap(
        head + _grid(cells, cols, ctx, bg=p.card_bg, border=p.border, top_border=p.accent),
        "roadmap",
    )


def _render_badges(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    dark = _truthy(b.props.get("dark"))
    label_color = "#ffffff" if dark else p.primary
    tds = []
    for idx, it in enumerate(b.items):
        color = p.badge_colors[idx % len(p.badge_colors)]
        tds.append(
            '<td align="center" valign="top">'
            '<table cellspacing="0" cellpadding="0" align="center">'
            f'<tr><td width="58" height="58" align="center" valign="middle" bgcolor="{color}"'
            f' style="color:#ffffff; font-size:24px; font-weight:bold;">'
            f"{_inline(it.get('letter', ''), ctx)}</td></tr></table>"
            + _p(
                _inline(it.get("label", ""), ctx),
                size=13,
                color=label_color,
                bold=True,
                top=6,
                align="center",
            )
            + "</td>"
        )
    head = _heading(
        b.props.get("title", ""), b.props.get("subtitle", ""), ctx, on_dark=dark, align="center"
    )
    row = (
        '<table width="100%" cellspacing="10" cellpadding="4"><tr>' + "".join(tds) + "</tr></table>"
        if tds
        else ""
    )
    bg = p.dark_bg if dark else p.tint
    return _wrap(
        f'<table width="100%" cellspacing="0" cellpadding="16" bgcolor="{bg}"><tr><td>'
        f"{head}{row}</td></tr></table>",
        "badges",
    )


def _render_chapters(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    cols = _int(b.props.get("columns"), 3, 1, 4)
    cells = []
    for it in b.items:
        link = it.get("link", "")
        href = _safe_href(link) if link else None
        link_html = ""
        if link:
            text = f"바로가기 → {_esc(link)}"
            link_html = (
                '<p style="margin-top:8px; margin-bottom:0; font-size:12px;">'
                + (
                    f'<a href="{_esc(href)}" style="color:{p.primary_mid}; font-size:12px;">'
                    f"{text}</a>"
                    if href
                    else f'<span style="color:{p.muted};">{text}</span>'
                )
                + "</p>"
            )
        cells.append(
            _p(_inline(it.get("category", ""), ctx), size=11, color=p.accent, bold=True)
            + _p(
                _inline(it.get("title", ""), ctx),
                size=15,
                color=p.primary,
                bold=True,
                top=4,
                bottom=4,
            )
            + _p(
                _inline(it.get("description", "") or it.get("desc", ""), ctx), size=12, color=p.text
            )
            + link_html
        )
    head = _heading(b.props.get("title", ""), b.props.get("subtitle", ""), ctx)
    return _wrap(
        head + _grid(cells, cols, ctx, bg=p.card_bg, border=p.border, top_border=p.primary),
        "chapters",
    )


def _render_quote(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    accent = _truthy(b.props.get("accent"))
    bg = p.hero_bg if accent else p.card_bg
    fg = p.hero_text if accent else p.primary
    sub = p.hero_muted if accent else p.muted
    who = _inline(b.props.get("author", ""), ctx)
    role = _inline(b.props.get("role", ""), ctx)
    attribution = ""
    if who or role:
        attribution = (
            f'<p style="margin-top:10px; margin-bottom:0; font-size:13px; color:{fg};">'
            f"— <b>{who}</b>"
            + (f' <span style="color:{sub};">{role}</span>' if role else "")
            + "</p>"
        )
    inner = (
        f'<p style="margin:0; font-size:34px; font-weight:bold; color:{p.accent};">“</p>'
        + _p(
            _inline(b.props.get("text", "") or b.props.get("quote", ""), ctx),
            size=17,
            color=fg,
            bold=True,
        )
        + attribution
    )
    return _wrap(
        '<table width="100%" cellspacing="0" cellpadding="0"><tr>'
        f'<td width="6" bgcolor="{p.accent}"></td>'
        f'<td bgcolor="{bg}" style="padding:20px; border: 1px solid {p.border};">{inner}</td>'
        "</tr></table>",
        "quote",
    )


def _render_cta(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    pr = b.props
    button = ""
    text = pr.get("buttonText") or pr.get("buttontext") or pr.get("button", "")
    link = pr.get("buttonLink") or pr.get("buttonlink") or pr.get("link", "")
    if text:
        button = (
            f'<p align="center" style="margin-top:14px;"><span style="background-color:'
            f'{p.accent}; color:#ffffff; font-size:14px; font-weight:bold;">&nbsp;&nbsp;&nbsp;'
            f"{_inline(text, ctx)}&nbsp;→&nbsp;&nbsp;&nbsp;</span></p>"
        )
    if link:
        button += _p(_esc(link), size=11, color=p.hero_muted, top=4, align="center")
    inner = (
        _p(_inline(pr.get("title", ""), ctx), size=21, color=p.hero_text, bold=True, align="center")
        + _p(
            _inline(pr.get("description", "") or pr.get("desc", ""), ctx),
            size=14,
            color=p.hero_muted,
            top=6,
            align="center",
        )
        + button
    )
    return _wrap(
        f'<table width="100%" cellspacing="0" cellpadding="26" bgcolor="{p.primary_mid}">'
        f"<tr><td>{inner}</td></tr></table>",
        "cta",
    )


def _render_split(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    pr = b.props
    dark = _truthy(pr.get("left-dark"))
    l_bg = p.dark_bg if dark else p.card_bg
    l_title = "#ffffff" if dark else p.primary
    l_sub = p.primary_light if dark else p.primary_mid
    l_text = _mix(p.dark_bg, "#ffffff", 0.8) if dark else p.text
    l_value = p.accent_soft if dark else p.primary_mid
    left = _p(_inline(pr.get("left-sub", ""), ctx), size=11, color=l_sub, bold=True) + _p(
        _inline(pr.get("left-header", ""), ctx), size=18, color=l_title, bold=True, top=2, bottom=10
    )
    for it in b.left:
        left += (
            '<table width="100%" cellspacing="0" cellpadding="6"><tr>'
            '<td width="38%" valign="middle">'
            + _p(_inline(it.get("value", ""), ctx), size=22, color=l_value, bold=True)
            + '</td><td valign="middle">'
            + _p(_inline(it.get("label", ""), ctx), size=13, color=l_title, bold=True)
            + _p(
                _inline(it.get("desc", "") or it.get("sub", ""), ctx), size=11, color=l_text, top=2
            )
            + "</td></tr></table>"
        )
    right = _p(_inline(pr.get("right-sub", ""), ctx), size=11, color=p.primary_mid, bold=True) + _p(
        _inline(pr.get("right-header", ""), ctx),
        size=18,
        color=p.primary,
        bold=True,
        top=2,
        bottom=10,
    )
    for it in b.right:
        right += (
            '<table width="100%" cellspacing="0" cellpadding="6"><tr>'
            f'<td width="34" valign="top" style="color:{p.accent}; font-size:18px;'
            f' font-weight:bold;">{_inline(it.get("num", ""), ctx)}</td><td valign="top">'
            + _p(
                _inline(it.get("title", "") or it.get("label", ""), ctx),
                size=14,
                color=p.primary,
                bold=True,
            )
            + _p(_inline(it.get("desc", ""), ctx), size=12, color=p.text, top=2)
            + "</td></tr></table>"
        )
    return _wrap(
        '<table width="100%" cellspacing="0" cellpadding="18"><tr>'
        f'<td width="50%" valign="top" bgcolor="{l_bg}" style="border: 1px solid {p.border};">'
        f"{left}</td>"
        f'<td width="50%" valign="top" bgcolor="{p.card_bg}" style="border: 1px solid'
        f' {p.border};">{right}</td></tr></table>',
        "split",
    )


def _cell_inline(value: str, ctx: _Ctx) -> str:
    p = ctx.p
    if value.strip() in ("-", "–", "—"):
        return f'<span style="color:{p.muted};">–</span>'
    out = _inline(value, ctx, strong_color=p.primary)
    out = _ITALIC_MARK_RE.sub(lambda m: f'<i style="color:{p.muted};">{m.group(1)}</i>', out)
    out = _ACCENT_MARK_RE.sub(lambda m: f'<b style="color:{p.accent};">{m.group(1)}</b>', out)
    return out


def _render_datatable(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    pr = b.props
    columns = [c.strip() for c in pr.get("columns", "").split("|")] if pr.get("columns") else []
    aligns = [a.strip().lower() for a in pr.get("align", "").split("|")]
    rows = [[c.strip() for c in r.split("|")] for r in b.rows]
    ncols = max([len(columns)] + [len(r) for r in rows] + [1])

    def align(i: int) -> str:
        a = aligns[i] if i < len(aligns) else "left"
        return a if a in ("left", "center", "right") else "left"

    head = ""
    if columns:
        head = (
            "<tr>"
            + "".join(
                f'<th align="{align(i)}" bgcolor="{p.primary_mid}" style="color:#ffffff;'
                f' font-size:12px; font-weight:bold;">{_inline(c, ctx)}</th>'
                for i, c in enumerate(columns + [""] * (ncols - len(columns)))
            )
            + "</tr>"
        )
    body = ""
    for r_idx, row in enumerate(rows):
        bg = p.card_bg if r_idx % 2 == 0 else p.tint
        cells = row + [""] * (ncols - len(row))
        body += (
            "<tr>"
            + "".join(
                f'<td align="{align(i)}" bgcolor="{bg}" style="font-size:12px; color:{p.text};">'
                f"{_cell_inline(c, ctx)}</td>"
                for i, c in enumerate(cells)
            )
            + "</tr>"
        )
    table = (
        f'<table width="100%" border="1" cellspacing="0" cellpadding="7" style="border-collapse:'
        f' collapse; border-color:{p.border};">{head}{body}</table>'
    )
    note = _p(_inline(pr.get("note", ""), ctx), size=11, color=p.muted, top=6)
    bar = _header_bar(
        pr.get("header", "") or pr.get("title", ""),
        pr.get("headersub", "") or pr.get("subtitle", ""),
        ctx,
    )
    return _wrap(bar + table + note, "datatable")


def _render_chapter_header(b: Block, ctx: _Ctx) -> str:
    p = ctx.p
    pr = b.props
    number = pr.get("number") or pr.get("chapter") or pr.get("num") or pr.get("no", "")
    label = pr.get("badge") or pr.get("label") or pr.get("category") or pr.get("eyebrow", "")
    subtitle = pr.get("subtitle", "")
    desc = pr.get("description") or pr.get("desc", "")
    num_cell = (
        f'<td width="90" align="center" valign="middle" bgcolor="{p.primary}"'
        f' style="color:#ffffff; font-size:34px; font-weight:bold;">{_inline(number, ctx)}</td>'
        if number
        else f'<td width="6" bgcolor="{p.primary}"></td>'
    )
    inner = (
        _p(_inline(label, ctx), size=11, color=p.accent, bold=True)
        + _p(_inline(pr.get("title", ""), ctx), size=24, color=p.primary, bold=True, top=2)
        + _p(_inline(subtitle, ctx), size=13, color=p.primary_mid, bold=True, top=2)
        + _p(_inline(desc, ctx), size=13, color=p.text, top=6)
    )
    return _wrap(
        '<table width="100%" cellspacing="0" cellpadding="0"><tr>'
        + num_cell
        + f'<td bgcolor="{p.tint}" style="padding:18px;">{inner}</td></tr></table>',
        "chapter-header",
    )


_RENDERERS: dict[str, Callable[[Block, _Ctx], str]] = {
    "hero": _render_hero,
    "kpi": _render_kpi,
    "stats": _render_stats,
    "cards": _render_cards,
    "panel": _render_panel,
    "stepper": _render_stepper,
    "timeline": _render_timeline,
    "strategy": _render_strategy,
    "alphagrid": _render_alphagrid,
    "roadmap": _render_roadmap,
    "badges": _render_badges,
    "chapters": _render_chapters,
    "quote": _render_quote,
    "cta": _render_cta,
    "split": _render_split,
    "datatable": _render_datatable,
    "chapter-header": _render_chapter_header,
}

_NEUTRAL_BG = "#f3f4f6"
_NEUTRAL_BORDER = "#9ca3af"
_NEUTRAL_TEXT = "#374151"


def _raw_box(title: str, raw: str, *, kind: str) -> str:
    body = _esc(raw).replace("\n", "<br />") if raw.strip() else "&nbsp;"
    return (
        f'<table class="block block-{kind}" width="100%" border="1" cellspacing="0"'
        f' cellpadding="10" bgcolor="{_NEUTRAL_BG}" style="border-collapse:collapse;'
        f' border-color:{_NEUTRAL_BORDER}; margin-top:10px; margin-bottom:10px;"><tr><td>'
        f'<p style="margin:0; font-size:11px; font-weight:bold; color:{_NEUTRAL_TEXT};">'
        f"{_esc(title)}</p>"
        f'<p style="margin-top:6px; margin-bottom:0; font-family:{MONO_STACK}; font-size:12px;'
        f' color:{_NEUTRAL_TEXT}; white-space:pre-wrap;">{body}</p></td></tr></table>'
    )


_ADMONITION_STYLE = {
    "note": ("#f3f4f6", "#4b5563", "✎", "참고"),
    "tip": ("#e7f6ec", "#1a7f43", "✔", "팁"),
    "success": ("#e7f6ec", "#1a7f43", "✔", "성공"),
    "info": ("#e8f1fd", "#1d63c9", "ℹ", "정보"),
    "important": ("#e8f1fd", "#1d63c9", "ℹ", "중요"),
    "warning": ("#fff4e0", "#b45309", "⚠", "주의"),
    "caution": ("#fff4e0", "#b45309", "⚠", "주의"),
    "danger": ("#fde8e8", "#c0262d", "✖", "위험"),
}


def _render_admonition(block: Block, ctx: _Ctx) -> str:
    bg, fg, icon, default_title = _ADMONITION_STYLE.get(block.name, _ADMONITION_STYLE["note"])
    title = block.label or default_title
    body = _render_markdown(block.raw, ctx)
    return (
        '<table class="block block-admonition" width="100%" cellspacing="0" cellpadding="0"'
        ' style="margin-top:8px; margin-bottom:8px;"><tr>'
        f'<td width="5" bgcolor="{fg}"></td>'
        f'<td bgcolor="{bg}" style="padding:10px; color:#1f2937;">'
        f'<p style="margin:0; color:{fg}; font-weight:bold;">{icon} {_esc(title)}</p>'
        f"{body}</td></tr></table>"
    )


def _render_block(block: Block, ctx: _Ctx) -> str:
    warning = ""
    if not block.closed:
        warning = (
            '<p style="margin-top:8px; margin-bottom:0; font-size:12px; color:#b45309;">'
            f"⚠ ‘:::{_esc(block.name)}’ 블록이 ‘:::’ 줄로 닫히지 않았습니다. "
            "블록 끝에 ‘:::’ 한 줄을 넣어 주세요.</p>"
        )
    if block.kind == "admonition":
        return warning + _render_admonition(block, ctx)
    renderer = _RENDERERS.get(block.kind)
    if renderer is None:
        return warning + _raw_box(f"알 수 없는 블록: :::{block.name}", block.raw, kind="unknown")
    try:
        out = renderer(block, ctx)
    except Exception:  # never let one block break the whole preview
        return warning + _raw_box(f":::{block.name}", block.raw, kind="error")
    if block.extra:
        out += _raw_box(
            f":::{block.name} 블록에서 읽지 못한 줄",
            "\n".join(block.extra),
            kind="extra",
        )
    return warning + out


# --------------------------------------------------------------------------------------------
# Document
# --------------------------------------------------------------------------------------------


def _stylesheet(p: Palette) -> str:
    return f"""
body {{ font-family: {FONT_STACK}; font-size: 14px; color: {p.text}; }}
p {{ margin-top: 4px; margin-bottom: 8px; }}
h1 {{ font-size: 26px; color: {p.primary}; margin-top: 18px; margin-bottom: 10px; }}
h2 {{ font-size: 21px; color: {p.primary}; margin-top: 22px; margin-bottom: 8px; }}
h3 {{ font-size: 17px; color: {p.primary_mid}; margin-top: 16px; margin-bottom: 6px; }}
h4 {{ font-size: 15px; color: {p.primary_mid}; margin-top: 12px; margin-bottom: 4px; }}
a {{ color: {p.primary_mid}; }}
code {{ font-family: {MONO_STACK}; font-size: 13px; color: {p.accent};
        background-color: {p.tint}; }}
pre {{ font-family: {MONO_STACK}; font-size: 12px; color: {p.text};
       background-color: {p.tint}; margin-top: 6px; margin-bottom: 10px; }}
blockquote {{ color: {p.muted}; margin-left: 18px; }}
th {{ background-color: {p.tint}; color: {p.primary}; font-weight: bold; }}
li {{ margin-top: 2px; margin-bottom: 2px; }}
"""


def render_body(
    markdown_text: str, *, theme: str | None = None, image_resolver: ImageResolver | None = None
) -> tuple[str, Palette]:
    """The body HTML (without ``<html>`` wrapper) and the palette used."""
    text = markdown_text.replace("\r\n", "\n").replace("\r", "\n")
    fm, body = split_front_matter(text)
    pal = get_palette(theme or fm.values.get("theme"))
    ctx = _Ctx(pal, image_resolver)
    parts: list[str] = []
    title = fm.values.get("title", "")
    if title and not _truthy(fm.values.get("hide_title")) and not body.lstrip().startswith("# "):
        parts.append(f"<h1>{_esc(title)}</h1>")
    for seg in split_segments(body):
        if isinstance(seg, Block):
            parts.append(_render_block(seg, ctx))
        else:
            parts.append(_render_markdown(seg, ctx))
    return "\n".join(parts), pal


def render_preview(
    markdown_text: str,
    *,
    theme: str | None = None,
    image_resolver: ImageResolver | None = None,
) -> str:
    """A complete HTML document previewing ``markdown_text`` in a ``QTextBrowser``.

    ``theme`` overrides the front matter's ``theme``. ``image_resolver`` maps a local image
    reference (``/img/x.png``, ``img/x.png``, ``../static/img/x.png``) to a ``file:`` URL or an
    image data URI, or None (a placeholder is shown). Remote images are never referenced.
    """
    body, pal = render_body(markdown_text, theme=theme, image_resolver=image_resolver)
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8" />'
        f"<style>{_stylesheet(pal)}</style></head>"
        f'<body style="background-color:{pal.background}; color:{pal.text};">'
        f"{body}</body></html>"
    )
