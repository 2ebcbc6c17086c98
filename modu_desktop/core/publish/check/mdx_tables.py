"""The MDX scanner's tables: HTML element names, the site's provided components, and the
line patterns it matches (Qt-free; see ``mdx.py``)."""

from __future__ import annotations

import re

VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
HTML = VOID | frozenset(
    [
        "a",
        "abbr",
        "address",
        "article",
        "aside",
        "audio",
        "b",
        "bdi",
        "bdo",
        "blockquote",
        "body",
        "button",
        "canvas",
        "caption",
        "cite",
        "code",
        "colgroup",
        "data",
        "datalist",
        "dd",
        "del",
        "details",
        "dfn",
        "dialog",
        "div",
        "dl",
        "dt",
        "em",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hgroup",
        "html",
        "i",
        "iframe",
        "ins",
        "kbd",
        "label",
        "legend",
        "li",
        "main",
        "map",
        "mark",
        "menu",
        "meter",
        "nav",
        "noscript",
        "object",
        "ol",
        "optgroup",
        "option",
        "output",
        "p",
        "picture",
        "pre",
        "progress",
        "q",
        "rp",
        "rt",
        "ruby",
        "s",
        "samp",
        "script",
        "search",
        "section",
        "select",
        "slot",
        "small",
        "span",
        "strong",
        "style",
        "sub",
        "summary",
        "sup",
        "table",
        "tbody",
        "td",
        "template",
        "textarea",
        "tfoot",
        "th",
        "thead",
        "time",
        "title",
        "tr",
        "u",
        "ul",
        "var",
        "video",
        "svg",
        "path",
        "circle",
        "rect",
        "g",
        "line",
        "polyline",
        "polygon",
        "center",
        "font",
        "big",
        "strike",
        "tt",
    ]
)
# Components the site provides to every page (src/theme/MDXComponents.js and Docusaurus').
PROVIDED = frozenset(
    [
        "Head",
        "Details",
        "Columns",
        "Col",
        "Column",
        "Highlight",
        "HeroButton",
        "Callout",
        "StepList",
        "StepItem",
        "Text",
        "ChapterHeader",
        "HeroSection",
        "StatsSection",
        "CardsSection",
        "TimelineSection",
        "QuoteSection",
        "CTASection",
        "ChaptersSection",
        "RoadmapSection",
        "BadgesSection",
        "ChapterHeaderSection",
        "KpiSection",
        "StrategySection",
        "AlphaGridSection",
        "PanelSection",
        "StepperSection",
        "SplitSection",
        "DataTableSection",
    ]
)

_FENCE = re.compile(r"^((?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?)(`{3,}|~{3,})(.*)$")
_DIRECTIVE = re.compile(r"^[ \t]{0,3}(:{3,})([A-Za-z][A-Za-z0-9_-]*)?(.*)$")
_DIRECTIVE_REST = re.compile(r"^(?:\[[^\]\n]*\])?(?:\{[^}\n]*\})?[ \t]*$")
_CLOSER = re.compile(r"^[ \t]{0,3}(:{3,})[ \t]*$")
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}(?:[ \t]|$)")
_LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_THEMATIC = re.compile(r"^[ \t]{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_TABLE_ROW = re.compile(r"^[ \t]*\|")
_TABLE_DELIM = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_ESM = re.compile(r"(?:import|export)[ \t\n]")
_CONTENT_START = re.compile(r"^(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?[ \t]*")
_SPECIAL = re.compile(r"\\[!-/:-@\[-`{-~]|`+|<|\{|\]\(|(?<![\w/])(?:https?://|www\.)|!\[", re.ASCII)
# A line that starts with a letter and holds none of the characters MDX reads specially.
_PLAIN_START = re.compile(r"[^\W\d_]")
_ANY_SPECIAL = re.compile(r"[\\`<{!\]|:]|https?://|www\.")
# An HTML tag whose attribute values may lack quotes (``<a href=https://x.kr>``).
_UNQUOTED_TAG = re.compile(
    r"<([A-Za-z][\w.-]*)((?:\s+[A-Za-z_:][\w:.-]*"
    r"(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'<>=`{}]+))?)*)(\s*/?>)"
)
_UNQUOTED_VALUE = re.compile(r"=\s*([^\s\"'<>=`{}]+)")
_BLANK_LINE = re.compile(r"\n[ \t]*(?:\n|$)")
# Where a paragraph ends: a blank line, or a line that starts a fence, heading or directive.
_PARA_END = re.compile(r"\n(?:[ \t]*(?:\n|$)|[ \t]{0,3}(?:`{3,}|~{3,}|#{1,6}[ \t]|:::))")
_IMAGE = re.compile(r"!\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>\n]*>|[^)\s]+)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//|^#")
_AUTOLINK = re.compile(
    r"<((?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)|(?:[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+))>"
)
_IDENT = re.compile(r"^[^\W\d][\w$]*$")
