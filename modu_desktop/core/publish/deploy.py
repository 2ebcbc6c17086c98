"""What the site's publishing (the Deploy workflow) is doing for one save (Qt-free).

Answers about a run can arrive out of order (a GitHub replica, a retried request, a run listed
before its update): the status shown for one commit only ever moves forward, waiting → building
→ a final state, and a final state is never left — except failed → published, when a later
build of the branch (which contains this commit) succeeds (:meth:`DeployTracker.published_later`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any


class DeployState(enum.Enum):
    WAITING = "waiting"  # no run yet, or the run is queued: the same thing to the user
    BUILDING = "building"
    PUBLISHED = "published"
    FAILED = "failed"
    SKIPPED = "skipped"  # cancelled / skipped / neutral: nothing was published by this save
    UNKNOWN = "unknown"  # no run found in time, or no permission to see runs

    @property
    def final(self) -> bool:
        return self not in (DeployState.WAITING, DeployState.BUILDING)

    @property
    def rank(self) -> int:
        """0 waiting, 1 building, 2 any final state: the order the state may move in."""
        return _RANK.get(self, 2)


_RANK = {DeployState.WAITING: 0, DeployState.BUILDING: 1}
_QUEUED = {"queued", "waiting", "pending", "requested"}


def state_of_run(run: Any) -> DeployState:
    status = getattr(run, "status", None)
    if status == "completed":
        conclusion = getattr(run, "conclusion", None)
        if conclusion == "success":
            return DeployState.PUBLISHED
        if conclusion in ("skipped", "cancelled", "neutral"):
            return DeployState.SKIPPED
        return DeployState.FAILED
    if status in _QUEUED or status is None:
        return DeployState.WAITING
    return DeployState.BUILDING


class DeployTracker:
    """The publishing state of one commit, from successive ``workflow_runs(commit)`` answers.
    The one state machine of publishing: the status bar (``ui/publish/deploy_status.py``) and the
    editor's line (``ui/editing/publish_status.py``) both show it."""

    def __init__(self, commit_sha: str, *, give_up_after_s: float = 180.0) -> None:
        self.commit_sha = commit_sha
        self.state = DeployState.WAITING
        self.give_up_after_s = give_up_after_s
        self._seen_run = False
        self.run: Any = None  # the latest run of this commit seen (the failed one, once failed)

    def _advance(self, new: DeployState) -> DeployState:
        if self.state.final:
            return self.state
        if new.final or _RANK[new] > _RANK[self.state]:
            self.state = new
        return self.state

    def observe(self, runs: Iterable[Any] | None, elapsed_s: float = 0.0) -> DeployState:
        """Take one answer (``None`` = the request failed); returns the state to show."""
        mine = [
            r
            for r in runs or ()
            if getattr(r, "head_sha", self.commit_sha)
            in (
                self.commit_sha,
                None,
            )
        ]
        if mine:
            self._seen_run = True
            latest = max(mine, key=lambda r: getattr(r, "id", 0) or 0)
            if not self.state.final:
                self.run = latest
            return self._advance(state_of_run(latest))
        if runs is not None and not self._seen_run and elapsed_s > self.give_up_after_s:
            return self._advance(DeployState.UNKNOWN)
        return self.state

    def published_later(self) -> DeployState:
        """A later build of the branch succeeded: this commit, which it contains, is on the site
        now even though its own build failed. The one way out of FAILED (forward: the site
        shows the text now)."""
        if self.state is DeployState.FAILED:
            self.state = DeployState.PUBLISHED
        return self.state

    def unavailable(self) -> DeployState:
        """The runs cannot be read at all (no permission): say so, unless already final."""
        return self._advance(DeployState.UNKNOWN)
