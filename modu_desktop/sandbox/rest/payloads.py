"""JSON shapes of GitHub's REST responses (fields as GitHub sends them; empty = null)."""

from __future__ import annotations

import base64
import email.utils
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote

from modu_desktop.sandbox.repo.gitstore import CommitInfo, Entry, Signature
from modu_desktop.sandbox.users import SandboxUser, stable_id

DOCS_URL = "https://docs.github.com/rest"


def iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def http_date(ts: float) -> str:
    """RFC 7231 date, as in `Last-Modified`."""
    return email.utils.formatdate(ts, usegmt=True)


def http_date_of(iso_text: str) -> str:
    return http_date(datetime.fromisoformat(iso_text.replace("Z", "+00:00")).timestamp())


def wrapped_base64(data: bytes) -> str:
    """GitHub wraps base64 every 60 characters and ends with a newline."""
    if not data:
        return ""
    text = base64.b64encode(data).decode("ascii")
    return "".join(text[i : i + 60] + "\n" for i in range(0, len(text), 60))


def node_id(kind: str, key: str) -> str:
    return base64.b64encode(f"{kind}:{key}".encode()).decode("ascii").rstrip("=")


def error_body(status: int, message: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"message": message}
    body.update(extra)
    body["documentation_url"] = DOCS_URL
    body["status"] = str(status)
    return body


NO_VERIFICATION = {
    "verified": False,
    "reason": "unsigned",
    "signature": None,
    "payload": None,
    "verified_at": None,
}


@dataclass(frozen=True)
class Urls:
    """Every URL a payload embeds, derived from the sandbox's address and the repository."""

    api: str
    owner: str
    repo: str

    @property
    def repo_api(self) -> str:
        return f"{self.api}/repos/{self.owner}/{self.repo}"

    @property
    def web(self) -> str:
        # The sandbox has no web UI; html_url values point at the API host like a GHE would.
        return f"{self.api}/{self.owner}/{self.repo}"

    def contents(self, path: str, ref: str) -> str:
        return f"{self.repo_api}/contents/{quote(path)}?ref={quote(ref, safe='')}"

    def raw(self, path: str, ref: str) -> str:
        return f"{self.api}/raw/{self.owner}/{self.repo}/{quote(ref, safe='')}/{quote(path)}"

    def git(self, kind: str, sha: str) -> str:
        return f"{self.repo_api}/git/{kind}/{sha}"


def _account_urls(api: str, kind: str, login: str) -> dict[str, str]:
    base = f"{api}/{kind}/{login}"
    return {
        "avatar_url": f"{api}/_sandbox/avatars/{login}?v=4",
        "gravatar_id": "",
        "url": base,
        "html_url": f"{api}/{login}",
        "followers_url": f"{base}/followers",
        "following_url": f"{base}/following{{/other_user}}",
        "gists_url": f"{base}/gists{{/gist_id}}",
        "starred_url": f"{base}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{base}/subscriptions",
        "organizations_url": f"{base}/orgs",
        "repos_url": f"{base}/repos",
        "events_url": f"{base}/events{{/privacy}}",
        "received_events_url": f"{base}/received_events",
    }


def user_json(
    user: SandboxUser, api: str, private: bool = False, *, public_profile: bool = False
) -> dict[str, Any]:
    """A `simple-user`; with `private`, the `private-user` that `GET /user` answers; with
    `public_profile`, the `public-user` of `GET /users/{username}` (its `name` is the display
    name people go by; the e-mail stays hidden)."""
    body: dict[str, Any] = {
        "login": user.login,
        "id": user.id,
        "node_id": node_id("User", user.login),
        **_account_urls(api, "users", user.login),
        "type": "User",
        "user_view_type": "private" if private else "public",
        "site_admin": False,
    }
    if public_profile or private:  # the profile both have
        body.update(
            {
                "name": user.name,
                "company": None,
                "blog": "",
                "location": None,
                "email": user.email if private else None,
                "hireable": None,
                "bio": None,
                "twitter_username": None,
                "public_repos": 0,
                "public_gists": 0,
                "followers": 0,
                "following": 0,
                "created_at": ACCOUNT_CREATED_AT,
                "updated_at": ACCOUNT_CREATED_AT,
            }
        )
    if private:
        body.update(
            {
                "notification_email": user.email,
                "private_gists": 0,
                "total_private_repos": 1,
                "owned_private_repos": 0,
                "disk_usage": 0,
                "collaborators": 0,
                "two_factor_authentication": True,
                "plan": {
                    "name": "free",
                    "space": 976562499,
                    "collaborators": 0,
                    "private_repos": 10000,
                },
            }
        )
    return body


ACCOUNT_CREATED_AT = "2024-01-01T00:00:00Z"


def owner_json(login: str, is_org: bool, api: str) -> dict[str, Any]:
    kind = "orgs" if is_org else "users"
    return {
        "login": login,
        "id": stable_id("owner", login.lower()),
        "node_id": node_id("Organization" if is_org else "User", login),
        **_account_urls(api, kind, login),
        "type": "Organization" if is_org else "User",
        "user_view_type": "public",
        "site_admin": False,
    }


def repo_urls(urls: Urls) -> dict[str, Any]:
    """The URL fields (and `*_url` templates) every repository object carries."""
    r = urls.repo_api
    host = urls.api.split("://", 1)[-1]
    return {
        "html_url": urls.web,
        "url": r,
        "archive_url": f"{r}/{{archive_format}}{{/ref}}",
        "assignees_url": f"{r}/assignees{{/user}}",
        "blobs_url": f"{r}/git/blobs{{/sha}}",
        "branches_url": f"{r}/branches{{/branch}}",
        "collaborators_url": f"{r}/collaborators{{/collaborator}}",
        "comments_url": f"{r}/comments{{/number}}",
        "commits_url": f"{r}/commits{{/sha}}",
        "compare_url": f"{r}/compare/{{base}}...{{head}}",
        "contents_url": f"{r}/contents/{{+path}}",
        "contributors_url": f"{r}/contributors",
        "deployments_url": f"{r}/deployments",
        "downloads_url": f"{r}/downloads",
        "events_url": f"{r}/events",
        "forks_url": f"{r}/forks",
        "git_commits_url": f"{r}/git/commits{{/sha}}",
        "git_refs_url": f"{r}/git/refs{{/sha}}",
        "git_tags_url": f"{r}/git/tags{{/sha}}",
        "git_url": f"git://{host}/{urls.owner}/{urls.repo}.git",
        "issue_comment_url": f"{r}/issues/comments{{/number}}",
        "issue_events_url": f"{r}/issues/events{{/number}}",
        "issues_url": f"{r}/issues{{/number}}",
        "keys_url": f"{r}/keys{{/key_id}}",
        "labels_url": f"{r}/labels{{/name}}",
        "languages_url": f"{r}/languages",
        "merges_url": f"{r}/merges",
        "milestones_url": f"{r}/milestones{{/number}}",
        "notifications_url": f"{r}/notifications{{?since,all,participating}}",
        "pulls_url": f"{r}/pulls{{/number}}",
        "releases_url": f"{r}/releases{{/id}}",
        "ssh_url": f"git@{host.split(':')[0]}:{urls.owner}/{urls.repo}.git",
        "stargazers_url": f"{r}/stargazers",
        "statuses_url": f"{r}/statuses/{{sha}}",
        "subscribers_url": f"{r}/subscribers",
        "subscription_url": f"{r}/subscription",
        "tags_url": f"{r}/tags",
        "teams_url": f"{r}/teams",
        "trees_url": f"{r}/git/trees{{/sha}}",
        "clone_url": f"{urls.web}.git",
        "mirror_url": None,
        "hooks_url": f"{r}/hooks",
        "svn_url": urls.web,
    }


def minimal_repo_json(urls: Urls, repo_id: int, owner: dict[str, Any]) -> dict[str, Any]:
    """A `minimal-repository`, as embedded in workflow runs (`repository`, `head_repository`)."""
    return {
        "id": repo_id,
        "node_id": node_id("Repository", f"{urls.owner}/{urls.repo}"),
        "name": urls.repo,
        "full_name": f"{urls.owner}/{urls.repo}",
        "private": True,
        "owner": owner,
        "description": REPO_DESCRIPTION,
        "fork": False,
        **repo_urls(urls),
    }


REPO_DESCRIPTION = "Modu Desktop practice sandbox"


def permissions_json(push: bool) -> dict[str, bool]:
    return {"admin": False, "maintain": False, "push": push, "triage": push, "pull": True}


def signature_json(sig: Signature) -> dict[str, str]:
    return {"name": sig.name, "email": sig.email, "date": iso(sig.timestamp)}


def parents_json(info: CommitInfo, urls: Urls) -> list[dict[str, str]]:
    return [
        {"sha": p, "url": urls.git("commits", p), "html_url": f"{urls.web}/commit/{p}"}
        for p in info.parents
    ]


def git_commit_json(info: CommitInfo, urls: Urls) -> dict[str, Any]:
    return {
        "sha": info.sha,
        "node_id": node_id("Commit", info.sha),
        "url": urls.git("commits", info.sha),
        "html_url": f"{urls.web}/commit/{info.sha}",
        "author": signature_json(info.author),
        "committer": signature_json(info.committer),
        "message": info.message,
        "tree": {"sha": info.tree, "url": urls.git("trees", info.tree)},
        "parents": parents_json(info, urls),
        "verification": dict(NO_VERIFICATION),
    }


def commit_list_item(
    info: CommitInfo,
    urls: Urls,
    author: dict[str, Any] | None,
    committer: dict[str, Any] | None,
) -> dict[str, Any]:
    return {
        "sha": info.sha,
        "node_id": node_id("Commit", info.sha),
        "commit": {
            "author": signature_json(info.author),
            "committer": signature_json(info.committer),
            "message": info.message,
            "tree": {"sha": info.tree, "url": urls.git("trees", info.tree)},
            "url": urls.git("commits", info.sha),
            "comment_count": 0,
            "verification": dict(NO_VERIFICATION),
        },
        "url": f"{urls.repo_api}/commits/{info.sha}",
        "html_url": f"{urls.web}/commit/{info.sha}",
        "comments_url": f"{urls.repo_api}/commits/{info.sha}/comments",
        "author": author,
        "committer": committer,
        "parents": parents_json(info, urls),
    }


def tree_entry_json(entry: Entry, urls: Urls) -> dict[str, Any]:
    body: dict[str, Any] = {
        "path": entry.path,
        "mode": f"{entry.mode:06o}",
        "type": entry.kind,
        "sha": entry.sha,
    }
    if entry.kind == "blob":
        body["size"] = entry.size
        body["url"] = urls.git("blobs", entry.sha)
    elif entry.kind == "tree":
        body["url"] = urls.git("trees", entry.sha)
    return body


def blob_json(sha: str, data: bytes, urls: Urls) -> dict[str, Any]:
    return {
        "sha": sha,
        "node_id": node_id("Blob", sha),
        "size": len(data),
        "url": urls.git("blobs", sha),
        "content": wrapped_base64(data),
        "encoding": "base64",
    }


def content_type_of(entry: Entry) -> str:
    if entry.kind == "tree":
        return "dir"
    if entry.kind == "commit":
        return "submodule"
    return "symlink" if entry.mode == 0o120000 else "file"


def content_entry_json(entry: Entry, ref: str, urls: Urls) -> dict[str, Any]:
    """An entry as the Contents API lists it (no `content`)."""
    kind = content_type_of(entry)
    url = urls.contents(entry.path, ref)
    git_url = urls.git("trees" if kind == "dir" else "blobs", entry.sha)
    html_url = f"{urls.web}/{'tree' if kind == 'dir' else 'blob'}/{ref}/{quote(entry.path)}"
    return {
        "name": entry.path.rsplit("/", 1)[-1],
        "path": entry.path,
        "sha": entry.sha,
        "size": entry.size or 0,
        "url": url,
        "html_url": html_url,
        "git_url": git_url,
        "download_url": urls.raw(entry.path, ref) if kind == "file" else None,
        "type": kind,
        "_links": {"self": url, "git": git_url, "html": html_url},
    }


def content_file_json(entry: Entry, data: bytes, ref: str, urls: Urls) -> dict[str, Any]:
    body = content_entry_json(entry, ref, urls)
    body["content"] = wrapped_base64(data)
    body["encoding"] = "base64"
    if body["type"] == "symlink":
        body["target"] = data.decode("utf-8", "replace")
    return body


def file_commit_json(
    entry: Entry | None, branch: str, commit: CommitInfo, urls: Urls
) -> dict[str, Any]:
    """PUT/DELETE response; `content` is null after a delete."""
    return {
        "content": content_entry_json(entry, branch, urls) if entry else None,
        "commit": git_commit_json(commit, urls),
    }
