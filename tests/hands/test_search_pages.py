"""모든 문서에서 찾기 with real hands: Ctrl+Shift+F pressed through X, a Korean word typed, a
click on a place found, and the page open in its cards at that place — the text box scrolled
into view with the words marked and selected, the keyboard there."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.hands import Account, HandsApp, XScreen, page, put_page

pytestmark = pytest.mark.hands

SEARCHED = "95-hands-search"
FILLER = "\n\n".join(f"채우는 문단 {n}입니다." for n in range(60))
BODY = (
    "첫 상자의 글입니다.\n\n:::stats\ntitle: 주요 성과\n\n- label: 수료생\n  value: 1,200명\n"
    f"  sub: 올해 기준\n:::\n\n{FILLER}\n\n맨 끝 상자에 보람찬낱말 하나가 있습니다.\n"
)


@pytest.fixture(scope="module")
def search_app(
    screen: XScreen, hands_sandbox: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[HandsApp]:
    put_page(hands_sandbox, f"docs/{SEARCHED}.md", page("hands-search", "찾기 보람", BODY, 95))
    data = tmp_path_factory.mktemp("search-app") / "data"
    app = HandsApp(screen, hands_sandbox.api_url, data, Account("editor1", "tok-editor1"))
    try:
        yield app
    finally:
        app.finish()


def _hit_rows(app: HandsApp, words: str) -> list[dict[str, Any]]:
    rows = app.probe.ask("rows", name="searchResults")["rows"]
    return [r for r in rows if r.get("depth") == 1 and any(words in t for t in r["texts"])]


def test_ctrl_shift_f_a_korean_word_and_a_click_open_the_page_at_its_place(
    search_app: HandsApp, screen: XScreen
) -> None:
    app = search_app
    app.wait(
        lambda: any(
            "찾기 보람" in r["texts"][1] for r in app.probe.ask("rows", name="docList")["rows"]
        ),
        30,
        "the page in the list",
    )
    app.click(name="docList")  # the keyboard somewhere in the window, as after a click
    screen.key("ctrl+shift+f")
    app.wait(lambda: app.focus_name() == "searchPagesEdit", 10, "the search box")
    screen.type("보람찬낱말")
    screen.key("Return")
    (row,) = app.wait(lambda: _hit_rows(app, "보람찬낱말"), 30, "the place found")
    status = app.probe.text(name="searchStatus")["text"]
    assert status == "1개 문서에서 1곳", status
    x, y, w, h = row["rect"]
    screen.click(x + w // 2, y + h // 2)
    app.wait(lambda: app.probe.document().get("title", "").startswith("찾기 보람"), 30, "the page")
    box: dict[str, Any] = {"name": "textCardEditor", "contains": "보람찬낱말"}
    app.wait(
        lambda: [m["text"] for m in app.probe.text(**box)["marked"]] == ["보람찬낱말"],
        20,
        "the words marked in their text box",
    )
    assert app.probe.document()["view"] == "cards"  # the cards, not 원문 편집
    said = app.probe.text(**box)
    assert said["widget"]["focus"] and said["selected"] == "보람찬낱말"
    where = app.probe.ask("text_rect", find="보람찬낱말", **box)["rect"]
    page_rect = app.probe.widget(name="pageEditor")["rect"]
    assert page_rect[1] <= where[1] and where[1] + where[3] <= page_rect[1] + page_rect[3]
    screen.screenshot("search-opened-at-its-place")
