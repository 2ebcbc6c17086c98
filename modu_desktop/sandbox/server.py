"""The sandbox server: GitHub-compatible HTTP on loopback, in a background thread."""

from __future__ import annotations

import contextlib
import email.utils
import hashlib
import logging
import random
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from modu_desktop.sandbox.api import WRITE_METHODS, GitHubApi, Handler
from modu_desktop.sandbox.clock import Clock, SystemClock
from modu_desktop.sandbox.faults import FaultInjector, Faults, RateInfo
from modu_desktop.sandbox.http.router import Match
from modu_desktop.sandbox.http.stats import RequestStats
from modu_desktop.sandbox.http.transport import LoopbackServer
from modu_desktop.sandbox.practice.deploy_workflow import DeployWorkflow
from modu_desktop.sandbox.repo.gitstore import GitStore
from modu_desktop.sandbox.repo.seed import seed_repository
from modu_desktop.sandbox.rest import payloads as P
from modu_desktop.sandbox.rest.messages import ApiError, ApiRequest, ApiResponse, not_found
from modu_desktop.sandbox.users import PRACTICE_USER, SandboxUser

log = logging.getLogger("modu_desktop.sandbox")

API_VERSIONS = ("2022-11-28", "2026-03-10")
DEFAULT_API_VERSION = "2022-11-28"
PUBLIC_TEMPLATES = {
    "/raw/{owner}/{repo}/{branch}/{path}",
    "/codeload/{owner}/{repo}/legacy.tar.gz/{ref}",  # endpoints.archive.DOWNLOAD_TEMPLATE
}
UNCHARGED_TEMPLATES = {"/rate_limit"}
# /rate_limit's other buckets (name, limit, window seconds), per GitHub's rate-limit docs.
OTHER_RATE_BUCKETS = (
    ("search", 30, 60),
    ("graphql", 5000, 3600),
    ("integration_manifest", 5000, 3600),
    ("code_search", 10, 60),
    ("code_scanning_upload", 1000, 3600),
    ("actions_runner_registration", 10000, 3600),
    ("scim", 15000, 3600),
    ("dependency_snapshots", 100, 60),
    ("dependency_sbom", 100, 3600),
    ("code_scanning_autofix", 10, 60),
)


class Sandbox:
    """A GitHub-compatible API over a dulwich repository. See DESIGN.md for the contract."""

    def __init__(
        self,
        repo_dir: Path | str,
        *,
        owner: str = "pnuai",
        name: str = "PNU-Modu",
        branch: str = "main",
        users: list[SandboxUser] | None = None,
        seed: str | Path = "sample",
        host: str = "127.0.0.1",
        port: int = 0,
        org: str | None = None,
        faults: Faults | None = None,
        deploy_queue_seconds: float = 2.0,
        deploy_run_seconds: float = 5.0,
        clock: Clock | None = None,
    ) -> None:
        self.repo_dir = Path(repo_dir)
        self.owner, self.name, self.branch = owner, name, branch
        self.users = list(users) if users is not None else [PRACTICE_USER]
        self.seed = seed
        self.host, self.port = host, port
        self.org = org
        self._faults = faults or Faults()
        # Every time-dependent behaviour asks this clock (tests pass a ManualClock).
        self.clock: Clock = clock or SystemClock()
        self.injector = FaultInjector(self._faults, self.clock.monotonic)
        self.workflow = DeployWorkflow(
            deploy_queue_seconds, deploy_run_seconds, monotonic=self.clock.monotonic
        )
        self._stats = RequestStats()
        self._stopping = threading.Event()
        self._server: LoopbackServer | None = None
        self._thread: threading.Thread | None = None
        self._store: GitStore | None = None
        self._api: GitHubApi | None = None
        self._ids = random.Random()

    # ----- lifecycle -----------------------------------------------------------------------

    def start(self) -> Sandbox:
        """Open (or create and seed) the repository and listen; returns once listening."""
        if self._server is not None:
            return self
        self._store = GitStore(self.repo_dir)
        if self._store.is_empty():
            seed_repository(self._store, self.branch, self.seed)
        self._api = GitHubApi(
            self._store,
            owner=self.owner,
            name=self.name,
            branch=self.branch,
            users=self.users,
            org=self.org,
            faults=self._faults,
            workflow=self.workflow,
            clock=self.server_time,
            injector=self.injector,
            sleep=self.sleep,
            monotonic=self.clock.monotonic,
        )
        self._stopping.clear()
        self._server = LoopbackServer((self.host, self.port), self)
        self.port = self._server.server_address[1]
        self._api.urls = P.Urls(self.api_url, self.owner, self.name)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"modu-sandbox-{self.port}",
            daemon=True,
        )
        self._thread.start()
        log.info("sandbox listening on %s (repo %s)", self.api_url, self.repo_dir)
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        self._stopping.set()  # wakes requests hanging in latency/timeout faults
        server.shutdown()
        server.close_open_connections()
        server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._store is not None:
            with self._store.lock:  # let an in-flight write finish before closing the repo
                self._store.close()

    def __enter__(self) -> Sandbox:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def api_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def faults(self) -> Faults:
        return self._faults

    @faults.setter
    def faults(self, value: Faults) -> None:
        # Replace the values in place so every component keeps seeing the same object.
        self._faults.update(**{k: getattr(value, k) for k in _fault_fields()})

    @property
    def store(self) -> GitStore:
        if self._store is None:
            raise RuntimeError("sandbox not started")
        return self._store

    @property
    def api(self) -> GitHubApi:
        if self._api is None:
            raise RuntimeError("sandbox not started")
        return self._api

    def server_time(self) -> float:
        """The sandbox's wall clock: its clock plus the clock-offset fault."""
        return self.clock.time() + self._faults.clock_offset_seconds

    # ----- helpers for tests and tools ------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        """Requests by route, method and outcome; `branch_moved`: writes that lost the race for
        the branch (409 "is at X but expected Y")."""
        stats = self._stats.snapshot()
        stats["branch_moved"] = self._api.branch_moved if self._api is not None else 0
        return stats

    def lose_next_write(self, path: str, times: int = 1) -> None:
        """Make the next `times` Contents API writes to `path` (a folder when it ends in "/")
        lose the race for the branch: another client's commit moves the branch inside their
        window, so each answers 409 "is at X but expected Y" and applies nothing."""
        self.api.lose_next_write(path.lstrip("/"), times)

    def reset_stats(self) -> None:
        self._stats.reset()
        if self._api is not None:
            self._api.branch_moved = 0

    def read_file(self, path: str, ref: str | None = None) -> bytes | None:
        with self.api.lock:
            commit = self.store.resolve_commit(ref or self.branch)
            return self.store.read_file(commit, path.lstrip("/")) if commit else None

    def commits(self, path: str | None = None) -> list[dict[str, Any]]:
        """Newest first: sha, message, author{name,email,date}, committer, parents, login."""
        with self.api.lock:
            head = self.store.branch_head(self.branch)
            infos = self.store.log(head, path=path) if head else []
        return [
            {
                "sha": i.sha,
                "message": i.message,
                "author": P.signature_json(i.author),
                "committer": P.signature_json(i.committer),
                "parents": list(i.parents),
                "login": (u.login if (u := self.api.user_by_email(i.author.email)) else None),
            }
            for i in infos
        ]

    # ----- request pipeline (called from handler threads) ----------------------------------

    def sleep(self, seconds: float) -> bool:
        """Let ``seconds`` pass on the sandbox's clock unless it stops; True if it is stopping."""
        return self.clock.sleep(seconds, self._stopping)

    def count(self, method: str, template: str) -> None:
        self._stats.count(method, template)

    def count_outcome(self, outcome: str) -> None:
        self._stats.count_outcome(outcome)

    def request_id(self) -> str:
        r = self._ids
        return (
            f"{r.getrandbits(16):04X}:{r.getrandbits(16):04X}:{r.getrandbits(24):06X}:"
            f"{r.getrandbits(28):07X}:{int(time.time()):08X}"
        )

    def respond(self, request: ApiRequest, match: Match[Handler], faults: Faults) -> ApiResponse:
        """Answer one request the way GitHub would, with GitHub's headers."""
        if request.headers.get("user-agent", "").strip() or match.template in PUBLIC_TEMPLATES:
            response, login = self._answer(request, match, faults)
        else:
            response, login = _no_user_agent_response(), ""
        self.add_headers(
            request, response, self.injector.rate_info(login, faults, self.server_time())
        )
        return response

    def _answer(
        self, request: ApiRequest, match: Match[Handler], faults: Faults
    ) -> tuple[ApiResponse, str]:
        """Auth → routing → rate limits → handler → conditional request; → (response, login)."""
        login = ""
        entered = False
        is_write = request.method in WRITE_METHODS
        try:
            request.user = self._authenticate(request, match)
            login = request.user.login if request.user else ""
            self.injector.enter(login)
            entered = True
            self._check_api_version(request)
            if match.route is None:
                raise not_found()
            request.params = {k: unquote(v) if k != "path" else v for k, v in match.params.items()}
            charged = match.template not in UNCHARGED_TEMPLATES
            if charged:
                self._check_limits(login, faults, is_write)
            response = self._conditional(request, self._call(match, request, faults, login))
            if charged:  # a 304 is free against the primary limit, like GitHub's
                self.injector.charge(login, faults, is_write, primary=response.status != 304)
        except ApiError as error:
            response = error.response()
            if error.status not in (401, 403, 429):
                self.injector.charge(login, faults, is_write)
        except Exception:  # a sandbox bug must answer 500, never kill the connection silently
            log.exception("sandbox handler failed for %s %s", request.method, request.raw_path)
            response = ApiError(500, "Server Error").response()
        finally:
            if entered:
                self.injector.leave(login)
        return response, login

    def _call(
        self, match: Match[Handler], request: ApiRequest, faults: Faults, login: str
    ) -> ApiResponse:
        if match.template == "/rate_limit":
            return self._rate_limit_response(request, login, faults)
        assert match.route is not None
        return self.api.handle(match.route.handler, request)

    def job_log_file(self, job_id: str) -> ApiResponse:
        """The file a job's logs URL redirects to (``endpoints.build_check``)."""
        from modu_desktop.sandbox.endpoints.build_check import log_file

        return log_file(self.api, job_id)

    def _authenticate(self, request: ApiRequest, match: Match[Handler]) -> SandboxUser | None:
        token = _token_from(request.headers.get("authorization", ""))
        if token is None:
            if match.route is None or match.template in PUBLIC_TEMPLATES:
                return None
            # Deviation noted in the README: GitHub gives 404 for an anonymous read of a
            # private repo; the sandbox says 401 so a missing token is obvious.
            raise ApiError(401, "Requires authentication")
        user = self.api.user_for_token(token)
        if user is None or (user.expires_at is not None and user.expires_at <= self.server_time()):
            raise ApiError(401, "Bad credentials")  # an expired token is simply a bad one
        return user

    @staticmethod
    def _check_api_version(request: ApiRequest) -> None:
        version = request.headers.get("x-github-api-version")
        if version is not None and version not in API_VERSIONS:
            raise ApiError(400, f"API version {version} is not supported.")

    def _check_limits(self, login: str, faults: Faults, is_write: bool) -> None:
        rejection = self.injector.check_limits(login, faults, is_write, self.server_time())
        if rejection is None:
            return
        headers = {}
        if rejection.retry_after is not None:
            headers["Retry-After"] = str(rejection.retry_after)
        raise ApiError(rejection.status, rejection.message, headers)

    def _rate_limit_response(self, request: ApiRequest, login: str, faults: Faults) -> ApiResponse:
        info = self.injector.rate_info(login, faults, self.server_time())
        core = {
            "limit": info.limit,
            "remaining": info.remaining,
            "reset": info.reset_epoch,
            "used": info.used,
            "resource": "core",
        }
        # The other buckets are never charged here; their windows reset like GitHub's.
        now = int(self.server_time())
        resources: dict[str, Any] = {"core": core}
        for name, limit, window in OTHER_RATE_BUCKETS:
            reset = now - now % window + window
            resources[name] = {
                "limit": limit,
                "remaining": limit,
                "reset": reset,
                "used": 0,
                "resource": name,
            }
        body: dict[str, Any] = {"resources": resources}
        if (request.headers.get("x-github-api-version") or DEFAULT_API_VERSION) < "2026-03-10":
            body["rate"] = core  # dropped by API version 2026-03-10
        return ApiResponse(200, body, cacheable=True)

    @staticmethod
    def _conditional(request: ApiRequest, response: ApiResponse) -> ApiResponse:
        if not (response.cacheable and response.status == 200):
            return response
        etag = 'W/"' + hashlib.sha256(response.encoded()).hexdigest()[:40] + '"'
        response.headers["ETag"] = etag
        response.headers["Cache-Control"] = "private, max-age=60, s-maxage=60"
        wanted = request.headers.get("if-none-match", "")
        if wanted:
            if _etag_matches(wanted, etag):
                return ApiResponse(304, None, response.headers, response.content_type)
            return response
        if _not_modified_since(
            request.headers.get("if-modified-since", ""), response.headers.get("Last-Modified")
        ):
            return ApiResponse(304, None, response.headers, response.content_type)
        return response

    def add_headers(self, request: ApiRequest, response: ApiResponse, rate: RateInfo) -> None:
        version = request.headers.get("x-github-api-version") or DEFAULT_API_VERSION
        h = response.headers
        h.setdefault(
            "Cache-Control",
            "private, max-age=60, s-maxage=60" if request.method == "GET" else "no-cache",
        )
        h["Vary"] = "Accept, Authorization, Cookie, X-GitHub-OTP, Accept-Encoding"
        h["X-GitHub-Media-Type"] = "github.v3; format=json"
        h["X-GitHub-Api-Version-Selected"] = (
            version if version in API_VERSIONS else DEFAULT_API_VERSION
        )
        h["X-GitHub-Request-Id"] = self.request_id()
        if request.user is not None:
            if request.user.scopes is not None:
                h["X-OAuth-Scopes"] = ", ".join(request.user.scopes)
            h["X-Accepted-OAuth-Scopes"] = "repo"
            if request.user.expires_at is not None:
                h["GitHub-Authentication-Token-Expiration"] = time.strftime(
                    "%Y-%m-%d %H:%M:%S UTC", time.gmtime(request.user.expires_at)
                )
        h["X-RateLimit-Limit"] = str(rate.limit)
        h["X-RateLimit-Remaining"] = str(rate.remaining)
        h["X-RateLimit-Used"] = str(rate.used)
        h["X-RateLimit-Reset"] = str(rate.reset_epoch)
        h["X-RateLimit-Resource"] = "core"


def _no_user_agent_response() -> ApiResponse:
    # GitHub's front end answers in plain text/HTML, not JSON, and closes the connection.
    text = (
        "Request forbidden by administrative rules. Please make sure your request has a "
        "User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api"
        "#user-agent-required). Check https://developer.github.com for other possible causes.\n"
    )
    return ApiResponse(403, text.encode(), {"Connection": "close"}, content_type="text/html")


def _fault_fields() -> list[str]:
    import dataclasses

    return [f.name for f in dataclasses.fields(Faults) if f.init]


def _token_from(header: str) -> str | None:
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() in ("token", "bearer") and value.strip():
        return value.strip()
    if scheme.lower() == "basic" and value.strip():
        import base64

        with contextlib.suppress(ValueError):
            return base64.b64decode(value).decode("utf-8").partition(":")[2] or None
        return ""
    return None if not header.strip() else ""


def _not_modified_since(header: str, last_modified: str | None) -> bool:
    if not header or not last_modified:
        return False
    try:
        since = email.utils.parsedate_to_datetime(header)
        changed = email.utils.parsedate_to_datetime(last_modified)
    except (TypeError, ValueError):
        return False
    return changed <= since


def _etag_matches(header: str, etag: str) -> bool:
    def bare(tag: str) -> str:
        tag = tag.strip()
        return tag[2:] if tag.startswith("W/") else tag

    return header.strip() == "*" or any(bare(t) == bare(etag) for t in header.split(","))


__all__ = ["Sandbox"]
