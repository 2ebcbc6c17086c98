"""What a staff member reads names pages by their titles: never a file name, an id or a hash."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from modu_desktop import i18n

DOC = "02-programs"
TITLE = "교육 프로그램과 추진 일정"
TECHNICAL = re.compile(r"02-programs|\.md\b|\b[0-9a-f]{7,40}\b")


@pytest.fixture(autouse=True)
def _korean() -> Iterator[None]:
    i18n.set_language("ko")
    yield
    i18n.set_language("en")


def test_taking_over_a_silent_lock_names_the_page_by_its_title(
    make_window: Any, peer: Any, sandbox: Any, ui: Any
) -> None:
    p = peer(stale_s=2)
    assert ui.run(p.locks.acquire(DOC)).held is not None
    sandbox.faults.clock_offset_seconds = 3  # GitHub's clock moves past the stale limit
    win = make_window(stale_s=2, lang="ko")
    assert ui.run(win.open_document(DOC))
    said = win.notice.label.text()
    assert f"“{TITLE}”의 편집 권한을 가져왔습니다" in said, said
    assert "editor2 님" in said and not TECHNICAL.search(said)


def test_operations_name_pages_by_title_in_the_window(make_window: Any, ui: Any) -> None:
    win = make_window(lang="ko")
    ops = win.ops_host.ops
    res = ui.run(ops.move(DOC, "down"))
    assert res.ok
    said = res.user_message()
    assert said == f"메뉴에서 “{TITLE}”과 “비전과 추진 전략”의 순서를 바꿨습니다."
    assert not TECHNICAL.search(said)
