"""A page made in the app moves in the menu at once, with a real mouse and keyboard: 새 문서
(Ctrl+N), its title typed in Korean, 만들기 clicked — the page is placed after the last one —
then ▲ under the list clicked: it goes up one place, in the list and on the site, never “give it
a position first”. At 800 px the list is behind ☰, which brings it back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from modu_desktop.core.brochure import frontmatter
from tests.helpers.hands import Account, HandsApp, XScreen

pytestmark = pytest.mark.hands


def _titles(app: HandsApp) -> list[str]:
    """The list's titles, top to bottom (a narrow list puts the number and file under each)."""
    return [r["texts"][1].split("\n")[0] for r in app.probe.ask("rows", name="docList")["rows"]]


def _make_a_page(app: HandsApp, title: str) -> None:
    app.wait(lambda: len(_titles(app)) >= 6, 40, "the document list")
    app.click(name="docFilter")  # the window has the keyboard
    app.screen.key("ctrl+n")
    app.wait(
        lambda: app.probe.window_open("opsNewDocDialog"),
        20,
        "the new page dialog",
    )
    app.click(name="opsTitleEdit")
    app.wait(lambda: app.focus_name() == "opsTitleEdit", 10, "the title field")
    app.screen.type(title)
    app.click(name="opsCreateButton")
    app.wait(lambda: app.probe.document().get("title", "").startswith(title), 30, "the new page")


def _position_on_site(sandbox: Any, doc_id: str) -> int | None:
    data = sandbox.read_file(f"docs/{doc_id}.md")
    return frontmatter.parse(data.decode("utf-8")).get_int("sidebar_position") if data else None


def _moved_up(app: HandsApp, title: str, before: list[str]) -> Callable[[], bool]:
    at = before.index(title)
    wanted = [*before[: at - 1], title, before[at - 1], *before[at + 1 :]]
    return lambda: _titles(app) == wanted


def test_a_new_page_moves_up_at_once(
    screen: XScreen, hands_sandbox: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    data = tmp_path_factory.mktemp("new-page") / "data"
    app = HandsApp(screen, hands_sandbox.api_url, data, Account("editor1", "tok-editor1"))
    try:
        _make_a_page(app, "새 안내 페이지")
        doc_id = "100-새-안내-페이지"
        assert _position_on_site(hands_sandbox, doc_id) == 100  # after the last page (99)
        before = app.wait(
            lambda: (t := _titles(app)) and t[-1] == "새 안내 페이지" and t, 20, "it listed last"
        )
        app.click(name="opsMoveUpButton")
        app.wait(_moved_up(app, "새 안내 페이지", before), 30, "the page one place up")
        assert _position_on_site(hands_sandbox, doc_id) == 99
        screen.screenshot("new-page-moved-up")
    finally:
        app.finish()


def test_a_new_page_moves_up_at_800_px(
    x_screens: Callable[[int, int], XScreen],
    hands_sandbox: Any,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    small = x_screens(800, 600)
    data = tmp_path_factory.mktemp("new-page-800") / "data"
    app = HandsApp(small, hands_sandbox.api_url, data, Account("editor2", "tok-editor2"))
    try:
        _make_a_page(app, "작은 화면 페이지")
        app.click(name="toggleListButton")  # ☰: the list comes back beside the page
        before = app.wait(
            lambda: (t := _titles(app)) and t[-1] == "작은 화면 페이지" and t, 20, "it listed last"
        )
        app.click(name="opsMoveUpButton")
        app.wait(_moved_up(app, "작은 화면 페이지", before), 30, "the page one place up")
        small.screenshot("new-page-moved-up-800")
    finally:
        app.finish()
