"""The blob cache stays bounded: every blob of the current tree is kept, old versions only while
young and within the size bound, and the store prunes after a refresh that listed a new tree —
in the background, at most once per interval (an injected clock moves it)."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path
from typing import Any

from modu_desktop.core.documents.store import DocumentStore, SaveResult
from modu_desktop.core.github.blobcache import BlobCache, CacheBounds, PruneReport
from modu_desktop.core.github.client import GitHubClient, RepoRef

DAY = 86400.0
NOW = 1_900_000_000.0


def _age(cache: BlobCache, sha: str, seconds: float, now: float = NOW) -> None:
    path = cache.dir / sha[:2] / sha[2:]
    os.utime(path, (now - seconds, now - seconds))


def test_prune_keeps_the_tree_and_young_versions_within_the_size(tmp_path: Path) -> None:
    cache = BlobCache(tmp_path)
    current = cache.put(b"current version " * 10)
    old = cache.put(b"a version from two months ago")
    newer = cache.put(b"x" * 300)  # a day old
    newest = cache.put(b"y" * 300)  # an hour old
    _age(cache, current, 90 * DAY)  # old, but the tree uses it
    _age(cache, old, 60 * DAY)
    _age(cache, newer, DAY)
    _age(cache, newest, 3600)
    bounds = CacheBounds(max_bytes=160 + 300 + 100, max_age_s=30 * DAY)
    report = cache.prune({current}, bounds, now=NOW)
    assert cache.get(current) is not None  # the tree's: kept whatever its age
    assert cache.get(old) is None  # too old
    assert cache.get(newest) is not None  # young, and the newest first within the bytes
    assert cache.get(newer) is None  # young, but past the size bound
    assert (
        report.removed == 2 and report.removed_bytes == len(b"a version from two months ago") + 300
    )
    assert report.left.files == 2 and report.left.bytes == 160 + 300
    assert cache.usage().files == 2


def test_prune_without_bounds_keeps_only_the_tree(tmp_path: Path) -> None:
    cache = BlobCache(tmp_path)
    keep, drop = cache.put(b"keep"), cache.put(b"drop")
    report = cache.prune({keep})
    assert report.removed == 1 and cache.get(keep) == b"keep" and cache.get(drop) is None


def test_the_tree_is_kept_even_over_the_size_bound(tmp_path: Path) -> None:
    cache = BlobCache(tmp_path)
    shas = {cache.put(bytes([n]) * 1000) for n in range(5)}
    report = cache.prune(shas, CacheBounds(max_bytes=10, max_age_s=DAY), now=NOW)
    assert report.removed == 0 and report.left.bytes == 5000


class HeldPrune(BlobCache):
    """A cache whose prune waits until released (the refresh must not wait for it)."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.release = threading.Event()
        self.calls = 0

    def prune(self, keep: set[str], bounds: CacheBounds | None = None, **kw: Any) -> PruneReport:
        self.calls += 1
        assert self.release.wait(30), "the test never released the prune"
        return super().prune(keep, bounds, **kw)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_refresh_prunes_in_the_background_at_most_once_an_hour(
    sandbox: Any, tmp_path: Path
) -> None:
    cache = HeldPrune(tmp_path / "blobs")
    clock = Clock()
    repo = RepoRef("pnuai", "PNU-Modu", "main")

    async def body() -> None:
        async with (
            GitHubClient(sandbox.api_url, "tok-editor1", repo) as gh,
            GitHubClient(sandbox.api_url, "tok-editor2", repo) as peer_gh,
        ):
            store = DocumentStore(gh, cache, monotonic=clock)
            peer = DocumentStore(peer_gh, tmp_path / "peer")
            snap = await store.refresh()  # returns while the prune is held
            first = store.pruning
            assert first is not None and not first.done() and snap.docs
            cache.release.set()
            report = await first
            assert report is not None and report.removed == 0
            tree_blobs = report.left.files

            # An old version read for history, and an old file nobody needs any more.
            stale = cache.put(b"an old version of a page")
            young = cache.put(b"a version read this morning")
            _age(cache, stale, 45 * DAY, time.time())
            for f in (p for p in cache.dir.rglob("*") if p.is_file()):  # the tree's, old too
                if f.name not in (stale[2:], young[2:]):
                    os.utime(f, (time.time() - 90 * DAY,) * 2)

            doc = await peer.load("01-welcome")
            saved = await peer.save(doc, doc.text + "\n한 줄 더\n", doc.sha, "editor2")
            assert isinstance(saved, SaveResult)
            await store.refresh()  # a new tree, but within the hour: no second prune
            assert store.pruning is first and cache.calls == 1
            await store.refresh()  # unchanged tree: nothing to prune either
            assert cache.calls == 1

            clock.now += 3601
            doc = await peer.load("02-programs")
            await peer.save(doc, doc.text + "\n또 한 줄\n", doc.sha, "editor2")
            await store.refresh()
            assert store.pruning is not first and store.pruning is not None
            report = await store.pruning
            assert report is not None and cache.calls == 2
            assert cache.get(stale) is None and cache.get(young) is not None
            assert all(cache.get(d.sha) is not None for d in store.snapshot.docs)  # type: ignore[union-attr]
            assert report.left.files >= tree_blobs

    asyncio.run(body())
