"""Which Markdown each character a person sees came from (Qt-free): :func:`trace_inline`.

The site's reading (:func:`modu_desktop.core.preview.markdown.parse`) gives an inline run as
tokens without offsets. Walking those tokens over the run's Markdown in order gives each visible
character its source: a letter is itself, ``\\*`` and ``&amp;`` are one character each,
``:tada:`` one emoji, a line break inside a paragraph one space; marks (``**``, ``~~``, ``[``,
``](…)``, tags) give no character. The walk is strict: when the Markdown is not where a token
says it is, the run is reported as untraceable (None) instead of guessed, so nothing is ever
replaced at the wrong place.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from markdown_it.token import Token

from modu_desktop.core.preview.markdown import EMOJI

__all__ = ["Traced", "trace_inline", "align_visible"]

Traced = list[tuple[str, int, int]]
"""(visible character, start, end) in the run's Markdown, in order."""

_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_SHORTCODE = re.compile(r":\+1:|:-1:|:[\w-]+:", re.ASCII)
_ASCII_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_MARK_TOKENS = {"strong_open", "strong_close", "em_open", "em_close", "s_open", "s_close"}


class _Lost(Exception):
    """The Markdown is not where the tokens say."""


def trace_inline(children: Sequence[Token], source: str) -> Traced | None:
    """Each character the tokens show, with the piece of ``source`` it came from; None when
    the tokens cannot be followed over ``source``."""
    out: Traced = []
    try:
        end = _walk(children, source, 0, out)
    except _Lost:
        return None
    if source[end:].strip():
        return None
    return out


def _walk(children: Sequence[Token], src: str, pos: int, out: Traced) -> int:
    for tok in children:
        kind = tok.type
        if kind == "text":
            pos = _text(tok.content, src, pos, out)
        elif kind == "softbreak":
            start = pos
            pos = _line_break(src, pos, backslash=False)
            out.append((" ", start, pos))
        elif kind == "hardbreak":
            start = pos
            pos = _line_break(src, pos, backslash=True)
            out.append(("\n", start, pos))
        elif kind in _MARK_TOKENS:
            pos = _expect(src, pos, tok.markup)
        elif kind == "link_open":
            if tok.markup != "autolink":  # a bare address is its own text
                pos = _expect(src, pos, "[")
        elif kind == "link_close":
            if tok.markup != "autolink":
                pos = _after_link(src, _expect(src, pos, "]"))
        elif kind == "code_inline":
            pos = _code(tok, src, pos, out)
        elif kind == "image":
            pos = _expect(src, pos, "![")
            pos = _walk(tok.children or [], src, pos, out)
            pos = _after_link(src, _expect(src, pos, "]"))
        elif kind == "html_inline":
            pos = _expect(src, pos, tok.content)
        elif kind == "text_directive" and tok.meta.get("simple", True):
            name = ":" + tok.meta["name"]
            start = pos
            pos = _expect(src, pos, name)
            out.extend((ch, start, pos) for ch in name)
        else:
            raise _Lost(kind)
    return pos


def _expect(src: str, pos: int, what: str) -> int:
    if not src.startswith(what, pos):
        raise _Lost(what)
    return pos + len(what)


def _text(text: str, src: str, pos: int, out: Traced) -> int:
    k, n = 0, len(text)
    while k < n:
        ch = text[k]
        if pos >= len(src):
            raise _Lost("end")
        here = src[pos]
        if here == "\\" and pos + 1 < len(src) and src[pos + 1] == ch and ch in _ASCII_PUNCT:
            out.append((ch, pos, pos + 2))
            pos, k = pos + 2, k + 1
            continue
        if here == "&" and (m := _ENTITY.match(src, pos)):
            decoded = html.unescape(m.group())
            if decoded != m.group() and text.startswith(decoded, k):
                out.extend((c, pos, m.end()) for c in decoded)
                pos, k = m.end(), k + len(decoded)
                continue
        if here == ":" and (m := _SHORTCODE.match(src, pos)):
            emoji = EMOJI.get(m.group()[1:-1])
            if emoji and text.startswith(emoji, k):
                out.extend((c, pos, m.end()) for c in emoji)
                pos, k = m.end(), k + len(emoji)
                continue
        if here == ch or (ch == "\ufffd" and here == "\0"):  # the parser's stand-in for NUL
            out.append((ch, pos, pos + 1))
            pos, k = pos + 1, k + 1
            continue
        raise _Lost(ch)
    return pos


def _line_break(src: str, pos: int, *, backslash: bool) -> int:
    n = len(src)
    while pos < n and src[pos] in " \t":
        pos += 1
    if backslash and pos < n and src[pos] == "\\":
        pos += 1
    if pos >= n or src[pos] != "\n":
        raise _Lost("line break")
    pos += 1
    while pos < n and src[pos] in " \t":
        pos += 1
    return pos


def _code(tok: Token, src: str, pos: int, out: Traced) -> int:
    pos = _expect(src, pos, tok.markup)
    close = re.compile(rf"(?<!`)`{{{len(tok.markup)}}}(?!`)").search(src, pos)
    if close is None:
        raise _Lost("code")
    shown = src[pos : close.start()].replace("\n", " ")
    # CommonMark: one space of padding each side is not part of the code
    pad = 1 if len(shown) >= 2 and shown[0] == shown[-1] == " " and shown.strip(" ") else 0
    shown = shown[pad : len(shown) - pad]
    if shown != tok.content:
        raise _Lost("code")
    out.extend((ch, pos + pad + k, pos + pad + k + 1) for k, ch in enumerate(shown))
    return close.end()


def _after_link(src: str, pos: int) -> int:
    """Past a link's destination ``(…)`` or reference ``[…]`` (nothing for a shortcut)."""
    if src.startswith("(", pos):
        depth, i = 0, pos
        while i < len(src):
            c = src[i]
            if c == "\\":
                i += 2
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    return i + 1
            elif c == "<" and depth == 1:
                close = src.find(">", i)
                i = close if close >= 0 else i
            i += 1
        raise _Lost("link destination")
    if src.startswith("[", pos):
        close = src.find("]", pos)
        if close < 0:
            raise _Lost("link reference")
        return close + 1
    return pos


def align_visible(visible: str, traced: Traced) -> list[tuple[int, int]] | None:
    """The source piece of each character of ``visible`` (the card's text, white space
    tidied), from the traced characters of the same run; None when they do not line up."""
    out: list[tuple[int, int]] = []
    j, n = 0, len(traced)
    for ch in visible:
        while j < n and not _same(ch, traced[j][0]):
            if not traced[j][0].isspace():  # the tidying only drops white space
                return None
            j += 1
        if j >= n:
            return None
        out.append((traced[j][1], traced[j][2]))
        j += 1
    return out


def _same(shown: str, traced: str) -> bool:
    if shown == traced:
        return True
    return shown == " " and traced != "\n" and traced.isspace()
