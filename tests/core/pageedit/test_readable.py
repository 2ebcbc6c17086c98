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
