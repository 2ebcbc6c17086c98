"""Shared fixtures: offscreen Qt, a qasync loop per test, a loopback sandbox, in-memory keyrings."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# Must happen before any QApplication exists; without it a display-less machine aborts the process.
# The screen is a 1600×1000 desktop (Qt's offscreen default, 800×800, is smaller than the window
# the app opens where there is room); tests of small screens make their windows small themselves.
_SCREEN = Path(__file__).resolve().parent / "fixtures" / "offscreen-screen.json"
os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={_SCREEN}"
os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")
# No test reaches beyond 127.0.0.1: the app's own new-version check stays off (the app
# processes started by the end-to-end tests inherit this).
os.environ["MODU_NO_UPDATE_CHECK"] = "1"
# Qt WebEngine (the preview): Chromium refuses to run as root without --no-sandbox. Test
# environment only; the shipped app never turns the sandbox off.
if hasattr(os, "geteuid") and os.geteuid() == 0:
    os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")
    _flags = os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
    if "--no-sandbox" not in _flags:
        os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = (_flags + " --no-sandbox").strip()


def _prepare_webengine() -> None:
    """WebEngine wants its URL schemes and shared GL contexts before the QApplication."""
    try:
        from modu_desktop.ui.shell.qt_setup import prepare_application
    except ImportError:
        return
    prepare_application()


_prepare_webengine()

EDITOR1 = ("editor1", "tok-editor1")
EDITOR2 = ("editor2", "tok-editor2")
VIEWER = ("viewer", "tok-viewer")


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Tests read the English source texts unless they choose Korean (``i18n.set_language``)."""
    from modu_desktop import i18n

    before = i18n.language()
    i18n.set_language("en")
    yield
    i18n.set_language(before)


class _WarningCollector(logging.Handler):
    """Collects WARNING-or-worse records from every logger (qutebrowser's ``logfail``)."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "expect_log(*patterns): the test expects WARNING-or-worse log records whose "
        "'logger: message' contains one of the patterns (any record when none is given)",
    )


@pytest.fixture(autouse=True)
def fail_on_unexpected_warnings(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that logs WARNING or above fails, unless it declares it expects that: with the
    ``expect_log`` marker, or by asking for ``caplog`` (then it asserts on the records itself)."""
    collector = _WarningCollector()
    root = logging.getLogger()
    root.addHandler(collector)
    try:
        yield
    finally:
        root.removeHandler(collector)
    if "caplog" in request.fixturenames:
        return
    marker = request.node.get_closest_marker("expect_log")
    unexpected = [
        line
        for line in (f"{r.levelname} {r.name}: {r.getMessage()}" for r in collector.records)
        if marker is None or (marker.args and not any(p in line for p in marker.args))
    ]
    if unexpected:
        lines = "\n".join(f"  {line}" for line in unexpected[:10])
        pytest.fail(
            f"unexpected log records at WARNING or above (mark the test expect_log or use "
            f"caplog if they are intended):\n{lines}",
            pytrace=False,
        )


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[object]:
    """A started sandbox on 127.0.0.1 seeded with the sample brochure, two editors and a viewer."""
    from modu_desktop.sandbox import Sandbox, SandboxUser

    sb = Sandbox(
        tmp_path / "sandbox-repo",
        users=[
            SandboxUser(*EDITOR1, push=True),
            SandboxUser(*EDITOR2, push=True),
            SandboxUser(*VIEWER, push=False),
        ],
        seed="sample",
    )
    sb.start()
    try:
        yield sb
    finally:
        sb.stop()


@pytest.fixture
def event_loop_qt(qapp: object) -> Iterator[asyncio.AbstractEventLoop]:
    """A qasync loop set as the *running* loop without run_forever, so pytest-qt drives it."""
    import qasync

    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    asyncio.events._set_running_loop(loop)
    try:
        yield loop
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        from PySide6.QtCore import QCoreApplication, QDeadlineTimer

        deadline = QDeadlineTimer(3000)
        while any(not t.done() for t in pending) and not deadline.hasExpired():
            QCoreApplication.processEvents()
        asyncio.events._set_running_loop(None)
        loop.close()
        asyncio.set_event_loop(None)


@pytest.fixture
def memory_keyring() -> Iterator[dict[tuple[str, str], str]]:
    import keyring
    from keyring.backend import KeyringBackend
    from keyring.errors import PasswordDeleteError

    store: dict[tuple[str, str], str] = {}

    class MemoryKeyring(KeyringBackend):
        priority = 1

        def get_password(self, service: str, username: str) -> str | None:
            return store.get((service, username))

        def set_password(self, service: str, username: str, password: str) -> None:
            store[(service, username)] = password

        def delete_password(self, service: str, username: str) -> None:
            if (service, username) not in store:
                raise PasswordDeleteError("not found")
            del store[(service, username)]

    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    try:
        yield store
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def no_keyring() -> Iterator[None]:
    import keyring
    from keyring.backends.fail import Keyring as FailKeyring

    previous = keyring.get_keyring()
    keyring.set_keyring(FailKeyring())
    try:
        yield
    finally:
        keyring.set_keyring(previous)
