"""New pages and copies are not published until someone says so: draft: true on creation,
게시하기 takes exactly that line out, a copy gets its own title, place and address, and the
practice site leaves an unpublished page out as the real build does."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from modu_desktop import i18n
from modu_desktop.core.brochure.unpublished import is_unpublished, published, unpublished
from modu_desktop.core.docops.newdoc import (
    CopySuggestion,
    NewDocRequest,
    copy_text,
    copy_title,
    next_free_position,
    suggest_copy,
)
from modu_desktop.core.docops.result import OpCode
from modu_desktop.core.documents.store import DocSummary
from modu_desktop.core.publish.site import document_page_url
from tests.helpers.docops import ops_for


def _doc(doc_id: str, position: int | None, title: str, front_id: str | None = None) -> DocSummary:
    return DocSummary(doc_id, f"docs/{doc_id}.md", "0" * 40, title, position=position,
                      front_id=front_id)  # fmt: skip


DOCS = [
    _doc("01-welcome", 1, "환영합니다", "welcome"),
    _doc("02-programs", 2, "교육 프로그램", "programs"),
    _doc("03-strategy", 3, "추진 전략"),
    _doc("05-notes", 5, "메모"),
    _doc("99-template", 99, "템플릿"),
    _doc("guide/01-intro", 1, "안내"),  # in a folder: its own menu
]


def test_the_draft_line_is_added_and_taken_out_and_nothing_else_moves() -> None:
    text = "\ufeff---\r\nid: a\r\ntitle: '제목: 부제'\r\nhide_title: true\r\n---\r\n\r\n본문\r\n"
    draft = unpublished(text)
    assert draft == text.replace("hide_title: true\r\n", "hide_title: true\r\ndraft: true\r\n")
    assert is_unpublished(draft) and not is_unpublished(text)
    assert unpublished(draft) == draft and published(draft) == text and published(text) == text
    # js-yaml reads only true as true: "yes" is not a draft for the site, so not for us either
    assert not is_unpublished("---\ndraft: yes\n---\n")
    assert is_unpublished("---\ndraft: True\n---\n") and is_unpublished('---\ndraft: "true"\n---\n')


def test_new_pages_are_unpublished_and_imports_keep_their_own_word() -> None:
    assert is_unpublished(NewDocRequest("camp", "캠프", 6).render())
    assert not is_unpublished(NewDocRequest("camp", "캠프", 6, draft=False).render())
    base = "---\ntitle: 가져온 글\n---\n\n본문\n"
    imported = NewDocRequest("news", "소식", 7, base_text=base, draft=False).render()
    assert not is_unpublished(imported)


def test_a_copy_is_told_apart_and_goes_to_the_next_free_place() -> None:
    i18n.set_language("ko")
    text = "---\nid: programs\ntitle: 교육 프로그램\nsidebar_position: 2\n---\n\n본문\n"
    s = suggest_copy(text, "02-programs", DOCS)
    assert s == CopySuggestion("교육 프로그램 (사본)", 4, "programs-copy")
    taken = [*DOCS, _doc("04-programs-copy", 4, "교육 프로그램 (사본)", "programs-copy")]
    assert suggest_copy(text, "02-programs", taken) == CopySuggestion(
        "교육 프로그램 (사본 2)", 6, "programs-copy-2"
    )
    assert copy_title("메모", ["메모 (사본)", "메모 (사본 2)"]) == "메모 (사본 3)"
    assert next_free_position(DOCS) == 100  # after the last one
    assert next_free_position(DOCS, 3) == 4 and next_free_position(DOCS, 4) == 6
    copied = copy_text(text, s)
    assert copied == (
        "---\nid: programs-copy\ntitle: 교육 프로그램 (사본)\nsidebar_position: 4\n"
        "draft: true\n---\n\n본문\n"
    )


def test_an_unpublished_page_has_no_address_on_the_site() -> None:
    text = "---\nid: camp\ntitle: 캠프\ndraft: true\n---\n본문"
    assert (
        document_page_url("https://api.github.com", "pnuai", "PNU-Modu", "docs/06-camp.md", text)
        is None
    )
    assert (
        document_page_url(
            "https://api.github.com", "pnuai", "PNU-Modu", "docs/06-camp.md", published(text)
        )
        == "https://pnuai.github.io/PNU-Modu/docs/camp"
    )


async def _deployed(ops: Any, commit: str) -> None:
    for _ in range(500):
        runs = await ops.store.client.workflow_runs(commit)
        if runs and runs[0].status == "completed":
            assert runs[0].conclusion == "success"
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the practice deploy did not finish")


def test_the_practice_site_leaves_an_unpublished_page_out_like_the_real_build(
    sandbox: Any, tmp_path: Path
) -> None:
    sandbox.workflow.queue_seconds, sandbox.workflow.run_seconds = 0.0, 0.05
    url = f"{sandbox.api_url}/_sandbox/site/docs/camp"

    async def body() -> None:
        async with ops_for(sandbox, tmp_path) as ops:
            made = await ops.create(NewDocRequest("camp", "캠프", 6), keep_lock=False)
            assert made.ok and made.commits
            await _deployed(ops, made.commits[-1])
            async with httpx.AsyncClient() as web:
                assert (await web.get(url)).status_code == 404
                done = await ops.publish("06-camp")
                assert done.code is OpCode.PUBLISHED and done.commits
                await _deployed(ops, done.commits[0])
                page = await web.get(url)
                assert page.status_code == 200 and "캠프" in page.text

    asyncio.run(body())
