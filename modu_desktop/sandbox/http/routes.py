"""The route table: GitHub's URL templates (as in its REST docs) → the endpoint handlers.

One explicit list, so the endpoint modules need nothing from here and importing them registers
nothing behind the reader's back.
"""

from __future__ import annotations

from modu_desktop.sandbox.api import Handler
from modu_desktop.sandbox.endpoints import archive, build_check, contents, gitdata, read, releases
from modu_desktop.sandbox.http.router import Router

TABLE: tuple[tuple[str, str, Handler], ...] = (
    ("GET", "/user", read.get_user),
    ("GET", "/users/{username}", read.get_account),
    ("GET", "/orgs/{org}/members/{username}", read.get_org_member),
    ("GET", "/orgs/{org}/public_members/{username}", read.get_org_public_member),
    ("GET", "/rate_limit", read.get_rate_limit),
    ("GET", "/repos/{owner}/{repo}", read.get_repo),
    ("GET", "/repos/{owner}/{repo}/git/ref/{ref}", read.get_ref),
    ("GET", "/repos/{owner}/{repo}/git/refs/{ref}", read.get_ref_legacy),
    ("GET", "/repos/{owner}/{repo}/git/commits/{commit_sha}", read.get_git_commit),
    ("GET", "/repos/{owner}/{repo}/git/trees/{tree_sha}", read.get_tree),
    ("GET", "/repos/{owner}/{repo}/git/blobs/{file_sha}", read.get_blob),
    ("POST", "/repos/{owner}/{repo}/git/blobs", gitdata.create_blob),
    ("POST", "/repos/{owner}/{repo}/git/trees", gitdata.create_tree),
    ("POST", "/repos/{owner}/{repo}/git/commits", gitdata.create_commit),
    ("PATCH", "/repos/{owner}/{repo}/git/refs/{ref}", gitdata.update_ref),
    ("GET", "/repos/{owner}/{repo}/commits", read.list_commits),
    ("GET", "/repos/{owner}/{repo}/actions/runs", read.list_runs),
    ("GET", "/repos/{owner}/{repo}/actions/runs/{run_id}", read.get_run),
    ("GET", "/repos/{owner}/{repo}/actions/runs/{run_id}/jobs", build_check.list_jobs),
    ("GET", "/repos/{owner}/{repo}/actions/jobs/{job_id}/logs", build_check.job_logs),
    ("GET", "/repos/{owner}/{repo}/contents", contents.get_root_contents),
    ("GET", "/repos/{owner}/{repo}/contents/{path}", contents.get_contents),
    ("PUT", "/repos/{owner}/{repo}/contents/{path}", contents.put_contents),
    ("DELETE", "/repos/{owner}/{repo}/contents/{path}", contents.delete_contents),
    ("GET", "/repos/{owner}/{repo}/releases", releases.list_releases),
    ("POST", "/repos/{owner}/{repo}/releases", releases.create_release),
    ("GET", "/repos/{owner}/{repo}/releases/latest", releases.latest_release),
    ("GET", "/raw/{owner}/{repo}/{branch}/{path}", contents.get_raw),
    ("GET", "/repos/{owner}/{repo}/tarball/{ref}", archive.get_tarball),
    ("GET", archive.DOWNLOAD_TEMPLATE, archive.download_tarball),
)


def build_routes() -> Router[Handler]:
    router: Router[Handler] = Router()
    for method, template, handler in TABLE:
        router.add(method, template)(handler)
    return router


ROUTES = build_routes()
