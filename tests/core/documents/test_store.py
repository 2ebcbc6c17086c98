"""DocumentStore over an in-memory fake of GitHub's git database (httpx.MockTransport).

The loopback sandbox versions of these tests are in test_documents_sandbox.py.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx
import pytest

from modu_desktop.core.documents.store import (
    DocumentStore,
    SaveConflict,
    SaveResult,
    doc_id_for_path,
    lock_doc_id_for_path,
    new_doc_path,
    update_message,
)
from modu_desktop.core.github.blobcache import BlobCache, git_blob_sha
from modu_desktop.core.github.client import GitHubClient, NotFound, RepoRef, RetryPolicy
from tests.helpers.paths import SAMPLE_REPO

FIXTURES = SAMPLE_REPO
BASE = "/repos/pnuai/PNU-Modu"


class FakeGitHub:
    """Files in a dict; trees/blobs/ref/commits and contents PUT/DELETE like GitHub."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = dict(files)
        self.objects: dict[str, Any] = {}
        self.commits: list[dict[str, Any]] = []
        self.routes: Counter[str] = Counter()
        self.truncate_recursive_over: int | None = None  # entries; None = never
        self.use_etag = True
        self.fail_blob_once: set[str] = set()
        self._commit("initial")

    # -- git model
    def _tree(self, files: dict[str, bytes]) -> str:
        dirs: dict[str, dict[str, bytes]] = {}
        entries: list[dict[str, Any]] = []
        for path, data in files.items():
            head, sep, rest = path.partition("/")
            if sep:
                dirs.setdefault(head, {})[rest] = data
            else:
                sha = git_blob_sha(data)
                self.objects[sha] = data
                entries.append(
                    {"path": head, "mode": "100644", "type": "blob", "sha": sha, "size": len(data)}
                )
        for name, sub in dirs.items():
            entries.append({"path": name, "mode": "040000", "type": "tree", "sha": self._tree(sub)})
        entries.sort(key=lambda e: str(e["path"]))
        sha = hashlib.sha1(json.dumps(entries).encode()).hexdigest()
        self.objects[sha] = entries
        return sha

    def _commit(self, message: str) -> str:
        tree = self._tree(self.files)
        parent = [self.commits[-1]["sha"]] if self.commits else []
        sha = hashlib.sha1(f"{tree}{parent}{message}{len(self.commits)}".encode()).hexdigest()
        c = {
            "sha": sha,
            "message": message,
            "tree": {"sha": tree},
            "parents": [{"sha": p} for p in parent],
        }
        self.commits.append(c)
        self.objects[sha] = c
        return sha

    @property
    def head(self) -> dict[str, Any]:
        return self.commits[-1]

    def _flat(self, tree_sha: str, prefix: str = "") -> list[dict[str, Any]]:
        out = []
        for e in self.objects[tree_sha]:
            e2 = dict(e, path=prefix + e["path"])
            out.append(e2)
            if e["type"] == "tree":
                out.extend(self._flat(e["sha"], prefix + e["path"] + "/"))
        return out

    # -- HTTP
    def __call__(self, req: httpx.Request) -> httpx.Response:
        path = unquote(req.url.raw_path.decode().split("?")[0])
        assert path.startswith(BASE), path
        rest = path[len(BASE) :]
        route = f"{req.method} {rest.split('/')[1] if rest.count('/') >= 1 else rest}"
        if rest.startswith("/git/"):
            route = f"{req.method} /git/{rest.split('/')[2]}"
        self.routes[route] += 1
        if req.method == "GET" and rest.startswith("/git/trees/"):
            ref = rest[len("/git/trees/") :]
            tree_sha = self.head["tree"]["sha"] if ref == "main" else ref
            if tree_sha not in self.objects:
                return httpx.Response(404, json={"message": "Not Found"})
            etag = f'W/"{tree_sha}-{"r" if "recursive" in req.url.params else "n"}"'
            if self.use_etag and req.headers.get("if-none-match") == etag:
                return httpx.Response(304, headers={"etag": etag})
            if "recursive" in req.url.params:
                entries = self._flat(tree_sha)
                truncated = False
                if (
                    self.truncate_recursive_over is not None
                    and len(entries) > self.truncate_recursive_over
                ):
                    entries = entries[: self.truncate_recursive_over]
                    truncated = True
            else:
                entries = list(self.objects[tree_sha])
                truncated = False
            headers = {"etag": etag} if self.use_etag else {}
            return httpx.Response(
                200,
                json={"sha": tree_sha, "tree": entries, "truncated": truncated},
                headers=headers,
            )
        if req.method == "GET" and rest.startswith("/git/blobs/"):
            sha = rest[len("/git/blobs/") :]
            if sha in self.fail_blob_once:
                self.fail_blob_once.discard(sha)
                return httpx.Response(502, json={"message": "Bad Gateway"})
            data = self.objects.get(sha)
            if not isinstance(data, bytes):
                return httpx.Response(404, json={"message": "Not Found"})
            b64 = base64.b64encode(data).decode()
            wrapped = "\n".join(b64[i : i + 60] for i in range(0, len(b64), 60)) + "\n"
            return httpx.Response(
                200, json={"sha": sha, "encoding": "base64", "content": wrapped, "size": len(data)}
            )
        if req.method == "GET" and rest == "/git/ref/heads/main":
            return httpx.Response(
                200,
                json={
                    "ref": "refs/heads/main",
                    "object": {"type": "commit", "sha": self.head["sha"]},
                },
            )
        if req.method == "GET" and rest.startswith("/git/commits/"):
            c = self.objects.get(rest[len("/git/commits/") :])
            return httpx.Response(200 if c else 404, json=c or {"message": "Not Found"})
        if rest.startswith("/contents/"):
            file_path = rest[len("/contents/") :]
            if req.method == "GET":
                raise AssertionError("the document store must not use the Contents API")
            body = json.loads(req.content)
            current = self.files.get(file_path)
            cur_sha = git_blob_sha(current) if current is not None else None
            if req.method == "PUT":
                if cur_sha is not None and "sha" not in body:
                    return httpx.Response(
                        422, json={"message": 'Invalid request.\n\n"sha" wasn\'t supplied.'}
                    )
                if cur_sha is not None and body["sha"] != cur_sha:
                    return httpx.Response(
                        409, json={"message": f"{file_path} does not match {body['sha']}"}
                    )
                data = base64.b64decode(body["content"])
                self.files[file_path] = data
                c = self._commit(body["message"])
                return httpx.Response(
                    201 if cur_sha is None else 200,
                    json={
                        "content": {"path": file_path, "sha": git_blob_sha(data)},
                        "commit": {"sha": c},
                    },
                )
            if req.method == "DELETE":
                if cur_sha is None:
                    return httpx.Response(404, json={"message": "Not Found"})
                if body["sha"] != cur_sha:
                    return httpx.Response(
                        409, json={"message": f"{file_path} does not match {body['sha']}"}
                    )
                del self.files[file_path]
                c = self._commit(body["message"])
                return httpx.Response(200, json={"content": None, "commit": {"sha": c}})
        if req.method == "GET" and rest == "/commits":
            return httpx.Response(200, json=[])
        return httpx.Response(404, json={"message": "Not Found"})

    @property
    def total(self) -> int:
        return sum(self.routes.values())


def fixture_files() -> dict[str, bytes]:
    files = {f"docs/{p.name}": p.read_bytes() for p in (FIXTURES / "docs").glob("*.md")}
    files["docs/images/logo.png"] = b"\x89PNG fake"
    files["docs/bootcamp/00-overview.md"] = "---\ntitle: 부트캠프\n---\nbody\n".encode()
    files["docs/zz-no-position.md"] = b"---\ntitle: Last\n---\n"
    files["docs/aa-no-front-matter.md"] = b"# Just markdown\n"
    files[".locks/01-intro.lock.json"] = (FIXTURES / "lock-sample.json").read_bytes()
    files[".locks/bootcamp/00-overview.lock.json"] = b"{}"
    files["README.md"] = b"readme"
    files["static/admin/index.html"] = b"<html>"
    return files


def make(fake: FakeGitHub) -> GitHubClient:
    async def no_sleep(_: float) -> None:
        return None

    return GitHubClient(
        "https://api.example.test",
        "tok",
        RepoRef("pnuai", "PNU-Modu"),
        transport=httpx.MockTransport(fake),
        sleep=no_sleep,
        retry=RetryPolicy(max_attempts=3),
    )


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_naming_helpers() -> None:
    assert doc_id_for_path("docs/01-intro.md") == "01-intro"
    assert doc_id_for_path("docs/bootcamp/00-overview.md") == "bootcamp/00-overview"
    assert doc_id_for_path("docs/images/a.png") is None
    assert doc_id_for_path("docs/x.mdx") is None
    assert doc_id_for_path("README.md") is None
    assert lock_doc_id_for_path(".locks/01-intro.lock.json") == "01-intro"
    assert lock_doc_id_for_path(".locks/readme.txt") is None
    assert new_doc_path("news", 3) == "docs/03-news.md"
    assert update_message("docs/08-part-8.md", "editor1") == (
        "docs(edit): update 08-part-8.md by @editor1"
    )
    log = (FIXTURES / "commit-log.tsv").read_text("utf-8")
    assert "docs(edit): update 08-part-8.md by @editor1" in log


def test_refresh_lists_docs_locks_in_order_and_warm_refresh_is_one_request(tmp_path: Path) -> None:
    fake = FakeGitHub(fixture_files())

    async def go() -> None:
        async with make(fake) as client:
            store = DocumentStore(client, BlobCache(tmp_path / "c"))
            snap = await store.refresh()
            ids = snap.doc_ids
            assert ids[:9] == [
                "01-intro",
                "02-part-2",
                "03-part-3",
                "04-part-4",
                "05-part-5",
                "06-part-6",
                "07-part-7",
                "08-part-8",
                "99-template",
            ]
            # Missing positions last, by file name.
            assert ids[9:] == ["bootcamp/00-overview", "aa-no-front-matter", "zz-no-position"]
            assert set(snap.locks) == {"01-intro", "bootcamp/00-overview"}
            assert snap.locks["01-intro"].path == ".locks/01-intro.lock.json"
            intro = snap.doc("01-intro")
            assert intro is not None and intro.position == 1 and intro.theme == "public-blue"
            assert intro.title.startswith("대학") and intro.nav_label and intro.hide_title
            part5, bare = snap.doc("05-part-5"), snap.doc("aa-no-front-matter")
            assert part5 is not None and part5.title == "SW전공교육 강화"
            # no title in the front matter: the first heading, as the site takes it
            assert bare is not None and bare.title == "Just markdown"
            assert [e.path for e in snap.images] == ["docs/images/logo.png"]
            # 12 documents + the 2 lock files (read here now, so the lock manager finds them in
            # the disk cache: the whole cold list costs the same requests as before).
            assert fake.routes["GET /git/blobs"] == 14

            # Warm: same store, unchanged repository → one request (a 304).
            before = fake.total
            snap2 = await store.refresh()
            assert fake.total - before == 1 and snap2.not_modified
            assert snap2.docs == snap.docs

            # Cold process, warm disk cache, no ETag support → still one request.
            fake.use_etag = False
            store2 = DocumentStore(client, tmp_path / "c")
            before = fake.total
            snap3 = await store2.refresh()
            assert fake.total - before == 1 and snap3.docs == snap.docs

    run(go())


def test_refresh_after_change_fetches_only_changed_blob(tmp_path: Path) -> None:
    fake = FakeGitHub(fixture_files())

    async def go() -> None:
        async with make(fake) as client:
            store = DocumentStore(client, tmp_path / "c")
            await store.refresh()
            fake.files["docs/02-part-2.md"] = fake.files["docs/02-part-2.md"].replace(
                b"sidebar_position: 2", b"sidebar_position: 100"
            )
            fake._commit("edit")
            fake.routes.clear()
            snap = await store.refresh()
            assert fake.routes == Counter({"GET /git/trees": 1, "GET /git/blobs": 1})
            assert snap.doc_ids[8] == "02-part-2"  # 99-template (99) comes before 100

    run(go())


def test_truncated_tree_is_walked(tmp_path: Path) -> None:
    fake = FakeGitHub(fixture_files())
    fake.truncate_recursive_over = 5

    async def go() -> None:
        async with make(fake) as client:
            store = DocumentStore(client, tmp_path / "c")
            snap = await store.refresh()
            assert snap.walked
            assert len(snap.docs) == 12 and set(snap.locks) == {"01-intro", "bootcamp/00-overview"}
            loaded = await store.load("bootcamp/00-overview")
            assert loaded.text.startswith("---\ntitle: 부트캠프")

    run(go())


def test_blob_fetch_retries_and_concurrency_is_bounded(tmp_path: Path) -> None:
    fake = FakeGitHub(fixture_files())
    fake.fail_blob_once.add(git_blob_sha(fake.files["docs/03-part-3.md"]))
    in_flight = {"now": 0, "max": 0}
    inner = fake

    class Slow(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            in_flight["now"] += 1
            in_flight["max"] = max(in_flight["max"], in_flight["now"])
            await asyncio.sleep(0.01)
            in_flight["now"] -= 1
            resp = inner(request)
            await resp.aread()
            return resp

    async def go() -> None:
        async def no_sleep(_: float) -> None:
            return None

        client = GitHubClient(
            "https://api.example.test",
            "tok",
            RepoRef("pnuai", "PNU-Modu"),
            transport=Slow(),
            sleep=no_sleep,
        )
        async with client:
            store = DocumentStore(client, tmp_path / "c", concurrency=3)
            snap = await store.refresh()
            assert len(snap.docs) == 12

    run(go())
    assert in_flight["max"] <= 3


def test_load_and_save_and_conflict(tmp_path: Path) -> None:
    files = fixture_files()
    files["docs/crlf.md"] = "\ufeff---\r\ntitle: 윈도우\r\n---\r\nbody\r\n".encode()
    fake = FakeGitHub(files)

    async def go() -> None:
        async with make(fake) as client:
            store = DocumentStore(client, tmp_path / "c")
            doc = await store.load("crlf")
            assert doc.text == "\ufeff---\r\ntitle: 윈도우\r\n---\r\nbody\r\n"
            assert doc.sha == git_blob_sha(files["docs/crlf.md"])
            # Unchanged text: no request, no commit.
            before = fake.total
            same = await store.save(doc, doc.text, doc.sha, "editor1")
            assert isinstance(same, SaveResult) and same.unchanged and fake.total == before

            mine = doc.text.replace("body", "내 변경")
            res = await store.save(doc, mine, doc.sha, "editor1")
            assert isinstance(res, SaveResult) and res.commit_sha == fake.head["sha"]
            assert fake.head["message"] == "docs(edit): update crlf.md by @editor1"
            assert fake.files["docs/crlf.md"] == mine.encode("utf-8")
            assert res.sha == git_blob_sha(mine.encode())

            # Someone else saves; our save from the old base conflicts.
            theirs = mine.replace("내 변경", "남의 변경")
            fake.files["docs/crlf.md"] = theirs.encode()
            fake._commit("docs(edit): update crlf.md by @editor2")
            conflict = await store.save("crlf", mine + "more", res.sha, "editor1")
            assert isinstance(conflict, SaveConflict)
            assert conflict.theirs == theirs and conflict.their_sha == git_blob_sha(theirs.encode())
            assert conflict.mine == mine + "more" and conflict.base_sha == res.sha

            with pytest.raises(NotFound):
                await store.load("nope")

            created = await store.create("new-doc", "---\ntitle: 새\n---\n", "editor2")
            assert isinstance(created, SaveResult)
            assert fake.head["message"] == "feat(docs): create new-doc.md by @editor2"
            again = await store.create("new-doc", "---\ntitle: 또\n---\n", "editor1")
            assert isinstance(again, SaveConflict) and again.theirs == "---\ntitle: 새\n---\n"

            commit = await store.delete("new-doc", created.sha, "editor2")
            assert commit == fake.head["sha"]
            assert fake.head["message"] == "docs(delete): remove new-doc.md by @editor2"
            gone = await store.save("new-doc", "x", created.sha, "editor2")
            # The fake (like GitHub per a third-party probe) creates it again when the path is
            # gone, so this is either a result or a conflict — never a crash.
            assert isinstance(gone, (SaveResult, SaveConflict))

    run(go())
    assert not any(r.startswith("GET /contents") for r in fake.routes)


def test_non_utf8_bytes_survive_load_and_save(tmp_path: Path) -> None:
    raw = b"---\ntitle: x\n---\nlatin1 \xe9\n"
    fake = FakeGitHub({"docs/bad.md": raw})

    async def go() -> None:
        async with make(fake) as client:
            store = DocumentStore(client, tmp_path / "c")
            snap = await store.refresh()
            assert snap.docs[0].problems
            doc = await store.load("bad")
            assert doc.decode_problem
            res = await store.save(doc, doc.text, doc.sha, "e")
            assert isinstance(res, SaveResult) and res.unchanged

    run(go())


def test_empty_repository(tmp_path: Path) -> None:
    def handler(req: httpx.Request) -> httpx.Response:
        return httpx.Response(409, json={"message": "Git Repository is empty."})

    async def go() -> None:
        client = GitHubClient(
            "https://api.example.test",
            "tok",
            RepoRef("o", "r"),
            transport=httpx.MockTransport(handler),
        )
        async with client:
            snap = await DocumentStore(client, tmp_path).refresh()
            assert snap.docs == () and snap.locks == {}

    run(go())
