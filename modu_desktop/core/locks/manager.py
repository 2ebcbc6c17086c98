"""The lock protocol for one login and session: acquire, take over, heartbeat, release, verify
(see the package docstring for what it does better than the web admin)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from typing import Any

from modu_desktop import __version__
from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.github import client as gh
from modu_desktop.core.github.blobcache import BlobCache
from modu_desktop.core.locks import words
from modu_desktop.core.locks.client import (
    LockClient,
    _err_text,
    _get,
    _is_conflict,
    _is_not_found,
    _server_now_of,
    _written_sha,
    lock_shas_from_tree,
    tree_entries,
)
from modu_desktop.core.locks.model import (
    STEAL_ATTEMPTS,
    AcquireOutcome,
    AcquireResult,
    HeartbeatOutcome,
    HeartbeatResult,
    HeldLock,
    LockObserver,
    LockStatus,
    LockView,
    ReleaseOutcome,
    ReleaseResult,
    VerifyResult,
    classify,
    same_claim,
)
from modu_desktop.core.locks.wire import (
    LOCK_DIR,
    UNKNOWN_HOLDER,
    LockRecord,
    acquire_message,
    heartbeat_message,
    lock_path,
    parse_lock,
    release_message,
    render_lock,
    validate_doc_id,
)
from modu_desktop.core.locks.words import when, where

DEFAULT_CLIENT_NAME = "ModuDesktop"

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------------------------
# The manager


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
        self.client = client
        self.login = login
        self.session_id = session_id
        self._clock = clock
        self._now = _server_now_of(clock)
        self.heartbeat_s = heartbeat_s
        self.stale_s = stale_s
        self.client_name = client_name
        self.client_version = client_version
        if install_id is None:
            install_id = host
        if install_id is None:
            from modu_desktop.core.account.session import install_id as process_install_id

            install_id = process_install_id()  # random; never the machine's name
        self.install_id = install_id
        self.branch = branch or _branch_of(client) or "main"
        self._blob_cache: dict[str, bytes] = {}
        self.blob_concurrency = max(1, blob_concurrency)
        # The document store's disk cache (``core.blobcache.BlobCache``), where a listing puts
        # the lock files it read: a lock blob found there costs no request (it is verified by
        # sha on read, so it cannot be stale: a changed lock has another sha).
        self.blob_cache: BlobCache | None = None
        self.observers: list[LockObserver] = []
        # doc → the HeldLock of our newest claim on it. Our session id is the same for every
        # claim this manager makes, so the lock file alone cannot tell an old claim of ours
        # (a release still under way, or sent again later) from one taken since.
        self._claims: dict[str, HeldLock] = {}
        # id(held) → (held, the newest claim when its release was first sent)
        self._releases: dict[int, tuple[HeldLock, HeldLock | None]] = {}

    # -- observers ---------------------------------------------------------------------------

    def _tell(self, event: str, arg: Any) -> None:
        for obs in list(self.observers):
            try:
                getattr(obs, event)(arg)
            except Exception:
                log.warning("lock observer %r failed on %s", obs, event, exc_info=True)

    # -- time --------------------------------------------------------------------------------

    def server_now(self) -> float:
        return self._now()

    def _stamp(self) -> int:
        return int(self._now())

    # -- reading -----------------------------------------------------------------------------

    def _known_blob(self, sha: str) -> bytes | None:
        cached = self._blob_cache.get(sha)
        if cached is None and self.blob_cache is not None:
            with contextlib.suppress(Exception):
                cached = self.blob_cache.get(sha)
        return cached

    def cached_view(self, doc_id: str, sha: str | None) -> LockView | None:
        """The lock with blob ``sha`` classified from what is already here (no request), or
        None when its bytes are not cached. Its ``server_now`` is now: the age is current even
        when the listing that named ``sha`` is not."""
        if sha is None:
            return self._classify(doc_id, None, None)
        data = self._known_blob(sha)
        return None if data is None else self._classify(doc_id, sha, parse_lock(data, doc_id))

    async def _blob(self, sha: str, sem: asyncio.Semaphore | None = None) -> bytes:
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
        if len(self._blob_cache) > 512:
            self._blob_cache.clear()
        self._blob_cache[sha] = bytes(data)
        return bytes(data)

    async def read_lock_shas(self) -> dict[str, str]:
        """docId -> sha of every lock on the branch (one tree request unless truncated)."""
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

    async def _lock_sha(self, doc_id: str) -> str | None:
        return (await self.read_lock_shas()).get(doc_id)

    async def view_of(
        self, doc_id: str, sha: str | None, *, _sem: asyncio.Semaphore | None = None
    ) -> LockView:
        """Classify the lock with blob ``sha`` (None = no lock file) without reading the tree."""
        record = None if sha is None else parse_lock(await self._blob(sha, _sem), doc_id)
        return self._classify(doc_id, sha, record)

    def _classify(self, doc_id: str, sha: str | None, record: LockRecord | None) -> LockView:
        return classify(
            doc_id,
            sha,
            record,
            login=self.login,
            session_id=self.session_id,
            server_now=self.server_now(),
            stale_s=self.stale_s,
            install_id=self.install_id,
        )

    async def inspect(self, doc_id: str) -> LockView:
        """Read and classify the lock of ``doc_id``: tree + blob by sha (never Contents API)."""
        validate_doc_id(doc_id)
        return await self.view_of(doc_id, await self._lock_sha(doc_id))

    async def list_locks(self, shas: Mapping[str, Any] | None = None) -> list[LockView]:
        """Every lock on the branch (or in ``shas``, e.g. a RepoSnapshot's), sorted by docId."""
        if shas is None:
            shas = await self.read_lock_shas()
        else:
            shas = {k: (_get(v, "sha") if not isinstance(v, str) else v) for k, v in shas.items()}
        items = sorted(shas.items())
        sem = asyncio.Semaphore(self.blob_concurrency)  # per call: never bound to an old loop
        views = await asyncio.gather(*(self.view_of(d, s, _sem=sem) for d, s in items))
        return list(views)

    # -- writing -----------------------------------------------------------------------------

    def _extras(self) -> dict[str, Any]:
        return {
            "client": self.client_name,
            "clientVersion": self.client_version,
            "sessionId": self.session_id,
            "installId": self.install_id,
        }

    def acquire_body(self, doc_id: str, now: int) -> bytes:
        return self._lock_body(doc_id, startedAt=now, lastHeartbeat=now)

    def heartbeat_body(self, doc_id: str, started_at: int, now: int) -> bytes:
        return self._lock_body(doc_id, lastHeartbeat=now, startedAt=started_at)

    def _lock_body(self, doc_id: str, **times: int) -> bytes:
        """The lock file: docId, editingBy, then ``times`` in the order given (acquire and
        heartbeat write them in different orders, as before), then this client's fields."""
        fields: dict[str, Any] = {"docId": doc_id, "editingBy": self.login, **times}
        fields.update(self._extras())
        return render_lock(fields)

    def _held_from_view(self, view: LockView) -> HeldLock:
        assert view.sha is not None and view.record is not None
        now = self._stamp()
        return HeldLock(
            view.doc_id,
            view.sha,
            view.record.started_at or now,
            view.record.last_heartbeat or now,
        )

    async def _write_lock(
        self, doc_id: str, sha: str | None
    ) -> tuple[HeldLock | None, Exception | None, bool]:
        """PUT an acquire body. Returns (held, error, conflict)."""
        now = self._stamp()
        body = self.acquire_body(doc_id, now)
        path = lock_path(doc_id)
        try:
            result = await self.client.put_file(
                path, body, acquire_message(doc_id, self.login), sha=sha
            )
        except Exception as exc:
            if _is_conflict(exc):
                return None, exc, True
            if _is_not_found(exc) or isinstance(exc, gh.BadCredentials | gh.PermissionDenied):
                return None, exc, False
            # Outcome unknown (timeout, reset, 5xx): the body is unique to us, so its blob sha
            # tells whether the write landed.
            try:
                current = await self._lock_sha(doc_id)
            except Exception:
                return None, exc, False
            if current == git_blob_sha(body):
                return HeldLock(doc_id, current, now, now), None, False
            return None, exc, False
        return HeldLock(doc_id, _written_sha(result, body), now, now), None, False

    async def _sync_clock(self, doc_id: str) -> AcquireResult | None:
        """Our timestamps are server time: before the first write, learn the clock offset from
        one cheap read. If that read fails, do not write a lock stamped with the local clock."""
        if getattr(self._clock, "synced", True) is not False:
            return None
        try:
            await self.read_lock_shas()
        except Exception as exc:
            return AcquireResult(
                AcquireOutcome.FAILED,
                doc_id,
                error=exc,
                message=f"Could not lock {doc_id}: {_err_text(exc)}",
            )
        return None

    async def acquire(self, doc_id: str, *, take_stale: bool = True) -> AcquireResult:
        res = await self._acquire(doc_id, take_stale=take_stale)
        if res.held is not None:
            self._claims[res.held.doc_id] = res.held
            self._tell("lock_acquired", res.held)
        return res

    async def steal(self, view: LockView) -> AcquireResult:
        res = await self._steal(view)
        if res.held is not None:
            self._claims[res.held.doc_id] = res.held
            self._tell("lock_acquired", res.held)
        return res

    def _claimed_since(self, held: HeldLock) -> bool:
        """Did we claim ``held``'s document again (or let it go) since its release was first
        sent — opened again while that release was under way or waiting to be sent again?
        The lock file is then another claim's, with our session id: not this release's."""
        began = self._releases.get(id(held))
        return began is not None and self._claims.get(held.doc_id) is not began[1]

    async def heartbeat(self, held: HeldLock) -> HeartbeatResult:
        res = await self._heartbeat(held)
        if res.outcome is HeartbeatOutcome.OK:
            self._claims.setdefault(held.doc_id, held)  # a leftover lock adopted by a heartbeat
            self._tell("lock_renewed", held)
        elif res.outcome in (HeartbeatOutcome.LOST, HeartbeatOutcome.RELEASED):
            self._tell("lock_gone", held.doc_id)
        return res

    async def release(self, held: HeldLock) -> ReleaseResult:
        self._releases.setdefault(id(held), (held, self._claims.get(held.doc_id)))
        if self._claimed_since(held):
            del self._releases[id(held)]
            return _claimed_again(held.doc_id)
        res = await self._release(held)
        if self._claimed_since(held):
            del self._releases[id(held)]
            return res  # the document was claimed again meanwhile: its lock is not gone
        if res.outcome is not ReleaseOutcome.FAILED:
            del self._releases[id(held)]
            self._claims.pop(held.doc_id, None)
            self._tell("lock_gone", held.doc_id)
        return res

    async def _acquire(self, doc_id: str, *, take_stale: bool = True) -> AcquireResult:
        """Create the lock (no sha). If one exists, classify it: reuse ours, take over a stale one
        (``take_stale``), otherwise return BLOCKED with the view so the UI can ask the user."""
        validate_doc_id(doc_id)
        unsynced = await self._sync_clock(doc_id)
        if unsynced is not None:
            return unsynced
        held, err, conflict = await self._write_lock(doc_id, None)
        if held is not None:
            return AcquireResult(
                AcquireOutcome.ACQUIRED, doc_id, held=held, message=f"You are now editing {doc_id}."
            )
        if not conflict:
            assert err is not None
            return AcquireResult(
                AcquireOutcome.FAILED,
                doc_id,
                error=err,
                message=f"Could not lock {doc_id}: {_err_text(err)}",
            )
        try:
            view = await self.inspect(doc_id)
        except Exception as exc:
            return AcquireResult(
                AcquireOutcome.FAILED,
                doc_id,
                error=exc,
                message=f"Could not read the lock of {doc_id}: {_err_text(exc)}",
            )
        if view.status is LockStatus.FREE:
            # Released between our write and our read: try once more, as a fresh create.
            held, err, conflict = await self._write_lock(doc_id, None)
            if held is not None:
                return AcquireResult(
                    AcquireOutcome.ACQUIRED,
                    doc_id,
                    held=held,
                    message=f"You are now editing {doc_id}.",
                )
            return AcquireResult(
                AcquireOutcome.LOST_RACE if conflict else AcquireOutcome.FAILED,
                doc_id,
                error=err,
                message=f"Someone else locked {doc_id} at the same moment."
                if conflict
                else f"Could not lock {doc_id}: {_err_text(err) if err else 'unknown error'}",
            )
        if view.status is LockStatus.MINE_THIS_SESSION:
            # Ours from earlier in this session (e.g. a release that failed): renew and reuse it.
            held = self._held_from_view(view)
            beat = await self.heartbeat(held)
            if beat.outcome in (HeartbeatOutcome.LOST, HeartbeatOutcome.RELEASED):
                return AcquireResult(
                    AcquireOutcome.LOST_RACE, doc_id, view=beat.view, message=beat.message
                )
            return AcquireResult(
                AcquireOutcome.REUSED,
                doc_id,
                held=held,
                view=view,
                message=f"You already hold the lock on {doc_id}.",
            )
        if view.status is LockStatus.STALE and take_stale:
            return await self._steal(view)
        return AcquireResult(
            AcquireOutcome.BLOCKED, doc_id, view=view, message=words.describe(view)
        )

    async def _steal(self, view: LockView) -> AcquireResult:
        """Take the lock over, sending the sha we saw.

        The user agreed to replace *the claim in* ``view`` (its holder, session and start), not
        one exact version of the file: if that claim only heartbeated meanwhile (409 on the old
        sha), re-read and take it over on the new sha; if it was released, create the lock.
        Only a *different* claim is news: then report who holds it now (never retry blindly)."""
        doc_id = validate_doc_id(view.doc_id)
        unsynced = await self._sync_clock(doc_id)
        if unsynced is not None:
            return unsynced
        seen = view
        for _ in range(STEAL_ATTEMPTS):
            held, err, conflict = await self._write_lock(doc_id, seen.sha)
            if held is not None:
                if view.status is LockStatus.FREE:
                    return AcquireResult(
                        AcquireOutcome.ACQUIRED,
                        doc_id,
                        held=held,
                        message=f"You are now editing {doc_id}.",
                    )
                prev = view.holder or UNKNOWN_HOLDER
                return AcquireResult(
                    AcquireOutcome.TOOK_OVER,
                    doc_id,
                    held=held,
                    view=view,
                    message=f"You took over the lock on {doc_id} from @{prev}.",
                )
            if not conflict:
                assert err is not None
                return AcquireResult(
                    AcquireOutcome.FAILED,
                    doc_id,
                    view=view,
                    error=err,
                    message=f"Could not take over the lock on {doc_id}: {_err_text(err)}",
                )
            try:
                now_view: LockView | None = await self.inspect(doc_id)
            except Exception:
                now_view = None
            if now_view is not None and (
                now_view.status is LockStatus.FREE or same_claim(view, now_view)
            ):
                seen = now_view  # the same holder heartbeated, or left: go on with the new sha
                continue
            return lost_steal(doc_id, now_view, err)
        return AcquireResult(
            AcquireOutcome.LOST_RACE,
            doc_id,
            view=seen,
            message=f"The lock on {doc_id} kept changing while you were taking it over.",
        )

    async def _heartbeat(self, held: HeldLock) -> HeartbeatResult:
        """Exactly one conditional PUT with the sha we last wrote. On 409: re-read and report
        LOST (to whom, since when) or RELEASED. On network errors: count the miss."""
        sent = await self._put_heartbeat(held)
        if isinstance(sent, HeartbeatResult):
            return sent
        result, body, now = sent
        new_sha = _written_sha(result, body)
        recreated = _get(result, "created", False) is True
        if not recreated and _get(result, "recovered", False) is True:
            # The answer was lost and the client read the write back: a read-back cannot tell an
            # update from a re-creation, so ask the history whether our previous lock was there.
            try:
                recreated = not await self._continuous(held, new_sha)
            except Exception as exc:
                # Undecided: keep the old sha, so the next beat gets a 409 and decides then.
                return self._missed(held, exc)
        if recreated:
            # GitHub ignores a sha sent for a missing path and creates the file (201): the lock
            # had been released by someone. Undo our re-creation and report the release.
            with contextlib.suppress(Exception):
                await self.client.delete_file(held.path, new_sha, release_message(held.doc_id))
            return HeartbeatResult(
                HeartbeatOutcome.RELEASED,
                held,
                misses=held.misses,
                message=f"Your lock on {held.doc_id} was released by someone else; "
                "the document is read-only now.",
            )
        held.sha = new_sha
        held.last_heartbeat = now
        held.misses = 0
        held.last_error = None
        return HeartbeatResult(
            HeartbeatOutcome.OK,
            held,
            misses=0,
            expires_in_s=self.stale_s,
            message=f"Lock on {held.doc_id} renewed.",
        )

    async def _put_heartbeat(self, held: HeldLock) -> tuple[Any, bytes, int] | HeartbeatResult:
        """The conditional PUT of a fresh heartbeat body on ``held.sha``: (write result, body,
        stamp), or the outcome when it failed (409: re-read and classify; otherwise a miss)."""
        now = self._stamp()
        body = self.heartbeat_body(held.doc_id, held.started_at, now)
        try:
            result = await self.client.put_file(
                held.path, body, heartbeat_message(held.doc_id), sha=held.sha
            )
        except Exception as exc:
            if _is_conflict(exc):
                return await self._after_heartbeat_conflict(held, exc)
            return self._missed(held, exc)
        return result, body, now

    def _missed(self, held: HeldLock, exc: Exception) -> HeartbeatResult:
        held.misses += 1
        held.last_error = _err_text(exc)
        left = held.last_heartbeat + self.stale_s - self.server_now()
        if left > 0:
            minutes = max(1, int(left // 60 + (1 if left % 60 else 0)))
            when = f"in {minutes} minute{'s' if minutes != 1 else ''}"
            msg = (
                f"Could not renew the lock on {held.doc_id} ({held.misses} missed): it expires "
                f"{when} unless the connection comes back. ({held.last_error})"
            )
        else:
            msg = (
                f"Could not renew the lock on {held.doc_id} ({held.misses} missed): it has expired "
                f"and others may take it over. ({held.last_error})"
            )
        return HeartbeatResult(
            HeartbeatOutcome.MISSED,
            held,
            misses=held.misses,
            expires_in_s=left,
            message=msg,
            error=exc,
        )

    async def _after_heartbeat_conflict(self, held: HeldLock, exc: Exception) -> HeartbeatResult:
        try:
            view = await self.inspect(held.doc_id)
        except Exception as read_exc:
            return self._missed(held, read_exc)
        if view.status is LockStatus.MINE_THIS_SESSION and view.sha == held.sha:
            # Exactly the lock we last wrote: the 409 changed nothing of ours (the branch moved
            # under the write). Still ours; the next beat renews it.
            return self._missed(held, exc)
        if view.status is LockStatus.MINE_THIS_SESSION:
            # Our session's body with another sha: an earlier write of ours landed although its
            # answer was lost. Adopt it only if that write *updated* our previous lock; if it
            # re-created a lock someone had taken or released meanwhile, we did lose it.
            assert view.sha is not None
            try:
                continuous = await self._continuous(held, view.sha)
            except Exception as hist_exc:
                return self._missed(held, hist_exc)
            if not continuous:
                with contextlib.suppress(Exception):
                    await self.client.delete_file(held.path, view.sha, release_message(held.doc_id))
                return HeartbeatResult(
                    HeartbeatOutcome.RELEASED,
                    held,
                    view=view,
                    misses=held.misses,
                    error=exc,
                    message=f"Your lock on {held.doc_id} was taken over or released by someone "
                    "else while the connection was failing; the document is read-only now.",
                )
            held.sha = view.sha
            if view.record is not None and view.record.last_heartbeat:
                held.last_heartbeat = view.record.last_heartbeat
            sent = await self._put_heartbeat(held)
            if isinstance(sent, HeartbeatResult):
                return sent
            result, body, now = sent
            held.sha = _written_sha(result, body)
            held.last_heartbeat = now
            held.misses = 0
            return HeartbeatResult(
                HeartbeatOutcome.OK,
                held,
                view=view,
                expires_in_s=self.stale_s,
                message=f"Lock on {held.doc_id} renewed.",
            )
        if view.status is LockStatus.FREE:
            return HeartbeatResult(
                HeartbeatOutcome.RELEASED,
                held,
                view=view,
                misses=held.misses,
                error=exc,
                message=f"Your lock on {held.doc_id} was released by someone else; "
                "the document is read-only now.",
            )
        rec = view.record
        if view.status is LockStatus.MALFORMED or rec is None:
            who = "unknown"
        elif view.status is LockStatus.MINE_OTHER_SESSION or (
            rec.editing_by.casefold() == self.login.casefold()
        ):
            who = f"you (@{rec.editing_by}) {where(rec, view.same_install).en}"
        else:
            who = f"@{rec.editing_by}"
        since = when(rec.started_at if rec else None, view.server_now).en
        return HeartbeatResult(
            HeartbeatOutcome.LOST,
            held,
            view=view,
            misses=held.misses,
            error=exc,
            message=f"Your lock on {held.doc_id} was taken over by {who} at {since}; "
            "the document is read-only now.",
        )

    async def _continuous(self, held: HeldLock, current_sha: str) -> bool:
        """Was the lock blob ``current_sha`` (our session's) written over ``held.sha``? Reads the
        newest commit touching the lock and the lock in its parent commit (rare: only after a
        write whose answer was lost). Raises on network errors."""
        commits = await self.client.list_commits(path=held.path, sha=self.branch, per_page=1)
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
        before = next((sha for path, _k, sha in entries if path == held.path), None)
        return before == held.sha

    async def _release(self, held: HeldLock, *, _again: bool = True) -> ReleaseResult:
        """DELETE with our sha. If the lock is someone else's now, leave it alone."""
        doc_id = held.doc_id
        try:
            await self.client.delete_file(held.path, held.sha, release_message(doc_id))
        except Exception as exc:
            if _is_not_found(exc):
                return ReleaseResult(
                    ReleaseOutcome.ALREADY_GONE,
                    doc_id,
                    error=exc,
                    message=f"{doc_id} was not locked any more.",
                )
            try:
                view = await self.inspect(doc_id)
            except Exception:
                return ReleaseResult(
                    ReleaseOutcome.FAILED,
                    doc_id,
                    error=exc,
                    message=f"Could not release the lock on {doc_id}: {_err_text(exc)}",
                )
            if view.status is LockStatus.FREE:
                return ReleaseResult(
                    ReleaseOutcome.ALREADY_GONE if _is_conflict(exc) else ReleaseOutcome.RELEASED,
                    doc_id,
                    view=view,
                    message=f"The lock on {doc_id} is released.",
                )
            if view.status is LockStatus.MINE_THIS_SESSION and self._claimed_since(held):
                # Claimed again while this release was on its way: the lock is the new claim's.
                return _claimed_again(doc_id)
            if view.status is LockStatus.MINE_THIS_SESSION and view.sha != held.sha and _again:
                # An earlier heartbeat of ours landed although its answer was lost.
                held.sha = view.sha or held.sha
                return await self._release(held, _again=False)
            if view.status is LockStatus.MINE_THIS_SESSION:
                return ReleaseResult(
                    ReleaseOutcome.FAILED,
                    doc_id,
                    view=view,
                    error=exc,
                    message=f"Could not release the lock on {doc_id}: {_err_text(exc)}",
                )
            return ReleaseResult(
                ReleaseOutcome.NOT_OURS,
                doc_id,
                view=view,
                error=exc,
                message=(
                    f"The lock on {doc_id} is no longer yours ({words.describe(view)}); left alone."
                ),
            )
        return ReleaseResult(
            ReleaseOutcome.RELEASED, doc_id, message=f"Released the lock on {doc_id}."
        )

    async def release_view(self, view: LockView) -> ReleaseResult:
        """Delete the lock exactly as seen in ``view`` (admin release, or cleaning up our own
        leftover from a crashed session). If it changed since, nothing is deleted."""
        doc_id = validate_doc_id(view.doc_id)
        if view.sha is None:
            return ReleaseResult(
                ReleaseOutcome.ALREADY_GONE, doc_id, view=view, message=f"{doc_id} is not locked."
            )
        try:
            await self.client.delete_file(view.path, view.sha, release_message(doc_id))
        except Exception as exc:
            if _is_not_found(exc):
                return ReleaseResult(
                    ReleaseOutcome.ALREADY_GONE,
                    doc_id,
                    view=view,
                    error=exc,
                    message=f"{doc_id} was not locked any more.",
                )
            if _is_conflict(exc):
                try:
                    now_view: LockView | None = await self.inspect(doc_id)
                except Exception:
                    now_view = None
                if now_view is not None and now_view.status is LockStatus.FREE:
                    return ReleaseResult(
                        ReleaseOutcome.ALREADY_GONE,
                        doc_id,
                        view=now_view,
                        message=f"{doc_id} was released meanwhile.",
                    )
                what = words.describe(now_view) if now_view is not None else "it changed"
                return ReleaseResult(
                    ReleaseOutcome.NOT_OURS,
                    doc_id,
                    view=now_view,
                    error=exc,
                    message=f"The lock on {doc_id} changed while releasing it ({what}); "
                    "nothing was deleted.",
                )
            return ReleaseResult(
                ReleaseOutcome.FAILED,
                doc_id,
                view=view,
                error=exc,
                message=f"Could not release the lock on {doc_id}: {_err_text(exc)}",
            )
        who = f" held by @{view.holder}" if view.holder else ""
        return ReleaseResult(
            ReleaseOutcome.RELEASED,
            doc_id,
            view=view,
            message=f"Released the lock on {doc_id}{who}.",
        )

    async def verify(self, held: HeldLock) -> VerifyResult:
        """Before a save: is the lock still ours? One tree request when it is unchanged."""
        try:
            sha = await self._lock_sha(held.doc_id)
        except Exception as exc:
            return VerifyResult(
                False,
                f"Could not check the lock on {held.doc_id}: {_err_text(exc)}",
                retryable=True,
            )
        if sha == held.sha:
            return VerifyResult(True, "The lock is still yours.")
        try:
            view = await self.view_of(held.doc_id, sha)
        except Exception as exc:
            return VerifyResult(
                False,
                f"Could not check the lock on {held.doc_id}: {_err_text(exc)}",
                retryable=True,
            )
        if view.status is LockStatus.MINE_THIS_SESSION and view.sha:
            try:
                continuous = await self._continuous(held, view.sha)
            except Exception as exc:
                return VerifyResult(
                    False,
                    f"Could not check the lock on {held.doc_id}: {_err_text(exc)}",
                    view=view,
                    retryable=True,
                )
            if continuous:
                held.sha = view.sha
                return VerifyResult(True, "The lock is still yours.", view=view)
            return VerifyResult(
                False,
                f"Not saved: your lock on {held.doc_id} was taken over or released by someone "
                "else while the connection was failing.",
                view=view,
            )
        if view.status is LockStatus.FREE:
            reason = f"Not saved: your lock on {held.doc_id} was released by someone else."
        elif view.status is LockStatus.MALFORMED:
            reason = f"Not saved: the lock on {held.doc_id} was replaced by an unreadable one."
        else:
            rec = view.record
            who = f"@{rec.editing_by}" if rec else "someone else"
            if rec and view.status is LockStatus.MINE_OTHER_SESSION:
                who = f"you (@{rec.editing_by}) {where(rec, view.same_install).en}"
            reason = (
                f"Not saved: your lock on {held.doc_id} was taken over by {who} at "
                f"{when(rec.started_at if rec else None, view.server_now).en}."
            )
        return VerifyResult(False, reason, view=view)


def _branch_of(client: Any) -> str | None:
    repo = getattr(client, "repo", None)
    branch = getattr(repo, "branch", None)
    return branch if isinstance(branch, str) and branch else None


def _claimed_again(doc_id: str) -> ReleaseResult:
    return ReleaseResult(
        ReleaseOutcome.ALREADY_GONE,
        doc_id,
        message=f"The lock on {doc_id} was taken again since; the new one is left alone.",
    )


def lost_steal(doc_id: str, now_view: LockView | None, err: Exception | None) -> AcquireResult:
    """A take-over refused because a *different* claim holds the lock now: say whose."""
    rec = now_view.record if now_view is not None else None
    if rec is None:
        who = "someone else"
    elif now_view is not None and now_view.status is LockStatus.MINE_OTHER_SESSION:
        who = f"you (@{rec.editing_by}) {words.where(rec, now_view.same_install).en}"
    elif rec.is_malformed:
        who = f"@{rec.claimed_by}" if rec.claimed_by else "an unreadable lock"
    else:
        who = f"@{rec.editing_by}"
    return AcquireResult(
        AcquireOutcome.LOST_RACE,
        doc_id,
        view=now_view,
        error=err,
        message=f"Someone else took the lock on {doc_id} first ({who}).",
    )
