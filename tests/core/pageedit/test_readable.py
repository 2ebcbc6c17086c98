"""A page read the way its cards show it: no Markdown marks, blocks and settings by name."""

from __future__ import annotations

from modu_desktop import i18n
from modu_desktop.core.pageedit.readable import ReadableLine, readable_lines

PAGE = (
    "---\ntitle: 행사 안내\nsidebar_position: 2\nhide_title: true\n---\n\n"
    "## 행사 **안내**\n\n올해 행사는 [부산대](https://pnu.ac.kr)에서 열립니다.  \n둘째 줄\n\n"
    "1. 일시\n   - 5월 3일\n\n> 미리 신청해 주세요.\n\n"
    "| 과정 | 인원 |\n| --- | --- |\n| 기초 | 20 |\n\n"
    ":::cards\ntitle: 주요 일정\n\n- title: 개막식\n  description: 오전 10시\n:::\n\n"
    "```\ncode\n```\n"
)


def test_a_page_reads_as_its_cards_show_it() -> None:
    i18n.set_language("ko")
    try:
        lines = readable_lines(PAGE)
    finally:
        i18n.set_language("en")
    shown = [(line.kind, line.text, line.level) for line in lines]
    assert shown == [
        ("section", "페이지 설정", 0),
        ("field", "제목: 행사 안내", 0),
        ("field", "메뉴 순서: 2", 0),
        ("field", "제목 숨김: 예", 0),
        ("heading", "행사 안내", 2),
        ("paragraph", "올해 행사는 부산대에서 열립니다.\n둘째 줄", 0),
        ("item", "1. 일시", 0),
        ("item", "• 5월 3일", 1),
        ("quote", "미리 신청해 주세요.", 0),
        ("row", "과정 | 인원", 1),
        ("row", "기초 | 20", 0),
        ("section", "블록: 카드 모음", 0),
        ("field", "제목: 주요 일정", 0),
        ("item", "• 제목: 개막식", 0),
        ("field", "설명: 오전 10시", 1),
        ("section", "원문", 0),
        ("raw", "```", 0),
        ("raw", "code", 0),
        ("raw", "```", 0),
    ]


def test_only_what_a_reader_sees_counts() -> None:
    plain = readable_lines("- 하나\n- 둘\n")
    assert readable_lines("* 하나\n* 둘\n") == plain  # another bullet: the same list
    bold = readable_lines("**하나** 둘\n")
    assert bold != readable_lines("하나 둘\n")  # a bold word is a change a reader sees
    assert bold[0] == ReadableLine("paragraph", "하나 둘", 0, bold[0].marks)


SETTINGS_AND_CHOICES = (
    "---\ntitle: 모집 안내\ntheme: ocean-cyan\nlayout: compact\ndraft: true\n---\n\n"
    ":::cards\ntitle: 과정\nvariant: elevated\n\n- title: 기초\n:::\n\n"
    ":::quote\ntext: 함께 배워요\naccent: true\n:::\n\n"
    ":::datatable\ncolumns: 과정 | 인원\nalign: left | c\n\n- **기초 과정** | [!80명]\n:::\n"
)


def test_values_read_by_their_names_never_their_ids() -> None:
    """A theme, a layout, a block's choice and a switch read as their forms name them; a table
    row reads as its cells show, without the marks the site draws as bold or colour."""
    i18n.set_language("ko")
    try:
        shown = [line.text for line in readable_lines(SETTINGS_AND_CHOICES)]
    finally:
        i18n.set_language("en")
    for expected in (
        "색상 테마: 딥 스틸 블루 (챕터 4)",
        "레이아웃: B5 리플렛",
        "게시 안 됨: 예",
        "모양: 그림자",
        "강조: 예",
        "열 정렬: 왼쪽 | 가운데",
        "• 기초 과정 | 80명",
    ):
        assert expected in shown, (expected, shown)
    joined = "\n".join(shown)
    for code in ("ocean-cyan", "compact", "elevated", "true", "left", "**", "[!", "|로"):
        assert code not in joined, code


def test_a_bold_or_coloured_cell_is_a_change_a_reader_sees() -> None:
    plain = readable_lines(":::datatable\ncolumns: 가\n\n- 기초\n:::\n")
    bold = readable_lines(":::datatable\ncolumns: 가\n\n- **기초**\n:::\n")
    assert [x.text for x in plain] == [x.text for x in bold] and plain != bold


def test_the_readable_text_is_the_words_of_the_cards() -> None:
    """What 내 글 복사 puts on the clipboard as text: the title, then the cards' words; no
    front matter, no block syntax, no Markdown marks."""
    from modu_desktop.core.pageedit.readable import readable_text

    i18n.set_language("ko")
    try:
        text = readable_text(
            SETTINGS_AND_CHOICES + "\n## 일정\n\n**5월**에 *시작*합니다.\n\n- 하나\n"
        )
    finally:
        i18n.set_language("en")
    assert text.startswith(
        "모집 안내\n\n[블록: 카드 모음]\n제목: 과정\n모양: 그림자\n• 제목: 기초\n"
    )
    assert "\n\n일정\n\n5월에 시작합니다.\n\n• 하나\n" in text
    for code in ("---", ":::", "theme", "**", "[!", "variant"):
        assert code not in text, code
