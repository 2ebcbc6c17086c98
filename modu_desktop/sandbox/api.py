"""The sandbox's API state; the endpoints live in `endpoints/`, the route table in `http/routes.py`.

Handlers run with the repository lock held (see `GitHubApi.handle`), so a write's checks and the
commit it builds see one consistent branch head. Moving the branch is a compare-and-swap
(`publish_write`): with a race window the lock is let go between building the commit and moving
the branch, and a write whose head moved meanwhile answers 409 "is at X but expected Y" and
applies nothing — as GitHub answers concurrent Contents API writes on one branch.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from modu_desktop.sandbox.faults import FaultInjector, Faults, path_matches
from modu_desktop.sandbox.practice.deploy_workflow import DeployWorkflow
from modu_desktop.sandbox.repo.gitstore import (
    CommitInfo,
    GitStore,
    PreparedWrite,
    Signature,
    WriteOutcome,
)
from modu_desktop.sandbox.rest import payloads as P
from modu_desktop.sandbox.rest.messages import ApiError, ApiRequest, ApiResponse, not_found
from modu_desktop.sandbox.users import SandboxUser

Handler = Callable[["GitHubApi", ApiRequest], ApiResponse]
EMPTY_GIT = "Git Repository is empty."
EMPTY_CONTENTS = "This repository is empty."
WRITE_METHODS = {"PUT", "DELETE", "POST", "PATCH"}
# Who moves the branch when the sandbox makes a write lose the race on purpose: a commit that
# changes no file here, standing for another client's write elsewhere in the repository.
CONCURRENT_WRITER = Signature("Another client", "another-client@sandbox.invalid", 0)
CONCURRENT_MESSAGE = "chore: a concurrent write elsewhere (sandbox race) [skip ci]"


@dataclass
class StaleWrite:
    """The commit a branch pointed at just before a write (what a stale cache still serves)."""

    before: str | None
    at: float


class GitHubApi:
    def __init__(
        self,
        store: GitStore,
        *,
        owner: str,
        name: str,
        branch: str,
        users: list[SandboxUser],
        org: str | None,
        faults: Faults,
        workflow: DeployWorkflow,
        clock: Callable[[], float],
        injector: FaultInjector | None = None,
        sleep: Callable[[float], bool] | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.owner, self.name, self.branch = owner, name, branch
        self.users = users
        self.org = org
        self.faults = faults
        self.workflow = workflow
        self.clock = clock  # the server's wall clock (with the clock-offset fault)
        self.monotonic = monotonic  # the sandbox clock's steady time (durations)
        self.urls = P.Urls("http://127.0.0.1", owner, name)
        self.lock = store.lock
        self.injector = injector or FaultInjector(faults)
        # Sleeps unless the sandbox stops (then True): a write's race window.
        self._sleep = sleep or _plain_sleep
        self._race_lock = threading.Lock()
        self._forced_losses: dict[str, int] = {}
        # Writes that lost the race for the branch: Contents API writes answered 409 "is at X but
        # expected Y", branch updates answered 422 "Update is not a fast forward".
        self.branch_moved = 0
        self._stale: dict[tuple[str, str], StaleWrite] = {}
        self._logs: OrderedDict[tuple[str, str | None], list[CommitInfo]] = OrderedDict()
        self.releases: list[dict[str, Any]] = []  # endpoints.releases (memory, like metadata)

    # ----- entry point ---------------------------------------------------------------------

    def user_for_token(self, token: str) -> SandboxUser | None:
        return next((u for u in self.users if u.token == token), None)

    def handle(self, handler: Handler, request: ApiRequest) -> ApiResponse:
        self._check_repo(request)
        if (
            request.method in WRITE_METHODS
            and "repo" in request.params
            and not (request.user and request.user.push)
        ):
            # A read-only collaborator of a private repo gets 404 on writes, like GitHub (§1).
            raise not_found()
        if "/actions/" in request.raw_path and request.user and not request.user.actions_read:
            # What GitHub answers a fine-grained token without the Actions permission.
            raise ApiError(
                403,
                "Resource not accessible by personal access token",
                {"X-Accepted-GitHub-Permissions": "actions=read"},
            )
        with self.lock:
            return handler(self, request)

    def _check_repo(self, request: ApiRequest) -> None:
        owner, repo = request.params.get("owner"), request.params.get("repo")
        if repo is None:
            return
        # GitHub matches owner and repository names case-insensitively.
        if (owner or "").lower() != self.owner.lower() or repo.lower() != self.name.lower():
            raise not_found()

    # ----- the branch race ------------------------------------------------------------------

    def lose_next_write(self, path: str, times: int = 1) -> None:
        """The next `times` writes to `path` (or under it, for a folder ending in "/") lose the
        race: another client's commit moves the branch inside their window."""
        with self._race_lock:
            self._forced_losses[path] = self._forced_losses.get(path, 0) + max(0, times)

    def _forced_loss(self, path: str) -> bool:
        with self._race_lock:
            for pattern, left in self._forced_losses.items():
                if left > 0 and path_matches(path, (pattern,)):
                    self._forced_losses[pattern] = left - 1
                    return True
        return False

    def publish_write(self, prepared: PreparedWrite, path: str) -> WriteOutcome:
        """Move the branch to a write's commit the way GitHub does: only if the branch still
        points at the head the commit was built on. Called with the lock held; during the race
        window the lock is let go, so other writes may land first. A lost race answers 409
        with GitHub's message and applies nothing."""
        faults = self.faults.snapshot()
        self._race_window(faults)
        if self._forced_loss(path) or self.injector.loses_race(faults, path):
            writer = Signature(
                CONCURRENT_WRITER.name, CONCURRENT_WRITER.email, int(self.clock()), 0
            )
            self.store.commit_nothing(prepared.branch, CONCURRENT_MESSAGE, writer)
        if not self.store.publish(prepared):
            self.branch_moved += 1
            now = self.store.branch_head(prepared.branch)
            raise ApiError(409, f"is at {now} but expected {prepared.outcome.previous_head}")
        return prepared.outcome

    def move_branch(self, branch: str, new: str, *, force: bool, paths: list[str]) -> str:
        """Move ``branch`` to the commit ``new`` as `PATCH git/refs/heads/{branch}` does: without
        ``force`` only as a fast forward — a branch that moved since the commit was built
        (another client's commit, also one the race faults land inside the window for
        ``paths``) answers 422 "Update is not a fast forward" and changes nothing. Called with
        the lock held; returns the commit the branch pointed at before."""
        faults = self.faults.snapshot()
        self._race_window(faults)
        if any(self._forced_loss(p) or self.injector.loses_race(faults, p) for p in paths):
            writer = Signature(
                CONCURRENT_WRITER.name, CONCURRENT_WRITER.email, int(self.clock()), 0
            )
            self.store.commit_nothing(branch, CONCURRENT_MESSAGE, writer)
        current = self.store.branch_head(branch)
        if current is None:
            raise ApiError(422, "Reference does not exist")
        if not force and not self.store.is_ancestor(current, new):
            self.branch_moved += 1
            raise ApiError(422, "Update is not a fast forward")
        if not self.store.move_branch(branch, current, new):
            raise RuntimeError("branch moved during a serialised write")
        return current

    def _race_window(self, faults: Faults) -> None:
        """With `race_window_ms`, let the lock go for the window: other writes may land."""
        window = faults.race_window_ms / 1000
        if window <= 0:
            return
        self.lock.release()
        try:
            stopping = self._sleep(window)
        finally:
            self.lock.acquire()
        if stopping:
            raise ApiError(502, "Server Error")

    # ----- helpers -------------------------------------------------------------------------

    def commit_log(self, head: str, path: str | None = None) -> list[CommitInfo]:
        """`store.log(head, path)`, remembered per (head, path) and extended by one commit when
        the branch moved by one, so paging and `Link: last` do not re-walk the history."""
        key = (head, path)
        found = self._logs.get(key)
        if found is not None:
            self._logs.move_to_end(key)
            return found
        info = self.store.commit(head)
        before = (
            self._logs.get((info.parents[0], path)) if info and len(info.parents) == 1 else None
        )
        if info is not None and before is not None:
            prefix = f"{path}/" if path else ""
            changed = self.store.changed_paths(head)
            touches = path is None or any(p == path or p.startswith(prefix) for p in changed)
            found = [info, *before] if touches else before
        else:
            found = self.store.log(head, path=path)
        self._logs[key] = found
        while len(self._logs) > 256:
            self._logs.popitem(last=False)
        return found

    def require_commits(self) -> None:
        if self.store.is_empty():
            raise ApiError(409, EMPTY_GIT)

    def user_by_email(self, email: str) -> SandboxUser | None:
        return next((u for u in self.users if u.commit_email.lower() == email.lower()), None)

    def known_orgs(self) -> set[str]:
        orgs = {o.lower() for u in self.users for o in u.orgs}
        if self.org:
            orgs.add(self.org.lower())
        return orgs

    def owner_is_org(self) -> bool:
        return self.owner.lower() in self.known_orgs()

    def mark_stale(self, branch: str, path: str, before: str | None) -> None:
        self._stale[(branch, path)] = StaleWrite(before, self.monotonic())

    def stale_commit_for(self, branch: str, path: str) -> tuple[bool, str | None]:
        """(True, commit) when the cache trap should serve `commit` instead of the branch head."""
        seconds = self.faults.stale_contents_seconds
        write = self._stale.get((branch, path))
        if seconds <= 0 or write is None or self.monotonic() - write.at >= seconds:
            return False, None
        return True, write.before


def _plain_sleep(seconds: float) -> bool:
    time.sleep(seconds)
    return False
