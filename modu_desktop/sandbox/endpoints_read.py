"""Read-only endpoints: identity, repository, git database, commits, actions runs."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from . import payloads as P
from .actions import WORKFLOW_PATH, DeployRun
from .api import GitHubApi, route
from .gitstore import CommitInfo, Signature
from .http_types import ApiError, ApiRequest, ApiResponse, not_found

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
    if org not in {o.lower() for o in req.user.orgs} or not req.user.sees_org_members:
        # A requester outside the org (or whose token lacks read:org, so its own membership is
        # invisible) is redirected to the public-membership check.
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


CREATED_AT = "2024-01-01T00:00:00Z"


@route("GET", "/repos/{owner}/{repo}")
def get_repo(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    assert req.user is not None
    head = api.store.branch_head(api.branch)
    pushed = P.iso(api.store.commit(head).committer.timestamp) if head else None  # type: ignore[union-attr]
    body = {
        "id": P.stable_id("repo", f"{api.owner}/{api.name}".lower()),
        "node_id": P.node_id("Repository", f"{api.owner}/{api.name}"),
        "name": api.name,
        "full_name": f"{api.owner}/{api.name}",
        "private": True,
        "owner": P.owner_json(api.owner, api.owner_is_org(), api.urls.api),
        "html_url": api.urls.web,
        "description": "Modu Desktop practice sandbox",
        "fork": False,
        "url": api.urls.repo_api,
        "homepage": None,
        "size": 0,
        "default_branch": api.branch,
        "visibility": "private",
        "archived": False,
        "disabled": False,
        "has_issues": False,
        "has_projects": False,
        "has_wiki": False,
        "has_pages": True,
        "language": None,
        "topics": [],
        # Derived from the repository only, so the ETag stays put while nothing changes.
        "created_at": CREATED_AT,
        "updated_at": pushed or CREATED_AT,
        "pushed_at": pushed,
        "permissions": P.permissions_json(req.user.push),
    }
    return ApiResponse(200, body, cacheable=True)


# ----- git database ----------------------------------------------------------------------------


def _ref_json(api: GitHubApi, ref: str, sha: str) -> dict[str, Any]:
    return {
        "ref": f"refs/{ref}",
        "node_id": P.node_id("Ref", ref),
        "url": f"{api.urls.repo_api}/git/refs/{ref}",
        "object": {"type": "commit", "sha": sha, "url": api.urls.git("commits", sha)},
    }


@route("GET", "/repos/{owner}/{repo}/git/ref/{ref}")
def get_ref(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    api.require_commits()
    ref = req.params["ref"]
    kind, _, name = ref.partition("/")
    # Only an exact heads/… or tags/… name matches; a commit SHA is a 404 (notes §3).
    sha = {"heads": api.store.branch_head, "tags": api.store.tag_target}.get(kind, lambda _n: None)(
        name
    )
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
    body = {
        "sha": tree_sha,
        "url": api.urls.git("trees", tree_sha),
        "tree": entries,
        "truncated": truncated,
    }
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
        P.commit_list_item(
            i, api.urls, _account_json(api, i.author), _account_json(api, i.committer)
        )
        for i in window
    ]
    headers = _link_header(api, req, page, len(infos) > per_page * page)
    return ApiResponse(200, body, headers, cacheable=True)


def _run_json(api: GitHubApi, run: DeployRun) -> dict[str, Any]:
    state = api.workflow.state(run)
    commit: CommitInfo = run.commit
    actor = next((u for u in api.users if u.login == run.actor), None)
    actor_json = P.user_json(actor, api.urls.api) if actor else None
    html = f"{api.urls.web}/actions/runs/{run.id}"
    return {
        "id": run.id,
        "name": "Deploy",
        "node_id": P.node_id("WorkflowRun", str(run.id)),
        "head_branch": run.head_branch,
        "head_sha": run.head_sha,
        "path": f"{WORKFLOW_PATH}@{run.head_branch}",
        "display_title": commit.message.splitlines()[0] if commit.message else "",
        "run_number": run.run_number,
        "event": "push",
        "status": state.status,
        "conclusion": state.conclusion,
        "workflow_id": P.stable_id("workflow", WORKFLOW_PATH),
        "check_suite_id": run.id + 7,
        "url": f"{api.urls.repo_api}/actions/runs/{run.id}",
        "html_url": html,
        "created_at": P.iso(run.created_wall),
        "updated_at": P.iso(state.updated_wall),
        "run_started_at": P.iso(state.started_wall or run.created_wall),
        "run_attempt": 1,
        "actor": actor_json,
        "triggering_actor": actor_json,
        "jobs_url": f"{api.urls.repo_api}/actions/runs/{run.id}/jobs",
        "logs_url": f"{api.urls.repo_api}/actions/runs/{run.id}/logs",
        "head_commit": {
            "id": commit.sha,
            "tree_id": commit.tree,
            "message": commit.message,
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
