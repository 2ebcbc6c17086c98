"""Loopback integration tests of the lock protocol against the sandbox, with the real GitHub client
on our side and a peer that behaves exactly like the web admin on the other side."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from modu_desktop.core.github.client import WriteResult
from modu_desktop.core.github.clock import ServerClock
from modu_desktop.core.locks import words as lock_words
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.locks.model import (
    AcquireOutcome,
    HeartbeatOutcome,
    LockCode,
    LockStatus,
    ReleaseOutcome,
)
from modu_desktop.core.locks.news import holder_name
from modu_desktop.core.locks.wire import InvalidDocId, lock_path, parse_lock, render_lock
from tests.helpers.lock_sandbox import (
    DOC,
    PATH,
    run_managers,
    sandbox_client,
    sandbox_manager,
    web_peer,
)


def _stamped_between(stamp: float, before: float, after: float) -> bool:
    """``stamp`` was taken between ``before`` and ``after`` (a server clock learned from the
    1-second ``Date`` header may be off by up to a second either way)."""
    return before - 1.5 <= stamp <= after + 1.5


def _routes(sb: Any) -> dict[str, int]:
    return dict(sb.stats()["by_route"])


# ----------------------------------------------------------------------------- basic lifecycle


def test_acquire_heartbeat_release_wire_format_and_request_counts(sandbox: Any) -> None:
    sb = sandbox

    async def body(m: LockManager) -> None:
        before = time.time()
        res = await m.acquire(DOC)
        after = time.time()
        assert res.outcome is AcquireOutcome.ACQUIRED and res.held is not None
        held = res.held
        raw = sb.read_file(PATH)
        fields = json.loads(raw)
        assert list(fields) == [
            "docId", "editingBy", "startedAt", "lastHeartbeat",
            "client", "clientVersion", "sessionId", "installId",
        ]  # fmt: skip
        assert raw == render_lock(fields) and not raw.endswith(b"\n")
        assert raw.startswith(b'{\n  "docId": "01-welcome",\n  "editingBy": "editor1",\n')
        assert _stamped_between(fields["startedAt"], before, after)
        assert sb.commits(PATH)[0]["message"] == (
            "system: acquire lock for 01-welcome by @editor1 [skip ci]"
        )

        # A heartbeat looks, then writes: one conditional tree read, one conditional PUT.
        sb.reset_stats()
        beat = await m.heartbeat(held)
        stats = sb.stats()
        assert beat.outcome is HeartbeatOutcome.OK
        assert stats["total"] == 2, stats
        assert stats["by_method"] == {"GET": 1, "PUT": 1}
        assert stats["by_route"]["GET /repos/{owner}/{repo}/git/trees/{tree_sha}"] == 1
        assert sb.commits(PATH)[0]["message"] == "system: heartbeat for 01-welcome [skip ci]"
        hb_fields = json.loads(sb.read_file(PATH))
        assert list(hb_fields)[:4] == ["docId", "editingBy", "lastHeartbeat", "startedAt"]
        assert hb_fields["startedAt"] == fields["startedAt"]

        # verify before a save: one tree request when nothing changed.
        sb.reset_stats()
        assert (await m.verify(held)).ok
        assert sb.stats()["total"] == 1

        view = await m.inspect(DOC)
        assert view.status is LockStatus.MINE_THIS_SESSION and view.sha == held.sha

        rel = await m.release(held)
        assert rel.outcome is ReleaseOutcome.RELEASED
        assert sb.read_file(PATH) is None
        assert sb.commits(PATH)[0]["message"] == "system: release lock for 01-welcome [skip ci]"
        assert (await m.inspect(DOC)).status is LockStatus.FREE

    run_managers(sb, body, "editor1")


def test_lock_is_never_read_through_the_contents_api(sandbox: Any) -> None:
    sb = sandbox

    async def body(a: LockManager, b: LockManager) -> None:
        sb.reset_stats()
        held = (await a.acquire(DOC)).held
        assert held is not None
        await a.heartbeat(held)
        await a.verify(held)
        blocked = await b.acquire(DOC)
        assert blocked.view is not None
        took = await b.steal(blocked.view)
        assert took.held is not None
        await a.heartbeat(held)
        await a.release(held)
        await b.list_locks()
        await b.release(took.held)
        gets = [r for r in _routes(sb) if r.startswith("GET") and "/contents" in r]
        assert gets == [], gets

    run_managers(sb, body, "editor1", "editor2")


def test_hangul_doc_id_and_invalid_doc_ids(sandbox: Any) -> None:
    sb = sandbox

    async def body(m: LockManager) -> None:
        res = await m.acquire("한글 문서/개요 1")
        assert res.outcome is AcquireOutcome.ACQUIRED and res.held is not None
        raw = sb.read_file(".locks/한글 문서/개요 1.lock.json")
        assert raw is not None and '"docId": "한글 문서/개요 1"'.encode() in raw
        views = await m.list_locks()
        assert [v.doc_id for v in views] == ["한글 문서/개요 1"]
        assert (await m.release(res.held)).outcome is ReleaseOutcome.RELEASED
        for bad in ("../x", "/abs", "a\\b", "a//b", ""):
            with pytest.raises(InvalidDocId):
                await m.acquire(bad)

    run_managers(sb, body, "editor1")


# ----------------------------------------------------------------------------- classifications


def test_held_steal_lost_and_verify_refuses(sandbox: Any) -> None:
    sb = sandbox

    async def body(a: LockManager, b: LockManager) -> None:
        held_a = (await a.acquire(DOC)).held
        assert held_a is not None
        blocked = await b.acquire(DOC)
        assert blocked.outcome is AcquireOutcome.BLOCKED
        view = blocked.view
        assert view is not None and view.status is LockStatus.HELD
        assert view.holder == "editor1" and view.started_at is not None
        assert view.age_s is not None and view.age_s < 10
        assert "@editor1 is editing “01-welcome”" in lock_words.describe(view).en

        took = await b.steal(view)
        assert took.outcome is AcquireOutcome.TOOK_OVER and took.held is not None
        assert sb.commits(PATH)[0]["message"] == (
            "system: acquire lock for 01-welcome by @editor2 [skip ci]"
        )
        refused = await a.verify(held_a)
        assert not refused.ok and refused.code is LockCode.TAKEN_FROM_YOU
        assert refused.text.en.startswith("Not saved: @editor2 took over your lock on “01-welcome”")

        lost = await a.heartbeat(held_a)
        assert lost.outcome is HeartbeatOutcome.LOST and not lost.still_held
        assert lost.code is LockCode.TAKEN_FROM_YOU and lost.view is not None
        assert lost.text.en.startswith("@editor2 took over your lock on “01-welcome” at ")
        assert lost.text.ko.startswith(
            f"{lock_words.when(lost.view.started_at, lost.view.server_now).ko}에 editor2 님이 "
        )

        rel = await a.release(held_a)
        assert rel.outcome is ReleaseOutcome.NOT_OURS
        assert parse_lock(sb.read_file(PATH), DOC).editing_by == "editor2"  # left alone

    run_managers(sb, body, "editor1", "editor2")


def test_a_take_over_is_noticed_with_two_reads_and_no_write(sandbox: Any) -> None:
    """The one who lost the lock learns it at its next heartbeat from the branch's tree (the
    lock is not the blob it wrote) and the new lock's blob (who, since when): two requests,
    and no write meant to fail. A listing that cached the new lock spares the blob read."""
    sb = sandbox

    async def body(a: LockManager, b: LockManager) -> None:
        held = (await a.acquire(DOC)).held
        view = (await b.acquire(DOC)).view
        assert held is not None and view is not None
        took = await b.steal(view)
        assert took.held is not None
        commits = len(sb.commits(PATH))
        sb.reset_stats()
        lost = await a.heartbeat(held)
        stats = sb.stats()
        assert lost.outcome is HeartbeatOutcome.LOST and lost.code is LockCode.TAKEN_FROM_YOU
        assert lost.fields["who"] == holder_name("editor2")
        assert stats["total"] == 2 and stats["by_method"] == {"GET": 2}, stats
        assert stats["by_route"]["GET /repos/{owner}/{repo}/git/blobs/{file_sha}"] == 1
        assert len(sb.commits(PATH)) == commits  # nothing was written

        # Taken back by b's second window: a listing read the new lock, a's look is enough.
        held2 = (await a.acquire("02-programs")).held
        view2 = (await b.acquire("02-programs")).view
        assert held2 is not None and view2 is not None
        assert (await b.steal(view2)).held is not None
        await a.list_locks()
        sb.reset_stats()
        lost2 = await a.heartbeat(held2)
        assert lost2.code is LockCode.TAKEN_FROM_YOU and sb.stats()["total"] == 1

    run_managers(sb, body, "editor1", "editor2")


def test_a_released_lock_is_noticed_with_one_read(sandbox: Any) -> None:
    sb = sandbox

    async def body(a: LockManager, admin: LockManager) -> None:
        held = (await a.acquire(DOC)).held
        assert held is not None
        assert (await admin.release_view(await admin.inspect(DOC))).code is LockCode.RELEASED_FROM
        sb.reset_stats()
        gone = await a.heartbeat(held)
        assert gone.outcome is HeartbeatOutcome.RELEASED
        assert gone.code is LockCode.RELEASED_BY_OTHER and sb.stats()["total"] == 1
        assert sb.read_file(PATH) is None  # not re-created

    run_managers(sb, body, "editor1", "editor2")


def test_same_login_other_session_must_ask(sandbox: Any) -> None:
    sb = sandbox

    async def body(a: LockManager, a2: LockManager) -> None:
        held = (await a.acquire(DOC)).held
        assert held is not None
        res = await a2.acquire(DOC)
        assert res.outcome is AcquireOutcome.BLOCKED  # never taken silently
        assert res.view is not None and res.view.status is LockStatus.MINE_OTHER_SESSION
        assert (
            "on another computer" in lock_words.describe(res.view).en
        )  # a random id, never its name
        assert parse_lock(sb.read_file(PATH), DOC).session_id == "editor1-s1"
        took = await a2.steal(res.view)
        assert took.outcome is AcquireOutcome.TOOK_OVER
        lost = await a.heartbeat(held)
        assert lost.outcome is HeartbeatOutcome.LOST
        assert lost.code is LockCode.TAKEN_FROM_YOU_ELSEWHERE
        assert lost.text.en.startswith(
            "You (editor1) took over the lock on “01-welcome” on another"
        )

    run_managers(sb, body, "editor1", "editor1#2")


def test_stale_lock_is_taken_over_by_server_time(sandbox: Any) -> None:
    sb = sandbox

    async def body(a: LockManager, b: LockManager) -> None:
        held = (await a.acquire(DOC)).held
        assert held is not None
        assert (await b.acquire(DOC)).outcome is AcquireOutcome.BLOCKED
        sb.faults.clock_offset_seconds = 905  # the server's clock moves 15 min on
        before = time.time()
        took = await b.acquire(DOC)
        after = time.time()
        assert took.outcome is AcquireOutcome.TOOK_OVER, took.text.en
        assert took.view is not None and took.view.status is LockStatus.STALE
        # b stamps in server time, not in its local time
        started = parse_lock(sb.read_file(PATH), DOC).started_at
        assert started is not None and _stamped_between(started, before + 905, after + 905)
        lost = await a.heartbeat(held)
        assert lost.outcome is HeartbeatOutcome.LOST

    run_managers(sb, body, "editor1", "editor2")


def test_skewed_local_clock_neither_steals_fresh_locks_nor_writes_local_time(
    sandbox: Any,
) -> None:
    sb = sandbox

    async def main() -> None:
        a = sandbox_client(sb, "tok-editor1")
        # editor2's computer is 20 minutes fast
        b = sandbox_client(
            sb, "tok-editor2", clock=ServerClock(local_time=lambda: time.time() + 1200)
        )
        try:
            await a.get_user()
            ma, mb = sandbox_manager(a, "editor1", "s1"), sandbox_manager(b, "editor2", "s2")
            assert (await ma.acquire(DOC)).held is not None
            res = await mb.acquire(DOC)  # first request of b: the PUT teaches its clock
            assert res.outcome is AcquireOutcome.BLOCKED
            assert res.view is not None and res.view.status is LockStatus.HELD
            before = time.time()
            res2 = await mb.acquire("02-programs")
            after = time.time()
            assert res2.held is not None
            stamp = parse_lock(sb.read_file(lock_path("02-programs")), "02-programs").started_at
            assert stamp is not None and _stamped_between(stamp, before, after)
        finally:
            await a.aclose()
            await b.aclose()

    asyncio.run(main())


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"{broken", "not valid JSON"),
        (
            b'{\n  "docId": "01-welcome",\n  "editingBy": "bob",\n  "startedAt": 1779179716000,'
            b'\n  "lastHeartbeat": 1779179716000\n}',
            "milliseconds",
        ),
        (
            b'{"docId": "02-programs", "editingBy": "bob", "startedAt": 1, "lastHeartbeat": 1}',
            "does not match",
        ),
        (b'{"docId": "01-welcome", "editingBy": "bob"}', "missing key"),
    ],
)
def test_malformed_lock_is_held_by_unknown_and_can_be_stolen(
    sandbox: Any, raw: bytes, reason: str
) -> None:
    sb = sandbox

    async def body(other: LockManager, m: LockManager) -> None:
        await other.client.put_file(PATH, raw, "garbage lock")
        res = await m.acquire(DOC)
        assert res.outcome is AcquireOutcome.BLOCKED and res.view is not None
        assert res.view.status is LockStatus.MALFORMED and res.view.holder == "unknown"
        assert reason in (res.view.malformed_reason or "")
        views = await m.list_locks()
        assert [v.status for v in views] == [LockStatus.MALFORMED]
        took = await m.steal(res.view)
        assert took.outcome is AcquireOutcome.TOOK_OVER
        assert parse_lock(sb.read_file(PATH), DOC).editing_by == "editor1"

    run_managers(sb, body, "editor2", "editor1")


def test_losing_a_takeover_race_is_reported(sandbox: Any) -> None:
    sb = sandbox

    async def body(a: LockManager, b: LockManager) -> None:
        assert (await a.acquire(DOC)).held is not None
        view = (await b.acquire(DOC)).view
        assert view is not None
        web = web_peer(sb, "webstaff", "tok-editor2")  # a web admin tab forces the lock first
        assert (await web.open(DOC, force=True)).outcome == "took_over"
        commits = len(sb.commits(PATH))
        lost = await b.steal(view)
        assert lost.outcome is AcquireOutcome.LOST_RACE
        assert lost.code is LockCode.TAKEN_FIRST
        assert lost.text.en == "@webstaff took the lock on “01-welcome” first."
        assert len(sb.commits(PATH)) == commits  # no blind retry
        await web.api.aclose()

    run_managers(sb, body, "editor1", "editor2")


def test_free_race_between_two_creates(sandbox: Any) -> None:
    sb = sandbox

    async def body(a: LockManager, b: LockManager) -> None:
        r1, r2 = await asyncio.gather(a.acquire(DOC), b.acquire(DOC))
        outcomes = sorted([r1.outcome.value, r2.outcome.value])
        assert outcomes in (["acquired", "blocked"], ["acquired", "lost_race"]), outcomes
        winner = r1 if r1.held else r2
        holder = parse_lock(sb.read_file(PATH), DOC).editing_by
        assert holder == ("editor1" if winner is r1 else "editor2")

    run_managers(sb, body, "editor1", "editor2")


def test_viewer_cannot_lock(sandbox: Any) -> None:
    async def body(v: LockManager) -> None:
        res = await v.acquire(DOC)
        assert res.outcome is AcquireOutcome.FAILED and res.held is None
        assert res.code is LockCode.COULD_NOT_LOCK and res.error is not None
        assert res.text.en.startswith("Could not lock “01-welcome”: ")

    run_managers(sandbox, body, "viewer")


# ----------------------------------------------------------------------------- failures


def test_heartbeat_misses_are_counted_then_recover(sandbox: Any) -> None:
    sb = sandbox

    async def body(m: LockManager) -> None:
        held = (await m.acquire(DOC)).held
        assert held is not None
        sb.faults.update(failure_rate=1.0, failure_kinds=("reset",))
        r1 = await m.heartbeat(held)
        r2 = await m.heartbeat(held)
        sb.faults.update(failure_rate=0.0)
        assert r1.outcome is r2.outcome is HeartbeatOutcome.MISSED and r2.still_held
        assert r2.misses == 2
        assert r2.code is LockCode.MISSED and r2.fields["minutes"] == 15
        assert "expires within 15 min unless the connection comes back" in r2.text.en
        ok = await m.heartbeat(held)
        assert ok.outcome is HeartbeatOutcome.OK and held.misses == 0

    run_managers(sb, body, "editor1")


def test_lost_heartbeat_response_is_adopted_not_reported_as_lost(sandbox: Any) -> None:
    sb = sandbox

    async def body(m: LockManager) -> None:
        held = (await m.acquire(DOC)).held
        assert held is not None
        before = sb.read_file(PATH)
        look = m.reader.lock_sha

        async def look_then_lose_answers(doc_id: str) -> str | None:
            sha = await look(doc_id)  # the heartbeat's look gets its answer; the write does not
            sb.faults.update(failure_rate=1.0, failure_kinds=("lost_response",))
            return sha

        m.reader.lock_sha = look_then_lose_answers  # type: ignore[method-assign]
        r1 = await m.heartbeat(held)
        m.reader.lock_sha = look  # type: ignore[method-assign]
        sb.faults.update(failure_rate=0.0)
        assert r1.outcome in (HeartbeatOutcome.MISSED, HeartbeatOutcome.OK)
        assert sb.read_file(PATH) != before  # the write happened
        r2 = await m.heartbeat(held)
        assert r2.outcome is HeartbeatOutcome.OK, r2.text.en
        assert (await m.verify(held)).ok
        assert (await m.release(held)).outcome is ReleaseOutcome.RELEASED

    run_managers(sb, body, "editor1")


def test_release_of_a_lock_already_gone(sandbox: Any) -> None:
    sb = sandbox

    async def body(m: LockManager, admin: LockManager) -> None:
        held = (await m.acquire(DOC)).held
        assert held is not None
        view = await admin.inspect(DOC)
        assert view.sha is not None
        await admin.client.delete_file(PATH, view.sha, "admin")
        v = await m.verify(held)
        assert not v.ok and v.code is LockCode.RELEASED_BY_OTHER
        assert v.text.en == "Not saved: Someone else released your lock on “01-welcome”."
        assert (await m.release(held)).outcome is ReleaseOutcome.ALREADY_GONE

    run_managers(sb, body, "editor1", "editor2")


@pytest.mark.skipif(
    "created" not in getattr(WriteResult, "__dataclass_fields__", {}),
    reason="GitHubClient's WriteResult has no `created` flag (201 vs 200) yet: a heartbeat on a "
    "released lock re-creates it (GitHub ignores the sha of a missing path)",
)
def test_heartbeat_after_release_by_someone_reports_released(sandbox: Any) -> None:
    sb = sandbox

    async def body(m: LockManager, admin: LockManager) -> None:
        held = (await m.acquire(DOC)).held
        assert held is not None
        view = await admin.inspect(DOC)
        assert view.sha is not None
        await admin.client.delete_file(PATH, view.sha, "admin")
        res = await m.heartbeat(held)
        assert res.outcome is HeartbeatOutcome.RELEASED
        assert sb.read_file(PATH) is None

    run_managers(sb, body, "editor1", "editor2")


# ----------------------------------------------------------------------------- web admin interop


def test_web_admin_lock_is_understood_and_ours_is_respected_by_it(sandbox: Any) -> None:
    sb = sandbox

    async def body(m: LockManager) -> None:
        web = web_peer(sb, "editor2", "tok-editor2")
        assert (await web.open(DOC)).outcome == "acquired"
        raw = sb.read_file(PATH)
        assert list(json.loads(raw)) == ["docId", "editingBy", "startedAt", "lastHeartbeat"]
        res = await m.acquire(DOC)
        assert res.outcome is AcquireOutcome.BLOCKED and res.view is not None
        assert res.view.status is LockStatus.HELD and res.view.holder == "editor2"
        assert res.view.record is not None and res.view.record.session_id is None
        # its heartbeat keeps the lock, in its own key order
        assert await web.heartbeat() == "ok"
        assert list(json.loads(sb.read_file(PATH)))[:4] == [
            "docId", "editingBy", "lastHeartbeat", "startedAt",
        ]  # fmt: skip
        assert await web.close() == "released"

        held = (await m.acquire(DOC)).held
        assert held is not None
        web2 = web_peer(sb, "editor2", "tok-editor2")
        opened = await web2.open(DOC)
        assert opened.outcome == "locked" and opened.holder == "editor1"  # our extra keys are fine
        assert (await m.release(held)).outcome is ReleaseOutcome.RELEASED
        await web.api.aclose()
        await web2.api.aclose()

    run_managers(sb, body, "editor1")


def test_stealing_from_the_web_admin_makes_it_read_only(sandbox: Any) -> None:
    sb = sandbox

    async def body(m: LockManager) -> None:
        web = web_peer(sb, "editor2", "tok-editor2")
        assert (await web.open(DOC)).outcome == "acquired"
        view = (await m.acquire(DOC)).view
        assert view is not None
        assert (await m.steal(view)).outcome is AcquireOutcome.TOOK_OVER
        assert await web.heartbeat() == "lost" and web.read_only
        await web.api.aclose()

    run_managers(sb, body, "editor1")


def test_web_admin_same_login_silently_reacquires_and_we_notice(sandbox: Any) -> None:
    sb = sandbox

    async def body(m: LockManager) -> None:
        held = (await m.acquire(DOC)).held
        assert held is not None
        web = web_peer(sb, "editor1", "tok-editor1")
        assert (await web.open(DOC)).outcome == "reacquired"  # its weakness
        lost = await m.heartbeat(held)
        assert lost.outcome is HeartbeatOutcome.LOST
        assert lost.code is LockCode.TAKEN_FROM_YOU_ELSEWHERE
        assert "in another window (the web admin" in lost.text.en
        assert not (await m.verify(held)).ok
        await web.api.aclose()

    run_managers(sb, body, "editor1")


def test_web_admin_takeover_with_a_fast_clock_is_learned_at_next_heartbeat(
    sandbox: Any,
) -> None:
    sb = sandbox

    async def body(m: LockManager) -> None:
        held = (await m.acquire(DOC)).held
        assert held is not None
        fast = web_peer(sb, "editor2", "tok-editor2", skew=+905)  # thinks our fresh lock is stale
        before = time.time()
        assert (await fast.open(DOC)).outcome == "took_over"
        stamp = parse_lock(sb.read_file(PATH), DOC).started_at
        assert stamp is not None and stamp >= before + 905 - 1  # its own fast clock's seconds
        # From our side (server time) its lock looks fresh: we do not take it back silently.
        lost = await m.heartbeat(held)
        assert lost.outcome is HeartbeatOutcome.LOST
        res = await m.acquire(DOC)
        assert res.outcome is AcquireOutcome.BLOCKED
        assert res.view is not None and res.view.status is LockStatus.HELD
        await fast.api.aclose()

    run_managers(sb, body, "editor1")


def test_stale_contents_cache_fools_the_web_admin_not_us(sandbox: Any) -> None:
    sb = sandbox

    async def body(m: LockManager) -> None:
        web = web_peer(sb, "editor2", "tok-editor2")
        assert (await web.open(DOC)).outcome == "acquired"
        sb.faults.stale_contents_seconds = 60
        view = (await m.acquire(DOC)).view
        assert view is not None
        assert (await m.steal(view)).outcome is AcquireOutcome.TOOK_OVER
        # We see our own lock at once (tree + blob)...
        assert (await m.inspect(DOC)).status is LockStatus.MINE_THIS_SESSION
        # ...while the web admin still reads its old lock from the cache; its heartbeat PUT then
        # fails on the sha (silently, in the real page) and cannot overwrite ours.
        assert await web.heartbeat() == "error"
        assert parse_lock(sb.read_file(PATH), DOC).editing_by == "editor1"
        await web.api.aclose()

    run_managers(sb, body, "editor1")


def test_web_admin_crash_leftover_is_taken_over_once_stale(sandbox: Any) -> None:
    sb = sandbox

    async def body(m: LockManager) -> None:
        web = web_peer(sb, "editor2", "tok-editor2")
        assert (await web.open(DOC)).outcome == "acquired"
        web.crash()
        assert (await m.acquire(DOC)).outcome is AcquireOutcome.BLOCKED
        sb.faults.clock_offset_seconds = 905
        res = await m.acquire(DOC)
        assert res.outcome is AcquireOutcome.TOOK_OVER, res.text.en
        await web.api.aclose()

    run_managers(sb, body, "editor1")


def test_truncated_tree_is_walked(sandbox: Any) -> None:
    sb = sandbox
    docs = ["01-welcome", "02-programs", "bootcamp/00-overview", "bootcamp/01-x", "한글 문서"]

    async def body(m: LockManager) -> None:
        helds = []
        for doc in docs:
            res = await m.acquire(doc)
            assert res.held is not None
            helds.append(res.held)
        # Recursive listings (whole branch, and .locks with 6 entries) now come back truncated;
        # one level at a time still fits.
        sb.faults.tree_entry_limit = 5
        sb.reset_stats()
        views = await m.list_locks()
        trees = sum(n for r, n in _routes(sb).items() if "/git/trees/" in r)
        assert trees == 5  # branch (truncated), root level, .locks (truncated), 2 levels
        assert [v.doc_id for v in views] == sorted(docs)
        assert all(v.status is LockStatus.MINE_THIS_SESSION for v in views)
        view = await m.inspect("bootcamp/01-x")
        assert view.status is LockStatus.MINE_THIS_SESSION
        assert (await m.verify(helds[2])).ok

    run_managers(sb, body, "editor1")
