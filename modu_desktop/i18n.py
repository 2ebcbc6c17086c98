"""The one translation mechanism of the app, the CLI and the self-test (Qt-free).

Source texts are English, written where they are used: ``tr("Saved “{doc}”.", doc=title)``.
Korean comes from the catalogue ``resources/translations/ko.json`` plus every
``resources/translations/ko/*.json`` (one file per feature, so features do not edit one file),
each mapping an English source text to its Korean text.

Korean particles follow the last syllable of a field, written as a format spec that prints
*only* the particle: ``"“{doc}”{doc:을} 저장했습니다."`` gives "“전략”을 저장했습니다." and
"“계획서”를 저장했습니다.". Families: 을/를, 이/가, 은/는, 과/와, 으로/로, 이나/나, 이라/라,
이에요/예요, 아/야; either form may be written in the spec.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from modu_desktop.core.account.paths import resources_dir

LANGUAGES = ("ko", "en")

# (form after a final consonant, form after a vowel)
_FAMILIES: tuple[tuple[str, str], ...] = (
    ("을", "를"),
    ("이", "가"),
    ("은", "는"),
    ("과", "와"),
    ("으로", "로"),
    ("이나", "나"),
    ("이라", "라"),
    ("이에요", "예요"),
    ("아", "야"),
)
_BY_FORM = {form: family for family in _FAMILIES for form in family}

# Non-Hangul endings, read as Korean readers say them: digits by their Korean names (0 영, 1 일,
# 3 삼, 6 육, 7 칠, 8 팔); an all-capital acronym by its last letter's name (HTML → 엘, URL → 알);
# other Latin words by how loanwords end (GitHub → 깃헙, Excel → 엑셀, but Word → 워드).
_DIGIT_CONSONANT = set("013678")
_LETTER_NAME_CONSONANT = set("LMNR")
_WORD_CONSONANT = set("bcklmnp")
_TRAILING_PUNCT = "\"'”’」』)]}>.,!?…·"

_state: dict[str, Any] = {"lang": "ko", "catalogue": None}


def set_language(lang: str) -> None:
    """Choose the language of every later ``tr`` (``ko`` or ``en``)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; expected one of {LANGUAGES}")
    _state["lang"] = lang


def language() -> str:
    return str(_state["lang"])


def has_final_consonant(word: str) -> bool:
    """Whether ``word``, read in Korean, ends in a consonant (받침). Ignores closing
    quotes and punctuation; the rieul rule of 으로/로 is handled by ``particle``."""
    text = _spoken_end(word)
    if not text:
        return False
    last = text[-1]
    if "가" <= last <= "힣":
        return (ord(last) - 0xAC00) % 28 != 0
    return _latin_or_digit_final(text)


def _spoken_end(word: str) -> str:
    """``word`` up to where it is read before a particle: closing punctuation and a trailing
    aside in parentheses are not read ("김민지(kim)가", like "김민지가")."""
    text = word.rstrip()
    if text.endswith(")") and "(" in text[:-1]:
        head = text[: text.rindex("(")].rstrip()
        if head:
            text = head
    return text.rstrip(_TRAILING_PUNCT).rstrip()


def _latin_or_digit_final(text: str) -> bool:
    last = text[-1]
    if last.isdigit():
        return last in _DIGIT_CONSONANT
    word = re.split(r"[^A-Za-z]", text)[-1]
    if not word:
        return False
    if word.isupper():
        return word[-1] in _LETTER_NAME_CONSONANT
    return word.endswith("ng") or word[-1].lower() in _WORD_CONSONANT


def _ends_in_rieul(word: str) -> bool:
    text = _spoken_end(word)
    if not text:
        return False
    last = text[-1]
    if "가" <= last <= "힣":
        return (ord(last) - 0xAC00) % 28 == 8
    if last.isdigit():
        return last in "178"
    word = re.split(r"[^A-Za-z]", text)[-1]
    return bool(word) and (word[-1] == "L" if word.isupper() else word[-1].lower() == "l")


def particle(word: str, form: str) -> str:
    """The particle of ``form``'s family after ``word``: ``particle("전략", "를")`` → "을"."""
    family = _BY_FORM.get(form)
    if family is None:
        raise ValueError(f"unknown particle {form!r}")
    after_consonant, after_vowel = family
    if family == ("으로", "로") and _ends_in_rieul(word):
        return after_vowel
    return after_consonant if has_final_consonant(word) else after_vowel


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in _BY_FORM:
            return particle(str(value), format_spec)
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def _load_catalogue(folder: Path) -> dict[str, str]:
    table: dict[str, str] = {}
    files = [folder / "ko.json", *sorted((folder / "ko").glob("*.json"))]
    for path in files:
        if path.is_file():
            table.update(json.loads(path.read_text("utf-8")))
    return table


def catalogue() -> Mapping[str, str]:
    """English source text → Korean text (loaded once)."""
    if _state["catalogue"] is None:
        _state["catalogue"] = _load_catalogue(resources_dir() / "translations")
    table: Mapping[str, str] = _state["catalogue"]
    return table


def tr(source: str, /, **fields: Any) -> str:
    """``source`` in the current language, with ``fields`` filled in (``str.format`` syntax,
    plus particle specs). An English text without a Korean entry is shown in English."""
    return tr_in(str(_state["lang"]), source, **fields)


def tr_in(lang: str, source: str, /, **fields: Any) -> str:
    """``tr`` in a language chosen by the caller (a result worded for the CLI in English while
    the window speaks Korean, or a dialog built with its own ``lang``)."""
    text = catalogue().get(source, source) if lang == "ko" else source
    return _FORMATTER.format(text, **fields) if fields else text
