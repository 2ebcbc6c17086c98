"""The one wiring of the core for a signed-in user on one repository branch (Qt-free).

``Workspace.build`` makes, from a GitHub client and who we are: the document store (over the
blob cache), the lock manager (with the held-lock records as its observer), the drafts store,
the save queue's spool (which also sends the changes of many pages that waited,
``core/changes/send.make_change_sender``) and the
:class:`~modu_desktop.core.saving.service.SaveService` over them. The
app, the CLI, the self-test and the benchmark all build their core objects here, so a newcomer
reads the wiring in one place.

Without a data directory (the CLI, the self-test) there are no drafts, no queue and no records:
a save that cannot reach GitHub fails instead of waiting.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from modu_desktop.core.account.session import install_id as this_install
from modu_desktop.core.changes.apply import Editor
from modu_desktop.core.changes.send import make_change_sender
from modu_desktop.core.documents.snapshots import SnapshotFile
from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.core.github.client import GitHubClient
from modu_desktop.core.locks.held import HeldLockRecorder, HeldLockRegistry, registry_for
from modu_desktop.core.locks.manager import DEFAULT_CLIENT_NAME, LockManager
from modu_desktop.core.saving.drafts import DraftStore
from modu_desktop.core.saving.queue import Backoff, ChangeItem, SaveSpool, SpoolItem
from modu_desktop.core.saving.service import SaveService, Target, make_reader, make_sender

DRAFTS_DIR = "drafts"
SPOOL_DIR = "spool"
DONE_KEEP_S = 7 * 86400.0  # committed queue items are kept a week (SaveService.rebased)
IDLE_RELEASE_S = 20 * 60.0  # an open document's lock is released after this long without typing


def lock_manager(
    client: GitHubClient,
    login: str,
    session_id: str,
    *,
    heartbeat_s: float = 300.0,
    stale_s: float = 900.0,
    client_name: str | None = None,
    install_id: str | None = None,
) -> LockManager:
    """The lock manager of one session (the workspace's, or a CLI command's on its own)."""
    return LockManager(
        client,
        login,
        session_id,
        client.clock,
        heartbeat_s=heartbeat_s,
        stale_s=stale_s,
        client_name=client_name or DEFAULT_CLIENT_NAME,
        install_id=install_id,
    )


@dataclass
class Workspace:
    client: GitHubClient
    login: str
    session_id: str
    target: Target
    store: DocumentStore
    locks: LockManager
    saves: SaveService
    drafts: DraftStore | None = None
    spool: SaveSpool | None = None
    held_locks: HeldLockRegistry | None = None
    # Seconds without typing after which an open document's lock is released (None: never).
    idle_release_s: float | None = IDLE_RELEASE_S

    @classmethod
    def build(
        cls,
        client: GitHubClient,
        login: str,
        session_id: str,
        *,
        cache_dir: str | Path,
        data_dir: str | Path | None = None,
        heartbeat_s: float = 300.0,
        stale_s: float = 900.0,
        queue_saves: bool = True,
        backoff: Backoff | None = None,
        on_queued: Callable[[SpoolItem | ChangeItem], None] | None = None,
        client_name: str | None = None,
        install_id: str | None = None,
        snapshots: SnapshotFile | None = None,
        idle_release_s: float | None = IDLE_RELEASE_S,
    ) -> Workspace:
        """``data_dir`` None: no drafts, queue or records. ``queue_saves`` False (viewer mode):
        no queue even with a data directory. ``install_id`` None: this installation's id, kept
        in the data directory (random; never the machine's name). ``snapshots``: where the list
        is kept for the next start. ``idle_release_s``: an open document's lock is
        released after this long without typing (None or 0: never)."""
        if install_id is None and data_dir is not None:
            install_id = this_install(data_dir)
        repo = client.repo
        target = Target(str(client.api_url), repo.full_name, repo.branch)
        blobs = Path(cache_dir)
        blobs.mkdir(parents=True, exist_ok=True)
        store = DocumentStore(client, blobs, branch=repo.branch, snapshots=snapshots)
        locks = lock_manager(
            client,
            login,
            session_id,
            heartbeat_s=heartbeat_s,
            stale_s=stale_s,
            client_name=client_name,
            install_id=install_id,
        )
        locks.blob_cache = store.cache  # lock files the listing read: no request
        drafts = spool = registry = None
        if data_dir is not None:
            data = Path(data_dir)
            drafts = DraftStore(data / DRAFTS_DIR)
            registry = registry_for(data)
            locks.observers.append(
                HeldLockRecorder(
                    registry,
                    api_host=target.api_host,
                    repo=target.repo,
                    branch=target.branch,
                    session_id=session_id,
                    login=login,
                )
            )
            if queue_saves:
                spool = SaveSpool(
                    data / SPOOL_DIR,
                    make_sender(client),
                    make_reader(client),
                    backoff=backoff or Backoff(base_s=3.0, cap_s=300.0),
                    change_sender=make_change_sender(client),
                )
                with contextlib.suppress(OSError):
                    spool.prune_done(DONE_KEEP_S)
        saves = SaveService(store, target, spool, on_queued=on_queued)
        return cls(
            client,
            login,
            session_id,
            target,
            store,
            locks,
            saves,
            drafts,
            spool,
            registry,
            idle_release_s or None,
        )

    @property
    def editor(self) -> Editor:
        """Who makes a change of many pages: this login's locks in this session do not keep
        a page out of it."""
        claimant = self.locks.claimant
        return Editor(self.login, self.session_id, claimant.install_id, self.locks.stale_s)

    def server_now(self) -> float:
        """Server time (GitHub's ``Date`` offset), for lock ages."""
        return float(self.client.clock.now())

    async def aclose(self) -> None:
        await self.client.aclose()
