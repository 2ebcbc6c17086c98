"""The scale simulation: many editors at once on one branch, as GitHub behaves.

``python -m bench scale --editors 10,30,100,300 --hours 2 --speed 6``

N simulated editors work on the sandbox with GitHub's branch race on (every Contents API write
has a 750 ms window in which another commit makes it answer 409 "is at X but expected Y") and
GitHub's secondary limits per user. Most editors run our own core — a ``Workspace`` and an
``EditSession`` each, exactly as the window builds them — and some follow the web admin's
request pattern (``bench/webadmin.py``: Contents API lock reads, no retries, no idle release).
A behaviour model drives them: open a document (mostly one's own, sometimes a shared one, now
and then taking it over from whoever holds it), type in bursts, pause (sometimes long enough for
the idle release), save, close or walk away with the window open.

Everything runs on a compressed clock: ``--speed K`` simulated seconds per real second. Think
times, heartbeats, the stale and idle limits, GitHub's latency (150 ms) and write window
(750 ms), the client's pauses after a lost race and the sandbox's rate-limit minute are all
divided by K, so every ratio that decides a race stays as it would be at full speed; only the
sandbox's own processing time (a few real milliseconds per request) is not compressed, and it
is reported. Nothing in the result is a wall-clock time: durations are simulated seconds.

The report (``docs/scale.md`` explains each line): saves lost, false lock losses, needless
conflict questions, double holders, content written without the lock, branch-moved 409s seen
and retried, commits per hour on ``main`` (lock and content), requests per editor-hour against
GitHub's documented limits, and p50/p95 per action. Depends only on ``modu_desktop``'s public
APIs, the sandbox and the bench's own web-admin client.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx

from bench.cli_args import number_list
from bench.gen import generate
from bench.server import SandboxProcess
from bench.webadmin import WebAdminClient, WebAdminError, lock_body, lock_path
from modu_desktop.core.atomic import FileProblem
from modu_desktop.core.documents.store import SaveResult, encode_text
from modu_desktop.core.edit_session import (
    Conflict,
    ConflictDecision,
    EditSession,
    HeartbeatMissed,
    LockHolder,
    LockLost,
    LockParked,
    LockResumed,
    Mode,
    NotSaved,
    Queued,
    ResumeFailed,
    Saved,
    SessionEvent,
    TakeOver,
)
from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.github.client import GitHubClient, RepoRef, RetryPolicy
from modu_desktop.core.github.writes import RaceRetry
from modu_desktop.core.locks.model import HeldLock, LockCall, LockCode
from modu_desktop.core.locks.results import HeartbeatResult, ReleaseResult
from modu_desktop.core.saving.queue import Backoff, ChangeItem, SpoolItem
from modu_desktop.core.saving.runner import QueueRunner, settle_failed
from modu_desktop.core.workspace import Workspace
from modu_desktop.sandbox.repo.gitstore import GitStore

OWNER, NAME, BRANCH = "pnuai", "PNU-Modu", "main"
HOT_DOCS = 5  # documents everybody edits now and then (contention, take-overs)
MINUTE = 60.0
HOUR = 3600.0
# GitHub's documented limits per user (docs/github-behaviour.md).
PRIMARY_PER_HOUR = 5000
CONTENT_PER_MINUTE = 80
CONTENT_PER_HOUR = 500
POINTS_PER_MINUTE = 900

T = TypeVar("T")


@dataclass(frozen=True)
class ScaleOptions:
    editors: int
    hours: float = 2.0  # simulated
    speed: float = 6.0  # simulated seconds per real second
    web_share: float = 0.2  # editors that follow the web admin's request pattern
    idle_release_min: float = 20.0  # 0: off
    heartbeat_s: float = 300.0
    stale_s: float = 900.0
    latency_ms: float = 150.0  # GitHub's answer time (simulated)
    race_window_ms: float = 750.0  # GitHub's write window (simulated)
    refresh_sample: int = 3  # desk editors that also run the window's list refresh
    refresh_s: float = 60.0
    seed: int = 22


# ---------------------------------------------------------------------------- time and tallies


class SimClock:
    """Simulated seconds since the start; sleeping a simulated time sleeps 1/speed of it."""

    def __init__(self, speed: float) -> None:
        self.speed = speed
        self.t0 = time.monotonic()

    def now(self) -> float:
        return (time.monotonic() - self.t0) * self.speed

    async def sleep(self, sim_seconds: float) -> None:
        await asyncio.sleep(max(0.0, sim_seconds) / self.speed)


class Tally:
    """Everything counted during a run."""

    def __init__(self) -> None:
        self.count: Counter[str] = Counter()
        self.durations: defaultdict[str, list[float]] = defaultdict(list)
        self.saved: list[tuple[str, str, str]] = []  # (login, path, blob sha) the user saved
        self.double: dict[str, float] = {}  # doc → since when two editors believe they hold it
        self.double_episodes: list[tuple[str, float]] = []
        self.losses: list[dict[str, Any]] = []  # every LockLost told to one of our editors

    async def timed(self, action: str, clock: SimClock, work: Awaitable[T]) -> T:
        started = clock.now()
        try:
            return await work
        finally:
            self.durations[action].append(clock.now() - started)


class CountingHttp(httpx.AsyncHTTPTransport):
    """Requests by method and answer, and when each write went out (simulated seconds)."""

    def __init__(self, clock: SimClock) -> None:
        super().__init__(limits=httpx.Limits(max_connections=6, max_keepalive_connections=6))
        self.clock = clock
        self.methods: Counter[str] = Counter()
        self.statuses: Counter[int] = Counter()
        self.write_times: list[float] = []
        self.read_times: list[float] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.methods[request.method] += 1
        now = self.clock.now()
        (self.write_times if request.method in ("PUT", "DELETE") else self.read_times).append(now)
        resp = await super().handle_async_request(request)
        await resp.aread()
        self.statuses[resp.status_code] += 1
        return resp

    @property
    def total(self) -> int:
        return sum(self.methods.values())


@dataclass
class World:
    options: ScaleOptions
    clock: SimClock
    api_url: str
    docs: list[str]
    root: Path
    tally: Tally = field(default_factory=Tally)
    # take-overs of a fresh lock chosen at the take-over question (opening, or taking the lock
    # back after an idle release): doc → simulated times of the choice
    steals: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    editors: list[Any] = field(default_factory=list)

    def real(self, sim_seconds: float) -> float:
        return sim_seconds / self.options.speed


# ---------------------------------------------------------------------------- behaviour


class Behaviour:
    """When an editor types, pauses, saves and leaves (simulated seconds)."""

    def __init__(self, rng: random.Random, own: str, docs: list[str]) -> None:
        self.rng = rng
        self.own = own
        self.docs = docs

    def pick_doc(self) -> str:
        r = self.rng.random()
        if r < 0.80:
            return self.own
        if r < 0.92:
            return self.docs[self.rng.randrange(HOT_DOCS)]
        return self.rng.choice(self.docs)

    def takes_over(self) -> bool:
        return self.rng.random() < 0.3

    def session_length(self) -> float:
        return self.rng.uniform(30 * MINUTE, 120 * MINUTE)

    def burst(self) -> float:
        return min(15 * MINUTE, self.rng.expovariate(1 / (3 * MINUTE)))

    def pause(self) -> float:
        r = self.rng.random()
        if r < 0.75:
            return min(15 * MINUTE, self.rng.expovariate(1 / (4 * MINUTE)))
        if r < 0.95:
            return self.rng.uniform(10 * MINUTE, 30 * MINUTE)
        return self.rng.uniform(30 * MINUTE, 90 * MINUTE)

    def saves_after_burst(self) -> bool:
        return self.rng.random() < 0.6

    def walks_away(self) -> float:
        """Seconds the window stays open after the work is done (0: closed at once)."""
        if self.rng.random() < 0.4:
            return self.rng.uniform(60 * MINUTE, 180 * MINUTE)
        return 0.0

    def away(self) -> float:
        return self.rng.expovariate(1 / (30 * MINUTE))


KEYSTROKE_S = 20.0  # one batch of typing every 20 simulated seconds of a burst
SAVE_EVERY_S = 6 * MINUTE  # a long burst is saved now and then


# ---------------------------------------------------------------------------- our editors


class DeskEditor:
    """One editor on our core: a Workspace and an EditSession, as the window builds them."""

    kind = "desk"

    def __init__(self, world: World, index: int, own: str, refresher: bool) -> None:
        self.world = world
        self.login = f"desk{index:03d}"
        self.token = f"tok-{self.login}"
        self.rng = random.Random(world.options.seed * 1000 + index)
        self.behaviour = Behaviour(self.rng, own, world.docs)
        self.refresher = refresher
        self.http = CountingHttp(world.clock)
        self.session: EditSession | None = None
        self.text = ""
        self.acquired_at = 0.0
        self.take_over = TakeOver.READ_ONLY
        self.resuming = False
        self.save_base: str | None = None
        self.lines = 0
        self.questions = 0  # take-over questions this editor was asked
        self.doing: str | None = None  # "save" while a save runs (for the loss details)
        self.releasing = False
        self.last_held: HeldLock | None = None  # the lock the session last heartbeated or verified
        self.beat_started = 0.0
        self.ws: Workspace | None = None
        self.queue: QueueRunner | None = None
        self.client: GitHubClient | None = None
        self.tasks: list[asyncio.Task[Any]] = []

    # -- set-up ----------------------------------------------------------------------------

    async def start(self) -> None:
        o, clock = self.world.options, self.world.clock
        self.client = GitHubClient(
            self.world.api_url,
            self.token,
            RepoRef(OWNER, NAME, BRANCH),
            transport=self.http,
            sleep=clock.sleep,  # the client's pauses (retries, lost races) are simulated time
            rng=random.Random(self.rng.random()),
            retry=RetryPolicy(max_attempts=4, base_delay=0.5, max_delay=8.0, max_total=30.0),
            race=RaceRetry(),
            timeout=120.0,
        )
        await self.client.get_user()
        k = o.speed
        folder = self.world.root / "editors" / self.login
        self.ws = Workspace.build(
            self.client,
            self.login,
            f"session-{self.login}",
            cache_dir=folder / "cache",
            data_dir=folder / "data",
            heartbeat_s=o.heartbeat_s / k,
            stale_s=o.stale_s / k,
            idle_release_s=o.idle_release_min * MINUTE / k if o.idle_release_min else None,
            backoff=Backoff(base_s=3.0 / k, cap_s=300.0 / k),
        )
        self.ws.locks.watchers.append(self)
        assert self.ws.spool is not None  # a data folder: saves queue as in the window
        queue = QueueRunner(self.ws.spool)
        queue.listeners.append(self)
        self.ws.saves.on_queued = lambda _item: queue.poke()
        self.queue = queue

    # -- the lock manager's calls (LockCallWatcher) ----------------------------------------------

    def call_started(self, call: LockCall, held: HeldLock) -> None:
        if call is LockCall.RELEASE:
            self.releasing = True
            return
        self.last_held = held
        if call is LockCall.HEARTBEAT:
            self.beat_started = self.world.clock.now()

    def call_ended(self, call: LockCall, held: HeldLock, result: object | None) -> None:
        tally = self.world.tally
        if call is LockCall.RELEASE:
            self.releasing = False
            if isinstance(result, ReleaseResult) and result.code is LockCode.CLAIMED_AGAIN:
                tally.count["late releases that left a reopened lock alone"] += 1
        elif call is LockCall.HEARTBEAT:
            tally.durations["heartbeat"].append(self.world.clock.now() - self.beat_started)
            if isinstance(result, HeartbeatResult):
                tally.count[f"desk heartbeat {result.outcome.value}"] += 1

    # -- the view the session talks to ----------------------------------------------------------

    async def ask_take_over(self, holder: LockHolder) -> TakeOver:
        self.world.tally.count["take-over questions"] += 1
        self.questions += 1
        if self.take_over is TakeOver.TAKE_OVER:
            # Recorded when chosen, before the take-over is written: the one taken from may
            # hear of it before this editor's open (or resume) has finished.
            self.world.steals[holder.doc_id].append(self.world.clock.now())
            if self.resuming or self.doing == "save":
                self.world.tally.count["take-overs chosen when taking the lock back"] += 1
        return self.take_over

    async def ask_conflict(self, conflict: Conflict) -> ConflictDecision:
        tally = self.world.tally
        tally.count["conflict questions"] += 1
        if conflict.their_sha is not None and conflict.their_sha == self.save_base:
            tally.count["needless conflict questions"] += 1
        elif conflict.by == self.login:
            # "Someone saved first" and it was this editor: an earlier save of ours the session
            # had not heard of (nothing to merge either).
            tally.count["needless conflict questions"] += 1
            tally.count["conflict questions about our own save"] += 1
        return ConflictDecision.KEEP_MINE

    def update_take_over(self, holder: LockHolder) -> None:
        return None

    def withdraw_take_over(self) -> None:
        return None

    def report(self, event: SessionEvent) -> None:
        tally = self.world.tally
        tally.count[f"desk event {type(event).__name__}"] += 1
        if isinstance(event, LockLost):
            self._lost(event)
        elif isinstance(event, Saved | Queued):
            path = f"docs/{event.doc_id}.md"
            tally.saved.append((self.login, path, git_blob_sha(encode_text(event.text))))
            tally.count["desk saves queued" if isinstance(event, Queued) else "desk saves"] += 1
        elif isinstance(event, NotSaved):
            tally.count[f"desk saves refused ({event.reason})"] += 1
        elif isinstance(event, HeartbeatMissed):
            tally.count["desk heartbeats missed"] += 1
        elif isinstance(event, LockParked):
            tally.count["idle releases"] += 1
        elif isinstance(event, LockResumed):
            tally.count["locks taken back after idle"] += 1
        elif isinstance(event, ResumeFailed):
            tally.count["idle resumes failed"] += 1

    def _lost(self, event: LockLost) -> None:
        """Count a lock loss and keep what explains it: which path told it, whose lock replaced
        ours and whether that was a chosen take-over, a lock gone stale (our heartbeats did not
        get through for the stale limit), or a lock we had let go for idleness."""
        tally, o = self.world.tally, self.world.options
        s, held = self.session, self.last_held
        lv = s.lost_view if s is not None else None
        rec = lv.record if lv is not None else None
        if self.resuming:
            path = "resume (typing)"
        elif self.doing == "save":
            path = "verify (save)" if event.during_save else "resume (save)"
        elif self.releasing:
            path = "idle release"
        else:
            path = "heartbeat"
        stolen = [t for t in self.world.steals.get(event.doc_id, ()) if t >= self.acquired_at]
        ours_beat = getattr(held, "last_heartbeat", None) if path != "resume (typing)" else None
        their_start = rec.started_at if rec is not None else None
        # Lock times are the server's (real) seconds; the stale limit is compressed by K.
        stale_real = o.stale_s / o.speed
        if path.startswith("resume"):
            kind = "taken while let go for idleness"
        elif stolen:
            kind = "take-over chosen"
        elif (
            ours_beat is not None
            and their_start is not None
            and their_start - ours_beat >= stale_real - 1
        ):
            kind = "gone stale (heartbeats did not get through)"
        else:
            kind = "false"
        tally.losses.append(
            {
                "editor": self.login,
                "doc": event.doc_id,
                "t_sim": round(self.world.clock.now()),
                "path": path,
                "kind": kind,
                "released": event.released,
                "by": event.by,
                "during_save": event.during_save,
                "our_sha": getattr(held, "sha", None) if path != "resume (typing)" else None,
                "our_started_at": getattr(held, "started_at", None),
                "our_last_heartbeat": ours_beat,
                "our_misses": getattr(held, "misses", None),
                "their_status": lv.status.value if lv is not None else None,
                "their_sha": lv.sha if lv is not None else None,
                "their_started_at": their_start,
                "their_last_heartbeat": rec.last_heartbeat if rec is not None else None,
                "server_now": lv.server_now if lv is not None else None,
                "acquired_at_sim": round(self.acquired_at),
            }
        )
        if path.startswith("resume"):
            # We had released the lock for idleness and someone took the free document: the
            # text stays, read-only, the user is told. Not a lock we held.
            tally.count["taken while let go for idleness"] += 1
            return
        tally.count["lock losses"] += 1
        if kind == "gone stale (heartbeats did not get through)":
            tally.count["locks gone stale (heartbeats did not get through)"] += 1
        elif kind == "false":
            tally.count["false lock losses"] += 1

    # -- behaviour ---------------------------------------------------------------------------

    def believes_it_holds(self) -> str | None:
        s = self.session
        if s is None or s.closed or s.lost or s.held is None:
            return None
        return s.doc_id

    async def run(self, end: float) -> None:
        clock, b = self.world.clock, self.behaviour
        await clock.sleep(self.rng.uniform(0, 10 * MINUTE))
        while clock.now() < end:
            doc = b.pick_doc()
            if await self.open(doc):
                assert self.session is not None
                if self.session.mode is Mode.EDIT:
                    await self.edit(end)
                else:
                    await clock.sleep(self.rng.uniform(MINUTE, 5 * MINUTE))
                await self.close()
            await clock.sleep(b.away())

    async def open(self, doc: str) -> bool:
        assert self.ws is not None
        tally, clock = self.world.tally, self.world.clock
        self.take_over = TakeOver.TAKE_OVER if self.behaviour.takes_over() else TakeOver.READ_ONLY
        asked = self.questions
        opened = await tally.timed("open", clock, EditSession.open(self.ws, self, doc))
        if opened is None:
            tally.count["desk opens failed"] += 1
            return False
        session, what = opened
        self.session = session
        self.text = what.loaded.text
        self.acquired_at = clock.now()
        if session.mode is Mode.EDIT and self.questions > asked:
            tally.count["take-overs"] += 1
        return True

    async def edit(self, end: float) -> None:
        clock, b = self.world.clock, self.behaviour
        session_end = min(end, clock.now() + b.session_length())
        while clock.now() < session_end and self._usable():
            await self.burst(b.burst())
            if not self._usable():
                return
            await clock.sleep(b.pause())
        away = min(b.walks_away(), max(0.0, end - clock.now()))
        if away and self._usable():
            await clock.sleep(away)  # the window stays open, nobody types

    def _usable(self) -> bool:
        s = self.session
        return s is not None and s.editable and not s.closed

    async def burst(self, length: float) -> None:
        clock, tally = self.world.clock, self.world.tally
        started = clock.now()
        since_save = 0.0
        while clock.now() - started < length and self._usable():
            await self.type_some()
            await clock.sleep(KEYSTROKE_S)
            since_save += KEYSTROKE_S
            if since_save >= SAVE_EVERY_S:
                await self.save()
                since_save = 0.0
        if self._usable() and (since_save and self.behaviour.saves_after_burst()):
            await self.save()
        tally.count["bursts"] += 1

    async def type_some(self) -> None:
        s = self.session
        assert s is not None
        self.lines += 1
        self.text += f"\n{self.login}의 {self.lines}번째 문장입니다.\n"
        if s.note_typing():
            self.resuming = True
            try:
                await self.world.tally.timed("resume", self.world.clock, s.resume())
            finally:
                self.resuming = False

    async def save(self) -> None:
        s = self.session
        if s is None:
            return
        self.save_base = s.base_sha
        self.doing = "save"
        try:
            await self.world.tally.timed("save", self.world.clock, s.save(self.text))
        finally:
            self.doing = None

    async def close(self) -> None:
        s, self.session = self.session, None
        if s is None or s.closed:
            return
        if s.held is None:  # read-only, lost or let go for idleness: nothing to release
            await s.close()
            return
        await self.world.tally.timed("close", self.world.clock, s.close())

    # -- the window's other traffic ----------------------------------------------------------

    async def refresh_loop(self, end: float) -> None:
        """The window's list refresh every ``refresh_s`` (what ``MainWindow.refresh_list``
        asks of the core), for the sampled editors."""
        assert self.ws is not None
        clock, ws = self.world.clock, self.ws
        while clock.now() < end:
            with contextlib.suppress(Exception):
                snap = await self.world.tally.timed("list refresh", clock, ws.store.refresh())
                shas = {d: e.sha for d, e in snap.locks.items()}
                if shas:
                    await ws.locks.list_locks(shas)
                if self.session is not None and not self.session.closed:
                    entry = snap.locks.get(self.session.doc_id)
                    self.session.lock_seen(entry.sha if entry is not None else None)
            await clock.sleep(self.world.options.refresh_s)

    async def queue_loop(self) -> None:
        """The save queue as the window runs it: the core's runner sends what was queued (it
        hears of each queued save), and a save that failed as a conflict is settled as the user
        would from "not saved" (keep mine)."""
        queue = self.queue
        assert queue is not None
        queue.start()
        try:
            while True:
                await self.resolve_failed()
                await self.world.clock.sleep(5.0)
        finally:
            await queue.stop()

    # -- what the runner did (QueueListener) ---------------------------------------------------

    def committed(self, item: SpoolItem) -> None:
        """A queued save went out: the open editor of that document builds on it (the window
        does the same), so its next save is not asked about our own version."""
        self.landed_at(item.path, item.result_sha)

    def failed(self, item: SpoolItem) -> None:
        return None  # settled by queue_loop, as the user would from "not saved"

    def counts_changed(self, pending: int, failed: int) -> None:
        return None

    def problems_found(self, problems: list[FileProblem]) -> None:
        self.world.tally.count["damaged queue files"] += len(problems)

    def change_landed(self, item: ChangeItem) -> None:
        return None  # the simulated editors change one page at a time

    def change_failed(self, item: ChangeItem) -> None:
        return None

    def landed_at(self, path: str, sha: str | None) -> None:
        s = self.session
        if sha is not None and s is not None and not s.closed and s.path == path:
            s.rebase(sha)

    async def resolve_failed(self) -> None:
        assert self.ws is not None and self.queue is not None
        for item in self.queue.failed_items():
            with contextlib.suppress(Exception):
                ask = self._queued_question(item.base_sha)
                done = await settle_failed(self.queue, item, self.ws.store, ask)
                if done.decision is ConflictDecision.KEEP_MINE and isinstance(
                    done.saved, SaveResult
                ):
                    self.landed_at(item.path, done.saved.sha)

    def _queued_question(
        self, base: str | None
    ) -> Callable[[Conflict], Awaitable[ConflictDecision]]:
        tally, login = self.world.tally, self.login

        async def ask(conflict: Conflict) -> ConflictDecision:
            tally.count["conflict questions (queued saves)"] += 1
            if conflict.their_sha is not None and conflict.their_sha == base:
                tally.count["needless conflict questions"] += 1
            elif conflict.by == login:
                tally.count["needless conflict questions"] += 1
                tally.count["conflict questions about our own save"] += 1
            return ConflictDecision.KEEP_MINE

        return ask

    async def drain(self) -> int:
        """Send what is still queued (the race stays on); the number left unsent."""
        queue = self.queue
        assert queue is not None
        for _ in range(40):
            if not queue.pending_count():
                break
            queue.retry_now()
            await queue.run_once()
            await self.resolve_failed()
            await self.world.clock.sleep(10.0)
        await self.resolve_failed()
        return queue.pending_count() + len(queue.failed_items())

    async def aclose(self) -> None:
        if self.ws is not None:
            await self.ws.aclose()


# ---------------------------------------------------------------------------- web admin editors


class WebEditor:
    """One editor following the unmodified web admin's requests (``bench/webadmin.py``): the
    list with every blob on page load, Contents API lock reads, a heartbeat that re-reads the
    lock, a save without a lock check, and no retry after a 409 but the user's own: the web
    admin shows the error, and the user presses save again a little later."""

    kind = "web"

    def __init__(self, world: World, index: int, own: str) -> None:
        self.world = world
        self.login = f"web{index:03d}"
        self.token = f"tok-{self.login}"
        self.rng = random.Random(world.options.seed * 7919 + index)
        self.behaviour = Behaviour(self.rng, own, world.docs)
        self.counts = CountingHttp(world.clock)
        self.client = WebAdminClient(
            world.api_url, self.token, self.login, OWNER, NAME, transport=self.counts
        )
        self.doc: str | None = None
        self.lock_sha: str | None = None
        self.started_at = 0
        self.blob_sha = ""
        self.text = ""
        self.lines = 0
        self.beat_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        return None

    def believes_it_holds(self) -> str | None:
        return self.doc if self.lock_sha is not None else None

    async def run(self, end: float) -> None:
        clock, b = self.world.clock, self.behaviour
        await clock.sleep(self.rng.uniform(0, 10 * MINUTE))
        while clock.now() < end:
            # The page load reads the tree and then every document's blob; only the tree is
            # read here (hundreds of blob reads per page load would flood the one sandbox
            # process), and the blob reads are added to this editor's count.
            listing = await self._timed("web list", self.client.list_docs(blobs=False))
            self.counts.methods["GET (page-load blobs, counted only)"] += len(listing.docs)
            doc = b.pick_doc()
            if await self._timed("web open", self.open(doc, listing.docs)):
                await self.edit(end)
                await self._timed("web close", self.close())
            await clock.sleep(b.away())

    async def _timed(self, action: str, work: Awaitable[T]) -> T:
        return await self.world.tally.timed(action, self.world.clock, work)

    def _stale_s(self) -> float:
        return self.world.options.stale_s / self.world.options.speed

    async def open(self, doc: str, docs: dict[str, str]) -> bool:
        tally = self.world.tally
        path = f"docs/{doc}.md"
        try:
            seen = await self.client.read_contents(lock_path(doc))
            now = int(time.time())
            sha = None
            if seen is not None:
                sha, raw = seen
                d = _json(raw)
                beat = d.get("lastHeartbeat") or 0
                fresh = isinstance(beat, int) and now - beat < self._stale_s()
                if d.get("editingBy") not in (None, self.login) and fresh:
                    tally.count["web opens read-only"] += 1
                    return False
            self.lock_sha = await self.client.put(
                lock_path(doc),
                lock_body(doc, self.login, now, now, heartbeat=False),
                f"system: acquire lock for {doc} by @{self.login} [skip ci]",
                sha,
            )
            self.started_at = now
            self.blob_sha = docs.get(path, "")
            self.text = (await self.client.read_blob(self.blob_sha)).decode("utf-8")
        except WebAdminError as exc:
            tally.count[f"web opens failed ({exc.status})"] += 1
            self.lock_sha = None
            return False
        self.doc = doc
        self.beat_task = asyncio.ensure_future(self.heartbeats())
        return True

    async def heartbeats(self) -> None:
        clock, tally = self.world.clock, self.world.tally
        while self.doc is not None and self.lock_sha is not None:
            await clock.sleep(self.world.options.heartbeat_s)
            doc = self.doc
            if doc is None or self.lock_sha is None:
                return
            try:
                started = clock.now()
                seen = await self.client.read_contents(lock_path(doc))
                if seen is None or _json(seen[1]).get("editingBy") != self.login:
                    tally.count["web lock losses learned"] += 1
                    self.lock_sha = None  # read-only, as the web admin drops to it
                    return
                now = int(time.time())
                self.lock_sha = await self.client.put(
                    lock_path(doc),
                    lock_body(doc, self.login, self.started_at, now, heartbeat=True),
                    f"system: heartbeat for {doc} [skip ci]",
                    seen[0],
                )
                tally.durations["web heartbeat"].append(clock.now() - started)
                tally.count["web heartbeats"] += 1
            except WebAdminError as exc:
                tally.count[f"web heartbeats failed ({exc.status})"] += 1  # ignored, as it does

    async def edit(self, end: float) -> None:
        clock, b = self.world.clock, self.behaviour
        session_end = min(end, clock.now() + b.session_length())
        while clock.now() < session_end and self.lock_sha is not None:
            length = b.burst()
            started = clock.now()
            while clock.now() - started < length:
                self.lines += 1
                self.text += f"\n{self.login}의 {self.lines}번째 문장입니다.\n"
                await clock.sleep(KEYSTROKE_S)
            if self.lock_sha is not None and b.saves_after_burst():
                await self._timed("web save", self.save())
            await clock.sleep(b.pause())
        away = min(b.walks_away(), max(0.0, end - clock.now()))
        if away and self.lock_sha is not None:
            await clock.sleep(away)

    async def save(self) -> None:
        tally = self.world.tally
        assert self.doc is not None
        path = f"docs/{self.doc}.md"
        for attempt in range(3):
            try:
                self.blob_sha = await self.client.put(
                    path,
                    encode_text(self.text),
                    f"docs(edit): update {self.doc}.md by @{self.login}",
                    self.blob_sha,
                )
            except WebAdminError as exc:
                tally.count[f"web save errors shown ({exc.status})"] += 1
                await self.world.clock.sleep(10.0 * (attempt + 1))  # the user presses save again
                continue
            tally.count["web saves"] += 1
            return
        tally.count["web saves given up"] += 1

    async def close(self) -> None:
        task, self.beat_task = self.beat_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        doc, self.doc = self.doc, None
        if doc is None or self.lock_sha is None:
            self.lock_sha = None
            return
        self.lock_sha = None
        with contextlib.suppress(WebAdminError):
            seen = await self.client.read_contents(lock_path(doc))
            if seen is not None and _json(seen[1]).get("editingBy") == self.login:
                await self.client.delete(
                    lock_path(doc), seen[0], f"system: release lock for {doc} [skip ci]"
                )

    async def aclose(self) -> None:
        await self.client.aclose()


def _json(raw: bytes) -> dict[str, Any]:
    try:
        d = json.loads(raw.decode("utf-8-sig"))
    except ValueError:
        return {}
    return d if isinstance(d, dict) else {}


# ---------------------------------------------------------------------------- the sandbox


class ScaleSandbox:
    """The sandbox in a child process (its own core, like a remote server), with the race, the
    latency and the rate-limit clock compressed by the run's speed."""

    def __init__(self, root: Path, logins: list[str], options: ScaleOptions) -> None:
        self.root = root
        self.repo_dir = root / "repo"
        self.logins = logins
        self.options = options
        self.api_url = ""
        # In this process group: stopping the run (by its group) stops its sandbox too.
        self._process = SandboxProcess(own_session=False)

    def start(self, seed: Path) -> None:
        o, k = self.options, self.options.speed
        args = [
            "--repo-dir",
            str(self.repo_dir),
            "--seed",
            str(seed),
            "--latency-ms",
            str(max(0, round(o.latency_ms / k))),
            "--race-window-ms",
            str(o.race_window_ms / k),
            "--rate-time-scale",
            str(k),
            "--rate-window",
            str(HOUR / k),
            "--deploy-queue-seconds",
            "100000",
            "--deploy-run-seconds",
            "100000",
        ]
        for login in self.logins:
            args += ["--user", f"{login}:tok-{login}"]
        self.api_url = self._process.start(args, self.root / "sandbox.log")

    def stats(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.api_url + "/_sandbox/stats", timeout=60) as resp:
            return dict(json.loads(resp.read()))

    def stop(self) -> None:
        self._process.stop(wait=30)


def seed_folder(root: Path, n_docs: int) -> list[str]:
    """N generated documents (no deploy workflow: no runs to build)."""
    ids = generate(root, n_docs, big=False)
    shutil.rmtree(root / ".github", ignore_errors=True)
    return ids


# ---------------------------------------------------------------------------- one run


async def _sample_double_holders(world: World, end: float) -> None:
    """Every simulated minute: documents two editors both believe they hold. The one whose lock
    was taken over learns it at its next heartbeat, so only a belief that outlives a heartbeat
    interval (and a minute of slack) counts as a double holder."""
    tally, clock = world.tally, world.clock
    limit = world.options.heartbeat_s + MINUTE
    while clock.now() < end:
        holders: Counter[str] = Counter()
        for ed in world.editors:
            doc = ed.believes_it_holds()
            if doc is not None:
                holders[doc] += 1
        now = clock.now()
        for doc in list(tally.double):
            if holders[doc] < 2:
                since = tally.double.pop(doc)
                if now - since > limit:
                    tally.double_episodes.append((doc, now - since))
        for doc, n in holders.items():
            if n >= 2:
                tally.double.setdefault(doc, now)
        await clock.sleep(MINUTE)


async def simulate(options: ScaleOptions, progress: Callable[[str], None]) -> dict[str, Any]:
    n = options.editors
    n_web = round(n * options.web_share)
    n_desk = n - n_web
    root = Path(tempfile.mkdtemp(prefix=f"modu-scale-{n}-"))
    try:
        seed = root / "seed"
        docs = seed_folder(seed, n + HOT_DOCS + 5)
        own = docs[HOT_DOCS:]  # everyone's own document; the first few are the shared ones
        logins = [f"desk{i:03d}" for i in range(n_desk)] + [f"web{i:03d}" for i in range(n_web)]
        sandbox = ScaleSandbox(root, logins, options)
        sandbox.start(seed)
        try:
            return await _run(options, root, sandbox, docs, own, n_desk, n_web, progress)
        finally:
            sandbox.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)


async def _run(
    options: ScaleOptions,
    root: Path,
    sandbox: ScaleSandbox,
    docs: list[str],
    own: list[str],
    n_desk: int,
    n_web: int,
    progress: Callable[[str], None],
) -> dict[str, Any]:
    clock = SimClock(options.speed)
    world = World(options, clock, sandbox.api_url, docs, root)
    desks = [
        DeskEditor(world, i, own[i % len(own)], refresher=i < options.refresh_sample)
        for i in range(n_desk)
    ]
    webs = [WebEditor(world, i, own[(n_desk + i) % len(own)]) for i in range(n_web)]
    world.editors = [*desks, *webs]
    for ed in world.editors:
        await ed.start()
    clock.t0 = time.monotonic()  # the simulated hour starts now
    end = options.hours * HOUR
    progress(f"N={options.editors}: {n_desk} on our core, {n_web} web admin; running")
    tasks = [asyncio.ensure_future(ed.run(end)) for ed in world.editors]
    helpers = [asyncio.ensure_future(d.queue_loop()) for d in desks]
    helpers += [asyncio.ensure_future(d.refresh_loop(end)) for d in desks if d.refresher]
    helpers.append(asyncio.ensure_future(_sample_double_holders(world, end)))
    while clock.now() < end:
        await asyncio.sleep(1.0)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    # What the run did, before the clean-up (everyone closing at once is not a workday).
    end_wall = time.time()
    sim_hours = end / HOUR
    result = _result(world, desks, webs, sandbox.stats(), sim_hours)
    progress(f"N={options.editors}: closing and draining the queues")
    await asyncio.gather(*(ed.close() for ed in world.editors), return_exceptions=True)
    result["unsent_after_drain"] = sum(await asyncio.gather(*(d.drain() for d in desks)))
    for h in helpers:
        h.cancel()
    await asyncio.gather(*helpers, return_exceptions=True)
    for ed in world.editors:
        with contextlib.suppress(Exception):
            await ed.aclose()
    sandbox.stop()
    progress(f"N={options.editors}: reading the history")
    result.update(
        analyse_history(
            sandbox.repo_dir,
            world.tally.saved,
            sim_hours,
            len(world.editors),
            end_wall,
            desk=len(desks),
            losses=result["lock_losses"],
        )
    )
    for loss in result["lock_losses"]:
        if loss["kind"] != "take-over chosen":
            progress(f"lock loss: {json.dumps(loss, ensure_ascii=False)}")
    return result


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def _peak_per_window(times: list[float], window: float) -> int:
    best, start = 0, 0
    for end, t in enumerate(times):
        while t - times[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


def _result(
    world: World,
    desks: list[DeskEditor],
    webs: list[WebEditor],
    stats: dict[str, Any],
    sim_hours: float,
) -> dict[str, Any]:
    tally = world.tally
    races = Counter[str]()
    for d in desks:
        assert d.client is not None
        c = d.client.race_counts
        races.update(
            seen=c.seen,
            retried=c.retried,
            won_after_retry=c.won_after_retry,
            gave_up=c.gave_up,
            conflicts=c.conflicts,
        )
    core = [d for d in desks if not d.refresher] or desks
    refreshers = [d for d in desks if d.refresher]

    def per_hour(eds: list[Any], what: Callable[[Any], float]) -> float:
        return statistics.fmean(what(e) for e in eds) / sim_hours if eds else 0.0

    def points(e: Any) -> list[float]:
        w = e.http if isinstance(e, DeskEditor) else e.counts
        weighted = [(t, 5) for t in w.write_times] + [(t, 1) for t in w.read_times]
        weighted.sort()
        best, start, total = 0, 0, 0
        for t, p in weighted:
            total += p
            while t - weighted[start][0] >= MINUTE:
                total -= weighted[start][1]
                start += 1
            best = max(best, total)
        return [best]

    def counting(e: Any) -> CountingHttp:
        return e.http if isinstance(e, DeskEditor) else e.counts

    everyone = [*desks, *webs]
    durations = {
        action: {
            "n": len(v),
            "p50": _pct(v, 0.5),
            "p95": _pct(v, 0.95),
        }
        for action, v in sorted(tally.durations.items())
    }
    limited = sum(counting(e).statuses[403] + counting(e).statuses[429] for e in everyone)
    return {
        "editors": len(everyone),
        "desk": len(desks),
        "web": len(webs),
        "sim_hours": sim_hours,
        "options": asdict(world.options),
        "counts": dict(sorted(tally.count.items())),
        "lock_losses": tally.losses,
        "double_holders": len(tally.double_episodes)
        + sum(
            1
            for since in tally.double.values()
            if world.clock.now() - since > world.options.heartbeat_s + MINUTE
        ),
        "races_ours": dict(races),
        "branch_moved_409s_server": stats.get("branch_moved", 0),
        "requests_server": stats.get("total", 0),
        "rate_limited_answers": limited,
        "requests_per_editor_hour": {
            "desk_core": per_hour(core, lambda e: counting(e).total),
            "desk_with_list_refresh": per_hour(refreshers, lambda e: counting(e).total)
            if refreshers
            else None,
            "web": per_hour(webs, lambda e: counting(e).total) if webs else None,
        },
        "writes_per_editor_hour": {
            "desk": per_hour(desks, lambda e: len(counting(e).write_times)),
            "web": per_hour(webs, lambda e: len(counting(e).write_times)) if webs else None,
        },
        "peak_per_editor": {
            "writes_per_minute": max(
                (_peak_per_window(counting(e).write_times, MINUTE) for e in everyone), default=0
            ),
            "writes_per_hour": max(
                (_peak_per_window(counting(e).write_times, HOUR) for e in everyone), default=0
            ),
            "requests_per_hour": max(
                (
                    _peak_per_window(sorted(counting(e).read_times + counting(e).write_times), HOUR)
                    for e in everyone
                ),
                default=0,
            ),
            "points_per_minute": max((points(e)[0] for e in everyone), default=0),
        },
        "durations_sim_s": durations,
    }


def analyse_history(
    repo_dir: Path,
    saved: list[tuple[str, str, str]],
    sim_hours: float,
    editors: int,
    end_wall: float,
    desk: int = 0,
    losses: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Replay ``main`` oldest first: commits by kind (those of the run itself, not of the
    clean-up after ``end_wall``), every file version, and the lock file in force at each
    content commit (who may write)."""
    store = GitStore(repo_dir)
    try:
        head = store.branch_head(BRANCH)
        assert head is not None
        history = list(reversed(store.log(head)))[1:]  # the seed commit is not the run's
        versions: set[tuple[str, str]] = set()
        lock_blob: dict[str, str | None] = {}
        holder_of_blob: dict[str, str | None] = {}
        kinds: Counter[str] = Counter()
        without_lock: Counter[str] = Counter()
        replaced: dict[str, dict[str, Any]] = {}  # lock blob → the commit that replaced it
        for info in history:
            changes = store.changes(info.sha)
            lock_commit = info.message.startswith("system:")
            if info.committer.timestamp <= end_wall:
                kinds["lock" if lock_commit else "content"] += 1
                if lock_commit:
                    kinds[info.message.split(" ", 2)[1]] += 1  # acquire / heartbeat / release
                    who = "web" if info.author.name.startswith("web") else "desk"
                    kinds[f"lock by {who}"] += 1
            for path, blob in changes:
                if blob is not None:
                    versions.add((path, blob))
                if path.startswith(".locks/"):
                    doc_of_lock = path[len(".locks/") : -len(".lock.json")]
                    before = lock_blob.get(doc_of_lock)
                    if before is not None and before not in replaced:
                        replaced[before] = {
                            "by": info.author.name,
                            "message": info.message.split(" [", 1)[0],
                            "at": info.committer.timestamp,
                            "new_sha": blob,
                        }
                    lock_blob[doc_of_lock] = blob
                elif not lock_commit and path.startswith("docs/") and blob is not None:
                    doc = path[len("docs/") : -len(".md")]
                    blob_of_lock = lock_blob.get(doc)
                    holder = None
                    if blob_of_lock is not None:
                        if blob_of_lock not in holder_of_blob:
                            raw = store.blob(blob_of_lock) or b""
                            holder_of_blob[blob_of_lock] = _json(raw).get("editingBy")
                        holder = holder_of_blob[blob_of_lock]
                    if holder != info.author.name:
                        who = "web" if info.author.name.startswith("web") else "desk"
                        without_lock[who] += 1
        # A queued save joins a later one of the same document (newest text wins) and an
        # editor's text only grows here, so a save is kept when it or a later save of the same
        # editor and document is a version of the file.
        lost = 0
        kept_later: set[tuple[str, str]] = set()
        for login, path, blob in reversed(saved):
            if (path, blob) in versions:
                kept_later.add((login, path))
            elif (login, path) not in kept_later:
                lost += 1
        for loss in losses or ():
            # Who changed the lock we last wrote (the commit that replaced or deleted it).
            loss["replaced_by"] = replaced.get(loss.get("our_sha") or "")
        return {
            "saves_lost": lost,
            "saves_checked": len(saved),
            "commits": dict(kinds),
            "commits_per_hour": {
                "lock": kinds["lock"] / sim_hours,
                "content": kinds["content"] / sim_hours,
            },
            "lock_commits_per_editor_hour": kinds["lock"] / sim_hours / editors,
            "lock_commits_per_desk_editor_hour": kinds["lock by desk"] / sim_hours / desk
            if desk
            else None,
            "content_written_without_the_lock": dict(without_lock),
        }
    finally:
        store.close()


# ---------------------------------------------------------------------------- the report


def _f(v: float | None, digits: int = 0) -> str:
    return "–" if v is None else f"{v:,.{digits}f}"


def table(results: list[dict[str, Any]]) -> str:
    """The scale table (markdown), one column per run."""
    heads = [
        f"N={r['editors']}" + (" (no idle release)" if not r["options"]["idle_release_min"] else "")
        for r in results
    ]
    rows: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("editors on our core / web admin pattern", lambda r: f"{r['desk']} / {r['web']}"),
        ("simulated hours", lambda r: _f(r["sim_hours"], 1)),
        (
            "saves (ours: landed + queued / web admin)",
            lambda r: (
                f"{r['counts'].get('desk saves', 0)} + "
                f"{r['counts'].get('desk saves queued', 0)} / {r['counts'].get('web saves', 0)}"
            ),
        ),
        ("**saves lost**", lambda r: str(r["saves_lost"] + r["unsent_after_drain"])),
        (
            "saves refused, the text kept and the user told (ours)",
            lambda r: str(
                sum(v for k, v in r["counts"].items() if k.startswith("desk saves refused"))
            ),
        ),
        ("**false lock losses**", lambda r: str(r["counts"].get("false lock losses", 0))),
        (
            "locks gone stale: heartbeats could not get through for 15 min (ours)",
            lambda r: str(r["counts"].get("locks gone stale (heartbeats did not get through)", 0)),
        ),
        (
            "**needless conflict questions**",
            lambda r: str(r["counts"].get("needless conflict questions", 0)),
        ),
        ("**double holders**", lambda r: str(r["double_holders"])),
        (
            "content written without holding the lock (ours / web admin)",
            lambda r: (
                f"{r['content_written_without_the_lock'].get('desk', 0)} / "
                f"{r['content_written_without_the_lock'].get('web', 0)}"
            ),
        ),
        (
            "conflict questions asked (at a save / of a queued save)",
            lambda r: (
                f"{r['counts'].get('conflict questions', 0)} / "
                f"{r['counts'].get('conflict questions (queued saves)', 0)}"
            ),
        ),
        (
            "take-over questions / take-overs chosen (ours: at opening + taking back)",
            lambda r: (
                f"{r['counts'].get('take-over questions', 0)} / "
                f"{r['counts'].get('take-overs', 0)} + "
                f"{r['counts'].get('take-overs chosen when taking the lock back', 0)}"
            ),
        ),
        (
            "opens that failed (ours / web admin)",
            lambda r: (
                f"{r['counts'].get('desk opens failed', 0)} / "
                + str(sum(v for k, v in r["counts"].items() if k.startswith("web opens failed")))
            ),
        ),
        (
            "heartbeats: renewed / missed (ours)",
            lambda r: (
                f"{r['counts'].get('desk heartbeat ok', 0)} / "
                f"{r['counts'].get('desk heartbeat missed', 0)}"
            ),
        ),
        (
            "lock losses that were chosen take-overs (ours)",
            lambda r: str(
                r["counts"].get("lock losses", 0)
                - r["counts"].get("false lock losses", 0)
                - r["counts"].get("locks gone stale (heartbeats did not get through)", 0)
            ),
        ),
        (
            "documents others took while ours was let go for idleness (text kept, told)",
            lambda r: str(r["counts"].get("taken while let go for idleness", 0)),
        ),
        (
            "branch-moved 409s: seen / retried / gave up (ours)",
            lambda r: (
                f"{r['races_ours'].get('seen', 0)} / {r['races_ours'].get('retried', 0)}"
                f" / {r['races_ours'].get('gave_up', 0)}"
            ),
        ),
        (
            "branch-moved 409s answered by the server (all)",
            lambda r: str(r["branch_moved_409s_server"]),
        ),
        (
            "web admin save errors shown (409) / given up",
            lambda r: (
                f"{r['counts'].get('web save errors shown (409)', 0)} / "
                f"{r['counts'].get('web saves given up', 0)}"
            ),
        ),
        (
            "commits/hour on main: lock / content",
            lambda r: (
                f"{_f(r['commits_per_hour']['lock'])} / {_f(r['commits_per_hour']['content'])}"
            ),
        ),
        (
            "lock commits per editor-hour: all / ours",
            lambda r: (
                f"{_f(r['lock_commits_per_editor_hour'], 1)} / "
                f"{_f(r.get('lock_commits_per_desk_editor_hour'), 1)}"
            ),
        ),
        (
            "requests/editor-hour: ours (core) / ours + list refresh / web admin",
            lambda r: (
                f"{_f(r['requests_per_editor_hour']['desk_core'])} / "
                f"{_f(r['requests_per_editor_hour']['desk_with_list_refresh'])} / "
                f"{_f(r['requests_per_editor_hour']['web'])}"
            ),
        ),
        (
            f"peak per editor: requests/hour (limit {PRIMARY_PER_HOUR:,})",
            lambda r: _f(r["peak_per_editor"]["requests_per_hour"]),
        ),
        (
            f"peak per editor: writes/minute (limit {CONTENT_PER_MINUTE}) / "
            f"writes/hour (limit {CONTENT_PER_HOUR})",
            lambda r: (
                f"{r['peak_per_editor']['writes_per_minute']} / "
                f"{r['peak_per_editor']['writes_per_hour']}"
            ),
        ),
        (
            f"peak per editor: points/minute (limit {POINTS_PER_MINUTE})",
            lambda r: _f(r["peak_per_editor"]["points_per_minute"]),
        ),
        ("answers 403/429 (rate limited)", lambda r: str(r["rate_limited_answers"])),
        (
            "idle releases / locks taken back",
            lambda r: (
                f"{r['counts'].get('idle releases', 0)} / "
                f"{r['counts'].get('locks taken back after idle', 0)}"
            ),
        ),
    ]
    for action in ("open", "save", "heartbeat", "close", "resume", "list refresh", "web save"):
        rows.append((f"p50 / p95 {action} (s)", _percentiles(action)))
    out = ["| | " + " | ".join(heads) + " |", "|---|" + "---|" * len(results)]
    for name, cell in rows:
        out.append(f"| {name} | " + " | ".join(cell(r) for r in results) + " |")
    return "\n".join(out)


def _percentiles(action: str) -> Callable[[dict[str, Any]], str]:
    def cell(r: dict[str, Any]) -> str:
        d = r["durations_sim_s"].get(action, {})
        return f"{_f(d.get('p50'), 2)} / {_f(d.get('p95'), 2)}"

    return cell


# ---------------------------------------------------------------------------- the command


_ints = number_list(int, example="10,30", allow_zero=False)
_floats = number_list(float, example="6 or 6,6,4", allow_zero=False)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bench scale",
        description="N simulated editors on one branch with GitHub's race, on a compressed clock.",
    )
    p.add_argument("--editors", type=_ints, default=[10, 30, 100, 300])
    p.add_argument("--hours", type=float, default=2.0, help="simulated hours per run")
    p.add_argument(
        "--speed",
        type=_floats,
        default=[6.0],
        help="simulated seconds per real second: one for all runs, or one per --editors value",
    )
    p.add_argument("--web-share", type=float, default=0.2)
    p.add_argument("--idle-release-minutes", type=float, default=20.0, help="0: off")
    p.add_argument(
        "--compare-idle-release",
        action="store_true",
        help="also run every N with the idle release off",
    )
    p.add_argument("--seed", type=int, default=22)
    p.add_argument("--json", metavar="FILE", help="write every run's numbers as JSON")
    return p


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    t0 = time.perf_counter()

    def progress(msg: str) -> None:
        print(f"[{time.perf_counter() - t0:7.1f}s] {msg}", file=sys.stderr, flush=True)

    speeds = (
        args.speed if len(args.speed) == len(args.editors) else [args.speed[0]] * len(args.editors)
    )
    results: list[dict[str, Any]] = []
    for n, speed in zip(args.editors, speeds, strict=True):
        variants = [args.idle_release_minutes]
        if args.compare_idle_release and args.idle_release_minutes:
            variants.append(0.0)
        for idle in variants:
            opts = ScaleOptions(
                editors=n,
                hours=args.hours,
                speed=speed,
                web_share=args.web_share,
                idle_release_min=idle,
                seed=args.seed,
            )
            started = time.perf_counter()
            res = asyncio.run(simulate(opts, progress))
            res["real_seconds"] = time.perf_counter() - started
            results.append(res)
            progress(f"N={n} idle={idle:g} done in {res['real_seconds']:.0f} s")
            if args.json:
                Path(args.json).write_text(json.dumps(results, indent=2, ensure_ascii=False))
    print(table(results))
    print(
        "\ncommand: python -m bench scale " + " ".join(argv),
        file=sys.stdout,
    )
    return 0
