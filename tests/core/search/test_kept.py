"""The search index's pages kept on disk by blob sha (core/search/kept.py): a later start reads
them back instead of reading every page again; a damaged or outdated file is read again."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.search import index as index_module
from modu_desktop.core.search import kept as kept_module
from modu_desktop.core.search.index import SearchIndex
from modu_desktop.core.search.kept import KeptPages
from modu_desktop.core.search.model import SearchOptions
from tests.helpers.search_pages import ADMISSION, PLAIN


@dataclass(frozen=True)
class Doc:
    doc_id: str
    path: str
    sha: str
    title: str


def _repo(pages: dict[str, bytes]) -> tuple[list[Doc], dict[str, bytes]]:
    blobs = {git_blob_sha(data): data for data in pages.values()}
    docs = [Doc(d, f"docs/{d}.md", git_blob_sha(data), d) for d, data in pages.items()]
    return docs, blobs


def _counting(monkeypatch: Any) -> list[str]:
    reads: list[str] = []
    real = index_module.read_page

    def counted(text: str) -> Any:
        reads.append(text)
        return real(text)

    monkeypatch.setattr(index_module, "read_page", counted)
    return reads


def test_a_later_start_reads_the_kept_pages_instead_of_the_pages(
    tmp_path: Path, monkeypatch: Any
) -> None:
    docs, blobs = _repo({"a": ADMISSION.encode(), "b": PLAIN.encode()})
    reads = _counting(monkeypatch)
    first = SearchIndex(blobs.get, KeptPages(tmp_path / "kept"))
    assert first.update(docs).read == 2
    later = SearchIndex(blobs.get, KeptPages(tmp_path / "kept"))
    done = later.update(docs)
    assert (done.read, done.loaded) == (0, 2) and len(reads) == 2
    for query, options in [("2025학년도", SearchOptions()), ("Student", SearchOptions(True))]:
        assert later.search(query, options) == first.search(query, options)


def test_a_damaged_or_outdated_kept_page_is_read_again(tmp_path: Path, monkeypatch: Any) -> None:
    docs, blobs = _repo({"a": ADMISSION.encode(), "b": PLAIN.encode()})
    kept = KeptPages(tmp_path / "kept")
    SearchIndex(blobs.get, kept).update(docs)
    files = sorted((tmp_path / "kept").rglob("*.json"))
    assert len(files) == 2
    files[0].write_bytes(files[0].read_bytes()[:40])  # torn
    monkeypatch.setattr(kept_module, "VERSION", kept_module.VERSION + 1)
    reads = _counting(monkeypatch)
    assert SearchIndex(blobs.get, kept).update(docs).read == 2
    assert len(reads) == 2


def test_text_that_is_not_utf8_and_every_place_field_survive(tmp_path: Path) -> None:
    broken = ADMISSION.encode() + b"\n\xff\xfe \xec\x95\x88\xeb\x82\xb4\n"
    docs, blobs = _repo({"a": broken})
    kept = KeptPages(tmp_path / "kept")
    fresh = SearchIndex(blobs.get, kept)
    fresh.update(docs)
    again = SearchIndex(blobs.get, kept)
    assert again.update(docs).loaded == 1
    assert again.search("안내") == fresh.search("안내")
    assert again.search("2025 특강").pages[0].hits[0].place.column_name == "과정"
    (stored,) = (tmp_path / "kept").rglob("*.json")
    assert json.loads(stored.read_text("utf-8", "surrogatepass"))["version"] == 1


def test_pages_no_longer_listed_can_be_pruned(tmp_path: Path) -> None:
    docs, blobs = _repo({"a": ADMISSION.encode(), "b": PLAIN.encode()})
    kept = KeptPages(tmp_path / "kept")
    SearchIndex(blobs.get, kept).update(docs)
    assert kept.prune({docs[0].sha}) == 1
    assert kept.get(docs[0].sha) is not None and kept.get(docs[1].sha) is None
    assert kept.get("not a sha") is None
