"""UI test helpers: signed-in windows on the sandbox, running coroutines, finding dialogs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.sandbox import AnswerGate


@pytest.fixture(autouse=True)
def _collect_qt_garbage() -> Iterator[None]:
    """Collect each test's garbage (closed qasync loops, deleted windows) right after the test,
    at a quiet moment — not later inside a Qt timer dispatch, where a collected loop's timer
    object can be freed while Qt is still delivering to it (seen as a segfault in
    QApplication::notify)."""
    yield
    import gc

    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    QCoreApplication.processEvents()


class UiHelper:
    def __init__(self, qtbot: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.qtbot = qtbot
        self.loop = loop

    def run(self, coro: Coroutine[Any, Any, Any], timeout: int = 15000) -> Any:
        task = asyncio.ensure_future(coro)
        self.qtbot.waitUntil(task.done, timeout=timeout)
        return task.result()

    def start(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        return asyncio.ensure_future(coro)

    def wait_task(self, task: asyncio.Task[Any], timeout: int = 15000) -> Any:
        self.qtbot.waitUntil(task.done, timeout=timeout)
        return task.result()

    def dialog(self, object_name: str, timeout: int = 10000) -> Any:
        from PySide6.QtWidgets import QApplication

        found: list[Any] = []

        def visible() -> bool:
            for w in QApplication.topLevelWidgets():
                if w.objectName() == object_name and w.isVisible():
                    found.append(w)
                    return True
            return False

        self.qtbot.waitUntil(visible, timeout=timeout)
        return found[-1]

    def no_dialog(self, object_name: str) -> bool:
        from PySide6.QtWidgets import QApplication

        return not any(
            w.objectName() == object_name and w.isVisible() for w in QApplication.topLevelWidgets()
        )

    def click(self, parent: Any, object_name: str) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QAbstractButton

        button = parent.findChild(QAbstractButton, object_name)
        assert button is not None, f"no button {object_name}"
        self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


@pytest.fixture
def ui(qtbot: Any, event_loop_qt: asyncio.AbstractEventLoop) -> UiHelper:
    return UiHelper(qtbot, event_loop_qt)


def _client(sandbox: Any, token: str) -> Any:
    from modu_desktop.core.github.client import GitHubClient, RepoRef

    return GitHubClient(sandbox.api_url, token, RepoRef("pnuai", "PNU-Modu", "main"))


@pytest.fixture
def make_window(
    ui: UiHelper, qtbot: Any, sandbox: Any, tmp_path: Path
) -> Iterator[Callable[..., Any]]:
    """make_window(login, token, viewer=False, **options) → a shown MainWindow on the sandbox."""
    from modu_desktop.core.account.auth import check_token
    from modu_desktop.core.account.paths import app_paths
    from modu_desktop.core.account.settings import Settings
    from modu_desktop.ui.kit.context import AppContext, AppOptions
    from modu_desktop.ui.shell.main_window import MainWindow

    windows: list[Any] = []

    def factory(
        login: str = "editor1", token: str = "tok-editor1", *, data: str | None = None, **opts: Any
    ) -> Any:
        opts.setdefault("lang", "en")
        opts.setdefault("deploy_poll_s", 0.5)
        opts.setdefault("release_timeout_s", 5.0)
        options = AppOptions(**opts)
        client = _client(sandbox, token)
        res = ui.run(check_token(client))
        assert res.ok, res.message
        settings = Settings(api_url=sandbox.api_url)
        ctx = AppContext(
            settings=settings,
            paths=app_paths(tmp_path / (data or f"data-{login}-{len(windows)}")).ensure(),
            options=options,
            client=client,
            login=res.login or login,
            can_push=res.can_push,
        ).build()
        win = MainWindow(ctx)
        win.show()
        windows.append(win)
        assert ui.run(win.refresh_list())
        return win

    yield factory
    for win in windows:
        with contextlib.suppress(Exception):
            ui.run(win.shutdown(interactive=False), timeout=10000)
        win.quitting.closed = True
        win.close()
        win.deleteLater()
        with contextlib.suppress(Exception):
            ui.run(win.ctx.aclose(), timeout=5000)


class Peer:
    """A second editor at the core level: its LockManager, client and DocumentStore."""

    def __init__(self, locks: Any, client: Any, store: Any, login: str) -> None:
        self.locks, self.client, self.store, self.login = locks, client, store, login


@pytest.fixture
def peer(ui: UiHelper, sandbox: Any) -> Iterator[Callable[..., Any]]:
    """peer(login, token, session_id=…, stale_s=…) → a Peer (locks, client, store)."""
    from modu_desktop.core.documents.store import DocumentStore
    from modu_desktop.core.locks.manager import LockManager

    clients: list[Any] = []

    def factory(
        login: str = "editor2",
        token: str = "tok-editor2",
        session_id: str = "peer-session",
        stale_s: float = 900,
        tmp: Path | None = None,
    ) -> Any:
        client = _client(sandbox, token)
        clients.append(client)
        mgr = LockManager(client, login, session_id, client.clock, heartbeat_s=1, stale_s=stale_s)
        store = DocumentStore(client, Path(sandbox.repo_dir).parent / f"peer-cache-{login}")
        return Peer(mgr, client, store, login)

    yield factory
    for c in clients:
        with contextlib.suppress(Exception):
            ui.run(c.aclose(), timeout=5000)


@pytest.fixture
def gate(sandbox: Any) -> Iterator[AnswerGate]:
    """The sandbox's answers, held while the gate is closed: "before the fresh read is back" is
    then sure, not a latency's guess. Ask for it last, so it opens before the window and the
    peers are torn down."""
    sandbox.clock = answers = AnswerGate()
    yield answers
    answers.release()
