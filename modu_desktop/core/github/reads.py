"""The client's plain reads: who the user is, the repository, releases, commits lists, workflow
runs and their logs, and the Contents API read (kept for the web admin's pattern; the app reads
files through the git database, `gitdata.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from modu_desktop.core.github.errors import GitHubError
from modu_desktop.core.github.http import HttpCore
from modu_desktop.core.github.types import (
    Commit,
    ContentFile,
    MembershipProbe,
    RepoInfo,
    User,
    WorkflowRun,
    _b64decode,
    commit_from_rest,
    encode_path,
)


class Reads(HttpCore):
    """Reads other than the git database."""

    async def get_user(self) -> User:
        d = await self._get_json("/user")
        return User(
            login=d["login"], id=d.get("id"), name=d.get("name"), email=d.get("email"), raw=d
        )

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
