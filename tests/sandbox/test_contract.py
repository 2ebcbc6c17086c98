"""GitHub REST contract, run against the sandbox — and against api.github.com when asked.

Opt-in live run (scratch repository you own; files go under `modu-contract/<random>/`):
    MODU_LIVE_TOKEN=ghp_… MODU_LIVE_REPO=you/scratch uv run pytest tests/sandbox -m live
(`MODU_LIVE_API` points it at another GitHub-compatible API, e.g. a `modu-desktop sandbox`.)
Every assertion here is one the sandbox must share with GitHub (docs/github-behaviour.md).
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from modu_desktop.sandbox import Sandbox
from tests.helpers.sandbox import USERS, b64, unwrap

LIVE_TOKEN = os.environ.get("MODU_LIVE_TOKEN")
LIVE_REPO = os.environ.get("MODU_LIVE_REPO")
# Another GitHub-compatible API (GHE, or a separately started sandbox to dry-run this file).
LIVE_API = os.environ.get("MODU_LIVE_API", "https://api.github.com")
EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"


@dataclass
class Target:
    kind: str
    base_url: str
    token: str
    repo_path: str
    branch: str
    scratch: str
    created: list[str] = field(default_factory=list)
    _clients: list[httpx.Client] = field(default_factory=list)

    def client(self, token: str | None = "default") -> httpx.Client:
        headers = {
            "Accept": "application/vnd.github+json",
            "User-Agent": "modu-contract-tests",
            "X-GitHub-Api-Version": "2022-11-28",
        }
        if token is not None:
            headers["Authorization"] = f"token {self.token if token == 'default' else token}"
        c = httpx.Client(base_url=self.base_url, headers=headers, timeout=30)
        self._clients.append(c)
        return c

    @property
    def api(self) -> httpx.Client:
        if not self._clients:
            self.client()
        return self._clients[0]

    def url(self, tail: str) -> str:
        return f"{self.repo_path}{tail}"

    def contents(self, path: str) -> str:
        return self.url(f"/contents/{quote(path)}")

    def pace(self) -> None:
        # GitHub asks for ≥ 1 s between writes; the sandbox does not care.
        if self.kind == "live" and "api.github.com" in self.base_url:
            time.sleep(1.0)

    def put(
        self, path: str, content: bytes | str, message: str = "test: write", **extra: Any
    ) -> httpx.Response:
        self.pace()
        r = self.api.put(
            self.contents(path), json={"message": message, "content": b64(content), **extra}
        )
        if r.status_code in (200, 201) and path not in self.created:
            self.created.append(path)
        return r

    def delete(self, path: str, body: dict[str, Any]) -> httpx.Response:
        self.pace()
        return self.api.request("DELETE", self.contents(path), json=body)

    def close(self) -> None:
        for path in self.created:
            r = self.api.get(self.contents(path), params={"ref": self.branch})
            if r.status_code == 200:
                self.delete(path, {"message": "test: clean up [skip ci]", "sha": r.json()["sha"]})
        for c in self._clients:
            c.close()


def _sandbox_target(sb: Sandbox) -> Target:
    return Target(
        "sandbox",
        sb.api_url,
        "tok-editor1",
        "/repos/pnuai/PNU-Modu",
        "main",
        f"scratch/{uuid.uuid4().hex[:8]}",
    )


def _live_target() -> Target:
    assert LIVE_TOKEN and LIVE_REPO
    t = Target(
        "live",
        LIVE_API,
        LIVE_TOKEN,
        f"/repos/{LIVE_REPO}",
        "main",
        f"modu-contract/{uuid.uuid4().hex[:8]}",
    )
    t.branch = t.api.get(t.repo_path).json()["default_branch"]
    return t


live_skip = pytest.mark.skipif(
    not (LIVE_TOKEN and LIVE_REPO), reason="set MODU_LIVE_TOKEN and MODU_LIVE_REPO to run live"
)


@pytest.fixture(params=["sandbox", pytest.param("live", marks=[pytest.mark.live, live_skip])])
def target(request: pytest.FixtureRequest, make_sandbox: Any) -> Iterator[Target]:
    t = _sandbox_target(make_sandbox(users=USERS)) if request.param == "sandbox" else _live_target()
    try:
        yield t
    finally:
        t.close()


@pytest.fixture
def existing(target: Target) -> dict[str, Any]:
    """A file written for this test: {path, sha, text, commit}."""
    path = f"{target.scratch}/existing.md"
    text = "---\nid: existing\ntitle: 기존 문서\n---\n\n" + "본문 " * 40 + "\n"
    r = target.put(path, text, "test: create existing [skip ci]")
    assert r.status_code == 201, r.text
    return {
        "path": path,
        "sha": r.json()["content"]["sha"],
        "text": text,
        "commit": r.json()["commit"]["sha"],
    }


# ----- identity and repository -----------------------------------------------------------------


def test_user_with_token(target: Target) -> None:
    r = target.api.get("/user")
    assert r.status_code == 200
    body = r.json()
    assert {"login", "id", "node_id", "type", "name", "email"} <= body.keys()
    assert isinstance(body["id"], int)


def test_anyones_profile_has_the_name_people_go_by(target: Target) -> None:
    me = target.api.get("/user").json()["login"]
    r = target.api.get(f"/users/{me.upper()}")
    assert r.status_code == 200
    body = r.json()
    assert body["login"].casefold() == me.casefold()
    assert body["user_view_type"] == "public" and "name" in body
    assert target.api.get("/users/no-such-login-modu-desktop-0").status_code == 404


def test_user_without_token_requires_authentication(target: Target) -> None:
    r = target.client(token=None).get("/user")
    assert r.status_code == 401
    assert r.json()["message"] == "Requires authentication"


def test_bad_token_is_bad_credentials(target: Target) -> None:
    r = target.client(token="not-a-real-token").get("/user")
    assert r.status_code == 401
    assert r.json()["message"] == "Bad credentials"


def test_repo_has_permissions_and_default_branch(target: Target) -> None:
    body = target.api.get(target.repo_path).json()
    assert body["default_branch"] == target.branch
    assert {"admin", "push", "pull"} <= body["permissions"].keys()
    assert body["permissions"]["push"] is True


def test_common_headers(target: Target) -> None:
    r = target.api.get(target.repo_path)
    h = r.headers
    assert h["Cache-Control"].startswith("private, max-age=60")
    assert h["ETag"].startswith('W/"')
    for name in (
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
        "X-RateLimit-Used",
        "X-GitHub-Request-Id",
        "Date",
    ):
        assert name in h, name
    assert h["X-GitHub-Api-Version-Selected"] == "2022-11-28"
    assert h["X-RateLimit-Resource"] == "core"


def test_if_none_match_gives_304_without_charging(target: Target) -> None:
    first = target.api.get(target.repo_path)
    again = target.api.get(target.repo_path, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.content == b""
    if target.kind == "sandbox":  # live traffic from elsewhere can move the counter
        assert again.headers["X-RateLimit-Remaining"] == first.headers["X-RateLimit-Remaining"]


def test_unknown_route_and_trailing_slash_are_404(target: Target) -> None:
    assert target.api.get("/repos/nobody-here-x/none-x").status_code == 404
    assert target.api.get(target.repo_path + "/").status_code == 404
    assert target.api.get(target.url("/git/ref/heads/main/")).status_code == 404


# ----- git database ----------------------------------------------------------------------------


def test_ref_of_branch_and_its_commit(target: Target, existing: dict[str, Any]) -> None:
    ref = target.api.get(target.url(f"/git/ref/heads/{target.branch}"))
    assert ref.status_code == 200
    body = ref.json()
    assert body["ref"] == f"refs/heads/{target.branch}"
    assert body["object"]["type"] == "commit"
    sha = body["object"]["sha"]
    commit = target.api.get(target.url(f"/git/commits/{sha}")).json()
    assert commit["sha"] == sha
    assert {"author", "committer", "message", "tree", "parents", "verification"} <= commit.keys()
    assert {"sha", "url"} <= commit["tree"].keys()


def test_ref_needs_exact_heads_name(target: Target, existing: dict[str, Any]) -> None:
    assert target.api.get(target.url("/git/ref/heads/no-such-branch-x")).status_code == 404
    # A commit SHA is not a ref name (notes §3).
    assert target.api.get(target.url(f"/git/ref/{existing['commit']}")).status_code == 404


def test_unknown_commit_is_404(target: Target) -> None:
    assert target.api.get(target.url("/git/commits/" + "1" * 40)).status_code == 404


@pytest.mark.parametrize("value", ["1", "0", "false", "true"])
def test_tree_recursive_any_value_recurses(
    target: Target, existing: dict[str, Any], value: str
) -> None:
    r = target.api.get(target.url(f"/git/trees/{target.branch}"), params={"recursive": value})
    assert r.status_code == 200
    body = r.json()
    paths = {e["path"]: e for e in body["tree"]}
    assert existing["path"] in paths
    entry = paths[existing["path"]]
    assert entry["type"] == "blob" and entry["mode"] == "100644"
    assert entry["sha"] == existing["sha"] and entry["size"] == len(existing["text"].encode())
    assert body["truncated"] is False


def test_tree_without_recursive_is_one_level(target: Target, existing: dict[str, Any]) -> None:
    body = target.api.get(target.url(f"/git/trees/{target.branch}")).json()
    assert all("/" not in e["path"] for e in body["tree"])
    top = existing["path"].split("/")[0]
    sub = next(e for e in body["tree"] if e["path"] == top)
    assert sub["type"] == "tree" and sub["mode"] == "040000" and "size" not in sub
    # A subtree is walked by its SHA.
    inner = target.api.get(target.url(f"/git/trees/{sub['sha']}")).json()
    assert inner["sha"] == sub["sha"] and inner["tree"]


def test_blob_is_base64_wrapped(target: Target, existing: dict[str, Any]) -> None:
    body = target.api.get(target.url(f"/git/blobs/{existing['sha']}")).json()
    assert body["encoding"] == "base64" and body["sha"] == existing["sha"]
    assert body["size"] == len(existing["text"].encode())
    assert unwrap(body["content"]).decode() == existing["text"]
    lines = body["content"].split("\n")
    assert all(len(line) <= 60 for line in lines) and len(lines[0]) == 60


def test_unknown_blob_is_404(target: Target) -> None:
    assert target.api.get(target.url("/git/blobs/" + "2" * 40)).status_code == 404


# ----- contents GET ----------------------------------------------------------------------------


def test_get_file_contents(target: Target, existing: dict[str, Any]) -> None:
    r = target.api.get(target.contents(existing["path"]))
    assert r.status_code == 200
    body = r.json()
    assert body["type"] == "file" and body["encoding"] == "base64"
    assert body["sha"] == existing["sha"] and body["path"] == existing["path"]
    assert body["content"].endswith("\n")
    assert all(len(line) == 60 for line in body["content"].split("\n")[:-2])
    assert unwrap(body["content"]).decode() == existing["text"]
    assert body["url"].endswith(f"?ref={target.branch}")
    assert {"self", "git", "html"} <= body["_links"].keys()
    assert body["git_url"].endswith(f"/git/blobs/{existing['sha']}")


def test_get_file_by_commit_ref(target: Target, existing: dict[str, Any]) -> None:
    r = target.api.get(target.contents(existing["path"]), params={"ref": existing["commit"]})
    assert r.status_code == 200 and r.json()["sha"] == existing["sha"]


def test_get_directory_lists_entries(target: Target, existing: dict[str, Any]) -> None:
    r = target.api.get(target.contents(target.scratch))
    assert r.status_code == 200
    entries = r.json()
    assert isinstance(entries, list)
    entry = next(e for e in entries if e["path"] == existing["path"])
    assert entry["type"] == "file" and "content" not in entry


def test_get_missing_file_is_404(target: Target) -> None:
    r = target.api.get(target.contents(f"{target.scratch}/nope.md"))
    assert r.status_code == 404 and r.json()["message"] == "Not Found"


def test_get_with_unknown_ref(target: Target, existing: dict[str, Any]) -> None:
    r = target.api.get(target.contents(existing["path"]), params={"ref": "no-such-ref-x"})
    assert r.status_code == 404
    assert r.json()["message"] == "No commit found for the ref no-such-ref-x"


# ----- contents PUT (every row of the notes' table) ---------------------------------------------


def test_put_new_path_is_201_file_commit(target: Target) -> None:
    path = f"{target.scratch}/new.md"
    r = target.put(path, "새 문서\n", "test: create new [skip ci]")
    assert r.status_code == 201
    body = r.json()
    content, commit = body["content"], body["commit"]
    assert content["path"] == path and content["type"] == "file"
    assert "content" not in content and "encoding" not in content
    assert content["url"].endswith(f"?ref={target.branch}")
    assert content["_links"]["self"].endswith(f"?ref={target.branch}")
    assert commit["message"] == "test: create new [skip ci]"
    assert {
        "sha",
        "node_id",
        "url",
        "html_url",
        "author",
        "committer",
        "tree",
        "parents",
        "verification",
    } <= commit.keys()
    assert commit["url"].endswith(f"/git/commits/{commit['sha']}")


def test_put_existing_with_right_sha_is_200(target: Target, existing: dict[str, Any]) -> None:
    r = target.put(existing["path"], "바뀐 내용\n", "test: update [skip ci]", sha=existing["sha"])
    assert r.status_code == 200
    assert r.json()["content"]["sha"] != existing["sha"]


def test_put_existing_without_sha_is_422(target: Target, existing: dict[str, Any]) -> None:
    r = target.put(existing["path"], "x", "test: no sha")
    assert r.status_code == 422
    body = r.json()
    assert body["message"] == 'Invalid request.\n\n"sha" wasn\'t supplied.'
    assert "errors" not in body


def test_put_sha_null_on_existing_file_is_422_as_if_missing(
    target: Target, existing: dict[str, Any]
) -> None:
    r = target.put(existing["path"], "x", "test: sha null", sha=None)
    assert r.status_code == 422
    body = r.json()
    assert body["message"] == 'Invalid request.\n\n"sha" wasn\'t supplied.'
    assert "errors" not in body


def test_put_sha_null_on_new_path_creates(target: Target) -> None:
    # The web admin's acquireLock always sends "sha": null for a new lock.
    path = f"{target.scratch}/sha-null.lock.json"
    r = target.put(path, '{"docId": "x"}', "test: sha null create [skip ci]", sha=None)
    assert r.status_code == 201, r.text
    assert r.json()["content"]["path"] == path
    again = target.api.get(target.contents(path))
    assert again.status_code == 200 and again.json()["sha"] == r.json()["content"]["sha"]


def test_delete_sha_null_is_422_as_if_missing(target: Target, existing: dict[str, Any]) -> None:
    target.pace()
    r = target.api.request(
        "DELETE",
        target.contents(existing["path"]),
        json={"message": "test: delete sha null", "sha": None},
    )
    assert r.status_code == 422
    assert r.json()["message"] == 'Invalid request.\n\n"sha" wasn\'t supplied.'


@pytest.mark.parametrize("kind", ["garbage", "unknown-hex", "other-blob"])
def test_put_wrong_sha_is_409(target: Target, existing: dict[str, Any], kind: str) -> None:
    sha = {"garbage": "not-a-sha", "unknown-hex": "3" * 40, "other-blob": EMPTY_BLOB}[kind]
    r = target.put(existing["path"], "x", "test: stale", sha=sha)
    assert r.status_code == 409
    body = r.json()
    assert body["message"] == f"{existing['path']} does not match {sha}"
    assert "errors" not in body


def test_put_new_path_with_sha_ignores_sha(target: Target) -> None:
    r = target.put(
        f"{target.scratch}/with-sha.md", "x", "test: sha ignored [skip ci]", sha="4" * 40
    )
    assert r.status_code == 201


def test_put_unknown_branch_is_404(target: Target) -> None:
    r = target.put(f"{target.scratch}/b.md", "x", "test: branch", branch="no-such-branch-x")
    assert r.status_code == 404


def test_put_leading_slash_is_422(target: Target) -> None:
    target.pace()
    r = target.api.put(
        target.url(f"/contents//{target.scratch}/slash.md"),
        json={"message": "test: slash", "content": b64("x")},
    )
    assert r.status_code == 422
    body = r.json()
    assert body["message"] == "path cannot start with a slash"
    assert body["errors"] == [{"resource": "Commit", "field": "path", "code": "invalid"}]


def test_put_base64_with_line_feeds_is_422(target: Target) -> None:
    target.pace()
    content = b64("가" * 60)
    wrapped = content[:60] + "\n" + content[60:]
    r = target.api.put(
        target.contents(f"{target.scratch}/lf.md"), json={"message": "test: lf", "content": wrapped}
    )
    assert r.status_code == 422
    assert r.json()["message"] == "content is not valid Base64"


def test_put_empty_content_gives_empty_blob(target: Target) -> None:
    r = target.put(f"{target.scratch}/empty.md", b"", "test: empty [skip ci]")
    assert r.status_code == 201
    assert r.json()["content"]["sha"] == EMPTY_BLOB
    assert r.json()["content"]["size"] == 0


def test_put_korean_path(target: Target) -> None:
    path = f"{target.scratch}/한글 문서.md"
    r = target.put(path, "한글\n", "test: korean path [skip ci]")
    assert r.status_code == 201
    assert r.json()["content"]["path"] == path
    got = target.api.get(target.contents(path))
    assert got.status_code == 200 and unwrap(got.json()["content"]) == "한글\n".encode()


# ----- contents DELETE -------------------------------------------------------------------------


def test_delete_with_right_sha_is_200_content_null(
    target: Target, existing: dict[str, Any]
) -> None:
    r = target.delete(
        existing["path"], {"message": "test: delete [skip ci]", "sha": existing["sha"]}
    )
    assert r.status_code == 200
    body = r.json()
    assert body["content"] is None
    assert body["commit"]["message"] == "test: delete [skip ci]"
    assert target.api.get(target.contents(existing["path"])).status_code == 404


def test_delete_without_message_and_sha_is_422(target: Target, existing: dict[str, Any]) -> None:
    r = target.delete(existing["path"], {})
    assert r.status_code == 422
    assert r.json()["message"] == 'Invalid request.\n\n"message", "sha" weren\'t supplied.'


def test_delete_wrong_sha_is_409(target: Target, existing: dict[str, Any]) -> None:
    r = target.delete(existing["path"], {"message": "test: stale", "sha": "5" * 40})
    assert r.status_code == 409
    assert r.json()["message"] == f"{existing['path']} does not match {'5' * 40}"


def test_delete_missing_file_is_404(target: Target) -> None:
    r = target.delete(f"{target.scratch}/never.md", {"message": "test: gone", "sha": "6" * 40})
    assert r.status_code == 404


# ----- commits ---------------------------------------------------------------------------------


def test_commits_filtered_by_path(target: Target, existing: dict[str, Any]) -> None:
    r = target.put(existing["path"], "둘째 판\n", "test: second [skip ci]", sha=existing["sha"])
    assert r.status_code == 200
    listed = target.api.get(
        target.url("/commits"), params={"path": existing["path"], "per_page": 5}
    )
    assert listed.status_code == 200
    messages = [c["commit"]["message"] for c in listed.json()]
    assert messages == ["test: second [skip ci]", "test: create existing [skip ci]"]
    first = listed.json()[0]
    assert {"sha", "commit", "author", "committer", "parents", "html_url"} <= first.keys()
    assert {"name", "email", "date"} <= first["commit"]["author"].keys()


def test_commits_per_page(target: Target, existing: dict[str, Any]) -> None:
    listed = target.api.get(target.url("/commits"), params={"sha": target.branch, "per_page": 1})
    assert listed.status_code == 200 and len(listed.json()) == 1
    assert listed.json()[0]["sha"] == existing["commit"]


def test_bad_json_is_400(target: Target) -> None:
    r = target.api.put(
        target.contents(f"{target.scratch}/bad.md"),
        content=b"{not json",
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 400
    assert r.json()["message"] == "Problems parsing JSON"


# ----- the git database by path, and one commit of many files ---------------------------------


def test_a_folder_tree_by_its_path(target: Target, existing: dict[str, Any]) -> None:
    """`{rev}:{folder}` names a folder's tree; the client reads a file's folder in one request."""
    folder = quote(target.scratch, safe="/")
    by_branch = target.api.get(target.url(f"/git/trees/{quote(target.branch)}:{folder}"))
    assert by_branch.status_code == 200, by_branch.text
    entry = next(e for e in by_branch.json()["tree"] if e["path"] == "existing.md")
    assert entry["sha"] == existing["sha"] and entry["type"] == "blob"
    by_commit = target.api.get(target.url(f"/git/trees/{existing['commit']}:{folder}"))
    assert by_commit.json()["sha"] == by_branch.json()["sha"]
    missing = target.api.get(target.url(f"/git/trees/{quote(target.branch)}:{folder}/nope"))
    assert missing.status_code == 404


def test_one_commit_of_many_files_and_no_fast_forward(
    target: Target, existing: dict[str, Any]
) -> None:
    """Tree over a base tree (inline content, a deletion), a commit, a fast-forward update; a
    second commit on the old head is refused with 422 and the branch keeps the first."""
    ref = target.api.get(target.url(f"/git/ref/heads/{target.branch}")).json()["object"]["sha"]
    base = target.api.get(target.url(f"/git/commits/{ref}")).json()["tree"]["sha"]
    made = target.api.post(
        target.url("/git/trees"),
        json={
            "base_tree": base,
            "tree": [
                {
                    "path": f"{target.scratch}/many-1.md",
                    "mode": "100644",
                    "type": "blob",
                    "content": "하나\n",
                },
                {"path": existing["path"], "mode": "100644", "type": "blob", "sha": None},
            ],
        },
    )
    assert made.status_code == 201, made.text
    target.pace()
    commit = target.api.post(
        target.url("/git/commits"),
        json={"message": "test: many [skip ci]", "tree": made.json()["sha"], "parents": [ref]},
    )
    assert commit.status_code == 201, commit.text
    target.pace()
    moved = target.api.patch(
        target.url(f"/git/refs/heads/{target.branch}"),
        json={"sha": commit.json()["sha"], "force": False},
    )
    assert moved.status_code == 200, moved.text
    target.created.append(f"{target.scratch}/many-1.md")
    late = target.api.post(
        target.url("/git/commits"),
        json={"message": "test: late [skip ci]", "tree": base, "parents": [ref]},
    )
    target.pace()
    refused = target.api.patch(
        target.url(f"/git/refs/heads/{target.branch}"), json={"sha": late.json()["sha"]}
    )
    assert refused.status_code == 422
    assert refused.json()["message"] == "Update is not a fast forward"
    now = target.api.get(target.url(f"/git/ref/heads/{target.branch}")).json()["object"]["sha"]
    assert now == commit.json()["sha"]
