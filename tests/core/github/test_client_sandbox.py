"""GitHubClient against the loopback sandbox (real HTTP on 127.0.0.1)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.github.client import (
    BadCredentials,
    GitHubClient,
    GitHubConflict,
    GitHubError,
    NetworkError,
    NotFound,
    PermissionDenied,
    RateLimited,
    RepoRef,
    RetryPolicy,
    ServerError,
    ShaMissing,
)

REPO = RepoRef("pnuai", "PNU-Modu", "main")


async def _no_sleep(_: float) -> None:
    return None


def client_for(sb: Any, token: str = "tok-editor1", **kw: Any) -> GitHubClient:
    kw.setdefault("sleep", _no_sleep)
    return GitHubClient(sb.api_url, token, REPO, **kw)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_identity_and_permissions(sandbox: Any) -> None:
    async def go() -> None:
        async with client_for(sandbox) as gh:
            me = await gh.get_user()
            assert me.login == "editor1"
            repo = await gh.get_repo()
            assert repo.can_push and repo.default_branch == "main"
        async with client_for(sandbox, "tok-viewer") as gh:
            repo = await gh.get_repo()
            assert not repo.can_push and repo.can_pull
        async with client_for(sandbox, "wrong-token") as gh:
            with pytest.raises(BadCredentials) as ei:
                await gh.get_user()
            assert "wrong-token" not in str(ei.value)

    run(go())


def test_git_database_reads_and_conditional_tree(sandbox: Any) -> None:
    async def go() -> None:
        async with client_for(sandbox) as gh:
            head = await gh.get_ref("main")
            commit = await gh.get_commit(head)
            assert commit.sha == head and commit.tree_sha
            tree = await gh.get_tree("main")
            paths = {e.path for e in tree.entries}
            assert "docs/01-welcome.md" in paths and not tree.truncated
            entry = tree.find("docs/01-welcome.md")
            assert entry is not None
            data = await gh.get_blob(entry.sha)
            assert data == sandbox.read_file("docs/01-welcome.md")
            sandbox.reset_stats()
            again = await gh.get_tree("main")
            assert again.not_modified and again.entries == tree.entries
            stats = sandbox.stats()
            assert stats["total"] == 1
            assert stats["by_status"].get("304") == 1
            head2, e2 = await gh.entry_at("docs/01-welcome.md")
            assert head2 == head and e2 is not None and e2.sha == entry.sha
            with pytest.raises(NotFound):
                await gh.get_ref("no-such-branch")

    run(go())


def test_put_update_delete_and_errors(sandbox: Any) -> None:
    path = "docs/새 문서 #1.md"
    body = "\ufeff---\r\ntitle: 새 문서\r\n---\r\n본문\r\n".encode()

    async def go() -> None:
        async with client_for(sandbox) as gh:
            created = await gh.put_file(path, body, "feat(docs): create 새 문서 #1.md by @editor1")
            assert created.content_sha == git_blob_sha(body) and created.created
            assert sandbox.read_file(path) == body
            assert sandbox.commits()[0]["sha"] == created.commit_sha
            assert sandbox.commits()[0]["message"] == (
                "feat(docs): create 새 문서 #1.md by @editor1"
            )
            contents = await gh.get_contents(path)
            assert contents.content == body and contents.sha == created.content_sha

            with pytest.raises(ShaMissing):
                await gh.put_file(path, b"x", "no sha")
            with pytest.raises(GitHubConflict):
                await gh.put_file(path, b"x", "stale sha", sha=git_blob_sha(b"other"))
            updated = await gh.put_file(path, b"v2", "update", sha=created.content_sha)
            assert not updated.created
            assert sandbox.read_file(path) == b"v2"
            with pytest.raises(GitHubConflict):
                await gh.delete_file(path, created.content_sha, "stale delete")
            commit = await gh.delete_file(path, updated.content_sha or "", "delete")
            assert sandbox.read_file(path) is None
            assert sandbox.commits()[0]["sha"] == commit

            commits = await gh.list_commits(path=path, per_page=10)
            assert [c.subject for c in commits] == [
                "delete",
                "update",
                "feat(docs): create 새 문서 #1.md by @editor1",
            ]
            runs = await gh.workflow_runs(commit)
            assert isinstance(runs, list)

        async with client_for(sandbox, "tok-viewer") as gh:
            with pytest.raises((PermissionDenied, NotFound)):
                await gh.put_file("docs/viewer.md", b"x", "nope")

    run(go())


def test_lost_response_on_put_is_recovered_with_one_commit(sandbox: Any) -> None:
    async def go() -> None:
        async with client_for(sandbox) as gh:
            before = len(sandbox.commits())
            sandbox.faults.update(failure_rate=1.0, failure_kinds=("lost_response",))
            # Only the write is hit: switch the fault off as soon as it fired once.
            task = asyncio.create_task(gh.put_file("docs/lost.md", b"hello", "create lost"))
            while sandbox.stats()["by_status"].get("lost_response", 0) < 1:
                await asyncio.sleep(0.005)
            sandbox.faults.update(failure_rate=0.0)
            result = await task
            assert result.recovered
            assert result.content_sha == git_blob_sha(b"hello")
            commits = sandbox.commits()
            assert len(commits) == before + 1
            assert result.commit_sha == commits[0]["sha"]
            assert sandbox.read_file("docs/lost.md") == b"hello"

    run(go())


def test_writes_under_random_faults_never_duplicate_or_lose(sandbox: Any) -> None:
    """30 % of requests fail (5xx, reset, lost response): every write ends in exactly one
    commit, or in a clear error with nothing applied / a WriteUncertain."""

    async def go() -> None:
        async with client_for(sandbox, retry=RetryPolicy(max_attempts=8), timeout=5.0) as gh:
            sandbox.faults.update(
                failure_rate=0.3, failure_kinds=("5xx", "reset", "lost_response"), rng_seed=7
            )
            sha: str | None = None
            sandbox.reset_stats()
            outcomes: list[str] = []
            for i in range(12):
                data = f"version {i}\n".encode()
                before = len(sandbox.commits())
                try:
                    res = await gh.put_file("docs/faulty.md", data, f"write {i}", sha=sha)
                except GitHubError as exc:
                    sandbox.faults.update(failure_rate=0.0)
                    current = sandbox.read_file("docs/faulty.md")
                    assert len(sandbox.commits()) - before <= 1, exc
                    sha = git_blob_sha(current) if current is not None else None
                    sandbox.faults.update(failure_rate=0.3)
                    outcomes.append(type(exc).__name__)
                    continue
                assert len(sandbox.commits()) == before + 1
                sandbox.faults.update(failure_rate=0.0)
                assert sandbox.read_file("docs/faulty.md") == data
                sandbox.faults.update(failure_rate=0.3)
                sha = res.content_sha
                outcomes.append("recovered" if res.recovered else "ok")
            sandbox.faults.update(failure_rate=0.0)
            by_status = sandbox.stats()["by_status"]
            assert sum(by_status.get(k, 0) for k in ("502", "reset", "lost_response")) >= 3
            print("outcomes", outcomes, by_status)

    run(go())


def test_reads_retry_through_5xx_and_give_up_eventually(sandbox: Any) -> None:
    async def go() -> None:
        async with client_for(sandbox, retry=RetryPolicy(max_attempts=3)) as gh:
            sandbox.faults.update(failure_rate=1.0, failure_kinds=("5xx",))
            sandbox.reset_stats()
            with pytest.raises(ServerError):
                await gh.get_user()
            assert sandbox.stats()["total"] == 3
            sandbox.faults.update(failure_kinds=("reset",))
            with pytest.raises(NetworkError):
                await gh.get_user()
            sandbox.faults.update(failure_rate=0.0)
            assert (await gh.get_user()).login == "editor1"

    run(go())


def test_timeout_is_a_network_error(sandbox: Any) -> None:
    async def go() -> None:
        async with client_for(sandbox, timeout=0.3, retry=RetryPolicy(max_attempts=1)) as gh:
            sandbox.faults.update(
                failure_rate=1.0, failure_kinds=("timeout",), timeout_hang_seconds=1.0
            )
            with pytest.raises(NetworkError) as ei:
                await gh.get_user()
            assert ei.value.kind == "timeout"
            sandbox.faults.update(failure_rate=0.0)

    run(go())


def test_server_clock_follows_sandbox_offset(sandbox: Any) -> None:
    async def go() -> None:
        sandbox.faults.update(clock_offset_seconds=-600.0)
        async with client_for(sandbox) as gh:
            for _ in range(3):
                await gh.get_user()
            assert abs(gh.clock.offset - (-600.0)) < 1.5
            assert abs(gh.clock.now() - sandbox.server_time()) < 1.5

    run(go())


def test_rate_limits_are_typed(sandbox: Any) -> None:
    async def go() -> None:
        async with client_for(sandbox, retry=RetryPolicy(max_attempts=1)) as gh:
            sandbox.faults.update(primary_limit=1, primary_window_seconds=3600)
            await gh.get_user()
            with pytest.raises(RateLimited) as ei:
                await gh.get_user()
            assert not ei.value.secondary and ei.value.retry_at is not None
            sandbox.faults.update(primary_limit=5000, secondary_limit=1, secondary_retry_after=30)
            sandbox.injector.reset_counters()
            await gh.get_user()
            with pytest.raises(RateLimited) as ei2:
                await gh.get_user()
            assert ei2.value.secondary
            wait = ei2.value.retry_in()
            assert wait is not None and 25 <= wait <= 31

    run(go())


def test_org_membership_against_sandbox(tmp_path: Path) -> None:
    from modu_desktop.sandbox import Sandbox, SandboxUser

    sb = Sandbox(
        tmp_path / "repo",
        org="pnuai",
        users=[
            SandboxUser("staff", "tok-staff", orgs=("pnuai",)),
            SandboxUser("guest", "tok-guest"),
            SandboxUser("noscope", "tok-noscope", orgs=("pnuai",), scopes=("repo",)),
        ],
    )
    sb.start()
    try:
        from modu_desktop.core.github.client import MembershipProbe

        read_org = ("repo", "workflow", "read:org")

        async def go() -> None:
            async with client_for(sb, "tok-staff") as gh:
                assert await gh.org_membership_probe("pnuai", "staff") == MembershipProbe(
                    204, read_org
                )
                assert await gh.org_membership_probe("pnuai", "guest") == MembershipProbe(
                    404, read_org
                )
            async with client_for(sb, "tok-guest") as gh:
                assert await gh.org_membership_probe("pnuai", "guest") == MembershipProbe(
                    302, read_org
                )
            async with client_for(sb, "tok-noscope") as gh:  # a member, membership invisible
                assert await gh.org_membership_probe("pnuai", "noscope") == MembershipProbe(
                    302, ("repo",)
                )

        run(go())
    finally:
        sb.stop()
