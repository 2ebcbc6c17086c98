"""Notify when free: cheap polling (one tree request per poll while nothing changes), then a
notification (tray or in-app banner) when the lock is released or goes stale."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.core.github.client import GitHubClient, RepoRef, RetryPolicy
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.ui.locks.notify_free import REASON_RELEASED, REASON_STALE, FreeNotifier

DOC = "01-welcome"


@pytest.fixture
def me(sandbox: Any, ui: Any, tmp_path: Path) -> Iterator[Any]:
    client = GitHubClient(
        sandbox.api_url,
        "tok-editor1",
        RepoRef("pnuai", "PNU-Modu", "main"),
        retry=RetryPolicy(max_attempts=2, base_delay=0.02, max_delay=0.05, max_total=0.3),
    )

    def make(stale_s: float = 900) -> tuple[DocumentStore, LockManager]:
        store = DocumentStore(client, tmp_path / "cache")
        locks = LockManager(client, "editor1", "me-session", client.clock, stale_s=stale_s)
        return store, locks

    yield make
    ui.run(client.aclose())


def _notifier(store: Any, locks: Any, shown: list[str], **kw: Any) -> FreeNotifier:
    kw.setdefault("use_tray", False)
    return FreeNotifier(store, locks, banner=shown.append, interval_s=0.1, **kw)


def test_released_lock_notifies_with_banner(
    me: Any, peer: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    p = peer()
    held = ui.run(p.locks.acquire(DOC)).held
    assert held is not None
    store, locks = me()
    ui.run(store.refresh())  # warm: the blobs are cached, the tree has an ETag
    shown: list[str] = []
    n = _notifier(store, locks, shown)
    events: list[tuple[str, str, str]] = []
    n.notified.connect(lambda d, r, c: events.append((d, r, c)))
    w = n.watch(DOC)
    qtbot.waitUntil(lambda: w.checks >= 2, timeout=5000)
    sandbox.reset_stats()
    start = w.checks
    qtbot.waitUntil(lambda: w.checks >= start + 3, timeout=5000)
    polls = w.checks - start
    total = sandbox.stats()["total"]
    assert total <= polls + 1  # one conditional tree read per poll (a poll may be in flight)
    assert not events and n.is_watching(DOC)
    ui.run(p.locks.release(held))
    qtbot.waitUntil(lambda: bool(events), timeout=5000)
    assert events == [(DOC, REASON_RELEASED, "banner")]
    assert shown == ["“모두 연습 브로슈어에 오신 것을 환영합니다” is free now; you can edit it."]
    assert not n.is_watching(DOC)
    ui.run(n.stop())


def test_stale_lock_notifies(me: Any, peer: Any, ui: Any, qtbot: Any) -> None:
    p = peer()
    assert ui.run(p.locks.acquire(DOC)).held is not None
    store, locks = me(stale_s=1.5)  # nobody heartbeats: stale after 1.5 s of server time
    shown: list[str] = []
    n = _notifier(store, locks, shown)
    events: list[tuple[str, str, str]] = []
    n.notified.connect(lambda d, r, c: events.append((d, r, c)))
    n.watch(DOC)
    qtbot.waitUntil(lambda: bool(events), timeout=8000)
    assert events[0][1] == REASON_STALE
    assert "stopped responding" in shown[0]
    ui.run(n.stop())


def test_already_free_and_offline(me: Any, sandbox: Any, ui: Any, qtbot: Any) -> None:
    store, locks = me()
    shown: list[str] = []
    n = _notifier(store, locks, shown)
    sandbox.faults.update(failure_rate=1.0, failure_kinds=("5xx",))
    failures: list[str] = []
    w = n.watch(DOC)
    w.checkFailed.connect(failures.append)
    qtbot.waitUntil(lambda: bool(failures), timeout=15000)
    assert not shown and n.is_watching(DOC)  # offline: keeps watching, says nothing
    sandbox.faults.update(failure_rate=0.0)
    qtbot.waitUntil(lambda: bool(shown), timeout=15000)
    ui.run(n.stop())


def test_tray_channel_when_available(me: Any, ui: Any, qtbot: Any) -> None:
    store, locks = me()
    shown: list[str] = []
    n = _notifier(store, locks, shown, use_tray=True)
    events: list[tuple[str, str, str]] = []
    n.notified.connect(lambda d, r, c: events.append((d, r, c)))
    opened: list[str] = []
    n.openRequested.connect(opened.append)
    n.watch(DOC)
    qtbot.waitUntil(lambda: bool(events), timeout=5000)
    assert events[0][2] == "tray" and n.tray is not None
    assert n.messages and "“모두 연습 브로슈어에 오신 것을 환영합니다”" in n.messages[0][1]
    n.tray.messageClicked.emit()
    assert opened == [DOC]
    ui.run(n.stop())


def test_lock_dialog_button_watches_and_notifies(
    make_window: Any, peer: Any, ui: Any, qtbot: Any
) -> None:
    p = peer()
    held = ui.run(p.locks.acquire(DOC)).held
    win = make_window()
    nl = win.nothing_lost
    nl.notifier.interval_s = 0.1
    try:
        task = ui.start(win.open_document(DOC))
        dlg = ui.dialog("lockDialog")
        assert dlg.notify_button is not None and dlg.notify_button.isVisible()
        ui.click(dlg, "notifyFreeButton")
        assert ui.wait_task(task) is False  # nothing opened, no lock taken
        assert nl.notifier.is_watching(DOC) and win.doc is None
        assert "You will be told" in win.notice.label.text()
        ui.run(p.locks.release(held))
        qtbot.waitUntil(lambda: "is free now" in win.notice.label.text(), timeout=10000)
    finally:
        ui.run(nl.aclose())


def test_lock_dialog_without_handler_has_no_button(qtbot: Any) -> None:
    from modu_desktop.ui.locks import lock_dialog

    info = lock_dialog.LockHolderInfo(DOC, "editor2", 1.0, 1.0, 2.0)
    dlg = lock_dialog.LockDialog(info)
    qtbot.addWidget(dlg)
    assert dlg.notify_button is None
