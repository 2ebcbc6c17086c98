"""Contents API writes (``put_file``, ``delete_file``), never repeated blindly.

After a timeout, a dropped connection or a 5xx the file is read back through the git database
(the ref, then the file's folder at that commit) and its blob sha decides whether the write
happened. A 409 is told apart the same way (`core/github/writes.py`): the file unchanged means
only the branch moved, and the write is sent again a few times before it ends as `BranchMoved`
(temporary, never a conflict); changed means a real conflict, raised as `GitHubConflict` with
the file's current blob sha (`current_sha`), so nobody reads the file's place again for it.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx

from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.github.errors import (
    GitHubConflict,
    GitHubError,
    NetworkError,
    NotFound,
    ServerError,
    WriteUncertain,
)
from modu_desktop.core.github.gitdata import GitData
from modu_desktop.core.github.reads import Reads
from modu_desktop.core.github.types import WriteResult, encode_path
from modu_desktop.core.github.writes import send_write

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Unchanged:
    """Read back: the file is still at the base sha, so the write was not applied (yet)."""


@dataclass(frozen=True)
class Changed:
    """Read back: the file is neither what we wrote nor our base; ``current`` is its blob sha
    (None: deleted)."""

    current: str | None


class ContentsWrites(GitData, Reads):
    """Create, update and delete one file per commit through the Contents API."""

    async def put_file(
        self,
        path: str,
        content: bytes,
        message: str,
        sha: str | None = None,
        branch: str | None = None,
    ) -> WriteResult:
        """Create (sha=None) or update (sha = the blob sha being replaced) a file.

        Raises GitHubConflict (409, or ShaMissing 422) when the file changed/exists, and
        WriteUncertain when neither the answer nor a read-back can tell whether it happened.
        """
        br = branch or self.repo.branch
        body: dict[str, Any] = {
            "message": message,
            "content": base64.b64encode(content).decode("ascii"),
            "branch": br,
        }
        if sha:
            body["sha"] = sha
        expected = git_blob_sha(content)
        resp = await self._race_safe_write(
            path,
            br,
            sha,
            lambda: self._write("PUT", path, body, br, base_sha=sha, expected_sha=expected),
        )
        if isinstance(resp, WriteResult):
            return resp
        d = resp.json()
        c_sha = (d.get("content") or {}).get("sha") or expected
        return WriteResult(
            content_sha=str(c_sha),
            commit_sha=str(d["commit"]["sha"]),
            created=resp.status_code == 201,
        )

    async def delete_file(
        self, path: str, sha: str, message: str, branch: str | None = None
    ) -> str:
        """Delete a file whose current blob sha is `sha`; returns the commit sha."""
        br = branch or self.repo.branch
        body = {"message": message, "sha": sha, "branch": br}
        resp = await self._race_safe_write(
            path,
            br,
            sha,
            lambda: self._write("DELETE", path, body, br, base_sha=sha, expected_sha=None),
        )
        if isinstance(resp, WriteResult):
            return resp.commit_sha
        return str(resp.json()["commit"]["sha"])

    async def _race_safe_write(
        self,
        path: str,
        branch: str,
        base_sha: str | None,
        send: Callable[[], Awaitable[httpx.Response | WriteResult]],
    ) -> httpx.Response | WriteResult:
        """One write through the branch-race rule (`core/github/writes.py`)."""
        return await send_write(
            send,
            lambda: self.blob_sha_at(path, branch),
            path=path,
            base_sha=base_sha,
            policy=self.race,
            sleep=self._sleep,
            rng=self._rng,
            counts=self.race_counts,
        )

    async def _write(
        self,
        method: str,
        path: str,
        body: dict[str, Any],
        branch: str,
        *,
        base_sha: str | None,
        expected_sha: str | None,
    ) -> httpx.Response | WriteResult:
        """Send a write; on an unclear outcome read back and decide. `expected_sha` is the blob
        sha after success (None = file absent, for deletes); `base_sha` the one before."""
        url = f"{self._repo_path}/contents/{encode_path(path)}"
        attempt = 0
        slept = 0.0
        uncertain = False  # an earlier attempt may have been applied
        while True:
            attempt += 1
            err: GitHubError
            try:
                resp = await self._send_once(method, url, json=body)
            except NetworkError as exc:
                err = exc
            else:
                if 200 <= resp.status_code < 300:
                    return resp
                err = self._error_for(resp, method, url)
            if isinstance(err, NetworkError) and not err.sent:
                pass  # provably never reached the server: safe to send again
            elif isinstance(err, (NetworkError, ServerError)) or (
                uncertain and isinstance(err, (GitHubConflict, NotFound))
            ):
                # Unclear (or a conflict that our own earlier attempt may have caused).
                outcome = await self._read_back(
                    path, branch, base_sha, expected_sha, err, body["message"]
                )
                if isinstance(outcome, WriteResult):
                    return outcome
                if isinstance(outcome, Changed):
                    if isinstance(err, GitHubConflict):
                        raise err.knowing_current(outcome.current)
                    raise GitHubConflict(
                        409,
                        f"{path} changed while the write was in flight",
                        method=method,
                        path=url,
                    ).knowing_current(outcome.current)
                uncertain = True  # unchanged: not applied (yet) — retry below
            else:
                raise err
            delay = self._backoff(attempt)
            if attempt >= self.retry.max_attempts or slept + delay > self.retry.max_total:
                # A clear refusal (5xx) after a read-back that found nothing applied is a plain
                # failure; a request that may still be in flight (timeout, reset) is uncertain.
                if uncertain and isinstance(err, NetworkError) and err.sent:
                    raise WriteUncertain(
                        f"{method} {path}: gave up after {attempt} attempts ({err})",
                        cause=err,
                        method=method,
                        path=url,
                    )
                raise err
            log.info(
                "write %s %s not applied after %r; retrying in %.1fs", method, path, err, delay
            )
            slept += delay
            await self._sleep(delay)

    async def _read_back(
        self,
        path: str,
        branch: str,
        base_sha: str | None,
        expected_sha: str | None,
        cause: GitHubError,
        message: str,
    ) -> WriteResult | Unchanged | Changed:
        try:
            head, entry = await self.entry_at(path, branch)
        except GitHubError as exc:
            raise WriteUncertain(
                f"could not read {path} back after {cause!r}: {exc!r}", cause=cause
            ) from None
        current = entry.sha if entry is not None else None
        if current == expected_sha:
            commit_sha = await self._find_commit(head, path, message)
            return WriteResult(
                content_sha=expected_sha,
                commit_sha=commit_sha,
                recovered=True,
                created=expected_sha is not None and base_sha is None,
            )
        if current == base_sha:
            return Unchanged()
        return Changed(current)

    async def _find_commit(self, head: str, path: str, message: str) -> str:
        """The commit that made our write: the head if its message is ours, else the newest
        commit touching `path` with our message, else the head."""
        try:
            commit = await self.get_commit(head)
            if commit.message == message:
                return head
            for c in await self.list_commits(path=path, sha=head, per_page=10):
                if c.message == message:
                    return c.sha
        except GitHubError as exc:
            log.debug("could not identify the write's commit: %r", exc)
        return head
