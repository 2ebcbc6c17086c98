"""The sandbox serves `GET /repos/{o}/{r}/tarball/{ref}` as GitHub does (notes §11): a 302 to a
download route, one top folder `{owner}-{repo}-{short sha}/`, a link that expires."""

from __future__ import annotations

import io
import tarfile

import httpx

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.sandbox import Sandbox
from modu_desktop.sandbox.clock import ManualClock
from tests.helpers.sandbox import OWNER, REPO, REPO_PATH, SandboxFactory, b64, client_for


def _members(data: bytes) -> dict[str, tarfile.TarInfo]:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        return {m.name: m for m in tar.getmembers()}


def _files(data: bytes) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for m in tar:
            if m.isfile():
                fh = tar.extractfile(m)
                assert fh is not None
                out[m.name] = fh.read()
    return out


def test_tarball_redirects_to_a_download_link_with_a_temporary_token(
    sb: Sandbox, editor: httpx.Client
) -> None:
    r = editor.get(f"{REPO_PATH}/tarball/main")
    assert r.status_code == 302
    loc = httpx.URL(r.headers["location"])
    assert loc.path == f"/codeload/{OWNER}/{REPO}/legacy.tar.gz/refs/heads/main"
    assert loc.params.get("token")
    # The link works without an Authorization header, like codeload.
    with client_for(sb, token=None) as anonymous:
        got = anonymous.get(str(loc))
    assert got.status_code == 200
    assert got.headers["content-type"] == "application/x-gzip"
    assert got.content[:2] == b"\x1f\x8b"


def test_archive_has_one_top_folder_named_after_the_short_commit_sha(
    sb: Sandbox, editor: httpx.Client
) -> None:
    head = editor.get(f"{REPO_PATH}/git/ref/heads/main").json()["object"]["sha"]
    r = editor.get(f"{REPO_PATH}/tarball/{head}", follow_redirects=True)
    assert r.status_code == 200
    top = f"{OWNER}-{REPO}-{head[:7]}"
    names = _members(r.content)
    assert {n.split("/")[0] for n in names} == {top}
    with tarfile.open(fileobj=io.BytesIO(r.content), mode="r:gz") as tar:
        assert tar.pax_headers.get("comment") == head  # git archive's global header
    # Every file of the tree is there, byte for byte (git blob sha = the tree's).
    tree = editor.get(f"{REPO_PATH}/git/trees/{head}", params={"recursive": "1"}).json()
    files = _files(r.content)
    blobs = {e["path"]: e["sha"] for e in tree["tree"] if e["type"] == "blob"}
    assert blobs and set(files) == {f"{top}/{p}" for p in blobs}
    for path, sha in blobs.items():
        assert git_blob_sha(files[f"{top}/{path}"]) == sha, path


def test_archive_by_sha_is_immutable_while_the_branch_moves(
    sb: Sandbox, editor: httpx.Client
) -> None:
    head = editor.get(f"{REPO_PATH}/git/ref/heads/main").json()["object"]["sha"]
    before = editor.get(f"{REPO_PATH}/tarball/{head}", follow_redirects=True).content
    put = editor.put(
        f"{REPO_PATH}/contents/docs/zz-new.md",
        json={"message": "add", "content": b64("# new\n")},
    )
    assert put.status_code == 201
    again = editor.get(f"{REPO_PATH}/tarball/{head}", follow_redirects=True)
    assert _files(again.content) == _files(before)
    moved = editor.get(f"{REPO_PATH}/tarball/main", follow_redirects=True)
    new_head = put.json()["commit"]["sha"]
    assert any(n.endswith("/docs/zz-new.md") for n in _files(moved.content))
    top = f"{OWNER}-{REPO}-{new_head[:7]}"
    assert {n.split("/")[0] for n in _members(moved.content)} == {top}


def test_the_link_expires_and_a_wrong_token_is_not_found(make_sandbox: SandboxFactory) -> None:
    clock = ManualClock()
    sb = make_sandbox(clock=clock)
    with client_for(sb) as editor:
        loc = editor.get(f"{REPO_PATH}/tarball/main").headers["location"]
        assert editor.get(loc).status_code == 200
        bad = loc.split("token=")[0] + "token=GHSAT0NOPE"
        assert editor.get(bad).status_code == 404
        no_token = loc.split("?")[0]
        assert editor.get(no_token).status_code == 404
        clock.advance(299)
        assert editor.get(loc).status_code == 200  # usable again while it lasts
        clock.advance(1)
        assert editor.get(loc).status_code == 404  # "the link expires after five minutes"


def test_tarball_needs_a_token_and_a_known_ref(sb: Sandbox, editor: httpx.Client) -> None:
    with client_for(sb, token=None) as anonymous:
        assert anonymous.get(f"{REPO_PATH}/tarball/main").status_code == 401
    assert editor.get(f"{REPO_PATH}/tarball/no-such-branch").status_code == 404
    assert editor.get(f"{REPO_PATH}/tarball/{'0' * 40}").status_code == 404
    assert editor.get(f"/repos/{OWNER}/other/tarball/main").status_code == 404


def test_tarball_and_download_are_counted_as_two_requests(
    sb: Sandbox, editor: httpx.Client
) -> None:
    sb.reset_stats()
    assert editor.get(f"{REPO_PATH}/tarball/main", follow_redirects=True).status_code == 200
    st = sb.stats()
    assert st["total"] == 2
    assert st["by_route"]["GET /repos/{owner}/{repo}/tarball/{ref}"] == 1
    assert st["by_route"]["GET /codeload/{owner}/{repo}/legacy.tar.gz/{ref}"] == 1
