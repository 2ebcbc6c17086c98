"""The save queue's runner: a poke sends at once, the listeners hear what happened, a pass that
raises or a listener that raises does not stop the queue, and the loop sleeps within its
bounds."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from modu_desktop.core.atomic import FileProblem, git_blob_sha
from modu_desktop.core.saving.queue import (
    Backoff,
    ChangeItem,
    Committed,
    NotAtBase,
    Retryable,
    RunReport,
    SaveSpool,
    SendOutcome,
    SpoolItem,
)
from modu_desktop.core.saving.runner import QueueRunner, next_wait

PATH = "docs/01-intro.md"
BASE = b"---\ntitle: Intro\n---\n"


@pytest.fixture(autouse=True)
def _no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("modu_desktop.core.atomic.DURABLE", False)


class Server:
    """A write applies only over the current sha; ``offline`` answers every send as retryable."""

    def __init__(self) -> None:
        self.data = BASE
        self.offline = False
        self.commits = 0

    async def send(self, item: SpoolItem) -> SendOutcome:
        if self.offline:
            return Retryable("offline")
        if git_blob_sha(self.data) != item.base_sha:
            return NotAtBase(git_blob_sha(self.data))
        self.data = item.content_bytes()
        self.commits += 1
        return Committed(git_blob_sha(self.data), f"commit{self.commits}")

    async def read(self, item: SpoolItem) -> str | None:
        return git_blob_sha(self.data)


class Heard:
    """A listener that keeps what it hears and lets a test wait for it."""

    def __init__(self) -> None:
        self.landed: list[SpoolItem] = []
        self.refused: list[SpoolItem] = []
        self.counts: list[tuple[int, int]] = []
        self.problems: list[FileProblem] = []
        self.changes: list[ChangeItem] = []
        self.news = asyncio.Event()

    def counts_changed(self, pending: int, failed: int) -> None:
        self.counts.append((pending, failed))
        self.news.set()

    def committed(self, item: SpoolItem) -> None:
        self.landed.append(item)
        self.news.set()

    def failed(self, item: SpoolItem) -> None:
        self.refused.append(item)
        self.news.set()

    def problems_found(self, problems: list[FileProblem]) -> None:
        self.problems.extend(problems)

    def change_landed(self, item: ChangeItem) -> None:
        self.changes.append(item)
        self.news.set()

    def change_failed(self, item: ChangeItem) -> None:
        self.changes.append(item)
        self.news.set()

    async def until(self, condition: object, timeout: float = 10.0) -> None:
        """Wait until ``condition()`` holds (hang guard: ``timeout``)."""
        assert callable(condition)
        async with asyncio.timeout(timeout):
            while not condition():
                self.news.clear()
                await self.news.wait()


def _runner(tmp_path: Path, server: Server) -> QueueRunner:
    spool = SaveSpool(
        tmp_path / "spool",
        server.send,
        server.read,
        backoff=Backoff(base_s=600.0, cap_s=600.0, jitter=0.0),  # never due again by itself
    )
    return QueueRunner(spool, max_wait_s=600.0)


def _queue(runner: QueueRunner, text: str) -> SpoolItem:
    item = runner.spool.enqueue(
        api_host="https://api.github.com",
        repo="pnuai/PNU-Modu",
        branch="main",
        path=PATH,
        doc_id="01-intro",
        text=text,
        base_sha=git_blob_sha(BASE),
        message="docs(edit): update 01-intro",
        login="editor1",
    )
    runner.poke()
    return item


def test_a_poke_sends_at_once_and_the_listeners_hear_it(tmp_path: Path) -> None:
    async def main() -> None:
        server = Server()
        runner = _runner(tmp_path, server)
        heard = Heard()
        runner.listeners.append(heard)
        runner.start()
        try:
            _queue(runner, "first")
            await heard.until(lambda: heard.landed)
            await heard.until(lambda: heard.counts[-1] == (0, 0))
        finally:
            await runner.stop()
        assert server.data == b"first" and server.commits == 1
        assert [i.result_sha for i in heard.landed] == [git_blob_sha(b"first")]
        assert not runner.running

    asyncio.run(main())


def test_retry_now_sends_what_waits_for_its_backoff(tmp_path: Path) -> None:
    async def main() -> None:
        server = Server()
        server.offline = True
        runner = _runner(tmp_path, server)
        heard = Heard()
        runner.listeners.append(heard)
        runner.start()
        try:
            _queue(runner, "written offline")
            await heard.until(lambda: (1, 0) in heard.counts)
            report = await runner.run_once()  # not due: the backoff is ten minutes
            assert not report.committed and runner.pending_count() == 1
            server.offline = False
            assert runner.retry_now() == 1
            await heard.until(lambda: heard.landed)
        finally:
            await runner.stop()
        assert server.data == b"written offline" and runner.pending_count() == 0

    asyncio.run(main())


def test_a_conflict_is_told_as_failed_and_waits_for_the_user(tmp_path: Path) -> None:
    async def main() -> None:
        server = Server()
        server.data = b"someone else's"
        runner = _runner(tmp_path, server)
        heard = Heard()
        runner.listeners.append(heard)
        _queue(runner, "mine")
        await runner.run_once()
        assert [i.failure for i in heard.refused] == ["conflict"]
        assert heard.counts[-1] == (0, 1) and len(runner.failed_items()) == 1
        assert server.data == b"someone else's"

    asyncio.run(main())


@pytest.mark.expect_log("modu_desktop.core.saving.runner")
def test_a_pass_that_raises_or_a_listener_that_raises_does_not_stop_the_queue(
    tmp_path: Path,
) -> None:
    class Broken:
        def counts_changed(self, pending: int, failed: int) -> None:
            raise RuntimeError("a listener that breaks")

        def committed(self, item: SpoolItem) -> None:
            raise RuntimeError("a listener that breaks")

        def failed(self, item: SpoolItem) -> None:
            raise RuntimeError("a listener that breaks")

        def problems_found(self, problems: list[FileProblem]) -> None:
            raise RuntimeError("a listener that breaks")

        def change_landed(self, item: ChangeItem) -> None:
            raise RuntimeError("a listener that breaks")

        def change_failed(self, item: ChangeItem) -> None:
            raise RuntimeError("a listener that breaks")

    async def main() -> None:
        server = Server()
        runner = _runner(tmp_path, server)
        heard = Heard()
        runner.listeners += [Broken(), heard]
        real_run_once = runner.spool.run_once
        passes = 0

        async def first_pass_raises() -> RunReport:
            nonlocal passes
            passes += 1
            if passes == 1:
                raise OSError("disk gone for a moment")
            return await real_run_once()

        runner.spool.run_once = first_pass_raises  # type: ignore[method-assign]
        report = await runner.run_once()
        assert report.errors and not report.committed
        _queue(runner, "still saved")
        await runner.run_once()
        assert [i.text for i in heard.landed] == ["still saved"]

    asyncio.run(main())


def test_the_loop_sleeps_until_the_next_item_is_due_within_its_bounds() -> None:
    assert next_wait(None, 0.2, 30.0) == 30.0  # nothing waits: only a poke wakes it sooner
    assert next_wait(0.0, 0.2, 30.0) == 0.2  # due now: never a busy loop
    assert next_wait(5.0, 0.2, 30.0) == 5.0
    assert next_wait(500.0, 0.2, 30.0) == 30.0
