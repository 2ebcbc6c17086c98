"""The one translation mechanism: catalogue lookup, fields, and Korean particles."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from modu_desktop import i18n


@pytest.fixture(autouse=True)
def korean() -> Iterator[None]:
    before = i18n.language()
    i18n.set_language("ko")
    yield
    i18n.set_language(before)


@pytest.mark.parametrize(
    ("word", "form", "expected"),
    [
        ("전략", "을", "을"),
        ("전략", "를", "을"),
        ("계획서", "을", "를"),
        ("“전략”", "를", "을"),
        ("GitHub", "이", "이"),
        ("사이트", "이", "가"),
        ("문서", "은", "는"),
        ("서울", "으로", "로"),
        ("부산", "으로", "으로"),
        ("학교", "으로", "로"),
        ("2026", "은", "은"),
        ("2025", "은", "는"),
        ("HTML", "이", "이"),
        ("PDF", "을", "를"),
        ("Word", "은", "는"),
        ("Excel", "으로", "로"),
        ("3", "이", "이"),
        ("", "을", "를"),
    ],
)
def test_particle_follows_the_last_syllable(word: str, form: str, expected: str) -> None:
    assert i18n.particle(word, form) == expected


def test_particle_spec_prints_only_the_particle() -> None:
    text = i18n._FORMATTER.format("“{doc}”{doc:을} 저장했습니다.", doc="전략")
    assert text == "“전략”을 저장했습니다."
    assert i18n._FORMATTER.format("{who}{who:이} 편집 중", who="editor2") == "editor2가 편집 중"


def test_unknown_particle_is_an_error_not_a_guess() -> None:
    with pytest.raises(ValueError):
        i18n.particle("전략", "의")


def test_english_source_is_shown_in_english_when_english() -> None:
    i18n.set_language("en")
    assert i18n.tr("Documents") == "Documents"
    assert i18n.tr("Saved “{doc}”.", doc="A") == "Saved “A”."


def test_korean_catalogue_is_used_in_korean() -> None:
    assert i18n.tr("Documents") == "문서"


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError):
        i18n.set_language("fr")
