"""Locks left behind by a crashed session of this app: record them, find them, resume or release.

Recording: the workspace's lock manager has a :class:`~modu_desktop.core.locks.held.
HeldLockRecorder` among its observers, which writes every lock it acquires into the
:class:`~modu_desktop.core.locks.held.HeldLockRegistry` (durably, before the first edit), updates
the record after each heartbeat and removes it after the release.

Next start (:func:`find_leftovers`): records of sessions whose process is gone are checked
against the repository. A lock that still carries the dead session's ``sessionId`` is ours:

* with a draft of that document -> :attr:`Leftover.resumable`; :func:`resume` adopts it (one
  heartbeat rewrites it with the new session id) and the window opens the document with it and
  puts the draft back (:meth:`LeftoverLocks.run` does the releasing part on its own);
* without a draft -> released (``DELETE`` with the exact sha seen).

A lock that is gone, or now someone else's, is only forgotten locally. When the repository
cannot be read (offline) the record is kept for the next start. Goal: every lock the desktop
acquires ends in a release, unless another editor took it.
"""

from __future__ import annotations

import dataclasses
import enum
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from modu_desktop.core.locks.held import HeldLockRecord, HeldLockRegistry, registry_for
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.locks.model import (
    HeartbeatOutcome,
    HeldLock,
    LockStatus,
    LockView,
    ReleaseOutcome,
)
from modu_desktop.core.saving.drafts import Draft, DraftKey, DraftStore

__all__ = [
    "Leftover",
    "LeftoverAction",
    "LeftoverLocks",
    "LeftoverReport",
    "LeftoverState",
    "find_leftovers",
    "leftover_drafts",
    "registry_for",
    "release_leftover",
    "resume",
]

log = logging.getLogger(__name__)

# -- the next start -----------------------------------------------------------------------------


class LeftoverState(enum.Enum):
    OURS = "ours"  # still in the repo with the dead session's id
    GONE = "gone"  # no lock file any more
    TAKEN = "taken"  # someone (or another session of ours) holds it now
    UNKNOWN = "unknown"  # could not read the repository


class LeftoverAction(enum.Enum):
    RESUME = "resume"  # the caller opens the document with the lock and the draft
    RELEASED = "released"
    FORGOTTEN = "forgotten"  # nothing to release (gone or not ours)
    KEPT = "kept"  # offline or the release failed: try again next start


@dataclass
class Leftover:
    record: HeldLockRecord
    state: LeftoverState
    view: LockView | None = None
    draft: Draft | None = None
    action: LeftoverAction | None = None
    message: str = ""  # what happened, for the log

    @property
    def doc_id(self) -> str:
        return self.record.doc_id

    @property
    def resumable(self) -> bool:
        return self.state is LeftoverState.OURS and self.draft is not None


async def find_leftovers(
    registry: HeldLockRegistry,
    locks: LockManager,
    *,
    api_host: str,
    repo: str,
    branch: str,
    drafts: DraftStore | None = None,
) -> list[Leftover]:
    """Leftover records of dead sessions for this repository, checked against the server."""
    api_host = api_host.rstrip("/")
    out: list[Leftover] = []
    for rec in registry.leftovers(locks.session_id):
        if (rec.api_host, rec.repo, rec.branch) != (api_host, repo, branch):
            continue
        try:
            view = await locks.inspect(rec.doc_id)
        except Exception as exc:
            out.append(Leftover(rec, LeftoverState.UNKNOWN, message=str(exc)))
            continue
        if view.status is LockStatus.FREE or view.record is None:
            out.append(Leftover(rec, LeftoverState.GONE, view))
            continue
        same_login = view.record.editing_by.casefold() == (rec.login or locks.login).casefold()
        if view.record.session_id == rec.session_id and same_login and not view.record.malformed:
            draft = None
            if drafts is not None:
                draft = drafts.load(DraftKey(api_host, repo, branch, rec.doc_id))
            out.append(Leftover(rec, LeftoverState.OURS, view, draft))
        else:
            out.append(Leftover(rec, LeftoverState.TAKEN, view))
    return out


async def release_leftover(
    registry: HeldLockRegistry, locks: LockManager, leftover: Leftover
) -> LeftoverAction:
    """Release (if still ours) or forget one leftover; KEPT when that could not be settled."""
    if leftover.state is LeftoverState.UNKNOWN:
        leftover.action = LeftoverAction.KEPT
        return leftover.action
    if leftover.state is LeftoverState.OURS and leftover.view is not None:
        try:
            res = await locks.release_view(leftover.view)
        except Exception as exc:
            leftover.action, leftover.message = LeftoverAction.KEPT, str(exc)
            return leftover.action
        leftover.message = res.code.value
        if res.outcome is ReleaseOutcome.FAILED:
            leftover.action = LeftoverAction.KEPT
            return leftover.action
        leftover.action = (
            LeftoverAction.RELEASED
            if res.outcome is ReleaseOutcome.RELEASED
            else LeftoverAction.FORGOTTEN
        )
    else:
        leftover.action = LeftoverAction.FORGOTTEN
    try:
        registry.forget(leftover.record)
    except OSError:
        log.warning("could not forget %s", leftover.doc_id, exc_info=True)
    return leftover.action


async def resume(
    registry: HeldLockRegistry, locks: LockManager, leftover: Leftover
) -> HeldLock | None:
    """Adopt a leftover lock of ours for this session: one heartbeat rewrites it with our
    session id. None if it could not be adopted (lost meanwhile, offline)."""
    view = leftover.view
    if view is None or view.sha is None or view.record is None:
        return None
    now = int(locks.server_now())
    held = HeldLock(
        view.doc_id, view.sha, view.record.started_at or now, view.record.last_heartbeat or now
    )
    try:
        beat = await locks.heartbeat(held)
    except Exception as exc:
        leftover.message = str(exc)
        return None
    if beat.outcome is not HeartbeatOutcome.OK:
        leftover.message = beat.code.value
        if beat.outcome in (HeartbeatOutcome.LOST, HeartbeatOutcome.RELEASED):
            registry.forget(leftover.record)
            leftover.action = LeftoverAction.FORGOTTEN
        return None
    try:
        registry.adopt(
            dataclasses.replace(leftover.record, lock_sha=held.sha),
            locks.session_id,
        )
    except OSError:
        log.warning("could not adopt the record of %s", leftover.doc_id, exc_info=True)
    leftover.action = LeftoverAction.RESUME
    return held


@dataclass
class LeftoverReport:
    leftovers: list[Leftover]
    resumed: list[tuple[Leftover, HeldLock]]

    @property
    def released(self) -> list[Leftover]:
        return [x for x in self.leftovers if x.action is LeftoverAction.RELEASED]

    @property
    def kept(self) -> list[Leftover]:
        return [x for x in self.leftovers if x.action is LeftoverAction.KEPT]


class LeftoverLocks:
    """Start-up policy: resume at most ``max_resume`` leftovers that have a draft (the window
    edits one document at a time), release every other leftover of ours."""

    def __init__(
        self,
        registry: HeldLockRegistry,
        locks: LockManager,
        *,
        api_host: str,
        repo: str,
        branch: str,
        drafts: DraftStore | None = None,
    ) -> None:
        self.registry = registry
        self.locks = locks
        self.api_host = api_host.rstrip("/")
        self.repo = repo
        self.branch = branch
        self.drafts = drafts

    async def run(self, *, max_resume: int = 1) -> LeftoverReport:
        found = await find_leftovers(
            self.registry,
            self.locks,
            api_host=self.api_host,
            repo=self.repo,
            branch=self.branch,
            drafts=self.drafts,
        )
        resumed: list[tuple[Leftover, HeldLock]] = []
        for lo in sorted(found, key=lambda x: -(x.draft.saved_at if x.draft else 0.0)):
            if lo.resumable and len(resumed) < max_resume:
                held = await resume(self.registry, self.locks, lo)
                if held is not None:
                    resumed.append((lo, held))
                    continue
                if lo.action is not None:
                    continue
            await release_leftover(self.registry, self.locks, lo)
        for lo in found:
            log.info("leftover lock %s: %s (%s)", lo.doc_id, lo.action, lo.message)
        return LeftoverReport(found, resumed)


def leftover_drafts(report: LeftoverReport) -> Sequence[Draft]:
    """Drafts that were resumed with their lock (not to be offered again by the recovery)."""
    return [lo.draft for lo, _held in report.resumed if lo.draft is not None]
