"""The editing session headless: a fake view against the loopback sandbox, every path the
window's flow tests cover (open, take over, lose the lock, heartbeat misses, save, conflict,
queue, release)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.edit_session import (
    ConflictDecision,
    EditSession,
    HeartbeatMissed,
    LockLost,
    LockRenewed,
    Mode,
    NotSaved,
    OpenFailed,
    Queued,
    Released,
    Saved,
    TakeOver,
    TheirsTaken,
)
from modu_desktop.core.locks.wire import lock_path
from modu_desktop.core.workspace import registry_for
from tests.helpers.edit_session import (
    DOC,
    PATH,
    FakeView,
    lock_on_server,
    run,
    until,
    workspace,
)


def _content_commits(sb: Any) -> list[dict[str, Any]]:
    return [c for c in sb.commits(PATH) if c["message"].startswith("docs(edit)")]


# -- open -----------------------------------------------------------------------------------------


def test_open_uncontended_locks_loads_and_releases_on_close(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="s1")
        view = FakeView()
        opened = await EditSession.open(ws, view, DOC, list_saw_no_lock=True)
        assert opened is not None
        session, shown = opened
        assert shown.mode is Mode.EDIT and session.editable and shown.took_over is None
        assert shown.loaded.text == sandbox.read_file(PATH).decode("utf-8")
        assert lock_on_server(sandbox)["editingBy"] == "editor1" and not view.asked_take_over
        released = await session.close()
        assert released is not None and released.outcome is not None
        assert released == Released(DOC, released.outcome)
        assert lock_on_server(sandbox) is None and not session.editable
        await ws.aclose()

    run(body)


def test_open_contended_asks_and_can_cancel_or_read_only(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        peer = await workspace(sandbox, "editor2", tmp_path, session="peer")
        held = (await peer.locks.acquire(DOC)).held
        assert held is not None
        ws = await workspace(sandbox, "editor1", tmp_path, session="s1")
        view = FakeView(TakeOver.CANCEL)
        assert await EditSession.open(ws, view, DOC, title="Welcome") is None
        (asked,) = view.asked_take_over
        assert asked.holder == "editor2" and asked.label == "Welcome" and not asked.same_user
        view.take_over = TakeOver.READ_ONLY
        opened = await EditSession.open(ws, view, DOC)
        assert opened is not None
        session, shown = opened
        assert shown.mode is Mode.READ_ONLY and not session.editable
        assert shown.holder is not None and shown.holder.holder == "editor2"
        assert lock_on_server(sandbox)["editingBy"] == "editor2"  # reading writes nothing
        assert await session.save("x") is None
        await session.close()
        assert lock_on_server(sandbox)["editingBy"] == "editor2"
        await peer.locks.release(held)
        await ws.aclose()
        await peer.aclose()

    run(body)


def test_open_stale_lock_is_taken_over_without_asking(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        peer = await workspace(sandbox, "editor2", tmp_path, session="peer")
        assert (await peer.locks.acquire(DOC)).held is not None
        sandbox.faults.clock_offset_seconds = 905  # the server's clock moves 15 min on
        ws = await workspace(sandbox, "editor1", tmp_path, session="s1")
        view = FakeView()
        opened = await EditSession.open(ws, view, DOC)
        assert opened is not None
        session, shown = opened
        assert not view.asked_take_over
        assert shown.took_over is not None and shown.took_over.holder == "editor2"
        assert lock_on_server(sandbox)["editingBy"] == "editor1" and session.editable
        await session.close()
        await ws.aclose()
        await peer.aclose()

    run(body)


def test_open_failure_is_reported_not_raised(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="s1")
        view = FakeView()
        assert await EditSession.open(ws, view, "no-such-doc", list_saw_no_lock=True) is None
        (failed,) = view.of(OpenFailed)
        assert failed.reason == "error" and failed.error is not None
        assert sandbox.read_file(lock_path("no-such-doc")) is None  # its lock was released
        await ws.aclose()

    run(body)


# -- steal / be stolen from -----------------------------------------------------------------------


def test_steal_and_be_stolen_from(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        first_ws = await workspace(sandbox, "editor1", tmp_path, session="first")
        first_view = FakeView()
        first = await EditSession.open(first_ws, first_view, DOC)
        assert first is not None
        victim, _ = first
        thief_ws = await workspace(sandbox, "editor2", tmp_path, session="thief")
        thief_view = FakeView(TakeOver.TAKE_OVER)
        second = await EditSession.open(thief_ws, thief_view, DOC)
        assert second is not None
        thief, _ = second
        assert thief_view.asked_take_over[0].holder == "editor1"
        assert lock_on_server(sandbox)["editingBy"] == "editor2" and thief.editable
        victim.lock_seen("some-other-sha")  # a list refresh saw the lock change: check now
        await until(lambda: bool(first_view.of(LockLost)))
        (lost,) = first_view.of(LockLost)
        assert lost.by == "editor2" and not lost.released and lost.at is not None
        assert not victim.editable and victim.lost
        before = len(sandbox.commits())
        await victim.close()  # never deletes the thief's lock
        assert (
            lock_on_server(sandbox)["editingBy"] == "editor2" and len(sandbox.commits()) == before
        )
        saved = await thief.save("stolen text\n")
        assert isinstance(saved, Saved)
        await thief.close()
        for ws in (first_ws, thief_ws):
            await ws.aclose()

    run(body)


def test_lock_released_by_someone_else_is_lost_as_released(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="s1")
        view = FakeView()
        opened = await EditSession.open(ws, view, DOC)
        assert opened is not None
        session, _ = opened
        admin = await workspace(sandbox, "editor2", tmp_path, session="admin")
        await admin.locks.release_view(await admin.locks.inspect(DOC))
        result = await session.save("my text\n")
        assert result == NotSaved(DOC, "lock_lost")
        (lost,) = view.of(LockLost)
        assert lost.released and lost.by is None and lost.during_save
        assert sandbox.read_file(PATH).decode("utf-8") != "my text\n"
        await session.close()
        await ws.aclose()
        await admin.aclose()

    run(body)


# -- heartbeat ------------------------------------------------------------------------------------


def test_heartbeat_renews_and_counts_misses(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="s1")
        view = FakeView()
        opened = await EditSession.open(ws, view, DOC)
        assert opened is not None
        session, _ = opened
        await until(lambda: bool(view.of(LockRenewed)))
        sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
        await until(lambda: len(view.of(HeartbeatMissed)) >= 2)
        misses = [e.misses for e in view.of(HeartbeatMissed)]
        assert misses[:2] == [1, 2] and view.of(HeartbeatMissed)[0].expires_in_s is not None
        assert session.editable and not view.of(LockLost)  # still ours as far as we know
        sandbox.faults.update(failure_rate=0.0)
        renewed = len(view.of(LockRenewed))
        await until(lambda: len(view.of(LockRenewed)) > renewed)
        await session.close()
        assert lock_on_server(sandbox) is None
        await ws.aclose()

    run(body)


# -- saving ---------------------------------------------------------------------------------------


def test_save_ok_moves_the_base(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="s1")
        view = FakeView()
        opened = await EditSession.open(ws, view, DOC)
        assert opened is not None
        session, shown = opened
        text = shown.loaded.text + "\n저장합니다.\n"
        result = await session.save(text)
        assert isinstance(result, Saved) and result.commit_sha
        assert session.base_sha == result.sha and view.of(Saved) == [result]
        assert sandbox.read_file(PATH).decode("utf-8") == text
        again = await session.save(text + "둘\n")
        assert isinstance(again, Saved)
        assert len(_content_commits(sandbox)) == 2
        await session.close()
        await ws.aclose()

    run(body)


def test_save_conflict_keep_mine_take_theirs_cancel(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="s2")
        other = await workspace(sandbox, "editor2", tmp_path, session="o2")
        for decision in ConflictDecision:
            view = FakeView(conflict=decision)
            opened = await EditSession.open(ws, view, DOC)
            assert opened is not None
            session, shown = opened
            theirs = shown.loaded.text + f"\ntheirs {decision.value}\n"
            await other.store.save(DOC, theirs, shown.loaded.sha, "editor2")
            result = await session.save(shown.loaded.text + "\nmine\n")
            (asked,) = view.asked_conflict
            assert asked.theirs == theirs and asked.by == "editor2"
            on_server = sandbox.read_file(PATH).decode("utf-8")
            if decision is ConflictDecision.KEEP_MINE:
                assert isinstance(result, Saved) and on_server == shown.loaded.text + "\nmine\n"
                assert session.base_sha == result.sha
                continue_ = await session.close()
                assert continue_ is not None
                continue
            if decision in (ConflictDecision.TAKE_THEIRS, ConflictDecision.SAVED_AS_NEW):
                assert isinstance(result, TheirsTaken) and result.text == theirs
                assert session.base_sha == result.sha
                assert result.saved_as_new is (decision is ConflictDecision.SAVED_AS_NEW)
            else:
                assert result == NotSaved(DOC, "conflict")
                assert session.base_sha == shown.loaded.sha
            assert on_server == theirs  # nothing overwritten
            await session.close()
        await ws.aclose()
        await other.aclose()

    run(body)


def test_save_offline_is_queued_and_lands_once(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="s1", data=True)
        assert ws.spool is not None
        view = FakeView()
        opened = await EditSession.open(ws, view, DOC)
        assert opened is not None
        session, shown = opened
        mine = shown.loaded.text + "\n오프라인\n"
        sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
        result = await session.save(mine)
        assert isinstance(result, Queued) and result.cause is not None
        assert ws.spool.pending_count() == 1
        # while it waits, the next save joins it (newest text wins)
        sandbox.faults.update(failure_rate=0.0)
        joined = await session.save(mine + "더\n")
        assert isinstance(joined, Queued) and joined.cause is None
        assert ws.spool.pending_count() == 1
        report = await ws.spool.run_once()
        assert len(report.committed) == 1
        (item,) = report.committed
        assert item.result_sha is not None
        session.rebase(item.result_sha)
        assert sandbox.read_file(PATH).decode("utf-8") == mine + "더\n"
        assert len(_content_commits(sandbox)) == 1
        after = await session.save(mine + "더\n온라인\n")
        assert isinstance(after, Saved) and len(_content_commits(sandbox)) == 2
        await session.close()
        await ws.aclose()

    run(body)


def test_save_offline_without_a_queue_is_not_saved(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="s1")
        assert ws.spool is None
        view = FakeView()
        opened = await EditSession.open(ws, view, DOC)
        assert opened is not None
        session, shown = opened
        sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
        result = await session.save(shown.loaded.text + "x\n")
        assert result == NotSaved(DOC, "lock_unchecked")
        assert session.editable  # still ours: the user can try again
        sandbox.faults.update(failure_rate=0.0)
        assert isinstance(await session.save(shown.loaded.text + "x\n"), Saved)
        await session.close()
        await ws.aclose()

    run(body)


# -- held-lock records and release on quit --------------------------------------------------------


def test_held_locks_are_recorded_through_the_observer(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="s1", data=True)
        registry = registry_for(tmp_path / "data-s1")
        opened = await EditSession.open(ws, FakeView(), DOC)
        assert opened is not None
        session, _ = opened
        (rec,) = registry.records("s1")
        assert session.held is not None
        assert rec.doc_id == DOC and rec.lock_sha == session.held.sha
        await session.close()
        assert registry.records("s1") == []
        await ws.aclose()

    run(body)


@pytest.mark.expect_log("release of 01-welcome failed")
def test_quit_releases_within_the_timeout_even_offline(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="s1")
        view = FakeView()
        opened = await EditSession.open(ws, view, DOC, release_timeout_s=0.5)
        assert opened is not None
        session, _ = opened
        sandbox.faults.update(failure_rate=1.0, failure_kinds=("timeout",))
        loop = asyncio.get_running_loop()
        start = loop.time()
        released = await session.close()
        assert loop.time() - start < 3.0
        assert released == Released(DOC, None)
        sandbox.faults.update(failure_rate=0.0)
        assert lock_on_server(sandbox) is not None  # left to go stale; a later start releases it
        await ws.aclose()

    run(body)
