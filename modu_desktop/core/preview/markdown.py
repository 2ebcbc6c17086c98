"""How the site reads Markdown, in one place: :func:`site_markdown` (Qt-free).

The site compiles every document with Docusaurus 3 (MDX 3: micromark CommonMark, remark-gfm,
remark-directive, remark-emoji, Docusaurus' heading ids, the site's brochure plugin). This
module configures markdown-it-py to read the same way, so the preview, the publish check and any
editor see the same structure the published page will have:

* CommonMark + GFM (tables, task lists, footnotes, autolink literals, strikethrough with one
  *or* two tildes — ``10~20명, 기간은 3~5일`` strikes "20명, 기간은 3" as on the site);
* MDX's differences: no indented code (indented text is a paragraph), no ``<https://…>``
  autolinks, and no raw HTML blocks: a line that holds only tags is a JSX flow element whose
  content is Markdown again;
* text directives (remark-directive): ``:name`` not preceded by ``:``, whose name starts with
  neither punctuation nor space and ends with neither ``-`` nor ``_``, and which is not followed
  by ``:`` — ``1:1`` holds the directive ``:1``. Outside the brochure blocks Docusaurus writes
  a bare one back as text; inside them the brochure plugin drops it;
* emoji shortcodes (remark-emoji with node-emoji's names: ``:tada:`` → 🎉);
* heading ids as Docusaurus makes them (github-slugger over the heading's text).

Tokens carry what the site's tree has: ``text_directive`` tokens (``meta["name"]``,
``meta["simple"]``), ``heading_open.attrs["id"]``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache

import mdurl
from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.gfm import gfm_plugin

from modu_desktop.core.account.paths import resources_dir

__all__ = [
    "site_markdown",
    "parse",
    "first_heading",
    "heading_slug",
    "directive_name_at",
    "EMOJI",
    "JSX_TAG_LINE",
]


@lru_cache(maxsize=1)
def site_markdown() -> MarkdownIt:
    """The configured parser (shared, read-only: ``parse``/``render`` keep no state in it)."""
    md = MarkdownIt("commonmark", {"html": True, "linkify": False, "typographer": False})
    md.disable(["code", "html_block", "autolink"])
    md.normalizeLink = _normalize_link  # type: ignore[method-assign]
    # micromark makes a link of any destination (what is shown is the renderer's business)
    md.validateLink = _any_link  # type: ignore[method-assign,assignment]
    md.use(gfm_plugin)
    md.options["alerts"] = False  # GitHub's "> [!NOTE]": remark-gfm has no such thing
    md.block.ruler.before(
        "fence", "jsx_flow", _jsx_flow, {"alt": ["paragraph", "reference", "blockquote"]}
    )
    md.inline.ruler.after("gfm_autolink_protocol", "text_directive", _text_directive)
    md.core.ruler.push("heading_ids", _heading_ids)
    md.core.ruler.push("emoji", _emoji)
    return md


def parse(text: str) -> list[Token]:
    return site_markdown().parse(text)


def _normalize_link(url: str) -> str:
    """micromark's normalizeUri: percent-encode what is not URL-safe, keep ``%XX``; unlike
    markdown-it's default, host names stay as written (no punycode)."""
    return mdurl.encode(url)


def _any_link(_url: str) -> bool:
    return True


@lru_cache(maxsize=256)
def first_heading(text: str) -> str | None:
    """``h1``…``h6`` of the first heading in ``text``, ``hr`` when a thematic break comes
    first, None when there is neither (Docusaurus' content title looks for the first)."""
    for tok in parse(text):
        if tok.type in ("heading_open", "hr"):
            return tok.tag
    return None


# -- JSX flow lines --------------------------------------------------------------------------
_NAME = r"[A-Za-z][\w.:-]*"
_ATTRS = r"""(?:\s+(?:[^<>"'{}]|"[^"]*"|'[^']*'|\{[^{}]*\})*)?"""
_TAG = rf"(?:<{_NAME}{_ATTRS}/?>|</{_NAME}\s*>)"
JSX_TAG_LINE = re.compile(rf"^[ \t]*(?:{_TAG}[ \t]*)+$")
_JSX_ONE_LINE = re.compile(rf"^[ \t]*(<({_NAME}){_ATTRS}>)(.*)(</\2\s*>)[ \t]*$")


def _jsx_flow(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A line holding only JSX tags is a flow element (MDX): its tags stand alone and what
    follows is Markdown again. ``<div>text</div>`` on one line: the text is phrasing."""
    pos = state.bMarks[start] + state.tShift[start]
    if pos >= state.eMarks[start] or state.src[pos] != "<":
        return False
    line = state.src[state.bMarks[start] : state.eMarks[start]]
    whole = JSX_TAG_LINE.match(line)
    one = None if whole else _JSX_ONE_LINE.match(line)
    if not whole and not one:
        return False
    if silent:
        return True
    state.line = start + 1
    if whole:
        token = state.push("html_block", "", 0)
        token.map = [start, state.line]
        token.content = line.strip() + "\n"
        return True
    assert one is not None
    for kind, content in (
        ("open", one.group(1)),
        ("inline", one.group(3)),
        ("close", one.group(4)),
    ):
        if kind == "inline":
            token = state.push("inline", "", 0)
            token.content = content.strip()
            token.children = []
        else:
            token = state.push("html_block", "", 0)
            token.content = content
        token.map = [start, state.line]
    return True


# -- text directives -------------------------------------------------------------------------
def _punct(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "PS"


def _name_end(src: str, pos: int, stop: int) -> int | None:
    """End of a directive name starting at ``pos`` (micromark-extension-directive's rule)."""
    if pos >= stop or src[pos].isspace() or _punct(src[pos]):
        return None
    end = pos + 1
    while end < stop:
        ch = src[end]
        if ch.isspace() or (_punct(ch) and ch not in "-_"):
            break
        end += 1
    if src[end - 1] in "-_":
        return None
    return end


def _balanced(src: str, pos: int, stop: int, opener: str, closer: str) -> int | None:
    """End (after the closer) of a bracketed run starting at ``pos`` (one line)."""
    depth = 0
    i = pos
    while i < stop:
        ch = src[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "\n" and opener == "{":
            pass
        if ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def directive_name_at(src: str, pos: int, stop: int | None = None) -> tuple[str, int] | None:
    """The text directive whose ``:`` is at ``pos``: (name, end of the name), or None."""
    stop = len(src) if stop is None else stop
    if pos >= stop or src[pos] != ":":
        return None
    if pos > 0 and src[pos - 1] == ":" and not (pos > 1 and src[pos - 2] == "\\"):
        return None
    end = _name_end(src, pos + 1, stop)
    if end is None or (end < stop and src[end] == ":"):
        return None
    return src[pos + 1 : end], end


def _text_directive(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    if src[pos] != ":":
        return False
    if pos > 0 and src[pos - 1] == ":":
        return False
    found = directive_name_at(src, pos, state.posMax)
    if found is None:
        return False
    name, end = found
    label = ""
    simple = True
    if end < state.posMax and src[end] == "[":
        close = _balanced(src, end, state.posMax, "[", "]")
        if close is not None:
            label = src[end + 1 : close - 1]
            simple = simple and not label
            end = close
    if end < state.posMax and src[end] == "{":
        close = _balanced(src, end, state.posMax, "{", "}")
        if close is not None:
            simple = simple and not src[end + 1 : close - 1].strip()
            end = close
    if not silent:
        token = state.push("text_directive", "", 0)
        token.content = src[pos:end]
        token.meta = {"name": name, "label": label, "simple": simple}
    state.pos = end
    return True


# -- heading ids -----------------------------------------------------------------------------
def heading_slug(text: str) -> str:
    """github-slugger 1.5 (Docusaurus' heading ids), without the duplicate counter: lower
    case; letters, marks, decimal and letter numbers, ``_``, ``-`` and spaces kept; spaces
    become ``-``."""
    kept = []
    for ch in text.lower():
        cat = unicodedata.category(ch)
        if ch in "- " or cat[0] in "LM" or cat in ("Nd", "Nl", "Pc"):
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def _inline_text(children: list[Token] | None) -> str:
    """mdast-util-to-string of a heading, as Docusaurus reads it before any other plugin:
    directives count as nothing, HTML is left out, pictures count by their alt text."""
    out: list[str] = []
    for tok in children or []:
        if tok.type in ("text", "code_inline"):
            out.append(tok.content)
        elif tok.type in ("softbreak", "hardbreak"):
            out.append("\n")
        elif tok.type == "image":
            out.append(_inline_text(tok.children))
    return "".join(out)


def _heading_ids(state: StateCore) -> None:
    seen: dict[str, int] = {}
    tokens = state.tokens
    for i, tok in enumerate(tokens):
        if tok.type != "heading_open" or i + 1 >= len(tokens):
            continue
        base = heading_slug(_inline_text(tokens[i + 1].children))
        slug = base
        while slug in seen:
            seen[base] += 1
            slug = f"{base}-{seen[base]}"
        seen[slug] = 0
        tok.attrs["id"] = slug


# -- emoji -----------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _emoji_table() -> dict[str, str]:
    path = resources_dir() / "preview" / "emoji.json"
    return json.loads(path.read_text("utf-8"))


class _Emoji:
    def __contains__(self, name: str) -> bool:
        return name in _emoji_table()

    def get(self, name: str) -> str | None:
        return _emoji_table().get(name)


EMOJI = _Emoji()
_EMOJI_RE = re.compile(r":\+1:|:-1:|:[\w-]+:", re.ASCII)


def _emoji_sub(m: re.Match[str]) -> str:
    return _emoji_table().get(m.group(0)[1:-1], m.group(0))


def _emoji(state: StateCore) -> None:
    for tok in state.tokens:
        if tok.type != "inline" or not tok.children:
            continue
        for child in tok.children:
            if child.type == "text" and ":" in child.content:
                child.content = _EMOJI_RE.sub(_emoji_sub, child.content)


# -- the brochure plugin's view of a block's body ---------------------------------------------
@lru_cache(maxsize=2048)
def block_body_text(raw: str) -> str:
    """A brochure block's body as the site's remark plugin hands it to its line parser: the
    Markdown read, then written back by its ``toMarkdownText`` — strong as ``**…**``, emphasis
    as ``_…_``, strikethrough as ``~~…~~``, code as backticks, links as their text, pictures
    and text directives (the ``:1`` of ``1:1``) as nothing, list items as ``- `` lines with
    their further lines indented by two spaces, emoji shortcodes replaced."""
    from markdown_it.tree import SyntaxTreeNode

    def text(node: SyntaxTreeNode) -> str:
        kind = node.type
        if kind == "text":
            return node.content
        if kind in ("softbreak", "hardbreak"):
            return "\n"
        if kind == "code_inline":
            return f"`{node.content}`"
        if kind == "fence":
            return f"\n```\n{node.content.removesuffix(chr(10))}\n```\n"
        if kind in ("text_directive", "image", "html_inline", "html_block", "hr"):
            return ""
        inner = "".join(text(child) for child in node.children)
        if kind == "strong":
            return f"**{inner}**"
        if kind == "em":
            return f"_{inner}_"
        if kind == "s":
            return f"~~{inner}~~"
        if kind == "paragraph":
            return inner + "\n"
        if kind == "list_item":
            lines = inner.strip().split("\n")
            return "- " + "\n".join([lines[0]] + ["  " + line for line in lines[1:]]) + "\n"
        if kind in ("bullet_list", "ordered_list"):
            return inner + "\n"
        return inner

    tree = SyntaxTreeNode(parse(raw))
    return "".join(text(child) for child in tree.children).strip()
