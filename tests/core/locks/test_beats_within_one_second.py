"""Two heartbeats within one second of the server's clock.

The second one's lock file would be byte for byte the lock already there. When the answer to
such a write is lost, the client reads the file back and finds "its" bytes whether or not the
write arrived, and the lock's history shows our previous write as its last change, so the
renewal looked like a re-creation of a released lock: the holder was told someone had released
its lock, and its own lock was deleted. These tests hold the server's clock still and lose
exactly that write's answer."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.github.client import GitHubConflict, WriteResult
from modu_desktop.core.github.clock import ServerClock
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.locks.model import AcquireOutcome, HeartbeatOutcome, LockStatus
from modu_desktop.core.locks.wire import lock_path, parse_lock
from modu_desktop.sandbox import Sandbox, SandboxUser
from modu_desktop.sandbox.clock import ManualClock
from tests.helpers.lock_fakes import FakeClient, LockEnv
from tests.helpers.lock_sandbox import sandbox_client, sandbox_manager

DOC = "01-welcome"
PATH = lock_path(DOC)


class _AnswerLostClient(FakeClient):
    """When ``lose_next_write`` is set, the next write never arrives and the client settles it
    as GitHubClient does, by reading the file back: our bytes there mean it landed, the sha we
    sent means it did not (sent again), anything else is someone else's change."""

    lose_next_write = False

    async def put_file(
        self, path: str, content: bytes, message: str, sha: str | None = None
    ) -> WriteResult:
        if not self.lose_next_write:
            return await super().put_file(path, content, message, sha=sha)
        self.lose_next_write = False
        current = self.repo.files.get(path)
        if current == git_blob_sha(content):
            return WriteResult(content_sha=current, commit_sha=self.repo.head(), recovered=True)
        if current == sha:
            return await super().put_file(path, content, message, sha=sha)
        raise GitHubConflict(409, f"{path} changed while the write was in flight")


def _manager(env: LockEnv) -> LockManager:
    client = _AnswerLostClient(env.repo, "editor1")
    return LockManager(
        client, "editor1", "s1", lambda: env.t, heartbeat_s=300, stale_s=900, install_id="h"
    )


def test_a_second_beat_in_the_same_second_keeps_the_lock_on_the_fake() -> None:
    env = LockEnv()
    m = _manager(env)
    client = m.client
    assert isinstance(client, _AnswerLostClient)

    async def run() -> None:
        held = (await m.acquire("d")).held
        assert held is not None
        assert (await m.heartbeat(held)).outcome is HeartbeatOutcome.OK
        mine = env.repo.read(".locks/d.lock.json")

        client.lose_next_write = True
        again = await m.heartbeat(held)
        assert again.outcome is HeartbeatOutcome.OK, again.text.en
        assert env.repo.read(".locks/d.lock.json") == mine
        assert (await m.verify(held)).ok

        # Opening the document again finds our lock as it is and keeps it.
        client.lose_next_write = True
        reopened = await m.acquire("d")
        assert reopened.outcome is AcquireOutcome.REUSED, reopened.text.en
        assert env.repo.read(".locks/d.lock.json") == mine

        env.t += 300  # the next beat has a new second to write
        assert (await m.heartbeat(held)).outcome is HeartbeatOutcome.OK
        assert held.sha == env.repo.files[".locks/d.lock.json"] != git_blob_sha(mine or b"")

    asyncio.run(run())


@pytest.mark.parametrize("fault", ["reset", "lost_response"])
def test_a_second_beat_in_the_same_second_keeps_the_lock_on_the_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    """``reset``: the write never reaches the server; ``lost_response``: it is applied (a
    commit that changes nothing) and the answer is lost."""
    clock = ManualClock(start=1_800_000_000.25)  # still: every request is in the same second
    sb = Sandbox(
        tmp_path / "repo",
        users=[SandboxUser("editor1", "tok-editor1", push=True)],
        seed="sample",
        clock=clock,
    )
    armed: list[str] = []

    def scripted_failure(_faults: Any) -> str | None:
        return armed.pop() if armed else None

    monkeypatch.setattr(sb.injector, "pick_failure", scripted_failure)

    async def main() -> None:
        client = sandbox_client(sb, "tok-editor1", ServerClock(local_time=clock.time))
        try:
            await client.get_user()  # learns the server's clock, as sign-in does
            m = sandbox_manager(client, "editor1", "editor1-s1")
            held = (await m.acquire(DOC)).held
            assert held is not None
            assert (await m.heartbeat(held)).outcome is HeartbeatOutcome.OK
            mine = sb.read_file(PATH)
            look = m.reader.lock_shas

            async def look_then_lose_the_next_answer() -> dict[str, str]:
                shas = await look()
                armed.append(fault)
                return shas

            monkeypatch.setattr(m.reader, "lock_shas", look_then_lose_the_next_answer)
            again = await m.heartbeat(held)
            monkeypatch.setattr(m.reader, "lock_shas", look)
            armed.clear()  # a write that was never sent leaves the fault unused

            assert again.outcome is HeartbeatOutcome.OK, again.text.en
            assert sb.read_file(PATH) == mine
            assert held.sha == git_blob_sha(mine or b"")
            assert (await m.verify(held)).ok
            view = await m.inspect(DOC)
            assert view.status is LockStatus.MINE_THIS_SESSION

            clock.advance(300)
            assert (await m.heartbeat(held)).outcome is HeartbeatOutcome.OK
            record = parse_lock(sb.read_file(PATH) or b"", DOC)
            assert record.last_heartbeat == 1_800_000_300
        finally:
            await client.aclose()

    sb.start()
    try:
        asyncio.run(main())
    finally:
        sb.stop()
