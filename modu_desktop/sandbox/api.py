"""The sandbox's API state and route table; the endpoints live in `endpoints_*.py`.

Handlers run with the repository lock held (see `GitHubApi.handle`), so a write's
check-then-commit cannot interleave with another write — GitHub serialises them per branch too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from . import payloads as P
from .actions import DeployWorkflow
from .faults import Faults
from .gitstore import GitStore
from .http_types import ApiError, ApiRequest, ApiResponse, not_found
from .router import Router
from .users import SandboxUser

Handler = Callable[["GitHubApi", ApiRequest], ApiResponse]
ROUTES: Router[Handler] = Router()
EMPTY_GIT = "Git Repository is empty."
EMPTY_CONTENTS = "This repository is empty."
WRITE_METHODS = {"PUT", "DELETE", "POST", "PATCH"}


def route(method: str, template: str) -> Callable[[Handler], Handler]:
    return ROUTES.add(method, template)


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
    ) -> None:
        self.store = store
        self.owner, self.name, self.branch = owner, name, branch
        self.users = users
        self.org = org
        self.faults = faults
        self.workflow = workflow
        self.clock = clock  # the server's wall clock (with the clock-offset fault)
        self.urls = P.Urls("http://127.0.0.1", owner, name)
        self.lock = store.lock
        self._stale: dict[tuple[str, str], StaleWrite] = {}

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
        with self.lock:
            return handler(self, request)

    def _check_repo(self, request: ApiRequest) -> None:
        owner, repo = request.params.get("owner"), request.params.get("repo")
        if repo is None:
            return
        # GitHub matches owner and repository names case-insensitively.
        if (owner or "").lower() != self.owner.lower() or repo.lower() != self.name.lower():
            raise not_found()

    # ----- helpers -------------------------------------------------------------------------

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
        self._stale[(branch, path)] = StaleWrite(before, time.monotonic())

    def stale_commit_for(self, branch: str, path: str) -> tuple[bool, str | None]:
        """(True, commit) when the cache trap should serve `commit` instead of the branch head."""
        seconds = self.faults.stale_contents_seconds
        write = self._stale.get((branch, path))
        if seconds <= 0 or write is None or time.monotonic() - write.at >= seconds:
            return False, None
        return True, write.before


def load_routes() -> Router[Handler]:
    """The full route table (importing the endpoint modules registers their handlers)."""
    from . import endpoints_archive, endpoints_contents, endpoints_read  # noqa: F401

    return ROUTES
