"""Take-over after the holder heartbeated, and lock files that never name the machine."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

from modu_desktop.core.account.session import INSTALL_ID_FILE, install_id
from modu_desktop.core.locks import words as lock_words
from modu_desktop.core.locks.model import AcquireOutcome, LockCode, LockStatus
from modu_desktop.core.locks.wire import parse_lock
from tests.helpers.lock_fakes import FakeClient, LockEnv
from tests.helpers.lock_sandbox import DOC, PATH, run_managers, web_peer


def test_take_over_succeeds_when_the_holder_only_heartbeated_meanwhile() -> None:
    env = LockEnv()
    alice, bob = env.manager("editor1", "s1"), env.manager("editor2", "s2")

    async def body() -> None:
        held = (await alice.acquire("d")).held
        assert held is not None
        view = (await bob.acquire("d")).view  # the dialog opens on this view
        assert view is not None and view.status is LockStatus.HELD
        for _ in range(2):  # Alice heartbeats twice while Bob reads the dialog
            env.t += 10
            assert (await alice.heartbeat(held)).still_held
        assert held.sha != view.sha
        took = await bob.steal(view)
        assert took.outcome is AcquireOutcome.TOOK_OVER, took.text.en
        assert took.code is LockCode.TOOK_OVER
        assert took.text.en == "You took over the lock on “d” from @editor1."
        rec = parse_lock(env.repo.read(".locks/d.lock.json") or b"", "d")
        assert rec.editing_by == "editor2" and rec.session_id == "s2"
        assert not (await alice.heartbeat(held)).still_held  # Alice learns at her next beat

    asyncio.run(body())


def test_take_over_of_a_released_lock_just_takes_it() -> None:
    env = LockEnv()
    alice, bob = env.manager("editor1", "s1"), env.manager("editor2", "s2")

    async def body() -> None:
        held = (await alice.acquire("d")).held
        assert held is not None
        view = (await bob.acquire("d")).view
        assert view is not None
        await alice.release(held)
        took = await bob.steal(view)
        assert took.held is not None, took.text.en
        assert parse_lock(env.repo.read(".locks/d.lock.json") or b"", "d").editing_by == "editor2"

    asyncio.run(body())


def test_take_over_is_refused_naming_a_third_person_who_took_it_meanwhile() -> None:
    env = LockEnv()
    alice, bob, carol = (
        env.manager("editor1", "s1"),
        env.manager("editor2", "s2"),
        env.manager("carol", "s3"),
    )

    async def body() -> None:
        assert (await alice.acquire("d")).ok
        view = (await bob.acquire("d")).view
        carol_view = (await carol.acquire("d")).view
        assert view is not None and carol_view is not None
        assert (await carol.steal(carol_view)).outcome is AcquireOutcome.TOOK_OVER
        writes = len(env.repo.commits)
        lost = await bob.steal(view)
        assert lost.outcome is AcquireOutcome.LOST_RACE
        assert (
            lost.code is LockCode.TAKEN_FIRST
            and lost.text.en == "@carol took the lock on “d” first."
        )
        assert lost.view is not None and lost.view.holder == "carol"
        assert len(env.repo.commits) == writes  # nothing written over Carol's lock

    asyncio.run(body())


def test_take_over_after_the_web_admin_heartbeated(sandbox: Any) -> None:
    """The web admin has no session id: its claim is its login and its startedAt."""
    sb = sandbox

    async def body(bob: Any) -> None:
        web = web_peer(sb, "webstaff", "tok-editor1")
        assert (await web.open(DOC)).outcome == "acquired"
        view = (await bob.acquire(DOC)).view
        assert view is not None and view.holder == "webstaff"
        await web.heartbeat()
        took = await bob.steal(view)
        assert took.outcome is AcquireOutcome.TOOK_OVER, took.text.en
        assert parse_lock(sb.read_file(PATH), DOC).editing_by == "editor2"
        await web.api.aclose()

    run_managers(sb, body, "editor2")


def test_a_new_claim_by_the_same_person_is_news(sandbox: Any) -> None:
    """The holder closed and re-opened in the meantime (a new startedAt): ask again."""
    sb = sandbox

    async def body(bob: Any) -> None:
        web = web_peer(sb, "webstaff", "tok-editor1")
        assert (await web.open(DOC)).outcome == "acquired"
        view = (await bob.acquire(DOC)).view
        assert view is not None
        await web.close()
        web.skew_s = 5  # a later start
        assert (await web.open(DOC)).outcome == "acquired"
        lost = await bob.steal(view)
        assert lost.outcome is AcquireOutcome.LOST_RACE
        assert lost.code is LockCode.TAKEN_FIRST and "@webstaff" in lost.text.en
        assert parse_lock(sb.read_file(PATH), DOC).editing_by == "webstaff"
        await web.api.aclose()

    run_managers(sb, body, "editor2")


# ---------------------------------------------------- lock files never name the machine


def test_install_id_is_random_kept_in_the_data_folder_and_not_the_host(tmp_path: Path) -> None:
    first = install_id(tmp_path)
    assert len(first) == 16 and int(first, 16) >= 0
    assert (tmp_path / INSTALL_ID_FILE).read_text("ascii") == first
    assert install_id(tmp_path) == first  # the same install keeps its id
    assert install_id(tmp_path / "other") != first  # another install gets another
    (tmp_path / INSTALL_ID_FILE).write_text("vm", "ascii")  # damaged: replaced, never echoed
    again = install_id(tmp_path)
    assert again != "vm" and len(again) == 16
    assert socket.gethostname() not in {first, again}


def test_lock_files_carry_the_install_id_not_the_machine_name(sandbox: Any) -> None:
    sb = sandbox

    async def body(m: Any) -> None:
        assert (await m.acquire(DOC)).held is not None
        raw = sb.read_file(PATH)
        fields = json.loads(raw)
        assert "host" not in fields
        assert fields["installId"] == m.install_id
        assert socket.gethostname().split(".")[0] not in raw.decode()

    run_managers(sb, body, "editor1")


def test_default_manager_never_writes_the_host_name() -> None:
    env = LockEnv()
    from modu_desktop.core.locks.manager import LockManager

    m = LockManager(FakeClient(env.repo, "editor1"), "editor1", "s1", lambda: env.t)
    body = json.loads(m.acquire_body("d", int(env.t)))
    assert "host" not in body and body["installId"] == m.install_id
    assert socket.gethostname().split(".")[0] not in json.dumps(body)


def test_old_locks_with_a_host_key_are_still_read() -> None:
    old = {
        "docId": "d",
        "editingBy": "editor1",
        "startedAt": 1_790_000_000,
        "lastHeartbeat": 1_790_000_000,
        "client": "ModuDesktop",
        "sessionId": "s-old",
        "host": "vm",
    }
    rec = parse_lock(json.dumps(old, indent=2), "d")
    assert not rec.is_malformed and rec.host == "vm" and rec.install_id is None
    assert rec.session_id == "s-old" and "host" not in rec.extra


def test_same_login_elsewhere_is_told_apart_by_install_id() -> None:
    from modu_desktop.core.locks.manager import LockManager

    env = LockEnv()

    def mgr(session: str, install: str) -> LockManager:
        client = FakeClient(env.repo, "editor1")
        return LockManager(client, "editor1", session, lambda: env.t, install_id=install)

    here, window2, laptop = mgr("s1", "aaaa"), mgr("s2", "aaaa"), mgr("s3", "bbbb")

    async def body() -> None:
        assert (await here.acquire("d")).ok
        v2 = (await window2.acquire("d")).view
        v3 = (await laptop.acquire("d")).view
        assert v2 is not None and v3 is not None
        assert v2.status is v3.status is LockStatus.MINE_OTHER_SESSION
        assert v2.same_install and not v3.same_install
        assert "this computer" in lock_words.describe(v2).en
        assert "another computer" in lock_words.describe(v3).en

    asyncio.run(body())


def test_a_stale_lock_that_comes_back_to_life_is_not_taken_without_asking() -> None:
    env = LockEnv()
    alice, bob = env.manager("editor1", "s1"), env.manager("editor2", "s2")

    async def body() -> None:
        held = (await alice.acquire("d")).held
        assert held is not None
        env.t += 901
        view = await bob.inspect("d")
        assert view.status is LockStatus.STALE
        assert (await alice.heartbeat(held)).still_held  # Alice's laptop wakes up
        res = await bob.steal(view)
        assert res.outcome is AcquireOutcome.LOST_RACE and res.code is LockCode.TAKEN_FIRST
        assert res.text.en == "@editor1 took the lock on “d” first."
        assert parse_lock(env.repo.read(".locks/d.lock.json") or b"", "d").editing_by == "editor1"

    asyncio.run(body())


def test_the_old_host_argument_is_an_install_id_and_never_written_as_host() -> None:
    from modu_desktop.core.locks.manager import LockManager

    env = LockEnv()
    m = LockManager(FakeClient(env.repo, "editor1"), "editor1", "s1", lambda: env.t, host="pc1")
    body = json.loads(m.acquire_body("d", int(env.t)))
    assert m.install_id == "pc1" and body["installId"] == "pc1" and "host" not in body
