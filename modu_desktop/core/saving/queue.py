"""A durable save queue ("spool") that commits every save exactly once (Qt-free).

Layout: ``{root}/pending|sending|done|failed/{id}.json`` (sealed JSON, written atomically) and
``{root}/broken/`` for damaged files, which are moved aside and reported, never deleted and
never allowed to hide other items. A state transition rewrites the item in its current
directory and then ``os.replace``-s it into the next one, so a crash leaves every item in exactly
one directory with a complete body.

Exactly once
------------
Every write carries a precondition: the blob sha the text was based on (or "absent" for a new
file), which GitHub enforces. On top of that, whenever a previous attempt *may* have reached the
server (``Uncertain``, a sender exception, or an item found in ``sending/`` at start after a crash)
the item is marked ``verify_first`` and the ``reader`` is asked for the file's current blob sha
before anything is sent again:

* server sha == git blob sha of our bytes  -> it was written: done (commit sha unknown);
* server sha == ``base_sha`` (or one of ``accept_shas``, see below) -> not written: send;
* anything else (someone else's change, or the file was deleted) -> failed as a conflict.

A ``NotAtBase`` reported by the sender is read back with the reader and judged the same way, so
even a sender that misreports an applied write as ``Retryable`` cannot cause a second commit: the
retry conflicts with our own earlier write, and "server sha == our blob sha" turns that into done.

Sender contract: send exactly ``item.content_bytes()`` to ``item.path`` on ``item.branch`` with
``sha=item.base_sha`` (no sha when it is None: create) and ``item.message``; map 2xx to
``Committed(content sha, commit sha)``; a sha mismatch (409, or 422 "sha wasn't supplied") to
``NotAtBase(current sha or None)``; failures known to happen before the request was sent
(connection refused, DNS) and rate limits to ``Retryable`` (with ``retry_after``); timeouts,
resets and 5xx after sending to ``Uncertain``; 401/403/404/422-validation to ``Fatal``. An
exception from the sender counts as ``Uncertain``. The reader returns the file's current blob sha
from the Git database (tree of the branch head, not the cached Contents API), None if absent.

Supersede
---------
At most one *pending* item exists per target (API host, repo, branch, path). A newer save
replaces an older pending one: the newest text wins. Its base is chosen so the write still
applies to what is really on the server: if the newer save's ``base_sha`` belongs to the older
item's chain (the older base, the blob of the older text -- an editor that optimistically assumed
the older save landed -- or anything the older one already accepted), the merged item keeps the
*oldest* base, because nothing of the chain may have reached the server, and records the rest of
the chain in ``accept_shas`` (server states that are our own, possibly landed, earlier writes; if
the server is found at one of them the item is rebased onto it). If the newer base is unrelated,
the editor has seen the server move on (reload, conflict resolved), so the newer base is
authoritative and the older chain is dropped. An item being sent at that moment is never touched;
the new pending item inherits its chain the same way and is sent after it. Likewise a save whose
base is in the chain of one of our own *done* items is rebased onto that commit
(:func:`rebase_on_done`): the editor may enqueue before it has heard that its previous save
landed, and our own commit must not be reported back to us as a conflict.

Changes of many pages
---------------------
A change of many pages that could not reach GitHub waits here as ONE item
(:class:`~modu_desktop.core.saving.queue_changes.ChangeItem`, :meth:`SaveSpool.enqueue_change`)
in the same folders, sent by ``change_sender`` in its turn with the saves. It is never merged
with a save; sending it again is harmless (files that already read as asked are not written
again), so an item found in ``sending/`` at start simply goes back to ``pending/``. The
per-file lists (``pending_items``, ``failed_items``, ``done_items``) hold saves only;
``change_items`` holds the changes; ``pending_count`` counts both.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import itertools
import logging
import random
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Unpack

from modu_desktop.core.atomic import (
    FileProblem,
    is_temp_name,
    move_aside,
    read_sealed,
    replace_durably,
    seal,
    unlink_durably,
    write_atomic,
)
from modu_desktop.core.saving.queue_changes import (
    ChangeItem,
    ChangeQueueing,
    ChangeSender,
    ChangesLanded,
    is_change_body,
)
from modu_desktop.core.saving.queue_item import (
    _CONFLICT,
    _DONE,
    _ID_RE,
    _MAX_REBASES,
    _MAX_RETRY_AFTER_S,
    _SEND,
    DONE,
    FAILED,
    PENDING,
    SENDING,
    STATES,
    Committed,
    Fatal,
    NotAtBase,
    Reader,
    Retryable,
    SaveRequest,
    Sender,
    SendOutcome,
    SpoolItem,
    Uncertain,
    _unique,
    judge,
    merge_superseded,
    rebase,
    rebase_on_done,
)

__all__ = [
    "Backoff",
    "ChangeItem",
    "ChangeSender",
    "ChangesLanded",
    "Committed",
    "NotAtBase",
    "Fatal",
    "Reader",
    "Retryable",
    "RunReport",
    "SaveRequest",
    "SaveSpool",
    "SendOutcome",
    "Sender",
    "SpoolItem",
    "Uncertain",
    "judge",
    "merge_superseded",
]

log = logging.getLogger(__name__)

SPOOL_KIND = "modu-spool-item"
SPOOL_VERSION = 1
BROKEN = "broken"

# -- backoff ----------------------------------------------------------------------------------


@dataclass
class Backoff:
    """Exponential backoff, capped, with jitter that only shortens: ``base * factor**(n-1)``
    capped at ``cap_s``, times ``1 - jitter * rng()``."""

    base_s: float = 5.0
    factor: float = 2.0
    cap_s: float = 300.0
    jitter: float = 0.25
    rng: Callable[[], float] = random.random

    def delay(self, attempt: int) -> float:
        exponent = min(max(attempt - 1, 0), 64)
        raw = min(self.cap_s, self.base_s * self.factor**exponent)
        return raw * (1.0 - self.jitter * self.rng())


# -- the spool --------------------------------------------------------------------------------


@dataclass
class RunReport:
    committed: list[SpoolItem] = field(default_factory=list)
    failed: list[SpoolItem] = field(default_factory=list)
    rescheduled: list[SpoolItem] = field(default_factory=list)
    problems: list[FileProblem] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    changes_landed: list[ChangeItem] = field(default_factory=list)
    changes_failed: list[ChangeItem] = field(default_factory=list)


class SaveSpool(ChangeQueueing):
    """The durable save queue. ``sender``/``reader`` are async callables (see module doc);
    ``clock`` returns Unix seconds (persisted, so it must be wall time). ``change_sender``
    sends the changes of many pages (None: they wait until a spool with one runs)."""

    def __init__(
        self,
        root: str | Path,
        sender: Sender,
        reader: Reader,
        *,
        max_attempts: int = 8,
        backoff: Backoff | None = None,
        clock: Callable[[], float] = time.time,
        change_sender: ChangeSender | None = None,
    ) -> None:
        self.root = Path(root)
        self.sender = sender
        self.reader = reader
        self.change_sender = change_sender
        self.max_attempts = max_attempts
        self.backoff = backoff or Backoff()
        self.clock = clock
        self.problems: list[FileProblem] = []
        self._lock = threading.RLock()
        self._seq = itertools.count()
        self._recovered = False
        self._recovered_done: list[SpoolItem] = []
        self._running = False
        for state in STATES:
            (self.root / state).mkdir(parents=True, exist_ok=True)

    # -- public API --------------------------------------------------------------------------

    def enqueue(self, **request: Unpack[SaveRequest]) -> SpoolItem:
        """Queue a save; the item is on disk (fsynced) when this returns. A pending item for the
        same target is superseded (merged into this one)."""
        request["text"].encode("utf-8")  # raises UnicodeEncodeError early for unencodable text
        now = self.clock()
        item = SpoolItem(id=self._new_id(now), created_at=now, next_attempt_at=now, **request)
        item.api_host = item.api_host.rstrip("/")
        with self._lock:
            for done in self._items(DONE):
                if done.target == item.target:
                    item = rebase_on_done(done, item)
            older = [i for i in self._items(PENDING, SENDING) if i.target == item.target]
            for old in older:
                item = merge_superseded(old, item)
                if old.state == SENDING:  # inherits its chain, but does not replace it
                    item.supersedes = [i for i in item.supersedes if i != old.id]
            self._write(item, PENDING)
            for old in older:
                if old.state == PENDING:
                    unlink_durably(self._path(old.id, PENDING))
        return item

    def recover(self) -> list[FileProblem]:
        """Start-up repair (idempotent): set damaged and temp files aside, finish interrupted
        transitions, and mark items stuck in ``sending/`` as uncertain (verified before any
        resend). Called automatically by the first :meth:`run_once`; items found committed
        here are reported in the ``committed`` list of the next :meth:`run_once`. Does nothing
        while :meth:`run_once` is running (an item in ``sending/`` is then really in flight)."""
        if self._running:
            return []
        return self._recover()

    def _recover(self) -> list[FileProblem]:
        with self._lock:
            before = len(self.problems)
            self._set_aside_temp_files()
            seen: dict[str, str] = {}
            for state in (DONE, FAILED, SENDING, PENDING):  # most final first
                for item in self._all(state):
                    if item.id in seen:
                        self._report(
                            self._path(item.id, state), f"duplicate of {seen[item.id]}/{item.id}"
                        )
                        continue
                    seen[item.id] = state
            for item in self._items(SENDING):
                if item.result_sha is not None:  # committed; only the move was interrupted
                    self._transition(item, SENDING, DONE)
                    self._recovered_done.append(item)
                else:
                    item.verify_first = True
                    item.next_attempt_at = self.clock()
                    item.last_error = item.last_error or "interrupted while sending"
                    self._return_to_pending(item, SENDING)
            self._recover_changes()
            self._collapse_pending()
            self._recovered = True
            return self.problems[before:]

    async def run_once(self) -> RunReport:
        """Process every due pending item once, oldest first, one at a time."""
        report = RunReport()
        if self._running:
            return report
        self._running = True
        try:
            if not self._recovered:
                report.problems.extend(self._recover())
            report.committed.extend(self._recovered_done)
            self._recovered_done = []
            before = len(self.problems)
            with self._lock:
                due = [i for i in self._all(PENDING) if self._is_due(i)]
            for item in due:
                try:
                    if isinstance(item, ChangeItem):
                        await self._process_change(item, report)
                    else:
                        await self._process(item, report)
                except OSError as exc:  # disk full, permissions: keep going, re-verify later
                    log.error("spool I/O error on %s: %s", item.id, exc)
                    report.errors.append(f"{item.id}: {exc}")
                    self._recovered = False
            report.problems.extend(self.problems[before:])
        except BaseException:
            self._recovered = False  # cancelled mid-send: the next run re-verifies "sending/"
            raise
        finally:
            self._running = False
        return report

    def retry_now(self, item_id: str) -> bool:
        """Make a pending item due now, or put a failed one back into the queue."""
        if not _ID_RE.match(item_id):
            return False
        with self._lock:
            item = self._read_one(item_id, PENDING)
            if item is not None:
                item.next_attempt_at = self.clock()
                self._write(item, PENDING)
                return True
            item = self._read_one(item_id, FAILED)
            if item is None:
                return False
            item.attempts = 0
            item.failure = None
            item.next_attempt_at = self.clock()
            if isinstance(item, ChangeItem):
                self._transition(item, FAILED, PENDING)
            else:
                self._return_to_pending(item, FAILED)
            return True

    def discard(self, item_id: str) -> bool:
        """Drop a pending or failed item (never one being sent)."""
        if not _ID_RE.match(item_id):
            return False
        with self._lock:
            return unlink_durably(self._path(item_id, PENDING)) or unlink_durably(
                self._path(item_id, FAILED)
            )

    def get(self, item_id: str) -> SpoolItem | ChangeItem | None:
        if not _ID_RE.match(item_id):
            return None
        with self._lock:
            for state in STATES:
                item = self._read_one(item_id, state)
                if item is not None:
                    return item
        return None

    def pending_count(self) -> int:
        """Items waiting to be saved (pending + being sent), a change of many pages as one:
        the "waiting to save (N)" badge."""
        with self._lock:
            return len(self._all(PENDING, SENDING))

    def pending_items(self) -> builtins.list[SpoolItem]:
        with self._lock:
            return self._items(PENDING, SENDING)

    def failed_items(self) -> builtins.list[SpoolItem]:
        with self._lock:
            return self._items(FAILED)

    def done_items(self) -> builtins.list[SpoolItem]:
        with self._lock:
            return self._items(DONE)

    def next_due_in(self) -> float | None:
        """Seconds until the next pending item is due (0 if one is due); None if none pending."""
        with self._lock:
            items = self._all(PENDING)
        if not items:
            return None
        now = self.clock()
        return max(0.0, min(0.0 if self._is_due(i) else i.next_attempt_at - now for i in items))

    def prune_done(self, older_than_s: float) -> int:
        """Delete done items finished more than ``older_than_s`` ago; returns how many."""
        limit = self.clock() - older_than_s
        removed = 0
        with self._lock:
            for item in self._all(DONE):
                if (item.finished_at or 0.0) < limit:
                    removed += unlink_durably(self._path(item.id, DONE))
        return removed

    # -- processing --------------------------------------------------------------------------

    async def _process(self, queued: SpoolItem, report: RunReport) -> None:
        with self._lock:  # re-read: an earlier item may have rebased or superseded this one
            item = self._read_one(queued.id, PENDING)
        if not isinstance(item, SpoolItem) or not self._is_due(item):
            return
        if item.verify_first:
            try:
                server_sha = await self.reader(dataclasses.replace(item))
            except Exception as exc:  # offline: try again later, still unverified
                item.attempts += 1
                self._reschedule(item, PENDING, f"could not verify: {exc!r}", report)
                return
            verdict = judge(item, server_sha)
            if verdict == _DONE:
                self._finish_done(item, PENDING, item.blob_sha(), None, report)
                return
            if verdict == _CONFLICT:
                self._finish_failed(
                    item, PENDING, "conflict", "changed on the server", report, their_sha=server_sha
                )
                return
            rebase(item, server_sha)
            item.verify_first = False
        item.attempts += 1
        with self._lock:
            if not self._path(item.id, PENDING).exists():
                return  # superseded or discarded meanwhile
            self._transition(item, PENDING, SENDING)
        await self._send(item, report)

    async def _send(self, item: SpoolItem, report: RunReport) -> None:
        for _ in range(_MAX_REBASES + 1):
            try:
                outcome = await self.sender(dataclasses.replace(item))
            except Exception as exc:
                outcome = Uncertain(f"sender raised {exc!r}")
            if isinstance(outcome, Committed):
                self._finish_done(item, SENDING, outcome.new_sha, outcome.commit_sha, report)
            elif isinstance(outcome, NotAtBase):
                their_sha = await self._confirm_conflict(item, outcome.their_sha)
                verdict = judge(item, their_sha)
                if verdict == _DONE:
                    self._finish_done(item, SENDING, item.blob_sha(), None, report)
                elif verdict == _SEND and their_sha != item.base_sha:
                    rebase(item, their_sha)  # our own earlier write landed
                    with self._lock:
                        self._write(item, SENDING)
                    continue
                else:
                    self._finish_failed(
                        item,
                        SENDING,
                        "conflict",
                        "changed on the server",
                        report,
                        their_sha=their_sha,
                    )
            elif isinstance(outcome, Retryable):
                self._reschedule(item, SENDING, outcome.reason, report, outcome.retry_after)
            elif isinstance(outcome, Fatal):
                self._finish_failed(item, SENDING, "fatal", outcome.reason, report)
            else:
                reason = getattr(outcome, "reason", f"unexpected sender result {outcome!r}")
                await self._after_uncertain(item, str(reason), report)
            return
        self._finish_failed(
            item, SENDING, "conflict", "file keeps changing", report, their_sha=item.base_sha
        )

    async def _confirm_conflict(self, item: SpoolItem, reported: str | None) -> str | None:
        """The server's sha after a rejected write: read it back (GitHub's 409/422 bodies do not
        carry it, so a sender may report ``NotAtBase(None)``); keep the reported sha if the read
        fails or contradicts the rejection (a stale read still showing our base)."""
        try:
            current = await self.reader(dataclasses.replace(item))
        except Exception:
            return reported
        if current == item.base_sha and reported != item.base_sha:
            return reported
        return current

    async def _after_uncertain(self, item: SpoolItem, reason: str, report: RunReport) -> None:
        item.verify_first = True
        try:
            server_sha = await self.reader(dataclasses.replace(item))
        except Exception as exc:
            self._reschedule(item, SENDING, f"{reason}; could not verify: {exc!r}", report)
            return
        verdict = judge(item, server_sha)
        if verdict == _DONE:
            self._finish_done(item, SENDING, item.blob_sha(), None, report)
        elif verdict == _CONFLICT:
            self._finish_failed(
                item, SENDING, "conflict", "changed on the server", report, their_sha=server_sha
            )
        else:
            rebase(item, server_sha)
            self._reschedule(item, SENDING, reason, report)

    def _reschedule(
        self,
        item: SpoolItem,
        source: str,
        reason: str,
        report: RunReport,
        retry_after: float | None = None,
    ) -> None:
        if item.attempts >= self.max_attempts:
            self._finish_failed(item, source, "exhausted", reason, report)
            return
        delay = self.backoff.delay(item.attempts)
        if retry_after is not None:
            delay = max(delay, min(retry_after, _MAX_RETRY_AFTER_S))
        item.last_error = reason
        item.next_attempt_at = self.clock() + delay
        with self._lock:
            merged = self._return_to_pending(item, source)
        report.rescheduled.append(merged)

    def _finish_done(
        self,
        item: SpoolItem,
        source: str,
        new_sha: str,
        commit_sha: str | None,
        report: RunReport,
    ) -> None:
        item.result_sha, item.commit_sha = new_sha, commit_sha
        item.finished_at, item.last_error = self.clock(), None
        with self._lock:
            if not self._path(item.id, source).exists():
                return
            self._absorb_older_failed(item)
            self._transition(item, source, DONE)
            for other in self._items(PENDING):
                if other.target == item.target and new_sha in other.accept_shas:
                    rebase(other, new_sha)  # its base chain just landed: build on it
                    self._write(other, PENDING)
        report.committed.append(item)

    def _finish_failed(
        self,
        item: SpoolItem,
        source: str,
        failure: str,
        reason: str,
        report: RunReport,
        *,
        their_sha: str | None = None,
    ) -> None:
        item.failure, item.last_error = failure, reason
        item.their_sha = their_sha
        item.finished_at = self.clock()
        with self._lock:
            if not self._path(item.id, source).exists():
                return
            self._absorb_older_failed(item)
            self._transition(item, source, FAILED)
        report.failed.append(item)

    # -- file plumbing (call with the lock held) ---------------------------------------------

    def _new_id(self, now: float) -> str:
        ms = min(max(int(now * 1000), 0), 10**13 - 1)
        return f"{ms:013d}-{next(self._seq) % 10000:04d}-{uuid.uuid4().hex[:8]}"

    def _path(self, item_id: str, state: str) -> Path:
        if not _ID_RE.match(item_id):
            raise ValueError(f"not a spool item id: {item_id!r}")
        return self.root / state / f"{item_id}.json"

    def _write(self, item: SpoolItem | ChangeItem, state: str) -> None:
        write_atomic(self._path(item.id, state), seal(SPOOL_KIND, SPOOL_VERSION, item.to_json()))
        item.state = state

    def _transition(self, item: SpoolItem | ChangeItem, source: str, dest: str) -> None:
        """Rewrite the item where it is, then move it: one directory at any instant."""
        self._write(item, source)
        replace_durably(self._path(item.id, source), self._path(item.id, dest))
        item.state = dest

    def _return_to_pending(self, item: SpoolItem, source: str) -> SpoolItem:
        """Move ``item`` back to pending, merging it into a newer pending item of its target.
        An item whose file is gone was superseded meanwhile: nothing to do."""
        if not self._path(item.id, source).exists():
            return item
        newer = [i for i in self._items(PENDING) if i.target == item.target and i.id != item.id]
        if not newer:
            self._transition(item, source, PENDING)
            return item
        merged = newer[-1]
        merged = merge_superseded(item, merged)
        self._write(merged, PENDING)
        unlink_durably(self._path(item.id, source))
        return merged

    def _absorb_older_failed(self, item: SpoolItem) -> None:
        """Failed items of the same target, saved before ``item`` and in its lineage (sharing
        its base chain), are superseded by it: drop them, so the user sees one conflict per
        document. A failed item of another lineage (e.g. a conflict the user has not looked at
        before reloading) is kept. Their ids go to ``item.supersedes``; the caller writes it."""
        lineage: set[str | None] = {item.base_sha, *item.accept_shas}
        for old in self._items(FAILED):
            if old.target != item.target or old.id == item.id:
                continue
            related = old.base_sha in lineage or old.blob_sha() in lineage
            if related and (old.created_at, old.id) < (item.created_at, item.id):
                item.supersedes = _unique([*item.supersedes, *old.supersedes, old.id], None)
                unlink_durably(self._path(old.id, FAILED))

    def _collapse_pending(self) -> None:
        by_target: dict[tuple[str, str, str, str], list[SpoolItem]] = {}
        for item in self._items(PENDING):
            by_target.setdefault(item.target, []).append(item)
        for items in by_target.values():
            if len(items) < 2:
                continue
            newest = items[-1]
            for old in items[:-1]:
                if old.id not in newest.supersedes:
                    newest = merge_superseded(old, newest)
            self._write(newest, PENDING)
            for old in items[:-1]:
                unlink_durably(self._path(old.id, PENDING))

    def _is_due(self, item: SpoolItem | ChangeItem) -> bool:
        now = self.clock()
        if item.next_attempt_at <= now:
            return True
        # A clock that jumped backwards must not park an item for days.
        horizon = 2 * max(self.backoff.cap_s, _MAX_RETRY_AFTER_S)
        return item.next_attempt_at - now > horizon

    def _read_one(self, item_id: str, state: str) -> SpoolItem | ChangeItem | None:
        path = self._path(item_id, state)
        item, problem = self._load(path, state)
        if problem is not None:
            self._report(path, problem)
        return item

    def _items(self, *states: str) -> builtins.list[SpoolItem]:
        """Readable saves of ``states``, oldest first; damaged files are set aside."""
        return [i for i in self._all(*states) if isinstance(i, SpoolItem)]

    def _all(self, *states: str) -> builtins.list[SpoolItem | ChangeItem]:
        """Readable items (saves and changes) of ``states``, oldest first; damaged set aside."""
        found: list[SpoolItem | ChangeItem] = []
        for state in states:
            try:
                paths = sorted((self.root / state).iterdir())
            except FileNotFoundError:
                continue
            for path in paths:
                if is_temp_name(path.name) or not path.name.endswith(".json"):
                    continue
                item, problem = self._load(path, state)
                if problem is not None:
                    self._report(path, problem)
                elif item is not None:
                    found.append(item)
        found.sort(key=lambda i: (i.created_at, i.id))
        return found

    def _load(self, path: Path, state: str) -> tuple[SpoolItem | ChangeItem | None, str | None]:
        body, problem = read_sealed(path, SPOOL_KIND, SPOOL_VERSION)
        if problem is not None or body is None:
            return None, problem
        try:
            read = ChangeItem.from_json if is_change_body(body) else SpoolItem.from_json
            item = read(body, state)
        except (ValueError, TypeError) as exc:
            return None, f"invalid spool item ({exc})"
        if path.name != f"{item.id}.json":
            return None, "id does not match file name"
        return item, None

    def _report(self, path: Path, problem: str) -> None:
        moved = move_aside(path, self.root / BROKEN)
        if moved is None and not path.exists():
            return  # someone else already moved it
        if moved is None and any(p.path == path for p in self.problems):
            return  # could not move it; already reported
        log.warning("damaged spool file %s: %s (kept as %s)", path, problem, moved)
        self.problems.append(FileProblem(path, problem, moved))

    def _set_aside_temp_files(self) -> None:
        """Temp files of interrupted writes: the previous version (if any) is intact and the
        write never returned, so they carry nothing promised; keep them aside anyway."""
        for state in STATES:
            with contextlib.suppress(FileNotFoundError):
                for path in (self.root / state).iterdir():
                    if is_temp_name(path.name):
                        moved = move_aside(path, self.root / BROKEN, suffix=".tmp-leftover")
                        log.info("interrupted write %s kept as %s", path, moved)
