"""Undoing a change of many pages as one, and a picture renamed (or made smaller) in one commit,
on the sandbox: the history tells each as one change, the undo is one commit under the same
rules (a page changed since or held by someone else is left out and named), a rename moves
the picture and rewrites every page naming it together or not at all."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.changes import words
from modu_desktop.core.changes.outcome import ChangeState, PageReason
from modu_desktop.core.changes.pictures import (
    Refusal,
    RenameRefused,
    rename_picture,
    shrink_picture,
)
from modu_desktop.core.changes.send import send_change
from modu_desktop.core.changes.undo import NothingBefore, prepare_undo
from modu_desktop.core.documents.history import DocHistory, describe
from modu_desktop.core.search.apply import plan_across_pages, replace_across_pages
from modu_desktop.core.workspace import Workspace
from tests.helpers.many_pages import YEAR_PAGES, add_pages, client, indexed, text_of, workspace
from tests.helpers.pictures import png
from tests.helpers.webadmin_peer import HttpWebAdminApi, WebAdminPeer


async def _replaced(ws: Workspace) -> str:
    index = await indexed(ws)
    snap = ws.store.snapshot
    assert snap is not None
    plan = await plan_across_pages(index, ws.locks, snap.locks, "2025학년도", "2026학년도")
    out = await replace_across_pages(ws.client, plan, ws.editor)
    assert out.commit_sha is not None
    return out.commit_sha


async def _undo(ws: Workspace, sha: str) -> Any:
    await ws.store.refresh()
    prepared = await prepare_undo(ws.client, sha, ws.store.read_blob, title_of=_title(ws))
    return await send_change(ws.client, prepared, ws.editor, read_blob=ws.store.read_blob)


def _title(ws: Workspace) -> Any:
    def title_of(path: str) -> str:
        snap = ws.store.snapshot
        doc = next((d for d in snap.docs if d.path == path), None) if snap else None
        return doc.title if doc is not None else path.rsplit("/", 1)[-1]

    return title_of


def test_the_history_tells_a_replacement_as_one_change_and_undoes_it_as_one(
    sandbox: Any, tmp_path: Path
) -> None:
    add_pages(sandbox, YEAR_PAGES)

    async def body() -> None:
        async with client(sandbox) as gh:
            ws = workspace(gh, tmp_path, queue=False)
            sha = await _replaced(ws)
            sandbox.reset_stats()
            out = await _undo(ws, sha)
            assert out.state is ChangeState.COMMITTED and out.complete and len(out.pages) == 3
            assert words.headline(out)("ko").startswith(
                "되돌림: 3개 문서에서 ‘2025학년도’ → ‘2026학년도’"
            )
            history = DocHistory(gh, ws.store)
            latest, replaced = (await history.versions("docs/12-calendar.md"))[:2]
            assert describe(replaced)("ko") == "3개 문서에서 ‘2025학년도’ → ‘2026학년도’"
            assert describe(latest)("ko") == "되돌림: 3개 문서에서 ‘2025학년도’ → ‘2026학년도’"
            trees = sandbox.stats()["by_route"]["GET /repos/{owner}/{repo}/git/trees/{tree_sha}"]
            assert trees <= 6  # what changed is read folder by folder: the root and docs/
            for path, text in YEAR_PAGES.items():
                assert text_of(sandbox, path) == text
            top = sandbox.commits()[0]
            assert top["message"].splitlines()[0] == (
                "docs(edit): undo replace “2025학년도” → “2026학년도” in 3 pages by @editor1"
            )
            again = await _undo(ws, top["sha"])  # undoing the undo makes the change again
            assert words.headline(again)("ko") == (
                "3개 문서에서 ‘2025학년도’ → ‘2026학년도’: 한 번에 저장했습니다."
            )

    asyncio.run(body())
    top = sandbox.commits()[0]["message"].splitlines()[0]
    assert top == "docs(edit): replace “2025학년도” → “2026학년도” in 3 pages by @editor1"
    assert "**2026**" in (text_of(sandbox, "docs/11-scholarship.md") or "")


def test_an_undo_leaves_out_pages_changed_since_or_held_and_names_them(
    sandbox: Any, tmp_path: Path
) -> None:
    add_pages(sandbox, YEAR_PAGES)
    theirs = YEAR_PAGES["docs/12-calendar.md"].replace("2025", "2026") + "- 방학\n"

    async def body() -> None:
        async with (
            client(sandbox) as gh,
            client(sandbox, "editor2") as other,
            HttpWebAdminApi(sandbox.api_url, "tok-editor2", "pnuai", "PNU-Modu") as web,
        ):
            ws = workspace(gh, tmp_path, queue=False)
            sha = await _replaced(ws)
            now = await other.get_contents("docs/12-calendar.md")
            await other.put_file("docs/12-calendar.md", theirs.encode(), "docs: x", sha=now.sha)
            assert (await WebAdminPeer(web, "editor2").open("10-guide")).outcome == "acquired"
            out = await _undo(ws, sha)
            assert [p.title for p in out.pages] == ["장학금"]
            reasons = {n.title: n.reason for n in out.left_out}
            assert reasons == {"입학 안내": PageReason.HELD, "학사 일정": PageReason.CHANGED}
            assert "되돌림: 1개 문서에서" in words.headline(out)("ko")

    asyncio.run(body())
    assert text_of(sandbox, "docs/12-calendar.md") == theirs
    assert "2026학년도" in (text_of(sandbox, "docs/10-guide.md") or "")
    assert text_of(sandbox, "docs/11-scholarship.md") == YEAR_PAGES["docs/11-scholarship.md"]


def test_the_first_commit_has_nothing_to_go_back_to(sandbox: Any, tmp_path: Path) -> None:
    first = sandbox.commits()[-1]["sha"]

    async def body() -> None:
        async with client(sandbox) as gh:
            ws = workspace(gh, tmp_path, queue=False)
            with pytest.raises(NothingBefore):
                await prepare_undo(gh, first, ws.store.read_blob)

    asyncio.run(body())


PHOTO = "static/img/sample-photo.png"
PAGE = "docs/04-admission.md"


def test_a_picture_renamed_moves_with_every_reference_in_one_commit_and_undoes_as_one(
    sandbox: Any, tmp_path: Path
) -> None:
    photo, page = sandbox.read_file(PHOTO), text_of(sandbox, PAGE)
    assert photo is not None and page is not None

    async def body() -> None:
        async with client(sandbox) as gh:
            ws = workspace(gh, tmp_path, queue=False)
            await ws.store.refresh()
            out = await rename_picture(gh, ws.store, PHOTO, "캠퍼스 사진", ws.editor)
            assert not isinstance(out, RenameRefused)
            assert out.state is ChangeState.COMMITTED and out.complete
            assert [p.title for p in out.pages] == ["모집 안내와 현황"]
            assert out.commit_sha is not None
            assert "그림 이름 sample-photo.png → 캠퍼스-사진.png (1개 문서)" in words.headline(out)(
                "ko"
            )
            undone = await _undo(ws, out.commit_sha)
            assert undone.state is ChangeState.COMMITTED and undone.complete

    asyncio.run(body())
    renamed, undo = (c["message"].splitlines()[0] for c in sandbox.commits()[1::-1])
    assert renamed == (
        "docs(edit): rename picture sample-photo.png → 캠퍼스-사진.png in 1 page by @editor1"
    )
    assert undo.startswith("docs(edit): undo rename picture sample-photo.png")
    assert sandbox.read_file(PHOTO) == photo and text_of(sandbox, PAGE) == page
    assert sandbox.read_file("static/img/캠퍼스-사진.png") is None
    renamed_page = sandbox.read_file(PAGE, ref=sandbox.commits()[1]["sha"]).decode()
    assert "![연습용 사진](/img/캠퍼스-사진.png)" in renamed_page


def test_a_rename_is_refused_before_anything_is_sent_or_stopped_whole(
    sandbox: Any, tmp_path: Path
) -> None:
    before = sandbox.commits()[0]["sha"]

    async def body() -> None:
        async with (
            client(sandbox) as gh,
            HttpWebAdminApi(sandbox.api_url, "tok-editor2", "pnuai", "PNU-Modu") as web,
        ):
            ws = workspace(gh, tmp_path, queue=False)
            await ws.store.refresh()
            taken = await rename_picture(gh, ws.store, PHOTO, "Modu-Logo.PNG", ws.editor)
            assert isinstance(taken, RenameRefused) and taken.reason is Refusal.EXISTS
            assert taken.text("ko") == "modu-logo.png 파일이 이미 있습니다."
            gone = await rename_picture(gh, ws.store, "static/img/none.png", "x", ws.editor)
            assert isinstance(gone, RenameRefused) and gone.reason is Refusal.MISSING
            out = await rename_picture(gh, ws.store, PHOTO, "../../etc/x.png", ws.editor)
            assert isinstance(out, RenameRefused) and out.reason is Refusal.OUTSIDE
            assert sandbox.commits()[0]["sha"] == before
            # The page that shows it is being edited: the rename goes whole or not at all.
            assert (await WebAdminPeer(web, "editor2").open("04-admission")).outcome == "acquired"
            held = await rename_picture(gh, ws.store, PHOTO, "campus", ws.editor)
            assert not isinstance(held, RenameRefused) and held.state is ChangeState.STOPPED
            (note,) = held.left_out
            assert note.reason is PageReason.HELD and note.holder == "editor2"
            assert "함께 바꾸거나 모두 그대로" in words.headline(held)("ko")

    asyncio.run(body())
    commits = sandbox.commits()
    assert not any("rename picture" in c["message"] for c in commits)
    assert sandbox.read_file(PHOTO) is not None


def test_a_smaller_picture_is_a_new_version_at_the_same_path(sandbox: Any, tmp_path: Path) -> None:
    original = sandbox.read_file(PHOTO)
    assert original is not None
    smaller = png(8, 6)

    async def body() -> None:
        async with client(sandbox) as gh:
            ws = workspace(gh, tmp_path, queue=False)
            snap = await ws.store.refresh()
            sha = next(e.sha for e in snap.images if e.path == PHOTO)
            wrong = await shrink_picture(gh, PHOTO, sha, smaller, 1600, ws.editor)
            assert isinstance(wrong, RenameRefused) and wrong.reason is Refusal.NOT_SMALLER
            out = await shrink_picture(gh, PHOTO, sha, smaller, 8, ws.editor)
            assert not isinstance(out, RenameRefused) and out.state is ChangeState.COMMITTED
            assert words.headline(out)("ko").startswith("그림 sample-photo.png의 가로를 8px로")

    asyncio.run(body())
    assert sandbox.read_file(PHOTO) == smaller
    assert sandbox.read_file(PHOTO, ref=sandbox.commits()[1]["sha"]) == original  # in history
    assert sandbox.commits()[0]["message"].startswith(
        "docs(edit): shrink picture sample-photo.png to 8 px by @editor1"
    )
