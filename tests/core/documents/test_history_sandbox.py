"""History against the loopback sandbox: versions via the commits API (paged, lock commits
hidden), texts via the git database (cached), diff, and restore as a lock-checked save."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from modu_desktop.core.documents.history import (
    DocHistory,
    RestoreRefused,
    diff_lines,
    is_lock_commit,
    restore_message,
    restore_version,
)
from modu_desktop.core.documents.store import DocumentStore, SaveConflict, SaveResult
from modu_desktop.core.github.blobcache import BlobCache
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.text import Text

REPO = RepoRef("pnuai", "PNU-Modu", "main")
PATH = "docs/03-strategy.md"
COMMITS = "GET /repos/{owner}/{repo}/commits"


async def _no_sleep(_: float) -> None:
    return None


def client_for(sb: Any, token: str = "tok-editor1") -> GitHubClient:
    return GitHubClient(sb.api_url, token, REPO, sleep=_no_sleep)


async def _edit_three_times(gh: GitHubClient, store: DocumentStore) -> list[str]:
    """Three saves of 03-strategy, each inside a lock (so lock commits are in the history)."""
    mgr = LockManager(gh, "editor1", "sess-history", gh.clock)
    texts = []
    for n in range(3):
        held = (await mgr.acquire("03-strategy")).held
        assert held is not None
        doc = await store.load("03-strategy")
        text = doc.text + f"\n\n추가 문단 {n + 1}\n"
        res = await store.save(doc, text, doc.sha, "editor1")
        assert isinstance(res, SaveResult)
        await mgr.release(held)
        texts.append(text)
    return texts


def test_versions_are_listed_newest_first_without_lock_commits_and_paged(
    sandbox: Any, tmp_path: Path
) -> None:
    async def go() -> None:
        async with client_for(sandbox) as gh:
            store = DocumentStore(gh, BlobCache(tmp_path / "blobs"))
            await store.refresh()
            await _edit_three_times(gh, store)
            all_commits = sandbox.commits()
            assert any(is_lock_commit(c["message"]) for c in all_commits)

            history = DocHistory(gh, store)
            versions = await history.versions(PATH)
            msgs = [v.message for v in versions]
            assert msgs[:3] == ["docs(edit): update 03-strategy.md by @editor1"] * 3
            assert len(versions) == 4  # three edits and the seed commit
            assert not any(is_lock_commit(m) for m in msgs)
            assert versions[0].author_login == "editor1" and versions[0].date

            sandbox.reset_stats()
            paged = await DocHistory(gh, store, page_size=2).versions(PATH)
            assert [v.sha for v in paged] == [v.sha for v in versions]
            assert sandbox.stats()["by_route"][COMMITS] == 2  # two pages of two

            assert len(await DocHistory(gh, store, page_size=1).versions(PATH, limit=2)) == 2

    asyncio.run(go())


def test_a_version_is_read_through_the_git_database_once_and_diffed(
    sandbox: Any, tmp_path: Path
) -> None:
    async def go() -> None:
        async with client_for(sandbox) as gh:
            store = DocumentStore(gh, BlobCache(tmp_path / "blobs"))
            await store.refresh()
            seed_text = (await store.load("03-strategy")).text
            texts = await _edit_three_times(gh, store)
            history = DocHistory(gh, store)
            versions = await history.versions(PATH)
            sandbox.reset_stats()
            assert await history.text_at(versions[-1].sha, PATH) == seed_text
            assert await history.text_at(versions[1].sha, PATH) == texts[1]
            first = sandbox.stats()
            assert not any("contents" in r for r in first["by_route"])
            sandbox.reset_stats()
            assert await history.text_at(versions[1].sha, PATH) == texts[1]
            assert sandbox.stats()["total"] == 0  # cached by commit sha

            lines = diff_lines(texts[0], texts[2], old_label="a", new_label="b")
            assert "+추가 문단 2" in lines and "+추가 문단 3" in lines
            assert not any(line.startswith("-추가") for line in lines)
            assert await history.text_at(versions[0].sha, "docs/none.md") is None

    asyncio.run(go())


def test_restore_is_one_lock_checked_save_with_the_restore_message(
    sandbox: Any, tmp_path: Path
) -> None:
    async def go() -> None:
        async with client_for(sandbox) as gh:
            store = DocumentStore(gh, BlobCache(tmp_path / "blobs"))
            await store.refresh()
            seed_text = (await store.load("03-strategy")).text
            await _edit_three_times(gh, store)
            history = DocHistory(gh, store)
            oldest = (await history.versions(PATH))[-1]
            old_text = await history.text_at(oldest.sha, PATH)
            assert old_text is not None
            current = await store.load("03-strategy")

            async def not_mine() -> Text | None:
                return Text("someone else holds the lock")

            before = len(sandbox.commits())
            refused = await restore_version(
                store, current, oldest, old_text, current.sha, "editor1", lock_ok=not_mine
            )
            assert isinstance(refused, RestoreRefused)
            assert len(sandbox.commits()) == before

            mgr = LockManager(gh, "editor1", "sess-restore", gh.clock)
            held = (await mgr.acquire("03-strategy")).held
            assert held is not None

            async def mine() -> Text | None:
                v = await mgr.verify(held)
                return None if v.ok else v.text

            res = await restore_version(
                store, current, oldest, old_text, current.sha, "editor1", lock_ok=mine
            )
            assert isinstance(res, SaveResult)
            head = sandbox.commits()[0]
            assert head["message"] == restore_message(PATH, oldest.short_sha, "editor1")
            assert (
                head["message"]
                == f"docs(edit): restore 03-strategy.md to {oldest.short_sha} by @editor1"
            )
            assert sandbox.read_file(PATH).decode("utf-8") == seed_text

            # A restore over a version someone else has replaced is a conflict, not a blind write.
            stale = await restore_version(
                store, current, oldest, old_text, current.sha, "editor1", lock_ok=mine
            )
            assert isinstance(stale, SaveConflict)
            await mgr.release(held)

    asyncio.run(go())
