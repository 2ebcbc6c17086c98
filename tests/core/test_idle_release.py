"""Idle release: an open document whose editor nobody types in lets its lock go (others may
edit), stays editable, and takes the lock back at the next keystroke — or asks the usual
question when someone else has it by then. Waits are for conditions, never timed."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from modu_desktop.core.edit_session import (
    EditSession,
    LockLost,
    LockParked,
    LockRenewed,
    LockResumed,
    Saved,
    TakeOver,
)
from modu_desktop.core.github.client import GitHubClient, RepoRef, RetryPolicy
from modu_desktop.core.workspace import Workspace
from tests.helpers.edit_session import DOC, FakeView, lock_on_server, until

FAST_RETRY = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.02, max_total=0.1)


async def _workspace(
    sb: Any, tmp: Path, login: str = "editor1", idle: float | None = 0.4
) -> Workspace:
    client = GitHubClient(
        sb.api_url, f"tok-{login}", RepoRef("pnuai", "PNU-Modu", "main"), retry=FAST_RETRY
    )
    await client.get_user()
    return Workspace.build(
        client,
        login,
        f"s-{login}",
        cache_dir=tmp / f"cache-{login}",
        heartbeat_s=0.1,
        idle_release_s=idle,
    )


async def _open(ws: Workspace, view: FakeView) -> EditSession:
    opened = await EditSession.open(ws, view, DOC, list_saw_no_lock=True)
    assert opened is not None
    return opened[0]


def test_no_typing_lets_the_lock_go_and_the_next_keystroke_takes_it_back(
    sandbox: Any, tmp_path: Path
) -> None:
    async def body() -> None:
        ws = await _workspace(sandbox, tmp_path)
        view = FakeView()
        session = await _open(ws, view)
        await until(lambda: bool(view.of(LockParked)))
        assert lock_on_server(sandbox) is None  # others may take it now
        assert session.editable and session.parked and session.held is None
        assert not view.of(LockLost)
        released = [c for c in sandbox.commits(".locks/01-welcome.lock.json")]
        assert released[0]["message"] == "system: release lock for 01-welcome [skip ci]"

        assert session.note_typing() is True  # the keystroke that comes back
        event = await session.resume()
        assert isinstance(event, LockResumed) and event.took_over is None
        assert lock_on_server(sandbox)["sessionId"] == "s-editor1"
        assert session.held is not None and not session.parked
        beats = len(view.of(LockRenewed))
        await until(lambda: len(view.of(LockRenewed)) > beats)  # the heartbeat runs again
        await session.close()
        await ws.aclose()

    asyncio.run(asyncio.wait_for(body(), 30))


def test_an_idle_release_answered_late_still_parks_and_no_loss_is_reported(
    sandbox: Any, tmp_path: Path
) -> None:
    """On a busy branch a release can take longer than the close's wait. The idle release used
    to be cut off then: the release landed anyway, the heartbeat went on with a lock that was
    gone, found it missing and told the user someone else had released it."""

    async def body() -> None:
        ws = await _workspace(sandbox, tmp_path)
        view = FakeView()
        release = ws.locks.release
        landed, answer = asyncio.Event(), asyncio.Event()

        async def late_release(held: Any) -> Any:
            sent = asyncio.ensure_future(release(held))  # once sent, it lands whatever happens
            sent.add_done_callback(lambda _: landed.set())
            res = await asyncio.shield(sent)
            await answer.wait()  # the answer is slow to come back
            return res

        ws.locks.release = late_release  # type: ignore[method-assign]
        opened = await EditSession.open(
            ws, view, DOC, list_saw_no_lock=True, release_timeout_s=0.001
        )
        assert opened is not None
        session = opened[0]
        await until(landed.is_set)
        assert lock_on_server(sandbox) is None
        answer.set()
        await until(lambda: bool(view.of(LockParked) or view.of(LockLost)))
        assert view.of(LockParked) and not view.of(LockLost)
        assert session.editable and session.parked
        ws.locks.release = release  # type: ignore[method-assign]
        await session.close()
        await ws.aclose()

    asyncio.run(asyncio.wait_for(body(), 30))


def test_typing_keeps_the_lock(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await _workspace(sandbox, tmp_path, idle=0.5)
        view = FakeView()
        session = await _open(ws, view)
        while len(view.of(LockRenewed)) < 12:  # well past the idle time, typing all along
            assert session.note_typing() is False
            await asyncio.sleep(0.05)
        assert not view.of(LockParked) and lock_on_server(sandbox) is not None
        await session.close()
        await ws.aclose()

    asyncio.run(asyncio.wait_for(body(), 30))


def test_taken_meanwhile_asks_the_usual_question_read_only_keeps_the_text(
    sandbox: Any, tmp_path: Path
) -> None:
    async def body() -> None:
        ws = await _workspace(sandbox, tmp_path)
        view = FakeView(take_over=TakeOver.READ_ONLY)
        session = await _open(ws, view)
        await until(lambda: bool(view.of(LockParked)))
        other = await _workspace(sandbox, tmp_path, "editor2", idle=None)
        assert (await other.locks.acquire(DOC)).held is not None
        assert session.note_typing()
        event = await session.resume()
        assert [h.holder for h in view.asked_take_over] == ["editor2"]
        assert isinstance(event, LockLost) and event.by == "editor2"
        assert not session.editable and lock_on_server(sandbox)["editingBy"] == "editor2"
        await session.close()
        await ws.aclose()
        await other.aclose()

    asyncio.run(asyncio.wait_for(body(), 30))


def test_taken_meanwhile_and_taken_over_again(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await _workspace(sandbox, tmp_path)
        view = FakeView(take_over=TakeOver.TAKE_OVER)
        session = await _open(ws, view)
        await until(lambda: bool(view.of(LockParked)))
        other = await _workspace(sandbox, tmp_path, "editor2", idle=None)
        assert (await other.locks.acquire(DOC)).held is not None
        assert session.note_typing()
        assert isinstance(await session.resume(), LockResumed)
        assert lock_on_server(sandbox)["editingBy"] == "editor1" and session.editable
        await session.close()
        await ws.aclose()
        await other.aclose()

    asyncio.run(asyncio.wait_for(body(), 30))


def test_saving_after_the_lock_went_idle_takes_it_back_first(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await _workspace(sandbox, tmp_path)
        view = FakeView()
        session = await _open(ws, view)
        loaded = await ws.store.load(DOC)
        await until(lambda: bool(view.of(LockParked)))
        event = await session.save(loaded.text + "\n돌아와서 저장\n")
        assert isinstance(event, Saved) and view.of(LockResumed)
        assert view.asked_conflict == []
        assert "돌아와서 저장" in sandbox.read_file(f"docs/{DOC}.md").decode()
        await session.close()
        assert lock_on_server(sandbox) is None
        await ws.aclose()

    asyncio.run(asyncio.wait_for(body(), 30))


def test_idle_release_off(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await _workspace(sandbox, tmp_path, idle=None)
        view = FakeView()
        session = await _open(ws, view)
        await until(lambda: len(view.of(LockRenewed)) >= 8)
        assert not view.of(LockParked) and lock_on_server(sandbox) is not None
        await session.close()
        await ws.aclose()

    asyncio.run(asyncio.wait_for(body(), 30))
