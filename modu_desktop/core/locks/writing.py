"""Writing lock files for one claimant (Qt-free): the bodies in the web admin's key orders with
our own fields after them, a claim written over the sha last seen (with its outcome read back
when the answer was lost), a heartbeat's conditional write, and a release's delete."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.github import client as gh
from modu_desktop.core.locks.client import LockClient, _is_conflict, _is_not_found, _written_sha
from modu_desktop.core.locks.model import Claimant, HeldLock
from modu_desktop.core.locks.reading import LockReader
from modu_desktop.core.locks.wire import (
    acquire_message,
    heartbeat_message,
    lock_path,
    release_message,
    render_lock,
)


@dataclass(frozen=True)
class Claimed:
    """What writing a claim did: ``held`` when it landed; else the ``error`` and whether it
    was a ``conflict`` (the lock file is not at the sha we sent: someone else's move)."""

    held: HeldLock | None
    error: Exception | None = None
    conflict: bool = False


class LockWriter:
    """Writes ``claimant``'s lock files; ``stamp`` is the server time in whole seconds."""

    def __init__(
        self,
        client: LockClient,
        claimant: Claimant,
        reader: LockReader,
        stamp: Callable[[], int],
    ) -> None:
        self.client = client
        self.claimant = claimant
        self.reader = reader
        self.stamp = stamp

    # -- bodies ------------------------------------------------------------------------------

    def acquire_body(self, doc_id: str, now: int) -> bytes:
        return self._lock_body(doc_id, startedAt=now, lastHeartbeat=now)

    def heartbeat_body(self, doc_id: str, started_at: int, now: int) -> bytes:
        return self._lock_body(doc_id, lastHeartbeat=now, startedAt=started_at)

    def _lock_body(self, doc_id: str, **times: int) -> bytes:
        """The lock file: docId, editingBy, then ``times`` in the order given (acquire and
        heartbeat write them in different orders, as the web admin does), then this client's
        fields."""
        me = self.claimant
        fields: dict[str, Any] = {"docId": doc_id, "editingBy": me.login, **times}
        fields.update(
            {
                "client": me.client_name,
                "clientVersion": me.client_version,
                "sessionId": me.session_id,
                "installId": me.install_id,
            }
        )
        return render_lock(fields)

    # -- writes ------------------------------------------------------------------------------

    async def claim(self, doc_id: str, sha: str | None) -> Claimed:
        """PUT a fresh claim over ``sha`` (None: create the file)."""
        now = self.stamp()
        body = self.acquire_body(doc_id, now)
        path = lock_path(doc_id)
        try:
            result = await self.client.put_file(
                path, body, acquire_message(doc_id, self.claimant.login), sha=sha
            )
        except Exception as exc:
            if _is_conflict(exc):
                return Claimed(None, exc, conflict=True)
            if _is_not_found(exc) or isinstance(exc, gh.BadCredentials | gh.PermissionDenied):
                return Claimed(None, exc)
            # Outcome unknown (timeout, reset, 5xx): the body is unique to us, so its blob sha
            # tells whether the write landed.
            try:
                current = await self.reader.lock_sha(doc_id)
            except Exception:
                return Claimed(None, exc)
            if current == git_blob_sha(body):
                return Claimed(HeldLock(doc_id, current, now, now))
            return Claimed(None, exc)
        return Claimed(HeldLock(doc_id, _written_sha(result, body), now, now))

    def renewal(self, held: HeldLock) -> tuple[bytes, int]:
        """The heartbeat body that renews ``held`` now, and its stamp."""
        now = self.stamp()
        return self.heartbeat_body(held.doc_id, held.started_at, now), now

    async def renew(self, held: HeldLock, body: bytes) -> Any:
        """The conditional PUT of heartbeat ``body`` on ``held.sha``: the write's answer.
        Raises what the client raised."""
        return await self.client.put_file(
            held.path, body, heartbeat_message(held.doc_id), sha=held.sha
        )

    async def delete(self, path: str, sha: str, doc_id: str) -> None:
        await self.client.delete_file(path, sha, release_message(doc_id))
