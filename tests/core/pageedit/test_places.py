"""A place of the document told as the cards show it: the card, and a short quote."""

from __future__ import annotations

from modu_desktop.core.pageedit.places import QUOTE_CHARS, card_place

DOC = (
    "---\nid: s\ntitle: 예시\n---\n\n## 행사 안내\n\n"
    "자세한 내용은 **{담당자}**에게 문의하세요.\n\n"
    ":::cards\ntitle: 안내 {x}\n\n- title: 첫째\n  desc: 둘째 <br> 줄\n"
    '- title: "셋째 {y}"\n:::\n\n'
    "줄<br>바꿈\n"
)


def at(piece: str) -> int:
    return DOC.index(piece)


def test_a_text_box_is_named_by_its_heading_and_quoted_as_it_shows() -> None:
    place = card_place(DOC, at("{담당자}"))
    assert (place.kind, place.heading) == ("text", "행사 안내")
    assert place.quote == "자세한 내용은 {담당자}에게 문의하세요."  # no ** marks


def test_a_block_is_named_with_its_item_and_field() -> None:
    own = card_place(DOC, at("{x}"))
    assert (own.kind, own.block, own.item, own.key, own.quote) == (
        "block",
        "cards",
        0,
        "title",
        "안내 {x}",
    )
    second = card_place(DOC, at("{y}"))
    assert (second.item, second.key, second.quote) == (2, "title", "셋째 {y}")  # no quotes
    first = card_place(DOC, at("<br> 줄"))
    assert (first.item, first.key) == (1, "desc")


def test_page_settings_and_a_text_box_without_heading() -> None:
    assert card_place(DOC, at("title: 예시")).kind == "front_matter"
    assert card_place(DOC, at("title: 예시")).quote == "예시"
    last = card_place(DOC, at("줄<br>"))
    assert (last.kind, last.heading, last.quote) == ("text", "", "줄<br>바꿈")


def test_a_long_line_is_cut_around_the_place() -> None:
    text = "## 제목\n\n" + "가나다라마바사 " * 10 + "{여기} " + "아자차카타파하 " * 10 + "\n"
    quote = card_place(text, text.index("{여기}")).quote
    assert "{여기}" in quote and quote.startswith("…") and quote.endswith("…")
    assert len(quote) <= QUOTE_CHARS + 2
