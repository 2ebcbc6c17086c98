"""The picture library: every picture of the site with its sizes and the pages that use it, from
the listing and the blob cache; duplicates, unused and missing pictures, refused deletions."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.github.types import TreeEntry
from modu_desktop.core.pictures.found import rewrite_references
from modu_desktop.core.pictures.library import (
    PageRef,
    build_library,
    delete_picture,
    library_from_store,
    load_pixels,
)
from modu_desktop.core.pictures.pixels import PixelSize
from tests.helpers.lang import in_lang
from tests.helpers.pictures import gif, png

LOGO = png(200, 100)
PHOTO = gif(640, 480)
STRAY = png(10, 10)


@dataclass(frozen=True)
class Page:
    doc_id: str
    path: str
    sha: str
    title: str


def _listing(texts: dict[str, tuple[str, str]]) -> tuple[list[TreeEntry], list[Page], dict]:
    """(tree entries, pages, blobs) of pictures and pages {path: (title, text)}."""
    blobs: dict[str, bytes] = {}
    files = []
    for path, data in (
        ("static/img/logo.png", LOGO),
        ("static/img/uploads/행사 사진.gif", PHOTO),
        ("docs/img/stray.png", STRAY),
        ("static/css/site.css", b"body{}"),
    ):
        sha = git_blob_sha(data)
        blobs[sha] = data
        files.append(TreeEntry(path, sha, size=len(data)))
    pages = []
    for path, (title, text) in texts.items():
        sha = git_blob_sha(text.encode())
        blobs[sha] = text.encode()
        pages.append(Page(path[5:-3], path, sha, title))
        files.append(TreeEntry(path, sha, size=len(text.encode())))
    return files, pages, blobs


TEXTS = {
    "docs/01-intro.md": ("소개", "# 소개\n![로고](/img/logo.png)\n![없는 그림](/img/gone.png)\n"),
    "docs/sub/02-events.md": (
        "행사",
        "---\ntitle: 행사\nimage: /img/logo.png\n---\n"
        "![사진](../../static/img/uploads/행사%20사진.gif)\n"
        ":::hero\nimage: /img/logo.png\n:::\n",
    ),
}


def test_every_picture_with_its_sizes_and_pages() -> None:
    files, pages, blobs = _listing(TEXTS)
    library = build_library(files, pages, blobs.get)
    assert [p.path for p in library.pictures] == [
        "docs/img/stray.png",
        "static/img/logo.png",
        "static/img/uploads/행사 사진.gif",
    ]  # only pictures, not the stylesheet
    logo = library.find("static/img/logo.png")
    assert logo is not None
    assert logo.size == len(LOGO) and logo.pixels == PixelSize(200, 100)
    intro = PageRef("01-intro", "소개", "docs/01-intro.md")
    events = PageRef("sub/02-events", "행사", "docs/sub/02-events.md")
    assert logo.pages == (intro, events)  # each page once, in the list's order
    assert [r.use.kind for r in logo.references] == ["markdown", "front-matter", "field"]
    photo = library.find("static/img/uploads/행사 사진.gif")
    assert photo is not None and photo.pages == (events,) and photo.pixels == PixelSize(640, 480)
    assert [p.path for p in library.unused] == ["docs/img/stray.png"]
    assert [(m.path, m.pages) for m in library.missing] == [("static/img/gone.png", (intro,))]


def test_nothing_is_read_that_is_not_in_the_cache() -> None:
    files, pages, blobs = _listing(TEXTS)
    cached = {sha: data for sha, data in blobs.items() if data not in (LOGO, PHOTO)}
    asked: list[str] = []

    def read(sha: str) -> bytes | None:
        asked.append(sha)
        return cached.get(sha)

    library = build_library(files, pages, read)
    logo = library.find("static/img/logo.png")
    assert logo is not None and logo.pixels is None and logo.used  # the pages were read
    assert set(library.missing_pixels()) == {git_blob_sha(LOGO), git_blob_sha(PHOTO)}
    filled = library.with_pixels({git_blob_sha(LOGO): LOGO})
    assert filled.find("static/img/logo.png").pixels == PixelSize(200, 100)  # type: ignore[union-attr]
    assert len(asked) == len(set(asked))  # each blob once


def test_search_duplicates_and_references() -> None:
    files, pages, blobs = _listing(TEXTS)
    library = build_library(files, pages, blobs.get)
    assert [p.name for p in library.search("행사")] == ["행사 사진.gif"]
    assert [p.name for p in library.search("LOGO")] == ["logo.png"]
    assert [p.name for p in library.search("uploads/")] == ["행사 사진.gif"]
    assert library.search("") == library.pictures
    same = library.same_as(PHOTO)
    assert same is not None and same.path == "static/img/uploads/행사 사진.gif"
    assert library.same_as(b"new bytes") is None
    refs = library.references_to("static/img/uploads/행사 사진.gif")
    assert [(page.doc_id, old) for page, _use, old in refs] == [
        ("sub/02-events", "../../static/img/uploads/행사%20사진.gif")
    ]
    # what a rename will do with them: every place rewritten, every other byte kept
    page, use, _old = refs[0]
    text = TEXTS[page.path][1]
    out = rewrite_references(
        text, "static/img/uploads/행사 사진.gif", "static/img/uploads/event.gif", doc_path=page.path
    )
    assert out == text.replace("행사%20사진.gif", "event.gif")
    assert text[use.start : use.end] == use.written


def test_a_picture_in_use_is_not_deleted_and_the_pages_are_named() -> None:
    files, pages, blobs = _listing(TEXTS)
    library = build_library(files, pages, blobs.get)
    refusal = library.deletion_refusal("static/img/logo.png")
    assert refusal is not None
    assert refusal.en == (
        "logo.png cannot be deleted: it is still used on ‘소개’, ‘행사’. Take it out of those "
        "pages first."
    )
    assert in_lang("ko", refusal) == (
        "logo.png 그림은 ‘소개’, ‘행사’ 문서에서 쓰고 있어 지울 수 없습니다. "
        "먼저 그 문서에서 그림을 빼 주세요."
    )
    assert library.deletion_refusal("docs/img/stray.png") is None


def _client(sb: Any) -> GitHubClient:
    return GitHubClient(sb.api_url, "tok-editor1", RepoRef("pnuai", "PNU-Modu", "main"))


def test_the_practice_site_library_costs_no_request(sandbox: Any, tmp_path: Path) -> None:
    async def go() -> Any:
        async with _client(sandbox) as gh:
            store = DocumentStore(gh, tmp_path / "blobs")
            await store.refresh()
            sandbox.reset_stats()
            library = library_from_store(store)
            built = sandbox.stats()["total"]
            with_pixels = await load_pixels(store, library)
            fetched = sandbox.stats()["total"]
            again = await load_pixels(store, library_from_store(store))
            return library, built, with_pixels, fetched, again, sandbox.stats()["total"]

    library, built, with_pixels, fetched, again, total = asyncio.run(go())
    assert built == 0  # the listing and the cache hold everything
    assert {p.path for p in library.pictures} == {
        "static/img/modu-logo.png",
        "static/img/sample-photo.png",
    }
    assert all(p.pixels is None for p in library.pictures)  # pictures were never read
    assert fetched == 2 and all(p.pixels is not None for p in with_pixels.pictures)
    assert total == fetched and all(p.pixels is not None for p in again.pictures)  # cached
    logo = library.find("static/img/modu-logo.png")
    assert logo is not None and [p.doc_id for p in logo.pages] == ["05-sandbox-notes"]
    assert library.unused == () and library.missing == ()


def test_deleting_through_the_sandbox(sandbox: Any, tmp_path: Path) -> None:
    async def go() -> Any:
        async with _client(sandbox) as gh:
            await gh.put_file("static/img/uploads/spare.png", STRAY, "add a spare")
            store = DocumentStore(gh, tmp_path / "blobs")
            await store.refresh()
            library = library_from_store(store)
            before = len(sandbox.commits())
            refused = await delete_picture(gh, library, "static/img/modu-logo.png")
            after_refusal = len(sandbox.commits())
            deleted = await delete_picture(gh, library, "static/img/uploads/spare.png")
            unknown = await delete_picture(gh, library, "static/img/none.png")
            return before, refused, after_refusal, deleted, unknown

    before, refused, after_refusal, deleted, unknown = asyncio.run(go())
    assert not refused.ok and after_refusal == before  # nothing sent
    assert "cannot be deleted" in refused.text.en and "‘" in refused.text.en
    assert deleted.ok and deleted.commit_sha and deleted.user_message() == "Deleted spare.png."
    assert sandbox.read_file("static/img/uploads/spare.png") is None
    assert sandbox.read_file("static/img/modu-logo.png") is not None
    assert not unknown.ok
