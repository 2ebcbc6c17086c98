"""A heartbeat and the check before a save running at the same time on one lock.

Both look at the lock and may adopt a write of ours whose answer has not arrived yet, so each
can move ``held.sha`` while the other is waiting for GitHub. The question "was this lock
written over ours?" must be asked about the sha each one started from, not about whatever
``held.sha`` says by the time the history has been read."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from modu_desktop.core.github.client import Commit, WriteResult
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.locks.model import HeartbeatOutcome, LockCode
from tests.helpers.lock_fakes import FakeClient, LockEnv

LOCK = ".locks/d.lock.json"


class _HeldBackClient(FakeClient):
    """A write lands at once, but its answer waits for ``answer_when`` (then says
    ``recovered`` when ``answer_lost``: the client read the write back, as GitHubClient does
    after a lost answer). ``before_history`` runs before the next history read."""

    answer_when: Callable[[], Awaitable[object]] | None = None
    answer_lost = False
    before_history: Callable[[], Awaitable[object]] | None = None

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.landed = asyncio.Event()

    async def put_file(
        self, path: str, content: bytes, message: str, sha: str | None = None
    ) -> WriteResult:
        done = await super().put_file(path, content, message, sha=sha)
        self.landed.set()
        wait, self.answer_when = self.answer_when, None
        if wait is not None:
            await wait()
        if self.answer_lost:
            return WriteResult(done.content_sha, done.commit_sha, recovered=True)
        return done

    async def list_commits(
        self, path: str | None = None, sha: str | None = None, per_page: int = 30
    ) -> list[Commit]:
        first, self.before_history = self.before_history, None
        if first is not None:
            await first()
        return await super().list_commits(path, sha, per_page)


def _manager(env: LockEnv) -> tuple[LockManager, _HeldBackClient]:
    client = _HeldBackClient(env.repo, "editor1")
    m = LockManager(
        client, "editor1", "s1", lambda: env.t, heartbeat_s=300, stale_s=900, install_id="h"
    )
    return m, client


def test_a_save_checking_while_the_heartbeat_answer_arrives_keeps_the_lock() -> None:
    """The check sees our renewed lock before the heartbeat has heard back; the heartbeat
    finishes while the check reads the lock's history."""
    env = LockEnv()
    m, client = _manager(env)

    async def run() -> None:
        held = (await m.acquire("d")).held
        assert held is not None
        env.t += 300
        answer = asyncio.Event()
        client.answer_when = answer.wait
        client.landed.clear()
        beat = asyncio.create_task(m.heartbeat(held))
        await client.landed.wait()

        async def heartbeat_hears_back() -> None:
            answer.set()
            assert (await beat).outcome is HeartbeatOutcome.OK

        client.before_history = heartbeat_hears_back
        checked = await m.verify(held)
        assert checked.ok, checked.text.en
        assert held.sha == env.repo.files[LOCK]
        assert (await m.heartbeat(held)).outcome is HeartbeatOutcome.OK

    asyncio.run(run())


def test_a_heartbeat_whose_answer_was_lost_keeps_the_lock_a_save_check_adopted() -> None:
    """The check adopts the heartbeat's write (it is on GitHub) before the heartbeat has read
    it back."""
    env = LockEnv()
    m, client = _manager(env)

    async def run() -> None:
        held = (await m.acquire("d")).held
        assert held is not None
        env.t += 300

        async def a_save_checks_meanwhile() -> None:
            checked = await m.verify(held)
            assert checked.ok and checked.code is LockCode.STILL_YOURS, checked.text.en

        client.answer_when = a_save_checks_meanwhile
        client.answer_lost = True
        beat = await m.heartbeat(held)
        assert beat.outcome is HeartbeatOutcome.OK, beat.text.en
        assert env.repo.read(LOCK) is not None
        assert held.sha == env.repo.files[LOCK]

    asyncio.run(run())
