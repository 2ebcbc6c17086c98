"""The in-memory GitHub stand-in of the lock tests keeps GitHub's write rules."""

from __future__ import annotations

from modu_desktop.core.github.client import GitHubConflict, ShaMissing
from tests.helpers.lock_fakes import FakeClient, FakeRepo


def test_fake_repo_follows_github_write_rules() -> None:
    import asyncio

    repo = FakeRepo(now=lambda: 1_800_000_000.0)
    client = FakeClient(repo, "editor1")

    async def run() -> None:
        first = await client.put_file("a.txt", b"1", "create")
        try:
            await client.put_file("a.txt", b"2", "no sha")
        except ShaMissing:
            pass
        else:
            raise AssertionError("expected ShaMissing")
        try:
            await client.put_file("a.txt", b"2", "bad sha", sha="0" * 40)
        except GitHubConflict:
            pass
        else:
            raise AssertionError("expected GitHubConflict")
        assert first.content_sha is not None
        await client.delete_file("a.txt", first.content_sha, "delete")
        assert repo.read("a.txt") is None

    asyncio.run(run())
    assert [c.message for c in repo.commits] == ["create", "delete"]
