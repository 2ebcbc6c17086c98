"""A first list in at most three requests (tree + archive), every file verified against
the tree; small gaps keep blob reads; the list persists for the next start."""

from __future__ import annotations

import asyncio
import io
import tarfile
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.documents.snapshots import Identity, snapshot_file_for
from modu_desktop.core.documents.store import DocumentStore, new_document_text
from modu_desktop.core.github.archive import read_archive
from modu_desktop.core.github.blobcache import BlobCache, git_blob_sha
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.locks.model import LockStatus
from modu_desktop.sandbox import Sandbox, SandboxUser

REPO = RepoRef("pnuai", "PNU-Modu", "main")
TREE = "GET /repos/{owner}/{repo}/git/trees/{tree_sha}"
BLOB = "GET /repos/{owner}/{repo}/git/blobs/{file_sha}"
TARBALL = "GET /repos/{owner}/{repo}/tarball/{ref}"
DOWNLOAD = "GET /codeload/{owner}/{repo}/legacy.tar.gz/{ref}"
USERS = [SandboxUser("editor1", "tok-editor1"), SandboxUser("editor2", "tok-editor2")]


def _seed(root: Path, n: int) -> Path:
    docs = root / "docs"
    docs.mkdir(parents=True)
    for i in range(n):
        text = new_document_text(f"d{i:03d}", f"문서 {i}", position=i + 1, body="# 본문\n")
        (docs / f"{i:03d}-doc.md").write_text(text, encoding="utf-8")
    (docs / "pic.png").write_bytes(b"\x89PNG fake")
    locks = root / ".locks"
    locks.mkdir()
    (locks / "001-doc.lock.json").write_text(
        '{"docId":"001-doc","editingBy":"editor2","startedAt":1,"lastHeartbeat":1}',
        encoding="utf-8",
    )
    return root


@pytest.fixture
def big(tmp_path: Path) -> Any:
    sb = Sandbox(tmp_path / "repo", users=USERS, seed=_seed(tmp_path / "seed", 40)).start()
    yield sb
    sb.stop()


def _client(sb: Sandbox, token: str = "tok-editor1") -> GitHubClient:
    return GitHubClient(sb.api_url, token, REPO)


def test_first_list_of_many_documents_takes_three_requests_and_fills_the_cache(
    big: Sandbox, tmp_path: Path
) -> None:
    cache = BlobCache(tmp_path / "blobs")

    async def go() -> None:
        async with _client(big) as gh:
            store = DocumentStore(gh, cache)
            locks = LockManager(gh, "editor1", "s1", gh.clock, host="h")
            locks.blob_cache = cache
            big.reset_stats()
            snap = await store.refresh()
            views = await locks.list_locks({k: e.sha for k, e in snap.locks.items()})
            st = big.stats()
            assert st["total"] == 3, st
            assert st["by_route"] == {TREE: 1, TARBALL: 1, DOWNLOAD: 1}
            assert len(snap.docs) == 40 and snap.docs[0].title == "문서 0"
            assert store.last_listing["archive"] == 41  # 40 documents + 1 lock file
            assert store.last_listing["blob_reads"] == 0
            assert [v.holder for v in views] == ["editor2"]
            assert views[0].status is LockStatus.STALE
            for d in snap.docs:  # every cached blob is the tree's
                data = cache.get(d.sha)
                assert data is not None and git_blob_sha(data) == d.sha

            big.reset_stats()  # warm: one tree request
            assert (await store.refresh()).docs == snap.docs
            assert big.stats()["total"] == 1

    asyncio.run(go())


def test_below_the_threshold_blob_reads_stay(big: Sandbox, tmp_path: Path) -> None:
    async def go() -> None:
        async with _client(big) as gh:
            store = DocumentStore(gh, BlobCache(tmp_path / "blobs"), archive_min_missing=100)
            big.reset_stats()
            await store.refresh()
            st = big.stats()["by_route"]
            assert TARBALL not in st and st[BLOB] == 41

    asyncio.run(go())


def test_a_file_that_changed_after_the_tree_is_read_by_sha(big: Sandbox, tmp_path: Path) -> None:
    """The archive is by branch: a write between tree and archive gives the archive another
    version of one file; it fails the sha check and is read by blob instead."""

    async def go() -> None:
        async with _client(big) as gh, _client(big, "tok-editor2") as other:
            store = DocumentStore(gh, BlobCache(tmp_path / "blobs"))
            real = gh.get_tarball

            async def write_in_between(ref: str | None = None) -> bytes:
                other_store = DocumentStore(other, BlobCache(tmp_path / "other"))
                doc = await other_store.load("005-doc")
                await other_store.save(doc, doc.text + "\n변경\n", doc.sha, "editor2")
                return await real(ref)

            gh.get_tarball = write_in_between  # type: ignore[method-assign]  # a fault in this one object
            big.reset_stats()
            snap = await store.refresh()
            assert store.last_listing["blob_reads"] == 1
            assert big.stats()["by_route"][BLOB] == 2  # ours + the other editor's load
            d5 = snap.doc("005-doc")
            assert d5 is not None
            data = store.cache.get(d5.sha)
            assert data is not None and "변경" not in data.decode()  # the tree's version

    asyncio.run(go())


def test_a_failed_archive_falls_back_to_blob_reads(big: Sandbox, tmp_path: Path) -> None:
    async def go() -> None:
        async with _client(big) as gh:
            store = DocumentStore(gh, BlobCache(tmp_path / "blobs"))

            async def broken(ref: str | None = None) -> bytes:
                return b"not an archive"

            gh.get_tarball = broken  # type: ignore[method-assign]  # a fault in this one object
            snap = await store.refresh()
            assert len(snap.docs) == 40 and store.last_listing["blob_reads"] == 41

    asyncio.run(go())


def _tar(members: dict[str, bytes], top: str = "o-r-1234567") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name if name.startswith("/") else f"{top}/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def test_read_archive_trusts_only_matching_shas_in_the_one_top_folder() -> None:
    good, bad = b"good\n", b"evil\n"
    data = _tar({"docs/a.md": good, "docs/b.md": bad, "docs/c.md": good})
    wanted = {"docs/a.md": git_blob_sha(good), "docs/b.md": git_blob_sha(b"other")}
    files = read_archive(data, wanted)
    assert files.blobs == {git_blob_sha(good): good}
    assert files.mismatched == ["docs/b.md"] and files.top == "o-r-1234567"
    assert read_archive(b"garbage", wanted).blobs == {}
    # A member outside the first top folder is ignored even if its sha matches.
    sneaky = io.BytesIO()
    with tarfile.open(fileobj=sneaky, mode="w:gz") as tar:
        for name in ("top/x", "other/docs/a.md"):
            info = tarfile.TarInfo(name)
            info.size = len(good)
            tar.addfile(info, io.BytesIO(good))
    assert read_archive(sneaky.getvalue(), {"docs/a.md": git_blob_sha(good)}).blobs == {}


def test_the_list_persists_and_the_next_start_needs_one_request(
    big: Sandbox, tmp_path: Path
) -> None:
    cache = BlobCache(tmp_path / "blobs")
    snapfile = snapshot_file_for(tmp_path / "snaps", big.api_url, "pnuai/PNU-Modu", "main")
    snapfile.identity = Identity("editor1", True)

    async def first() -> Any:
        async with _client(big) as gh:
            return await DocumentStore(gh, cache, snapshots=snapfile).refresh()

    snap = asyncio.run(first())
    loaded = snapshot_file_for(tmp_path / "snaps", big.api_url, "pnuai/PNU-Modu", "main").load()
    assert loaded is not None
    saved, identity = loaded
    assert identity == Identity("editor1", True)
    assert saved.cached and saved.tree_sha == snap.tree_sha
    assert saved.docs == snap.docs and saved.locks == snap.locks and saved.images == snap.images
    # Another repository or branch never sees it.
    assert snapshot_file_for(tmp_path / "snaps", big.api_url, "pnuai/Other", "main").load() is None

    async def second() -> None:
        async with _client(big) as gh:
            store = DocumentStore(gh, cache)
            store.restore(saved)
            locks = LockManager(gh, "editor1", "s2", gh.clock, host="h")
            locks.blob_cache = cache
            view = locks.cached_view("001-doc", saved.locks["001-doc"].sha)
            assert view is not None and view.holder == "editor2"  # no request at all
            big.reset_stats()
            fresh = await store.refresh()
            assert not fresh.cached and fresh.docs == snap.docs
            await locks.list_locks({k: e.sha for k, e in fresh.locks.items()})
            assert big.stats()["total"] == 1

    asyncio.run(second())


def test_a_damaged_snapshot_is_no_snapshot(tmp_path: Path) -> None:
    f = snapshot_file_for(tmp_path, "http://x", "a/b", "main")
    f.path.parent.mkdir(parents=True, exist_ok=True)
    f.path.write_bytes(b'{"format": 2, "api_url": "http://x", "repo": "a/b", "branch": "main"')
    assert f.load() is None
    f.path.write_bytes(
        b'{"format":2,"api_url":"http://x","repo":"a/b","branch":"main","tree_sha":"t",'
        b'"docs":[{"doc_id":5}],"locks":{}}'
    )
    assert f.load() is None


def test_few_documents_missing_in_a_big_tree_keep_blob_reads(tmp_path: Path) -> None:
    """The archive carries every file: when the missing documents are a small part of the
    tree's bytes (here a 2 MB picture), blob reads are cheaper and stay."""
    seed = _seed(tmp_path / "seed", 30)
    (seed / "static").mkdir()
    (seed / "static" / "big.png").write_bytes(bytes(range(256)) * 8192)
    sb = Sandbox(tmp_path / "repo", users=USERS, seed=seed).start()
    try:

        async def go() -> None:
            async with _client(sb) as gh:
                store = DocumentStore(gh, BlobCache(tmp_path / "blobs"))
                sb.reset_stats()
                await store.refresh()
                assert store.last_listing["missing"] == 31
                assert store.last_listing["archive"] == 0
                assert TARBALL not in sb.stats()["by_route"]

        asyncio.run(go())
    finally:
        sb.stop()
