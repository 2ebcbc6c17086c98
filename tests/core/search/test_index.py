"""The search index (core/search/index.py): every listed page from the blob cache, no request
per search, only changed pages read again after a refresh."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.core.github.blobcache import BlobCache, git_blob_sha
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.search import index as index_module
from modu_desktop.core.search.index import SearchIndex
from modu_desktop.core.search.model import SearchOptions
from tests.helpers.search_pages import ADMISSION, PLAIN

REPO = RepoRef("pnuai", "PNU-Modu", "main")


async def _no_sleep(_: float) -> None:
    return None


@dataclass(frozen=True)
class Doc:
    doc_id: str
    path: str
    sha: str
    title: str


def _memory(pages: dict[str, str]) -> tuple[list[Doc], dict[str, bytes]]:
    blobs: dict[str, bytes] = {}
    docs = []
    for doc_id, text in pages.items():
        data = text.encode()
        sha = git_blob_sha(data)
        blobs[sha] = data
        docs.append(Doc(doc_id, f"docs/{doc_id}.md", sha, f"title of {doc_id}"))
    return docs, blobs


def test_every_page_is_searched_from_the_cache_without_a_request(
    sandbox: Any, tmp_path: Path
) -> None:
    async def go() -> None:
        async with GitHubClient(sandbox.api_url, "tok-editor1", REPO, sleep=_no_sleep) as gh:
            store = DocumentStore(gh, BlobCache(tmp_path / "blobs"))
            snap = await store.refresh()
            index = SearchIndex(store.cache.get)
            assert index.update(snap.docs).read == len(snap.docs)
            sandbox.reset_stats()
            found = index.search("과정", spans=True)
            found_exact = index.search("student", SearchOptions(case_sensitive=True))
            assert sandbox.stats()["total"] == 0
            order = [d.doc_id for d in snap.docs]
            assert [p.doc_id for p in found.pages] == [
                d for d in order if d in {p.doc_id for p in found.pages}
            ]
            assert "04-admission" in [p.doc_id for p in found.pages]
            for page in found.pages:
                assert page.title == store.title_of(page.doc_id)
                text = (await store.load(page.doc_id)).text
                for hit in page.hits:
                    assert hit.words == "과정"
                    assert hit.spans, hit
                    assert "".join(text[a:b] for a, b in hit.spans) == "과정"
            assert found.total == found.shown > 0 and not found.truncated
            assert found_exact.total == 0  # "Student First" has a capital S

    asyncio.run(go())


def test_a_refresh_reads_again_only_the_pages_that_changed(sandbox: Any, tmp_path: Path) -> None:
    async def go() -> None:
        async with GitHubClient(sandbox.api_url, "tok-editor1", REPO, sleep=_no_sleep) as gh:
            store = DocumentStore(gh, BlobCache(tmp_path / "blobs"))
            index = SearchIndex(store.cache.get)
            first = index.update((await store.refresh()).docs)
            assert index.search("가나다라마바사").total == 0
            doc = await store.load("05-sandbox-notes")
            changed = doc.text + "\n가나다라마바사 새 문장\n"
            await gh.put_file(doc.path, changed.encode(), "edit", sha=doc.sha)
            again = index.update((await store.refresh()).docs)
            assert (again.read, again.kept) == (1, first.read - 1)
            (page,) = index.search("가나다라마바사").pages
            assert page.doc_id == "05-sandbox-notes"

    asyncio.run(go())


def test_the_async_refresh_makes_the_same_index() -> None:
    docs, blobs = _memory({"a": ADMISSION, "b": PLAIN})
    one, two = SearchIndex(blobs.get), SearchIndex(blobs.get)
    one.update(docs)
    asyncio.run(two.refresh(docs))
    assert one.search("2025") == two.search("2025")


def test_the_async_refresh_pauses_after_each_slice_of_work_and_says_how_far_it_got(
    tmp_path: Path,
) -> None:
    """Two pages read, or 64 loaded as an earlier run kept them, between two looks at the
    event loop: a thousand kept pages never hold the window for their whole loading."""
    from modu_desktop.core.search.kept import KeptPages

    pages = {f"p{n:03}": PLAIN.replace("학생", f"학생 {n}") for n in range(130)}
    docs, blobs = _memory(pages)
    told: list[tuple[int, int]] = []

    async def first() -> None:
        index = SearchIndex(blobs.get, KeptPages(tmp_path / "kept"))
        await index.refresh(docs[:70], lambda done, total: told.append((done, total)))

    asyncio.run(first())
    assert told == [(n, 70) for n in range(2, 71, 2)]  # seventy pages read: a pause every two
    told.clear()

    async def later() -> None:
        index = SearchIndex(blobs.get, KeptPages(tmp_path / "kept"))
        done = await index.refresh(docs, lambda done, total: told.append((done, total)))
        assert (done.loaded, done.read) == (70, 60)
        assert index.search("학생 129").total == 1

    asyncio.run(later())
    # 64 pages loaded, a pause; six more and two read, a pause; then every two read
    assert told[:3] == [(64, 130), (72, 130), (74, 130)]
    assert told[-1] == (130, 130)


def test_hits_beyond_the_limit_are_counted_not_listed() -> None:
    docs, blobs = _memory({"a": ADMISSION, "b": PLAIN})
    index = SearchIndex(blobs.get)
    index.update(docs)
    everything = index.search("2025")
    some = index.search("2025", limit=3)
    assert some.shown == 3 and some.total == everything.total > 3 and some.truncated
    assert some.page_total == everything.page_total == 2 and len(some.pages) == 1
    assert [h for p in some.pages for h in p.hits] == [h for p in everything.pages for h in p.hits][
        :3
    ]


def test_a_page_whose_text_is_not_cached_is_named_not_searched() -> None:
    docs, blobs = _memory({"a": ADMISSION, "b": PLAIN})
    del blobs[docs[1].sha]
    index = SearchIndex(blobs.get)
    assert index.update(docs).unread == ("b",)
    found = index.search("학생")
    assert found.unread == ("b",) and found.total == 0


def test_each_blob_is_read_once_however_often_it_is_listed(monkeypatch: Any) -> None:
    docs, blobs = _memory({"a": ADMISSION, "b": PLAIN})
    reads: list[str] = []
    real = index_module.read_page

    def counted(text: str) -> Any:
        reads.append(text)
        return real(text)

    monkeypatch.setattr(index_module, "read_page", counted)
    index = SearchIndex(blobs.get)
    index.update(docs)
    index.update(docs)
    index.search("2025")
    index.search("학생", SearchOptions(whole_word=True, case_sensitive=True))
    assert len(reads) == 2
    moved = [Doc("c", "docs/c.md", docs[0].sha, "same text, another page"), docs[1]]
    assert index.update(moved).read == 0
    assert [p.doc_id for p in index.search("2025").pages] == ["c", "b"]
