"""Async GitHub REST client (httpx) for the PNU-Modu repository.

- Works against github.com, GitHub Enterprise (`https://HOST/api/v3`) and the loopback sandbox.
- TLS through the OS trust store (`truststore`) for https.
- Typed errors (`modu_desktop.core.github.errors`, re-exported here) with `.user_message()`.
- Reads retry with jittered exponential backoff on 5xx, network errors and rate limits
  (honouring `retry-after` / `x-ratelimit-reset`), bounded in attempts and total waiting.
- Writes (`put_file`, `delete_file`) are never repeated blindly: after a timeout, a dropped
  connection or a 5xx the file is read back through the git database (ref → commit → tree) and
  its blob sha decides whether the write happened. A 409 is told apart the same way
  (`core/github/writes.py`): the file unchanged means only the branch moved, and the write is
  sent again a few times before it ends as `BranchMoved` (temporary, never a conflict).
- Every response's `Date` header feeds a `ServerClock`.
- The token is held in a `Secret` that never shows itself in repr/str/logs/exceptions.

Loop affinity: an instance owns an `httpx.AsyncClient`, which is bound to the event loop that
first uses it. Create one client per event loop (e.g. per `asyncio.run`).
"""

from __future__ import annotations

import asyncio
import base64
import logging
import random
import ssl
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal
from urllib.parse import quote

import httpx

from modu_desktop import __version__
from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.github.clock import ServerClock, parse_http_date
from modu_desktop.core.github.errors import (
    BadCredentials,
    BranchMoved,
    GitHubConflict,
    GitHubError,
    NetworkError,
    NotFound,
    PermissionDenied,
    RateLimited,
    RepositoryEmpty,
    ServerError,
    ShaMissing,
    ValidationFailed,
    WriteUncertain,
)
from modu_desktop.core.github.types import (
    Commit,
    ContentFile,
    MembershipProbe,
    RepoInfo,
    RepoRef,
    RetryPolicy,
    Secret,
    Tree,
    TreeEntry,
    User,
    WorkflowRun,
    WriteResult,
    _b64decode,
    commit_from_git,
    commit_from_rest,
    encode_path,
)
from modu_desktop.core.github.writes import RaceCounts, RaceRetry, current_blob_sha, send_write

__all__ = [
    "API_VERSION",
    "DEFAULT_API_URL",
    "BadCredentials",
    "BranchMoved",
    "Commit",
    "GitHubConflict",
    "ContentFile",
    "GitHubClient",
    "GitHubError",
    "MembershipProbe",
    "NetworkError",
    "NotFound",
    "PermissionDenied",
    "RateLimited",
    "RepoInfo",
    "RepoRef",
    "RepositoryEmpty",
    "RetryPolicy",
    "Secret",
    "ServerClock",
    "ServerError",
    "ShaMissing",
    "Tree",
    "TreeEntry",
    "User",
    "ValidationFailed",
    "WorkflowRun",
    "WriteResult",
    "WriteUncertain",
    "encode_path",
    "git_blob_sha",
]

log = logging.getLogger(__name__)

API_VERSION = "2022-11-28"
DEFAULT_API_URL = "https://api.github.com"
EMPTY_TREE_SHA = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

Sleep = Callable[[float], Awaitable[None]]


# --------------------------------------------------------------------------- the client


class GitHubClient:
    """Async client for one repository. Use `async with GitHubClient(...) as gh:` or `aclose()`."""

    def __init__(
        self,
        api_url: str,
        token: str | Secret | None,
        repo: RepoRef,
        *,
        user_agent: str = f"ModuDesktop/{__version__}",
        timeout: float | httpx.Timeout = 20.0,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: ServerClock | None = None,
        retry: RetryPolicy | None = None,
        sleep: Sleep | None = None,
        rng: random.Random | None = None,
        allow_insecure_http: bool = False,
        race: RaceRetry | None = None,
    ) -> None:
        self.api_url = api_url.rstrip("/")
        url = httpx.URL(self.api_url)
        if url.scheme not in ("http", "https") or not url.host:
            raise ValueError(f"not an API URL: {self.api_url!r}")
        if url.scheme == "http" and not _is_loopback(url.host) and not allow_insecure_http:
            raise ValueError(
                "refusing to send a GitHub token over plain http to "
                f"{url.host}; use https (plain http is for the local sandbox)"
            )
        self.repo = repo
        self.clock = clock if clock is not None else ServerClock()
        self.retry = retry if retry is not None else RetryPolicy()
        self.race = race if race is not None else RaceRetry()
        self.race_counts = RaceCounts()
        self._sleep: Sleep = sleep if sleep is not None else asyncio.sleep
        self._rng = rng if rng is not None else random.Random()
        self._token = token if isinstance(token, Secret) else Secret(token or "")
        self._tree_cache: dict[str, Tree] = {}
        self.last_rate: dict[str, str] = {}
        self.request_count = 0
        # When GitHub says the token stops working (epoch seconds; None: it never expires, or
        # no answer has said so yet), from the `GitHub-Authentication-Token-Expiration` header.
        self.token_expires_at: float | None = None
        self._me: User | None = None

        headers = {
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": API_VERSION,
            "User-Agent": user_agent,
        }
        if isinstance(timeout, (int, float)):
            timeout = httpx.Timeout(float(timeout), connect=min(10.0, float(timeout)))
        verify: ssl.SSLContext | bool = True
        if transport is None and self.api_url.startswith("https://"):
            import truststore

            verify = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        elif transport is None and url.scheme == "http" and _is_loopback(url.host):
            verify = False  # the loopback sandbox: no TLS context to build (~60 ms at start-up)
        self._http = httpx.AsyncClient(
            base_url=self.api_url,
            headers=headers,
            timeout=timeout,
            transport=transport,
            verify=verify,
            follow_redirects=True,
            auth=_BearerAuth(self._token),
        )

    def __repr__(self) -> str:
        return f"GitHubClient({self.api_url!r}, repo={self.repo!r}, token=***)"

    async def __aenter__(self) -> GitHubClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # ------------------------------------------------------------------ low level

    @property
    def _repo_path(self) -> str:
        return f"/repos/{quote(self.repo.owner, safe='')}/{quote(self.repo.name, safe='')}"

    def _scrub(self, text: str) -> str:
        tok = self._token.reveal()
        if tok and tok in text:
            text = text.replace(tok, "***")
        return text

    async def _send_once(
        self,
        method: str,
        url: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        headers: Mapping[str, str] | None = None,
        follow_redirects: bool = True,
    ) -> httpx.Response:
        """One HTTP exchange. Transport failures become NetworkError; no status mapping."""
        sent = self.clock.local_now()
        self.request_count += 1
        try:
            resp = await self._http.request(
                method,
                url,
                params=params,
                json=json,
                headers=headers,
                follow_redirects=follow_redirects,
            )
        except httpx.TimeoutException as exc:
            not_sent = isinstance(exc, (httpx.ConnectTimeout, httpx.PoolTimeout))
            log.debug("%s %s: timeout (%s)", method, url, type(exc).__name__)
            raise NetworkError(
                f"timed out ({type(exc).__name__})",
                kind="timeout",
                sent=not not_sent,
                method=method,
                path=url,
            ) from None
        except httpx.TransportError as exc:
            not_sent = isinstance(exc, httpx.ConnectError)
            detail = self._scrub(str(exc)) or type(exc).__name__
            log.debug("%s %s: transport error %s", method, url, type(exc).__name__)
            raise NetworkError(
                f"connection failed ({type(exc).__name__}: {detail})",
                kind="connection",
                sent=not not_sent,
                method=method,
                path=url,
            ) from None
        received = self.clock.local_now()
        self.clock.observe(resp.headers.get("date"), sent, received)
        expiry = resp.headers.get("github-authentication-token-expiration")
        if expiry is not None:
            self.token_expires_at = parse_token_expiration(expiry) or self.token_expires_at
        for h in (
            "x-ratelimit-limit",
            "x-ratelimit-remaining",
            "x-ratelimit-reset",
            "x-ratelimit-resource",
        ):
            if h in resp.headers:
                self.last_rate[h] = resp.headers[h]
        log.debug("%s %s -> %s", method, url, resp.status_code)
        return resp

    def _error_for(self, resp: httpx.Response, method: str, url: str) -> GitHubError:
        status = resp.status_code
        body: Any = None
        message = ""
        try:
            body = resp.json()
        except ValueError:
            body = None
        if isinstance(body, dict) and isinstance(body.get("message"), str):
            message = body["message"]
        elif resp.text:
            message = resp.text[:300]
        else:
            message = resp.reason_phrase or f"HTTP {status}"
        message = self._scrub(message)
        kw: dict[str, Any] = {
            "request_id": resp.headers.get("x-github-request-id"),
            "method": method,
            "path": url,
            "body": body,
        }
        low = message.lower()
        remaining = resp.headers.get("x-ratelimit-remaining")
        retry_after = resp.headers.get("retry-after")
        if status in (403, 429) and (
            remaining == "0" or retry_after is not None or "rate limit" in low or status == 429
        ):
            secondary = remaining != "0" or "secondary" in low
            retry_at: float | None = None
            if retry_after is not None:
                retry_at = self._retry_after_to_local(retry_after)
            if retry_at is None and remaining == "0":
                reset = resp.headers.get("x-ratelimit-reset")
                if reset and reset.strip().isdigit():
                    retry_at = self.clock.to_local(float(reset))
            return RateLimited(status, message, retry_at=retry_at, secondary=secondary, **kw)
        if status == 401:
            return BadCredentials(status, message, **kw)
        if status == 403:
            return PermissionDenied(status, message, **kw)
        if status == 404:
            return NotFound(status, message, **kw)
        if status == 409:
            if "is empty" in low:
                return RepositoryEmpty(status, message, **kw)
            return GitHubConflict(status, message, **kw)
        if status == 422:
            if "sha" in low and ("wasn't supplied" in low or "weren't supplied" in low):
                return ShaMissing(status, message, **kw)
            return ValidationFailed(status, message, **kw)
        if status >= 500:
            return ServerError(status, message, **kw)
        return GitHubError(status, message, **kw)

    def _retry_after_to_local(self, value: str) -> float | None:
        value = value.strip()
        now = self.clock.local_now()
        try:
            return now + max(0.0, float(value))
        except ValueError:
            pass
        ts = parse_http_date(value)
        return None if ts is None else self.clock.to_local(ts)

    def _backoff(self, attempt: int) -> float:
        d = min(self.retry.max_delay, self.retry.base_delay * (2 ** (attempt - 1)))
        return d / 2 + self._rng.uniform(0, d / 2)

    def _delay_for(self, err: GitHubError, attempt: int) -> float | None:
        """Seconds to wait before retrying after `err`, or None if it must not be retried."""
        if isinstance(err, RateLimited):
            wait = err.retry_in(self.clock.local_now())
            if wait is None:
                if not err.secondary:
                    return None
                wait = max(self.retry.secondary_wait, self._backoff(attempt))
            return wait + self._rng.uniform(0, min(1.0, self.retry.base_delay))
        if isinstance(err, (ServerError, NetworkError)):
            return self._backoff(attempt)
        return None

    async def _request(
        self,
        method: str,
        url: str,
        *,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        ok: tuple[int, ...] = (),
        follow_redirects: bool = True,
    ) -> httpx.Response:
        """A read with retries. Returns 2xx responses and any status listed in `ok`."""
        attempt = 0
        slept = 0.0
        while True:
            attempt += 1
            err: GitHubError
            try:
                resp = await self._send_once(
                    method,
                    url,
                    params=params,
                    headers=headers,
                    follow_redirects=follow_redirects,
                )
            except NetworkError as exc:
                err = exc
            else:
                if 200 <= resp.status_code < 300 or resp.status_code in ok:
                    return resp
                err = self._error_for(resp, method, url)
            delay = self._delay_for(err, attempt)
            if (
                delay is None
                or attempt >= self.retry.max_attempts
                or slept + delay > self.retry.max_total
            ):
                raise err
            log.info(
                "retrying %s %s in %.1fs after %r (attempt %d)", method, url, delay, err, attempt
            )
            slept += delay
            await self._sleep(delay)

    async def _get_json(self, url: str, params: Mapping[str, Any] | None = None) -> Any:
        resp = await self._request("GET", url, params=params)
        try:
            return resp.json()
        except ValueError:
            raise GitHubError(
                resp.status_code, "the server's answer was not JSON", method="GET", path=url
            ) from None

    # ------------------------------------------------------------------ identity

    async def get_user(self) -> User:
        d = await self._get_json("/user")
        user = User(
            login=d["login"], id=d.get("id"), name=d.get("name"), email=d.get("email"), raw=d
        )
        self._me = user
        return user

    async def get_repo(self) -> RepoInfo:
        d = await self._get_json(self._repo_path)
        perms = d.get("permissions") or {}
        return RepoInfo(
            full_name=d.get("full_name") or self.repo.full_name,
            default_branch=d.get("default_branch") or self.repo.branch,
            private=bool(d.get("private")),
            permissions={k: bool(v) for k, v in perms.items()},
            raw=d,
        )

    async def org_membership_probe(self, org: str, login: str) -> MembershipProbe:
        """``GET /orgs/{org}/members/{login}`` without following the redirect: the status code
        (204 member, 404 not a member or no such org, 302/301/307 the requester cannot see the
        org's members) and the token's ``X-OAuth-Scopes``. Any other answer raises the client's
        typed error (403 ``PermissionDenied``, 401, 5xx, rate limits, network). What the answer
        means is decided in ``core/account/org.py`` (``check_org_membership``)."""
        url = f"/orgs/{quote(org, safe='')}/members/{quote(login, safe='')}"
        resp = await self._request("GET", url, ok=(301, 302, 307, 404), follow_redirects=False)
        raw = resp.headers.get("x-oauth-scopes")
        scopes = None if raw is None else tuple(s.strip() for s in raw.split(",") if s.strip())
        return MembershipProbe(int(resp.status_code), scopes)

    async def latest_release(self, repo: str | None = None) -> Mapping[str, Any] | None:
        """The latest published full release (``GET …/releases/latest``: not a draft, not a
        pre-release) of this repository or of ``repo`` (OWNER/NAME), or None when it has none
        (404)."""
        path = self._repo_path
        if repo is not None:
            owner, _, name = repo.partition("/")
            path = f"/repos/{quote(owner, safe='')}/{quote(name, safe='')}"
        resp = await self._request("GET", f"{path}/releases/latest", ok=(404,))
        if resp.status_code == 404:
            return None
        try:
            data = resp.json()
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    # ------------------------------------------------------------------ git database

    async def get_ref(self, branch: str | None = None) -> str:
        """The commit sha at `heads/{branch}` (default: the repo's branch)."""
        br = branch or self.repo.branch
        d = await self._get_json(f"{self._repo_path}/git/ref/heads/{quote(br, safe='/')}")
        if isinstance(d, list):  # some servers answer a prefix match with a list
            for item in d:
                if item.get("ref") == f"refs/heads/{br}":
                    return str(item["object"]["sha"])
            raise NotFound(404, f"no branch {br}")
        return str(d["object"]["sha"])

    async def get_commit(self, sha: str) -> Commit:
        d = await self._get_json(f"{self._repo_path}/git/commits/{quote(sha, safe='')}")
        return commit_from_git(d)

    async def get_tree(self, ref: str | None = None, recursive: bool = True) -> Tree:
        """A tree by sha or branch name. Conditional: an unchanged tree is a free 304 (one
        request) answered from the last result, with `not_modified=True`."""
        r = ref or self.repo.branch
        url = f"{self._repo_path}/git/trees/{quote(r, safe='')}"
        params = {"recursive": "1"} if recursive else None
        key = f"{url}?r={int(recursive)}"
        cached = self._tree_cache.get(key)
        headers = {"If-None-Match": cached.etag} if cached and cached.etag else None
        resp = await self._request("GET", url, params=params, headers=headers, ok=(304,))
        if resp.status_code == 304:
            if cached is None:
                raise GitHubError(304, "unexpected 304 Not Modified", method="GET", path=url)
            return Tree(cached.sha, cached.entries, cached.truncated, cached.etag, True)
        d = resp.json()
        entries = tuple(
            TreeEntry(
                path=str(e["path"]),
                sha=str(e["sha"]),
                mode=str(e.get("mode", "")),
                type=str(e.get("type", "")),
                size=e.get("size"),
            )
            for e in d.get("tree", [])
        )
        tree = Tree(str(d["sha"]), entries, bool(d.get("truncated")), resp.headers.get("etag"))
        if tree.etag:
            self._tree_cache.pop(key, None)
            self._tree_cache[key] = tree
            while len(self._tree_cache) > 64:  # oldest first
                self._tree_cache.pop(next(iter(self._tree_cache)))
        return tree

    async def get_blob(self, sha: str) -> bytes:
        """Blob bytes by sha (immutable, never stale). Verified against the sha."""
        d = await self._get_json(f"{self._repo_path}/git/blobs/{quote(sha, safe='')}")
        enc = d.get("encoding", "base64")
        content = d.get("content") or ""
        data = _b64decode(content) if enc == "base64" else str(content).encode("utf-8")
        if git_blob_sha(data) != sha.lower():
            raise GitHubError(None, f"blob {sha} content does not match its sha")
        return data

    async def get_tarball(self, ref: str | None = None) -> bytes:
        """The whole repository at `ref` as a gzip'd tar (`GET tarball/{ref}`, notes §11): GitHub
        answers 302 to a temporary download link, which is followed (the token is not sent to
        another host). One top folder `{owner}-{repo}-{short sha}/`. Callers verify each file
        against the tree's blob shas (`core/github/archive.py`)."""
        r = ref or self.repo.branch
        resp = await self._request("GET", f"{self._repo_path}/tarball/{quote(r, safe='')}")
        return resp.content

    async def list_commits(
        self, path: str | None = None, sha: str | None = None, per_page: int = 30
    ) -> list[Commit]:
        params: dict[str, Any] = {"per_page": per_page}
        if path:
            params["path"] = path
        params["sha"] = sha or self.repo.branch
        d = await self._get_json(f"{self._repo_path}/commits", params=params)
        return [commit_from_rest(c) for c in d]

    async def list_commits_page(
        self, path: str | None = None, sha: str | None = None, *, page: int = 1, per_page: int = 100
    ) -> tuple[list[Commit], bool]:
        """One page of the commits API (newest first) and whether a next page exists (the
        ``Link: rel="next"`` header)."""
        params: dict[str, Any] = {
            "per_page": per_page,
            "page": page,
            "sha": sha or self.repo.branch,
        }
        if path:
            params["path"] = path
        url = f"{self._repo_path}/commits"
        resp = await self._request("GET", url, params=params)
        try:
            data = resp.json()
        except ValueError:
            raise GitHubError(
                resp.status_code, "the server's answer was not JSON", method="GET", path=url
            ) from None
        more = 'rel="next"' in (resp.headers.get("link") or "")
        return [commit_from_rest(c) for c in data], more

    async def run_jobs(self, run_id: int) -> list[Mapping[str, Any]]:
        """``GET /repos/{o}/{r}/actions/runs/{id}/jobs``: the jobs of a workflow run (raw)."""
        d = await self._get_json(f"{self._repo_path}/actions/runs/{int(run_id)}/jobs")
        return list(d.get("jobs", []))

    async def job_logs(self, job_id: int) -> str:
        """``GET /repos/{o}/{r}/actions/jobs/{id}/logs``: a job's plain-text log (GitHub answers
        with a redirect to the log file, which is followed)."""
        resp = await self._request("GET", f"{self._repo_path}/actions/jobs/{int(job_id)}/logs")
        return resp.content.decode("utf-8", "replace")

    async def workflow_runs(self, head_sha: str) -> list[WorkflowRun]:
        d = await self._get_json(f"{self._repo_path}/actions/runs", params={"head_sha": head_sha})
        return [_workflow_run(r) for r in d.get("workflow_runs", [])]

    async def branch_runs(
        self, branch: str | None = None, *, per_page: int = 10
    ) -> list[WorkflowRun]:
        """The latest workflow runs of pushes to ``branch`` (newest first): whether a later
        build of the site succeeded (``GET …/actions/runs?branch=…&event=push``)."""
        params = {"branch": branch or self.repo.branch, "event": "push", "per_page": per_page}
        d = await self._get_json(f"{self._repo_path}/actions/runs", params=params)
        return [_workflow_run(r) for r in d.get("workflow_runs", [])]

    async def entry_at(self, path: str, branch: str | None = None) -> tuple[str, TreeEntry | None]:
        """(head commit sha, the tree entry at `path` or None) read through the git database:
        ref → commit → walk the tree one directory at a time. Never stale."""
        head = await self.get_ref(branch)
        commit = await self.get_commit(head)
        tree_sha = commit.tree_sha
        parts = path.strip("/").split("/")
        for i, part in enumerate(parts):
            if tree_sha is None:
                return head, None
            tree = await self.get_tree(tree_sha, recursive=False)
            hit = next((e for e in tree.entries if e.path == part), None)
            if hit is None:
                return head, None
            if i == len(parts) - 1:
                return head, TreeEntry("/".join(parts), hit.sha, hit.mode, hit.type, hit.size)
            if hit.type != "tree":
                return head, None
            tree_sha = hit.sha
        return head, None

    # ------------------------------------------------------------------ contents API

    async def get_contents(self, path: str, ref: str | None = None) -> ContentFile:
        """Contents API read (may be served from a cache right after a write; prefer the git
        database). Kept for compatibility tests and for emulating the web admin."""
        params = {"ref": ref} if ref else None
        d = await self._get_json(f"{self._repo_path}/contents/{encode_path(path)}", params)
        if isinstance(d, list):
            return ContentFile(
                path=path.strip("/"),
                sha="",
                type="dir",
                content=b"",
                entries=tuple(d),
                raw={"entries": d},
            )
        content = b""
        if d.get("encoding") == "base64" and d.get("content") is not None:
            content = _b64decode(d["content"])
        return ContentFile(
            path=str(d.get("path", path)),
            sha=str(d.get("sha", "")),
            type=str(d.get("type", "file")),
            content=content,
            size=d.get("size"),
            raw=d,
        )

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
            lambda: current_blob_sha(self, path, branch),
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
                if outcome == "changed":
                    if isinstance(err, GitHubConflict):
                        raise err
                    raise GitHubConflict(
                        409,
                        f"{path} changed while the write was in flight",
                        method=method,
                        path=url,
                    )
                uncertain = True  # "unchanged": not applied (yet) — retry below
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
    ) -> WriteResult | Literal["unchanged", "changed"]:
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
            return "unchanged"
        return "changed"

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


def parse_token_expiration(value: str) -> float | None:
    """``GitHub-Authentication-Token-Expiration`` → epoch seconds. GitHub writes
    ``2021-10-07 19:07:53 UTC``; a numeric offset (``+0900``) is read too. None if unreadable."""
    from datetime import UTC, datetime

    text = value.strip()
    for fmt, tail in (("%Y-%m-%d %H:%M:%S", " UTC"), ("%Y-%m-%d %H:%M:%S %z", "")):
        try:
            if tail:
                if not text.endswith(tail):
                    continue
                moment = datetime.strptime(text[: -len(tail)], fmt).replace(tzinfo=UTC)
            else:
                moment = datetime.strptime(text, fmt)
        except ValueError:
            continue
        return moment.timestamp()
    return None


def _is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    return host in ("localhost", "::1") or host.startswith("127.")


class _BearerAuth(httpx.Auth):
    def __init__(self, token: Secret) -> None:
        self._token = token

    def __repr__(self) -> str:
        return "_BearerAuth(***)"

    def auth_flow(self, request: httpx.Request) -> Any:
        if self._token.reveal():  # no token: an anonymous request, not an empty Bearer
            request.headers["Authorization"] = f"Bearer {self._token.reveal()}"
        yield request


def _workflow_run(r: Mapping[str, Any]) -> WorkflowRun:
    return WorkflowRun(
        id=int(r.get("id", 0)),
        name=r.get("name"),
        status=r.get("status"),
        conclusion=r.get("conclusion"),
        head_sha=r.get("head_sha"),
        html_url=r.get("html_url"),
        event=r.get("event"),
        created_at=r.get("created_at"),
        raw=r,
    )
