"""The document list: one tree read, the blobs it names from the disk cache (or one archive, or
blob reads), each page summarised once per version; and the cache kept within its bounds.

- `refresh()` costs one `GET git/trees/{branch}?recursive=1` when nothing changed (blobs are
  cached on disk by sha; a 304 or an identical tree sha re-uses the parsed summaries).
- Lock files (`.locks/**.lock.json`) come from the same tree listing.
- After a refresh that found a new tree, the blob cache is pruned in the background (at most
  once per `prune_every_s`): every blob of the current tree stays, old versions only within
  `CacheBounds` (`core/github/blobcache.py`).

`Listing` is the base of `DocumentStore` (`store.py`), which adds loading and writing.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from modu_desktop.core.documents.model import DocSummary, RepoSnapshot, summarize
from modu_desktop.core.documents.naming import (
    DOCS_DIR,
    LOCKS_DIR,
    doc_id_for_path,
    lock_doc_id_for_path,
)
from modu_desktop.core.github.archive import read_archive
from modu_desktop.core.github.blobcache import BlobCache, CacheBounds, PruneReport
from modu_desktop.core.github.client import GitHubClient, Tree, TreeEntry
from modu_desktop.core.github.errors import GitHubError, RepositoryEmpty
from modu_desktop.core.pictures.rule import is_picture_file

log = logging.getLogger(__name__)

_SYMLINK_MODE = "120000"
# Parse or read this many documents, then yield to the event loop: one slice stays well under
# the 50 ms a user notices (measured: ~64 ms to summarise 1,000 documents in one go).
_SUMMARIES_PER_SLICE = 64
# A first list with many blobs missing reads the whole repository in one archive request
# (tarball → download: 2 requests, 2 RT + the whole repository's bytes) instead of one request
# per blob (k/8 round trips for k missing). Both conditions must hold:
# - at least ARCHIVE_MIN_MISSING blobs missing (below, blob reads take ≤ 3 RT), and
# - the missing bytes are at least 1/ARCHIVE_BYTES_RATIO of the whole tree (the archive carries
#   everything, pictures included).
# Measured (bench threshold series, 150 ms latency, docs/performance.md): the archive wins from
# k ≈ 16–24 missing of 100 documents (350 KB) and k ≈ 24–32 of 1,000 (2.3 MB) on a quiet
# machine, k ≈ 32–64 of 1,000 under load; 1/32 of 2.3 MB is ≈ 36 documents.
ARCHIVE_MIN_MISSING = 24
ARCHIVE_BYTES_RATIO = 32
# ... unless the archive would carry much more than the documents: pictures and the site's
# sources come with it. Above this many bytes in the whole tree, blob reads it is.
ARCHIVE_MAX_BYTES = 48 * 1024 * 1024
# A tree read sent ahead (`use_prefetched`) is used by the next refresh only this soon after.
PREFETCH_MAX_AGE_S = 15.0
# The cache is pruned after a refresh at most this often (the scan reads every file's metadata).
PRUNE_EVERY_S = 3600.0


@dataclass
class _Sorted:
    """A tree's entries by what they are to the list."""

    docs: list[TreeEntry] = field(default_factory=list)
    images: list[TreeEntry] = field(default_factory=list)
    locks: dict[str, TreeEntry] = field(default_factory=dict)


class Listing:
    """Lists the documents and locks of one repository branch and keeps the blob cache."""

    def __init__(
        self,
        client: GitHubClient,
        cache: BlobCache | str | os.PathLike[str],
        *,
        concurrency: int = 8,
        branch: str | None = None,
        archive_min_missing: int = ARCHIVE_MIN_MISSING,
        archive_max_bytes: int = ARCHIVE_MAX_BYTES,
        archive_bytes_ratio: float = ARCHIVE_BYTES_RATIO,
        snapshots: Any = None,
        cache_bounds: CacheBounds | None = None,
        prune_every_s: float = PRUNE_EVERY_S,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.cache = cache if isinstance(cache, BlobCache) else BlobCache(Path(cache))
        self.concurrency = max(1, concurrency)
        self.branch = branch or client.repo.branch
        self.snapshot: RepoSnapshot | None = None
        self._summaries: dict[tuple[str, str], DocSummary] = {}  # (path, sha) → summary
        self._incomplete = False
        self.archive_min_missing = archive_min_missing
        self.archive_max_bytes = archive_max_bytes
        self.archive_bytes_ratio = archive_bytes_ratio
        # core.snapshots.SnapshotFile: every new listing is written there for the next start.
        self.snapshots = snapshots
        self.last_listing: dict[str, int] = {}  # how the last refresh read its blobs (tests, bench)
        self._prefetched: tuple[Awaitable[Tree], float] | None = None
        self.cache_bounds = cache_bounds if cache_bounds is not None else CacheBounds()
        self.prune_every_s = prune_every_s
        self._monotonic = monotonic
        self._tree_blobs: frozenset[str] = frozenset()  # every blob sha of the listed tree
        self._last_prune: float | None = None
        self.pruning: asyncio.Task[PruneReport | None] | None = None  # the one in the background

    # -------------------------------------------------------------- the tree

    def use_prefetched(self, tree: Awaitable[Tree]) -> None:
        """A tree request already under way (the app sends it with the sign-in check, so both
        take one round trip): the next `refresh()` uses its answer instead of asking again.
        Used once, and only within `PREFETCH_MAX_AGE_S`; if it failed, refresh asks again."""
        self._prefetched = (tree, self._monotonic())

    async def _tree(self) -> Tree:
        pre, self._prefetched = self._prefetched, None
        if pre is not None:
            tree_task, at = pre
            if self._monotonic() - at <= PREFETCH_MAX_AGE_S:
                try:
                    return await tree_task
                except RepositoryEmpty:
                    raise
                except Exception as exc:  # asked again below, with the retries of a real read
                    log.info("prefetched tree failed (%s); reading it again", exc)
            elif isinstance(tree_task, asyncio.Future):
                tree_task.cancel()
        return await self.client.get_tree(self.branch, recursive=True)

    # -------------------------------------------------------------- refresh

    async def refresh(self) -> RepoSnapshot:
        """List documents and locks. Unchanged repository + warm cache → exactly one request."""
        try:
            tree = await self._tree()
        except RepositoryEmpty:
            snap = RepoSnapshot("", (), {}, self.branch, self.client.clock.now())
            self.snapshot = snap
            return snap
        prev = self.snapshot
        if prev is not None and prev.tree_sha == tree.sha:
            snap = RepoSnapshot(
                prev.tree_sha,
                prev.docs,
                dict(prev.locks),
                self.branch,
                self.client.clock.now(),
                True,
                prev.walked,
                prev.images,
                prev.incomplete,
            )
            self.snapshot = snap
            return snap
        snap = await self._new_listing(tree)
        self.snapshot = snap
        await self._persist(snap)
        self._prune_when_due()
        return snap

    async def _new_listing(self, tree: Tree) -> RepoSnapshot:
        self._incomplete = False
        walked = tree.truncated
        entries = await self._walk_truncated(tree) if walked else list(tree.entries)
        self._tree_blobs = frozenset(e.sha for e in entries if e.type == "blob")
        found = _sort_entries(entries)
        needed = [e for e in found.docs if (e.path, e.sha) not in self._summaries]
        # Lock files come along: the lock manager reads them from the same disk cache.
        needed += list(found.locks.values())
        total = None if walked else sum(e.size or 0 for e in entries if e.type == "blob")
        blobs = await self._fetch_listing(needed, total)
        docs = await self._summarised(found.docs, blobs)
        return RepoSnapshot(
            tree.sha,
            tuple(docs),
            found.locks,
            self.branch,
            self.client.clock.now(),
            False,
            walked,
            tuple(found.images),
            self._incomplete,
        )

    async def _summarised(
        self, entries: list[TreeEntry], blobs: dict[str, bytes]
    ) -> list[DocSummary]:
        """Each document's summary, parsed only for versions not summarised before."""
        docs: list[DocSummary] = []
        for n, e in enumerate(entries, 1):
            key = (e.path, e.sha)
            summary = self._summaries.get(key)
            if summary is None:
                summary = summarize(e, blobs[e.sha])
                self._summaries[key] = summary
                if n % _SUMMARIES_PER_SLICE == 0:
                    await asyncio.sleep(0)  # let the UI breathe between slices of parsing
            docs.append(summary)
        docs.sort(key=lambda d: d.sort_key)
        live = {(d.path, d.sha) for d in docs}
        for key in [k for k in self._summaries if k not in live]:
            del self._summaries[key]
        return docs

    def restore(self, snap: RepoSnapshot) -> None:
        """Start from a listing of a previous run (`core.snapshots`): the next `refresh()` then
        costs one tree request when nothing changed, and parses only what did."""
        if self.snapshot is not None:
            return
        self.snapshot = snap
        for d in snap.docs:
            self._summaries[(d.path, d.sha)] = d

    async def _persist(self, snap: RepoSnapshot) -> None:
        if self.snapshots is None:
            return
        try:
            await asyncio.to_thread(self.snapshots.save, snap)
        except (OSError, ValueError, TypeError) as exc:  # a cache: never fails the listing
            log.info("could not save the document list for the next start: %s", exc)

    # -------------------------------------------------------------- blobs for a listing

    async def _fetch_listing(self, needed: list[TreeEntry], total: int | None) -> dict[str, bytes]:
        """Blobs for a listing: the disk cache, then one archive request when many are missing
        (each file verified against the tree's sha), then blob reads for whatever is left."""
        out: dict[str, bytes] = {}
        missing: dict[str, TreeEntry] = {}
        for n, e in enumerate(needed, 1):
            if e.sha in out or e.sha in missing:
                continue
            data = self.cache.get(e.sha)
            if data is None:
                missing[e.sha] = e
            else:
                out[e.sha] = data
            if n % _SUMMARIES_PER_SLICE == 0:
                await asyncio.sleep(0)
        stats = {"cached": len(out), "missing": len(missing), "archive": 0, "blob_reads": 0}
        self.last_listing = stats
        missing_bytes = sum(e.size or 0 for e in missing.values())
        if (
            len(missing) >= max(1, self.archive_min_missing)
            and total is not None
            and total <= self.archive_max_bytes
            and missing_bytes * self.archive_bytes_ratio >= total
        ):
            got = await self._from_archive(missing)
            stats["archive"] = len(got)
            out.update(got)
            for sha in got:
                missing.pop(sha, None)
        stats["blob_reads"] = len(missing)
        if missing:
            out.update(await self.fetch_blobs(missing))
        return out

    async def _from_archive(self, missing: dict[str, TreeEntry]) -> dict[str, bytes]:
        wanted = {e.path: e.sha for e in missing.values()}
        try:
            data = await self.client.get_tarball(self.branch)
        except GitHubError as exc:  # NetworkError too: the blob reads still work
            log.info("archive read failed (%s); reading %d blobs one by one", exc, len(wanted))
            return {}
        files = await asyncio.to_thread(_verified_and_cached, data, wanted, self.cache)
        if files.mismatched:
            log.info(
                "%d file(s) changed between the tree and the archive; reading them by sha",
                len(files.mismatched),
            )
        return files.blobs

    async def _walk_truncated(self, tree: Tree) -> list[TreeEntry]:
        """The recursive listing hit GitHub's limit: list only docs/ and .locks/ subtree by
        subtree (recursive per subtree, non-recursive below any that is truncated too)."""
        root = await self.client.get_tree(tree.sha, recursive=False)
        if root.truncated:
            self._incomplete = True
            log.warning("the repository root listing is truncated; some documents are missing")
        out: list[TreeEntry] = []
        for e in root.entries:
            if e.type == "tree" and e.path in (DOCS_DIR, LOCKS_DIR):
                out.extend(await self._walk(e.path, e.sha))
        return out

    async def _walk(self, prefix: str, sha: str) -> list[TreeEntry]:
        sub = await self.client.get_tree(sha, recursive=True)
        if not sub.truncated:
            return [_prefixed(prefix, e) for e in sub.entries]
        level = await self.client.get_tree(sha, recursive=False)
        if level.truncated:
            self._incomplete = True
            log.warning("the listing of %s is truncated; some documents are missing", prefix)
        out: list[TreeEntry] = []
        for e in level.entries:
            out.append(_prefixed(prefix, e))
            if e.type == "tree":
                out.extend(await self._walk(f"{prefix}/{e.path}", e.sha))
        return out

    async def fetch_blobs(self, shas: Iterable[str]) -> dict[str, bytes]:
        """Blobs by sha: from the disk cache, else fetched with bounded concurrency and cached.
        All fetches are attempted; the first failure is raised afterwards."""
        wanted = list(dict.fromkeys(shas))
        out: dict[str, bytes] = {}
        missing: list[str] = []
        for n, sha in enumerate(wanted, 1):
            data = self.cache.get(sha)
            if data is None:
                missing.append(sha)
            else:
                out[sha] = data
            if n % _SUMMARIES_PER_SLICE == 0:
                await asyncio.sleep(0)  # reading and hashing 1,000 cached blobs takes a while
        if not missing:
            return out
        sem = asyncio.Semaphore(self.concurrency)

        async def one(sha: str) -> None:
            async with sem:
                data = await self.client.get_blob(sha)
            try:
                self.cache.put(data, sha)
            except OSError as exc:
                log.warning("blob cache write failed for %s: %s", sha, exc)
            out[sha] = data

        results = await asyncio.gather(*(one(s) for s in missing), return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException):
                raise r
        return out

    async def read_blob(self, sha: str) -> bytes:
        return (await self.fetch_blobs([sha]))[sha]

    # -------------------------------------------------------------- keeping the cache bounded

    def _prune_when_due(self) -> None:
        """Start a background prune after a new listing, unless one ran within
        `prune_every_s` or one is still running: the refresh does not wait for it."""
        now = self._monotonic()
        if self.pruning is not None and not self.pruning.done():
            return
        if self._last_prune is not None and now - self._last_prune < self.prune_every_s:
            return
        self._last_prune = now
        self.pruning = asyncio.get_running_loop().create_task(self.prune_cache())

    async def prune_cache(self) -> PruneReport | None:
        """Bound the blob cache (in a worker thread): every blob of the last listed tree stays;
        old versions only within `cache_bounds`. None before a tree was listed in this run (a
        list restored from disk does not say which pictures and files the tree holds)."""
        if not self._tree_blobs:
            return None
        keep = set(self._tree_blobs)
        if self.snapshot is not None:
            keep |= {d.sha for d in self.snapshot.docs}
            keep |= {e.sha for e in self.snapshot.locks.values()}
        try:
            report = await asyncio.to_thread(self.cache.prune, keep, self.cache_bounds)
        except OSError as exc:  # a cache: pruning may fail without harm
            log.info("could not prune the blob cache: %s", exc)
            return None
        if report.removed:
            log.info(
                "blob cache: %d old file(s) removed (%d bytes); %d files, %d bytes left",
                report.removed,
                report.removed_bytes,
                report.left.files,
                report.left.bytes,
            )
        return report


def _sort_entries(entries: Iterable[TreeEntry]) -> _Sorted:
    found = _Sorted()
    for e in entries:
        if e.type != "blob" or e.mode == _SYMLINK_MODE:
            continue
        if doc_id_for_path(e.path) is not None:
            found.docs.append(e)
            continue
        lock_id = lock_doc_id_for_path(e.path)
        if lock_id is not None:
            found.locks[lock_id] = e
            continue
        if e.path.startswith(DOCS_DIR + "/") or is_picture_file(e.path):
            found.images.append(e)  # the picture library lists them without another request
    return found


def _verified_and_cached(data: bytes, wanted: dict[str, str], cache: BlobCache) -> Any:
    """(worker thread) The archive's files that match the tree, written to the blob cache."""
    files = read_archive(data, wanted)
    for sha, blob in files.blobs.items():
        try:
            cache.put(blob, sha)
        except OSError as exc:
            log.info("blob cache write failed for %s: %s", sha, exc)
    return files


def _prefixed(prefix: str, e: TreeEntry) -> TreeEntry:
    return TreeEntry(f"{prefix}/{e.path}", e.sha, e.mode, e.type, e.size)
