"""Crash recovery at start: drafts against the server (unchanged / changed / deleted / new),
the recovery dialog (restore byte-identical, save as new, discard), and leftover locks of a dead
session (recorded by the lock manager's HeldLockRecorder; released, resumed with the draft,
or forgotten)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core import atomic
from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.core.github.client import GitHubClient, RepoRef, RetryPolicy
from modu_desktop.core.locks.held import HeldLockRecorder, HeldLockRegistry, ProcessState
from modu_desktop.core.locks.leftover import (
    LeftoverAction,
    LeftoverLocks,
    LeftoverState,
    find_leftovers,
)
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.saving.drafts import Draft, DraftKey, DraftStore
from modu_desktop.ui.recovery.recovery_dialog import (
    RecoveryChoice,
    RecoveryItem,
    ServerState,
    assess,
    offer_recovery,
    orphan_drafts,
)

REPO = "pnuai/PNU-Modu"
TEXT = "\ufeff---\r\ntitle: 복구 \U0001f600\r\n---\r\n본문\tend\r\n"


@pytest.fixture(autouse=True)
def _fast_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(atomic, "DURABLE", False)


@pytest.fixture
def clients(sandbox: Any, ui: Any) -> Iterator[list[GitHubClient]]:
    made: list[GitHubClient] = []
    yield made
    for c in made:
        ui.run(c.aclose())


def _client(sandbox: Any, clients: list[GitHubClient], token: str = "tok-editor1") -> GitHubClient:
    c = GitHubClient(
        sandbox.api_url,
        token,
        RepoRef("pnuai", "PNU-Modu", "main"),
        timeout=3.0,
        retry=RetryPolicy(max_attempts=2, base_delay=0.02, max_delay=0.05, max_total=0.3),
    )
    clients.append(c)
    return c


def _draft(
    sandbox: Any, doc_id: str, base: str | None, text: str = TEXT, session: str = "dead"
) -> Draft:
    return Draft(
        DraftKey(sandbox.api_url, REPO, "main", doc_id),
        text,
        base,
        f"docs/{doc_id}.md",
        1.0,
        session,
        title=f"T {doc_id}",
    )


def _sha(sandbox: Any, doc_id: str) -> str:
    return atomic.git_blob_sha(sandbox.read_file(f"docs/{doc_id}.md"))


# -- drafts against the server ----------------------------------------------------------------


def test_assess_drafts_against_server(
    sandbox: Any, ui: Any, tmp_path: Path, peer: Any, clients: list[GitHubClient]
) -> None:
    p = peer()
    changed_base = _sha(sandbox, "02-programs")
    loaded = ui.run(p.store.load("02-programs"))
    ui.run(p.store.save("02-programs", loaded.text + "\npeer\n", loaded.sha, p.login))
    drafts = [
        _draft(sandbox, "01-welcome", _sha(sandbox, "01-welcome")),
        _draft(sandbox, "02-programs", changed_base),
        _draft(sandbox, "zz-deleted", "f" * 40),
        _draft(sandbox, "zz-new", None),
    ]
    store = DocumentStore(_client(sandbox, clients), tmp_path / "cache")
    items = ui.run(assess(drafts, store))
    assert [i.state for i in items] == [
        ServerState.UNCHANGED,
        ServerState.CHANGED,
        ServerState.DELETED,
        ServerState.NEW,
    ]
    assert items[1].server_text == loaded.text + "\npeer\n"
    assert items[0].server_text == sandbox.read_file("docs/01-welcome.md").decode("utf-8")
    sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    offline = ui.run(assess(drafts[:1], DocumentStore(_client(sandbox, clients), tmp_path / "c2")))
    assert offline[0].state is ServerState.UNKNOWN


@pytest.mark.expect_log("modu_desktop.core.saving.drafts")
def test_orphan_drafts_filter(sandbox: Any, tmp_path: Path) -> None:
    ds = DraftStore(tmp_path / "drafts")
    ds.save(_draft(sandbox, "01-welcome", None, session="dead"))
    ds.save(_draft(sandbox, "02-programs", None, session="live"))
    other = Draft(DraftKey("https://api.github.com", REPO, "main", "x"), "t", None, "p", 1, "dead")
    ds.save(other)
    (tmp_path / "drafts" / "junk.draft.json").write_bytes(b"\x00garbage")
    found = orphan_drafts(
        ds, api_host=sandbox.api_url + "/", repo=REPO, branch="main", live_session_ids={"live"}
    )
    assert [d.key.doc_id for d in found] == ["01-welcome"]
    assert ds.last_problems  # the garbage was set aside, the others still listed


def test_dialog_restore_is_byte_identical(sandbox: Any, ui: Any, tmp_path: Path) -> None:
    ds = DraftStore(tmp_path / "drafts")
    d = _draft(sandbox, "01-welcome", "a" * 40)
    ds.save(d)
    loaded = ds.list()
    items = [RecoveryItem(loaded[0], ServerState.CHANGED, "b" * 40, "server text")]
    got: list[str] = []

    async def restore(draft: Draft, item: RecoveryItem) -> bool:
        got.append(draft.text)
        return True

    async def save_new(draft: Draft, item: RecoveryItem) -> str | None:
        raise AssertionError("not chosen")

    task = ui.start(offer_recovery(None, items, ds, restore=restore, save_as_new=save_new))
    dlg = ui.dialog("recoveryDialog")
    assert "Someone else saved" in dlg.state_label.text()
    assert dlg.server_view.toPlainText() == "server text"
    ui.click(dlg, "recoverRestoreButton")
    chosen = ui.wait_task(task)
    assert chosen[1] is RecoveryChoice.RESTORE
    assert got[0].encode("utf-8") == TEXT.encode("utf-8")
    assert ds.load(d.key) is not None  # removed only once committed by the editor


def test_dialog_discard_and_save_as_new(sandbox: Any, ui: Any, tmp_path: Path) -> None:
    ds = DraftStore(tmp_path / "drafts")
    a, b = _draft(sandbox, "01-welcome", None), _draft(sandbox, "zz-gone", "c" * 40)
    ds.save(a)
    ds.save(b)
    items = [
        RecoveryItem(a, ServerState.UNCHANGED, None, ""),
        RecoveryItem(b, ServerState.DELETED),
    ]
    saved: list[tuple[str, str]] = []

    async def restore(draft: Draft, item: RecoveryItem) -> bool:
        raise AssertionError("not chosen")

    async def save_new(draft: Draft, item: RecoveryItem) -> str | None:
        saved.append((draft.key.doc_id, draft.text))
        return "new-doc"

    task = ui.start(offer_recovery(None, items, ds, restore=restore, save_as_new=save_new))
    dlg = ui.dialog("recoveryDialog")
    ui.click(dlg, "recoverDiscardButton")  # the first one
    assert ds.load(a.key) is None
    assert dlg.current() is not None and dlg.current().doc_id == "zz-gone"
    assert not dlg.restore_button.isEnabled()  # deleted on the site: only save as new
    ui.click(dlg, "recoverSaveNewButton")
    chosen = ui.wait_task(task)
    assert chosen[1] is RecoveryChoice.SAVE_AS_NEW
    assert saved == [("zz-gone", TEXT)] and ds.load(b.key) is None


# -- leftover locks -----------------------------------------------------------------------------


def _registry(tmp_path: Path) -> HeldLockRegistry:
    return HeldLockRegistry(
        tmp_path / "held",
        liveness=lambda r: ProcessState.DEAD if r.session_id == "dead" else ProcessState.ALIVE,
    )


def _manager(
    sandbox: Any, clients: list[GitHubClient], tmp_path: Path, session: str
) -> LockManager:
    c = _client(sandbox, clients)
    mgr = LockManager(c, "editor1", session, c.clock)
    mgr.observers.append(
        HeldLockRecorder(
            _registry(tmp_path),
            api_host=sandbox.api_url,
            repo=REPO,
            branch="main",
            session_id=session,
            login="editor1",
        )
    )
    return mgr


def _crash_holding(
    ui: Any, sandbox: Any, clients: list[GitHubClient], tmp_path: Path, doc: str
) -> None:
    dead = _manager(sandbox, clients, tmp_path, "dead")
    res = ui.run(dead.acquire(doc))
    assert res.held is not None
    assert [r.doc_id for r in _registry(tmp_path).records("dead")] == [doc]
    # heartbeat keeps the recorded sha current
    ui.run(dead.heartbeat(res.held))
    assert _registry(tmp_path).records("dead")[0].lock_sha == res.held.sha


def _lock(sandbox: Any, doc: str) -> dict[str, Any] | None:
    raw = sandbox.read_file(f".locks/{doc}.lock.json")
    return None if raw is None else json.loads(raw)


def test_recording_manager_forgets_after_release(
    sandbox: Any, ui: Any, tmp_path: Path, clients: list[GitHubClient]
) -> None:
    mgr = _manager(sandbox, clients, tmp_path, "live")
    res = ui.run(mgr.acquire("01-welcome"))
    assert _registry(tmp_path).records("live")
    ui.run(mgr.release(res.held))
    assert _registry(tmp_path).records() == []


def test_leftover_without_draft_is_released(
    sandbox: Any, ui: Any, tmp_path: Path, clients: list[GitHubClient]
) -> None:
    _crash_holding(ui, sandbox, clients, tmp_path, "01-welcome")
    now = _manager(sandbox, clients, tmp_path, "new")
    ll = LeftoverLocks(
        _registry(tmp_path),
        now,
        api_host=sandbox.api_url,
        repo=REPO,
        branch="main",
        drafts=DraftStore(tmp_path / "drafts"),
    )
    report = ui.run(ll.run())
    assert [x.action for x in report.leftovers] == [LeftoverAction.RELEASED]
    assert _lock(sandbox, "01-welcome") is None
    assert sandbox.commits()[0]["message"] == "system: release lock for 01-welcome [skip ci]"
    assert _registry(tmp_path).records() == []


def test_leftover_with_draft_is_resumed(
    sandbox: Any, ui: Any, tmp_path: Path, clients: list[GitHubClient]
) -> None:
    _crash_holding(ui, sandbox, clients, tmp_path, "01-welcome")
    ds = DraftStore(tmp_path / "drafts")
    ds.save(_draft(sandbox, "01-welcome", _sha(sandbox, "01-welcome")))
    now = _manager(sandbox, clients, tmp_path, "new")
    ll = LeftoverLocks(
        _registry(tmp_path), now, api_host=sandbox.api_url, repo=REPO, branch="main", drafts=ds
    )
    report = ui.run(ll.run())
    assert len(report.resumed) == 1
    lo, held = report.resumed[0]
    assert lo.draft is not None and lo.draft.text == TEXT
    lock = _lock(sandbox, "01-welcome")
    assert lock is not None and lock["sessionId"] == "new" and lock["editingBy"] == "editor1"
    assert [r.session_id for r in _registry(tmp_path).records()] == ["new"]
    # the resumed lock behaves like any held lock: released normally at the end
    ui.run(now.release(held))
    assert _lock(sandbox, "01-welcome") is None and _registry(tmp_path).records() == []


def test_leftover_taken_by_someone_else_is_only_forgotten(
    sandbox: Any, ui: Any, tmp_path: Path, clients: list[GitHubClient], peer: Any
) -> None:
    _crash_holding(ui, sandbox, clients, tmp_path, "01-welcome")
    p = peer()
    view = ui.run(p.locks.inspect("01-welcome"))
    assert ui.run(p.locks.steal(view)).held is not None
    now = _manager(sandbox, clients, tmp_path, "new")
    found = ui.run(
        find_leftovers(_registry(tmp_path), now, api_host=sandbox.api_url, repo=REPO, branch="main")
    )
    assert [x.state for x in found] == [LeftoverState.TAKEN]
    ll = LeftoverLocks(_registry(tmp_path), now, api_host=sandbox.api_url, repo=REPO, branch="main")
    report = ui.run(ll.run())
    assert [x.action for x in report.leftovers] == [LeftoverAction.FORGOTTEN]
    lock = _lock(sandbox, "01-welcome")
    assert lock is not None and lock["editingBy"] == "editor2"  # left alone


def test_leftover_kept_while_offline(
    sandbox: Any, ui: Any, tmp_path: Path, clients: list[GitHubClient]
) -> None:
    _crash_holding(ui, sandbox, clients, tmp_path, "01-welcome")
    now = _manager(sandbox, clients, tmp_path, "new")
    sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    ll = LeftoverLocks(_registry(tmp_path), now, api_host=sandbox.api_url, repo=REPO, branch="main")
    report = ui.run(ll.run())
    assert [x.action for x in report.leftovers] == [LeftoverAction.KEPT]
    assert [r.session_id for r in _registry(tmp_path).records()] == ["dead"]
    sandbox.faults.update(failure_rate=0.0)
    report = ui.run(ll.run())
    assert [x.action for x in report.leftovers] == [LeftoverAction.RELEASED]


def test_orphan_drafts_skip_saves_waiting_in_the_queue(sandbox: Any, tmp_path: Path) -> None:
    from modu_desktop.core.saving.queue import SaveSpool

    data = tmp_path / "data"
    ds = DraftStore(data / "drafts")
    queued, other = _draft(sandbox, "01-welcome", "a" * 40), _draft(sandbox, "02-programs", None)
    ds.save(queued)
    ds.save(other)

    async def never(_item: Any) -> Any:
        raise AssertionError

    SaveSpool(data / "spool", never, never).enqueue(
        api_host=sandbox.api_url,
        repo=REPO,
        branch="main",
        path=queued.doc_path,
        doc_id="01-welcome",
        text=queued.text,
        base_sha=queued.base_sha,
        message="m",
        login="editor1",
    )
    found = orphan_drafts(ds, api_host=sandbox.api_url, repo=REPO, branch="main")
    assert [d.key.doc_id for d in found] == ["02-programs"]
    every = orphan_drafts(ds, api_host=sandbox.api_url, repo=REPO, branch="main", skip_queued=False)
    assert len(every) == 2


def test_the_recovered_text_reads_as_the_cards_show_it(qtbot: Any, tmp_path: Path) -> None:
    """Both texts side by side as the page editor reads them — a block by its name, fields by
    their labels, a theme by its name — with the Markdown one tick away."""
    from modu_desktop import i18n
    from modu_desktop.ui.recovery.recovery_dialog import RecoveryDialog

    server = "---\ntitle: 안내\ntheme: ocean-cyan\n---\n\n:::quote\ntext: 처음 문장\n:::\n"
    mine = server.replace("처음 문장", "고친 문장")
    draft = Draft(DraftKey("http://x", REPO, "main", "01-welcome"), mine, "a" * 40, "p", 1, "s")
    i18n.set_language("ko")
    try:
        dlg = RecoveryDialog(
            [RecoveryItem(draft, ServerState.CHANGED, "b" * 40, server)],
            DraftStore(tmp_path / "drafts"),
        )
        qtbot.addWidget(dlg)
        shown = dlg.reading_view.toPlainText()
    finally:
        i18n.set_language("en")
    assert "블록: 인용문" in shown and "인용문: 고친 문장" in shown and "인용문: 처음 문장" in shown
    for code in (":::", "---", "text:", "ocean-cyan"):
        assert code not in shown, code
    dlg.raw_toggle.setChecked(True)
    assert dlg.views.currentIndex() == 1 and dlg.mine_view.toPlainText() == mine
