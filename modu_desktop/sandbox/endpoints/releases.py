"""Releases: list, latest and create, in GitHub's documented shapes (REST "Releases").

Releases live in the sandbox's memory, not in git (on GitHub they are repository metadata too;
a tag is created from ``target_commitish`` when it does not exist, which the sandbox skips: no
client of ours reads tags). ``latest`` is the most recent non-draft, non-prerelease release by
``created_at``; 404 when there is none.
"""

from __future__ import annotations

from typing import Any

from modu_desktop.sandbox.api import GitHubApi
from modu_desktop.sandbox.rest import payloads as P
from modu_desktop.sandbox.rest.messages import ApiError, ApiRequest, ApiResponse, not_found
from modu_desktop.sandbox.users import stable_id


def _release_json(api: GitHubApi, rel: dict[str, Any]) -> dict[str, Any]:
    base = f"{api.urls.repo_api}/releases/{rel['id']}"
    web = f"{api.urls.web}/releases/tag/{rel['tag_name']}"
    author = rel["author"]
    return {
        "url": base,
        "html_url": web,
        "assets_url": f"{base}/assets",
        "upload_url": f"{base}/assets{{?name,label}}",
        "tarball_url": f"{api.urls.repo_api}/tarball/{rel['tag_name']}",
        "zipball_url": f"{api.urls.repo_api}/zipball/{rel['tag_name']}",
        "id": rel["id"],
        "node_id": P.node_id("Release", str(rel["id"])),
        "tag_name": rel["tag_name"],
        "target_commitish": rel["target_commitish"],
        "name": rel["name"],
        "body": rel["body"],
        "draft": rel["draft"],
        "prerelease": rel["prerelease"],
        "immutable": False,
        "created_at": P.iso(rel["created_at"]),
        "updated_at": P.iso(rel["created_at"]),
        "published_at": None if rel["draft"] else P.iso(rel["created_at"]),
        "author": P.user_json(author, api.urls.api) if author is not None else None,
        "assets": [],
    }


def list_releases(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    newest = sorted(api.releases, key=lambda r: (r["created_at"], r["id"]), reverse=True)
    visible = [r for r in newest if not r["draft"] or (req.user is not None and req.user.push)]
    return ApiResponse(200, [_release_json(api, r) for r in visible], cacheable=True)


def latest_release(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    full = [r for r in api.releases if not r["draft"] and not r["prerelease"]]
    if not full:
        raise not_found()
    newest = max(full, key=lambda r: (r["created_at"], r["id"]))
    return ApiResponse(200, _release_json(api, newest), cacheable=True)


def create_release(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    body = req.json_object()
    tag = body.get("tag_name")
    if not isinstance(tag, str) or not tag.strip():
        raise ApiError(
            422,
            "Validation Failed",
            errors=[{"resource": "Release", "code": "missing_field", "field": "tag_name"}],
        )
    if any(r["tag_name"] == tag for r in api.releases):
        raise ApiError(
            422,
            "Validation Failed",
            errors=[{"resource": "Release", "code": "already_exists", "field": "tag_name"}],
        )
    rel = {
        "id": stable_id("release", f"{tag}:{len(api.releases)}"),
        "tag_name": tag,
        "target_commitish": str(body.get("target_commitish") or api.branch),
        "name": body.get("name") if isinstance(body.get("name"), str) else None,
        "body": body.get("body") if isinstance(body.get("body"), str) else None,
        "draft": bool(body.get("draft", False)),
        "prerelease": bool(body.get("prerelease", False)),
        "created_at": api.clock(),
        "author": req.user,
    }
    api.releases.append(rel)
    return ApiResponse(201, _release_json(api, rel))
