"""A change of many pages (a replacement across pages, a picture's rename) is one commit, and
the status bar tells its publishing as one: "“비전과 추진 전략” 외 1개 문서: 게시 대기 중" — the
open page named first when it is one of them — followed by one build follower for the one
commit, until every page of it is published together."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from modu_desktop import i18n
from modu_desktop.core.changes.outcome import PageDone
from modu_desktop.ui.publish.landed_pages import WindowPages

COMMIT = "c0ffee"
PAGES = ("03-strategy", "05-sandbox-notes")


@dataclass
class Run:
    status: str
    conclusion: str | None = None
    head_sha: str = COMMIT
    id: int = 7


@pytest.fixture(autouse=True)
def _korean() -> Iterator[None]:
    i18n.set_language("ko")
    yield
    i18n.set_language("en")


def _landed_together(win: Any) -> None:
    """What the replace review does once its one commit landed: each page of it, as it is."""
    docs = {d.doc_id: d for d in win.ctx.store.snapshot.docs}
    pages = [PageDone(docs[i].path, docs[i].title, docs[i].sha, None, i) for i in PAGES]
    WindowPages(win).landed(pages, COMMIT)


def _answering(win: Any, *answers: list[Run]) -> list[str]:
    asked: list[str] = []
    left = list(answers)

    async def runs(sha: str) -> list[Run]:
        asked.append(sha)
        return left.pop(0) if left else [Run("completed", "success")]

    win.ctx.client.workflow_runs = runs
    return asked


def test_the_status_bar_tells_a_change_of_many_pages_as_one_until_all_are_published(
    make_window: Any, qtbot: Any
) -> None:
    win = make_window(lang="ko", deploy_poll_s=0.05)
    asked = _answering(win, [Run("queued")], [Run("in_progress")])
    _landed_together(win)
    first = win.label(PAGES[0])
    assert win.status_deploy.text() == f"“{first}” 외 1개 문서: 게시 대기 중"
    qtbot.waitUntil(lambda: "게시됨" in win.status_deploy.text(), timeout=5000)
    assert win.status_deploy.text() == f"“{first}” 외 1개 문서: ✔ 게시됨"
    qtbot.waitUntil(lambda: not win.deploy.following(), timeout=5000)
    assert asked == [COMMIT] * 3  # one follower for the one commit, one question per look
    board = win.board
    assert all(board.status(p).publishing.value == "published" for p in PAGES)


def test_the_open_page_of_the_change_is_named_first(make_window: Any, ui: Any, qtbot: Any) -> None:
    win = make_window(lang="ko", deploy_poll_s=0.05)
    _answering(win, [Run("queued")])
    assert ui.run(win.open_document(PAGES[1]))
    _landed_together(win)
    shown = win.label(PAGES[1])
    assert win.status_deploy.text() == f"“{shown}” 외 1개 문서: 게시 대기 중"
    qtbot.waitUntil(lambda: "게시됨" in win.status_deploy.text(), timeout=5000)
    assert ui.run(win.close_document(interactive=False))
