"""Matching the Korean way (core/search/matching.py): NFC, case only where letters have one,
whole words that may carry particles, offsets into the original text."""

from __future__ import annotations

import unicodedata

import pytest

from modu_desktop.core.search.matching import find, prepare, prepare_query, whole_word_at
from modu_desktop.core.search.model import SearchOptions

DEFAULT = SearchOptions()


def _hits(text: str, query: str, options: SearchOptions = DEFAULT) -> list[str]:
    prepared = prepare(text, options)
    q = prepare_query(query, options)
    out = []
    for at in find(prepared.text, q, options.whole_word):
        a = prepared.original(at, len(text))
        b = prepared.original(at + len(q), len(text))
        out.append(text[a:b])
    return out


def test_a_page_typed_on_a_mac_is_found_by_words_typed_on_windows() -> None:
    page = unicodedata.normalize("NFD", "올해 2025학년도 모집")
    assert len(page) > len("올해 2025학년도 모집")  # the syllables are stored as jamo
    (found,) = _hits(page, "2025학년도")
    assert found == unicodedata.normalize("NFD", "2025학년도")  # the original characters
    assert _hits("올해 2025학년도 모집", unicodedata.normalize("NFD", "학년도")) == ["학년도"]


def test_letters_with_a_case_match_either_case_unless_asked() -> None:
    page = "Student First, STUDENT 센터, student"
    assert _hits(page, "student") == ["Student", "STUDENT", "student"]
    exact = SearchOptions(case_sensitive=True)
    assert _hits(page, "student", exact) == ["student"]
    assert _hits(page, "Student", exact) == ["Student"]


def test_case_folding_that_changes_the_length_keeps_the_offsets() -> None:
    assert _hits("Die Straße 2", "STRASSE") == ["Straße"]


def test_hangul_is_compared_as_it_is() -> None:
    # no initial-consonant search, no jamo games: ㅎㄴㄷ finds nothing in 학년도
    assert _hits("2025학년도", "ㅎㄴㄷ") == []
    assert _hits("2025학년도", "학년") == ["학년"]


def test_any_white_space_is_a_space_but_a_line_break_is_not() -> None:
    assert _hits("부산대학교\u00a0AI 센터", "부산대학교 AI") == ["부산대학교\u00a0AI"]
    assert _hits("두 번째 줄\n세 번째", "줄 세") == []
    assert _hits("두 번째 줄\n세 번째", "줄\n세") == ["줄\n세"]


def test_an_empty_search_finds_nothing_and_no_search_spans_two_fields() -> None:
    assert _hits("아무 글", "   ") == []
    assert prepare_query("글\0다음", DEFAULT) == "글다음"  # the index's separator is never searched


@pytest.mark.parametrize(
    ("text", "query", "whole"),
    [
        ("2025학년도의 모집", "2025학년도", True),  # a particle follows
        ("2025학년도부터는 바뀝니다", "2025학년도", True),  # two particles
        ("2025학년도입니다", "2025학년도", True),  # the copula
        ("2025학년도의 모집", "학년도", False),  # glued to the digits before it
        ("학년별 모집", "학년", False),  # 별 is not a particle
        ("PNU는 부산에", "PNU", True),
        ("Students", "Student", False),
        ("Student First", "Student", True),
        ("(주)모두", "(주)", True),  # the hit's own edges are not letters
        ("모집 (2025)", "2025", True),
        ("20251", "2025", False),
    ],
)
def test_whole_word(text: str, query: str, whole: bool) -> None:
    at = text.index(query)
    assert whole_word_at(text, at, at + len(query)) is whole
    found = _hits(text, query, SearchOptions(whole_word=True))
    assert found == ([query] if whole else [])
