"""One commit that changes many files, on the sandbox: a clean commit, a race with another
writer (retried on the new head, the other commit kept), a lock taken between review and commit
(that page left out, named), a file changed since it was read (left out), a network cut (nothing
changed, an error the save queue waits out), and the requests for 50 pages."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

from modu_desktop.core.changes.apply import Editor, apply_changes
from modu_desktop.core.changes.model import ChangeSet, FileLeftOutReason, changes_message
from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.github.client import GitHubClient, RepoRef, RetryPolicy
from modu_desktop.core.github.errors import BranchMoved
from modu_desktop.core.saving.service import is_queueable_error
from tests.helpers.webadmin_peer import HttpWebAdminApi, WebAdminPeer

REPO = RepoRef("pnuai", "PNU-Modu", "main")
ME = Editor("editor1", "session-1", install_id="test-install")
PAGES = ("01-welcome", "02-programs", "03-strategy")
QUICK = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.02, max_total=0.1)


async def _no_sleep(_: float) -> None:
    return None


class HookedClient(GitHubClient):
    """Runs ``before_publish`` (another writer's turn) before each branch update."""

    before_publish: Callable[[int], Awaitable[None]] | None = None
    publishes = 0

    async def update_ref(self, branch: str, sha: str, *, force: bool = False) -> str:
        self.publishes += 1
        if self.before_publish is not None:
            await self.before_publish(self.publishes)
        return await super().update_ref(branch, sha, force=force)


def client(sb: Any, login: str = "editor1", **kw: Any) -> HookedClient:
    kw.setdefault("retry", QUICK)
    return HookedClient(sb.api_url, f"tok-{login}", REPO, sleep=_no_sleep, **kw)


def path(doc_id: str) -> str:
    return f"docs/{doc_id}.md"


def read(sb: Any, p: str) -> str | None:
    raw = sb.read_file(p)
    return None if raw is None else raw.decode("utf-8")


def head(sb: Any) -> str:
    return str(sb.commits()[0]["sha"])


def reviewed(sb: Any, pages: tuple[str, ...] = PAGES) -> ChangeSet:
    """What a replace across pages would hand over: each page's new text over the version the
    person reviewed."""
    changes = ChangeSet()
    for doc in pages:
        before = read(sb, path(doc))
        assert before is not None
        after = before.replace("\n", "\n", 1) + "\n2026학년도 안내\n"
        changes.write(path(doc), after.encode("utf-8"), git_blob_sha(before.encode("utf-8")))
    return changes


def test_three_pages_in_one_commit_that_the_web_admin_sees(sandbox: Any) -> None:
    changes = reviewed(sandbox)
    before = head(sandbox)

    async def body() -> None:
        async with client(sandbox) as gh:
            res = await apply_changes(gh, changes, ME)
            assert res.complete and res.attempts == 1 and len(res.committed) == 3
            assert res.commit_sha == head(sandbox) and res.head_sha == before
            # The web admin reads through the Contents API: it sees every new text.
            for doc in PAGES:
                f = await gh.get_contents(path(doc))
                assert f.content.decode("utf-8").endswith("\n2026학년도 안내\n")
            assert len(await gh.workflow_runs(res.commit_sha)) == 1  # one deploy, not three

    asyncio.run(body())
    (top, parent) = sandbox.commits()[:2]
    assert top["parents"] == [before] and parent["sha"] == before
    assert top["message"] == changes_message(changes.changes, "editor1")
    assert top["message"].startswith("docs(edit): update 3 files by @editor1\n")


def test_a_commit_that_lands_first_is_kept_and_ours_follows_it(sandbox: Any) -> None:
    changes = reviewed(sandbox)

    async def body() -> None:
        async with client(sandbox) as gh, client(sandbox, "editor2") as other:

            async def someone_saves(n: int) -> None:
                if n == 1:  # between our read and our branch update
                    await other.put_file("docs/06-theirs.md", b"# new\n", "docs: theirs")

            gh.before_publish = someone_saves
            res = await apply_changes(gh, changes, ME)
            assert res.complete and res.attempts == 2 and gh.publishes == 2

    asyncio.run(body())
    top, theirs = sandbox.commits()[:2]
    assert theirs["message"] == "docs: theirs" and top["parents"] == [theirs["sha"]]
    assert read(sandbox, "docs/06-theirs.md") == "# new\n"
    assert all(read(sandbox, path(d)).endswith("2026학년도 안내\n") for d in PAGES)  # type: ignore[union-attr]
    assert sandbox.stats()["branch_moved"] == 1


def test_a_page_locked_between_review_and_commit_is_left_out_and_named(sandbox: Any) -> None:
    changes = reviewed(sandbox)
    untouched = read(sandbox, path("02-programs"))

    async def body() -> None:
        async with (
            client(sandbox) as gh,
            HttpWebAdminApi(sandbox.api_url, "tok-editor2", "pnuai", "PNU-Modu") as api,
        ):
            tab = WebAdminPeer(api, "editor2")

            async def someone_opens(n: int) -> None:
                if n == 1:  # the web admin opens the page after our review, before our commit
                    assert (await tab.open("02-programs")).outcome == "acquired"

            gh.before_publish = someone_opens
            res = await apply_changes(gh, changes, ME)
            assert res.attempts == 2 and res.commit_sha is not None
            (out,) = res.left_out
            assert out.reason is FileLeftOutReason.HELD and out.doc_id == "02-programs"
            assert out.holder == "editor2" and out.since == tab.started_at
            assert [c.path for c in res.committed] == [path("01-welcome"), path("03-strategy")]

    asyncio.run(body())
    assert read(sandbox, path("02-programs")) == untouched
    assert read(sandbox, path("01-welcome")).endswith("2026학년도 안내\n")  # type: ignore[union-attr]
    assert "docs(edit): update 2 files" in sandbox.commits()[0]["message"]


def test_my_own_lock_and_a_stale_one_do_not_keep_a_page_out(sandbox: Any) -> None:
    changes = reviewed(sandbox, ("01-welcome", "03-strategy"))

    async def body() -> None:
        async with (
            client(sandbox) as gh,
            HttpWebAdminApi(sandbox.api_url, "tok-editor2", "pnuai", "PNU-Modu") as api,
        ):
            mine = WebAdminPeer(api, "editor1")  # my login; the web admin writes no session
            old = WebAdminPeer(api, "editor2", skew_s=-3600)  # an hour-old lock: stale
            assert (await old.open("03-strategy")).outcome == "acquired"
            assert (await mine.open("01-welcome")).outcome == "acquired"
            res = await apply_changes(gh, changes, Editor("editor1", "s", stale_s=900))
            # A lock of my login from another session (the web admin tab) keeps the page out,
            # as it does when the page is opened; the stale one does not.
            assert [o.doc_id for o in res.left_out] == ["01-welcome"]
            assert [c.path for c in res.committed] == [path("03-strategy")]

    asyncio.run(body())


def test_a_file_changed_since_it_was_read_is_left_out(sandbox: Any) -> None:
    changes = reviewed(sandbox)

    async def body() -> None:
        async with client(sandbox) as gh, client(sandbox, "editor2") as other:
            before = await other.get_contents(path("03-strategy"))
            saved = await other.put_file(
                path("03-strategy"), before.content + b"\nedited\n", "docs: x", sha=before.sha
            )
            res = await apply_changes(gh, changes, ME)
            (out,) = res.left_out
            assert out.reason is FileLeftOutReason.CHANGED and out.current_sha == saved.content_sha
            assert len(res.committed) == 2 and res.attempts == 1

    asyncio.run(body())
    assert read(sandbox, path("03-strategy")).endswith("\nedited\n")  # type: ignore[union-attr]


def test_deletes_renames_new_files_and_a_picture(sandbox: Any) -> None:
    png = sandbox.read_file("static/img/modu-logo.png")
    taken = read(sandbox, path("04-admission"))
    assert png is not None and taken is not None
    changes = (
        ChangeSet()
        .write("docs/10-new.md", "# 새 문서\n".encode(), None)
        .write(path("04-admission"), b"# mine\n", None)  # "new", but the path is taken
        .delete(path("05-sandbox-notes"), git_blob_sha(sandbox.read_file(path("05-sandbox-notes"))))
        .rename("static/img/modu-logo.png", "static/img/logo.png", git_blob_sha(png))
        .write("static/img/dot.png", png[:40] + b"\xff\xfe", None)  # bytes, not text: a blob
    )

    async def body() -> None:
        async with client(sandbox) as gh:
            res = await apply_changes(gh, changes, ME)
            (out,) = res.left_out
            assert out.reason is FileLeftOutReason.EXISTS and out.path == path("04-admission")
            assert len(res.committed) == 4

    asyncio.run(body())
    assert read(sandbox, "docs/10-new.md") == "# 새 문서\n"
    assert read(sandbox, path("04-admission")) == taken
    assert sandbox.read_file(path("05-sandbox-notes")) is None
    assert sandbox.read_file("static/img/modu-logo.png") is None
    assert sandbox.read_file("static/img/logo.png") == png
    assert sandbox.read_file("static/img/dot.png") == png[:40] + b"\xff\xfe"
    routes = sandbox.stats()["by_route"]
    assert routes["POST /repos/{owner}/{repo}/git/blobs"] == 1  # only the picture's bytes


class CutAfter(httpx.AsyncBaseTransport):
    """The network goes away once ``after`` requests have been answered."""

    def __init__(self, after: int) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.after = after
        self.seen = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.seen += 1
        if self.seen > self.after:
            raise httpx.ConnectError("the network is gone", request=request)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.mark.parametrize("cut_after", [3, 4, 5])  # before the tree, the commit, the branch
def test_a_network_cut_changes_nothing_and_can_wait_in_the_queue(
    sandbox: Any, cut_after: int
) -> None:
    changes = reviewed(sandbox)
    before = head(sandbox)
    texts = {d: read(sandbox, path(d)) for d in PAGES}

    async def body() -> None:
        async with client(sandbox, transport=CutAfter(cut_after)) as gh:
            with pytest.raises(Exception) as caught:
                await apply_changes(gh, changes, ME)
            assert is_queueable_error(caught.value), caught.value

    asyncio.run(body())
    assert head(sandbox) == before
    assert {d: read(sandbox, path(d)) for d in PAGES} == texts


def test_an_answer_lost_after_the_branch_moved_is_read_back(sandbox: Any) -> None:
    changes = reviewed(sandbox)

    class LostAnswer(httpx.AsyncHTTPTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            response = await super().handle_async_request(request)
            if request.method == "PATCH":
                await response.aread()
                raise httpx.ReadTimeout("the answer was lost", request=request)
            return response

    async def body() -> None:
        async with client(sandbox, transport=LostAnswer()) as gh:
            res = await apply_changes(gh, changes, ME)
            assert res.complete and res.commit_sha == head(sandbox) and res.attempts == 1

    asyncio.run(body())
    assert len([c for c in sandbox.commits() if "3 files" in c["message"]]) == 1


def test_a_branch_that_keeps_moving_ends_as_a_temporary_failure(sandbox: Any) -> None:
    changes = reviewed(sandbox)

    async def body() -> None:
        async with client(sandbox) as gh, client(sandbox, "editor2") as other:

            async def always(n: int) -> None:
                await other.put_file(f"docs/zz-{n}.md", b"x", f"docs: theirs {n}")

            gh.before_publish = always
            with pytest.raises(BranchMoved) as caught:
                await apply_changes(gh, changes, ME, attempts=3)
            assert is_queueable_error(caught.value) and gh.publishes == 3

    asyncio.run(body())
    assert not any("3 files" in c["message"] for c in sandbox.commits())
    assert all(not read(sandbox, path(d)).endswith("안내\n") for d in PAGES)  # type: ignore[union-attr]


def test_a_tree_too_large_for_one_answer_is_read_by_folders(sandbox: Any) -> None:
    changes = reviewed(sandbox)
    sandbox.faults.update(tree_entry_limit=7)  # the whole tree is cut before 03; docs/ fits

    async def body() -> None:
        async with client(sandbox) as gh:
            sandbox.reset_stats()
            res = await apply_changes(gh, changes, ME)
            assert res.complete and len(res.committed) == 3

    asyncio.run(body())
    trees = sandbox.stats()["by_route"]["GET /repos/{owner}/{repo}/git/trees/{tree_sha}"]
    assert trees >= 2  # the cut whole tree, then the folders
    assert all(read(sandbox, path(d)).endswith("2026학년도 안내\n") for d in PAGES)  # type: ignore[union-attr]


def test_fifty_pages_cost_six_requests(sandbox: Any) -> None:
    create = ChangeSet()
    for n in range(50):
        create.write(f"docs/bulk/{n:02d}.md", f"# {n}\n\n2025학년도 안내\n".encode(), None)

    async def body() -> None:
        async with client(sandbox) as gh:
            assert (await apply_changes(gh, create, ME)).complete
            replace = ChangeSet()
            for n in range(50):
                old = f"# {n}\n\n2025학년도 안내\n".encode()
                replace.write(
                    f"docs/bulk/{n:02d}.md",
                    old.replace(b"2025", b"2026"),
                    git_blob_sha(old),
                )
            sandbox.reset_stats()
            res = await apply_changes(gh, replace, ME)
            assert res.complete and len(res.committed) == 50

    asyncio.run(body())
    stats = sandbox.stats()
    assert stats["total"] == 6  # ref, commit, tree; tree, commit, branch update
    assert stats["by_method"] == {"GET": 3, "POST": 2, "PATCH": 1}
    assert read(sandbox, "docs/bulk/49.md") == "# 49\n\n2026학년도 안내\n"
