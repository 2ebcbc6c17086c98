"""DocumentStore against the loopback sandbox: request counts, save/conflict, faults."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.brochure.frontmatter import parse
from modu_desktop.core.documents.store import DocumentStore, SaveConflict, SaveResult
from modu_desktop.core.github.blobcache import BlobCache, git_blob_sha
from modu_desktop.core.github.client import GitHubClient, RepoRef, RetryPolicy

REPO = RepoRef("pnuai", "PNU-Modu", "main")
SEED_ORDER = [
    "01-welcome",
    "02-programs",
    "03-strategy",
    "04-admission",
    "05-sandbox-notes",
    "99-template",
]


async def _no_sleep(_: float) -> None:
    return None


def client_for(sb: Any, token: str = "tok-editor1", **kw: Any) -> GitHubClient:
    kw.setdefault("sleep", _no_sleep)
    return GitHubClient(sb.api_url, token, REPO, **kw)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_refresh_and_warm_refresh_costs_one_request(sandbox: Any, tmp_path: Path) -> None:
    cache_dir = tmp_path / "blobs"

    async def go() -> None:
        async with client_for(sandbox) as gh:
            store = DocumentStore(gh, BlobCache(cache_dir))
            sandbox.reset_stats()
            snap = await store.refresh()
            assert snap.doc_ids == SEED_ORDER
            welcome = snap.doc("01-welcome")
            assert welcome is not None and welcome.position == 1
            assert welcome.theme == "public-blue" and welcome.layout == "cinema"
            assert welcome.nav_label == "환영합니다"
            cold = sandbox.stats()
            assert cold["by_route"]["GET /repos/{owner}/{repo}/git/trees/{tree_sha}"] == 1
            assert cold["by_route"]["GET /repos/{owner}/{repo}/git/blobs/{file_sha}"] == 6
            assert not any("contents" in r for r in cold["by_route"])

            sandbox.reset_stats()
            again = await store.refresh()
            assert sandbox.stats()["total"] == 1
            assert again.docs == snap.docs

        # A new process (new client, new store) with the disk cache: still one request.
        async with client_for(sandbox) as gh2:
            store2 = DocumentStore(gh2, cache_dir)
            sandbox.reset_stats()
            snap3 = await store2.refresh()
            assert sandbox.stats()["total"] == 1
            assert snap3.docs == snap.docs

    run(go())


def test_save_load_conflict_between_two_editors(sandbox: Any, tmp_path: Path) -> None:
    async def go() -> None:
        async with client_for(sandbox) as gh1, client_for(sandbox, "tok-editor2") as gh2:
            s1 = DocumentStore(gh1, tmp_path / "c1")
            s2 = DocumentStore(gh2, tmp_path / "c2")
            d1 = await s1.load("02-programs")
            d2 = await s2.load("02-programs")
            assert d1.text.encode() == sandbox.read_file("docs/02-programs.md")
            assert d1.sha == d2.sha == git_blob_sha(d1.text.encode())

            fm = parse(d1.text)
            fm.set("title", "editor1 제목")
            r1 = await s1.save(d1, fm.render(), d1.sha, "editor1")
            assert isinstance(r1, SaveResult) and r1.commit_sha
            assert sandbox.commits()[0]["message"] == (
                "docs(edit): update 02-programs.md by @editor1"
            )
            assert sandbox.commits()[0]["login"] == "editor1"

            fm2 = parse(d2.text)
            fm2.set("nav_label", "editor2 라벨")
            r2 = await s2.save(d2, fm2.render(), d2.sha, "editor2")
            assert isinstance(r2, SaveConflict)
            assert r2.theirs == fm.render() and r2.their_sha == r1.sha
            assert r2.mine == fm2.render() and r2.base_sha == d2.sha
            # Nothing was overwritten.
            assert sandbox.read_file("docs/02-programs.md") == fm.render().encode()

            # editor2 merges and saves on top of theirs.
            merged = parse(r2.theirs or "")
            merged.set("nav_label", "editor2 라벨")
            r3 = await s2.save("02-programs", merged.render(), r2.their_sha or "", "editor2")
            assert isinstance(r3, SaveResult)
            assert [c["message"] for c in sandbox.commits()[:2]] == [
                "docs(edit): update 02-programs.md by @editor2",
                "docs(edit): update 02-programs.md by @editor1",
            ]

            snap = await s1.refresh()
            prog = snap.doc("02-programs")
            assert prog is not None and prog.title == "editor1 제목"
            assert prog.nav_label == "editor2 라벨"

    run(go())


def test_load_after_save_is_fresh_even_when_contents_api_is_stale(
    sandbox: Any, tmp_path: Path
) -> None:
    async def go() -> None:
        sandbox.faults.update(stale_contents_seconds=60.0)
        async with client_for(sandbox) as gh:
            store = DocumentStore(gh, tmp_path / "c")
            doc = await store.load("05-sandbox-notes")
            res = await store.save(doc, doc.text + "\n추가\n", doc.sha, "editor1")
            assert isinstance(res, SaveResult)
            again = await store.load("05-sandbox-notes")
            assert again.text.endswith("\n추가\n") and again.sha == res.sha
            stale = await gh.get_contents("docs/05-sandbox-notes.md", ref="main")
            # The Contents API may still show the old version; the store never relies on it.
            assert stale.sha in (doc.sha, res.sha)

    run(go())


@pytest.mark.expect_log("root listing is truncated")
def test_truncated_tree_walks_subtrees(sandbox: Any, tmp_path: Path) -> None:
    async def go() -> None:
        async with client_for(sandbox) as gh:
            await gh.put_file(
                ".locks/01-welcome.lock.json",
                b'{\n  "docId": "01-welcome",\n  "editingBy": "editor1",\n'
                b'  "startedAt": 1779179716,\n  "lastHeartbeat": 1779179716\n}',
                "system: acquire lock for 01-welcome by @editor1 [skip ci]",
            )
            # The full listing has ~14 entries; each directory alone fits in 7.
            sandbox.faults.update(tree_entry_limit=7)
            store = DocumentStore(gh, tmp_path / "c")
            snap = await store.refresh()
            assert snap.walked and not snap.incomplete
            assert snap.doc_ids == SEED_ORDER
            assert set(snap.locks) == {"01-welcome"}
            doc = await store.load("99-template")
            assert doc.text.startswith("---\nid: template")
            # Smaller than a directory: reported as incomplete, never a crash.
            sandbox.faults.update(tree_entry_limit=3)
            snap2 = await DocumentStore(gh, tmp_path / "c").refresh()
            assert snap2.walked and snap2.incomplete

    run(go())


def test_create_delete_and_locks_in_snapshot(sandbox: Any, tmp_path: Path) -> None:
    async def go() -> None:
        async with client_for(sandbox) as gh:
            store = DocumentStore(gh, tmp_path / "c")
            created = await store.create(
                "docs/06-news.md", "---\ntitle: 소식\nsidebar_position: 6\n---\n", "editor1"
            )
            assert isinstance(created, SaveResult)
            assert sandbox.commits()[0]["message"] == "feat(docs): create 06-news.md by @editor1"
            await gh.put_file(".locks/06-news.lock.json", b"{}", "lock")
            snap = await store.refresh()
            assert snap.doc_ids == SEED_ORDER[:5] + ["06-news", "99-template"]
            assert snap.locks["06-news"].sha == git_blob_sha(b"{}")
            dup = await store.create("06-news", "---\ntitle: 중복\n---\n", "editor2")
            assert isinstance(dup, SaveConflict) and dup.theirs and "소식" in dup.theirs
            commit = await store.delete("06-news", created.sha, "editor1")
            assert sandbox.commits()[0] == {
                **sandbox.commits()[0],
                "sha": commit,
                "message": "docs(delete): remove 06-news.md by @editor1",
            }
            assert "06-news" not in (await store.refresh()).doc_ids

    run(go())


def test_save_survives_lost_response(sandbox: Any, tmp_path: Path) -> None:
    async def go() -> None:
        async with client_for(sandbox, retry=RetryPolicy(max_attempts=6)) as gh:
            store = DocumentStore(gh, tmp_path / "c")
            doc = await store.load("03-strategy")
            before = len(sandbox.commits())
            sandbox.faults.update(failure_rate=1.0, failure_kinds=("lost_response",))
            task = asyncio.create_task(store.save(doc, doc.text + "x", doc.sha, "editor1"))
            while sandbox.stats()["by_status"].get("lost_response", 0) < 1:
                await asyncio.sleep(0.005)
            sandbox.faults.update(failure_rate=0.0)
            res = await task
            assert isinstance(res, SaveResult) and res.recovered
            assert len(sandbox.commits()) == before + 1
            assert sandbox.commits()[0]["sha"] == res.commit_sha

    run(go())


def test_new_document_text_in_the_brochures_key_order() -> None:
    from modu_desktop.core.documents.store import new_document_text

    text = new_document_text("news", "새 소식", position=7, nav_label="소식", body="본문\n")
    assert text == (
        "---\nid: news\ntitle: 새 소식\nsidebar_position: 7\nnav_label: 소식\n"
        "theme: public-blue\n---\n\n본문\n"
    )


def test_token_never_written_to_cache_files(sandbox: Any, tmp_path: Path) -> None:
    async def go() -> None:
        async with client_for(sandbox) as gh:
            store = DocumentStore(gh, tmp_path / "cache")
            await store.refresh()
            doc = await store.load("01-welcome")
            await store.save(doc, doc.text + "\n", doc.sha, "editor1")

    run(go())
    files = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert files
    for p in files:
        assert b"tok-editor1" not in p.read_bytes()
