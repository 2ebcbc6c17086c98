"""Our client, driven exactly as the app drives it (``ui/main_window.py`` at the time of writing),
plus *proposed* variants that only re-arrange existing core calls (issued in parallel) to show
what a core/UI change would buy. Nothing here changes the core.

UI path (what the app does today):

* list:  ``DocumentStore.refresh()`` then ``LockManager.list_locks(snapshot.locks)``
  (``MainWindow.refresh_list``).
* open:  when the list showed no lock file, ``acquire`` ∥ ``load``
  (``EditSession.open``); otherwise ``LockManager.inspect`` → ``acquire`` →
  ``DocumentStore.load``, sequential.
* contended open (``core/edit_session.py``): when the list saw the lock and its bytes are
  in the blob cache, the dialog opens at once from ``LockManager.cached_view`` while one
  ``LockManager.inspect`` (a tree read; the blob only if the sha moved) confirms it; measured to
  the confirmed holder, with the time to the first dialog alongside. Otherwise ``inspect`` →
  the dialog.
* heartbeat: ``LockManager.heartbeat`` (a conditional tree read, then one conditional PUT).
* save:  ``LockManager.verify`` → ``SaveService.save`` (sequential; ``EditSession.save``).
* close: ``LockManager.release`` (``EditSession.close``).

Proposed:

* open:  as the app, but a listed lock is looked at with the contended path below.
* contended open: ``get_tree`` ∥ Contents API read of the lock; the Contents answer is used only
  if its git blob sha equals the tree's lock sha (so a stale cache is never trusted).
* save:  ``verify`` ∥ ``save``.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.transport import CountingTransport
from modu_desktop.core.documents.store import LoadedDoc, RepoSnapshot
from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.github.client import GitHubClient, NotFound, RepoRef
from modu_desktop.core.locks.model import AcquireOutcome, HeldLock, LockStatus, LockView, classify
from modu_desktop.core.locks.wire import lock_path, parse_lock
from modu_desktop.core.workspace import Workspace


@dataclass
class OpenResult:
    doc: LoadedDoc | None
    held: HeldLock | None
    view: LockView | None  # the blocking lock (contended) or None


class OurClient:
    """A GitHubClient and the core's ``Workspace`` (store and locks, as the app builds them).
    ``cache_dir`` None → a fresh temp directory (a cold disk cache)."""

    def __init__(
        self,
        api_url: str,
        token: str,
        login: str,
        owner: str,
        name: str,
        branch: str = "main",
        *,
        cache_dir: Path | None = None,
    ) -> None:
        self._own_cache = cache_dir is None
        self.cache_dir = cache_dir or Path(tempfile.mkdtemp(prefix="modu-bench-cache-"))
        self.transport = CountingTransport()
        self.client = GitHubClient(
            api_url, token, RepoRef(owner, name, branch), transport=self.transport
        )
        ws = Workspace.build(
            self.client,
            login,
            "bench-session",
            cache_dir=self.cache_dir,
            install_id="bench-install",
        )
        self.store = ws.store
        self.locks = ws.locks
        self.snapshot: RepoSnapshot | None = None
        self.views: list[LockView] = []
        self.last_dialog_s: float | None = None  # contended_ui: time to the cached dialog

    async def aclose(self) -> None:
        await self.client.aclose()
        if self._own_cache:
            shutil.rmtree(self.cache_dir, ignore_errors=True)

    # -- list ------------------------------------------------------------------------------

    async def list_docs(self) -> RepoSnapshot:
        snap = await self.store.refresh()
        locks = {doc_id: entry.sha for doc_id, entry in (snap.locks or {}).items()}
        self.views = await self.locks.list_locks(locks) if locks else []
        self.snapshot = snap
        return snap

    # -- open (UI path) --------------------------------------------------------------------

    async def open_ui(self, doc_id: str) -> OpenResult:
        if not self._listed_lock(doc_id):  # MainWindow._acquire_and_load
            res, doc = await asyncio.gather(
                self.locks.acquire(doc_id, take_stale=True), self.store.load(doc_id)
            )
            if res.held is None:
                return OpenResult(doc, None, res.view)
            return OpenResult(doc, res.held, None)
        seen = await self.locks.inspect(doc_id)
        if seen.status in (LockStatus.HELD, LockStatus.MINE_OTHER_SESSION, LockStatus.MALFORMED):
            return OpenResult(None, None, seen)
        res = await self.locks.acquire(doc_id, take_stale=True)
        if res.held is None:
            return OpenResult(None, None, res.view)
        doc = await self.store.load(doc_id)
        return OpenResult(doc, res.held, None)

    async def contended_ui(self, doc_id: str) -> LockView:
        """Up to the holder named from fresh data (the dialog itself opened before, from the
        list's cached lock, at ``last_dialog_s``)."""
        t = time.perf_counter()
        self.last_dialog_s = None
        entry = (self.snapshot.locks or {}).get(doc_id) if self.snapshot is not None else None
        if entry is not None:
            cached = self.locks.cached_view(doc_id, entry.sha)
            if cached is not None and cached.status in (
                LockStatus.HELD,
                LockStatus.MINE_OTHER_SESSION,
                LockStatus.MALFORMED,
            ):
                self.last_dialog_s = time.perf_counter() - t
        return await self.locks.inspect(doc_id)

    # -- open (proposed) -------------------------------------------------------------------

    def _listed_lock(self, doc_id: str) -> bool:
        return self.snapshot is not None and doc_id in (self.snapshot.locks or {})

    async def open_proposed(self, doc_id: str) -> OpenResult:
        if self._listed_lock(doc_id):  # the list showed a lock: look first (contended path)
            view = await self.contended_proposed(doc_id)
            if view.status in (
                LockStatus.HELD,
                LockStatus.MINE_OTHER_SESSION,
                LockStatus.MALFORMED,
            ):
                return OpenResult(None, None, view)
        res, doc = await asyncio.gather(
            self.locks.acquire(doc_id, take_stale=True), self.store.load(doc_id)
        )
        if res.outcome is AcquireOutcome.BLOCKED or res.held is None:
            return OpenResult(doc, None, res.view)
        return OpenResult(doc, res.held, None)

    async def contended_proposed(self, doc_id: str) -> LockView:
        """Tree ∥ Contents API; trust the Contents body only when its blob sha is the tree's."""
        path = lock_path(doc_id)

        async def contents() -> tuple[str, bytes] | None:
            try:
                f = await self.client.get_contents(path)
            except NotFound:
                return None
            return str(f.sha), bytes(f.content)

        tree, got = await asyncio.gather(self.client.get_tree(self.store.branch), contents())
        entry = tree.find(path)
        sha = entry.sha if entry is not None else None
        if sha is None:
            record = None
        elif got is not None and git_blob_sha(got[1]) == sha:
            record = parse_lock(got[1], doc_id)
        else:  # the Contents API was stale: fall back to the blob by sha
            record = parse_lock(await self.client.get_blob(sha), doc_id)
        return classify(
            doc_id,
            sha,
            record,
            login=self.locks.login,
            session_id=self.locks.session_id,
            server_now=self.locks.server_now(),
            stale_s=self.locks.stale_s,
            install_id=self.locks.install_id,
        )

    # -- heartbeat / save / close ----------------------------------------------------------

    async def heartbeat(self, held: HeldLock) -> Any:
        return await self.locks.heartbeat(held)

    async def save_ui(self, held: HeldLock, doc: LoadedDoc, text: str) -> Any:
        ver = await self.locks.verify(held)
        if not ver.ok:
            return ver
        return await self.store.save(doc.doc_id, text, doc.sha, self.locks.login)

    async def save_proposed(self, held: HeldLock, doc: LoadedDoc, text: str) -> Any:
        ver, res = await asyncio.gather(
            self.locks.verify(held), self.store.save(doc.doc_id, text, doc.sha, self.locks.login)
        )
        return res if ver.ok else ver

    async def close(self, held: HeldLock) -> Any:
        return await self.locks.release(held)
