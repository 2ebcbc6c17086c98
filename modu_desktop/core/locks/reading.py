"""Reading locks through the git database and classifying them for one claimant (Qt-free):
the branch's tree for the lock files' blob shas, each lock's blob by sha (from the caches when
it is there), and the lock's history when an answer of ours was lost."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from typing import Any

from modu_desktop.core.github.blobcache import BlobCache
from modu_desktop.core.locks.client import (
    LockClient,
    _get,
    lock_shas_from_tree,
    tree_entries,
)
from modu_desktop.core.locks.model import Claimant, LockView, classify
from modu_desktop.core.locks.wire import LOCK_DIR, LockRecord, parse_lock, validate_doc_id

_MEMORY_BLOBS = 512  # lock files are tiny; past this many the memory cache starts again


class LockReader:
    """Reads and classifies the locks of one branch for ``claimant``; ``now`` is server time.

    Two caches spare blob reads: this reader's own memory, and the document store's disk cache
    (``blob_cache``), where a listing puts the lock files it read. A blob is named by its sha,
    so a cached lock is never stale: a changed lock has another sha."""

    def __init__(
        self,
        client: LockClient,
        claimant: Claimant,
        branch: str,
        now: Callable[[], float],
        *,
        stale_s: float,
        blob_concurrency: int = 4,
    ) -> None:
        self.client = client
        self.claimant = claimant
        self.branch = branch
        self.now = now
        self.stale_s = stale_s
        self.blob_concurrency = max(1, blob_concurrency)
        self.blob_cache: BlobCache | None = None
        self._blobs: dict[str, bytes] = {}

    # -- classifying -------------------------------------------------------------------------

    def classify(self, doc_id: str, sha: str | None, record: LockRecord | None) -> LockView:
        me = self.claimant
        return classify(
            doc_id,
            sha,
            record,
            login=me.login,
            session_id=me.session_id,
            server_now=self.now(),
            stale_s=self.stale_s,
            install_id=me.install_id,
        )

    def cached_view(self, doc_id: str, sha: str | None) -> LockView | None:
        """The lock with blob ``sha`` classified from what is already here (no request), or
        None when its bytes are not cached. Its ``server_now`` is now: the age is current even
        when the listing that named ``sha`` is not."""
        if sha is None:
            return self.classify(doc_id, None, None)
        data = self._known_blob(sha)
        return None if data is None else self.classify(doc_id, sha, parse_lock(data, doc_id))

    # -- blobs -------------------------------------------------------------------------------

    def _known_blob(self, sha: str) -> bytes | None:
        cached = self._blobs.get(sha)
        if cached is None and self.blob_cache is not None:
            with contextlib.suppress(Exception):
                cached = self.blob_cache.get(sha)
        return cached

    async def blob(self, sha: str, sem: asyncio.Semaphore | None = None) -> bytes:
        cached = self._known_blob(sha)
        if cached is not None:
            return cached
        if sem is None:
            data = await self.client.get_blob(sha)
        else:
            async with sem:
                data = await self.client.get_blob(sha)
        if isinstance(data, str):
            data = data.encode("utf-8")
        if len(self._blobs) > _MEMORY_BLOBS:
            self._blobs.clear()
        self._blobs[sha] = bytes(data)
        return bytes(data)

    # -- trees -------------------------------------------------------------------------------

    async def lock_shas(self) -> dict[str, str]:
        """docId -> sha of every lock on the branch: one conditional tree request (a branch
        that did not change since this client's last look is a 304) unless truncated."""
        tree = await self.client.get_tree(self.branch, recursive=True)
        entries, truncated = tree_entries(tree)
        if truncated:
            entries = await self._walk(self.branch, LOCK_DIR)
        return lock_shas_from_tree(entries)

    async def _walk(self, ref: str, folder: str) -> list[tuple[str, str, str]]:
        """List ``folder`` recursively without a recursive tree of the whole branch."""
        entries, _ = tree_entries(await self.client.get_tree(ref, recursive=False))
        sha = next((s for p, k, s in entries if p == folder and k == "tree"), None)
        if sha is None:
            return []
        sub, truncated = tree_entries(await self.client.get_tree(sha, recursive=True))
        if not truncated:
            return [(f"{folder}/{p}", k, s) for p, k, s in sub]
        out: list[tuple[str, str, str]] = []
        pending = [(folder, sha)]
        while pending:
            prefix, tree_sha = pending.pop()
            level, _ = tree_entries(await self.client.get_tree(tree_sha, recursive=False))
            for p, k, s in level:
                full = f"{prefix}/{p}"
                if k == "tree":
                    pending.append((full, s))
                else:
                    out.append((full, k, s))
        return out

    async def lock_sha(self, doc_id: str) -> str | None:
        return (await self.lock_shas()).get(doc_id)

    # -- views -------------------------------------------------------------------------------

    async def view_of(
        self, doc_id: str, sha: str | None, *, sem: asyncio.Semaphore | None = None
    ) -> LockView:
        """Classify the lock with blob ``sha`` (None = no lock file) without reading the tree."""
        record = None if sha is None else parse_lock(await self.blob(sha, sem), doc_id)
        return self.classify(doc_id, sha, record)

    async def inspect(self, doc_id: str) -> LockView:
        """Read and classify the lock of ``doc_id``: tree + blob by sha (never Contents API)."""
        validate_doc_id(doc_id)
        return await self.view_of(doc_id, await self.lock_sha(doc_id))

    async def list_locks(self, shas: Mapping[str, Any] | None = None) -> list[LockView]:
        """Every lock on the branch (or in ``shas``, e.g. a RepoSnapshot's), sorted by docId."""
        if shas is None:
            shas = await self.lock_shas()
        else:
            shas = {k: (_get(v, "sha") if not isinstance(v, str) else v) for k, v in shas.items()}
        items = sorted(shas.items())
        sem = asyncio.Semaphore(self.blob_concurrency)  # per call: never bound to an old loop
        views = await asyncio.gather(*(self.view_of(d, s, sem=sem) for d, s in items))
        return list(views)

    # -- history -----------------------------------------------------------------------------

    async def continuous(self, path: str, previous_sha: str, current_sha: str) -> bool:
        """Was the lock at ``path``, now blob ``current_sha`` (our session's), written over
        ``previous_sha``? Reads the newest commit touching the lock and the lock in its parent
        commit (rare: only after a write whose answer was lost, or one still under way).

        The shas are the caller's, taken when it looked: a heartbeat and the check before a
        save run side by side, and either may adopt our newest write meanwhile. Raises on
        network errors, and ``HistoryMoved`` when the lock changed again after ``current_sha``
        (the newest commit is not the one to judge)."""
        commits = await self.client.list_commits(path=path, sha=self.branch, per_page=1)
        if not commits:
            return False
        parents = _get(commits[0], "parents") or ()
        if not parents:
            return False
        parent = parents[0] if isinstance(parents[0], str) else _get(parents[0], "sha")
        commit = await self.client.get_commit(parent)
        tree_sha = _get(commit, "tree_sha")
        if not isinstance(tree_sha, str):
            return False
        entries, _ = tree_entries(await self.client.get_tree(tree_sha, recursive=True))
        before = next((sha for p, _k, sha in entries if p == path), None)
        if before == current_sha:
            raise HistoryMoved(f"{path} changed again after {current_sha}")
        return before == previous_sha


class HistoryMoved(Exception):
    """The lock's newest commit was written over the blob being asked about: a later write,
    so whether that blob continued ours cannot be told from it (ask again at the next look)."""
