"""How search places and refusals are said (core/search/words.py): as the cards name things,
in both languages, every refusal worded."""

from __future__ import annotations

import pytest

from modu_desktop.core.locks.model import classify
from modu_desktop.core.locks.wire import LockRecord
from modu_desktop.core.search import words
from modu_desktop.core.search.model import NotReplaceable, PageLeftOut, PageLeftOutReason, Place
from tests.helpers.lang import speaking

PLACES = [
    (Place("settings", key="title"), "페이지 설정 › 제목", "Page settings › Title"),
    (Place("text", heading="일정", line="paragraph"), "‘일정’ 글 상자", "Text box under “일정”"),
    (Place("text", line="paragraph"), "글 상자", "Text box"),
    (Place("raw", line="raw"), "원문", "Original text"),
    (
        Place("block", key="value", block="stats", item=2),
        "통계 카드 › 항목 2 › 값",
        "Statistics cards › Item 2 › Value",
    ),
    (
        Place("block", block="datatable", item=3, column=2, column_name="인원"),
        "표 › 행 3 › 인원",
        "Data table › Row 3 › 인원",
    ),
    (
        Place("block", key="columns", block="datatable"),
        "표 › 열 제목 (| 로 구분)",
        "Data table › Column headings (separate with |)",
    ),
    (
        Place("block", key="label", block="split", section="left", item=1),
        "좌우 분할 패널 › 왼쪽 › 항목 1 › 이름",
        "Left and right panels › Left side › Item 1 › Label",
    ),
]


@pytest.mark.parametrize(("place", "ko", "en"), PLACES)
def test_a_place_is_said_from_the_card_to_the_field(place: Place, ko: str, en: str) -> None:
    with speaking("ko"):
        assert words.place(place)() == ko
    with speaking("en"):
        assert words.place(place)() == en


@pytest.mark.parametrize("reason", list(NotReplaceable))
def test_every_refusal_is_a_korean_sentence(reason: NotReplaceable) -> None:
    text = words.refusal(reason)
    assert text.ko != text.en and text.ko.endswith(".")


def test_a_page_left_out_names_who_holds_it_or_why() -> None:
    record = LockRecord("b", "editor2", 1_800_000_000 - 600, 1_800_000_000 - 60, session_id="s")
    view = classify(
        "b", "sha", record, login="me", session_id="mine", server_now=1_800_000_000, stale_s=900
    )
    locked = PageLeftOut(
        "b", "docs/b.md", "입학 안내", PageLeftOutReason.LOCKED, 2, "editor2", lock=view
    )
    with speaking("ko"):
        said = words.left_out(locked)()
    assert "editor2 님" in said and "입학 안내" in said
    unsaved = PageLeftOut("c", "docs/c.md", "학사 일정", PageLeftOutReason.UNSAVED_HERE, 1)
    assert words.left_out(unsaved).ko.startswith("“학사 일정” 문서를")
    nothing = PageLeftOut("d", "docs/d.md", "소개", PageLeftOutReason.NOTHING_REPLACEABLE, 1)
    assert words.left_out(nothing).ko == "“소개”에서는 바꿀 수 있는 곳이 없습니다."
