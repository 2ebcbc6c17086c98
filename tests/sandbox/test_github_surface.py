"""GitHub behaviours that real clients rely on: CORS, Link pagination, commit and run filters,
/rate_limit, avatars, Last-Modified. (sha: null is in test_contract.py; schemas in the
conformance test.)"""

from __future__ import annotations

import struct
import zlib
from typing import Any

import httpx
import pytest

from modu_desktop.sandbox import Sandbox
from modu_desktop.sandbox.clock import ManualClock
from tests.helpers.sandbox import REPO_PATH, SandboxFactory, b64, client_for

EXPOSED = (
    "ETag, Link, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, X-OAuth-Scopes, "
    "X-Accepted-OAuth-Scopes, X-Poll-Interval"
)


def write(c: httpx.Client, path: str, text: str, message: str, **extra: Any) -> dict[str, Any]:
    current = c.get(f"{REPO_PATH}/contents/{path}")
    body: dict[str, Any] = {"message": message, "content": b64(text), **extra}
    if current.status_code == 200:
        body["sha"] = current.json()["sha"]
    r = c.put(f"{REPO_PATH}/contents/{path}", json=body)
    assert r.status_code in (200, 201), r.text
    return r.json()


def links(r: httpx.Response) -> dict[str, str]:
    out = {}
    for part in r.headers.get("link", "").split(","):
        if part.strip():
            url, rel = part.split(";")
            out[rel.strip().removeprefix('rel="').rstrip('"')] = url.strip()[1:-1]
    return out


# ----- CORS ------------------------------------------------------------------------------------


def test_preflight_is_204_with_githubs_headers_and_needs_no_token(sb: Sandbox) -> None:
    r = httpx.request(
        "OPTIONS",
        f"{sb.api_url}{REPO_PATH}/contents/.locks/x.lock.json",
        headers={
            "Origin": "https://pnuai.github.io",
            "Access-Control-Request-Method": "PUT",
            "Access-Control-Request-Headers": "authorization,content-type,x-github-api-version",
        },
    )
    assert r.status_code == 204 and r.content == b""
    h = r.headers
    assert h["access-control-allow-origin"] == "*"
    assert h["access-control-allow-methods"] == "GET, POST, PATCH, PUT, DELETE"
    assert h["access-control-max-age"] == "86400"
    allowed = {x.strip().lower() for x in h["access-control-allow-headers"].split(",")}
    assert {"authorization", "content-type", "if-none-match", "x-github-api-version"} <= allowed
    assert h["access-control-expose-headers"] == EXPOSED
    assert sb.stats()["by_route"].get("OPTIONS /repos/{owner}/{repo}/contents/{path}") == 1


@pytest.mark.parametrize(
    "token, path, status",
    [
        ("tok-editor1", "/user", 200),
        (None, "/user", 401),
        ("tok-editor1", f"{REPO_PATH}/contents/nope.md", 404),
        ("tok-editor1", "/no/such/route", 404),
    ],
)
def test_every_answer_allows_any_origin(
    sb: Sandbox, token: str | None, path: str, status: int
) -> None:
    with client_for(sb, token) as c:
        r = c.get(path, headers={"Origin": "http://127.0.0.1:9"})
    assert r.status_code == status
    assert r.headers["access-control-allow-origin"] == "*"
    assert r.headers["access-control-expose-headers"] == EXPOSED


def test_fault_answers_allow_any_origin_too(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.update(failure_rate=1.0, failure_kinds=("5xx",))
    r = editor.get("/user")
    assert r.status_code == 502 and r.headers["access-control-allow-origin"] == "*"


# ----- pagination ------------------------------------------------------------------------------


def test_commit_pages_link_first_prev_next_last(sb: Sandbox, editor: httpx.Client) -> None:
    for i in range(4):
        write(editor, f"docs/p{i}.md", f"{i}\n", f"docs: p{i}")
    total = len(sb.commits())
    per = 2
    last = -(-total // per)
    url = f"{REPO_PATH}/commits"
    first = editor.get(url, params={"per_page": per})
    assert set(links(first)) == {"next", "last"}
    base = f"{sb.api_url}{url}?per_page={per}&page="
    assert links(first) == {"next": base + "2", "last": base + str(last)}
    middle = editor.get(url, params={"per_page": per, "page": 2})
    assert links(middle) == {
        "prev": base + "1",
        "next": base + "3",
        "last": base + str(last),
        "first": base + "1",
    }
    end = editor.get(url, params={"per_page": per, "page": last})
    assert links(end) == {"prev": base + str(last - 1), "first": base + "1"}
    # Following `next` from the start visits every commit once, newest first.
    seen, r = [], first
    while True:
        seen += [c["sha"] for c in r.json()]
        if "next" not in links(r):
            break
        r = editor.get(links(r)["next"])
    assert seen == [c["sha"] for c in sb.commits()]
    one = editor.get(url, params={"per_page": 100})
    assert "link" not in one.headers


# ----- commit filters --------------------------------------------------------------------------


def test_commit_filters_since_until_author_committer_path(
    sb: Sandbox, editor: httpx.Client
) -> None:
    def at(day: int) -> dict[str, str]:
        return {"name": "Kim", "email": "kim@example.com", "date": f"2030-01-{day:02d}T12:00:00Z"}

    write(editor, "docs/f1.md", "1", "docs: f1", committer=at(1))
    write(editor, "docs/f2.md", "2", "docs: f2", committer=at(5))
    write(
        editor,
        "docs/f2.md",
        "3",
        "docs: f2 again",
        committer=at(9),
        author=at(9) | {"name": "Lee", "email": "lee@example.com"},
    )
    write(editor, "docs/f3.md", "4", "docs: f3 by editor1")

    def messages(**params: str) -> list[str]:
        r = editor.get(f"{REPO_PATH}/commits", params=params)
        assert r.status_code == 200, r.text
        return [c["commit"]["message"] for c in r.json()]

    assert messages(since="2030-01-04T00:00:00Z", until="2030-01-10T00:00:00Z") == [
        "docs: f2 again",
        "docs: f2",
    ]
    assert messages(since="2030-01-01T12:00:00Z", until="2030-01-01T12:00:00Z") == ["docs: f1"]
    assert messages(author="lee@example.com") == ["docs: f2 again"]
    assert messages(author="KIM@example.com") == ["docs: f2", "docs: f1"]
    assert messages(committer="kim@example.com", path="docs/f2.md") == [
        "docs: f2 again",
        "docs: f2",
    ]
    # A login matches the commits made with that user's address.
    assert messages(author="editor1", path="docs") == ["docs: f3 by editor1"]
    assert messages(author="nobody") == []
    bad = editor.get(f"{REPO_PATH}/commits", params={"since": "last tuesday"})
    assert bad.status_code == 400 and "since" in bad.json()["message"]


# ----- workflow runs ---------------------------------------------------------------------------


def test_run_filters_and_link(make_sandbox: SandboxFactory) -> None:
    # 2027-01-15 08:00 UTC, standing still: "created today" cannot cross midnight meanwhile
    sb = make_sandbox(
        clock=ManualClock(start=1_800_000_000), deploy_queue_seconds=0.0, deploy_run_seconds=0.0
    )
    with client_for(sb) as one, client_for(sb, "tok-editor2") as two:
        write(one, "docs/r1.md", "1", "docs: r1")
        write(two, "docs/r2.md", "2", "docs: r2")
        write(one, "docs/r3.md", "3", "docs: r3")
        listed = one.get(f"{REPO_PATH}/actions/runs", params={"per_page": 100}).json()
        runs = listed["workflow_runs"]
        assert len(runs) == 3  # a run is recorded with its push

        def ids(**params: str) -> list[int]:
            r = one.get(f"{REPO_PATH}/actions/runs", params=params)
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["total_count"] == len(body["workflow_runs"])
            return [w["id"] for w in body["workflow_runs"]]

        newest, middle, oldest = (r["id"] for r in runs)
        assert ids(actor="editor2") == [middle]
        assert ids(actor="EDITOR1") == [newest, oldest]
        assert ids(event="push") == [newest, middle, oldest]
        assert ids(event="pull_request") == []
        assert ids(status="completed") == ids(status="success") == [newest, middle, oldest]
        assert ids(status="in_progress") == []
        assert ids(head_sha=runs[1]["head_sha"].upper()) == [middle]
        assert ids(branch="main") == [newest, middle, oldest]
        assert ids(branch="other") == []
        today = "2027-01-15"
        assert ids(created=today) == [newest, middle, oldest]
        assert ids(created=f">={today}") == [newest, middle, oldest]
        assert ids(created="<2020-01-01") == []
        assert ids(created="2020-01-01..*") == [newest, middle, oldest]
        assert ids(check_suite_id=str(runs[2]["check_suite_id"])) == [oldest]
        assert one.get(f"{REPO_PATH}/actions/runs", params={"created": "soon"}).status_code == 400

        page = one.get(f"{REPO_PATH}/actions/runs", params={"per_page": 1, "page": 2})
        base = f"{sb.api_url}{REPO_PATH}/actions/runs?per_page=1&page="
        assert links(page) == {
            "prev": base + "1",
            "next": base + "3",
            "last": base + "3",
            "first": base + "1",
        }
        assert page.json()["total_count"] == 3
        assert [w["id"] for w in page.json()["workflow_runs"]] == [middle]
        run = page.json()["workflow_runs"][0]
        assert run["repository"]["full_name"] == "pnuai/PNU-Modu"
        assert run["head_repository"] == run["repository"]
        assert run["repository"]["contents_url"].endswith("/contents/{+path}")


# ----- /rate_limit, avatars, Last-Modified -----------------------------------------------------


def test_rate_limit_has_every_bucket_and_an_etag(editor: httpx.Client) -> None:
    r = editor.get("/rate_limit")
    body = r.json()
    assert {"core", "search", "graphql", "code_search"} <= body["resources"].keys()
    assert body["resources"]["search"]["limit"] == 30
    assert body["rate"] == body["resources"]["core"]
    assert r.headers["etag"].startswith('W/"')
    again = editor.get("/rate_limit", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304
    newer = editor.get("/rate_limit", headers={"X-GitHub-Api-Version": "2026-03-10"}).json()
    assert "rate" not in newer and "core" in newer["resources"]


def test_avatar_url_serves_a_png(sb: Sandbox, editor: httpx.Client) -> None:
    url = editor.get("/user").json()["avatar_url"]
    r = httpx.get(url)  # no token, like an <img>
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    data = r.content
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (40, 40)
    idat_len = struct.unpack(">I", data[33:37])[0]
    assert data[37:41] == b"IDAT"
    assert len(zlib.decompress(data[41 : 41 + idat_len])) == 40 * (1 + 40 * 3)
    owner = editor.get(REPO_PATH).json()["owner"]["avatar_url"]
    assert httpx.get(owner).status_code == 200
    assert sb.stats()["total"] == 2  # avatars are not API requests


def test_last_modified_and_if_modified_since(sb: Sandbox, editor: httpx.Client) -> None:
    repo = editor.get(REPO_PATH)
    stamp = repo.headers["last-modified"]
    assert stamp.endswith(" GMT")
    same = editor.get(REPO_PATH, headers={"If-Modified-Since": stamp})
    assert same.status_code == 304
    older = editor.get(REPO_PATH, headers={"If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"})
    assert older.status_code == 200
    commits = editor.get(f"{REPO_PATH}/commits")
    assert "last-modified" in commits.headers
    assert "last-modified" in editor.get("/user").headers


def test_commit_history_stays_exact_across_writes(sb: Sandbox, editor: httpx.Client) -> None:
    """The sandbox remembers histories per head; each answer still equals `git log -- path`."""
    for i in range(6):
        write(editor, f"docs/h{i % 2}.md", f"{i}\n", f"docs: h{i}")
        write(editor, f"docs/sub/h{i % 3}.md", f"{i}\n", f"docs: sub h{i}")
        for path in ("docs/h0.md", "docs/sub", "docs", None):
            params = {"per_page": "100", **({"path": path} if path else {})}
            got = [c["sha"] for c in editor.get(f"{REPO_PATH}/commits", params=params).json()]
            assert got == [c["sha"] for c in sb.commits(path)], (i, path)
