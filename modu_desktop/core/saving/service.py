"""One way to save: :class:`SaveService` gives ``SaveResult | QueuedSave | SaveConflict``.

A save goes to GitHub with the blob sha it was based on. When GitHub cannot be reached or
answers unclearly (offline, timeout, 5xx, rate limit, the branch kept moving under the write:
:func:`is_queueable_error`) the save is written to the durable on-disk queue
(:class:`~modu_desktop.core.saving.queue.SaveSpool`) instead, and
goes out by itself later, exactly once; while a save of a document waits there, later saves of
that document join it (newest text wins) instead of racing it. A conflict comes back as the
store's :class:`~modu_desktop.core.documents.store.SaveConflict` (never retried); any other failure
(permission, validation) raises.

The spool's sender and reader over the GitHub client live here too (:func:`make_sender`,
:func:`make_reader`): the client's typed errors become the spool's outcomes
(:func:`outcome_for_error`), and the reader asks the git database, never the cached Contents API.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from modu_desktop.core.documents import store as documents
from modu_desktop.core.documents.store import SaveConflict, SaveResult
from modu_desktop.core.github import errors
from modu_desktop.core.saving.queue import (
    ChangeItem,
    Committed,
    Fatal,
    NotAtBase,
    Reader,
    Retryable,
    SaveSpool,
    Sender,
    SendOutcome,
    SpoolItem,
    Uncertain,
)

if TYPE_CHECKING:
    from modu_desktop.core.documents.store import DocumentStore
    from modu_desktop.core.github.client import GitHubClient

log = logging.getLogger(__name__)

__all__ = [
    "QueuedSave",
    "SaveConflict",
    "SaveOutcome",
    "SaveResult",
    "SaveService",
    "Target",
    "is_queueable_error",
    "make_reader",
    "make_sender",
    "outcome_for_error",
]


@dataclass(frozen=True)
class Target:
    """Which repository branch a workspace writes to (the key of drafts, queue and records)."""

    api_host: str
    repo: str
    branch: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "api_host", self.api_host.rstrip("/"))


@dataclass(frozen=True)
class QueuedSave:
    """The save is in the on-disk queue and goes out by itself once GitHub answers again.
    ``cause`` is the failure that sent it there (None: it joined an earlier waiting save)."""

    item: SpoolItem
    cause: BaseException | None = None


SaveOutcome = SaveResult | QueuedSave | SaveConflict


# -- sender / reader ------------------------------------------------------------------------------


def outcome_for_error(exc: BaseException) -> SendOutcome:
    """Map a failure of ``put_file`` to the spool's outcome (see core/saving/queue.py's
    contract)."""
    if isinstance(exc, errors.GitHubConflict):  # 409, ShaMissing 422
        return NotAtBase(None)  # the spool reads the server's sha back itself
    if isinstance(exc, errors.RateLimited):
        return Retryable(f"rate limited: {exc.message}", exc.retry_in())
    if isinstance(exc, errors.BranchMoved):  # nothing applied: the same write goes again soon
        return Retryable(f"the branch kept moving ({exc.tries} tries): {exc.message}")
    if isinstance(exc, errors.NetworkError):
        if not exc.sent:
            return Retryable(f"offline: {exc.message}")
        return Uncertain(f"no answer: {exc.message}")
    if isinstance(exc, errors.WriteUncertain):
        return Uncertain(exc.message)
    if isinstance(exc, errors.ServerError):
        return Uncertain(f"server error {exc.status}: {exc.message}")
    if isinstance(
        exc,
        errors.BadCredentials | errors.PermissionDenied | errors.ValidationFailed | errors.NotFound,
    ):
        return Fatal(f"{type(exc).__name__}: {exc.message}")
    return Uncertain(f"{type(exc).__name__}: {exc}")


def is_queueable_error(exc: BaseException) -> bool:
    """True for failures the queue can wait out (offline, timeouts, 5xx, rate limits, a branch
    that kept moving under the write)."""
    if isinstance(exc, asyncio.TimeoutError | TimeoutError):
        return True
    return isinstance(
        exc,
        errors.NetworkError
        | errors.ServerError
        | errors.RateLimited
        | errors.WriteUncertain
        | errors.BranchMoved,
    )


def _same_repo(client: GitHubClient, item: SpoolItem) -> bool:
    api = str(client.api_url).rstrip("/")
    return api == item.api_host and client.repo.full_name == item.repo


def make_sender(client: GitHubClient) -> Sender:
    """``put_file(item.path, item.content_bytes(), item.message, sha=item.base_sha)``."""

    async def send(item: SpoolItem) -> SendOutcome:
        if not _same_repo(client, item):
            return Retryable("saved for another repository; waiting for it", 3600.0)
        try:
            res = await client.put_file(
                item.path, item.content_bytes(), item.message, sha=item.base_sha, branch=item.branch
            )
        except Exception as exc:
            return outcome_for_error(exc)
        return Committed(str(res.content_sha or item.blob_sha()), res.commit_sha)

    return send


def make_reader(client: GitHubClient) -> Reader:
    """The file's current blob sha on the item's branch (None if absent), git database only."""

    async def read(item: SpoolItem) -> str | None:
        if not _same_repo(client, item):
            raise RuntimeError("item belongs to another repository")
        _head, entry = await client.entry_at(item.path, item.branch)
        return None if entry is None else str(entry.sha)

    return read


# -- the service ----------------------------------------------------------------------------------


class SaveService:
    """Save a document's text over the version it was based on; queue it when GitHub is away.

    ``spool`` None: no queue (the CLI, viewer mode) — a queueable failure then raises.
    ``on_queued`` is called after every enqueue (the app's queue runner wakes up on it), a
    change of many pages queued as one item included (``core/changes/send.send_change``).
    """

    def __init__(
        self,
        store: DocumentStore,
        target: Target,
        spool: SaveSpool | None = None,
        *,
        on_queued: Callable[[SpoolItem | ChangeItem], None] | None = None,
    ) -> None:
        self.store = store
        self.target = target
        self.spool = spool
        self.on_queued = on_queued

    @property
    def queues(self) -> bool:
        return self.spool is not None

    def _key(self, path: str) -> tuple[str, str, str, str]:
        t = self.target
        return (t.api_host, t.repo, t.branch, path)

    def pending_for(self, path: str) -> SpoolItem | None:
        """The queued (not yet committed) save of one document, if any."""
        if self.spool is None:
            return None
        key = self._key(path)
        found = [i for i in self.spool.pending_items() if i.target == key]
        return found[-1] if found else None

    def rebased(self, path: str, base_sha: str) -> str:
        """A base that one of our own queued saves replaced (the editor may not have heard that
        it landed) becomes that save's commit, like the spool's ``rebase_on_done``: the editor's
        text descends from the queued text, and our own commit must not come back as a conflict."""
        if self.spool is None:
            return base_sha
        key = self._key(path)
        try:
            done = [i for i in self.spool.done_items() if i.target == key]
        except OSError:
            return base_sha
        for item in reversed(done):  # newest first
            chain = [item.base_sha, *item.accept_shas, item.blob_sha()]
            if item.result_sha and base_sha != item.result_sha and base_sha in chain:
                return item.result_sha
        return base_sha

    def enqueue(
        self, path: str, text: str, base_sha: str | None, login: str, message: str | None = None
    ) -> SpoolItem:
        assert self.spool is not None
        t = self.target
        item = self.spool.enqueue(
            api_host=t.api_host,
            repo=t.repo,
            branch=t.branch,
            path=path,
            doc_id=documents.doc_id_for_path(path) or path,
            text=text,
            base_sha=base_sha,
            message=message or documents.update_message(path, login),
            login=login,
        )
        if self.on_queued is not None:
            self.on_queued(item)
        return item

    async def save(
        self, doc: str, text: str, base_sha: str | None, login: str, message: str | None = None
    ) -> SaveOutcome:
        """``doc`` is a doc id or a ``docs/…md`` path; ``base_sha`` None writes the file anew
        (it was deleted: a file that appeared meanwhile comes back as a conflict)."""
        is_path = doc.startswith(documents.DOCS_DIR + "/") and doc.endswith(".md")
        path = doc if is_path else documents.path_for_doc_id(doc)
        if self.pending_for(path) is not None:
            # An earlier save of this document is still waiting: this one joins it (newest text
            # wins) instead of racing it.
            return QueuedSave(self.enqueue(path, text, base_sha, login, message))
        try:
            if base_sha is None:
                return await self.store.create(path, text, login, message)
            base_sha = self.rebased(path, base_sha)
            return await self.store.save(path, text, base_sha, login, message)
        except Exception as exc:
            if self.spool is None or not is_queueable_error(exc):
                raise
            item = self.enqueue(path, text, base_sha, login, message)
            log.info("save of %s queued (%s)", path, exc)
            return QueuedSave(item, exc)
