"""Matching a search text against what a person sees, the Korean way (Qt-free).

- **Unicode-normalised.** Both sides are compared in NFC, so a page typed on a Mac (Hangul
  stored as separate jamo, NFD) is found by the same 학년도 typed on Windows. Offsets always
  point into the original text.
- **Case.** By default letters that have a case match either case (``casefold``: "Student"
  finds "STUDENT" and "student"); Hangul has no case and is compared as it is — no splitting
  into jamo, no initial-consonant (초성) search, no other games. ``case_sensitive`` compares
  cased letters exactly. Any kind of white space matches a space (a no-break space from
  ``&nbsp;`` too); a line break inside a text (줄바꿈) matches only a line break.
- **Whole word** (``whole_word``). A hit must not be glued to letters or digits around it: the
  character before it and the one after it are not letters or digits (or the text ends). Korean
  writes a particle (조사) onto its word, so one to three particles from :data:`PARTICLES` may
  follow before that boundary: "2025학년도" is a whole word in "2025학년도의" and
  "2025학년도부터는", but "학년도" is not one in "2025학년도의" (a digit is glued before it)
  and "학년" is not one in "학년별" (별 is not a particle). Some particles are also syllables
  of words: "학년" is a whole word in "학년도" (도: "also"), because nothing short of a
  dictionary tells the two apart — search the longer word when it matters.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from modu_desktop.core.search.model import SearchOptions

__all__ = [
    "Prepared",
    "PARTICLES",
    "count",
    "find",
    "prepare",
    "prepare_query",
    "whole_word_at",
]

PARTICLES = tuple(
    sorted(
        {
            # case particles
            "이", "가", "을", "를", "은", "는", "의", "에", "에서", "에게", "께", "께서", "한테",
            "로", "으로", "와", "과", "랑", "이랑", "하고", "도", "만", "까지", "부터", "보다",
            "처럼", "마다", "조차", "마저", "밖에", "뿐", "이나", "나", "이든", "든", "이든지",
            "든지", "이라도", "라도", "이란", "란", "이며", "며", "야", "이야", "요", "엔",
            "에는", "에도", "에서는", "에서도", "으로는", "로는", "으로서", "로서", "으로써",
            "로써",
            # the copula, which behaves like one
            "이다", "다", "입니다", "이고", "고", "인", "이었다", "였다",
        },
        key=len,
        reverse=True,
    )
)  # fmt: skip
"""Endings that may follow a whole word (longest first). A closed list on purpose: a word
followed by anything else is part of a longer word."""

_MAX_PARTICLES = 3
_ODD_SPACE = re.compile(r"[^\S \n]")  # white space other than a space or a line break


@dataclass(frozen=True, slots=True)
class Prepared:
    """A text ready for matching: ``text`` is NFC (and case-folded unless case-sensitive),
    ``origin[i]`` the offset in the original text of the character ``text[i]`` came from
    (None: the same offsets)."""

    text: str
    origin: tuple[int, ...] | None = None

    def original(self, offset: int, length: int) -> int:
        """The original offset of ``offset`` (``length``: the original text's length)."""
        if self.origin is None:
            return offset
        return self.origin[offset] if offset < len(self.origin) else length


def _clusters(text: str) -> list[tuple[int, int]]:
    """Pieces of ``text`` that normalise on their own: a new one starts at every character
    that combines with nothing before it (not a combining mark, not a Hangul vowel or final
    jamo)."""
    out: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or _starts_cluster(text[i]):
            out.append((start, i))
            start = i
    return out


def _starts_cluster(ch: str) -> bool:
    cp = ord(ch)
    if 0x1160 <= cp <= 0x11FF or 0xD7B0 <= cp <= 0xD7FF:  # Hangul vowels and final consonants
        return False
    return unicodedata.combining(ch) == 0


def _fold_char(ch: str, case_sensitive: bool) -> str:
    if ch == "\n":
        return ch
    if ch.isspace():
        return " "
    return ch if case_sensitive else ch.casefold()


def prepare(text: str, options: SearchOptions) -> Prepared:
    """``text`` for matching under ``options`` (see the module docstring)."""
    nfc = unicodedata.is_normalized("NFC", text)
    if nfc:
        # casefold never shortens a character: the same length means one for one
        folded = text if options.case_sensitive else text.casefold()
        if len(folded) == len(text):
            return Prepared(_ODD_SPACE.sub(" ", folded) if _ODD_SPACE.search(folded) else folded)
    pieces: list[str] = []
    origin: list[int] = []
    spans = [(i, i + 1) for i in range(len(text))] if nfc else _clusters(text)
    for a, b in spans:
        piece = text[a:b] if nfc else unicodedata.normalize("NFC", text[a:b])
        for ch in piece:
            f = _fold_char(ch, options.case_sensitive)
            pieces.append(f)
            origin.extend([a] * len(f))
    return Prepared("".join(pieces), tuple(origin))


def prepare_query(query: str, options: SearchOptions) -> str:
    """The search text as it is matched (an empty string finds nothing). A NUL is dropped: the
    index puts one between two fields, and no hit spans two fields."""
    text = prepare(unicodedata.normalize("NFC", query.replace("\0", "")), options).text
    return text if text.strip() else ""


@lru_cache(maxsize=64)
def _pattern(query: str, whole_word: bool) -> re.Pattern[str]:
    """``query`` as a regular expression: with ``whole_word``, not glued to a letter or digit
    before it, and followed by up to three particles and then no letter or digit (an edge of
    the query that is not a letter or digit needs no boundary). ``[^\\W_]``: a letter or
    digit, as ``str.isalnum`` has them."""
    body = re.escape(query)
    if not whole_word:
        return re.compile(body)
    # the look back comes after the words, so the search still starts from their letters
    head = rf"(?<![^\W_][\s\S]{{{len(query)}}})" if query[:1].isalnum() else ""
    tail = ""
    if query[-1:].isalnum():
        particles = "|".join(re.escape(p) for p in PARTICLES)
        tail = rf"(?=(?:{particles}){{0,{_MAX_PARTICLES}}}(?![^\W_]))"
    return re.compile(body + head + tail)


def whole_word_at(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` stands as a word (see the module docstring)."""
    return _pattern(text[start:end], True).match(text, start) is not None


def find(text: str, query: str, whole_word: bool = False) -> list[int]:
    """Where ``query`` starts in ``text`` (both prepared), left to right, not overlapping."""
    if not query:
        return []
    return [m.start() for m in _pattern(query, whole_word).finditer(text)]


def count(text: str, query: str, whole_word: bool = False) -> int:
    """How many times :func:`find` finds ``query`` in ``text``."""
    if not query:
        return 0
    if not whole_word:
        return text.count(query)
    return sum(1 for _ in _pattern(query, whole_word).finditer(text))
