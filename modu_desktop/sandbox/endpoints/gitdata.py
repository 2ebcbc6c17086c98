"""The Git Data API's writes: create a blob, a tree (over a `base_tree`), a commit, and move a
branch (`PATCH git/refs/{ref}`, a fast forward unless forced) — a commit of many files, made the
way GitHub documents it. Objects are created without moving any branch; only the ref update
publishes them, and it starts the deploy like any push."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from modu_desktop.sandbox.api import GitHubApi
from modu_desktop.sandbox.endpoints.contents import (
    after_push,
    person_signature,
    ruby_inspect,
    validate_person,
)
from modu_desktop.sandbox.endpoints.read import ref_json
from modu_desktop.sandbox.repo.gitstore import (
    EXEC_MODE,
    FILE_MODE,
    LINK_MODE,
    SUBMODULE_MODE,
    TREE_MODE,
    NothingToDelete,
    PathConflict,
    Signature,
    TreeChange,
)
from modu_desktop.sandbox.rest import payloads as P
from modu_desktop.sandbox.rest.messages import ApiError, ApiRequest, ApiResponse

MODES = {
    "100644": FILE_MODE,
    "100755": EXEC_MODE,
    "040000": TREE_MODE,
    "160000": SUBMODULE_MODE,
    "120000": LINK_MODE,
}
KINDS = {FILE_MODE: "blob", EXEC_MODE: "blob", LINK_MODE: "blob", TREE_MODE: "tree"}
EITHER_SHA_OR_CONTENT = (
    "Must supply either tree.sha or tree.content. Request will be rejected if both are present."
)


def _missing(names: list[str]) -> ApiError:
    quoted = ", ".join(f'"{n}"' for n in names)
    verb = "wasn't" if len(names) == 1 else "weren't"
    return ApiError(422, f"Invalid request.\n\n{quoted} {verb} supplied.")


def _not_a(kind: str, name: str, value: Any) -> ApiError:
    return ApiError(
        422, f"Invalid request.\n\nFor 'properties/{name}', {ruby_inspect(value)} is not a {kind}."
    )


def _created(body: dict[str, Any]) -> ApiResponse:
    return ApiResponse(201, body, {"Location": str(body["url"])})


# ----- blobs -----------------------------------------------------------------------------------


def create_blob(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    api.require_commits()
    body = req.json_object()
    if "content" not in body:
        raise _missing(["content"])
    content, encoding = body["content"], body.get("encoding", "utf-8")
    if not isinstance(content, str):
        raise _not_a("string", "content", content)
    if encoding not in ("utf-8", "utf8", "base64"):
        # GitHub supports these two; the wording of its refusal is ours.
        raise ApiError(422, f"encoding must be utf-8 or base64, not {ruby_inspect(encoding)}")
    if encoding == "base64":
        try:
            data = base64.b64decode("".join(content.split()).encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError, ValueError) as exc:
            raise ApiError(422, "content is not valid Base64") from exc
    else:
        data = content.encode("utf-8")
    sha = api.store.create_blob(data)
    return _created({"url": api.urls.git("blobs", sha), "sha": sha})


# ----- trees -----------------------------------------------------------------------------------


def _tree_path(raw: Any) -> str:
    if not isinstance(raw, str):
        raise _not_a("string", "path", raw)
    parts = raw.split("/")
    if any(p in ("", ".", "..") or p.lower() == ".git" or "\x00" in p for p in parts):
        raise ApiError(422, f"tree.path contains a malformed path component: {raw}")
    return raw


def _tree_change(api: GitHubApi, item: Any) -> TreeChange:
    """One entry of `tree`: its checks, and its content written as a blob."""
    if not isinstance(item, dict):
        raise _not_a("object", "tree/items", item)
    missing = [n for n in ("path", "mode", "type") if n not in item]
    if missing:
        raise _missing(missing)
    path = _tree_path(item["path"])
    mode = MODES.get(item["mode"]) if isinstance(item["mode"], str) else None
    if mode is None or item["type"] not in ("blob", "tree", "commit"):
        raise ApiError(422, f"Invalid tree info: mode {item['mode']}, type {item['type']}")
    has_sha, has_content = item.get("sha") is not None, "content" in item
    if has_sha == has_content and (has_sha or "sha" not in item):
        raise ApiError(422, EITHER_SHA_OR_CONTENT)  # both, or neither (not even "sha": null)
    if has_content:
        if not isinstance(item["content"], str) or mode not in (FILE_MODE, EXEC_MODE, LINK_MODE):
            raise ApiError(422, EITHER_SHA_OR_CONTENT)
        return TreeChange(path, mode, api.store.create_blob(item["content"].encode("utf-8")))
    sha = item["sha"]
    if sha is None:
        return TreeChange(path, mode, None)
    if not isinstance(sha, str):
        raise _not_a("string", "sha", sha)
    wanted = KINDS.get(mode)
    if wanted is not None and api.store.kind_of(sha) != wanted:
        raise ApiError(422, f"tree.sha {sha} is not a valid {wanted}")
    return TreeChange(path, mode, sha.lower())


def create_tree(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    api.require_commits()
    body = req.json_object()
    if "tree" not in body:
        raise _missing(["tree"])
    if not isinstance(body["tree"], list):
        raise _not_a("array", "tree", body["tree"])
    base = body.get("base_tree")
    if base is not None and (not isinstance(base, str) or api.store.kind_of(base) != "tree"):
        raise ApiError(422, "base_tree is not a valid tree oid")
    changes = [_tree_change(api, item) for item in body["tree"]]
    try:
        tree_sha = api.store.create_tree(base.lower() if base else None, changes)
    except NothingToDelete as exc:
        # GitHub documents that deleting a missing file is an error; the wording is ours.
        raise ApiError(422, f"tree.path {exc} does not exist in base_tree") from exc
    except PathConflict as exc:
        raise ApiError(422, f"tree.path {exc} runs through a file") from exc
    entries = [P.tree_entry_json(e, api.urls) for e in api.store.walk_tree(tree_sha, False)]
    url = api.urls.git("trees", tree_sha)
    return _created({"sha": tree_sha, "url": url, "tree": entries, "truncated": False})


# ----- commits ---------------------------------------------------------------------------------


def _commit_people(api: GitHubApi, req: ApiRequest, body: dict[str, Any]) -> tuple[Any, Any]:
    """The author is the token's user unless given; the committer is the author unless given."""
    assert req.user is not None
    for person in ("author", "committer"):
        if person in body:
            validate_person(person, body[person])
    me = Signature(req.user.commit_name, req.user.commit_email, int(api.clock()), 0)
    author = person_signature(body.get("author"), me)
    committer = person_signature(body.get("committer"), author)
    return author, committer


def create_commit(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    api.require_commits()
    body = req.json_object()
    missing = [n for n in ("message", "tree") if n not in body]
    if missing:
        raise _missing(missing)
    for name in ("message", "tree"):
        if not isinstance(body[name], str):
            raise _not_a("string", name, body[name])
    parents = body.get("parents", [])
    if not isinstance(parents, list) or not all(isinstance(p, str) for p in parents):
        raise _not_a("array", "parents", parents)
    if api.store.kind_of(body["tree"]) != "tree":
        raise ApiError(422, "Tree SHA does not exist")
    if any(api.store.kind_of(p) != "commit" for p in parents):
        raise ApiError(422, "Parent SHA does not exist or is not a commit object")
    author, committer = _commit_people(api, req, body)
    info = api.store.create_commit(
        body["tree"].lower(), [p.lower() for p in parents], body["message"], author, committer
    )
    return _created(P.git_commit_json(info, api.urls))


# ----- refs ------------------------------------------------------------------------------------


def update_ref(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    api.require_commits()
    ref = req.params["ref"]
    body = req.json_object()
    if "sha" not in body:
        raise _missing(["sha"])
    sha, force = body["sha"], body.get("force", False)
    if not isinstance(sha, str):
        raise _not_a("string", "sha", sha)
    if not isinstance(force, bool):
        raise _not_a("boolean", "force", force)
    kind, _, branch = ref.partition("/")
    if kind != "heads" or not branch or api.store.branch_head(branch) is None:
        raise ApiError(422, "Reference does not exist")
    if api.store.kind_of(sha) != "commit":
        raise ApiError(422, "Object does not exist")
    sha = sha.lower()
    paths = api.store.changed_paths(sha, since=api.store.branch_head(branch))
    previous = api.move_branch(branch, sha, force=force, paths=paths)
    info = api.store.commit(sha)
    assert info is not None
    if previous != sha:
        after_push(api, req, branch, info, previous, api.store.changed_paths(sha, since=previous))
    return ApiResponse(200, ref_json(api, ref, sha))
