"""The history in plain words: who and when, what a version did, and the two texts side by side
— never a file name or a commit hash."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest

from modu_desktop import i18n
from modu_desktop.core.documents.history import (
    Version,
    changed_parts,
    describe,
    moment,
    side_by_side,
)
from modu_desktop.core.documents.store import create_message, swap_message, update_message

HASH = re.compile(r"\b[0-9a-f]{7,40}\b")


@pytest.fixture(autouse=True)
def _korean() -> None:
    i18n.set_language("ko")


def _iso(at: datetime) -> str:
    return at.astimezone().isoformat()


def test_when_is_said_as_people_say_it() -> None:
    now = datetime(2026, 12, 1, 15, 0).astimezone()
    ts = now.timestamp()
    assert moment(_iso(now.replace(hour=14, minute=3)), ts)() == "오늘 14:03"
    assert moment(_iso(now - timedelta(days=1, hours=6)), ts)() == "어제 09:00"
    assert moment(_iso(datetime(2026, 3, 2, 9, 5).astimezone()), ts)() == "3월 2일 09:05"
    assert moment(_iso(datetime(2025, 3, 2, 9, 5).astimezone()), ts)() == "2025년 3월 2일"
    assert moment(None, ts)() == "알 수 없는 때"
    assert moment(_iso(now.replace(hour=14, minute=3)), ts)("en") == "today 14:03"


def test_what_a_version_did_never_names_a_file_or_a_hash() -> None:
    path = "docs/02-programs.md"
    old = Version("a" * 40, update_message(path, "kim"), "kim", "김민지", "2026-03-02T00:05:00Z")
    restored = Version(
        "b" * 40,
        f"docs(edit): restore 02-programs.md to {'a' * 7} by @lee",
        "lee",
        None,
        "2026-03-03T00:00:00Z",
    )
    made = Version("c" * 40, create_message(path, "kim"), "kim", "", None)
    moved = Version("d" * 40, swap_message(path, 3, "kim"), "kim", None, None)
    by_hand = Version("e" * 40, "행사 일정 고침", None, "박서준", None)
    versions = [restored, old, made, moved, by_hand]
    now = datetime(2026, 12, 1, 12, 0).astimezone().timestamp()
    said = [describe(v, versions, now)() for v in versions]
    assert said[0].endswith("버전으로 되돌렸습니다") and "3월 2일" in said[0]
    assert said[1:] == [
        "글을 고쳤습니다",
        "페이지를 만들었습니다",
        "메뉴에서 순서를 바꿨습니다",
        "행사 일정 고침",
    ]
    assert describe(Version("f" * 40, "Merge pull request #3 from x/y", None, None, None))() == (
        "페이지를 바꿨습니다"
    )
    for text in said:
        assert "02-programs" not in text and not HASH.search(text)
    # the name people go by, with the login beside it
    assert [v.who for v in versions] == ["lee", "김민지(kim)", "kim", "kim", "박서준"]


def test_the_two_texts_face_each_other_line_by_line() -> None:
    old = "\n".join(["---", "title: 안내", "---", "", *[f"줄 {i}" for i in range(1, 21)]])
    new = old.replace("줄 5", "줄 오").replace("줄 12\n", "") + "\n새 줄"
    rows = side_by_side(old, new)
    kinds = [r.kind for r in rows]
    assert kinds.count("changed") == 1 and kinds.count("removed") == 1
    assert kinds.count("added") == 1 and "skipped" in kinds
    changed = next(r for r in rows if r.kind == "changed")
    assert (changed.old, changed.new) == ("줄 5", "줄 오")
    assert changed.old_no == changed.new_no == 9
    removed = next(r for r in rows if r.kind == "removed")
    assert removed.old == "줄 12" and removed.new is None
    added = next(r for r in rows if r.kind == "added")
    assert added.new == "새 줄" and added.old is None
    # every line of both texts is either shown or counted as skipped
    shown_old = sum(1 for r in rows if r.old is not None) + sum(r.skipped for r in rows)
    assert shown_old == len(old.splitlines())
    assert side_by_side(old, old) == []


def test_changed_letters_are_found_inside_a_changed_line() -> None:
    left, right = changed_parts("모집 인원: 20명", "모집 인원: 25명")
    assert [("모집 인원: 20명"[a:b]) for a, b in left] == ["0"]
    assert [("모집 인원: 25명"[a:b]) for a, b in right] == ["5"]
