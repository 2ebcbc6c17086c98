"""The client's git database over httpx.MockTransport: a folder read by its path (and the walk
when a server does not answer that form), blobs sent as text or base64, and the branch update's
refusal as `NotFastForward`."""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import httpx
import pytest

from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.github.client import GitHubClient, NotFastForward, RepoRef
from modu_desktop.core.github.errors import GitHubError, ValidationFailed
from modu_desktop.core.github.types import NewTreeEntry

BASE = "/repos/pnuai/PNU-Modu"
ROOT, DOCS, SUB = "1" * 40, "2" * 40, "3" * 40
COMMIT = "c" * 40


def tree(sha: str, *entries: tuple[str, str, str]) -> dict[str, Any]:
    items = [
        {"path": p, "type": t, "mode": "040000" if t == "tree" else "100644", "sha": s}
        for p, t, s in entries
    ]
    return {"sha": sha, "truncated": False, "tree": items}


TREES = {
    ROOT: tree(ROOT, ("docs", "tree", DOCS)),
    DOCS: tree(DOCS, ("학과", "tree", SUB), ("a.md", "blob", "a" * 40)),
    SUB: tree(SUB, ("b.md", "blob", "b" * 40)),
}


def make(handler: Any) -> GitHubClient:
    async def no_sleep(_: float) -> None:
        return None

    return GitHubClient(
        "https://api.example.test",
        "ghp_gitdataTestToken0123456789",
        RepoRef("pnuai", "PNU-Modu"),
        transport=httpx.MockTransport(handler),
        sleep=no_sleep,
    )


def serve(paths: bool, seen: list[str]) -> Any:
    def handler(req: httpx.Request) -> httpx.Response:
        raw = req.url.raw_path.decode().split("?")[0]
        seen.append(f"{req.method} {raw}")
        rest = raw[len(BASE) :]
        if rest == "/git/trees/main:docs/%ED%95%99%EA%B3%BC" and paths:
            return httpx.Response(200, json=TREES[SUB])
        if rest.startswith("/git/trees/") and rest[len("/git/trees/") :] in ("main", *TREES):
            key = rest[len("/git/trees/") :]
            return httpx.Response(200, json=TREES[ROOT if key == "main" else key])
        return httpx.Response(404, json={"message": "Not Found"})

    return handler


def test_a_folder_is_read_by_its_path_in_one_request() -> None:
    seen: list[str] = []

    async def go() -> None:
        async with make(serve(True, seen)) as gh:
            assert await gh.blob_sha_at("docs/학과/b.md") == "b" * 40

    asyncio.run(go())
    assert seen == [f"GET {BASE}/git/trees/main:docs/%ED%95%99%EA%B3%BC"]


def test_without_that_form_the_folders_are_walked() -> None:
    seen: list[str] = []

    async def go() -> None:
        async with make(serve(False, seen)) as gh:
            assert await gh.blob_sha_at("docs/학과/b.md") == "b" * 40
            assert await gh.blob_sha_at("docs/없는/b.md") is None

    asyncio.run(go())
    assert seen[:4] == [
        f"GET {BASE}/git/trees/main:docs/%ED%95%99%EA%B3%BC",
        f"GET {BASE}/git/trees/main",
        f"GET {BASE}/git/trees/{DOCS}",
        f"GET {BASE}/git/trees/{SUB}",
    ]


def test_blobs_go_as_text_or_base64_and_trees_delete_with_null() -> None:
    bodies: list[dict[str, Any]] = []

    def handler(req: httpx.Request) -> httpx.Response:
        body = json.loads(req.content)
        bodies.append(body)
        if req.url.path.endswith("/git/blobs"):
            data = (
                base64.b64decode(body["content"])
                if body["encoding"] == "base64"
                else body["content"].encode()
            )
            return httpx.Response(201, json={"sha": git_blob_sha(data), "url": "u"})
        return httpx.Response(201, json={"sha": "e" * 40, "tree": [], "truncated": False})

    async def go() -> None:
        async with make(handler) as gh:
            await gh.create_blob("한글\n".encode())
            await gh.create_blob(b"\xff\xfe")
            await gh.create_tree(
                [NewTreeEntry("a.md", content="x"), NewTreeEntry("b.md")], "f" * 40
            )

    asyncio.run(go())
    assert bodies[0] == {"content": "한글\n", "encoding": "utf-8"}
    assert bodies[1]["encoding"] == "base64"
    assert bodies[2] == {
        "tree": [
            {"path": "a.md", "mode": "100644", "type": "blob", "content": "x"},
            {"path": "b.md", "mode": "100644", "type": "blob", "sha": None},
        ],
        "base_tree": "f" * 40,
    }


def test_a_refused_branch_update_is_not_a_fast_forward() -> None:
    answers = [
        httpx.Response(422, json={"message": "Update is not a fast forward"}),
        httpx.Response(422, json={"message": "Reference does not exist"}),
    ]
    sent: list[dict[str, Any]] = []

    def handler(req: httpx.Request) -> httpx.Response:
        sent.append(json.loads(req.content))
        return answers.pop(0)

    async def go() -> None:
        async with make(handler) as gh:
            with pytest.raises(NotFastForward):
                await gh.update_ref("main", COMMIT)
            with pytest.raises(ValidationFailed) as other:
                await gh.update_ref("main", COMMIT)
            assert not isinstance(other.value, NotFastForward)

    asyncio.run(go())
    assert sent == [{"sha": COMMIT, "force": False}] * 2  # sent once each, never forced


def _blob_server(blobs: dict[str, bytes], raw: bool, accepts: list[str]) -> Any:
    def handler(req: httpx.Request) -> httpx.Response:
        accepts.append(req.headers.get("accept", ""))
        sha = req.url.path.rsplit("/", 1)[-1]
        data = blobs[sha]
        if raw:
            return httpx.Response(
                200, content=data, headers={"content-type": "application/vnd.github.raw"}
            )
        body = {"sha": sha, "encoding": "base64", "content": base64.encodebytes(data).decode()}
        return httpx.Response(200, json=body)

    return handler


@pytest.mark.parametrize("raw", [True, False], ids=["raw bytes", "JSON anyway"])
def test_a_blob_is_asked_for_as_its_bytes_and_checked(raw: bool) -> None:
    small, large = "한글 문서\n".encode(), bytes(range(256)) * 1024  # 256 KB
    blobs = {git_blob_sha(small): small, git_blob_sha(large): large, "f" * 40: b"not f"}
    accepts: list[str] = []

    async def go() -> None:
        async with make(_blob_server(blobs, raw, accepts)) as gh:
            assert await gh.get_blob(git_blob_sha(small)) == small
            assert await gh.get_blob(git_blob_sha(large)) == large
            with pytest.raises(GitHubError, match="does not match its sha"):
                await gh.get_blob("f" * 40)

    asyncio.run(go())
    assert accepts == ["application/vnd.github.raw+json"] * 3


def test_a_large_blob_is_decoded_and_checked_off_the_event_loop(monkeypatch: Any) -> None:
    import threading

    from modu_desktop.core.github import gitdata

    small, large = b"lock file", bytes(range(256)) * 1024
    blobs = {git_blob_sha(small): small, git_blob_sha(large): large}
    checked_on: dict[int, int] = {}
    real = gitdata.git_blob_sha

    def counting(data: bytes) -> str:
        checked_on[len(data)] = threading.get_ident()
        return real(data)

    monkeypatch.setattr(gitdata, "git_blob_sha", counting)

    async def go() -> None:
        async with make(_blob_server(blobs, False, [])) as gh:
            await gh.get_blob(git_blob_sha(small))
            await gh.get_blob(git_blob_sha(large))

    asyncio.run(go())
    loop_thread = threading.get_ident()
    assert checked_on[len(small)] == loop_thread  # a small one is not worth a thread
    assert checked_on[len(large)] != loop_thread
