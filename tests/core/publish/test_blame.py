"""Which page stopped the build: the file the log names → the document, its title, and who
changed it last (as of the failed build) and when."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from modu_desktop.core.documents.history import Version
from modu_desktop.core.publish.blame import broken_pages
from modu_desktop.core.publish.failure import BrokenFile, DeployFailure


@dataclass
class Doc:
    doc_id: str
    path: str
    title: str
    front_id: str | None = None


DOCS = [
    Doc("03-strategy", "docs/03-strategy.md", "비전과 추진 전략", "strategy"),
    Doc("05-notes", "docs/05-notes.md", "자유 연습장"),
]


class History:
    def __init__(self, versions: dict[str, list[Version]]) -> None:
        self.by_path = versions
        self.asked: list[tuple[str, str | None]] = []

    async def versions(self, path: str, *, limit: int | None = None, at: str | None = None):
        self.asked.append((path, at))
        return self.by_path.get(path, [])[:limit]


def _failure(*files: BrokenFile) -> DeployFailure:
    return DeployFailure(1, None, "Build website", (), files=files)


def _pages(failure: DeployFailure, history: Any) -> Any:
    return asyncio.run(broken_pages(failure, docs=DOCS, history=history, at="head1"))


def test_the_logged_file_becomes_the_page_with_its_last_saver() -> None:
    history = History(
        {
            "docs/03-strategy.md": [
                Version(
                    "c9",
                    "docs(edit): update 03-strategy.md by @kim",
                    "kim",
                    "Kim",
                    "2026-12-01T13:10:00Z",
                )
            ]
        }
    )
    logged = BrokenFile("/home/runner/work/R/R/docs/03-strategy.md", 42, 4, "cause")
    (page,) = _pages(_failure(logged), history)
    assert (page.doc_id, page.title, page.line, page.column) == (
        "03-strategy",
        "비전과 추진 전략",
        42,
        4,
    )
    assert page.saved_by == "kim" and page.commit_sha == "c9"
    assert page.saved_at == 1_796_130_600.0  # 2026-12-01 13:10 UTC
    assert history.asked == [("docs/03-strategy.md", "head1")]  # as of the failed build


def test_the_saver_comes_from_the_message_when_github_knows_no_account() -> None:
    history = History(
        {
            "docs/05-notes.md": [
                Version("c1", "docs(edit): update 05-notes.md by @lee", None, "이", None)
            ]
        }
    )
    (page,) = _pages(_failure(BrokenFile("docs/05-notes.md")), history)
    assert page.saved_by == "lee" and page.saved_at is None


def test_a_page_address_is_matched_to_its_document() -> None:
    (page,) = _pages(_failure(BrokenFile(None, route="/PNU-Modu/docs/strategy/")), History({}))
    assert page.doc_id == "03-strategy" and page.saved_by is None


def test_a_file_the_list_does_not_know_is_still_named_and_history_errors_are_kept_quiet() -> None:
    class Broken(History):
        async def versions(self, path: str, *, limit: int | None = None, at: str | None = None):
            raise OSError("offline")

    (page,) = _pages(_failure(BrokenFile("/w/R/R/docs/new/page.md", 3, 1)), Broken({}))
    assert page.path == "docs/new/page.md" and page.doc_id is None and page.label == "page.md"
