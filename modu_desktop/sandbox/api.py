"""GitHub REST endpoints of the sandbox, as handlers in a route table.

Handlers run with the repository lock held (see `GitHubApi.handle`), so a write's
check-then-commit cannot interleave with another write — GitHub serialises them per branch too.
"""

from __future__ import annotations

import base64
import binascii
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import unquote, urlencode

from . import payloads as P
from .actions import WORKFLOW_PATH, DeployWorkflow, paths_ignore_from_workflow, should_run
from .faults import Faults
from .gitstore import CommitInfo, Entry, GitStore, PathConflict, Signature
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
        self, store: GitStore, *, owner: str, name: str, branch: str,
        users: list[SandboxUser], org: str | None, faults: Faults,
        workflow: DeployWorkflow, clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.owner, self.name, self.branch = owner, name, branch
        self.users = users
        self.org = org
        self.faults = faults
        self.workflow = workflow
        self.clock = clock  # the server's wall clock (with the clock-offset fault)
        self.urls = P.Urls("http://127.0.0.1", owner, name)
        self.lock = threading.RLock()
        self._stale: dict[tuple[str, str], StaleWrite] = {}

    # ----- entry point ---------------------------------------------------------------------

    def user_for_token(self, token: str) -> SandboxUser | None:
        return next((u for u in self.users if u.token == token), None)

    def handle(self, handler: Handler, request: ApiRequest) -> ApiResponse:
        self._check_repo(request)
        if request.method in WRITE_METHODS and "repo" in request.params and not (
            request.user and request.user.push
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


# ----- identity --------------------------------------------------------------------------------


@route("GET", "/user")
def get_user(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    assert req.user is not None
    return ApiResponse(200, P.user_json(req.user, api.urls.api, private=True), cacheable=True)


@route("GET", "/orgs/{org}/members/{username}")
def get_org_member(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    assert req.user is not None
    org, login = req.params["org"].lower(), req.params["username"].lower()
    if org not in api.known_orgs():
        raise not_found()
    if org not in {o.lower() for o in req.user.orgs}:
        # A requester outside the org is redirected to the public-membership check.
        org_name, username = req.params["org"], req.params["username"]
        location = f"{api.urls.api}/orgs/{org_name}/public_members/{username}"
        return ApiResponse(302, None, {"Location": location})
    target = next((u for u in api.users if u.login.lower() == login), None)
    if target is None or org not in {o.lower() for o in target.orgs}:
        raise not_found()
    return ApiResponse(204)


@route("GET", "/orgs/{org}/public_members/{username}")
def get_org_public_member(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    # Sandbox memberships are private (GitHub's default), so the public check never confirms.
    raise not_found()


@route("GET", "/rate_limit")
def get_rate_limit(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    raise AssertionError("answered by the server, which owns the counters")


@route("GET", "/repos/{owner}/{repo}")
def get_repo(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    assert req.user is not None
    now = P.iso(api.clock())
    head = api.store.branch_head(api.branch)
    pushed = P.iso(api.store.commit(head).committer.timestamp) if head else None  # type: ignore[union-attr]
    body = {
        "id": P.stable_id("repo", f"{api.owner}/{api.name}".lower()),
        "node_id": P.node_id("Repository", f"{api.owner}/{api.name}"),
        "name": api.name, "full_name": f"{api.owner}/{api.name}", "private": True,
        "owner": P.owner_json(api.owner, api.owner_is_org(), api.urls.api),
        "html_url": api.urls.web, "description": "Modu Desktop practice sandbox",
        "fork": False, "url": api.urls.repo_api, "homepage": None, "size": 0,
        "default_branch": api.branch, "visibility": "private", "archived": False,
        "disabled": False, "has_issues": False, "has_projects": False, "has_wiki": False,
        "has_pages": True, "language": None, "topics": [],
        "created_at": "2024-01-01T00:00:00Z", "updated_at": now, "pushed_at": pushed,
        "permissions": P.permissions_json(req.user.push),
    }
    return ApiResponse(200, body, cacheable=True)


# ----- git database ----------------------------------------------------------------------------


def _ref_json(api: GitHubApi, ref: str, sha: str) -> dict[str, Any]:
    return {
        "ref": f"refs/{ref}", "node_id": P.node_id("Ref", ref),
        "url": f"{api.urls.repo_api}/git/refs/{ref}",
        "object": {"type": "commit", "sha": sha, "url": api.urls.git("commits", sha)},
    }


@route("GET", "/repos/{owner}/{repo}/git/ref/{ref}")
def get_ref(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    api.require_commits()
    ref = req.params["ref"]
    kind, _, name = ref.partition("/")
    # Only an exact heads/… or tags/… name matches; a commit SHA is a 404 (notes §3).
    sha = {"heads": api.store.branch_head, "tags": api.store.tag_target}.get(
        kind, lambda _n: None
    )(name)
    if not name or sha is None:
        raise not_found()
    return ApiResponse(200, _ref_json(api, ref, sha), cacheable=True)


@route("GET", "/repos/{owner}/{repo}/git/refs/{ref}")
def get_ref_legacy(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    return get_ref(api, req)


@route("GET", "/repos/{owner}/{repo}/git/commits/{commit_sha}")
def get_git_commit(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    api.require_commits()
    info = api.store.commit(req.params["commit_sha"].lower())
    if info is None:
        raise not_found()
    return ApiResponse(200, P.git_commit_json(info, api.urls), cacheable=True)


@route("GET", "/repos/{owner}/{repo}/git/trees/{tree_sha}")
def get_tree(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    api.require_commits()
    tree_sha = api.store.tree_sha_for(req.params["tree_sha"])
    if tree_sha is None:
        raise not_found()
    # Any value of `recursive` (even 0 or false) turns recursion on (notes §3).
    recursive = req.has_arg("recursive")
    limit = max(0, api.faults.tree_entry_limit)
    entries: list[dict[str, Any]] = []
    truncated = False
    for entry in api.store.walk_tree(tree_sha, recursive):
        if len(entries) >= limit:
            truncated = True
            break
        entries.append(P.tree_entry_json(entry, api.urls))
    body = {"sha": tree_sha, "url": api.urls.git("trees", tree_sha), "tree": entries,
            "truncated": truncated}
    return ApiResponse(200, body, cacheable=True)


@route("GET", "/repos/{owner}/{repo}/git/blobs/{file_sha}")
def get_blob(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    api.require_commits()
    sha = req.params["file_sha"].lower()
    data = api.store.blob(sha)
    if data is None:
        raise not_found()
    if req.wants_raw():
        return ApiResponse(200, data, content_type="application/vnd.github.raw", cacheable=True)
    return ApiResponse(200, P.blob_json(sha, data, api.urls), cacheable=True)


# ----- commits and actions ---------------------------------------------------------------------


def _account_json(api: GitHubApi, sig: Signature) -> dict[str, Any] | None:
    user = api.user_by_email(sig.email)
    return P.user_json(user, api.urls.api) if user else None


def _page_args(req: ApiRequest, default: int = 30) -> tuple[int, int]:
    try:
        per_page = min(100, max(1, int(req.arg("per_page") or default)))
        page = max(1, int(req.arg("page") or 1))
    except ValueError:
        per_page, page = default, 1
    return per_page, page


def _link_header(api: GitHubApi, req: ApiRequest, page: int, more: bool) -> dict[str, str]:
    if not more:
        return {}
    query = urlencode({k: v[-1] for k, v in req.query.items() if k != "page"})
    base = f"{api.urls.api}{req.raw_path}?{query + '&' if query else ''}page="
    return {"Link": f'<{base}{page + 1}>; rel="next"'}


@route("GET", "/repos/{owner}/{repo}/commits")
def list_commits(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    api.require_commits()
    start = req.arg("sha") or api.branch
    head = api.store.resolve_commit(start)
    if head is None:
        raise ApiError(404, f"No commit found for SHA: {start}")
    per_page, page = _page_args(req)
    path = (req.arg("path") or "").strip("/") or None
    infos = api.store.log(head, path=path, limit=per_page * page + 1)
    window = infos[per_page * (page - 1) : per_page * page]
    body = [
        P.commit_list_item(i, api.urls, _account_json(api, i.author),
                           _account_json(api, i.committer))
        for i in window
    ]
    headers = _link_header(api, req, page, len(infos) > per_page * page)
    return ApiResponse(200, body, headers, cacheable=True)


def _run_json(api: GitHubApi, run: Any) -> dict[str, Any]:
    state = api.workflow.state(run)
    commit: CommitInfo = run.commit
    actor = next((u for u in api.users if u.login == run.actor), None)
    actor_json = P.user_json(actor, api.urls.api) if actor else None
    html = f"{api.urls.web}/actions/runs/{run.id}"
    return {
        "id": run.id, "name": "Deploy", "node_id": P.node_id("WorkflowRun", str(run.id)),
        "head_branch": run.head_branch, "head_sha": run.head_sha,
        "path": f"{WORKFLOW_PATH}@{run.head_branch}",
        "display_title": commit.message.splitlines()[0] if commit.message else "",
        "run_number": run.run_number, "event": "push", "status": state.status,
        "conclusion": state.conclusion, "workflow_id": P.stable_id("workflow", WORKFLOW_PATH),
        "check_suite_id": run.id + 7, "url": f"{api.urls.repo_api}/actions/runs/{run.id}",
        "html_url": html, "created_at": P.iso(run.created_wall),
        "updated_at": P.iso(state.updated_wall),
        "run_started_at": P.iso(state.started_wall or run.created_wall), "run_attempt": 1,
        "actor": actor_json, "triggering_actor": actor_json,
        "jobs_url": f"{api.urls.repo_api}/actions/runs/{run.id}/jobs",
        "logs_url": f"{api.urls.repo_api}/actions/runs/{run.id}/logs",
        "head_commit": {
            "id": commit.sha, "tree_id": commit.tree, "message": commit.message,
            "timestamp": P.iso(commit.committer.timestamp),
            "author": {"name": commit.author.name, "email": commit.author.email},
            "committer": {"name": commit.committer.name, "email": commit.committer.email},
        },
        "pull_requests": [],
    }


@route("GET", "/repos/{owner}/{repo}/actions/runs")
def list_runs(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    runs = api.workflow.runs()
    head_sha, branch, status = req.arg("head_sha"), req.arg("branch"), req.arg("status")
    if head_sha:
        runs = [r for r in runs if r.head_sha == head_sha.lower()]
    if branch:
        runs = [r for r in runs if r.head_branch == branch]
    items = [_run_json(api, r) for r in runs]
    if status:
        items = [i for i in items if status in (i["status"], i["conclusion"])]
    per_page, page = _page_args(req)
    window = items[per_page * (page - 1) : per_page * page]
    return ApiResponse(200, {"total_count": len(items), "workflow_runs": window}, cacheable=True)


@route("GET", "/repos/{owner}/{repo}/actions/runs/{run_id}")
def get_run(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    run = next((r for r in api.workflow.runs() if str(r.id) == req.params["run_id"]), None)
    if run is None:
        raise not_found()
    return ApiResponse(200, _run_json(api, run), cacheable=True)


# ----- contents --------------------------------------------------------------------------------


def clean_path(raw: str, *, for_write: bool) -> str:
    """Percent-decode and refuse anything that could escape or damage the tree."""
    try:
        path = unquote(raw, errors="strict") if raw else ""
    except UnicodeDecodeError as exc:
        raise not_found() from exc
    if path.startswith("/") and for_write:
        raise ApiError(
            422, "path cannot start with a slash",
            errors=[{"resource": "Commit", "field": "path", "code": "invalid"}],
        )
    if path == "":
        return path
    parts = path.split("/")
    # Empty segments ('//', trailing '/'), '.', '..', '.git' and NUL are never valid paths.
    if any(p in ("", ".", "..") or p.lower() == ".git" or "\x00" in p for p in parts):
        raise not_found()
    return path


@route("GET", "/repos/{owner}/{repo}/contents")
def get_root_contents(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    req.params["path"] = ""
    return get_contents(api, req)


@route("GET", "/repos/{owner}/{repo}/contents/{path}")
def get_contents(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    path = clean_path(req.params.get("path", ""), for_write=False)
    if api.store.is_empty():
        raise ApiError(404, EMPTY_CONTENTS)
    ref = req.arg("ref") or api.branch
    commit = api.store.resolve_commit(ref)
    if commit is None:
        raise ApiError(404, f"No commit found for the ref {ref}")
    if api.store.branch_head(ref) is not None:
        # The cache trap: by branch name, a recently written path may still answer the old copy.
        stale, before = api.stale_commit_for(ref, path)
        if stale:
            if before is None:
                raise not_found()
            commit = before
    entry = api.store.lookup(commit, path)
    if entry is None:
        raise not_found()
    return _contents_response(api, req, commit, entry, ref)


ONE_MB = 1024 * 1024
TOO_LARGE = (
    "This API returns blobs up to 1 MB in size. The requested blob is too large to fetch via "
    "the API, but you can use the Git Data API to request blobs up to 100 MB in size."
)


def _contents_response(
    api: GitHubApi, req: ApiRequest, commit: str, entry: Entry, ref: str
) -> ApiResponse:
    if entry.kind == "tree":
        return _directory_response(api, req, entry, ref)
    data = (api.store.blob(entry.sha) if entry.kind == "blob" else b"") or b""
    if req.wants_raw():
        return ApiResponse(200, data, content_type="application/vnd.github.raw", cacheable=True)
    if len(data) > ONE_MB:
        # 1–100 MB: only raw or object media types work; object gives content "" (notes §2.1).
        if not req.wants_object():
            raise ApiError(403, TOO_LARGE,
                           errors=[{"resource": "Blob", "field": "data", "code": "too_large"}])
        body = P.content_file_json(entry, b"", ref, api.urls)
        body["encoding"] = "none"
        return ApiResponse(200, body, cacheable=True)
    return ApiResponse(200, P.content_file_json(entry, data, ref, api.urls), cacheable=True)


def _directory_response(api: GitHubApi, req: ApiRequest, entry: Entry, ref: str) -> ApiResponse:
    children = [
        P.content_entry_json(
            Entry(f"{entry.path}/{c.path}" if entry.path else c.path, c.mode, c.sha, c.size),
            ref, api.urls,
        )
        for c in api.store.walk_tree(entry.sha, recursive=False)
    ][:1000]  # GitHub stops a listing at 1,000 entries
    if req.wants_object():
        body = P.content_entry_json(entry, ref, api.urls)
        body["entries"] = children
        return ApiResponse(200, body, cacheable=True)
    return ApiResponse(200, children, cacheable=True)


@route("GET", "/raw/{owner}/{repo}/{branch}/{path}")
def get_raw(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    """download_url target (raw.githubusercontent.com): also subject to the cache trap."""
    branch = req.params["branch"]
    req.query = {"ref": [branch]}
    req.headers["accept"] = "application/vnd.github.raw"
    return get_contents(api, req)


# ----- contents writes -------------------------------------------------------------------------

PUT_REQUIRED = ("message", "content")
DELETE_REQUIRED = ("message", "sha")
STRING_FIELDS = ("message", "content", "sha", "branch")


def _ruby_inspect(value: Any) -> str:
    """How GitHub's validator quotes a wrong value: nil, 5, "x", true."""
    import json

    return "nil" if value is None else json.dumps(value, ensure_ascii=False)


def _missing_message(names: list[str]) -> str:
    quoted = ", ".join(f'"{n}"' for n in names)
    verb = "wasn't" if len(names) == 1 else "weren't"
    return f"Invalid request.\n\n{quoted} {verb} supplied."


def validate_body(body: dict[str, Any], required: tuple[str, ...]) -> None:
    missing = [n for n in required if n not in body]
    if missing:
        raise ApiError(422, _missing_message(missing))
    for name in STRING_FIELDS:
        if name in body and not isinstance(body[name], str):
            raise ApiError(
                422, f"Invalid request.\n\nFor 'properties/{name}', "
                f"{_ruby_inspect(body[name])} is not a string."
            )
    for person in ("author", "committer"):
        if person in body:
            _validate_person(person, body[person])


def _validate_person(field: str, value: Any) -> None:
    if not isinstance(value, dict):
        raise ApiError(
            422, f"Invalid request.\n\nFor 'properties/{field}', {_ruby_inspect(value)} "
            "is not an object."
        )
    missing = [n for n in ("name", "email") if not isinstance(value.get(n), str)]
    if missing:
        raise ApiError(422, _missing_message(missing))


def _person(value: dict[str, Any] | None, fallback: Signature) -> Signature:
    if not value:
        return fallback
    when = fallback.timestamp
    if isinstance(value.get("date"), str):
        try:
            when = int(datetime.fromisoformat(value["date"].replace("Z", "+00:00")).timestamp())
        except ValueError as exc:
            raise ApiError(422, "Invalid request.\n\nFor 'date', is not a date-time.") from exc
    return Signature(value["name"], value["email"], when, 0)


def _signatures(api: GitHubApi, req: ApiRequest, body: dict[str, Any]) -> tuple[Signature, ...]:
    assert req.user is not None
    me = Signature(req.user.commit_name, req.user.commit_email, int(api.clock()), 0)
    committer = _person(body.get("committer"), me)
    author = _person(body.get("author"), committer)
    return author, committer


def _target_branch(api: GitHubApi, body: dict[str, Any], creating: bool) -> str:
    branch = body.get("branch") or api.branch
    if api.store.branch_head(branch) is None and not (creating and api.store.is_empty()):
        # The branch is checked before the sha (notes §2.2; message text not captured).
        raise ApiError(404, f"Branch {branch} not found")
    return branch


def _decode_content(text: str) -> bytes:
    try:
        # Strict: line feeds or other non-alphabet characters are rejected (notes §2.2).
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError) as exc:
        raise ApiError(422, "content is not valid Base64") from exc


def _current_file(api: GitHubApi, branch: str, path: str) -> Entry | None:
    head = api.store.branch_head(branch)
    entry = api.store.lookup(head, path) if head else None
    if entry is not None and entry.kind != "blob":
        raise _path_invalid()
    return entry


def _path_invalid() -> ApiError:
    return ApiError(
        422, "Validation Failed",
        errors=[{"resource": "Commit", "field": "path", "code": "invalid"}],
    )


def _check_sha(path: str, given: str | None, current: Entry) -> None:
    if given is None:
        raise ApiError(422, _missing_message(["sha"]))
    if given.lower() != current.sha:
        raise ApiError(409, f"{path} does not match {given}")


def _after_write(api: GitHubApi, req: ApiRequest, branch: str, path: str, outcome: Any) -> None:
    api.mark_stale(branch, path, outcome.previous_head)
    if branch != api.branch:
        return
    workflow = api.store.read_file(outcome.commit.sha, WORKFLOW_PATH)
    if workflow is None:
        return
    ignore = paths_ignore_from_workflow(workflow.decode("utf-8", "replace"))
    changed = api.store.changed_paths(outcome.commit.sha)
    if should_run(outcome.commit.message, changed, ignore):
        login = req.user.login if req.user else None
        api.workflow.record_push(outcome.commit, branch, login, api.clock())


@route("PUT", "/repos/{owner}/{repo}/contents/{path}")
def put_contents(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    body = req.json_object()
    validate_body(body, PUT_REQUIRED)
    path = clean_path(req.params["path"], for_write=True)
    if not path:
        raise not_found()
    branch = _target_branch(api, body, creating=True)
    data = _decode_content(body["content"])
    current = _current_file(api, branch, path)
    if current is not None:
        _check_sha(path, body.get("sha"), current)
    author, committer = _signatures(api, req, body)
    try:
        outcome = api.store.commit_change(branch, path, data, body["message"], author, committer)
    except PathConflict as exc:
        raise _path_invalid() from exc
    _after_write(api, req, branch, path, outcome)
    entry = Entry(path, 0o100644, outcome.blob_sha or "", outcome.blob_size)
    status = 201 if current is None else 200
    return ApiResponse(status, P.file_commit_json(entry, branch, outcome.commit, api.urls))


@route("DELETE", "/repos/{owner}/{repo}/contents/{path}")
def delete_contents(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    body = req.json_object()
    validate_body(body, DELETE_REQUIRED)
    path = clean_path(req.params["path"], for_write=True)
    if not path or api.store.is_empty():
        raise not_found()
    branch = _target_branch(api, body, creating=False)
    current = _current_file(api, branch, path)
    if current is None:
        raise not_found()
    _check_sha(path, body["sha"], current)
    author, committer = _signatures(api, req, body)
    outcome = api.store.commit_change(branch, path, None, body["message"], author, committer)
    _after_write(api, req, branch, path, outcome)
    return ApiResponse(200, P.file_commit_json(None, branch, outcome.commit, api.urls))
