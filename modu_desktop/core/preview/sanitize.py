"""Raw HTML in documents, made safe with ``nh3`` (the Rust ``ammonia`` sanitiser).

What stays: text formatting, lists, tables, links, images, ``details``, ``span``/``div`` with a
few harmless inline styles. What goes: scripts, styles, frames, objects, forms, SVG/MathML,
event handlers, ``javascript:`` and every other non-web URL, CSS ``url()``/``expression``.
Images keep their ``src`` only when the preview's image policy maps it to a local URL
(:func:`modu_desktop.core.preview.images.resolve_image`); otherwise the ``<img>`` becomes a
placeholder in the Markdown step.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import nh3

__all__ = ["sanitize_html", "ALLOWED_TAGS"]

ALLOWED_TAGS = frozenset(
    {
        "a", "abbr", "b", "blockquote", "br", "caption", "center", "cite", "code", "col",
        "colgroup", "dd", "del", "details", "div", "dl", "dt", "em", "figcaption", "figure",
        "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "input", "ins", "kbd", "li", "mark",
        "ol", "p", "pre", "q", "s", "samp", "section", "small", "span", "strike", "strong", "sub",
        "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul", "var",
        "wbr",
    }
)  # fmt: skip

_CLEAN_CONTENT = frozenset(
    {"script", "style", "iframe", "object", "embed", "noscript", "template", "svg", "math"}
)
_GLOBAL_ATTRS = {"title", "align", "style", "class", "id", "lang", "dir"}
_ATTRS: dict[str, set[str]] = {
    "*": _GLOBAL_ATTRS,
    "a": {
        "href",
        "name",
        "data-footnote-ref",
        "data-footnote-backref",
        "aria-describedby",
        "aria-label",
    },
    "input": {"type", "disabled", "checked"},
    "section": {"data-footnotes"},
    "img": {"src", "alt", "width", "height"},
    "td": {"colspan", "rowspan", "valign", "width"},
    "th": {"colspan", "rowspan", "valign", "width", "scope"},
    "col": {"span", "width"},
    "ol": {"start", "type"},
    "details": {"open"},
}
_STYLE_PROPS = frozenset(
    {
        "color", "background-color", "font-weight", "font-style", "font-size", "text-align",
        "text-decoration", "vertical-align", "margin", "margin-top", "margin-bottom",
        "margin-left", "margin-right", "padding", "padding-top", "padding-bottom",
        "padding-left", "padding-right", "border", "border-radius", "width", "max-width",
        "height", "line-height", "display", "white-space", "letter-spacing", "opacity",
    }
)  # fmt: skip
_STYLE_BAD = re.compile(r"url\s*\(|expression|javascript:|@import|image-set|\\", re.I)
_HREF_BAD = re.compile(r"^\s*(data|file|modu-img|javascript|vbscript):", re.I)
_CLASS_OK = re.compile(r"^([A-Za-z][\w-]{0,60}|language-[^\s\"'<>&]{1,60})$")


def _filter(image_src: Callable[[str], str | None]) -> Callable[[str, str, str], str | None]:
    def attribute_filter(tag: str, attr: str, value: str) -> str | None:
        if attr == "style":
            return None if _STYLE_BAD.search(value) else value
        if attr == "class":
            kept = [c for c in value.split() if _CLASS_OK.match(c)]
            return " ".join(kept) or None
        if tag == "input" and attr == "type":
            return "checkbox"  # a task list's box, never a field
        if tag == "img" and attr == "src":
            return image_src(value)
        if attr == "href" and _HREF_BAD.match(value):
            return None
        return value

    return attribute_filter


def sanitize_html(fragment: str, *, image_src: Callable[[str], str | None]) -> str:
    """Sanitise a fragment of HTML (Markdown output). ``image_src`` maps an ``<img src>`` to the
    URL to keep, or None to drop the attribute."""
    return nh3.clean(
        fragment,
        tags=set(ALLOWED_TAGS),
        clean_content_tags=set(_CLEAN_CONTENT),
        attributes={k: set(v) for k, v in _ATTRS.items()},
        attribute_filter=_filter(image_src),
        url_schemes={"http", "https", "mailto", "tel", "data", "modu-img", "file"},
        filter_style_properties=set(_STYLE_PROPS),
        link_rel=None,
        strip_comments=True,
    )
