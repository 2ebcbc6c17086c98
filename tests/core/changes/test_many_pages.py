"""A replacement across pages from the plan to one commit, on the sandbox: the commit the web
admin reads, a lock taken between review and commit, a commit racing another writer, a network
cut in the middle (the whole change waits in the save queue as one item and is sent exactly
once), a lock taken or a page saved while it waits, an answer lost after the commit — nothing
overwritten, nothing lost, each told in plain words."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from modu_desktop.core.changes import words
from modu_desktop.core.changes.outcome import ChangeState, PageReason
from modu_desktop.core.changes.send import outcome_of_item
from modu_desktop.core.github.client import GitHubClient
from modu_desktop.core.search.apply import plan_across_pages, replace_across_pages
from modu_desktop.core.workspace import Workspace
from tests.helpers.many_pages import (
    TITLES,
    YEAR_PAGES,
    Switch,
    add_pages,
    client,
    indexed,
    text_of,
    workspace,
)
from tests.helpers.webadmin_peer import HttpWebAdminApi, WebAdminPeer

SUBJECT = "docs(edit): replace “2025학년도” → “2026학년도” in {n} pages by @editor1"


def _replace_commits(sb: Any) -> list[dict[str, Any]]:
    return [c for c in sb.commits() if "replace “2025학년도”" in c["message"]]


async def _plan(ws: Workspace) -> Any:
    index = await indexed(ws)
    snap = ws.store.snapshot
    assert snap is not None
    return await plan_across_pages(index, ws.locks, snap.locks, "2025학년도", "2026학년도")


async def _replace(ws: Workspace, plan: Any) -> Any:
    return await replace_across_pages(ws.client, plan, ws.editor, spool=ws.spool)


def test_three_pages_change_in_one_commit_that_the_web_admin_reads(
    sandbox: Any, tmp_path: Path
) -> None:
    add_pages(sandbox, YEAR_PAGES)

    async def body() -> None:
        async with (
            client(sandbox) as gh,
            HttpWebAdminApi(sandbox.api_url, "tok-editor2", "pnuai", "PNU-Modu") as web,
        ):
            ws = workspace(gh, tmp_path)
            plan = await _plan(ws)
            out = await _replace(ws, plan)
            assert out.state is ChangeState.COMMITTED and out.complete
            assert sorted(p.title for p in out.pages) == sorted(TITLES.values())
            for page in out.pages:  # the new blob and text an open editor builds on
                assert page.text is not None and "2025" not in page.text and "2026" in page.text
            # The web admin reads through the Contents API: it sees the new texts.
            found = await web.read_contents("docs/11-scholarship.md")
            assert found is not None
            assert found[1].decode() == YEAR_PAGES["docs/11-scholarship.md"].replace(
                "**2025**", "**2026**"
            )
            assert len(await gh.workflow_runs(out.commit_sha)) == 1  # one deploy

    asyncio.run(body())
    (commit,) = _replace_commits(sandbox)
    assert commit["message"].splitlines()[0] == SUBJECT.format(n=3)
    assert text_of(sandbox, "docs/12-calendar.md") == YEAR_PAGES["docs/12-calendar.md"].replace(
        "2025", "2026"
    )


def test_a_lock_taken_between_review_and_commit_keeps_that_page_out_and_says_who(
    sandbox: Any, tmp_path: Path
) -> None:
    add_pages(sandbox, YEAR_PAGES)

    async def body() -> None:
        async with (
            client(sandbox) as gh,
            HttpWebAdminApi(sandbox.api_url, "tok-editor2", "pnuai", "PNU-Modu") as web,
        ):
            ws = workspace(gh, tmp_path)
            plan = await _plan(ws)
            assert not plan.left_out  # nobody held anything when it was reviewed
            tab = WebAdminPeer(web, "editor2")
            assert (await tab.open("11-scholarship")).outcome == "acquired"
            out = await _replace(ws, plan)
            assert out.state is ChangeState.COMMITTED and not out.complete
            (note,) = out.left_out
            assert note.reason is PageReason.HELD and note.title == "장학금"
            assert note.holder == "editor2" and note.since == tab.started_at
            said = words.left_out(note, ws.server_now())("ko")
            assert "장학금" in said and "editor2" in said and "바꾸지 않았습니다" in said
            assert "한 번에 저장했습니다" in words.headline(out)("ko")

    asyncio.run(body())
    assert text_of(sandbox, "docs/11-scholarship.md") == YEAR_PAGES["docs/11-scholarship.md"]
    (commit,) = _replace_commits(sandbox)
    assert commit["message"].splitlines()[0] == SUBJECT.format(n=2)


class Racing(GitHubClient):
    """Another person's commit lands just before our first branch update."""

    other: GitHubClient | None = None

    async def update_ref(self, branch: str, sha: str, *, force: bool = False) -> str:
        if self.other is not None:
            other, self.other = self.other, None
            await other.put_file("docs/13-theirs.md", b"# theirs\n", "docs: theirs")
        return await super().update_ref(branch, sha, force=force)


def test_a_commit_racing_another_writer_keeps_both(sandbox: Any, tmp_path: Path) -> None:
    add_pages(sandbox, YEAR_PAGES)

    async def body() -> None:
        async with (
            Racing(sandbox.api_url, "tok-editor1", client(sandbox).repo) as gh,
            client(sandbox, "editor2") as other,
        ):
            ws = workspace(gh, tmp_path)
            plan = await _plan(ws)
            gh.other = other
            out = await _replace(ws, plan)
            assert out.state is ChangeState.COMMITTED and out.complete and len(out.pages) == 3

    asyncio.run(body())
    top, theirs = sandbox.commits()[:2]
    assert theirs["message"] == "docs: theirs" and top["parents"] == [theirs["sha"]]
    assert text_of(sandbox, "docs/13-theirs.md") == "# theirs\n"
    assert sandbox.stats()["branch_moved"] == 1


def test_a_network_cut_in_the_middle_queues_the_whole_change_as_one_item_sent_once(
    sandbox: Any, tmp_path: Path
) -> None:
    add_pages(sandbox, YEAR_PAGES)
    before = sandbox.commits()[0]["sha"]
    net = Switch()

    async def body() -> None:
        async with client(sandbox, transport=net) as gh:
            ws = workspace(gh, tmp_path)
            plan = await _plan(ws)
            net.cut_after = 4  # head read (ref, commit, tree), the tree made; then nothing
            out = await _replace(ws, plan)
            assert out.state is ChangeState.QUEUED and out.waiting == 3
            assert "GitHub에 연결할 수 없습니다" in words.headline(out)("ko")
            assert ws.spool is not None and ws.spool.pending_count() == 1
            (item,) = ws.spool.change_items()
            assert item.pages == 3 and item.login == "editor1"
            assert sandbox.commits()[0]["sha"] == before  # nothing reached the branch
            report = await ws.spool.run_once()  # still offline: it waits
            assert not report.changes_landed and ws.spool.pending_count() == 1
            net.online = True
            ws.spool.retry_now(item.id)
            report = await ws.spool.run_once()
            (landed,) = report.changes_landed
            done = outcome_of_item(landed)
            assert done.state is ChangeState.COMMITTED and done.complete
            assert sorted(p.title for p in done.pages) == sorted(TITLES.values())
            assert all(p.text and "2025" not in p.text for p in done.pages)
            again = await ws.spool.run_once()
            assert not again.changes_landed and ws.spool.pending_count() == 0

    asyncio.run(body())
    assert len(_replace_commits(sandbox)) == 1
    assert "2026학년도" in (text_of(sandbox, "docs/10-guide.md") or "")


def test_what_changed_while_the_change_waited_is_left_out_and_told(
    sandbox: Any, tmp_path: Path
) -> None:
    add_pages(sandbox, YEAR_PAGES)
    net = Switch()
    theirs = YEAR_PAGES["docs/12-calendar.md"] + "- 방학\n"

    async def body() -> None:
        async with (
            client(sandbox, transport=net) as gh,
            client(sandbox, "editor2") as other,
            HttpWebAdminApi(sandbox.api_url, "tok-editor2", "pnuai", "PNU-Modu") as web,
        ):
            ws = workspace(gh, tmp_path)
            plan = await _plan(ws)
            net.online = False
            assert (await _replace(ws, plan)).state is ChangeState.QUEUED
            # Meanwhile: someone opens one page in the web admin, and saves another.
            assert (await WebAdminPeer(web, "editor2").open("10-guide")).outcome == "acquired"
            now = await other.get_contents("docs/12-calendar.md")
            await other.put_file("docs/12-calendar.md", theirs.encode(), "docs: x", sha=now.sha)
            net.online = True
            assert ws.spool is not None
            (landed,) = (await ws.spool.run_once()).changes_landed
            done = outcome_of_item(landed)
            assert [p.title for p in done.pages] == ["장학금"]
            reasons = {n.title: n.reason for n in done.left_out}
            assert reasons == {"입학 안내": PageReason.HELD, "학사 일정": PageReason.CHANGED}
            told = [words.left_out(n, ws.server_now())("ko") for n in done.left_out]
            assert any("editor2" in t and "입학 안내" in t for t in told)
            assert any("학사 일정" in t and "그대로" in t for t in told)

    asyncio.run(body())
    assert text_of(sandbox, "docs/12-calendar.md") == theirs  # never overwritten
    assert text_of(sandbox, "docs/10-guide.md") == YEAR_PAGES["docs/10-guide.md"]
    assert "**2026**" in (text_of(sandbox, "docs/11-scholarship.md") or "")


class LostAfterCommit(httpx.AsyncBaseTransport):
    """The branch update is applied but its answer is lost, and so is the read back."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.lost = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.lost:
            raise httpx.ConnectError("the network is gone", request=request)
        response = await self.inner.handle_async_request(request)
        if request.method == "PATCH":
            await response.aread()
            self.lost = True
            raise httpx.ReadTimeout("the answer was lost", request=request)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


def test_a_change_whose_answer_was_lost_is_sent_again_without_a_second_commit(
    sandbox: Any, tmp_path: Path
) -> None:
    add_pages(sandbox, YEAR_PAGES)
    lossy = LostAfterCommit()

    async def body() -> None:
        async with client(sandbox, transport=lossy) as gh:
            ws = workspace(gh, tmp_path)
            plan = await _plan(ws)
            out = await _replace(ws, plan)
            assert out.state is ChangeState.QUEUED  # it may have landed: the queue finds out
        async with client(sandbox) as gh:
            ws = workspace(gh, tmp_path)  # the next start: the same queue on disk
            assert ws.spool is not None and ws.spool.pending_count() == 1
            (landed,) = (await ws.spool.run_once()).changes_landed
            done = outcome_of_item(landed)
            assert done.state is ChangeState.COMMITTED and done.commit_sha is None
            assert len(done.pages) == 3 and not done.left_out
            assert "이미 사이트에 저장" in words.headline(done)("ko")

    asyncio.run(body())
    assert len(_replace_commits(sandbox)) == 1
