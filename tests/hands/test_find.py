"""찾기 (Ctrl+F) and 바꾸기 in the card view, with a real keyboard: the page stays as cards, the
text box with the words scrolls into view with the words marked, Esc leaves the keyboard at
them; 원문 편집 chosen on one page does not stay on for the next page opened from the list."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.hands import Account, HandsApp, XScreen, page, put_page

pytestmark = pytest.mark.hands

LONG = "93-hands-find"
OTHER = "94-hands-find-next"
FILLER = "\n\n".join(f"채우는 문단 {n}입니다." for n in range(60))
LONG_BODY = (
    "첫 상자의 글입니다.\n\n:::quote\ntext: 사이에 있는 블록\n:::\n\n"
    f"{FILLER}\n\n맨 끝 상자에 숨은낱말 hidden 이 있습니다.\n"
)
OTHER_BODY = "다음 페이지의 첫 문단입니다.\n\n바꿀낱말 하나, 바꿀낱말 둘.\n"


@pytest.fixture(scope="module")
def find_app(
    screen: XScreen, hands_sandbox: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[HandsApp]:
    put_page(hands_sandbox, f"docs/{LONG}.md", page("hands-find", "찾기 연습", LONG_BODY, 93))
    put_page(
        hands_sandbox, f"docs/{OTHER}.md", page("hands-find-next", "다음 연습", OTHER_BODY, 94)
    )
    data = tmp_path_factory.mktemp("find-app") / "data"
    app = HandsApp(
        screen, hands_sandbox.api_url, data, Account("editor1", "tok-editor1"), "--open", LONG
    )
    try:
        yield app
    finally:
        app.finish()


def _open_from_list(app: HandsApp, title: str) -> None:
    """A double click on the page's row in the list, as a person opens a page."""
    if app.probe.document().get("title", "").startswith(title):
        return
    row = app.wait(
        lambda: next(
            (r for r in app.probe.ask("rows", name="docList")["rows"] if title in r["texts"]),
            None,
        ),
        20,
        f"“{title}” in the list",
    )
    x, y, w, h = row["rect"]
    app.screen.xdo("mousemove", str(x + w // 2), str(y + h // 2), "click", "--repeat", "2", "1")
    app.wait(lambda: app.probe.document().get("title", "").startswith(title), 20, title)


def _in_view(app: HandsApp, rect: list[int]) -> bool:
    page_rect = app.probe.widget(name="pageEditor")["rect"]
    top, bottom = page_rect[1], page_rect[1] + page_rect[3]
    return top <= rect[1] and rect[1] + rect[3] <= bottom


def test_find_marks_the_words_in_the_cards_and_keeps_the_card_view(
    find_app: HandsApp, screen: XScreen
) -> None:
    app = find_app
    _open_from_list(app, "찾기 연습")
    first: dict[str, Any] = {"name": "textCardEditor", "contains": "첫 상자"}
    app.click_text("첫 상자의", **first)
    app.wait(lambda: app.focus_name() == "textCardEditor", 10, "the keyboard in the first box")
    last: dict[str, Any] = {"name": "textCardEditor", "contains": "숨은낱말", "hidden": True}
    where = app.probe.ask("text_rect", find="숨은낱말", **last)["rect"]
    assert not _in_view(app, where)  # far down the page
    screen.key("ctrl+f")
    app.wait(lambda: app.focus_name() == "findEdit", 10, "the find field")
    screen.type("숨은낱말")
    screen.key("Return")
    app.wait(
        lambda: [m["text"] for m in app.probe.text(**last)["marked"]] == ["숨은낱말"],
        10,
        "the words marked in the last box",
    )
    where = app.probe.ask("text_rect", find="숨은낱말", **last)["rect"]
    assert _in_view(app, where), where
    assert app.probe.document()["view"] == "cards"
    assert app.focus_name() == "findEdit"  # Enter again finds the next one
    screen.key("Escape")
    app.wait(lambda: app.focus_name() == "textCardEditor", 10, "the keyboard back in the page")
    box = app.probe.text(**last)
    assert box["widget"]["focus"] and box["selected"] == "숨은낱말" and box["marked"] == []


def test_the_original_text_view_stays_with_its_page(find_app: HandsApp, screen: XScreen) -> None:
    app = find_app
    _open_from_list(app, "찾기 연습")
    app.click(name="rawEditorToggle")
    app.wait(lambda: app.probe.document()["view"] == "raw", 10, "원문 편집")
    _open_from_list(app, "다음 연습")
    assert app.probe.document()["view"] == "cards"
    assert app.probe.widgets(name="textCardEditor", contains="다음 페이지")


def test_replace_inside_the_cards(find_app: HandsApp, screen: XScreen) -> None:
    app = find_app
    _open_from_list(app, "다음 연습")
    box: dict[str, Any] = {"name": "textCardEditor", "contains": "바꿀낱말"}
    app.click_text("다음 페이지의", name="textCardEditor", contains="다음 페이지")
    app.wait(lambda: app.focus_name() == "textCardEditor", 10, "the keyboard in the page")
    screen.key("ctrl+alt+f")  # 바꾸기 on Linux (Ctrl+H on Windows)
    app.wait(lambda: app.focus_name() in ("findEdit", "replaceEdit"), 10, "the find bar")
    app.click(name="findEdit")
    screen.key("ctrl+a")
    screen.type("바꿀낱말")
    app.click(name="replaceEdit")
    screen.key("ctrl+a")
    screen.type("새낱말")
    app.click(name="replaceButton")  # the first one found, then the next is marked
    app.wait(
        lambda: "새낱말 하나, 바꿀낱말 둘." in app.probe.document()["text"], 10, "one replaced"
    )
    app.wait(
        lambda: [m["text"] for m in app.probe.text(**box)["marked"]] == ["바꿀낱말"],
        10,
        "the next one marked",
    )
    app.click(name="replaceAllButton")
    app.wait(lambda: "새낱말 하나, 새낱말 둘." in app.probe.document()["text"], 10, "all replaced")
    assert app.probe.document()["view"] == "cards"
    assert (
        "새낱말 하나, 새낱말 둘."
        in app.probe.text(name="textCardEditor", contains="새낱말")["text"]
    )
