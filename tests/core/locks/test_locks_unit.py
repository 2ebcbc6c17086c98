"""Unit tests of the lock format, parsing, classification and manager flows (in-memory fake)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.github.client import NetworkError, WriteResult
from modu_desktop.core.locks import words as lock_words
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.locks.model import (
    AcquireOutcome,
    HeartbeatOutcome,
    LockCode,
    LockStatus,
    ReleaseOutcome,
    classify,
)
from modu_desktop.core.locks.news import holder_name
from modu_desktop.core.locks.wire import (
    UNKNOWN_HOLDER,
    InvalidDocId,
    acquire_message,
    doc_id_from_lock_path,
    heartbeat_message,
    lock_path,
    parse_lock,
    release_message,
    render_lock,
    validate_doc_id,
)
from modu_desktop.core.locks.words import format_age
from tests.helpers.lang import in_lang
from tests.helpers.lock_fakes import T0, FakeClient, FakeRepo, LockEnv

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pnu-modu"


# ----------------------------------------------------------------------------- format


def test_render_matches_the_web_admin_fixture_byte_for_byte() -> None:
    sample = (FIXTURES / "lock-sample.json").read_bytes()
    fields = json.loads(sample)
    assert list(fields) == ["docId", "editingBy", "startedAt", "lastHeartbeat"]
    assert render_lock(fields) == sample.rstrip(b"\n") or render_lock(fields) == sample
    assert not render_lock(fields).endswith(b"\n")
    assert render_lock(fields).startswith(b'{\n  "docId": "01-intro",\n  "editingBy"')


def test_acquire_and_heartbeat_bodies_use_the_web_admin_key_orders() -> None:
    mgr = LockManager(
        FakeClient(FakeRepo(now=lambda: T0), "editor1"),
        "editor1",
        "sess1",
        lambda: T0,
        install_id="pc1",
        client_version="9.9",
    )
    body = mgr.acquire_body("소개 문서", T0)
    assert (
        body
        == (
            '{\n  "docId": "소개 문서",\n  "editingBy": "editor1",\n  "startedAt": 1790000000,\n'
            '  "lastHeartbeat": 1790000000,\n  "client": "ModuDesktop",\n'
            '  "clientVersion": "9.9",\n'
            '  "sessionId": "sess1",\n  "installId": "pc1"\n}'
        ).encode()
    )
    beat = json.loads(mgr.heartbeat_body("x", T0, T0 + 5))
    assert list(beat)[:4] == ["docId", "editingBy", "lastHeartbeat", "startedAt"]
    assert beat["startedAt"] == T0 and beat["lastHeartbeat"] == T0 + 5


def test_commit_messages_are_the_web_admins() -> None:
    assert acquire_message("01-intro", "editor1") == (
        "system: acquire lock for 01-intro by @editor1 [skip ci]"
    )
    assert heartbeat_message("01-intro") == "system: heartbeat for 01-intro [skip ci]"
    assert release_message("01-intro") == "system: release lock for 01-intro [skip ci]"
    log = (FIXTURES / "commit-log.tsv").read_text(encoding="utf-8")
    subjects = {line.split("\t")[2] for line in log.splitlines()[1:] if line.count("\t") >= 2}
    assert acquire_message("01-intro", "editor1") in subjects
    assert release_message("01-intro") in subjects


# ----------------------------------------------------------------------------- doc ids


@pytest.mark.parametrize(
    "doc_id", ["01-intro", "bootcamp/00-overview", "소개", "한글 문서/개요 1", "a.b"]
)
def test_valid_doc_ids(doc_id: str) -> None:
    assert validate_doc_id(doc_id) == doc_id
    assert doc_id_from_lock_path(lock_path(doc_id)) == doc_id


@pytest.mark.parametrize(
    ("doc_id", "words"),
    [
        ("", "empty"),
        ("../etc/passwd", "'..'"),
        ("a/../b", "'..'"),
        ("./a", "'.'"),
        ("/abs", "absolute"),
        ("C:/x", "absolute"),
        ("a\\b", "backslash"),
        ("a//b", "empty path segment"),
        ("a/", "empty path segment"),
        ("a\nb", "control"),
    ],
)
def test_invalid_doc_ids_are_rejected_with_a_reason(doc_id: str, words: str) -> None:
    with pytest.raises(InvalidDocId, match=words.replace(".", r"\.")):
        validate_doc_id(doc_id)


def test_doc_id_from_lock_path_ignores_other_files() -> None:
    assert doc_id_from_lock_path(".locks/.gitkeep") is None
    assert doc_id_from_lock_path("docs/01-intro.md") is None
    assert doc_id_from_lock_path(".locks/a/b.lock.json") == "a/b"


# ----------------------------------------------------------------------------- parsing


def test_parse_the_fixture() -> None:
    rec = parse_lock((FIXTURES / "lock-sample.json").read_bytes(), "01-intro")
    assert rec.malformed is None
    assert (rec.editing_by, rec.started_at, rec.last_heartbeat) == (
        "editor1",
        1779179716,
        1779179716,
    )
    assert rec.session_id is None


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"{not json", "not valid JSON"),
        (b"", "empty"),
        (b"\xff\xfe", "not UTF-8"),
        (b"[1, 2]", "JSON list"),
        (b'{"docId": "d", "editingBy": "x", "startedAt": 1}', "missing key(s): lastHeartbeat"),
        (
            b'{"docId": "d", "editingBy": "x", "startedAt": 1779179716000, '
            b'"lastHeartbeat": 1779179716000}',
            "milliseconds",
        ),
        (
            b'{"docId": "other", "editingBy": "x", "startedAt": 1, "lastHeartbeat": 1}',
            "does not match",
        ),
        (
            b'{"docId": "d", "editingBy": 7, "startedAt": 1, "lastHeartbeat": 1}',
            "editingBy is not a login",
        ),
        (
            b'{"docId": "d", "editingBy": "x", "startedAt": "1", "lastHeartbeat": 1}',
            "startedAt is a str",
        ),
        (
            b'{"docId": "d", "editingBy": "x", "startedAt": 1, "lastHeartbeat": true}',
            "lastHeartbeat is a bool",
        ),
        (
            b'{"docId": "d", "editingBy": "x", "startedAt": 1, "lastHeartbeat": 1.5}',
            "lastHeartbeat is a float",
        ),
        (b'{"docId": 3, "editingBy": "x", "startedAt": 1, "lastHeartbeat": 1}', "docId is a int"),
        (b"[" * 100_000, "not valid JSON"),
    ],
)
def test_malformed_locks_are_held_by_unknown_with_a_reason(raw: bytes, reason: str) -> None:
    rec = parse_lock(raw, "d")
    assert rec.malformed is not None and reason in rec.malformed
    assert rec.editing_by == UNKNOWN_HOLDER


def test_millisecond_lock_keeps_a_usable_time_and_the_claimed_holder() -> None:
    raw = (
        b'{"docId": "d", "editingBy": "bob", "startedAt": 1779179716000, '
        b'"lastHeartbeat": 1779179716123}'
    )
    rec = parse_lock(raw, "d")
    assert rec.claimed_by == "bob" and rec.last_heartbeat == 1779179716
    view = classify(
        "d", "sha", rec, login="me", session_id="s", server_now=1779179716 + 60, stale_s=900
    )
    assert view.status is LockStatus.MALFORMED
    assert lock_words.describe(view).en == "“d” has a lock file that cannot be read; it names @bob."


def test_unknown_keys_are_ignored_and_kept() -> None:
    raw = b'{"docId": "d", "editingBy": "x", "startedAt": 5, "lastHeartbeat": 6, "tabId": "t"}'
    rec = parse_lock(raw, "d")
    assert rec.malformed is None and rec.extra == {"tabId": "t"}


# ----------------------------------------------------------------------------- classify


def _rec(by: str, beat: int, session: str | None = None) -> bytes:
    fields: dict[str, object] = {
        "docId": "d",
        "editingBy": by,
        "startedAt": beat,
        "lastHeartbeat": beat,
    }
    if session:
        fields["sessionId"] = session
    return render_lock(fields)


@pytest.mark.parametrize(
    ("by", "session", "age", "expected"),
    [
        ("me", "s1", 10, LockStatus.MINE_THIS_SESSION),
        ("ME", "s1", 10, LockStatus.MINE_THIS_SESSION),
        ("me", "s2", 10, LockStatus.MINE_OTHER_SESSION),
        ("me", None, 10, LockStatus.MINE_OTHER_SESSION),
        ("me", "s2", 900, LockStatus.STALE),
        ("bob", None, 899, LockStatus.HELD),
        ("bob", None, 900, LockStatus.STALE),
        ("bob", None, -300, LockStatus.HELD),
    ],
)
def test_classification(by: str, session: str | None, age: int, expected: LockStatus) -> None:
    rec = parse_lock(_rec(by, T0 - age, session), "d")
    view = classify("d", "sha", rec, login="me", session_id="s1", server_now=T0, stale_s=900)
    assert view.status is expected
    assert lock_words.describe(view)


def test_free_and_age_formatting() -> None:
    view = classify("d", None, None, login="me", session_id="s", server_now=T0, stale_s=900)
    assert view.status is LockStatus.FREE and view.holder is None
    assert (
        format_age(59) == "59 s" and format_age(61) == "1 min" and format_age(3700) == "1 h 1 min"
    )


# ----------------------------------------------------------------------------- manager


def test_acquire_heartbeat_release_flow() -> None:
    env = LockEnv()
    a = env.manager("editor1", "s1")

    async def run() -> None:
        res = await a.acquire("01-intro")
        assert res.outcome is AcquireOutcome.ACQUIRED and res.held is not None
        held = res.held
        assert env.repo.commits[-1].message == acquire_message("01-intro", "editor1")
        env.t += 300
        before = env.repo.total_requests
        hb = await a.heartbeat(held)
        assert hb.outcome is HeartbeatOutcome.OK
        assert env.repo.total_requests - before == 2  # one look (a tree), one PUT
        assert env.repo.requests["GET tree"] == 1
        body = json.loads(env.repo.read(".locks/01-intro.lock.json") or b"")
        assert body["lastHeartbeat"] == T0 + 300 and body["startedAt"] == T0
        assert (await a.verify(held)).ok
        again = await a.acquire("01-intro")
        assert again.outcome is AcquireOutcome.REUSED
        rel = await a.release(held)
        assert rel.outcome is ReleaseOutcome.RELEASED
        assert env.repo.read(".locks/01-intro.lock.json") is None

    asyncio.run(run())


def test_steal_and_the_robbed_learns_at_next_heartbeat() -> None:
    env = LockEnv()
    a = env.manager("editor1", "s1")
    b = env.manager("editor2", "s2")

    async def run() -> None:
        held_a = (await a.acquire("d")).held
        assert held_a is not None
        blocked = await b.acquire("d")
        assert blocked.outcome is AcquireOutcome.BLOCKED and blocked.view is not None
        assert blocked.view.status is LockStatus.HELD and blocked.view.holder == "editor1"
        env.t += 30
        stolen = await b.steal(blocked.view)
        assert stolen.outcome is AcquireOutcome.TOOK_OVER
        v = await a.verify(held_a)
        assert (
            not v.ok
            and v.code is LockCode.TAKEN_FROM_YOU
            and v.fields["who"] == holder_name("editor2")
        )
        hb = await a.heartbeat(held_a)
        assert hb.outcome is HeartbeatOutcome.LOST and hb.code is LockCode.TAKEN_FROM_YOU
        assert hb.text.en.startswith("@editor2 took over your lock on “d” at ")
        assert hb.text.en.endswith(". The document is read-only now.")
        rel = await a.release(held_a)
        assert rel.outcome is ReleaseOutcome.NOT_OURS
        assert env.repo.read(".locks/d.lock.json") is not None  # left alone

    asyncio.run(run())


def test_losing_a_steal_race_is_reported_not_retried() -> None:
    env = LockEnv()
    a, b, c = env.manager("editor1", "s1"), env.manager("editor2", "s2"), env.manager("x", "s3")

    async def run() -> None:
        assert (await a.acquire("d")).ok
        view_b = (await b.acquire("d")).view
        view_c = (await c.acquire("d")).view
        assert view_b is not None and view_c is not None
        assert (await b.steal(view_b)).outcome is AcquireOutcome.TOOK_OVER
        writes = len(env.repo.commits)
        lost = await c.steal(view_c)
        assert lost.outcome is AcquireOutcome.LOST_RACE and lost.code is LockCode.TAKEN_FIRST
        assert lost.fields["who"] == holder_name("editor2")
        assert len(env.repo.commits) == writes

    asyncio.run(run())


def test_stale_takeover_and_same_login_other_session() -> None:
    env = LockEnv()
    a = env.manager("editor1", "s1")
    a2 = env.manager("editor1", "s9")
    b = env.manager("editor2", "s2")

    async def run() -> None:
        held = (await a.acquire("d")).held
        assert held is not None
        other = await a2.acquire("d")
        assert other.outcome is AcquireOutcome.BLOCKED
        assert other.view is not None and other.view.status is LockStatus.MINE_OTHER_SESSION
        env.t += 899
        assert (await b.acquire("d")).outcome is AcquireOutcome.BLOCKED
        env.t += 1
        took = await b.acquire("d")
        assert took.outcome is AcquireOutcome.TOOK_OVER
        hb = await a.heartbeat(held)
        assert hb.outcome is HeartbeatOutcome.LOST

    asyncio.run(run())


def test_heartbeat_network_failures_are_counted() -> None:
    env = LockEnv()
    a = env.manager("editor1", "s1")

    async def run() -> None:
        held = (await a.acquire("d")).held
        assert held is not None
        client = a.client
        assert isinstance(client, FakeClient)
        client.fault_rate = 1.0
        client.rng.random = lambda: 0.5  # type: ignore[method-assign]  # loaded dice
        env.t += 300
        r1 = await a.heartbeat(held)
        env.t += 300
        r2 = await a.heartbeat(held)
        assert r1.outcome is r2.outcome is HeartbeatOutcome.MISSED
        assert r2.misses == 2 and r2.code is LockCode.MISSED and r2.fields["minutes"] == 5
        assert "(2 missed): it expires within 5 min" in r2.text.en
        assert "(2번 실패)" in r2.text.ko and "5분 안에" in r2.text.ko
        assert isinstance(r2.error, NetworkError)
        client.fault_rate = 0.0
        env.t += 60
        ok = await a.heartbeat(held)
        assert ok.outcome is HeartbeatOutcome.OK and held.misses == 0

    asyncio.run(run())


def test_released_by_someone_is_reported() -> None:
    env = LockEnv()
    a = env.manager("editor1", "s1")

    async def run() -> None:
        held = (await a.acquire("d")).held
        assert held is not None
        env.repo.commit(".locks/d.lock.json", None, "admin release", "admin")
        hb = await a.heartbeat(held)
        # The fake (like GitHub) ignores the sha of a missing path and creates the file (201);
        # the manager notices from WriteResult.created, removes it again and reports it.
        assert hb.outcome is HeartbeatOutcome.RELEASED
        assert env.repo.read(".locks/d.lock.json") is None
        assert not (await a.verify(held)).ok

    asyncio.run(run())


def test_malformed_lock_can_be_stolen() -> None:
    env = LockEnv()
    env.repo.seed_file(".locks/d.lock.json", b"{oops")
    b = env.manager("editor2", "s2")

    async def run() -> None:
        res = await b.acquire("d")
        assert res.outcome is AcquireOutcome.BLOCKED and res.view is not None
        assert res.view.status is LockStatus.MALFORMED and res.view.holder == "unknown"
        took = await b.steal(res.view)
        assert took.outcome is AcquireOutcome.TOOK_OVER

    asyncio.run(run())


def test_lost_write_response_is_recovered_by_sha() -> None:
    env = LockEnv()
    a = env.manager("editor1", "s1")

    async def run() -> None:
        client = a.client
        assert isinstance(client, FakeClient)
        calls = iter([0.9, 0.01] + [0.9] * 10)  # no fault before; lost response after
        client.fault_rate = 0.1
        client.rng.random = lambda: next(calls)  # type: ignore[method-assign]  # loaded dice
        res = await a.acquire("d")
        client.fault_rate = 0.0
        assert res.outcome is AcquireOutcome.ACQUIRED and res.held is not None
        assert res.held.sha == git_blob_sha(env.repo.read(".locks/d.lock.json") or b"")

    asyncio.run(run())


def test_list_locks() -> None:
    env = LockEnv()
    env.repo.seed_file(".locks/bad.lock.json", b"[]")
    env.repo.seed_file(".locks/.gitkeep", b"")
    a = env.manager("editor1", "s1")

    async def run() -> None:
        await a.acquire("한글 문서")
        views = await a.list_locks()
        assert [(v.doc_id, v.status) for v in views] == [
            ("bad", LockStatus.MALFORMED),
            ("한글 문서", LockStatus.MINE_THIS_SESSION),
        ]

    asyncio.run(run())


def test_invalid_doc_id_explains_itself_in_korean_and_english() -> None:
    from modu_desktop.core.locks.wire import InvalidDocId, validate_doc_id

    for bad in ("../etc/passwd", "a//b", "/abs", "a\\b", "", "x\x07"):
        try:
            validate_doc_id(bad)
        except InvalidDocId as exc:
            ko, en = in_lang("ko", exc.user_message), in_lang("en", exc.user_message)
            assert ko.startswith("문서 이름이 올바르지 않습니다: ") and "다른 이름을" not in ko, bad
            assert en.startswith("That document name cannot be used"), bad
        else:  # pragma: no cover - the assertion below names the case
            raise AssertionError(f"{bad!r} was accepted")
    assert validate_doc_id("bootcamp/00-개요 초안") == "bootcamp/00-개요 초안"


class _ReadBackClient(FakeClient):
    """Every write's answer is lost and the client reads it back, as GitHubClient does: the
    result says `recovered` and cannot tell a 201 re-creation from a 200 update.
    ``before_write`` runs once before the next write (someone else's move between our look
    and our write)."""

    before_write: Callable[[], object] | None = None

    async def put_file(
        self, path: str, content: bytes, message: str, sha: str | None = None
    ) -> WriteResult:
        meanwhile, self.before_write = self.before_write, None
        if meanwhile is not None:
            meanwhile()
        done = await super().put_file(path, content, message, sha=sha)
        return WriteResult(content_sha=done.content_sha, commit_sha=done.commit_sha, recovered=True)


def _read_back_manager(env: LockEnv) -> LockManager:
    client = _ReadBackClient(env.repo, "editor1")
    return LockManager(client, "editor1", "s1", lambda: env.t, heartbeat_s=300, stale_s=900)


def test_released_lock_is_noticed_when_the_heartbeat_answer_was_lost() -> None:
    """Seed 1221230974 of the sandbox model test: a robbed holder's heartbeat re-created the
    released lock, its answer was lost, and the read-back made it look like a renewal."""
    env = LockEnv()
    a = _read_back_manager(env)

    async def run() -> None:
        held = (await a.acquire("d")).held
        assert held is not None
        client = a.client
        assert isinstance(client, _ReadBackClient)
        # Released after the heartbeat looked: its write re-creates the lock.
        client.before_write = lambda: env.repo.commit(
            ".locks/d.lock.json", None, "release by the thief", "editor2"
        )
        hb = await a.heartbeat(held)
        assert hb.outcome is HeartbeatOutcome.RELEASED, hb.text.en
        assert env.repo.read(".locks/d.lock.json") is None  # our re-creation was removed

    asyncio.run(run())


def test_renewal_with_a_lost_answer_is_still_a_renewal() -> None:
    env = LockEnv()
    a = _read_back_manager(env)

    async def run() -> None:
        held = (await a.acquire("d")).held
        assert held is not None
        env.t += 300
        hb = await a.heartbeat(held)
        assert hb.outcome is HeartbeatOutcome.OK, hb.text.en
        assert held.sha == env.repo.files[".locks/d.lock.json"]

    asyncio.run(run())
