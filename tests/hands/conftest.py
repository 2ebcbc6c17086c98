"""The real-hands layer: one X server with openbox per screen size for the whole run, a sandbox
per module, and a screenshot of the whole screen when a test fails (see README.md here)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.hands import XScreen, missing_tools

SHOTS_ENV = "MODU_HANDS_SHOTS"


@pytest.fixture(scope="session")
def hands_shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: ``MODU_HANDS_SHOTS``, else a folder of this run's temp dir."""
    import os

    chosen = os.environ.get(SHOTS_ENV)
    return Path(chosen) if chosen else tmp_path_factory.mktemp("hands-screenshots")


@pytest.fixture(scope="session")
def x_screens(hands_shots: Path) -> Iterator[Callable[[int, int], XScreen]]:
    """``x_screens(width, height)``: an X screen of that size with openbox, started once."""
    missing = missing_tools()
    if missing:
        pytest.skip(f"the real-hands tests need {', '.join(missing)} (.ci/apt-packages.txt)")
    started: dict[tuple[int, int], XScreen] = {}

    def get(width: int, height: int) -> XScreen:
        if (width, height) not in started:
            screen = XScreen(width, height, hands_shots)
            screen.start()
            print(f"\nhands: X screen {width}x{height} on DISPLAY={screen.display}")
            started[(width, height)] = screen
        return started[(width, height)]

    try:
        yield get
    finally:
        for screen in started.values():
            screen.stop()


@pytest.fixture(scope="module")
def screen(x_screens: Callable[[int, int], XScreen]) -> XScreen:
    """The usual screen: 1600×1000."""
    return x_screens(1600, 1000)


@pytest.fixture(scope="session")
def other_screen(hands_shots: Path) -> Iterator[XScreen]:
    """A second 1600×1000 screen with its own openbox: another person's computer, for the
    tests where two people work at once (started once for the run)."""
    missing = missing_tools()
    if missing:
        pytest.skip(f"the real-hands tests need {', '.join(missing)} (.ci/apt-packages.txt)")
    screen = XScreen(1600, 1000, hands_shots)
    screen.start()
    print(f"\nhands: the other person's X screen on DISPLAY={screen.display}")
    try:
        yield screen
    finally:
        screen.stop()


@pytest.fixture(scope="module")
def hands_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A sandbox with the sample brochure, two editors and a viewer, for one module."""
    from modu_desktop.sandbox import Sandbox
    from tests.helpers.sandbox import USERS

    sb = Sandbox(
        tmp_path_factory.mktemp("hands-repo") / "repo",
        users=USERS,
        seed="sample",
        deploy_queue_seconds=60.0,
    )
    sb.start()
    try:
        yield sb
    finally:
        sb.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    """A failed test leaves the whole X screen behind, named in its report."""
    outcome: Any = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    screen = getattr(item, "funcargs", {}).get("screen")
    if isinstance(screen, XScreen) and screen.display:
        path = screen.screenshot(f"failed-{item.name}")
        report.sections.append(("screenshot", f"the whole screen at the failure: {path}"))
