"""The first window fits the screen it opens on: at 800×600 it used to open at 1280×800, its
right part and its status bar off the screen. Checked on a real 800×600 X screen under a real
window manager, at the first start (no list yet) and at the next (the last list shown first)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.hands import Account, HandsApp, XScreen

pytestmark = pytest.mark.hands


def _inside(frame: list[int], area: list[int]) -> bool:
    x, y, w, h = frame
    ax, ay, aw, ah = area
    return ax <= x and ay <= y and x + w <= ax + aw and y + h <= ay + ah


def _main_window(app: HandsApp) -> dict[str, Any] | None:
    for w in app.probe.windows():
        if w["name"] == "mainWindow":
            return w
    return None


def _settled(app: HandsApp) -> dict[str, Any] | None:
    """The main window once the window manager has framed it (its frame is larger)."""
    w = _main_window(app)
    return w if w is not None and w["frame"][3] > w["rect"][3] else None


@pytest.mark.parametrize("start", ["first start", "next start"])
def test_the_first_window_fits_an_800_by_600_screen(
    x_screens: Callable[[int, int], XScreen], hands_sandbox: Any, tmp_path: Path, start: str
) -> None:
    small = x_screens(800, 600)
    data = tmp_path / "data"
    account = Account("editor1", "tok-editor1")
    if start == "next start":  # a list to show at first paint
        first = HandsApp(small, hands_sandbox.api_url, data, account)
        first.wait(lambda: _settled(first), 40, "the main window")
        first.finish()
    app = HandsApp(small, hands_sandbox.api_url, data, account)
    try:
        window = app.wait(lambda: _settled(app), 40, "the main window")
        area = app.probe.ask("screen")["available"]
        assert _inside(window["frame"], area), (window, area, small.screenshot("800x600"))
        assert window["rect"][2] >= 600 and window["rect"][3] >= 400  # and still of use
    finally:
        app.finish()


def _titles_on_screen(screen: XScreen) -> list[str]:
    """The titles the window manager shows in the window frames (X's own window names)."""
    ids = screen.xdo("search", "--onlyvisible", "--name", ".+").split()
    return [screen.xdo("getwindowname", wid) for wid in ids]


def test_window_titles_name_the_app_in_the_users_language(
    screen: XScreen, hands_sandbox: Any, tmp_path: Path
) -> None:
    """On Linux, Qt ends every title that does not already end with it with the application's
    display name: an English "— Modu Desktop" after Korean titles, twice in the main window's."""
    app = HandsApp(
        screen, hands_sandbox.api_url, tmp_path / "data", Account("editor1", "tok-editor1")
    )
    try:
        app.wait(lambda: _settled(app), 40, "the main window")
        app.click(name="pictureLibraryButton")  # a dialog: its title is one Qt ends too
        app.wait(lambda: any("그림 모음" in t for t in _titles_on_screen(screen)), 20, "그림 모음")
        titles = _titles_on_screen(screen)
        assert any(t.endswith("— 모두 데스크톱") for t in titles), titles
        assert not any("Modu Desktop" in t for t in titles), titles
    finally:
        app.finish()
