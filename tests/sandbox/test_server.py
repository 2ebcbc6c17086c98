"""Sandbox-only behaviour: stats, empty repository, bad input, permissions, orgs, persistence."""

from __future__ import annotations

import http.client
import socket
import subprocess
import threading
from pathlib import Path

import httpx
import pytest

from modu_desktop.sandbox import PRACTICE_USER, Sandbox, SandboxUser
from modu_desktop.sandbox.clock import ManualClock
from tests.helpers.sandbox import REPO_PATH, SandboxFactory, assert_repo_intact, b64, client_for


def _raw_request(sb: Sandbox, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
    """http.client sends the path byte for byte (httpx would normalise `..` away)."""
    conn = http.client.HTTPConnection("127.0.0.1", sb.port, timeout=5)
    try:
        conn.request(
            method,
            path,
            body=body,
            headers={
                "Authorization": "token tok-editor1",
                "Content-Type": "application/json",
                "User-Agent": "modu-tests",
            },
        )
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


# ----- stats -----------------------------------------------------------------------------------


def test_stats_count_every_request_by_route_and_method(sb: Sandbox, editor: httpx.Client) -> None:
    editor.get(f"{REPO_PATH}/git/trees/main", params={"recursive": 1})
    editor.get(f"{REPO_PATH}/git/trees/main")
    editor.get(f"{REPO_PATH}/contents/docs/01-welcome.md")
    editor.get("/nope")
    with client_for(sb, token="wrong") as bad:
        bad.get("/user")
    stats = sb.stats()
    assert stats["total"] == 5
    assert stats["by_route"]["GET /repos/{owner}/{repo}/git/trees/{tree_sha}"] == 2
    assert stats["by_route"]["GET /repos/{owner}/{repo}/contents/{path}"] == 1
    assert stats["by_route"]["GET /user"] == 1
    assert stats["by_route"]["GET (unmatched)"] == 1
    assert stats["by_method"] == {"GET": 5}


def test_stats_count_faulted_requests(sb: Sandbox, editor: httpx.Client) -> None:
    sb.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    with pytest.raises(httpx.TransportError):
        editor.get("/user")
    sb.faults.update(failure_kinds=("5xx",))
    editor.get("/user")
    assert sb.stats()["by_route"]["GET /user"] == 2


def test_stats_over_http_and_reset(sb: Sandbox, editor: httpx.Client) -> None:
    editor.get("/user")
    with httpx.Client(base_url=sb.api_url) as anon:
        body = anon.get("/_sandbox/stats").json()
        assert body["total"] == 1 and body["by_method"] == {"GET": 1}
        assert anon.post("/_sandbox/stats/reset").status_code == 204
        assert anon.get("/_sandbox/stats").json()["total"] == 0  # meta calls are not counted
    editor.get("/user")
    sb.reset_stats()
    assert sb.stats()["total"] == 0


# ----- empty repository ------------------------------------------------------------------------


def test_empty_repository(make_sandbox: SandboxFactory) -> None:
    sb = make_sandbox(seed="empty")
    with client_for(sb) as c:
        for tail in (
            "/git/ref/heads/main",
            "/git/trees/main",
            "/commits",
            "/git/commits/" + "a" * 40,
        ):
            r = c.get(REPO_PATH + tail)
            assert (r.status_code, r.json()["message"]) == (409, "Git Repository is empty."), tail
        r = c.get(f"{REPO_PATH}/contents/docs/x.md")
        assert (r.status_code, r.json()["message"]) == (404, "This repository is empty.")
        assert c.get(REPO_PATH).json()["default_branch"] == "main"
        first = c.put(
            f"{REPO_PATH}/contents/docs/first.md", json={"message": "first", "content": b64("하나")}
        )
        assert first.status_code == 201 and first.json()["commit"]["parents"] == []
        assert c.get(f"{REPO_PATH}/git/ref/heads/main").status_code == 200
    assert sb.read_file("docs/first.md") == "하나".encode()
    assert_repo_intact(sb)


# ----- bad input never corrupts ----------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        f"{REPO_PATH}/contents/docs/../../etc/passwd",
        f"{REPO_PATH}/contents/docs/%2E%2E/%2E%2E/x.md",
        f"{REPO_PATH}/contents/docs%2F..%2Fx.md",
        f"{REPO_PATH}/contents/.git/config",
        f"{REPO_PATH}/contents/docs//x.md",
        f"{REPO_PATH}/contents/docs/",
        f"{REPO_PATH}/contents/docs/./x.md",
    ],
)
@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE"])
def test_traversal_and_odd_paths_are_404(sb: Sandbox, path: str, method: str) -> None:
    before = sb.commits()[0]["sha"]
    body = b'{"message": "evil", "content": "eA==", "sha": "' + b"0" * 40 + b'"}'
    status, _ = _raw_request(sb, method, path, body if method != "GET" else b"")
    assert status == 404
    assert sb.commits()[0]["sha"] == before
    assert_repo_intact(sb)


def test_bad_json_variants(sb: Sandbox, editor: httpx.Client) -> None:
    url = f"{REPO_PATH}/contents/docs/x.md"
    cases = [
        (b"{oops", "Problems parsing JSON"),
        (b"\xff\xfe", "Problems parsing JSON"),
        (b"[1, 2]", "Body should be a JSON object"),
    ]
    for body, message in cases:
        r = editor.put(url, content=body)
        assert (r.status_code, r.json()["message"]) == (400, message)
    assert_repo_intact(sb)


@pytest.mark.parametrize("content", ["not base64!", "eA=", "eA==\n", "   ", "한글"])
def test_bad_base64_is_422_and_writes_nothing(
    sb: Sandbox, editor: httpx.Client, content: str
) -> None:
    r = editor.put(f"{REPO_PATH}/contents/docs/x.md", json={"message": "m", "content": content})
    assert (r.status_code, r.json()["message"]) == (422, "content is not valid Base64")
    assert sb.read_file("docs/x.md") is None


def test_missing_fields_listed_together(editor: httpx.Client) -> None:
    r = editor.put(f"{REPO_PATH}/contents/docs/x.md", json={})
    assert r.json()["message"] == 'Invalid request.\n\n"message", "content" weren\'t supplied.'
    r = editor.put(f"{REPO_PATH}/contents/docs/x.md", json={"message": 5, "content": "eA=="})
    assert r.json()["message"] == "Invalid request.\n\nFor 'properties/message', 5 is not a string."


def test_author_without_email_is_422(editor: httpx.Client) -> None:
    r = editor.put(
        f"{REPO_PATH}/contents/docs/x.md",
        json={"message": "m", "content": "eA==", "author": {"name": "a"}},
    )
    assert r.status_code == 422


def test_put_onto_a_directory_or_through_a_file_is_422(sb: Sandbox, editor: httpx.Client) -> None:
    for path in ("docs", "docs/01-welcome.md/inner.md"):
        r = editor.put(
            f"{REPO_PATH}/contents/{path}",
            json={"message": "m", "content": "eA==", "sha": "0" * 40},
        )
        assert r.status_code == 422, path
    assert_repo_intact(sb)


def test_unsupported_api_version_is_400(editor: httpx.Client) -> None:
    r = editor.get("/user", headers={"X-GitHub-Api-Version": "1999-01-01"})
    assert r.status_code == 400
    r = editor.get("/user", headers={"X-GitHub-Api-Version": "2026-03-10"})
    assert r.headers["X-GitHub-Api-Version-Selected"] == "2026-03-10"


def test_wrong_repository_is_404_case_insensitive_match(editor: httpx.Client) -> None:
    assert editor.get("/repos/pnuai/other").status_code == 404
    assert editor.get("/repos/PNUAI/pnu-modu").status_code == 200


def test_unsupported_method_is_404(editor: httpx.Client) -> None:
    assert editor.post(f"{REPO_PATH}/contents/docs/x.md", json={}).status_code == 404


def test_raw_media_type(editor: httpx.Client, sb: Sandbox) -> None:
    r = editor.get(
        f"{REPO_PATH}/contents/docs/01-welcome.md",
        headers={"Accept": "application/vnd.github.raw+json"},
    )
    assert r.content == sb.read_file("docs/01-welcome.md")
    sha = editor.get(f"{REPO_PATH}/contents/docs/01-welcome.md").json()["sha"]
    blob = editor.get(
        f"{REPO_PATH}/git/blobs/{sha}", headers={"Accept": "application/vnd.github.raw"}
    )
    assert blob.content == sb.read_file("docs/01-welcome.md")


def test_download_url_serves_raw_bytes(editor: httpx.Client, sb: Sandbox) -> None:
    url = editor.get(f"{REPO_PATH}/contents/static/img/modu-logo.png").json()["download_url"]
    r = httpx.get(url)
    assert r.status_code == 200 and r.content.startswith(b"\x89PNG")


# ----- permissions and organisations -----------------------------------------------------------


def test_read_only_user_reads_but_writes_get_404(sb: Sandbox) -> None:
    with client_for(sb, token="tok-viewer") as viewer:
        repo = viewer.get(REPO_PATH).json()
        assert repo["permissions"]["push"] is False and repo["permissions"]["pull"] is True
        current = viewer.get(f"{REPO_PATH}/contents/docs/01-welcome.md").json()
        put = viewer.put(
            f"{REPO_PATH}/contents/docs/01-welcome.md",
            json={"message": "m", "content": "eA==", "sha": current["sha"]},
        )
        assert (put.status_code, put.json()["message"]) == (404, "Not Found")
        delete = viewer.request(
            "DELETE",
            f"{REPO_PATH}/contents/docs/01-welcome.md",
            json={"message": "m", "sha": current["sha"]},
        )
        assert delete.status_code == 404
    assert len(sb.commits()) == 1


def test_org_membership(sb: Sandbox) -> None:
    with (
        client_for(sb, token="tok-editor1") as member,
        client_for(sb, token="tok-editor2") as outsider,
    ):
        assert member.get("/orgs/pnuai/members/viewer").status_code == 204
        assert member.get("/orgs/pnuai/members/editor2").status_code == 404
        assert member.get("/orgs/unknown-org/members/viewer").status_code == 404
        redirect = outsider.get("/orgs/pnuai/members/viewer")
        assert redirect.status_code == 302
        assert redirect.headers["Location"].endswith("/orgs/pnuai/public_members/viewer")
        assert outsider.get(REPO_PATH).json()["owner"]["type"] == "Organization"


# ----- persistence, seeding, concurrency -------------------------------------------------------


def test_practice_work_survives_a_restart(tmp_path: Path) -> None:
    first = Sandbox(tmp_path / "practice").start()
    try:
        with client_for(first, token="practice-token") as c:
            r = c.put(
                f"{REPO_PATH}/contents/docs/mine.md",
                json={"message": "mine", "content": b64("내 작업")},
            )
            assert r.status_code == 201
    finally:
        first.stop()
    second = Sandbox(tmp_path / "practice", users=[PRACTICE_USER], seed="sample").start()
    try:
        assert second.read_file("docs/mine.md") == "내 작업".encode()
        assert [c["message"] for c in second.commits()][:1] == ["mine"]
        assert len(second.commits()) == 2  # not seeded twice
    finally:
        second.stop()
    log = subprocess.run(
        ["git", "log", "--format=%s"],
        cwd=tmp_path / "practice",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert log == ["mine", "chore: seed practice brochure"]


def test_seed_from_a_folder_skips_git_internals(
    tmp_path: Path, make_sandbox: SandboxFactory
) -> None:
    src = tmp_path / "checkout"
    (src / "docs").mkdir(parents=True)
    (src / "docs" / "01-a.md").write_text("---\nid: a\n---\n", encoding="utf-8")
    (src / ".git").mkdir()
    (src / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (src / ".locks").mkdir()
    (src / ".locks" / "01-a.lock.json").write_text("{}")
    sb = make_sandbox(seed=src)
    assert sb.read_file("docs/01-a.md") == b"---\nid: a\n---\n"
    assert sb.read_file(".locks/01-a.lock.json") == b"{}"
    assert sb.read_file(".git/HEAD") is None


def test_sample_seed_content(sb: Sandbox) -> None:
    docs = (
        "01-welcome",
        "02-programs",
        "03-strategy",
        "04-admission",
        "05-sandbox-notes",
        "99-template",
    )
    text = "".join((sb.read_file(f"docs/{d}.md") or b"").decode() for d in docs)
    from modu_desktop.core.brochure.syntax import BLOCK_KINDS

    assert len(BLOCK_KINDS) == 17
    for block in BLOCK_KINDS:  # the practice brochure shows every block the site knows
        assert f"\n:::{block}\n" in text, block
    workflow = sb.read_file(".github/workflows/deploy.yml")
    assert workflow is not None and b".locks/**" in workflow
    assert (sb.read_file("static/img/sample-photo.png") or b"")[:4] == b"\x89PNG"


def test_concurrent_writes_with_same_sha_one_wins(sb: Sandbox) -> None:
    url = f"{REPO_PATH}/contents/docs/01-welcome.md"
    with client_for(sb) as c:
        sha = c.get(url).json()["sha"]
    results: list[int] = []

    def write(token: str) -> None:
        with client_for(sb, token=token) as c:
            r = c.put(url, json={"message": f"by {token}", "content": b64(token), "sha": sha})
            results.append(r.status_code)

    threads = [
        threading.Thread(target=write, args=(t,))
        for t in ("tok-editor1", "tok-editor2")
        for _ in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [200, 409, 409, 409, 409, 409]
    assert_repo_intact(sb)


def test_commit_author_defaults_to_the_user(sb: Sandbox, editor: httpx.Client) -> None:
    editor.put(f"{REPO_PATH}/contents/docs/by-me.md", json={"message": "m", "content": "eA=="})
    newest = sb.commits()[0]
    assert newest["author"]["name"] == "editor1" and newest["login"] == "editor1"
    listed = editor.get(f"{REPO_PATH}/commits", params={"per_page": 1}).json()
    assert listed[0]["author"]["login"] == "editor1"


def test_sandbox_user_defaults() -> None:
    user = SandboxUser("someone", "tok")
    assert user.push and user.orgs == () and user.name is None
    assert (PRACTICE_USER.login, PRACTICE_USER.token, PRACTICE_USER.push) == (
        "practice",
        "practice-token",
        True,
    )


def test_commits_pagination_link(sb: Sandbox, editor: httpx.Client) -> None:
    for i in range(3):
        editor.put(
            f"{REPO_PATH}/contents/docs/p{i}.md", json={"message": f"p{i}", "content": b64("x")}
        )
    page1 = editor.get(f"{REPO_PATH}/commits", params={"per_page": 2})
    assert [c["commit"]["message"] for c in page1.json()] == ["p2", "p1"]
    next_url = page1.links["next"]["url"]
    page2 = editor.get(next_url)
    assert [c["commit"]["message"] for c in page2.json()] == ["p0", "chore: seed practice brochure"]
    assert "next" not in page2.links
    missing = editor.get(f"{REPO_PATH}/commits", params={"sha": "nope"})
    assert missing.status_code == 404


def test_head_request(editor: httpx.Client) -> None:
    r = editor.head(f"{REPO_PATH}/contents/docs/01-welcome.md")
    assert r.status_code == 200 and r.content == b"" and int(r.headers["Content-Length"]) > 0


def test_refuses_a_folder_that_is_not_a_repository(tmp_path: Path) -> None:
    (tmp_path / "stuff").mkdir()
    (tmp_path / "stuff" / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="not a git repository"):
        Sandbox(tmp_path / "stuff").start()
    assert (tmp_path / "stuff" / "notes.txt").read_text() == "mine"


def test_large_file_needs_raw_or_object(sb: Sandbox, editor: httpx.Client) -> None:
    big = bytes(range(256)) * (5 * 1024)  # 1.25 MB
    url = f"{REPO_PATH}/contents/static/img/big.bin"
    put = editor.put(url, json={"message": "big", "content": b64(big)})
    assert put.status_code == 201
    r = editor.get(url)
    assert r.status_code == 403 and r.json()["errors"][0]["code"] == "too_large"
    obj = editor.get(url, headers={"Accept": "application/vnd.github.object+json"}).json()
    assert (obj["content"], obj["encoding"], obj["size"]) == ("", "none", len(big))
    raw = editor.get(url, headers={"Accept": "application/vnd.github.raw+json"})
    assert raw.content == big
    blob = editor.get(f"{REPO_PATH}/git/blobs/{put.json()['content']['sha']}").json()
    assert blob["size"] == len(big)


def test_object_media_type_on_a_directory(editor: httpx.Client) -> None:
    r = editor.get(
        f"{REPO_PATH}/contents/docs", headers={"Accept": "application/vnd.github.object+json"}
    ).json()
    assert r["type"] == "dir" and any(e["name"] == "01-welcome.md" for e in r["entries"])


def test_root_listing_and_bad_percent_encoding(sb: Sandbox, editor: httpx.Client) -> None:
    root = editor.get(f"{REPO_PATH}/contents").json()
    assert {"docs", "static", ".github"} <= {e["name"] for e in root}
    status, _ = _raw_request(sb, "GET", f"{REPO_PATH}/contents/docs/%FF%FE.md")
    assert status == 404


def test_seed_from_a_bare_repository(tmp_path: Path, make_sandbox: SandboxFactory) -> None:
    first = make_sandbox("origin")
    with client_for(first) as c:
        c.put(f"{REPO_PATH}/contents/docs/extra.md", json={"message": "m", "content": b64("e")})
    copy = make_sandbox("copy", seed=first.repo_dir)
    assert copy.read_file("docs/extra.md") == b"e"
    assert copy.read_file("docs/01-welcome.md") == first.read_file("docs/01-welcome.md")
    assert copy.read_file("HEAD") is None


def test_keep_alive_connections_are_reused_and_sent_without_delay(
    sb: Sandbox, editor: httpx.Client
) -> None:
    for _ in range(20):
        editor.get("/user")
    server = sb._server
    assert server is not None
    with server.sockets_lock:
        connections = list(server.open_sockets)
    assert len(connections) == 1  # every request on one kept-alive connection
    # Nagle off: headers and body are separate writes, and with Nagle plus delayed ACK every
    # keep-alive answer would wait ~40 ms (the benchmark measures the requests themselves).
    assert connections[0].getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


def test_missing_user_agent_is_403(sb: Sandbox) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", sb.port, timeout=5)
    try:
        conn.request("GET", "/user", headers={"Authorization": "token tok-editor1"})
        response = conn.getresponse()
        assert response.status == 403
        assert b"User-Agent" in response.read()
    finally:
        conn.close()


def test_etags_are_stable_while_nothing_changes(make_sandbox: SandboxFactory) -> None:
    clock = ManualClock()
    with client_for(make_sandbox(clock=clock)) as editor:
        _etags_are_stable_while_nothing_changes(editor, clock)


def _etags_are_stable_while_nothing_changes(editor: httpx.Client, clock: ManualClock) -> None:
    urls = [
        REPO_PATH,
        "/user",
        f"{REPO_PATH}/git/trees/main",
        f"{REPO_PATH}/contents/docs/01-welcome.md",
        f"{REPO_PATH}/commits",
    ]
    first = {u: editor.get(u).headers["ETag"] for u in urls}
    clock.advance(3600)  # bodies must not embed the current time
    assert {u: editor.get(u).headers["ETag"] for u in urls} == first
