"""Read-only endpoints: identity, repository, git database, commits, actions runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from modu_desktop.sandbox.api import GitHubApi
from modu_desktop.sandbox.practice.deploy_workflow import WORKFLOW_PATH, DeployRun
from modu_desktop.sandbox.repo.gitstore import CommitInfo, Signature
from modu_desktop.sandbox.rest import payloads as P
from modu_desktop.sandbox.rest.messages import ApiError, ApiRequest, ApiResponse, not_found
from modu_desktop.sandbox.rest.paging import (
    last_page,
    link_header,
    page_args,
    parse_date_range,
    parse_timestamp,
)

# ----- identity --------------------------------------------------------------------------------


def get_user(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    assert req.user is not None
    body = P.user_json(req.user, api.urls.api, private=True)
    headers = {"Last-Modified": P.http_date_of(P.ACCOUNT_CREATED_AT)}
    return ApiResponse(200, body, headers, cacheable=True)


def get_account(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    """`GET /users/{username}`: anyone's public profile (its `name`), case-insensitive."""
    login = req.params["username"].lower()
    user = next((u for u in api.users if u.login.lower() == login), None)
    if user is None:
        raise not_found()
    body = P.user_json(user, api.urls.api, public_profile=True)
    headers = {"Last-Modified": P.http_date_of(P.ACCOUNT_CREATED_AT)}
    return ApiResponse(200, body, headers, cacheable=True)


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


def get_org_public_member(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    # Sandbox memberships are private (GitHub's default), so the public check never confirms.
    raise not_found()


def get_rate_limit(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    raise AssertionError("answered by the server, which owns the counters")


CREATED_AT = "2024-01-01T00:00:00Z"


def repo_id(api: GitHubApi) -> int:
    return P.stable_id("repo", f"{api.owner}/{api.name}".lower())


def repo_owner_json(api: GitHubApi) -> dict[str, Any]:
    return P.owner_json(api.owner, api.owner_is_org(), api.urls.api)


def get_repo(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    assert req.user is not None
    head = api.store.branch_head(api.branch)
    info = api.store.commit(head) if head else None
    pushed = P.iso(info.committer.timestamp) if info else None
    owner = repo_owner_json(api)
    body: dict[str, Any] = {
        **P.minimal_repo_json(api.urls, repo_id(api), owner),
        "homepage": None,
        "language": None,
        "forks_count": 0,
        "forks": 0,
        "stargazers_count": 0,
        "watchers_count": 0,
        "watchers": 0,
        "size": 0,
        "default_branch": api.branch,
        "open_issues_count": 0,
        "open_issues": 0,
        "is_template": False,
        "topics": [],
        "has_issues": False,
        "has_projects": False,
        "has_wiki": False,
        "has_pages": True,
        "has_downloads": False,
        "has_discussions": False,
        "archived": False,
        "disabled": False,
        "visibility": "private",
        # Derived from the repository only, so the ETag stays put while nothing changes.
        "pushed_at": pushed,
        "created_at": CREATED_AT,
        "updated_at": pushed or CREATED_AT,
        "permissions": P.permissions_json(req.user.push),
        "allow_forking": False,
        "web_commit_signoff_required": False,
        "license": None,
        "network_count": 0,
        "subscribers_count": 0,
    }
    if api.owner_is_org():
        body["organization"] = owner
    headers = {"Last-Modified": P.http_date(info.committer.timestamp)} if info else {}
    return ApiResponse(200, body, headers, cacheable=True)


# ----- git database ----------------------------------------------------------------------------


def ref_json(api: GitHubApi, ref: str, sha: str) -> dict[str, Any]:
    return {
        "ref": f"refs/{ref}",
        "node_id": P.node_id("Ref", ref),
        "url": f"{api.urls.repo_api}/git/refs/{ref}",
        "object": {"type": "commit", "sha": sha, "url": api.urls.git("commits", sha)},
    }


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
    return ApiResponse(200, ref_json(api, ref, sha), cacheable=True)


def get_ref_legacy(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    return get_ref(api, req)


def get_git_commit(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    api.require_commits()
    info = api.store.commit(req.params["commit_sha"].lower())
    if info is None:
        raise not_found()
    return ApiResponse(200, P.git_commit_json(info, api.urls), cacheable=True)


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


def _person_matches(api: GitHubApi, sig: Signature, wanted: str) -> bool:
    """GitHub's `author`/`committer` filters take a login or an e-mail address."""
    wanted = wanted.strip().lower()
    if sig.email.lower() == wanted:
        return True
    user = api.user_by_email(sig.email)
    return user is not None and user.login.lower() == wanted


def _time_arg(req: ApiRequest, name: str) -> float | None:
    value = req.arg(name)
    if not value:
        return None
    parsed = parse_timestamp(value)
    if parsed is None:
        # The text is ours; 400 is the status GitHub documents for this operation.
        raise ApiError(400, f"Invalid value for parameter '{name}': {value}")
    return parsed


def list_commits(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    api.require_commits()
    start = req.arg("sha") or api.branch
    head = api.store.resolve_commit(start)
    if head is None:
        raise ApiError(404, f"No commit found for SHA: {start}")
    per_page, page = page_args(req)
    since, until = _time_arg(req, "since"), _time_arg(req, "until")
    author, committer = req.arg("author"), req.arg("committer")
    path = (req.arg("path") or "").strip("/") or None
    infos = [
        i
        for i in api.commit_log(head, path)
        if (since is None or i.committer.timestamp >= since)
        and (until is None or i.committer.timestamp <= until)
        and (not author or _person_matches(api, i.author, author))
        and (not committer or _person_matches(api, i.committer, committer))
    ]
    window = infos[per_page * (page - 1) : per_page * page]
    body = [
        P.commit_list_item(
            i, api.urls, _account_json(api, i.author), _account_json(api, i.committer)
        )
        for i in window
    ]
    headers = link_header(api.urls.api, req, page, last_page(len(infos), per_page))
    if window:
        headers["Last-Modified"] = P.http_date(window[0].committer.timestamp)
    return ApiResponse(200, body, headers, cacheable=True)


def _run_json(api: GitHubApi, run: DeployRun) -> dict[str, Any]:
    state = api.workflow.state(run)
    commit: CommitInfo = run.commit
    actor = next((u for u in api.users if u.login == run.actor), None)
    actor_json = P.user_json(actor, api.urls.api) if actor else None
    run_url = f"{api.urls.repo_api}/actions/runs/{run.id}"
    workflow_id = P.stable_id("workflow", WORKFLOW_PATH)
    check_suite_id = run.id + 7
    repository = P.minimal_repo_json(api.urls, repo_id(api), repo_owner_json(api))
    return {
        "id": run.id,
        "name": "Deploy",
        "node_id": P.node_id("WorkflowRun", str(run.id)),
        "check_suite_id": check_suite_id,
        "check_suite_node_id": P.node_id("CheckSuite", str(check_suite_id)),
        "head_branch": run.head_branch,
        "head_sha": run.head_sha,
        "path": f"{WORKFLOW_PATH}@{run.head_branch}",
        "display_title": commit.message.splitlines()[0] if commit.message else "",
        "run_number": run.run_number,
        "event": "push",
        "status": state.status,
        "conclusion": state.conclusion,
        "workflow_id": workflow_id,
        "url": run_url,
        "html_url": f"{api.urls.web}/actions/runs/{run.id}",
        "pull_requests": [],
        "created_at": P.iso(run.created_wall),
        "updated_at": P.iso(state.updated_wall),
        "actor": actor_json,
        "triggering_actor": actor_json,
        "run_attempt": 1,
        "referenced_workflows": [],
        "run_started_at": P.iso(state.started_wall or run.created_wall),
        "jobs_url": f"{run_url}/jobs",
        "logs_url": f"{run_url}/logs",
        "check_suite_url": f"{api.urls.repo_api}/check-suites/{check_suite_id}",
        "artifacts_url": f"{run_url}/artifacts",
        "cancel_url": f"{run_url}/cancel",
        "rerun_url": f"{run_url}/rerun",
        "previous_attempt_url": None,
        "workflow_url": f"{api.urls.repo_api}/actions/workflows/{workflow_id}",
        "head_commit": {
            "id": commit.sha,
            "tree_id": commit.tree,
            "message": commit.message,
            "timestamp": P.iso(commit.committer.timestamp),
            "author": {"name": commit.author.name, "email": commit.author.email},
            "committer": {"name": commit.committer.name, "email": commit.committer.email},
        },
        "repository": repository,
        "head_repository": repository,
        "head_repository_id": repository["id"],
    }


def _run_filter(api: GitHubApi, req: ApiRequest) -> Callable[[dict[str, Any]], bool]:
    """GitHub's documented filters of `GET …/actions/runs`."""
    actor, branch, event = req.arg("actor"), req.arg("branch"), req.arg("event")
    status, head_sha, suite = req.arg("status"), req.arg("head_sha"), req.arg("check_suite_id")
    created = parse_date_range(req.arg("created") or "")
    if created is None:
        raise ApiError(400, f"Invalid value for parameter 'created': {req.arg('created')}")

    def keep(run: dict[str, Any]) -> bool:
        login = (run["actor"] or {}).get("login", "")
        when = parse_timestamp(run["created_at"]) or 0.0
        return (
            (not actor or login.lower() == actor.lower())
            and (not branch or run["head_branch"] == branch)
            and (not event or run["event"] == event)
            and (not status or status in (run["status"], run["conclusion"]))
            and (not head_sha or run["head_sha"] == head_sha.lower())
            and (not suite or str(run["check_suite_id"]) == suite)
            and created[0] <= when <= created[1]
        )

    return keep


def list_runs(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    keep = _run_filter(api, req)
    # exclude_pull_requests changes nothing: sandbox runs never have pull requests.
    items = [i for i in (_run_json(api, r) for r in api.workflow.runs()) if keep(i)]
    per_page, page = page_args(req)
    window = items[per_page * (page - 1) : per_page * page]
    headers = link_header(api.urls.api, req, page, last_page(len(items), per_page))
    body = {"total_count": len(items), "workflow_runs": window}
    return ApiResponse(200, body, headers, cacheable=True)


def get_run(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    run = next((r for r in api.workflow.runs() if str(r.id) == req.params["run_id"]), None)
    if run is None:
        raise not_found()
    return ApiResponse(200, _run_json(api, run), cacheable=True)
