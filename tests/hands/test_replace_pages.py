"""모두 바꾸기 across pages with real hands: Ctrl+Shift+F pressed through X, a year typed, the
new words typed under the places found, 모두 바꾸기… clicked, one place and one page unticked
in the review by clicking their tick boxes, and the button that counts the pages clicked. ONE
commit changes exactly the ticked places; the page another person is editing is not offered,
named with who holds it; the window says it in Korean, and 기록 shows it as one change. On a
small screen the review fits, and Enter changes nothing."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from modu_desktop.sandbox import Sandbox, SandboxUser
from tests.helpers.cli import lock_as
from tests.helpers.hands import Account, HandsApp, XScreen, page, put_page

pytestmark = pytest.mark.hands

OLD, NEW = "2025학년도", "2026학년도"
GUIDE = ("docs/81-hands-guide.md", "입학 안내 연습")
MONEY = ("docs/82-hands-money.md", "장학금 연습")
CALENDAR = ("docs/83-hands-calendar.md", "학사 일정 연습")
EVENT = ("docs/84-hands-event.md", "행사 안내 연습")  # 이준호 is editing it
BODIES = {
    GUIDE: f"## {OLD} 입학\n\n{OLD} 모집 요강을 알려 드립니다.\n",
    MONEY: f"{OLD} 장학금 신청을 받습니다.\n",
    CALENDAR: f"{OLD} 1학기 수업은 3월에 시작합니다.\n",
    EVENT: f"{OLD} 입학식 안내입니다.\n",
}

# A dialog of the window is found both on its own and inside the window: asked inside it, once.
REVIEW = {"name": "replaceReviewDialog"}


def _doc_id(path: str) -> str:
    return path.removeprefix("docs/").removesuffix(".md")


SEEDED = {
    path: page(_doc_id(path), title, body, int(_doc_id(path)[:2]))
    for (path, title), body in BODIES.items()
}


@pytest.fixture(scope="module")
def replace_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    """The sample brochure, four pages that say the year, and 이준호 editing one of them."""
    sb = Sandbox(
        tmp_path_factory.mktemp("replace-pages") / "repo",
        users=[
            SandboxUser("kim", "tok-kim", name="김민지"),
            SandboxUser("lee", "tok-lee", name="이준호"),
        ],
        seed="sample",
        deploy_queue_seconds=3600.0,
    ).start()
    try:
        for path, text in SEEDED.items():
            put_page(sb, path, text, token="tok-kim")
        lock_as(sb, "lee", _doc_id(EVENT[0]))
        yield sb
    finally:
        sb.stop()


@pytest.fixture(scope="module")
def replace_app(
    screen: XScreen, replace_sandbox: Sandbox, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[HandsApp]:
    data = tmp_path_factory.mktemp("replace-app") / "data"
    app = HandsApp(screen, replace_sandbox.api_url, data, Account("kim", "tok-kim"))
    try:
        yield app
    finally:
        app.finish()


def _listed(app: HandsApp, title: str) -> bool:
    return any(title in r["texts"][1] for r in app.probe.ask("rows", name="docList")["rows"])


def _search(app: HandsApp, screen: XScreen, words: str) -> str:
    """Ctrl+Shift+F, ``words`` typed and Enter: what the counter then says."""
    app.wait(lambda: _listed(app, EVENT[1]), 40, "the pages in the list")
    app.click(name="docList")  # the keyboard somewhere in the window, as after a click
    screen.key("ctrl+shift+f")
    app.wait(lambda: app.focus_name() == "searchPagesEdit", 10, "the search box")
    screen.type(words)
    screen.key("Return")
    return str(
        app.wait(
            lambda: (s := app.probe.text(name="searchStatus")["text"]) and "곳" in s and s,
            30,
            "the places found",
        )
    )


def _open_review(app: HandsApp, screen: XScreen, new_words: str) -> None:
    """The new words typed in their box and 모두 바꾸기… clicked: the review, filled."""
    app.click(name="searchReplaceEdit")
    app.wait(lambda: app.focus_name() == "searchReplaceEdit", 10, "the new words' box")
    screen.type(new_words)
    app.wait(lambda: app.probe.text(name="searchReplaceEdit")["text"] == new_words, 10, "new words")
    button = app.wait(
        lambda: (w := app.probe.widget(name="searchReplaceButton"))["enabled"] and w,
        10,
        "모두 바꾸기…, enabled",
    )
    assert button["text"] == "모두 바꾸기(&L)…"
    screen.click_rect(button["rect"])
    app.wait(
        lambda: app.probe.widgets(name="replacePageBox", inside=REVIEW), 30, "the review, filled"
    )


def _page_frame(app: HandsApp, title: str) -> dict[str, Any]:
    """The review's frame of the page titled ``title`` (``inside`` for its tick boxes)."""
    for n in range(len(app.probe.widgets(name="replacePage", inside=REVIEW))):
        frame = {"name": "replacePage", "index": n, "inside": REVIEW}
        box = app.probe.widget(name="replacePageBox", inside=frame)
        if box["text"].startswith(f"{title} — "):
            return frame
    raise LookupError(f"no page {title!r} in the review")


def _changed_paths(sb: Sandbox, commit: dict[str, Any]) -> set[str]:
    (parent,) = commit["parents"]
    out = subprocess.run(
        ["git", "diff", "--name-only", parent, commit["sha"]],
        cwd=sb.repo_dir,
        capture_output=True,
        text=True,
        check=True,
    )
    return set(out.stdout.split())


def _file(sb: Sandbox, path: str) -> str:
    raw = sb.read_file(path)
    assert raw is not None, path
    return raw.decode("utf-8")


def test_one_place_and_one_page_unticked_and_one_commit_changes_the_rest(
    replace_app: HandsApp, screen: XScreen, replace_sandbox: Sandbox
) -> None:
    app, sb = replace_app, replace_sandbox
    assert _search(app, screen, OLD) == "4개 문서에서 5곳"
    _open_review(app, screen, NEW)

    titles = [w["text"] for w in app.probe.widgets(name="replacePageBox", inside=REVIEW)]
    assert titles == [f"{GUIDE[1]} — 2곳", f"{MONEY[1]} — 1곳", f"{CALENDAR[1]} — 1곳"]
    (held,) = [w["text"] for w in app.probe.widgets(name="replaceLeftOut", inside=REVIEW)]
    assert held.startswith(f"이준호(lee) 님이 “{EVENT[1]}” 문서를"), held  # who, and the page
    action = app.probe.widget(name="replaceButton")
    assert action["text"] == "3개 문서 바꾸기"
    screen.screenshot("replace-review-1600")

    guide = _page_frame(app, GUIDE[1])
    texts = [w["text"] for w in app.probe.widgets(name="replaceHitText", inside=guide)]
    boxes = app.probe.widgets(name="replaceHitBox", inside=guide)
    (admission,) = [n for n, t in enumerate(texts) if "모집 요강" in t]
    screen.click_rect(boxes[admission]["rect"])
    app.wait(
        lambda: not app.probe.widgets(name="replaceHitBox", inside=guide)[admission]["checked"],
        10,
        "the place unticked",
    )
    calendar_box = app.probe.widget(name="replacePageBox", inside=_page_frame(app, CALENDAR[1]))
    screen.click_rect(calendar_box["rect"], dx=10)  # on its square, as a person aims
    button = app.wait(
        lambda: (w := app.probe.widget(name="replaceButton"))["text"] == "2개 문서 바꾸기" and w,
        10,
        "the button counting two pages",
    )
    before = sb.commits()
    screen.click_rect(button["rect"])
    result = app.wait(
        lambda: (w := app.probe.widget(name="opsResultLabel")) and "저장" in w["text"] and w,
        30,
        "what became of the change",
    )
    said = result["text"]
    assert result["kind"] == "warning"  # saved, one page left as it was: a note, not red
    saved, held_too = said.split("\n")
    assert saved == (
        f"2개 문서에서 ‘{OLD}’ → ‘{NEW}’: 한 번에 저장했습니다. 다음 1개 문서는 바꾸지 않았습니다."
    )
    assert held_too.startswith("• 이준호(lee) 님이") and EVENT[1] in held_too, held_too
    screen.screenshot("replace-saved-1600")

    after = sb.commits()
    assert len(after) == len(before) + 1 and after[1] == before[0]  # ONE commit for both pages
    assert _changed_paths(sb, after[0]) == {GUIDE[0], MONEY[0]}
    assert _file(sb, GUIDE[0]) == SEEDED[GUIDE[0]].replace(f"## {OLD}", f"## {NEW}")
    assert _file(sb, MONEY[0]) == SEEDED[MONEY[0]].replace(OLD, NEW)
    assert _file(sb, CALENDAR[0]) == SEEDED[CALENDAR[0]]  # the page unticked
    assert _file(sb, EVENT[0]) == SEEDED[EVENT[0]]  # the page 이준호 holds

    close = app.probe.widget(name="opsCancelButton", text="닫기")
    screen.click_rect(close["rect"])
    app.wait(lambda: not app.probe.widgets(name="replaceReviewDialog"), 10, "the review closed")

    # 기록 of a changed page shows the change as one, named as the review named it
    hit = app.wait(lambda: _hit_row(app, "모집 요강"), 30, "the place left as it was")
    screen.click_rect(hit["rect"])
    app.wait(lambda: app.probe.document().get("title", "").startswith(GUIDE[1]), 30, "the page")
    screen.key("alt+d")
    item = app.wait(lambda: app.probe.menu_item(text="기록(&H)…"), 10, "문서 → 기록…")
    screen.click_rect(item["rect"])
    rows = app.wait(
        lambda: app.probe.ask("rows", name="historyList")["rows"], 30, "the page's history"
    )
    assert f"2개 문서에서 ‘{OLD}’ → ‘{NEW}’" in rows[0]["texts"][0], rows[0]
    # the list steps aside for the page and its history: the replace row still reads whole
    _assert_replace_row_whole(app)
    screen.screenshot("history-beside-the-search")


def _assert_replace_row_whole(app: HandsApp) -> None:
    panel = app.probe.widget(name="searchPanel")["rect"]
    for part in ({"text": "바꿀 낱말(&W):"}, {"name": "searchReplaceButton"}):
        _assert_whole(app.probe.widget(**part, inside={"name": "searchPanel"}), panel)


def _assert_whole(widget: dict[str, Any], within: list[int]) -> None:
    """``widget`` has the room its words need, inside ``within``: nothing is cut off."""
    x, y, w, h = widget["rect"]
    assert w >= widget["hint"][0] and h >= widget["hint"][1], widget
    assert within[0] <= x and x + w <= within[0] + within[2], (widget, within)
    assert within[1] <= y and y + h <= within[1] + within[3], (widget, within)


def _hit_row(app: HandsApp, words: str) -> dict[str, Any] | None:
    rows = app.probe.ask("rows", name="searchResults")["rows"]
    return next((r for r in rows if r["depth"] == 1 and any(words in t for t in r["texts"])), None)


def test_the_review_fits_a_small_screen_and_enter_changes_nothing(
    x_screens: Callable[[int, int], XScreen],
    replace_sandbox: Sandbox,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    small, sb = x_screens(800, 600), replace_sandbox
    data = tmp_path_factory.mktemp("replace-small") / "data"
    app = HandsApp(small, sb.api_url, data, Account("kim", "tok-kim"))
    try:
        _search(app, small, OLD)
        _assert_replace_row_whole(app)
        small.screenshot("search-and-replace-row-800")
        _open_review(app, small, NEW)
        app.wait(lambda: app.probe.widgets(name="replaceLeftOut"), 10, "the page held, named")
        dialog = next(w for w in app.probe.windows() if w["name"] == "replaceReviewDialog")
        x, y, w, h = dialog["frame"]
        assert x >= 0 and y >= 0 and x + w <= small.width and y + h <= small.height, dialog
        for name in ("replaceButton", "opsCancelButton", "replaceSummary"):
            bx, by, bw, bh = app.probe.widget(name=name)["rect"]
            assert x <= bx and bx + bw <= x + w and by + bh <= y + h, name
        small.screenshot("replace-review-800")
        before = sb.commits()[0]["sha"]
        small.key("Return")  # the default button is 취소: many pages never change by accident
        app.wait(lambda: not app.probe.widgets(name="replaceReviewDialog"), 10, "the review gone")
        assert sb.commits()[0]["sha"] == before
    finally:
        app.finish()
