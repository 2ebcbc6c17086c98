"""An in-memory, deterministic stand-in for ``GitHubClient`` (client-level semantics), used by the
lock unit tests and the randomised model test. It keeps GitHub's rules that matter for locks:

* PUT without sha on an existing path -> ShaMissing (422); a sha that is not the current blob ->
  GitHubConflict (409); a sha sent for a missing path is ignored and the file is created (201);
* DELETE of a missing path -> NotFound; with a wrong sha -> GitHubConflict;
* every write is one commit whose parent is the previous head; blobs are addressed by git sha;
* server time is the injected ``now()``; each answer feeds ``on_response(server_time)`` so a
  ``ServerClock`` can learn the offset like it does from the ``Date`` header;
* faults: ``fault_rate`` per request, decided by a seeded RNG, either "before" (the request never
  arrives -> NetworkError) or, for writes, "after" (applied, then the client cannot tell ->
  WriteUncertain), plus ServerError on reads.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.github.client import (
    Commit,
    ContentFile,
    GitHubConflict,
    NetworkError,
    NotFound,
    ServerError,
    ShaMissing,
    Tree,
    TreeEntry,
    WriteResult,
    WriteUncertain,
)
from modu_desktop.core.github.clock import ServerClock
from modu_desktop.core.locks.manager import LockManager


@dataclass(frozen=True)
class CreatedWriteResult(WriteResult):
    """WriteResult plus whether the PUT created the file (HTTP 201) - see the report/DESIGN."""

    created: bool = False


@dataclass
class FakeCommit:
    sha: str
    parent: str | None
    message: str
    author: str
    path: str
    old_blob: str | None
    new_blob: str | None
    time: float
    files: dict[str, str] = field(default_factory=dict)  # snapshot after this commit


@dataclass
class FakeRepo:
    """The shared server state."""

    now: Callable[[], float]
    files: dict[str, str] = field(default_factory=dict)  # path -> blob sha
    blobs: dict[str, bytes] = field(default_factory=dict)
    commits: list[FakeCommit] = field(default_factory=list)
    requests: dict[str, int] = field(default_factory=dict)
    faults: int = 0  # injected faults, all clients together

    def count(self, route: str) -> None:
        self.requests[route] = self.requests.get(route, 0) + 1

    @property
    def total_requests(self) -> int:
        return sum(self.requests.values())

    def seed_file(self, path: str, data: bytes) -> str:
        sha = git_blob_sha(data)
        self.blobs[sha] = data
        self.files[path] = sha
        return sha

    def read(self, path: str) -> bytes | None:
        sha = self.files.get(path)
        return None if sha is None else self.blobs[sha]

    def head(self) -> str:
        return self.commits[-1].sha if self.commits else "0" * 40

    def commit(self, path: str, new_blob: str | None, message: str, author: str) -> str:
        parent = self.head()
        sha = git_blob_sha(f"{parent}{path}{new_blob}{message}{len(self.commits)}".encode())
        self.commits.append(
            FakeCommit(
                sha, parent, message, author, path, self.files.get(path), new_blob, self.now()
            )
        )
        if new_blob is None:
            self.files.pop(path, None)
        else:
            self.files[path] = new_blob
        self.commits[-1].files = dict(self.files)
        return sha

    def find_commit(self, sha: str) -> FakeCommit | None:
        return next((c for c in reversed(self.commits) if c.sha == sha), None)

    def tree(self, files: dict[str, str] | None = None) -> Tree:
        files = self.files if files is None else files
        entries: dict[str, TreeEntry] = {}
        for path, sha in sorted(files.items()):
            parts = path.split("/")
            for i in range(1, len(parts)):
                d = "/".join(parts[:i])
                entries.setdefault(d, TreeEntry(d, git_blob_sha(d.encode()), "040000", "tree"))
            entries[path] = TreeEntry(path, sha, "100644", "blob", len(self.blobs[sha]))
        return Tree(
            git_blob_sha(repr(sorted(self.files.items())).encode()), tuple(entries.values())
        )


class FakeClient:
    """One user's client on a FakeRepo (the LockClient / GitHubClient subset)."""

    def __init__(
        self,
        repo: FakeRepo,
        login: str,
        *,
        rng: random.Random | None = None,
        fault_rate: float = 0.0,
        on_response: Callable[[float], None] | None = None,
    ) -> None:
        self.repo = repo
        self.login = login
        self.rng = rng or random.Random(0)
        self.fault_rate = fault_rate
        self.on_response = on_response
        self.clock: ServerClock | None = None  # as GitHubClient.clock, when a test sets one

    # -- fault plumbing ------------------------------------------------------------------------

    def _maybe_fail_before(self, route: str) -> None:
        self.repo.count(route)
        if self.fault_rate and self.rng.random() < self.fault_rate:
            self.repo.faults += 1
            if route.startswith("GET") and self.rng.random() < 0.3:
                raise ServerError(502, "Server Error")
            raise NetworkError("connection reset (injected)", kind="connection")

    def _maybe_fail_after(self) -> None:
        if self.fault_rate and self.rng.random() < self.fault_rate / 2:
            self.repo.faults += 1
            raise WriteUncertain(
                "lost response (injected)",
                cause=NetworkError("reset after write", kind="connection"),
            )

    def _answered(self) -> None:
        if self.on_response is not None:
            self.on_response(self.repo.now())

    # -- reads ---------------------------------------------------------------------------------

    async def get_tree(self, ref: str | None = None, recursive: bool = True) -> Tree:
        self._maybe_fail_before("GET tree")
        self._answered()
        if ref is not None and ref.startswith("tree-"):
            commit = self.repo.find_commit(ref[5:])
            if commit is None:
                raise NotFound(404, "Not Found")
            return self.repo.tree(commit.files)
        return self.repo.tree()

    async def list_commits(
        self, path: str | None = None, sha: str | None = None, per_page: int = 30
    ) -> list[Commit]:
        self._maybe_fail_before("GET commits")
        self._answered()
        out: list[Commit] = []
        for c in reversed(self.repo.commits):
            if path is None or c.path == path:
                out.append(
                    Commit(c.sha, c.message, f"tree-{c.sha}", (c.parent,) if c.parent else ())
                )
            if len(out) >= per_page:
                break
        return out

    async def get_commit(self, sha: str) -> Commit:
        self._maybe_fail_before("GET commit")
        c = self.repo.find_commit(sha)
        if c is None:
            raise NotFound(404, "Not Found")
        self._answered()
        return Commit(c.sha, c.message, f"tree-{c.sha}", (c.parent,) if c.parent else ())

    async def get_blob(self, sha: str) -> bytes:
        self._maybe_fail_before("GET blob")
        data = self.repo.blobs.get(sha)
        if data is None:
            raise NotFound(404, "Not Found")
        self._answered()
        return data

    async def get_contents(self, path: str, ref: str | None = None) -> ContentFile:
        self._maybe_fail_before("GET contents")
        sha = self.repo.files.get(path)
        if sha is None:
            raise NotFound(404, "Not Found")
        self._answered()
        return ContentFile(path=path, sha=sha, type="file", content=self.repo.blobs[sha])

    # -- writes --------------------------------------------------------------------------------

    async def put_file(
        self, path: str, content: bytes, message: str, sha: str | None = None
    ) -> WriteResult:
        self._maybe_fail_before("PUT contents")
        current = self.repo.files.get(path)
        if current is not None and not sha:
            self._answered()
            raise ShaMissing(422, 'Invalid request.\n\n"sha" wasn\'t supplied.')
        if current is not None and sha != current:
            self._answered()
            raise GitHubConflict(409, f"{path} does not match {sha}")
        new = git_blob_sha(content)
        self.repo.blobs[new] = content
        commit = self.repo.commit(path, new, message, self.login)
        self._maybe_fail_after()
        self._answered()
        return CreatedWriteResult(content_sha=new, commit_sha=commit, created=current is None)

    async def delete_file(self, path: str, sha: str, message: str) -> str:
        self._maybe_fail_before("DELETE contents")
        current = self.repo.files.get(path)
        if current is None:
            self._answered()
            raise NotFound(404, "Not Found")
        if sha != current:
            self._answered()
            raise GitHubConflict(409, f"{path} does not match {sha}")
        commit = self.repo.commit(path, None, message, self.login)
        self._maybe_fail_after()
        self._answered()
        return commit


T0 = 1_790_000_000  # the fake server's start time (epoch seconds)


class LockEnv:
    """One fake repository on a settable clock (``t``), with lock managers on it."""

    def __init__(self) -> None:
        self.t = float(T0)
        self.repo = FakeRepo(now=lambda: self.t)

    def manager(self, login: str, session: str, **kw: Any) -> LockManager:
        client = FakeClient(self.repo, login)
        return LockManager(
            client,
            login,
            session,
            lambda: self.t,
            heartbeat_s=300,
            stale_s=900,
            install_id="h",
            **kw,
        )
