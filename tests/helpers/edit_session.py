"""A headless editing session against the sandbox: a scripted view and a ready workspace."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from modu_desktop.core.edit_session import (
    Conflict,
    ConflictDecision,
    LockHolder,
    SessionEvent,
    TakeOver,
)
from modu_desktop.core.github.client import GitHubClient, RepoRef, RetryPolicy
from modu_desktop.core.locks.wire import lock_path
from modu_desktop.core.saving.queue import Backoff
from modu_desktop.core.workspace import Workspace

DOC = "01-welcome"
PATH = f"docs/{DOC}.md"
FAST_RETRY = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.02, max_total=0.1)


class FakeView:
    """Answers the session's questions from a script and records every event."""

    def __init__(
        self,
        take_over: TakeOver = TakeOver.CANCEL,
        conflict: ConflictDecision = ConflictDecision.CANCEL,
    ) -> None:
        self.take_over = take_over
        self.conflict = conflict
        self.asked_take_over: list[LockHolder] = []
        self.asked_conflict: list[Conflict] = []
        self.events: list[SessionEvent] = []
        self.updated_take_over: list[LockHolder] = []

    async def ask_take_over(self, holder: LockHolder) -> TakeOver:
        self.asked_take_over.append(holder)
        return self.take_over

    async def ask_conflict(self, conflict: Conflict) -> ConflictDecision:
        self.asked_conflict.append(conflict)
        return self.conflict

    def report(self, event: SessionEvent) -> None:
        self.events.append(event)

    def update_take_over(self, holder: LockHolder) -> None:
        self.updated_take_over.append(holder)

    def withdraw_take_over(self) -> None:
        return None

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


async def workspace(
    sb: Any, login: str, tmp: Path, *, session: str, data: bool = False, stale_s: float = 900
) -> Workspace:
    client = GitHubClient(
        sb.api_url, f"tok-{login}", RepoRef("pnuai", "PNU-Modu", "main"), retry=FAST_RETRY
    )
    await client.get_user()  # syncs the server clock, like sign-in does
    return Workspace.build(
        client,
        login,
        session,
        cache_dir=tmp / f"cache-{session}",
        data_dir=tmp / f"data-{session}" if data else None,
        heartbeat_s=0.2,
        stale_s=stale_s,
        backoff=Backoff(base_s=0.1, cap_s=0.2, jitter=0.0),
    )


def lock_on_server(sb: Any) -> Any:
    """The test document's lock file as the sandbox holds it (None: no lock)."""
    raw = sb.read_file(lock_path(DOC))
    return None if raw is None else json.loads(raw)


async def until(cond: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait on the running loop until ``cond()`` holds (a deadline, not a pause)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        assert loop.time() < end, "condition not reached in time"
        await asyncio.sleep(0.02)


def run(body: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(body())
