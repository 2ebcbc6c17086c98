"""Unit tests of the GitHub client over httpx.MockTransport (no network, no sleeping)."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from collections.abc import Callable
from email.utils import formatdate
from typing import Any

import httpx
import pytest

from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.github.client import (
    BadCredentials,
    BranchMoved,
    GitHubClient,
    GitHubConflict,
    GitHubError,
    MembershipProbe,
    NetworkError,
    NotFound,
    PermissionDenied,
    RateLimited,
    RepoRef,
    RepositoryEmpty,
    RetryPolicy,
    ServerError,
    ShaMissing,
    ValidationFailed,
    WriteUncertain,
    encode_path,
)
from modu_desktop.core.github.clock import ServerClock
from modu_desktop.core.github.writes import RaceRetry
from tests.helpers.lang import in_lang

TOKEN = "ghp_SuperSecretToken1234567890abcdef"
REPO = RepoRef("pnuai", "PNU-Modu", "main")

Handler = Callable[[httpx.Request], httpx.Response]


class Sleeps(list[float]):
    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


def make_client(handler: Handler, **kw: Any) -> tuple[GitHubClient, Sleeps]:
    sleeps = Sleeps()
    kw.setdefault(
        "retry", RetryPolicy(max_attempts=4, base_delay=0.5, max_delay=8.0, max_total=120.0)
    )
    client = GitHubClient(
        "https://api.example.test",
        TOKEN,
        REPO,
        transport=httpx.MockTransport(handler),
        sleep=sleeps,
        **kw,
    )
    return client, sleeps


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def jr(status: int, body: Any = None, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, json=body if body is not None else {}, headers=headers or {})


# --------------------------------------------------------------------------- headers, repr


def test_headers_and_bearer_token() -> None:
    seen: list[httpx.Request] = []

    def handler(req: httpx.Request) -> httpx.Response:
        seen.append(req)
        return jr(200, {"login": "editor1", "id": 7})

    async def go() -> None:
        client, _ = make_client(handler)
        async with client:
            user = await client.get_user()
        assert user.login == "editor1"

    run(go())
    req = seen[0]
    assert req.url.path == "/user"
    assert req.headers["accept"] == "application/vnd.github+json"
    assert req.headers["x-github-api-version"] == "2022-11-28"
    assert req.headers["user-agent"].startswith("ModuDesktop/")
    assert req.headers["authorization"] == f"Bearer {TOKEN}"


def test_base_url_with_path_prefix_for_enterprise() -> None:
    seen: list[str] = []

    def handler(req: httpx.Request) -> httpx.Response:
        seen.append(req.url.raw_path.decode())
        return jr(200, {"login": "x"})

    async def go() -> None:
        client = GitHubClient(
            "https://ghe.example.test/api/v3/", TOKEN, REPO, transport=httpx.MockTransport(handler)
        )
        async with client:
            await client.get_user()

    run(go())
    assert seen == ["/api/v3/user"]


def test_token_never_in_repr_or_errors_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    def handler(req: httpx.Request) -> httpx.Response:
        if req.url.path == "/user":
            # A server that echoes the token back in its message must not leak it either.
            return jr(401, {"message": f"Bad credentials {TOKEN}"})
        raise httpx.ConnectError(f"cannot connect (token {TOKEN})", request=req)

    caplog.set_level(logging.DEBUG)
    errors: list[GitHubError] = []

    async def go() -> GitHubClient:
        client, _ = make_client(handler, retry=RetryPolicy(max_attempts=2))
        async with client:
            for coro in (client.get_user(), client.get_repo()):
                try:
                    await coro
                except GitHubError as exc:
                    errors.append(exc)
        return client

    client = run(go())
    assert [type(e) for e in errors] == [BadCredentials, NetworkError]
    texts = [repr(client), str(client), repr(vars(client)), repr(client._token)]
    for e in errors:
        texts += [
            str(e),
            repr(e),
            e.message,
            in_lang("ko", e.user_message),
            in_lang("en", e.user_message),
        ]
    texts += [r.getMessage() for r in caplog.records]
    for t in texts:
        assert TOKEN not in t, t
    assert "***" in repr(client)


# --------------------------------------------------------------------------- error mapping


@pytest.mark.parametrize(
    ("status", "body", "headers", "cls"),
    [
        (401, {"message": "Bad credentials"}, {}, BadCredentials),
        (
            403,
            {"message": "Resource not accessible by personal access token"},
            {},
            PermissionDenied,
        ),
        (404, {"message": "Not Found"}, {}, NotFound),
        (409, {"message": "docs/a.md does not match 5717457c"}, {}, GitHubConflict),
        (409, {"message": "Git Repository is empty."}, {}, RepositoryEmpty),
        (422, {"message": 'Invalid request.\n\n"sha" wasn\'t supplied.'}, {}, ShaMissing),
        (
            422,
            {
                "message": "path cannot start with a slash",
                "errors": [{"resource": "Commit", "field": "path", "code": "invalid"}],
            },
            {},
            ValidationFailed,
        ),
        (400, {"message": "Problems parsing JSON"}, {}, GitHubError),
    ],
)
def test_error_mapping_without_retry(
    status: int, body: Any, headers: dict[str, str], cls: type[GitHubError]
) -> None:
    calls = []

    def handler(req: httpx.Request) -> httpx.Response:
        calls.append(req)
        return jr(status, body, headers)

    async def go() -> None:
        client, sleeps = make_client(handler)
        async with client:
            with pytest.raises(GitHubError) as ei:
                await client.get_repo()
        assert type(ei.value) is cls
        assert ei.value.status == status
        assert sleeps == []

    run(go())
    assert len(calls) == 1  # 4xx are never retried


def test_sha_missing_is_a_conflict_and_validation_errors_exposed() -> None:
    assert issubclass(ShaMissing, GitHubConflict)
    v = ValidationFailed(422, "x", body={"errors": [{"code": "invalid"}]})
    assert v.errors == [{"code": "invalid"}]


def test_user_messages_are_one_plain_sentence() -> None:
    samples = [
        GitHubError(400, "x"),
        BadCredentials(401, "x"),
        PermissionDenied(403, "x"),
        NotFound(404, "x"),
        GitHubConflict(409, "x"),
        ShaMissing(422, "x"),
        RepositoryEmpty(409, "x"),
        ValidationFailed(422, "x"),
        RateLimited(403, "x", retry_at=None, secondary=True),
        RateLimited(403, "x", retry_at=1e12, secondary=False),
        ServerError(502, "x"),
        NetworkError("x", kind="timeout"),
        NetworkError("x", kind="connection"),
        WriteUncertain("x"),
    ]
    for e in samples:
        for lang in ("ko", "en"):
            msg = in_lang(lang, e.user_message)
            assert msg and "\n" not in msg and "HTTP" not in msg
            assert msg.rstrip().endswith((".", "다.", "요."))
        assert any("\uac00" <= ch <= "\ud7a3" for ch in in_lang("ko", e.user_message))


def test_primary_rate_limit_not_retried_when_reset_is_far() -> None:
    calls = []
    # Server clock is one hour ahead: the reset time must be converted to local time.
    server_now = 2_000_000_000

    def handler(req: httpx.Request) -> httpx.Response:
        calls.append(req)
        return jr(
            403,
            {"message": "API rate limit exceeded for user ID 1."},
            {
                "x-ratelimit-remaining": "0",
                "x-ratelimit-reset": str(server_now + 3600),
                "date": formatdate(server_now, usegmt=True),
            },
        )

    local = [server_now - 3600.0]
    clock = ServerClock(lambda: local[0])

    async def go() -> None:
        client, sleeps = make_client(handler, clock=clock)
        async with client:
            with pytest.raises(RateLimited) as ei:
                await client.get_user()
        err = ei.value
        assert err.secondary is False
        assert err.retry_at is not None
        assert abs(err.retry_at - (local[0] + 3600)) < 1.5
        assert sleeps == []

    run(go())
    assert len(calls) == 1


def test_secondary_rate_limit_honours_retry_after_then_succeeds() -> None:
    answers = [
        jr(
            403,
            {
                "message": "You have exceeded a secondary rate limit. Please wait a few minutes "
                "before you try again."
            },
            {"retry-after": "7", "x-ratelimit-remaining": "4000"},
        ),
        jr(429, {"message": "too many"}, {"retry-after": "2"}),
        jr(200, {"login": "ok"}),
    ]

    async def go() -> None:
        client, sleeps = make_client(lambda req: answers.pop(0))
        async with client:
            assert (await client.get_user()).login == "ok"
        assert len(sleeps) == 2
        assert 7 <= sleeps[0] <= 8.5
        assert 2 <= sleeps[1] <= 3.5

    run(go())


def test_secondary_rate_limit_without_retry_after_waits_a_minute_or_gives_up() -> None:
    def handler(req: httpx.Request) -> httpx.Response:
        return jr(403, {"message": "You have exceeded a secondary rate limit."})

    async def go() -> None:
        client, sleeps = make_client(handler, retry=RetryPolicy(max_attempts=5, max_total=100))
        async with client:
            with pytest.raises(RateLimited) as ei:
                await client.get_user()
        assert ei.value.secondary is True
        assert len(sleeps) == 1 and sleeps[0] >= 60  # the second wait would exceed the budget

    run(go())


# --------------------------------------------------------------------------- read retries


def test_reads_retry_5xx_with_jittered_exponential_backoff() -> None:
    answers = [
        jr(502, {"message": "Bad Gateway"}),
        jr(503, {"message": "x"}),
        jr(500, {"message": "x"}),
        jr(200, {"login": "ok"}),
    ]

    async def go() -> None:
        client, sleeps = make_client(lambda req: answers.pop(0))
        async with client:
            assert (await client.get_user()).login == "ok"
        assert len(sleeps) == 3
        for i, s in enumerate(sleeps):
            full = 0.5 * 2**i
            assert full / 2 <= s <= full

    run(go())


def test_reads_give_up_after_max_attempts() -> None:
    calls = []

    def handler(req: httpx.Request) -> httpx.Response:
        calls.append(req)
        return jr(500, {"message": "Server Error"})

    async def go() -> None:
        client, sleeps = make_client(handler)
        async with client:
            with pytest.raises(ServerError):
                await client.get_user()
        assert len(sleeps) == 3

    run(go())
    assert len(calls) == 4


def test_reads_bounded_total_wait() -> None:
    def handler(req: httpx.Request) -> httpx.Response:
        return jr(500, {"message": "x"})

    async def go() -> None:
        client, sleeps = make_client(
            handler, retry=RetryPolicy(max_attempts=100, base_delay=1, max_delay=4, max_total=10)
        )
        async with client:
            with pytest.raises(ServerError):
                await client.get_user()
        assert sum(sleeps) <= 10

    run(go())


@pytest.mark.parametrize("exc", [httpx.ConnectError, httpx.ReadTimeout, httpx.RemoteProtocolError])
def test_reads_retry_network_errors(exc: type[httpx.TransportError]) -> None:
    state = {"n": 0}

    def handler(req: httpx.Request) -> httpx.Response:
        state["n"] += 1
        if state["n"] == 1:
            raise exc("boom", request=req)
        return jr(200, {"login": "ok"})

    async def go() -> None:
        client, sleeps = make_client(handler)
        async with client:
            assert (await client.get_user()).login == "ok"
        assert len(sleeps) == 1

    run(go())


def test_network_error_kind() -> None:
    def handler(req: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=req)

    async def go() -> None:
        client, _ = make_client(handler, retry=RetryPolicy(max_attempts=1))
        async with client:
            with pytest.raises(NetworkError) as ei:
                await client.get_user()
        assert ei.value.kind == "timeout" and ei.value.status is None

    run(go())


# --------------------------------------------------------------------------- clock


def test_server_clock_from_date_header() -> None:
    local = [1_900_000_000.25]
    offset = 437  # server is 437 s ahead

    def handler(req: httpx.Request) -> httpx.Response:
        local[0] += 0.05  # each exchange takes 50 ms of local time
        return jr(200, {"login": "x"}, {"date": formatdate(int(local[0] + offset), usegmt=True)})

    clock = ServerClock(lambda: local[0])
    assert not clock.synced and clock.now() == local[0]

    async def go() -> None:
        client, _ = make_client(handler, clock=clock)
        async with client:
            for _ in range(30):
                await client.get_user()
                local[0] += 0.137

    run(go())
    assert clock.synced
    assert abs(clock.offset - offset) < 0.6
    assert abs(clock.now() - (local[0] + offset)) < 0.6


def test_server_clock_recovers_when_local_clock_jumps() -> None:
    local = [1000.0]
    clock = ServerClock(lambda: local[0])
    for i in range(5):
        clock.observe(formatdate(1000 + i * 10 + 30, usegmt=True), local[0], local[0])
        local[0] += 10
    assert abs(clock.offset - 30.5) <= 0.5
    # The local clock is set back by an hour: the new sample contradicts the old ones.
    local[0] -= 3600
    clock.observe(formatdate(1050 + 30, usegmt=True), local[0], local[0])
    assert abs(clock.offset - (3600 + 30.5)) <= 0.5
    clock.observe("garbage", local[0], local[0])  # ignored
    assert abs(clock.offset - (3600 + 30.5)) <= 0.5


# --------------------------------------------------------------------------- git database


def test_get_tree_conditional_304_is_one_request() -> None:
    seen: list[httpx.Request] = []

    def handler(req: httpx.Request) -> httpx.Response:
        seen.append(req)
        if req.headers.get("if-none-match") == 'W/"abc"':
            return httpx.Response(304, headers={"etag": 'W/"abc"'})
        return jr(
            200,
            {
                "sha": "t" * 40,
                "truncated": False,
                "tree": [
                    {
                        "path": "docs/01-intro.md",
                        "mode": "100644",
                        "type": "blob",
                        "sha": "a" * 40,
                        "size": 3,
                    }
                ],
            },
            {"etag": 'W/"abc"'},
        )

    async def go() -> None:
        client, _ = make_client(handler)
        async with client:
            t1 = await client.get_tree("main")
            t2 = await client.get_tree("main")
        assert not t1.not_modified and t2.not_modified
        assert t1.entries == t2.entries and t2.sha == "t" * 40

    run(go())
    assert len(seen) == 2
    assert seen[0].url.params["recursive"] == "1"
    assert seen[0].url.path == "/repos/pnuai/PNU-Modu/git/trees/main"


def test_get_blob_decodes_wrapped_base64_and_verifies() -> None:
    data = ("한글 본문\r\n" * 40).encode("utf-8")
    sha = git_blob_sha(data)
    b64 = base64.b64encode(data).decode()
    wrapped = "\n".join(b64[i : i + 60] for i in range(0, len(b64), 60)) + "\n"

    def handler(req: httpx.Request) -> httpx.Response:
        if req.url.path.endswith(sha):
            return jr(200, {"sha": sha, "encoding": "base64", "content": wrapped})
        return jr(200, {"sha": "b" * 40, "encoding": "base64", "content": wrapped})

    async def go() -> None:
        client, _ = make_client(handler)
        async with client:
            assert await client.get_blob(sha) == data
            with pytest.raises(GitHubError):
                await client.get_blob("b" * 40)

    run(go())


def test_encode_path_hangul_and_spaces() -> None:
    assert encode_path("docs/새 문서 #1.md") == ("docs/%EC%83%88%20%EB%AC%B8%EC%84%9C%20%231.md")
    seen: list[str] = []

    def handler(req: httpx.Request) -> httpx.Response:
        seen.append(req.url.raw_path.decode())
        return jr(
            200,
            {
                "type": "file",
                "path": "docs/새 문서.md",
                "sha": "c" * 40,
                "encoding": "base64",
                "content": base64.b64encode(b"hi").decode(),
            },
        )

    async def go() -> None:
        client, _ = make_client(handler)
        async with client:
            f = await client.get_contents("docs/새 문서.md", ref="main")
        assert f.content == b"hi" and f.sha == "c" * 40

    run(go())
    assert seen[0] == (
        "/repos/pnuai/PNU-Modu/contents/docs/%EC%83%88%20%EB%AC%B8%EC%84%9C.md?ref=main"
    )


@pytest.mark.parametrize("status", [204, 404, 302])
def test_org_membership_probe(status: int) -> None:
    scopes = {"x-oauth-scopes": "repo, read:org"}

    def handler(req: httpx.Request) -> httpx.Response:
        if req.url.path == "/orgs/pnuai/members/editor1":
            if status == 302:
                return httpx.Response(
                    302,
                    headers={
                        "location": "https://api.example.test/orgs/pnuai/public_members/editor1",
                        **scopes,
                    },
                )
            if status == 204:
                return httpx.Response(204, headers=scopes)
            return jr(404, {"message": "Not Found"})
        raise AssertionError(f"redirect followed to {req.url}")

    async def go() -> MembershipProbe:
        client, _ = make_client(handler)
        async with client:
            return await client.org_membership_probe("pnuai", "editor1")

    probe = run(go())
    assert probe.status == status
    assert probe.scopes == (None if status == 404 else ("repo", "read:org"))


def test_org_membership_probe_raises_other_errors() -> None:
    def handler(req: httpx.Request) -> httpx.Response:
        return jr(403, {"message": "Resource protected by organization SAML enforcement."})

    async def go() -> MembershipProbe:
        client, _ = make_client(handler)
        async with client:
            return await client.org_membership_probe("pnuai", "editor1")

    with pytest.raises(PermissionDenied):
        run(go())


# --------------------------------------------------------------------------- writes


class FakeRepo:
    """Just enough git database for read-back: one file at docs/a.md."""

    HEAD = "c" * 40

    def __init__(self, blob: str | None, message: str = "older commit") -> None:
        self.blob = blob
        self.message = message
        self.requests: list[tuple[str, str]] = []
        self.on_write: Callable[[httpx.Request], httpx.Response] = lambda req: jr(500)

    def __call__(self, req: httpx.Request) -> httpx.Response:
        p = req.url.path
        self.requests.append((req.method, p))
        base = "/repos/pnuai/PNU-Modu"
        if req.method in ("PUT", "DELETE"):
            assert "/contents/" in p
            return self.on_write(req)
        if p == f"{base}/git/ref/heads/main":
            return jr(
                200, {"ref": "refs/heads/main", "object": {"type": "commit", "sha": self.HEAD}}
            )
        if p == f"{base}/git/commits/{self.HEAD}":
            return jr(
                200,
                {
                    "sha": self.HEAD,
                    "message": self.message,
                    "tree": {"sha": "1" * 40},
                    "parents": [],
                },
            )
        if p in (f"{base}/git/trees/{'1' * 40}", f"{base}/git/trees/main"):
            return jr(
                200,
                {
                    "sha": "1" * 40,
                    "truncated": False,
                    "tree": [{"path": "docs", "type": "tree", "mode": "040000", "sha": "2" * 40}],
                },
            )
        if p == f"{base}/git/trees/{'2' * 40}":
            tree = (
                []
                if self.blob is None
                else [
                    {"path": "a.md", "type": "blob", "mode": "100644", "sha": self.blob, "size": 1}
                ]
            )
            return jr(200, {"sha": "2" * 40, "truncated": False, "tree": tree})
        if p == f"{base}/commits":
            return jr(200, [])
        if "/contents/" in p:
            raise AssertionError("read-back must not use the Contents API")
        return jr(404, {"message": "Not Found"})


def test_put_file_success_body() -> None:
    bodies: list[dict[str, Any]] = []
    repo = FakeRepo(None)

    def write(req: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(req.content))
        return jr(201, {"content": {"sha": git_blob_sha(b"x")}, "commit": {"sha": "d" * 40}})

    repo.on_write = write

    async def go() -> None:
        client, _ = make_client(repo)
        async with client:
            r = await client.put_file("docs/a.md", b"x", "feat(docs): create a.md by @e1")
        assert r.content_sha == git_blob_sha(b"x") and r.commit_sha == "d" * 40
        assert not r.recovered

    run(go())
    assert bodies == [
        {
            "message": "feat(docs): create a.md by @e1",
            "content": base64.b64encode(b"x").decode(),
            "branch": "main",
        }
    ]


def test_put_conflict_is_not_retried() -> None:
    """A 409 over a file that changed is a conflict: one read of its blob sha (git database)
    decides, and the write is not sent again."""
    repo = FakeRepo("e" * 40)
    repo.on_write = lambda req: jr(409, {"message": "docs/a.md does not match " + "f" * 40})

    async def go() -> None:
        client, sleeps = make_client(repo)
        async with client:
            with pytest.raises(GitHubConflict) as ei:
                await client.put_file("docs/a.md", b"x", "m", sha="f" * 40)
            assert not isinstance(ei.value, BranchMoved)
            assert client.race_counts.conflicts == 1 and client.race_counts.seen == 0
        assert sleeps == []

    run(go())
    assert [m for m, _ in repo.requests].count("PUT") == 1


BRANCH_MOVED = {"message": f"is at {'d' * 40} but expected {'c' * 40}"}


@pytest.mark.parametrize(
    "message",
    [
        BRANCH_MOVED["message"],
        f"refs/heads/main expected to be at {'c' * 40}",  # GitHub's older wording
    ],
)
def test_put_that_lost_the_branch_race_is_sent_again(message: str) -> None:
    """409 while the file is still the one we wrote over: only the branch moved, nothing of ours
    was applied, so the same write goes again after a short jittered pause — whatever the
    message says."""
    new = b"new content"
    repo = FakeRepo("e" * 40)
    answers = [
        jr(409, {"message": message}),
        jr(200, {"content": {"sha": git_blob_sha(new)}, "commit": {"sha": "9" * 40}}),
    ]
    repo.on_write = lambda req: answers.pop(0)

    async def go() -> None:
        client, sleeps = make_client(repo, race=RaceRetry(base_delay=0.3))
        async with client:
            r = await client.put_file("docs/a.md", new, "m", sha="e" * 40)
            assert r.commit_sha == "9" * 40
            counts = client.race_counts
            assert (counts.seen, counts.retried, counts.won_after_retry) == (1, 1, 1)
        assert len(sleeps) == 1 and 0.15 <= sleeps[0] <= 0.3

    run(go())
    assert [m for m, _ in repo.requests].count("PUT") == 2


def test_create_and_delete_that_lost_the_race_are_sent_again() -> None:
    """Unchanged means still absent for a create, still present for a delete."""
    absent = FakeRepo(None)
    creates = [
        jr(409, BRANCH_MOVED),
        jr(201, {"content": {"sha": "a" * 40}, "commit": {"sha": "9" * 40}}),
    ]
    absent.on_write = lambda req: creates.pop(0)
    present = FakeRepo("e" * 40)
    deletes = [jr(409, BRANCH_MOVED), jr(200, {"content": None, "commit": {"sha": "8" * 40}})]
    present.on_write = lambda req: deletes.pop(0)

    async def go() -> None:
        client, _ = make_client(absent)
        async with client:
            assert (await client.put_file("docs/a.md", b"x", "m")).created
        client, _ = make_client(present)
        async with client:
            assert await client.delete_file("docs/a.md", "e" * 40, "m") == "8" * 40

    run(go())


def test_a_branch_that_keeps_moving_ends_as_branch_moved_within_seconds() -> None:
    """Never a conflict: a temporary failure after a few tries, a few seconds of pauses."""
    repo = FakeRepo("e" * 40)
    repo.on_write = lambda req: jr(409, BRANCH_MOVED)
    policy = RaceRetry(attempts=4, base_delay=0.3, max_delay=2.4, max_total=6.0)

    async def go() -> None:
        client, sleeps = make_client(repo, race=policy)
        async with client:
            with pytest.raises(BranchMoved) as ei:
                await client.put_file("docs/a.md", b"x", "m", sha="e" * 40)
            assert not isinstance(ei.value, GitHubConflict)
            assert ei.value.tries == 4 and ei.value.status == 409
            assert "nothing was changed" in ei.value.user_message()
            assert client.race_counts.gave_up == 1 and client.race_counts.retried == 3
        assert len(sleeps) == 3 and sum(sleeps) <= policy.max_total
        assert sleeps[0] < sleeps[2]  # backing off

    run(go())
    assert [m for m, _ in repo.requests].count("PUT") == 4


def test_a_409_whose_file_cannot_be_read_is_not_called_a_conflict() -> None:
    repo = FakeRepo("e" * 40)
    repo.on_write = lambda req: jr(409, BRANCH_MOVED)

    def unreachable(req: httpx.Request) -> httpx.Response:
        if req.method == "GET":
            raise httpx.ConnectError("offline", request=req)
        return repo(req)

    async def go() -> None:
        client, _ = make_client(unreachable, retry=RetryPolicy(max_attempts=1))
        async with client:
            with pytest.raises(NetworkError):
                await client.put_file("docs/a.md", b"x", "m", sha="e" * 40)

    run(go())


def test_put_timeout_but_write_happened_is_recovered_from_git_database() -> None:
    new = b"new content"
    repo = FakeRepo("e" * 40)

    def write(req: httpx.Request) -> httpx.Response:
        repo.blob = git_blob_sha(new)  # applied on the server...
        repo.message = "docs(edit): update a.md by @e1"
        raise httpx.ReadTimeout("...but the answer was lost", request=req)

    repo.on_write = write

    async def go() -> None:
        client, _ = make_client(repo)
        async with client:
            r = await client.put_file(
                "docs/a.md", new, "docs(edit): update a.md by @e1", sha="e" * 40
            )
        assert r.recovered and r.content_sha == git_blob_sha(new)
        assert r.commit_sha == FakeRepo.HEAD

    run(go())
    assert [m for m, _ in repo.requests].count("PUT") == 1


def test_put_5xx_not_applied_is_retried_after_read_back() -> None:
    new = b"new content"
    repo = FakeRepo("e" * 40)
    answers = [
        jr(502, {"message": "Bad Gateway"}),
        jr(200, {"content": {"sha": git_blob_sha(new)}, "commit": {"sha": "9" * 40}}),
    ]
    repo.on_write = lambda req: answers.pop(0)

    async def go() -> None:
        client, sleeps = make_client(repo)
        async with client:
            r = await client.put_file("docs/a.md", new, "m", sha="e" * 40)
        assert r.commit_sha == "9" * 40 and not r.recovered
        assert len(sleeps) == 1

    run(go())
    methods = [m for m, _ in repo.requests]
    assert methods.count("PUT") == 2
    assert methods.index("GET") < methods.index("PUT", 1)  # read back before the second PUT


def test_put_timeout_then_retry_conflicts_because_first_landed_late() -> None:
    new = b"new content"
    repo = FakeRepo("e" * 40)
    state = {"n": 0}

    def write(req: httpx.Request) -> httpx.Response:
        state["n"] += 1
        if state["n"] == 1:
            raise httpx.ReadTimeout("slow", request=req)  # not applied yet at read-back time
        repo.blob = git_blob_sha(new)  # the first PUT lands now
        return jr(409, {"message": "docs/a.md does not match eeee"})

    repo.on_write = write

    async def go() -> None:
        client, _ = make_client(repo)
        async with client:
            r = await client.put_file("docs/a.md", new, "m", sha="e" * 40)
        assert r.recovered and r.content_sha == git_blob_sha(new)

    run(go())


def test_put_timeout_and_someone_else_changed_it_is_conflict() -> None:
    repo = FakeRepo("e" * 40)

    def write(req: httpx.Request) -> httpx.Response:
        repo.blob = "7" * 40
        raise httpx.ReadTimeout("slow", request=req)

    repo.on_write = write

    async def go() -> None:
        client, _ = make_client(repo)
        async with client:
            with pytest.raises(GitHubConflict):
                await client.put_file("docs/a.md", b"mine", "m", sha="e" * 40)

    run(go())


def test_put_timeout_and_read_back_fails_is_uncertain() -> None:
    def handler(req: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("down", request=req)

    async def go() -> None:
        client, _ = make_client(handler)
        async with client:
            with pytest.raises(WriteUncertain) as ei:
                await client.put_file("docs/a.md", b"mine", "m", sha="e" * 40)
        assert isinstance(ei.value.cause, NetworkError)
        assert in_lang("en", ei.value.user_message)

    run(go())


def test_put_connect_error_is_resent_without_read_back() -> None:
    repo = FakeRepo(None)
    state = {"n": 0}

    def write(req: httpx.Request) -> httpx.Response:
        state["n"] += 1
        if state["n"] == 1:
            raise httpx.ConnectError("refused", request=req)
        return jr(201, {"content": {"sha": git_blob_sha(b"x")}, "commit": {"sha": "d" * 40}})

    repo.on_write = write

    async def go() -> None:
        client, _ = make_client(repo)
        async with client:
            await client.put_file("docs/a.md", b"x", "m")

    run(go())
    assert [m for m, _ in repo.requests] == ["PUT", "PUT"]


def test_put_rate_limited_is_not_retried() -> None:
    repo = FakeRepo(None)
    repo.on_write = lambda req: jr(
        403, {"message": "You have exceeded a secondary rate limit"}, {"retry-after": "30"}
    )

    async def go() -> None:
        client, sleeps = make_client(repo)
        async with client:
            with pytest.raises(RateLimited):
                await client.put_file("docs/a.md", b"x", "m")
        assert sleeps == []

    run(go())


def test_delete_timeout_but_deleted_is_recovered() -> None:
    repo = FakeRepo("e" * 40)

    def write(req: httpx.Request) -> httpx.Response:
        assert json.loads(req.content) == {"message": "rm", "sha": "e" * 40, "branch": "main"}
        repo.blob = None
        repo.message = "rm"
        return jr(504, {"message": "Gateway Timeout"})

    repo.on_write = write

    async def go() -> None:
        client, _ = make_client(repo)
        async with client:
            assert await client.delete_file("docs/a.md", "e" * 40, "rm") == FakeRepo.HEAD

    run(go())


def test_put_always_5xx_not_applied_is_a_plain_server_error() -> None:
    repo = FakeRepo("e" * 40)
    repo.on_write = lambda req: jr(502, {"message": "Server Error"})

    async def go() -> None:
        client, sleeps = make_client(repo)
        async with client:
            with pytest.raises(ServerError):
                await client.put_file("docs/a.md", b"mine", "m", sha="e" * 40)
        assert len(sleeps) == 3

    run(go())
    assert [m for m, _ in repo.requests].count("PUT") == 4


def test_put_always_timing_out_is_uncertain_after_bounded_attempts() -> None:
    repo = FakeRepo("e" * 40)

    def write(req: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=req)

    repo.on_write = write

    async def go() -> None:
        client, _ = make_client(repo)
        async with client:
            with pytest.raises(WriteUncertain):
                await client.put_file("docs/a.md", b"mine", "m", sha="e" * 40)

    run(go())
    assert [m for m, _ in repo.requests].count("PUT") == 4


def test_plain_http_only_for_loopback() -> None:
    for url in ("http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9"):
        GitHubClient(url, TOKEN, REPO)
    with pytest.raises(ValueError) as ei:
        GitHubClient("http://ghe.example.test/api/v3", TOKEN, REPO)
    assert TOKEN not in str(ei.value)
    GitHubClient("http://ghe.example.test/api/v3", TOKEN, REPO, allow_insecure_http=True)
    with pytest.raises(ValueError):
        GitHubClient("ftp://x", TOKEN, REPO)
