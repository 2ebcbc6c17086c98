"""Held-lock records: per-session files, leftovers after a crash, live instances, damage."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from modu_desktop.core.locks.held import (
    HeldLockRecord,
    HeldLockRegistry,
    ProcessState,
    process_start_token,
    process_state,
)

HOST = "https://api.github.com"


@pytest.fixture(autouse=True)
def _no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Skip fsync (a busy shared disk makes it slow); test_atomic checks it is normally done."""
    monkeypatch.setattr("modu_desktop.core.atomic.DURABLE", False)


def rec(doc_id: str, session: str, pid: int | None = None, sha: str = "s1") -> HeldLockRecord:
    record = HeldLockRecord(
        HOST, "pnuai/PNU-Modu", "main", doc_id, sha, session, 1000.0, login="editor1"
    )
    return record if pid is None else dataclasses.replace(record, pid=pid, proc_start=None)


def test_add_update_remove(tmp_path: Path) -> None:
    reg = HeldLockRegistry(tmp_path / "locks")
    reg.add(rec("01-intro", "s1"))
    reg.add(rec("bootcamp/00-overview", "s1"))
    reg.add(rec("01-intro", "s1", sha="s0"))  # replaces, no duplicate
    assert [r.doc_id for r in reg.records("s1")] == ["01-intro", "bootcamp/00-overview"]
    assert reg.update_sha("s1", HOST + "/", "pnuai/PNU-Modu", "main", "01-intro", "s2")
    assert not reg.update_sha("s1", HOST, "pnuai/PNU-Modu", "main", "nope", "s2")
    fresh = HeldLockRegistry(tmp_path / "locks")  # durable
    assert {r.doc_id: r.lock_sha for r in fresh.records()} == {
        "01-intro": "s2",
        "bootcamp/00-overview": "s1",
    }
    assert fresh.remove("s1", HOST, "pnuai/PNU-Modu", "main", "01-intro")
    assert not fresh.remove("s1", HOST, "pnuai/PNU-Modu", "main", "01-intro")
    assert fresh.remove("s1", HOST, "pnuai/PNU-Modu", "main", "bootcamp/00-overview")
    assert list((tmp_path / "locks").iterdir()) == []  # empty session file removed


def test_sessions_use_separate_files(tmp_path: Path) -> None:
    reg = HeldLockRegistry(tmp_path)
    reg.add(rec("a", "s1"))
    reg.add(rec("a", "../../s2"))
    assert len(list(tmp_path.iterdir())) == 2
    assert all(p.parent == tmp_path for p in tmp_path.iterdir())
    assert [r.session_id for r in reg.records("../../s2")] == ["../../s2"]


def test_leftovers_are_dead_sessions_only(tmp_path: Path) -> None:
    states = {"dead": ProcessState.DEAD, "live": ProcessState.ALIVE, "maybe": ProcessState.UNKNOWN}
    reg = HeldLockRegistry(tmp_path, liveness=lambda r: states[r.session_id])
    for session in ("dead", "live", "maybe", "current"):
        reg.add(rec(f"doc-{session}", session))
    assert [r.doc_id for r in reg.leftovers("current")] == ["doc-dead"]
    assert {r.doc_id for r in reg.leftovers("current", include_unknown=True)} == {
        "doc-dead",
        "doc-maybe",
    }
    assert {r.doc_id for r in reg.held_elsewhere("current")} == {"doc-live", "doc-maybe"}


def test_leftover_after_real_process_death(tmp_path: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        reg = HeldLockRegistry(tmp_path)
        token = process_start_token(child.pid)
        reg.add(
            HeldLockRecord(
                HOST, "o/r", "main", "d", "sha", "old", 1.0, pid=child.pid, proc_start=token
            )
        )
        assert reg.leftovers("new") == []  # the other instance is alive
        child.kill()
        if sys.platform.startswith("linux"):
            # not reaped yet: a zombie must count as dead (e2e tests kill with SIGKILL)
            deadline = time.monotonic() + 5
            while not reg.leftovers("new") and time.monotonic() < deadline:
                time.sleep(0.01)
            assert [r.doc_id for r in reg.leftovers("new")] == ["d"]
        child.wait()
        assert [r.doc_id for r in reg.leftovers("new")] == ["d"]
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_forget_and_adopt(tmp_path: Path) -> None:
    reg = HeldLockRegistry(tmp_path, liveness=lambda r: ProcessState.DEAD)
    reg.add(rec("a", "old", pid=999999))
    reg.add(rec("b", "old", pid=999999))
    left = reg.leftovers("new")
    mine = reg.adopt(left[0], "new")
    assert mine.session_id == "new" and mine.pid == os.getpid() and mine.lock_sha == "s1"
    assert reg.forget(left[1])
    assert [(r.doc_id, r.session_id) for r in reg.records()] == [("a", "new")]
    assert reg.leftovers("new") == []


def test_process_state_basics() -> None:
    assert process_state(os.getpid()) == ProcessState.ALIVE
    assert process_state(0) == ProcessState.UNKNOWN
    assert process_state(-1) == ProcessState.UNKNOWN
    if sys.platform.startswith("linux"):
        token = process_start_token(os.getpid())
        assert token is not None
        assert process_state(os.getpid(), token) == ProcessState.ALIVE
        assert process_state(os.getpid(), "1") == ProcessState.DEAD  # pid reused


def test_other_host_is_unknown(tmp_path: Path) -> None:
    reg = HeldLockRegistry(tmp_path)
    reg.add(HeldLockRecord(HOST, "o/r", "main", "d", "s", "old", 1.0, hostname="elsewhere"))
    assert reg.leftovers("new") == []
    assert len(reg.leftovers("new", include_unknown=True)) == 1


@pytest.mark.expect_log("modu_desktop.core.locks.held")
def test_damaged_files_never_crash_or_hide_others(tmp_path: Path) -> None:
    reg = HeldLockRegistry(tmp_path, liveness=lambda r: ProcessState.DEAD)
    reg.add(rec("good", "s-good"))
    reg.add(rec("victim", "s-victim"))
    victim = reg._path("s-victim")
    data = victim.read_bytes()
    for cut in range(0, len(data) - 1, 5):
        victim.write_bytes(data[:cut])
        fresh = HeldLockRegistry(tmp_path, liveness=lambda r: ProcessState.DEAD)
        assert [r.doc_id for r in fresh.leftovers("now")] == ["good"], cut
        assert len(fresh.problems) == 1 and fresh.problems[0].moved_to is not None
    for garbage in (b"", b"\x00\x01", b"[]", b"{}"):
        victim.write_bytes(garbage)
        assert [r.doc_id for r in reg.records()] == ["good"]


def test_concurrent_adds(tmp_path: Path) -> None:
    reg = HeldLockRegistry(tmp_path)

    def worker(n: int) -> None:
        for i in range(10):
            reg.add(rec(f"doc{n}-{i}", "s1"))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(reg.records("s1")) == 40


@pytest.mark.expect_log("modu_desktop.core.locks.held")
@pytest.mark.parametrize("bad", [{"pid": "x"}, {"doc_id": 3}, {"acquired_at": True}])
def test_invalid_record_is_reported(tmp_path: Path, bad: dict[str, object]) -> None:
    from modu_desktop.core.atomic import seal

    good = rec("a", "s1").to_json()
    path = tmp_path / ("0" * 32 + ".locks.json")
    path.write_bytes(seal("modu-held-locks", 1, {"records": [{**good, **bad}]}))
    reg = HeldLockRegistry(tmp_path)
    assert reg.records() == [] and len(reg.problems) == 1


# -- single instance (modu_desktop.core.account.instance) ------------------------------------------


def test_instance_lock_is_exclusive_and_released(tmp_path: Path) -> None:
    from modu_desktop.core.account.instance import InstanceLock, server_name

    name = server_name("modu-desktop", tmp_path)
    assert name == server_name("modu-desktop", tmp_path / ".")
    assert name != server_name("modu-desktop", tmp_path / "other") and len(name) < 40
    first, second = (
        InstanceLock(tmp_path / "instance.lock"),
        InstanceLock(tmp_path / "instance.lock"),
    )
    assert first.acquire(server=name) and first.acquire()
    assert not second.acquire()
    owner = second.owner()
    assert owner is not None and owner["pid"] == os.getpid() and owner["server"] == name
    first.release()
    with second:
        assert second.acquire() and second.held
    assert not second.held


def test_instance_lock_freed_when_holder_is_killed(tmp_path: Path) -> None:
    from modu_desktop.core.account.instance import InstanceLock

    lock_path = tmp_path / "instance.lock"
    code = (
        "import sys, time\n"
        "from modu_desktop.core.account.instance import InstanceLock\n"
        f"lock = InstanceLock({str(lock_path)!r})\n"
        "assert lock.acquire(server='x')\n"
        "print('ready', flush=True)\n"
        "time.sleep(30)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == b"ready"
        mine = InstanceLock(lock_path)
        assert not mine.acquire()
        assert (mine.owner() or {}).get("pid") == child.pid
        child.kill()  # SIGKILL: no cleanup code runs
        child.wait()
        assert mine.acquire()
        mine.release()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_requests_round_trip_and_reject_garbage() -> None:
    from modu_desktop.core.account.instance import decode_request, encode_request

    line = encode_request("open", doc_id="bootcamp/한글 문서", repo="pnuai/PNU-Modu")
    assert line.endswith(b"\n")
    assert decode_request(line) == {
        "action": "open",
        "doc_id": "bootcamp/한글 문서",
        "repo": "pnuai/PNU-Modu",
    }
    for garbage in (b"", b"\xff", b"[1]", b'{"action": 3}', b"{" * 10, b"x" * 70000):
        assert decode_request(garbage) is None
