"""The durable save queue: retries, exactly-once after uncertain writes and crashes, supersede,
damaged files."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.saving.queue import (
    Backoff,
    Committed,
    Fatal,
    NotAtBase,
    Retryable,
    RunReport,
    SaveSpool,
    SendOutcome,
    SpoolItem,
    Uncertain,
    judge,
    merge_superseded,
)

HOST = "https://api.github.com"


@pytest.fixture(autouse=True)
def _no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Skip fsync (a busy shared disk makes it slow); test_atomic checks it is normally done."""
    monkeypatch.setattr("modu_desktop.core.atomic.DURABLE", False)


PATH = "docs/01-intro.md"
BASE_TEXT = b"---\ntitle: Intro\n---\n"
S0 = git_blob_sha(BASE_TEXT)
NASTY = "\ufeff---\r\ntitle: 안녕 😀\r\n---\r\nbody\x00\r\n"


class Crash(BaseException):
    """The process dies here (SIGKILL stand-in): nothing after it runs."""


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_780_000_000.0

    def __call__(self) -> float:
        return self.now


class FakeServer:
    """GitHub's contents semantics: a write applies only if the caller's sha is current."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {PATH: BASE_TEXT}
        self.commits: list[tuple[str, bytes]] = []

    def sha(self, path: str) -> str | None:
        data = self.files.get(path)
        return None if data is None else git_blob_sha(data)

    def put(self, path: str, data: bytes, base: str | None) -> SendOutcome:
        if self.sha(path) != base:
            return NotAtBase(self.sha(path))
        self.files[path] = data
        self.commits.append((path, data))
        return Committed(git_blob_sha(data), f"commit{len(self.commits)}")

    def commits_for(self, path: str = PATH) -> list[bytes]:
        return [data for p, data in self.commits if p == path]


class Remote:
    """Scripted sender/reader around a FakeServer."""

    def __init__(self, server: FakeServer) -> None:
        self.server = server
        self.send_script: list[str] = []
        self.read_script: list[str] = []
        self.sent: list[SpoolItem] = []
        self.reads = 0
        self.during_send: list[Callable[[], object]] = []
        self.during_read: list[Callable[[], object]] = []

    async def sender(self, item: SpoolItem) -> SendOutcome:
        self.sent.append(item)
        for hook in self.during_send:
            hook()
        self.during_send.clear()
        mode = self.send_script.pop(0) if self.send_script else "ok"
        await asyncio.sleep(0)
        if mode == "retry":
            return Retryable("503 before anything happened")
        if mode == "fatal":
            return Fatal("403 no push access")
        if mode in ("uncertain-lost", "raise-lost", "crash-lost"):
            if mode == "raise-lost":
                raise ConnectionResetError("reset")
            if mode == "crash-lost":
                raise Crash()
            return Uncertain("timeout")
        outcome = self.server.put(item.path, item.content_bytes(), item.base_sha)
        if mode == "uncertain-applied":
            return Uncertain("timeout after the request went out")
        if mode == "raise-applied":
            raise TimeoutError("read timeout")
        if mode == "crash-applied":
            raise Crash()
        if mode == "lie-retry-applied":
            return Retryable("502 (but it was applied)")
        return outcome

    async def reader(self, item: SpoolItem) -> str | None:
        self.reads += 1
        for hook in self.during_read:
            hook()
        self.during_read.clear()
        mode = self.read_script.pop(0) if self.read_script else "ok"
        if mode == "raise":
            raise OSError("offline")
        return self.server.sha(item.path)


def make(tmp_path: Path, remote: Remote, clock: FakeClock, **kw: Any) -> SaveSpool:
    backoff = Backoff(base_s=5, cap_s=300, jitter=0.0)
    return SaveSpool(
        tmp_path / "spool", remote.sender, remote.reader, clock=clock, backoff=backoff, **kw
    )


def enqueue(spool: SaveSpool, text: str, base: str | None = S0, path: str = PATH) -> SpoolItem:
    return spool.enqueue(
        api_host=HOST,
        repo="pnuai/PNU-Modu",
        branch="main",
        path=path,
        doc_id=path.removeprefix("docs/").removesuffix(".md"),
        text=text,
        base_sha=base,
        message=f"docs(edit): update {path.rsplit('/', 1)[-1]} by @editor1",
        login="editor1",
    )


Env = tuple[FakeServer, Remote, FakeClock]


@pytest.fixture
def env(tmp_path: Path) -> Env:
    server = FakeServer()
    return server, Remote(server), FakeClock()


def run(spool: SaveSpool) -> RunReport:
    return asyncio.run(spool.run_once())


# -- basics -----------------------------------------------------------------------------------


def test_enqueue_is_durable_and_commits_once(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    item = enqueue(make(tmp_path, remote, clock), NASTY)
    spool = make(tmp_path, remote, clock)  # a fresh process sees it
    assert spool.pending_count() == 1
    report = run(spool)
    assert [i.id for i in report.committed] == [item.id]
    assert server.commits_for() == [NASTY.encode()]
    assert spool.pending_count() == 0 and spool.failed_items() == []
    done = spool.done_items()[0]
    assert done.result_sha == git_blob_sha(NASTY.encode()) and done.commit_sha == "commit1"
    assert run(spool).committed == []


def test_retry_with_backoff_then_success(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    remote.send_script = ["retry", "retry"]
    assert len(run(spool).rescheduled) == 1
    assert spool.next_due_in() == pytest.approx(5)
    clock.now += 4
    assert run(spool).rescheduled == [] and len(remote.sent) == 1  # not due yet
    clock.now += 1
    run(spool)
    assert spool.next_due_in() == pytest.approx(10)  # exponential
    clock.now += 10
    assert len(run(spool).committed) == 1
    assert server.commits_for() == [b"v1"] and spool.next_due_in() is None


def test_exhausted_goes_to_failed_with_text_then_retry_now(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock, max_attempts=3)
    item = enqueue(spool, NASTY)
    remote.send_script = ["retry"] * 3
    for _ in range(3):
        run(spool)
        clock.now += 1000
    failed = spool.failed_items()
    assert [f.id for f in failed] == [item.id]
    assert failed[0].text == NASTY and failed[0].failure == "exhausted"
    assert spool.pending_count() == 0
    assert spool.retry_now(item.id)
    assert spool.pending_count() == 1 and spool.failed_items() == []
    run(spool)
    assert server.commits_for() == [NASTY.encode()]


def test_fatal_goes_to_failed(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    remote.send_script = ["fatal"]
    report = run(spool)
    assert report.failed[0].failure == "fatal" and "403" in (report.failed[0].last_error or "")


def test_conflict_goes_to_failed_with_their_sha(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "mine")
    server.put(PATH, b"theirs", S0)
    report = run(spool)
    assert report.failed[0].failure == "conflict"
    assert report.failed[0].their_sha == git_blob_sha(b"theirs")
    assert spool.failed_items()[0].text == "mine"
    assert server.commits_for() == [b"theirs"]


def test_new_file_create(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "new doc", base=None, path="docs/02-new.md")
    remote.send_script = ["uncertain-lost"]
    run(spool)
    clock.now += 1000
    run(spool)
    assert server.commits_for("docs/02-new.md") == [b"new doc"]


# -- exactly once -----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["uncertain-applied", "raise-applied"])
def test_uncertain_write_that_happened_is_not_resent(tmp_path: Path, env: Env, mode: str) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    remote.send_script = [mode]
    report = run(spool)
    assert len(report.committed) == 1 and report.committed[0].commit_sha is None
    for _ in range(3):
        clock.now += 1000
        run(spool)
    assert server.commits_for() == [b"v1"] and len(remote.sent) == 1


@pytest.mark.parametrize("mode", ["uncertain-lost", "raise-lost"])
def test_uncertain_write_that_did_not_happen_is_resent(tmp_path: Path, env: Env, mode: str) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    remote.send_script = [mode]
    assert len(run(spool).rescheduled) == 1
    clock.now += 1000
    assert len(run(spool).committed) == 1
    assert server.commits_for() == [b"v1"] and len(remote.sent) == 2


def test_uncertain_and_reader_offline_verifies_before_resending(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    remote.send_script = ["uncertain-applied"]
    remote.read_script = ["raise", "raise"]
    run(spool)  # send (applied, unknown) + read fails
    item = spool.pending_items()[0]
    assert item.verify_first
    clock.now += 1000
    run(spool)  # read fails again: nothing is sent
    assert len(remote.sent) == 1
    clock.now += 1000
    assert len(run(spool).committed) == 1
    assert server.commits_for() == [b"v1"] and len(remote.sent) == 1


def test_sender_lying_retryable_cannot_double_commit(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    remote.send_script = ["lie-retry-applied"]
    run(spool)
    clock.now += 1000
    assert len(run(spool).committed) == 1  # the resend conflicts with our own write: done
    assert server.commits_for() == [b"v1"]


@pytest.mark.parametrize("applied", [True, False])
def test_crash_mid_send_recovers_exactly_once(tmp_path: Path, env: Env, applied: bool) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, NASTY)
    remote.send_script = ["crash-applied" if applied else "crash-lost"]
    with pytest.raises(Crash):
        run(spool)
    assert len(list((tmp_path / "spool" / "sending").iterdir())) == 1
    restarted = make(tmp_path, remote, clock)  # the next start
    assert restarted.pending_count() == 1
    report = run(restarted)
    assert remote.reads == 1  # verified before anything was re-sent
    assert len(report.committed) == 1
    assert server.commits_for() == [NASTY.encode()]
    assert len(remote.sent) == (1 if applied else 2)
    assert restarted.pending_count() == 0


def test_crash_mid_send_and_someone_else_wrote(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "mine")
    remote.send_script = ["crash-lost"]
    with pytest.raises(Crash):
        run(spool)
    server.put(PATH, b"theirs", S0)
    report = run(make(tmp_path, remote, clock))
    assert report.failed[0].failure == "conflict" and report.failed[0].text == "mine"
    assert server.commits_for() == [b"theirs"]


def test_cancelled_run_reverifies(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    remote.send_script = ["crash-applied"]
    with pytest.raises(Crash):
        run(spool)
    run(spool)  # same object, same process: still verifies first
    assert server.commits_for() == [b"v1"] and len(remote.sent) == 1


# -- supersede --------------------------------------------------------------------------------


def test_newer_save_supersedes_pending(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    a = enqueue(spool, "v1")
    b = enqueue(spool, "v2")
    other = enqueue(spool, "x", path="docs/02-x.md", base=None)
    pending = spool.pending_items()
    assert [p.id for p in pending] == [b.id, other.id]
    assert pending[0].text == "v2" and pending[0].base_sha == S0 and pending[0].supersedes == [a.id]
    run(spool)
    assert server.commits_for() == [b"v2"]


def test_supersede_with_optimistic_base_keeps_oldest_base(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    v1 = enqueue(spool, "v1")
    enqueue(spool, "v2", base=v1.blob_sha())  # editor assumed v1 landed
    v3 = enqueue(spool, "v3", base=git_blob_sha(b"v2"))
    (item,) = spool.pending_items()
    assert item.id == v3.id and item.base_sha == S0
    assert set(item.accept_shas) >= {v1.blob_sha(), git_blob_sha(b"v2")}
    run(spool)
    assert server.commits_for() == [b"v3"]


def test_supersede_with_unrelated_base_takes_newer_base(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    server.put(PATH, b"theirs", S0)  # the editor reloads and merges
    enqueue(spool, "merged", base=git_blob_sha(b"theirs"))
    (item,) = spool.pending_items()
    assert item.base_sha == git_blob_sha(b"theirs") and item.accept_shas == []
    run(spool)
    assert server.files[PATH] == b"merged"


def test_save_while_sending_is_sent_after_it(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    remote.during_send.append(lambda: enqueue(spool, "v2"))  # typed and saved mid-flight
    run(spool)
    assert spool.pending_count() == 1
    assert spool.pending_items()[0].base_sha == git_blob_sha(b"v1")  # rebased on our commit
    run(spool)
    assert server.commits_for() == [b"v1", b"v2"]


@pytest.mark.parametrize("mode", ["retry", "uncertain-applied", "uncertain-lost", "crash-applied"])
def test_save_while_sending_then_trouble(tmp_path: Path, env: Env, mode: str) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    remote.send_script = [mode]
    remote.during_send.append(lambda: enqueue(spool, "v2"))
    if mode.startswith("crash"):
        with pytest.raises(Crash):
            run(spool)
        spool = make(tmp_path, remote, clock)
    else:
        run(spool)
    for _ in range(4):
        clock.now += 1000
        run(spool)
    assert server.files[PATH] == b"v2"
    assert server.commits_for()[-1] == b"v2" and len(set(server.commits_for())) == len(
        server.commits_for()
    )  # nothing committed twice
    assert spool.pending_count() == 0 and spool.failed_items() == []


def test_merge_and_judge_units() -> None:
    def item(text: str, base: str | None, **kw: Any) -> SpoolItem:
        return SpoolItem(
            "0000000000001-0000-abcdef01",
            HOST,
            "o/r",
            "main",
            PATH,
            "01",
            text,
            base,
            "m",
            "u",
            1.0,
            **kw,
        )

    old = item("v1", "S0")
    assert judge(old, old.blob_sha()) == "done"
    assert judge(old, "S0") == "send"
    assert judge(old, "other") == "conflict"
    assert judge(old, None) == "conflict"
    assert judge(item("new", None), None) == "send"
    assert judge(item("v", "S0", accept_shas=["S1"]), "S1") == "send"
    merged = merge_superseded(old, item("v2", "S0"))
    assert merged.text == "v2" and merged.base_sha == "S0" and old.blob_sha() in merged.accept_shas
    fresh = merge_superseded(item("v1", "S0", verify_first=True), item("v2", "S9"))
    assert fresh.base_sha == "S9" and not fresh.verify_first and fresh.accept_shas == []
    kept = merge_superseded(item("v1", "S0", verify_first=True), item("v2", "S0"))
    assert kept.verify_first


# -- damaged files ----------------------------------------------------------------------------


@pytest.mark.expect_log("modu_desktop.core.saving.queue")
def test_truncated_spool_file_at_every_offset(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    good = enqueue(spool, "good", path="docs/02-good.md", base=None)
    victim = enqueue(spool, NASTY)
    vpath = tmp_path / "spool" / "pending" / f"{victim.id}.json"
    data = vpath.read_bytes()
    for cut in range(0, len(data) - 1, 3):
        vpath.write_bytes(data[:cut])
        fresh = make(tmp_path, remote, clock)
        assert [i.id for i in fresh.pending_items()] == [good.id], cut
        assert len(fresh.problems) == 1 and fresh.problems[0].moved_to is not None
        assert fresh.problems[0].moved_to.read_bytes() == data[:cut]
        assert not vpath.exists()
    report = run(make(tmp_path, remote, clock))
    assert [i.id for i in report.committed] == [good.id]


@pytest.mark.parametrize("state", ["pending", "sending", "done", "failed"])
@pytest.mark.parametrize(
    "garbage", [b"", b"\x00" * 100, b"\xde\xad\xbe\xef", b"{}", b'{"kind": "modu-spool-item"}']
)
@pytest.mark.expect_log("modu_desktop.core.saving.queue")
def test_garbage_in_any_state_dir(tmp_path: Path, env: Env, state: str, garbage: bytes) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    (tmp_path / "spool" / state / "0000000000001-0000-deadbeef.json").write_bytes(garbage)
    (tmp_path / "spool" / state / "not-an-id.json").write_bytes(garbage)
    report = run(make(tmp_path, remote, clock))
    assert len(report.committed) == 1
    assert len(report.problems) == 2
    assert len(list((tmp_path / "spool" / "broken").iterdir())) == 2


@pytest.mark.expect_log("modu_desktop.core.saving.queue")
def test_item_under_wrong_name_and_temp_leftovers(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    item = enqueue(spool, "v1")
    pending = tmp_path / "spool" / "pending"
    (pending / f"{item.id}.json").rename(pending / "0000000000001-0000-00000000.json")
    (pending / ".x.json.abc.tmp").write_bytes(b"half")
    fresh = make(tmp_path, remote, clock)
    problems = fresh.recover()
    assert [p.problem for p in problems] == ["id does not match file name"]
    assert not (pending / ".x.json.abc.tmp").exists()
    assert len(list((tmp_path / "spool" / "broken").iterdir())) == 2


@pytest.mark.expect_log("modu_desktop.core.saving.queue")
def test_duplicate_across_states_keeps_the_later_state(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    item = enqueue(spool, "v1")
    run(spool)
    done = tmp_path / "spool" / "done" / f"{item.id}.json"
    (tmp_path / "spool" / "pending" / done.name).write_bytes(done.read_bytes())
    fresh = make(tmp_path, remote, clock)
    assert "duplicate" in fresh.recover()[0].problem
    run(fresh)
    assert server.commits_for() == [b"v1"]


# -- concurrency and housekeeping -------------------------------------------------------------


def test_concurrent_enqueues(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    ids: list[str] = []
    lock = threading.Lock()

    def own_path(n: int) -> None:
        for i in range(10):
            enqueue(spool, f"{n}-{i}", base=None, path=f"docs/t{n}.md")

    def shared(n: int) -> None:
        for i in range(10):
            item = enqueue(spool, f"shared {n}-{i}")
            with lock:
                ids.append(item.id)

    threads = [threading.Thread(target=own_path, args=(n,)) for n in range(5)]
    threads += [threading.Thread(target=shared, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    items = {i.path: i for i in spool.pending_items()}
    assert len(items) == 6 and spool.problems == []
    for n in range(5):
        assert items[f"docs/t{n}.md"].text == f"{n}-9"
    winner = items[PATH]
    assert set(winner.supersedes) | {winner.id} == set(ids)
    assert winner.base_sha == S0
    run(spool)
    assert server.commits_for() == [winner.text.encode()]
    assert len(server.commits) == 6


def test_discard_retry_get_prune(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    a = enqueue(spool, "a", path="docs/a.md", base=None)
    b = enqueue(spool, "b", path="docs/b.md", base=None)
    assert spool.discard(a.id) and not spool.discard(a.id)
    assert not spool.discard("../../etc/passwd") and not spool.retry_now("nope")
    assert spool.get("nope") is None
    got = spool.get(b.id)
    assert got is not None and got.state == "pending"
    run(spool)
    assert spool.prune_done(3600) == 0
    clock.now += 7200
    assert spool.prune_done(3600) == 1 and spool.done_items() == []


def test_clock_jumping_back_does_not_park_items(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    remote.send_script = ["retry"]
    run(spool)
    clock.now -= 30 * 86400  # the wall clock was reset a month back
    run(spool)
    assert server.commits_for() == [b"v1"]


def test_retry_after_and_backoff_shape() -> None:
    b = Backoff(base_s=5, cap_s=300, jitter=0.0)
    assert [b.delay(n) for n in (1, 2, 3, 7, 8, 1000)] == [5, 10, 20, 300, 300, 300]
    jittered = Backoff(base_s=5, cap_s=300, jitter=0.5, rng=lambda: 1.0)
    assert jittered.delay(1) == 2.5 and jittered.delay(50) == 150


def test_rate_limit_retry_after_is_respected(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env

    async def sender(item: SpoolItem) -> SendOutcome:
        return Retryable("rate limited", retry_after=600)

    spool = SaveSpool(tmp_path / "s", sender, remote.reader, clock=clock)
    enqueue(spool, "v1")
    asyncio.run(spool.run_once())
    assert spool.next_due_in() == pytest.approx(600)


def test_unencodable_text_is_rejected(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    with pytest.raises(UnicodeEncodeError):
        enqueue(make(tmp_path, remote, clock), "lone \ud800")


@pytest.mark.parametrize("read_mode", ["raise", "ok"])
def test_superseded_while_verifying_is_not_resurrected(
    tmp_path: Path, env: Env, read_mode: str
) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    remote.send_script = ["uncertain-lost"]
    remote.read_script = ["ok"]
    run(spool)  # v1 sent, lost, verified: pending again, verify_first
    assert spool.pending_items()[0].verify_first
    clock.now += 1000
    remote.read_script = [read_mode]
    remote.during_read.append(lambda: enqueue(spool, "v2"))  # saved while v1 is being verified
    run(spool)
    clock.now += 1000
    run(spool)
    assert server.commits_for() == [b"v2"]
    assert spool.pending_count() == 0 and spool.failed_items() == []


@pytest.mark.expect_log("modu_desktop.core.saving.queue")
def test_io_error_during_run_is_reported_and_recovered(
    tmp_path: Path, env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "v1")
    import modu_desktop.core.saving.queue as spool_mod

    real = spool_mod.replace_durably
    calls = {"n": 0}

    def flaky(src: Path, dst: Path) -> None:
        calls["n"] += 1
        if dst.parent.name == "done":
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(spool_mod, "replace_durably", flaky)
    report = run(spool)  # committed on the server, but "done" cannot be recorded
    assert report.errors and report.committed == []
    monkeypatch.undo()
    report = run(spool)  # re-verifies the item left in sending/: done, no second commit
    assert len(report.committed) == 1
    assert server.commits_for() == [b"v1"] and len(remote.sent) == 1


# -- randomized fault schedules ---------------------------------------------------------------

SEND_MODES = [
    "ok",
    "retry",
    "uncertain-applied",
    "uncertain-lost",
    "raise-applied",
    "raise-lost",
    "lie-retry-applied",
    "crash-applied",
    "crash-lost",
]


@pytest.mark.parametrize("seed", range(40))
def test_random_faults_commit_each_save_at_most_once_and_the_last_one_wins(
    tmp_path: Path, seed: int
) -> None:
    import random

    rng = random.Random(seed)
    server, clock = FakeServer(), FakeClock()
    remote = Remote(server)
    remote.send_script = [rng.choice(SEND_MODES) for _ in range(rng.randint(0, 8))]
    remote.read_script = [rng.choice(["ok", "ok", "raise"]) for _ in range(rng.randint(0, 4))]
    texts: list[str] = []
    spool = make(tmp_path, remote, clock, max_attempts=1000)

    def save() -> None:
        text = f"v{len(texts) + 1} {NASTY}"
        # an editor that never hears about commits: base is the opened sha or optimistic
        base = S0 if not texts or rng.random() < 0.5 else git_blob_sha(texts[-1].encode())
        texts.append(text)
        enqueue(spool, text, base=base)

    save()
    for _ in range(rng.randint(0, 3)):
        if rng.random() < 0.5:
            remote.during_send.append(save)
        else:
            save()
    for _ in range(60):
        try:
            run(spool)
        except Crash:
            spool = make(tmp_path, remote, clock, max_attempts=1000)  # restart
        if rng.random() < 0.3:
            remote.during_send.append(save) if len(texts) < 6 else None
        clock.now += 1000
        if spool.pending_count() == 0 and not remote.during_send:
            break
    commits = server.commits_for()
    assert spool.failed_items() == [], [f.last_error for f in spool.failed_items()]
    assert spool.pending_count() == 0
    assert server.files[PATH] == texts[-1].encode()
    assert len(commits) == len(set(commits)), "a save was committed twice"
    order = [texts.index(c.decode()) for c in commits]
    assert order == sorted(order), "an older text was committed after a newer one"


@pytest.mark.parametrize("seed", range(25))
def test_random_faults_never_overwrite_a_foreign_change(tmp_path: Path, seed: int) -> None:
    import random

    rng = random.Random(1000 + seed)
    server, clock = FakeServer(), FakeClock()
    remote = Remote(server)
    remote.send_script = [rng.choice(SEND_MODES) for _ in range(rng.randint(0, 6))]
    spool = make(tmp_path, remote, clock, max_attempts=1000)
    texts: list[str] = []
    foreign_at = rng.randint(0, 4)

    def save() -> None:
        texts.append(f"v{len(texts) + 1}")
        enqueue(spool, texts[-1], base=S0)

    save()
    for step in range(30):
        if step == foreign_at:
            server.put(PATH, b"foreign", server.sha(PATH))
        if rng.random() < 0.3 and len(texts) < 4:
            remote.during_send.append(save)
        try:
            run(spool)
        except Crash:
            spool = make(tmp_path, remote, clock, max_attempts=1000)
        clock.now += 1000
    ours = [data for _, data in server.commits if data != b"foreign"]
    assert len(ours) == len(set(ours))
    assert server.files[PATH] == b"foreign" or server.commits[-1][1] != b"foreign"
    after = [d for _, d in server.commits[server.commits.index((PATH, b"foreign")) + 1 :]]
    assert after == [], "a foreign change was overwritten"
    assert server.files[PATH] == b"foreign"
    failed = spool.failed_items()
    assert spool.pending_count() == 0
    if texts[-1].encode() not in ours:  # the newest text is never lost
        assert [f.text for f in failed] == [texts[-1]]
        assert failed[0].failure == "conflict" and failed[0].their_sha == git_blob_sha(b"foreign")


def test_failed_item_of_another_lineage_is_kept(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock)
    enqueue(spool, "mine")
    server.put(PATH, b"theirs", S0)
    run(spool)  # conflict: the user has not resolved it yet
    enqueue(spool, "after reload", base=git_blob_sha(b"theirs"))
    run(spool)
    assert server.files[PATH] == b"after reload"
    assert [f.text for f in spool.failed_items()] == ["mine"]  # never dropped silently


def test_older_failed_item_of_same_lineage_is_absorbed(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env
    spool = make(tmp_path, remote, clock, max_attempts=1)
    old = enqueue(spool, "v1")
    remote.send_script = ["retry"]
    run(spool)
    assert [f.text for f in spool.failed_items()] == ["v1"]
    enqueue(spool, "v2")  # same base: the editor kept typing
    report = run(spool)
    assert server.commits_for() == [b"v2"] and spool.failed_items() == []
    assert old.id in report.committed[0].supersedes


def test_sender_may_report_conflict_without_sha(tmp_path: Path, env: Env) -> None:
    server, remote, clock = env

    async def sender(item: SpoolItem) -> SendOutcome:
        outcome = server.put(item.path, item.content_bytes(), item.base_sha)
        return NotAtBase(None) if isinstance(outcome, NotAtBase) else outcome

    spool = SaveSpool(tmp_path / "s", sender, remote.reader, clock=clock)
    enqueue(spool, "v1")
    server.put(PATH, b"theirs", S0)
    report = asyncio.run(spool.run_once())
    assert report.failed[0].their_sha == git_blob_sha(b"theirs")  # read back by the spool
    # our own earlier write, reported as a bare conflict, is still recognised: done
    enqueue(spool, "v2", base=git_blob_sha(b"theirs"))
    server.put(PATH, b"v2", git_blob_sha(b"theirs"))
    report = asyncio.run(spool.run_once())
    assert len(report.committed) == 1 and server.commits_for()[-1] == b"v2"
    assert server.commits_for().count(b"v2") == 1
