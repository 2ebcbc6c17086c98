"""Contents API: GET (with the stale-cache trap), PUT and DELETE with sha compare-and-swap and
the branch race (`GitHubApi.publish_write`)."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime
from typing import Any
from urllib.parse import unquote

from modu_desktop.sandbox.api import EMPTY_CONTENTS, GitHubApi
from modu_desktop.sandbox.endpoints.build_check import start_build_check
from modu_desktop.sandbox.practice.deploy_workflow import (
    WORKFLOW_PATH,
    paths_ignore_from_workflow,
    should_run,
)
from modu_desktop.sandbox.repo.gitstore import (
    CommitInfo,
    Entry,
    PathConflict,
    Signature,
    WriteOutcome,
)
from modu_desktop.sandbox.rest import payloads as P
from modu_desktop.sandbox.rest.messages import ApiError, ApiRequest, ApiResponse, not_found

# ----- contents --------------------------------------------------------------------------------


def clean_path(raw: str, *, for_write: bool) -> str:
    """Percent-decode and refuse anything that could escape or damage the tree."""
    try:
        path = unquote(raw, errors="strict") if raw else ""
    except UnicodeDecodeError as exc:
        raise not_found() from exc
    if path.startswith("/") and for_write:
        raise ApiError(
            422,
            "path cannot start with a slash",
            errors=[{"resource": "Commit", "field": "path", "code": "invalid"}],
        )
    if path == "":
        return path
    parts = path.split("/")
    # Empty segments ('//', trailing '/'), '.', '..', '.git' and NUL are never valid paths.
    if any(p in ("", ".", "..") or p.lower() == ".git" or "\x00" in p for p in parts):
        raise not_found()
    return path


def get_root_contents(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    req.params["path"] = ""
    return get_contents(api, req)


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
            raise ApiError(
                403, TOO_LARGE, errors=[{"resource": "Blob", "field": "data", "code": "too_large"}]
            )
        body = P.content_file_json(entry, b"", ref, api.urls)
        body["encoding"] = "none"
        return ApiResponse(200, body, cacheable=True)
    return ApiResponse(200, P.content_file_json(entry, data, ref, api.urls), cacheable=True)


def _directory_response(api: GitHubApi, req: ApiRequest, entry: Entry, ref: str) -> ApiResponse:
    children = [
        P.content_entry_json(
            Entry(f"{entry.path}/{c.path}" if entry.path else c.path, c.mode, c.sha, c.size),
            ref,
            api.urls,
        )
        for c in api.store.walk_tree(entry.sha, recursive=False)
    ][:1000]  # GitHub stops a listing at 1,000 entries
    if req.wants_object():
        body = P.content_entry_json(entry, ref, api.urls)
        body["entries"] = children
        return ApiResponse(200, body, cacheable=True)
    return ApiResponse(200, children, cacheable=True)


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


def ruby_inspect(value: Any) -> str:
    """How GitHub's validator quotes a wrong value: nil, 5, "x", true."""
    return "nil" if value is None else json.dumps(value, ensure_ascii=False)


def _missing_message(names: list[str]) -> str:
    quoted = ", ".join(f'"{n}"' for n in names)
    verb = "wasn't" if len(names) == 1 else "weren't"
    return f"Invalid request.\n\n{quoted} {verb} supplied."


def validate_body(body: dict[str, Any], required: tuple[str, ...]) -> None:
    if "sha" in body and body["sha"] is None:
        # GitHub treats `"sha": null` as no sha (the web admin always sends it for a new lock):
        # a create succeeds, and an existing file answers as for a missing sha.
        del body["sha"]
    missing = [n for n in required if n not in body]
    if missing:
        raise ApiError(422, _missing_message(missing))
    for name in STRING_FIELDS:
        if name in body and not isinstance(body[name], str):
            raise ApiError(
                422,
                f"Invalid request.\n\nFor 'properties/{name}', "
                f"{ruby_inspect(body[name])} is not a string.",
            )
    for person in ("author", "committer"):
        if person in body:
            validate_person(person, body[person])


def validate_person(field: str, value: Any) -> None:
    if not isinstance(value, dict):
        raise ApiError(
            422,
            f"Invalid request.\n\nFor 'properties/{field}', {ruby_inspect(value)} "
            "is not an object.",
        )
    missing = [n for n in ("name", "email") if not isinstance(value.get(n), str)]
    if missing:
        raise ApiError(422, _missing_message(missing))


def person_signature(value: dict[str, Any] | None, fallback: Signature) -> Signature:
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
    committer = person_signature(body.get("committer"), me)
    author = person_signature(body.get("author"), committer)
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
        422,
        "Validation Failed",
        errors=[{"resource": "Commit", "field": "path", "code": "invalid"}],
    )


def _check_sha(path: str, given: str | None, current: Entry) -> None:
    if given is None:
        raise ApiError(422, _missing_message(["sha"]))
    if given.lower() != current.sha:
        raise ApiError(409, f"{path} does not match {given}")


def after_push(
    api: GitHubApi,
    req: ApiRequest,
    branch: str,
    commit: CommitInfo,
    previous_head: str | None,
    paths: list[str],
) -> None:
    """What follows a branch moving from ``previous_head`` to ``commit``: the Contents cache's
    stale copies of ``paths``, and a deploy run for a push to the default branch that changed
    files outside the workflow's ``paths-ignore``."""
    for path in paths:
        api.mark_stale(branch, path, previous_head)
    if branch != api.branch:
        return
    workflow = api.store.read_file(commit.sha, WORKFLOW_PATH)
    if workflow is None:
        return
    ignore = paths_ignore_from_workflow(workflow.decode("utf-8", "replace"))
    changed = api.store.changed_paths(commit.sha, since=previous_head)
    if should_run(commit.message, changed, ignore):
        login = req.user.login if req.user else None
        # The build step: the site's build fails when any document breaks it (build_check).
        check = start_build_check(api.store, commit.sha)
        api.workflow.record_push(commit, branch, login, api.clock(), check)


def _after_write(
    api: GitHubApi, req: ApiRequest, branch: str, path: str, outcome: WriteOutcome
) -> None:
    after_push(api, req, branch, outcome.commit, outcome.previous_head, [path])


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
        prepared = api.store.prepare_change(branch, path, data, body["message"], author, committer)
    except PathConflict as exc:
        raise _path_invalid() from exc
    outcome = api.publish_write(prepared, path)
    _after_write(api, req, branch, path, outcome)
    entry = Entry(path, 0o100644, outcome.blob_sha or "", outcome.blob_size)
    status = 201 if current is None else 200
    return ApiResponse(status, P.file_commit_json(entry, branch, outcome.commit, api.urls))


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
    prepared = api.store.prepare_change(branch, path, None, body["message"], author, committer)
    outcome = api.publish_write(prepared, path)
    _after_write(api, req, branch, path, outcome)
    return ApiResponse(200, P.file_commit_json(None, branch, outcome.commit, api.urls))
