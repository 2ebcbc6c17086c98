"""Every route the sandbox serves, success and error cases, against GitHub's OpenAPI description.

The description comes from npm (`@octokit/openapi`, see `openapi.py` for the why and for the
argued exceptions); the test skips with a reason when Node/npm is missing. Each answer is
checked for a documented status and a body that validates against the documented schema; a
route added to `sandbox/routes.py` without a case here fails `test_every_route_is_covered`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from modu_desktop.sandbox import Sandbox
from modu_desktop.sandbox.clock import ManualClock
from modu_desktop.sandbox.http.routes import ROUTES, TABLE
from tests.helpers.nodetools import npm_packages
from tests.helpers.openapi import NOT_API, SPEC_FILE, SPEC_PACKAGES, Description
from tests.helpers.sandbox import REPO_PATH, b64, client_for


@dataclass
class Answer:
    method: str
    template: str
    status: int
    content_type: str
    body: Any
    headers: httpx.Headers
    accept: str


@pytest.fixture(scope="module")
def description() -> Description:
    folder = npm_packages("github-openapi", SPEC_PACKAGES)
    return Description(folder / SPEC_FILE)


class Recorder:
    def __init__(self) -> None:
        self.answers: list[Answer] = []

    def hook(self, response: httpx.Response) -> None:
        response.read()
        request = response.request
        match = ROUTES.match(
            "GET" if request.method == "HEAD" else request.method,
            request.url.raw_path.decode().split("?")[0],
        )
        ctype = response.headers.get("content-type", "")
        body: Any = None
        if response.content and "json" in ctype:
            body = response.json()
        elif response.content:
            body = response.content
        self.answers.append(
            Answer(
                request.method,
                match.template,
                response.status_code,
                ctype,
                body,
                response.headers,
                request.headers.get("accept", ""),
            )
        )

    def client(self, sb: Sandbox, token: str | None = "tok-editor1", **kw: Any) -> httpx.Client:
        c = client_for(sb, token, **kw)
        c.event_hooks["response"].append(self.hook)
        return c


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Answer]]:
    """Drive every route once; the answers are shared by the tests below."""
    from tests.helpers.sandbox import USERS

    rec = Recorder()
    root = tmp_path_factory.mktemp("conformance")
    clock = ManualClock()  # the deploy runs move on when the driver says so
    sb = Sandbox(
        root / "repo",
        users=USERS,
        org="pnuai",
        deploy_queue_seconds=20,
        deploy_run_seconds=60,
        clock=clock,
    ).start()
    empty = Sandbox(root / "empty", users=USERS, seed="empty").start()
    try:
        with (
            rec.client(sb) as c,
            rec.client(sb, None) as anon,
            rec.client(sb, "tok-editor2") as outsider,
            rec.client(sb, "nope") as bad,
            rec.client(empty) as e,
        ):
            _drive(sb, clock, c, anon, outsider, bad, e)
        yield rec.answers
    finally:
        sb.stop()
        empty.stop()


def _drive(
    sb: Sandbox,
    clock: ManualClock,
    c: httpx.Client,
    anon: httpx.Client,
    outsider: httpx.Client,
    bad: httpx.Client,
    e: httpx.Client,
) -> None:
    R = REPO_PATH
    # identity, org membership, rate limit
    me = c.get("/user")
    c.get("/user", headers={"If-None-Match": me.headers["etag"]})
    c.get("/user", headers={"If-Modified-Since": me.headers["last-modified"]})
    anon.get("/user")
    bad.get("/user")
    c.get("/user", headers={"X-GitHub-Api-Version": "1999-01-01"})
    c.get("/users/editor1")  # anyone's public profile
    c.get("/users/EDITOR2")  # logins are case-insensitive
    c.get("/users/nobody-here")  # 404
    c.get("/orgs/pnuai/members/editor1")  # 204
    c.get("/orgs/pnuai/members/editor2")  # 404: not a member
    outsider.get("/orgs/pnuai/members/editor1", follow_redirects=False)  # 302
    c.get("/orgs/pnuai/public_members/editor1")  # 404
    rl = c.get("/rate_limit")
    c.get("/rate_limit", headers={"If-None-Match": rl.headers["etag"]})
    bad.get("/rate_limit")
    c.head(R)
    # whole-repository archive: 302 to a download link, which needs no token
    tarball = c.get(f"{R}/tarball/main", follow_redirects=False)
    assert tarball.status_code == 302, tarball.text
    assert anon.get(tarball.headers["location"]).status_code == 200
    c.get(f"{R}/tarball/no-such-branch", follow_redirects=False)  # 404
    # repository
    repo = c.get(R)
    c.get(R, headers={"If-None-Match": repo.headers["etag"]})
    c.get("/repos/pnuai/nope")
    # writes: create (also with sha null), update, conflicts, validation, delete
    lock = f"{R}/contents/.locks/conf.lock.json"
    created = c.put(lock, json={"message": "t [skip ci]", "content": b64("{}"), "sha": None})
    sha = created.json()["content"]["sha"]
    c.put(lock, json={"message": "t [skip ci]", "content": b64("{}")})  # 422 sha missing
    c.put(lock, json={"message": "t [skip ci]", "content": b64("{}"), "sha": None})  # 422
    c.put(lock, json={"message": "t", "content": b64("{}"), "sha": "1" * 40})  # 409
    c.put(lock, json={"message": "t", "content": "not base64!"})  # 422
    c.put(lock, json={"content": b64("x")})  # 422 message missing
    c.put(f"{R}/contents//slash", json={"message": "t", "content": b64("x")})  # 422
    c.put(lock, json={"message": "t", "content": b64("x"), "branch": "nope"})  # 404
    updated = c.put(lock, json={"message": "t [skip ci]", "content": b64("{ }"), "sha": sha})
    c.request("DELETE", lock, json={"message": "t", "sha": "2" * 40})  # 409
    c.request("DELETE", lock, json={"message": "t"})  # 422
    c.request("DELETE", lock, json={"message": "t", "sha": updated.json()["content"]["sha"]})
    c.request("DELETE", lock, json={"message": "t", "sha": sha})  # 404: gone
    doc = f"{R}/contents/docs/conformance.md"
    put = c.put(doc, json={"message": "docs: conformance", "content": b64("# 안녕\n")})
    # contents reads
    f = c.get(doc)
    c.get(doc, headers={"If-None-Match": f.headers["etag"]})
    c.get(f"{R}/contents/docs")
    c.get(f"{R}/contents")
    c.get(f"{R}/contents/docs", headers={"Accept": "application/vnd.github.object"})
    c.get(doc, headers={"Accept": "application/vnd.github.raw"})
    c.get(doc, headers={"Accept": "application/vnd.github.object"})
    big = f"{R}/contents/static/img/big.bin"
    c.put(big, json={"message": "big [skip ci]", "content": b64(b"\0" * (1024 * 1024 + 10))})
    c.get(big)  # 403 too large for the JSON form
    c.get(big, headers={"Accept": "application/vnd.github.object"})  # 200, encoding "none"
    c.get(f"{R}/contents/docs/missing.md")
    c.get(doc, params={"ref": "no-such-branch"})
    e.get(f"{R}/contents/docs")  # 404 empty repository
    # git database
    head = put.json()["commit"]["sha"]
    tree = put.json()["commit"]["tree"]["sha"]
    c.get(f"{R}/git/ref/heads/main")
    c.get(f"{R}/git/refs/heads/main")
    c.get(f"{R}/git/ref/heads/nope")
    c.get(f"{R}/git/commits/{head}")
    c.get(f"{R}/git/commits/{'3' * 40}")
    c.get(f"{R}/git/trees/main", params={"recursive": "1"})
    c.get(f"{R}/git/trees/{tree}")
    c.get(f"{R}/git/trees/{'4' * 40}")
    blob = f.json()["sha"]
    c.get(f"{R}/git/blobs/{blob}")
    c.get(f"{R}/git/blobs/{blob}", headers={"Accept": "application/vnd.github.raw"})
    c.get(f"{R}/git/blobs/{'5' * 40}")
    c.get(f"{R}/git/trees/main:docs")  # a folder's tree by its path
    c.get(f"{R}/git/trees/main:nowhere")  # 404
    # git database writes: blob, tree over a base, commit, fast-forward ref update
    now = c.get(f"{R}/git/commits/{c.get(f'{R}/git/ref/heads/main').json()['object']['sha']}")
    now_sha, now_tree = now.json()["sha"], now.json()["tree"]["sha"]
    made = c.post(f"{R}/git/blobs", json={"content": "한 줄\n", "encoding": "utf-8"})
    c.post(f"{R}/git/blobs", json={"content": b64(b"\x00\x01"), "encoding": "base64"})
    c.post(f"{R}/git/blobs", json={"encoding": "utf-8"})  # 422 content missing
    entry = {"path": "docs/gd.md", "mode": "100644", "type": "blob"}
    new_tree = c.post(
        f"{R}/git/trees",
        json={
            "base_tree": now_tree,
            "tree": [
                {**entry, "sha": made.json()["sha"]},
                {**entry, "path": "docs/gd2.md", "content": "둘\n"},
                {**entry, "path": "docs/conformance.md", "sha": None},
            ],
        },
    )
    gone = [{**entry, "sha": None}]  # 422: docs/gd.md is not in that tree
    c.post(f"{R}/git/trees", json={"base_tree": now_tree, "tree": gone})
    commit = c.post(
        f"{R}/git/commits",
        json={"message": "docs: gd", "tree": new_tree.json()["sha"], "parents": [now_sha]},
    )
    c.post(f"{R}/git/commits", json={"message": "m", "tree": "6" * 40})  # 422
    c.patch(f"{R}/git/refs/heads/main", json={"sha": commit.json()["sha"], "force": False})
    c.patch(f"{R}/git/refs/heads/main", json={"sha": head})  # 422 not a fast forward
    c.patch(f"{R}/git/refs/heads/nope", json={"sha": head})  # 422 no such reference
    e.post(f"{R}/git/blobs", json={"content": "x"})  # 409 empty repository
    for path in (
        "/git/ref/heads/main",
        "/git/commits/" + head,
        "/git/trees/main",
        "/git/blobs/" + blob,
        "/commits",
    ):
        e.get(R + path)  # 409 empty repository
    # commits: pages with Link, filters, errors
    for i in range(3):
        c.put(f"{R}/contents/docs/c{i}.md", json={"message": f"docs: c{i}", "content": b64("x")})
    c.get(f"{R}/commits", params={"per_page": 2})
    c.get(f"{R}/commits", params={"per_page": 2, "page": 2})
    c.get(f"{R}/commits", params={"author": "editor1", "since": "2020-01-01T00:00:00Z"})
    c.get(f"{R}/commits", params={"path": "docs/c1.md", "committer": "editor1"})
    c.get(f"{R}/commits", params={"until": "2000-01-01T00:00:00Z"})
    c.get(f"{R}/commits", params={"since": "yesterday"})  # 400
    c.get(f"{R}/commits", params={"sha": "no-such-branch"})  # 404
    # deploy runs (docs/ writes above start them): one queued, then completed
    runs = c.get(f"{R}/actions/runs", params={"per_page": 1})
    c.get(f"{R}/actions/runs/{runs.json()['workflow_runs'][0]['id']}/jobs")
    clock.advance(80)
    c.get(f"{R}/actions/runs", params={"per_page": 1, "page": 2, "event": "push"})
    c.get(
        f"{R}/actions/runs",
        params={
            "actor": "editor1",
            "status": "completed",
            "created": ">=2020-01-01",
            "branch": "main",
        },
    )
    run_id = runs.json()["workflow_runs"][0]["id"]
    c.get(f"{R}/actions/runs/{run_id}")
    c.get(f"{R}/actions/runs/1")
    jobs = c.get(f"{R}/actions/runs/{run_id}/jobs")
    c.get(f"{R}/actions/runs/1/jobs")  # 404
    job = c.get(f"{R}/actions/runs/{run_id}/jobs").json()["jobs"][0]
    assert job["status"] == "completed"  # its logs exist now
    c.get(f"{R}/actions/jobs/{jobs.json()['jobs'][0]['id']}/logs")  # 302 to the log file
    c.get(f"{R}/actions/jobs/1/logs")  # 404
    # releases: none yet, then a pre-release (not "latest") and a full release
    c.get(f"{R}/releases/latest")  # 404: no release
    c.post(f"{R}/releases", json={"tag_name": "v0.9.0-rc1", "prerelease": True})
    c.post(f"{R}/releases", json={"tag_name": "v1.0.0", "name": "1.0", "body": "첫 버전"})
    c.post(f"{R}/releases", json={"tag_name": "v1.0.0"})  # 422 already exists
    c.post(f"{R}/releases", json={"name": "no tag"})  # 422 tag_name missing
    c.get(f"{R}/releases")
    c.get(f"{R}/releases/latest")
    anon.get("/repos/pnuai/nope/releases")  # 401 (the sandbox's deviation for anonymous reads)
    c.get("/repos/pnuai/nope/releases")  # 404


def test_every_answer_conforms(description: Description, answers: list[Answer]) -> None:
    findings = [
        str(finding)
        for a in answers
        if not a.template.startswith(NOT_API)
        for finding in description.check(
            a.method, a.template, a.status, a.content_type, a.body, a.accept
        )
    ]
    assert not findings, "\n".join(findings)
    assert not [a for a in answers if a.template == "(unmatched)"]
    assert len(answers) > 60


def test_every_route_is_covered(answers: list[Answer]) -> None:
    served = {(m, t) for m, t, _ in TABLE if not t.startswith(NOT_API)}
    # A job's logs succeed with 302 (to the log file), the only success GitHub documents.
    ok = {
        (a.method, a.template)
        for a in answers
        if 200 <= a.status < 300 or (a.status == 302 and a.template.endswith("/logs"))
    }
    failed = {(a.method, a.template) for a in answers if a.status >= 400}
    # Memberships in the sandbox are never public, so that check only ever answers 404; the
    # archive's success is its documented 302 to the download link (checked in the drive).
    never_ok = {
        ("GET", "/orgs/{org}/public_members/{username}"),
        ("GET", "/repos/{owner}/{repo}/tarball/{ref}"),
    }
    assert served - ok == never_ok, "routes without a success case"
    # Error cases too, wherever the route has one (identity routes always succeed or 401).
    assert {t for _, t in served - failed} <= {
        "/repos/{owner}/{repo}/git/refs/{ref}",
        "/repos/{owner}/{repo}/contents",
        "/repos/{owner}/{repo}/actions/runs",
    }


def test_every_answer_is_readable_cross_origin(answers: list[Answer]) -> None:
    for a in answers:
        assert a.headers.get("access-control-allow-origin") == "*", (a.method, a.template)
        assert "Link" in a.headers.get("access-control-expose-headers", ""), a.template


def test_statuses_seen(answers: list[Answer]) -> None:
    """The drive really produced the cases it claims (so the schema check is not vacuous)."""
    seen = {(a.method, a.template, a.status) for a in answers}
    contents = "/repos/{owner}/{repo}/contents/{path}"
    for case in [
        ("PUT", contents, 201),
        ("PUT", contents, 200),
        ("PUT", contents, 409),
        ("PUT", contents, 422),
        ("PUT", contents, 404),
        ("DELETE", contents, 200),
        ("DELETE", contents, 409),
        ("DELETE", contents, 422),
        ("DELETE", contents, 404),
        ("GET", contents, 304),
        ("GET", contents, 403),
        ("GET", "/user", 304),
        ("GET", "/user", 401),
        ("GET", "/orgs/{org}/members/{username}", 204),
        ("GET", "/orgs/{org}/members/{username}", 302),
        ("GET", "/orgs/{org}/members/{username}", 404),
        ("GET", "/repos/{owner}/{repo}/commits", 400),
        ("GET", "/repos/{owner}/{repo}/commits", 409),
        ("GET", "/repos/{owner}/{repo}/git/trees/{tree_sha}", 409),
        ("GET", "/repos/{owner}/{repo}/actions/runs/{run_id}", 404),
        ("GET", "/repos/{owner}/{repo}/tarball/{ref}", 302),
        ("GET", "/repos/{owner}/{repo}/tarball/{ref}", 404),
        ("GET", "/repos/{owner}/{repo}/releases/latest", 404),
        ("GET", "/repos/{owner}/{repo}/releases/latest", 200),
        ("POST", "/repos/{owner}/{repo}/git/blobs", 201),
        ("POST", "/repos/{owner}/{repo}/git/blobs", 409),
        ("POST", "/repos/{owner}/{repo}/git/blobs", 422),
        ("POST", "/repos/{owner}/{repo}/git/trees", 201),
        ("POST", "/repos/{owner}/{repo}/git/trees", 422),
        ("POST", "/repos/{owner}/{repo}/git/commits", 201),
        ("POST", "/repos/{owner}/{repo}/git/commits", 422),
        ("PATCH", "/repos/{owner}/{repo}/git/refs/{ref}", 200),
        ("PATCH", "/repos/{owner}/{repo}/git/refs/{ref}", 422),
        ("GET", "/repos/{owner}/{repo}/git/trees/{tree_sha}", 404),
        ("POST", "/repos/{owner}/{repo}/releases", 201),
        ("POST", "/repos/{owner}/{repo}/releases", 422),
    ]:
        assert case in seen, case


def test_the_check_is_not_vacuous(description: Description, answers: list[Answer]) -> None:
    """Answers broken the way the sandbox's once were (a required field missing) are caught."""
    user = next(a for a in answers if a.template == "/user" and a.status == 200)
    broken = {k: v for k, v in user.body.items() if k != "followers_url"}
    assert description.check("GET", "/user", 200, user.content_type, broken)
    run = next(a for a in answers if a.template.endswith("/runs/{run_id}") and a.status == 200)
    assert description.check(
        "GET", run.template, 200, run.content_type, {**run.body, "repository": None}
    )
    assert description.check("GET", "/rate_limit", 200, "application/json", {"rate": {}})
    assert description.check("PUT", "/repos/{owner}/{repo}/contents/{path}", 418, "", None)
