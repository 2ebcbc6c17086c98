"""Fault injection: latency, 5xx, reset, timeout, lost response, rate limits, stale reads, clock."""

from __future__ import annotations

import contextlib
import email.utils
import time

import httpx
import pytest

from modu_desktop.sandbox import Faults, Sandbox
from modu_desktop.sandbox.clock import ManualClock
from tests.helpers.sandbox import REPO_PATH, SandboxFactory, assert_repo_intact, b64, client_for

WELCOME = f"{REPO_PATH}/contents/docs/01-welcome.md"


def test_latency_delays_each_request(make_sandbox: SandboxFactory) -> None:
    clock = ManualClock()
    sb = make_sandbox(clock=clock)
    sb.faults.latency_ms = 150
    with client_for(sb) as c:
        for n in (1, 2):
            assert c.get("/user").status_code == 200
            assert clock.monotonic() == pytest.approx(0.15 * n)  # each request waited 150 ms


def test_5xx_failure(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.update(failure_rate=1.0, failure_kinds=("5xx",))
    r = editor.get("/user")
    assert r.status_code == 502
    assert r.json()["message"] == "Server Error"
    assert "X-GitHub-Request-Id" in r.headers


def test_connection_reset(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    with pytest.raises(httpx.TransportError):
        editor.get("/user")
    sb.faults.failure_rate = 0.0
    assert editor.get("/user").status_code == 200  # the client recovers on a new connection


def test_timeout_hangs_past_the_client_timeout(sb: Sandbox) -> None:
    sb.faults.update(failure_rate=1.0, failure_kinds=("timeout",), timeout_hang_seconds=1.5)
    with client_for(sb, timeout=0.3) as c, pytest.raises(httpx.TimeoutException):
        c.get("/user")


def test_timeout_is_bounded(make_sandbox: SandboxFactory) -> None:
    clock = ManualClock()
    sb = make_sandbox(clock=clock)
    sb.faults.update(failure_rate=1.0, failure_kinds=("timeout",), timeout_hang_seconds=20)
    with client_for(sb, timeout=600) as c, pytest.raises(httpx.TransportError):
        c.get("/user")  # a reset after the hang, long before the client would give up
    assert clock.monotonic() == 20
    assert sb.stats()["by_status"] == {"timeout": 1}


def test_lost_response_applies_the_write(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.update(failure_rate=1.0, failure_kinds=("lost_response",))
    with pytest.raises(httpx.TransportError):
        editor.put(
            f"{REPO_PATH}/contents/docs/lost.md",
            json={"message": "test: lost", "content": b64("x")},
        )
    assert sb.read_file("docs/lost.md") == b"x"  # the client must read back, not retry blindly


def test_failures_follow_the_rng_seed(make_sandbox: SandboxFactory) -> None:
    def outcomes(seed: int) -> list[int]:
        sb = make_sandbox(
            f"r{seed}-{time.monotonic_ns()}",
            faults=Faults(failure_rate=0.5, failure_kinds=("5xx",), rng_seed=seed),
        )
        with client_for(sb) as c:
            return [c.get("/user").status_code for _ in range(12)]

    first = outcomes(42)
    assert first == outcomes(42)
    assert set(first) == {200, 502}


def test_primary_rate_limit(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.primary_limit = 3
    statuses = [editor.get("/user") for _ in range(3)]
    assert [r.status_code for r in statuses] == [200, 200, 200]
    assert statuses[-1].headers["X-RateLimit-Remaining"] == "0"
    over = editor.get("/user")
    assert over.status_code == 403
    assert over.headers["X-RateLimit-Remaining"] == "0"
    assert int(over.headers["X-RateLimit-Reset"]) >= int(time.time())
    assert over.json()["message"].startswith("API rate limit exceeded")


def test_primary_limit_resets_after_the_window(make_sandbox: SandboxFactory) -> None:
    clock = ManualClock(start=1_800_000_000)
    sb = make_sandbox(clock=clock)
    sb.faults.update(primary_limit=1, primary_window_seconds=3600)
    with client_for(sb) as editor:
        assert editor.get("/user").status_code == 200
        over = editor.get("/user")
        assert over.status_code == 403
        assert over.headers["X-RateLimit-Reset"] == str(1_800_000_000 + 3600)
        clock.advance(3599)
        assert editor.get("/user").status_code == 403  # a fixed window, not a sliding one
        clock.advance(1)
        assert editor.get("/user").status_code == 200


def test_primary_limit_can_answer_429(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.update(primary_limit=0, primary_status=429)
    assert editor.get("/user").status_code == 429


def test_304_is_not_charged(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.primary_limit = 2
    first = editor.get(REPO_PATH)
    for _ in range(3):
        r = editor.get(REPO_PATH, headers={"If-None-Match": first.headers["ETag"]})
        assert r.status_code == 304
    assert editor.get("/user").status_code == 200  # still the second charged request


def test_secondary_rate_limit(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.update(secondary_limit=2, secondary_retry_after=30)
    assert editor.get("/user").status_code == 200
    assert editor.get("/user").status_code == 200
    r = editor.get("/user")
    assert r.status_code == 403
    assert int(r.headers["X-RateLimit-Remaining"]) > 0
    assert r.headers["Retry-After"] == "30"
    assert r.json()["message"] == (
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
    )


def test_secondary_limit_on_writes_without_retry_after(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.update(secondary_limit=0, secondary_omit_retry_after=True)
    r = editor.put(f"{REPO_PATH}/contents/docs/x.md", json={"message": "m", "content": b64("x")})
    assert r.status_code == 403 and "Retry-After" not in r.headers
    assert "temporarily blocked from content creation" in r.json()["message"]
    assert sb.read_file("docs/x.md") is None


def test_stale_contents_after_write(make_sandbox: SandboxFactory) -> None:
    clock = ManualClock()
    sb = make_sandbox(clock=clock)
    sb.faults.stale_contents_seconds = 60.0
    with client_for(sb) as editor:
        _stale_contents_after_write(editor, clock)


def _stale_contents_after_write(editor: httpx.Client, clock: ManualClock) -> None:
    old = editor.get(WELCOME).json()
    put = editor.put(
        WELCOME, json={"message": "edit", "content": b64("새 내용\n"), "sha": old["sha"]}
    )
    new_sha, commit_sha = put.json()["content"]["sha"], put.json()["commit"]["sha"]
    assert editor.get(WELCOME).json()["sha"] == old["sha"]  # the cache trap
    by_commit = editor.get(WELCOME, params={"ref": commit_sha}).json()
    assert by_commit["sha"] == new_sha  # reading by commit SHA is never stale
    tree = editor.get(f"{REPO_PATH}/git/trees/main", params={"recursive": 1}).json()
    assert next(e for e in tree["tree"] if e["path"] == "docs/01-welcome.md")["sha"] == new_sha
    clock.advance(59)
    assert editor.get(WELCOME).json()["sha"] == old["sha"]  # still cached
    clock.advance(1)
    assert editor.get(WELCOME).json()["sha"] == new_sha


def test_stale_contents_for_a_new_file_is_404(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.stale_contents_seconds = 5
    lock = f"{REPO_PATH}/contents/.locks/01-welcome.lock.json"
    assert (
        editor.put(lock, json={"message": "acquire [skip ci]", "content": b64("{}")}).status_code
        == 201
    )
    assert editor.get(lock).status_code == 404


def test_clock_offset_moves_the_date_header(make_sandbox: SandboxFactory) -> None:
    clock = ManualClock(start=1_800_000_000.5)
    sb = make_sandbox(clock=clock)
    with client_for(sb) as editor:
        date = editor.get("/user").headers["Date"]
        assert email.utils.parsedate_to_datetime(date).timestamp() == 1_800_000_000
        sb.faults.clock_offset_seconds = -3600
        date = editor.get("/user").headers["Date"]
        assert email.utils.parsedate_to_datetime(date).timestamp() == 1_800_000_000 - 3600


def test_tree_truncation_limit(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.tree_entry_limit = 3
    body = editor.get(f"{REPO_PATH}/git/trees/main", params={"recursive": 1}).json()
    assert body["truncated"] is True and len(body["tree"]) == 3


def test_faults_can_be_replaced_wholesale(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults = Faults(failure_rate=1.0, failure_kinds=("5xx",))
    assert editor.get("/user").status_code == 502
    sb.faults = Faults()
    assert editor.get("/user").status_code == 200


def test_unknown_failure_kind_is_refused() -> None:
    with pytest.raises(ValueError):
        Faults(failure_kinds=("meteor",))


def test_faulted_writes_never_corrupt_the_repo(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.update(failure_rate=0.5, failure_kinds=("5xx", "reset", "lost_response"), rng_seed=3)
    for i in range(20):
        with contextlib.suppress(httpx.TransportError):
            editor.put(
                f"{REPO_PATH}/contents/docs/f{i}.md",
                json={"message": f"f{i}", "content": b64(str(i))},
            )
    sb.faults.failure_rate = 0
    assert_repo_intact(sb)


def test_rate_limit_endpoint_is_free(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.primary_limit = 2
    editor.get("/user")
    for _ in range(3):
        body = editor.get("/rate_limit").json()
        assert body["resources"]["core"]["remaining"] == 1 and body["rate"]["limit"] == 2
