"""The text card's Markdown: what a card holds is written so the site's reading gives it back
exactly (the site build itself is the oracle in ``test_rich_oracle.py``; here the same reading
in Python, without Node)."""

from __future__ import annotations

import pytest

from modu_desktop.core.pageedit.model import (
    BOLD,
    LineBreak,
    Paragraph,
    RichText,
    TextRun,
    normalise_inlines,
)
from modu_desktop.core.pageedit.reading import from_markdown
from modu_desktop.core.pageedit.writing import escape_text, to_markdown
from tests.helpers.rich_corpus import EDITS


def test_the_corpus_covers_what_staff_write() -> None:
    assert len(EDITS) >= 40
    names = " ".join(EDITS)
    for topic in ("particle", "tilde", "braces", "angle", "date", "list", "link", "picture",
                  "table", "quote", "colon", "heading", "break"):  # fmt: skip
        assert topic in names, topic


@pytest.mark.parametrize("name", list(EDITS))
def test_every_edit_reads_back_as_the_card_held_it(name: str) -> None:
    model = EDITS[name]
    written = to_markdown(model)
    assert written.exact
    assert from_markdown(written.text) == model


@pytest.mark.parametrize(
    ("model_text", "markdown"),
    [
        (
            (TextRun("마크다운(Markdown)", frozenset({BOLD})), TextRun("을")),
            "<strong>마크다운(Markdown)</strong>을",
        ),
        ((TextRun("굵게", frozenset({BOLD})), TextRun("는")), "**굵게**는"),
        ((TextRun("10~20명"),), "10\\~20명"),
        ((TextRun("2024. 3. 1. 개강"),), "2024\\. 3. 1. 개강"),
        ((TextRun("{이름} <b>"),), "\\{이름\\} \\<b>"),
        ((TextRun("1:1"),), "1\\:1"),
    ],
)  # fmt: skip
def test_the_spelling_staff_will_see_in_the_raw_view(
    model_text: tuple[TextRun, ...], markdown: str
) -> None:
    assert to_markdown(RichText((Paragraph(model_text),))).text == markdown


def test_escapes_only_where_a_character_would_mean_something() -> None:
    assert escape_text("시간: 10시, 주소: 부산") == "시간: 10시, 주소: 부산"
    assert escape_text("# 아님", line_start=True) == "\\# 아님"
    assert escape_text("C# 과정") == "C# 과정"
    assert escape_text("- 아님", line_start=True) == "\\- 아님"
    assert escape_text("a - b") == "a - b"
    assert escape_text("A | B") == "A | B"
    assert escape_text("A | B", table=True) == "A \\| B"
    assert escape_text("R&D &amp;") == "R&D \\&amp;"


def test_normalised_inline_content() -> None:
    bold = frozenset({BOLD})
    content = (
        TextRun("  앞 "),
        TextRun(" 굵게 ", bold),
        TextRun("뒤  "),
        LineBreak(),
        LineBreak(),
        TextRun(" 끝 "),
        LineBreak(),
    )
    assert normalise_inlines(content) == (
        TextRun("앞  "),
        TextRun("굵게", bold),
        TextRun(" 뒤"),
        LineBreak(),
        LineBreak(),
        TextRun("끝"),
    )


@pytest.mark.parametrize(
    "markdown",
    [
        "**마크다운(Markdown)**을 배웁니다.",  # the site shows the asterisks: the card does too
        "<b>굵게</b>와 <i>기울임</i>, <del>취소</del>",
        "첫 줄<br />둘째 줄",
        "비율 1:1",
    ],
)
def test_what_the_site_shows_is_what_the_card_reads(markdown: str) -> None:
    model = from_markdown(markdown)
    assert model is not None
    assert from_markdown(to_markdown(model).text) == model


def test_the_site_shows_literal_asterisks_around_a_particle_and_so_does_the_card() -> None:
    model = from_markdown("**마크다운(Markdown)**을")
    assert model == RichText((Paragraph((TextRun("**마크다운(Markdown)**을"),)),))
