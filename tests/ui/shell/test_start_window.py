"""The last list at first paint, before the HTTP stack; checked before use; handed to
the main window."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from modu_desktop.core.account.startcheck import StartCheck
from modu_desktop.core.documents.snapshots import Identity, list_file
from modu_desktop.core.documents.store import DocSummary, RepoSnapshot
from modu_desktop.core.github.blobcache import BlobCache
from modu_desktop.core.github.client import TreeEntry
from modu_desktop.i18n import set_language
from modu_desktop.ui.shell.start_window import early_badge, show_last_list

API = "http://127.0.0.1:1"
REPO = "pnuai/PNU-Modu"


def _write_list(cache_dir: Path, *, practice: bool = False, identity: bool = True) -> None:
    lock = b'{"docId":"b","editingBy":"editor2","startedAt":1000,"lastHeartbeat":1000}'
    sha = BlobCache(cache_dir / "blobs").put(lock)
    snap = RepoSnapshot(
        "t" * 40,
        (
            DocSummary("a", "docs/a.md", "1" * 40, "가나다", position=1),
            DocSummary("b", "docs/b.md", "2" * 40, "라마바", position=2),
        ),
        {"b": TreeEntry(".locks/b.lock.json", sha)},
    )
    f = list_file(cache_dir, API, REPO, "main", practice=practice)
    if identity:
        f.identity = Identity("editor1", True)
    f.save(snap)


def test_no_list_no_start_window(tmp_path: Path, qtbot: Any) -> None:
    assert show_last_list(tmp_path, API, REPO, "main", practice=False) is None
    _write_list(tmp_path, identity=False)  # never signed in with it: nothing to show
    assert show_last_list(tmp_path, API, REPO, "main", practice=False) is None
    _write_list(tmp_path)
    assert show_last_list(tmp_path, API, "pnuai/Other", "main", practice=False) is None
    assert show_last_list(tmp_path, API, REPO, "dev", practice=False) is None


def test_start_window_shows_the_last_list_checking(tmp_path: Path, qtbot: Any) -> None:
    set_language("ko")
    _write_list(tmp_path)
    win = show_last_list(tmp_path, API, REPO, "main", practice=False)
    assert win is not None
    qtbot.addWidget(win)
    assert win.isVisible() and win.doc_list.checking
    assert win.doc_list.doc_ids() == ["a", "b"]
    assert "확인 중" in win.doc_list.status.text()
    row = win.doc_list.row("b")
    badge = row.lock if row is not None else None
    assert badge is not None and badge.holder == "editor2" and badge.stale
    assert not win.doc_list.refresh_button.isEnabled()
    for width in (800, 1600):
        win.resize(width, 700)
        assert win.grab().save(str(tmp_path / f"start-{width}.png"), "PNG")


def test_hand_over_keeps_filter_selection_and_the_waiting_open(
    tmp_path: Path, qtbot: Any, make_window: Any
) -> None:
    _write_list(tmp_path)
    early = show_last_list(tmp_path, API, REPO, "main", practice=False)
    assert early is not None
    early.doc_list.filter_edit.setText("라마")
    early.doc_list.select("b")
    early.doc_list.open_button.click()  # waits: the list is being checked
    assert early.doc_list.pending_open == "b"
    win = make_window()  # a real main window (listed already: fresh rows)
    asked: list[str] = []
    win.doc_list.openRequested.connect(asked.append)
    early.hand_over(win)
    assert win.isVisible() and not early.isVisible()
    assert win.doc_list.filter_edit.text() == "라마"
    assert win.doc_list.pending_open == "b"


def test_early_badge_reads_only_what_it_needs() -> None:
    now = 10_000.0
    fresh = early_badge(
        b'{"docId":"x","editingBy":"Editor1","startedAt":9000,"lastHeartbeat":9900}', "editor1", now
    )
    assert fresh.holder == "Editor1" and not fresh.stale and fresh.same_user_elsewhere
    assert not fresh.mine  # a new session holds nothing
    assert early_badge(b"{not json", "editor1", now).malformed
    assert early_badge(None, "editor1", now).malformed  # bytes not cached: unknown lock


def test_first_paint_imports_no_http_stack() -> None:
    """What the start window needs is all that is imported before it is shown, lock badges
    included: a list with locks once pulled in the lock manager and its HTTP client (~70 ms).
    The lock words live in the locks package, whose ``__init__`` imports nothing."""
    code = (
        "import sys; import modu_desktop.ui.shell.app, modu_desktop.ui.shell.start_window, "
        "modu_desktop.ui.recovery.single_instance, modu_desktop.core.account.settings, "
        "modu_desktop.ui.shell.qt_setup, "
        "modu_desktop.ui.shell.i18n, "
        "modu_desktop.core.documents.snapshots, modu_desktop.core.github.blobcache; "
        "from modu_desktop.ui.doclist.panel import LockBadge, badge_text; "
        "from modu_desktop.ui.shell.start_window import early_badge; "
        'b = early_badge(b\'{"editingBy":"editor2","startedAt":1,"lastHeartbeat":2}\', '
        "'editor1', 3.0); "
        "assert 'editor2' in badge_text(b, 3.0) and badge_text(b, 3.0, long=True); "
        "heavy = ('asyncio', 'httpx', 'qasync', 'keyring', 'markdown_it', 'pygments', 'dulwich', "
        "'PySide6.QtWebEngineWidgets', 'modu_desktop.core.documents.store', "
        "'modu_desktop.core.locks.manager', 'modu_desktop.ui.preview.engine', "
        "'modu_desktop.ui.editing.editor'); "
        "print(','.join(m for m in heavy if m in sys.modules))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "", r.stdout


def _tree_sha(sandbox: Any) -> str:
    import httpx

    r = httpx.get(
        f"{sandbox.api_url}/repos/pnuai/PNU-Modu/git/trees/main",
        headers={"Authorization": "token tok-editor1", "User-Agent": "t"},
    )
    return str(r.json()["sha"])


def _check(sandbox: Any) -> StartCheck:
    return StartCheck(sandbox.api_url, REPO, "main", "x").start()


def _list_for(cache_dir: Path, api: str, tree_sha: str) -> None:
    snap = RepoSnapshot(
        tree_sha, (DocSummary("a", "docs/a.md", "1" * 40, "가나다", position=1),), {}
    )
    f = list_file(cache_dir, api, REPO, "main")
    f.identity = Identity("editor1", True)
    f.save(snap)


def test_the_start_window_confirms_an_unchanged_list_in_one_request(
    tmp_path: Path, qtbot: Any, sandbox: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("MODU_TOKEN", "tok-editor1")
    _list_for(tmp_path, sandbox.api_url, _tree_sha(sandbox))
    sandbox.reset_stats()
    # The check asks once the window shows the list, so its answer surely comes after the first
    # paint (an answer already in is the test below).
    check = StartCheck(sandbox.api_url, REPO, "main", "x")
    win = show_last_list(tmp_path, sandbox.api_url, REPO, "main", practice=False, check=check)
    assert win is not None and win.doc_list.checking
    qtbot.addWidget(win)
    check.start()
    qtbot.waitUntil(lambda: not win.doc_list.checking, timeout=10000)
    stats = sandbox.stats()
    assert stats["total"] == 1, stats
    # An open asked for now still waits for the main window, which gets it on hand-over.
    asked: list[str] = []
    win.doc_list.openRequested.connect(asked.append)
    win.doc_list.select("a")
    win.doc_list.open_button.click()
    assert win.doc_list.pending_open == "a"


def test_a_changed_branch_leaves_the_list_checking(
    tmp_path: Path, qtbot: Any, sandbox: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("MODU_TOKEN", "tok-editor1")
    _list_for(tmp_path, sandbox.api_url, "0" * 40)  # not the branch's tree any more
    check = StartCheck(sandbox.api_url, REPO, "main", "x")
    win = show_last_list(tmp_path, sandbox.api_url, REPO, "main", practice=False, check=check)
    assert win is not None
    qtbot.addWidget(win)
    heard: list[str] = []
    # queued to the GUI thread like the window's own receiver, and after it
    win._relay.answered.connect(heard.append, Qt.ConnectionType.QueuedConnection)
    check.start()
    qtbot.waitUntil(lambda: bool(heard), timeout=10000)
    assert heard == [_tree_sha(sandbox)]  # the answer came, and it is not the list's tree
    assert win.doc_list.checking and not win.confirmed


def test_an_answer_in_before_the_window_shows_the_list_fresh_from_its_first_paint(
    tmp_path: Path, qtbot: Any, sandbox: Any, monkeypatch: Any
) -> None:
    """The check starts before Qt is imported (``app.main``): when it has answered by the time
    the start window is built, the list is never shown as "확인 중"."""
    monkeypatch.setenv("MODU_TOKEN", "tok-editor1")
    _list_for(tmp_path, sandbox.api_url, _tree_sha(sandbox))
    check = _check(sandbox)
    qtbot.waitUntil(lambda: check.answer is not None, timeout=10000)
    assert check.answer == _tree_sha(sandbox)
    win = show_last_list(tmp_path, sandbox.api_url, REPO, "main", practice=False, check=check)
    assert win is not None
    qtbot.addWidget(win)
    assert win.confirmed and not win.doc_list.checking
    assert win.doc_list.tree.property("checking") is False
    placeholder = win.findChild(QLabel, "startPlaceholder")
    assert placeholder is not None and placeholder.text() == "Opening the editor…"


def test_a_check_without_a_token_answers_empty_and_the_list_stays_checking(
    tmp_path: Path, qtbot: Any, sandbox: Any, monkeypatch: Any
) -> None:
    monkeypatch.delenv("MODU_TOKEN", raising=False)
    monkeypatch.setattr("modu_desktop.core.account.auth.TokenStore.load", lambda self: None)
    _list_for(tmp_path, sandbox.api_url, _tree_sha(sandbox))
    sandbox.reset_stats()
    check = _check(sandbox)
    qtbot.waitUntil(lambda: check.answer is not None, timeout=10000)
    assert check.answer == "" and sandbox.stats()["total"] == 0  # nothing sent without a token
    win = show_last_list(tmp_path, sandbox.api_url, REPO, "main", practice=False, check=check)
    assert win is not None
    qtbot.addWidget(win)
    assert win.doc_list.checking and not win.confirmed
