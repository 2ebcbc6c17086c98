"""Every Contents API write tells GitHub's two 409s apart, here and nowhere else.

GitHub answers a write with 409 for two different reasons (docs/github-behaviour.md):

* the file's blob sha is not the one we sent — someone changed the file: a **conflict**;
* the branch moved while GitHub was making our commit (another write landed first, on any
  file) — "is at X but expected Y": **nothing of ours was applied**, and the same write may
  simply be sent again.

The message is not a contract, so after a 409 the file's current blob sha is read through the
git database (``read_current``: the client's ``blob_sha_at``, the file's folder in one request).
Still the sha we wrote over (still absent for a create, still present for a delete): the branch
moved — send again after a short, jittered pause, a few
times within seconds (:class:`RaceRetry`); if it keeps happening the write ends as
:class:`~modu_desktop.core.github.errors.BranchMoved`, a temporary failure (a heartbeat counts a
miss, a save is queued), never a conflict and never a lost lock. Anything else is a real
conflict.

:func:`send_write` is used by ``GitHubClient.put_file`` and ``delete_file``, so every write —
locks (acquire, heartbeat, take-over, release), saves and queued saves, restores, new, deleted,
reordered and imported documents, pictures — in the window and in the CLI goes through it.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from modu_desktop.core.github.errors import BranchMoved, GitHubConflict, RepositoryEmpty, ShaMissing

log = logging.getLogger(__name__)

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True)
class RaceRetry:
    """How often, and after how long, a write whose branch moved is sent again.

    ``attempts`` sends in all; the pause before send *n* + 1 is drawn between half and all of
    ``base_delay * 2**(n-1)`` (at most ``max_delay``), so writers that collided do not collide
    again in step; no more than ``max_total`` seconds of pauses in all. The defaults give up
    within about five seconds."""

    attempts: int = 5
    base_delay: float = 0.3
    max_delay: float = 2.4
    max_total: float = 6.0

    def pause(self, sent: int, rng: random.Random) -> float:
        ceiling = min(self.max_delay, self.base_delay * (2 ** (sent - 1)))
        return ceiling / 2 + rng.uniform(0, ceiling / 2)


@dataclass
class RaceCounts:
    """What the branch race did to one client's writes (the bench and the logs read these)."""

    seen: int = 0  # 409s that were the branch moving (the file unchanged)
    retried: int = 0  # writes sent again after such a 409
    won_after_retry: int = 0  # writes that landed after at least one such 409
    gave_up: int = 0  # writes that ended as BranchMoved
    conflicts: int = 0  # 409s where the file had changed (real conflicts)
    by_path: dict[str, int] = field(default_factory=dict)


async def send_write(
    send: Callable[[], Awaitable[T]],
    read_current: Callable[[], Awaitable[str | None]],
    *,
    path: str,
    base_sha: str | None,
    policy: RaceRetry,
    sleep: Sleep,
    rng: random.Random,
    counts: RaceCounts | None = None,
) -> T:
    """Send one write (``send``: a PUT or DELETE carrying ``base_sha``, None for a create) and
    answer its 409s: re-read the file (``read_current``); unchanged → the branch moved, send
    again (:class:`RaceRetry`), finally :class:`BranchMoved`; changed → ``GitHubConflict``
    carrying the current blob sha it read (``current_sha``), so the conflict is shown without
    reading the file's place again.
    A read that fails leaves the decision open: its error is raised (nothing of ours was
    applied, so callers treat it as the temporary failure it is)."""
    counts = counts if counts is not None else RaceCounts()
    sent = 0
    slept = 0.0
    moved = 0
    while True:
        sent += 1
        try:
            result = await send()
        except GitHubConflict as exc:
            if isinstance(exc, ShaMissing | RepositoryEmpty):
                raise  # 422 "sha wasn't supplied" (the file exists) is never the race
            current = await read_current()
            if current != base_sha:
                counts.conflicts += 1
                exc.knowing_current(current)
                raise
            moved += 1
            counts.seen += 1
            counts.by_path[path] = counts.by_path.get(path, 0) + 1
            pause = policy.pause(sent, rng)
            if sent >= policy.attempts or slept + pause > policy.max_total:
                counts.gave_up += 1
                log.info("write to %s: the branch kept moving (%d times); giving up", path, moved)
                raise BranchMoved(
                    exc.status,
                    exc.message,
                    tries=sent,
                    request_id=exc.request_id,
                    method=exc.method,
                    path=exc.path,
                    body=exc.body,
                ) from None
            counts.retried += 1
            log.info("write to %s: the branch moved (%s); again in %.2fs", path, exc.message, pause)
            slept += pause
            await sleep(pause)
            continue
        if moved:
            counts.won_after_retry += 1
        return result
