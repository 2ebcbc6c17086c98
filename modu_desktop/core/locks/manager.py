"""The lock protocol for one login and session (see the package docstring for what it does
better than the web admin): ``LockManager`` is the one door, over its parts — reading and
classifying (``reading.py``), writing lock files (``writing.py``), acquire and take over
(``acquiring.py``), the heartbeat (``renewing.py``), release (``releasing.py``) and the check
before a save (``verifying.py``). Here live what the parts share: which claim of ours is the
newest per document, and the observers told about every lock we come to hold or let go."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from modu_desktop import __version__
from modu_desktop.core.github.blobcache import BlobCache
from modu_desktop.core.locks.acquiring import Acquirer
from modu_desktop.core.locks.client import LockClient, _server_now_of
from modu_desktop.core.locks.model import (
    Claimant,
    HeartbeatOutcome,
    HeldLock,
    LockCall,
    LockCallWatcher,
    LockObserver,
    LockView,
    ReleaseOutcome,
)
from modu_desktop.core.locks.reading import LockReader
from modu_desktop.core.locks.releasing import Releaser, claimed_again
from modu_desktop.core.locks.renewing import Renewer
from modu_desktop.core.locks.results import (
    AcquireResult,
    HeartbeatResult,
    ReleaseResult,
    VerifyResult,
)
from modu_desktop.core.locks.verifying import verify
from modu_desktop.core.locks.writing import LockWriter

DEFAULT_CLIENT_NAME = "ModuDesktop"

log = logging.getLogger(__name__)

R = TypeVar("R")


class LockManager:
    """Acquire, heartbeat, steal, release and verify document locks for one login + session."""

    def __init__(
        self,
        client: LockClient,
        login: str,
        session_id: str,
        clock: Any,
        *,
        heartbeat_s: float = 300,
        stale_s: float = 900,
        client_name: str = DEFAULT_CLIENT_NAME,
        client_version: str = __version__,
        install_id: str | None = None,
        branch: str | None = None,
        host: str | None = None,  # the old name of install_id (callers written before it)
        blob_concurrency: int = 4,
    ) -> None:
        if not login:
            raise ValueError("login is required")
        if install_id is None:
            install_id = host
        if install_id is None:
            from modu_desktop.core.account.session import install_id as process_install_id

            install_id = process_install_id()  # random; never the machine's name
        self.client = client
        self.heartbeat_s = heartbeat_s
        self.stale_s = stale_s
        self.branch = branch or _branch_of(client) or "main"
        self.claimant = Claimant(login, session_id, install_id, client_name, client_version)
        self._now = _server_now_of(clock)
        self.reader = LockReader(
            client,
            self.claimant,
            self.branch,
            self._now,
            stale_s=stale_s,
            blob_concurrency=blob_concurrency,
        )
        self.writer = LockWriter(client, self.claimant, self.reader, lambda: int(self._now()))
        self._acquirer = Acquirer(self.reader, self.writer, clock, self._renew_found)
        self._renewer = Renewer(self.reader, self.writer, stale_s=stale_s)
        self._releaser = Releaser(self.reader, self.writer)
        self.observers: list[LockObserver] = []
        self.watchers: list[LockCallWatcher] = []
        # doc → the HeldLock of our newest claim on it. Our session id is the same for every
        # claim this manager makes, so the lock file alone cannot tell an old claim of ours
        # (a release still under way, or sent again later) from one taken since.
        self._claims: dict[str, HeldLock] = {}
        # id(held) → (held, the newest claim when its release was first sent)
        self._releases: dict[int, tuple[HeldLock, HeldLock | None]] = {}

    # -- who we are ----------------------------------------------------------------------------

    @property
    def login(self) -> str:
        return self.claimant.login

    @property
    def session_id(self) -> str:
        return self.claimant.session_id

    @property
    def install_id(self) -> str | None:
        return self.claimant.install_id

    @property
    def client_name(self) -> str:
        return self.claimant.client_name

    @property
    def client_version(self) -> str:
        return self.claimant.client_version

    @property
    def blob_cache(self) -> BlobCache | None:
        """The document store's disk cache, where a listing puts the lock files it read: a lock
        blob found there costs no request."""
        return self.reader.blob_cache

    @blob_cache.setter
    def blob_cache(self, cache: BlobCache | None) -> None:
        self.reader.blob_cache = cache

    def server_now(self) -> float:
        return self._now()

    # -- observers ---------------------------------------------------------------------------

    def _tell(self, news: Callable[[LockObserver], None]) -> None:
        for obs in list(self.observers):
            try:
                news(obs)
            except Exception:
                log.warning("lock observer %r failed", obs, exc_info=True)

    async def _watched(self, call: LockCall, held: HeldLock, work: Awaitable[R]) -> R:
        """Run ``work`` with the watchers told when it starts and ends."""
        watchers = list(self.watchers)
        for w in watchers:
            _quietly(w.call_started, call, held)
        result: R | None = None
        try:
            result = await work
            return result
        finally:
            for w in watchers:
                _quietly(w.call_ended, call, held, result)

    # -- reading -----------------------------------------------------------------------------

    def cached_view(self, doc_id: str, sha: str | None) -> LockView | None:
        """The lock with blob ``sha`` classified without a request, or None when not cached."""
        return self.reader.cached_view(doc_id, sha)

    async def view_of(self, doc_id: str, sha: str | None) -> LockView:
        """Classify the lock with blob ``sha`` (None = no lock file) without reading the tree."""
        return await self.reader.view_of(doc_id, sha)

    async def inspect(self, doc_id: str) -> LockView:
        """Read and classify the lock of ``doc_id``: tree + blob by sha (never Contents API)."""
        return await self.reader.inspect(doc_id)

    async def list_locks(self, shas: Mapping[str, Any] | None = None) -> list[LockView]:
        """Every lock on the branch (or in ``shas``, e.g. a RepoSnapshot's), sorted by docId."""
        return await self.reader.list_locks(shas)

    # -- lock bodies (the web admin interop tests write them too) ----------------------------

    def acquire_body(self, doc_id: str, now: int) -> bytes:
        return self.writer.acquire_body(doc_id, now)

    def heartbeat_body(self, doc_id: str, started_at: int, now: int) -> bytes:
        return self.writer.heartbeat_body(doc_id, started_at, now)

    # -- the protocol --------------------------------------------------------------------------

    async def acquire(self, doc_id: str, *, take_stale: bool = True) -> AcquireResult:
        """Create the lock; reuse ours, take over a stale one (``take_stale``), otherwise
        BLOCKED with the view so the UI can ask the user."""
        return self._claimed(await self._acquirer.acquire(doc_id, take_stale=take_stale))

    async def steal(self, view: LockView) -> AcquireResult:
        """Take over the claim the user saw in ``view`` (``acquiring.Acquirer.steal``)."""
        return self._claimed(await self._acquirer.steal(view))

    def _claimed(self, res: AcquireResult) -> AcquireResult:
        held = res.held
        if held is not None:
            self._claims[held.doc_id] = held
            self._tell(lambda obs: obs.lock_acquired(held))
        return res

    async def heartbeat(self, held: HeldLock) -> HeartbeatResult:
        """Look, then renew (``renewing.Renewer.heartbeat``)."""
        return await self._watched(LockCall.HEARTBEAT, held, self._heartbeat(held))

    async def _heartbeat(self, held: HeldLock) -> HeartbeatResult:
        return self._beat(held, await self._renewer.heartbeat(held))

    async def _renew_found(self, held: HeldLock) -> HeartbeatResult:
        """Renew a lock of ours that acquire has just read (no second look)."""
        return self._beat(held, await self._renewer.renew(held))

    def _beat(self, held: HeldLock, res: HeartbeatResult) -> HeartbeatResult:
        if res.outcome is HeartbeatOutcome.OK:
            self._claims.setdefault(held.doc_id, held)  # a leftover lock adopted by a heartbeat
            self._tell(lambda obs: obs.lock_renewed(held))
        elif res.outcome in (HeartbeatOutcome.LOST, HeartbeatOutcome.RELEASED):
            self._tell(lambda obs: obs.lock_gone(held.doc_id))
        return res

    def _claimed_since(self, held: HeldLock) -> bool:
        """Did we claim ``held``'s document again (or let it go) since its release was first
        sent — opened again while that release was under way or waiting to be sent again?
        The lock file is then another claim's, with our session id: not this release's."""
        began = self._releases.get(id(held))
        return began is not None and self._claims.get(held.doc_id) is not began[1]

    async def release(self, held: HeldLock) -> ReleaseResult:
        """Delete our lock with its sha; a lock that is someone else's now is left alone."""
        return await self._watched(LockCall.RELEASE, held, self._release(held))

    async def _release(self, held: HeldLock) -> ReleaseResult:
        self._releases.setdefault(id(held), (held, self._claims.get(held.doc_id)))
        if self._claimed_since(held):
            del self._releases[id(held)]
            return claimed_again(held.doc_id)
        res = await self._releaser.release(held, lambda: self._claimed_since(held))
        if self._claimed_since(held):
            del self._releases[id(held)]
            return res  # the document was claimed again meanwhile: its lock is not gone
        if res.outcome is not ReleaseOutcome.FAILED:
            del self._releases[id(held)]
            self._claims.pop(held.doc_id, None)
            self._tell(lambda obs: obs.lock_gone(held.doc_id))
        return res

    async def release_view(self, view: LockView) -> ReleaseResult:
        """Delete the lock exactly as seen in ``view``; if it changed since, nothing is
        deleted."""
        return await self._releaser.release_view(view)

    async def verify(self, held: HeldLock) -> VerifyResult:
        """Before a save: is the lock still ours? One tree request when it is unchanged."""
        return await self._watched(LockCall.VERIFY, held, verify(self.reader, held))


def _quietly(tell: Callable[..., None], *args: object) -> None:
    try:
        tell(*args)
    except Exception:
        log.warning("lock call watcher failed", exc_info=True)


def _branch_of(client: Any) -> str | None:
    repo = getattr(client, "repo", None)
    branch = getattr(repo, "branch", None)
    return branch if isinstance(branch, str) and branch else None
