"""A save that meets GitHub's 409 asks its question after at most three reads, counted by the
sandbox: the file's folder (which tells the two 409s apart), their version's blob, and who saved
it. The folder is read by its path in one request however deep it is, and the blob sha the write
rule learnt is carried into the conflict instead of walking the tree again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from modu_desktop.core.documents.store import SaveConflict, SaveResult
from modu_desktop.core.saving.conflicts import Conflict, ConflictDecision, resolve_conflict
from tests.helpers.edit_session import DOC, PATH, run, workspace

DEEP = "docs/학과/2026/안내.md"


def _reads(sb: Any) -> int:
    return int(sb.stats()["by_method"].get("GET", 0))


class CountingAsker:
    """Cancels, after noting how many reads the sandbox had answered when it was asked."""

    def __init__(self, sb: Any) -> None:
        self.sb = sb
        self.reads_before: list[int] = []
        self.asked: list[Conflict] = []

    async def __call__(self, conflict: Conflict) -> ConflictDecision:
        self.reads_before.append(_reads(self.sb))
        self.asked.append(conflict)
        return ConflictDecision.CANCEL


def _conflict_after_their_save(sandbox: Any, tmp_path: Path, path: str) -> CountingAsker:
    asker = CountingAsker(sandbox)

    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="mine")
        peer = await workspace(sandbox, "editor2", tmp_path, session="peer")
        if path != PATH:
            made = await peer.store.create(path, "# 안내\n\n처음\n", "editor2")
            assert isinstance(made, SaveResult)
        base = await ws.store.load(path)
        theirs = base.text + "\n그쪽에서 고친 문장\n"
        saved = await peer.store.save(path, theirs, base.sha, "editor2")
        assert isinstance(saved, SaveResult)
        sandbox.reset_stats()
        found = await ws.saves.save(path, base.text + "\n내 문장\n", base.sha, "editor1")
        assert isinstance(found, SaveConflict)
        assert found.theirs == theirs and found.their_sha == saved.sha
        await resolve_conflict(ws.saves, found, asker, login="editor1")
        assert asker.asked[0].by == "editor2"
        await ws.client.aclose()
        await peer.client.aclose()

    run(body)
    return asker


def test_a_conflict_is_asked_after_three_reads(sandbox: Any, tmp_path: Path) -> None:
    asker = _conflict_after_their_save(sandbox, tmp_path, PATH)
    assert asker.reads_before == [3]
    routes = sandbox.stats()["by_route"]
    assert routes["GET /repos/{owner}/{repo}/git/trees/{tree_sha}"] == 1
    assert routes["GET /repos/{owner}/{repo}/git/blobs/{file_sha}"] == 1
    assert "GET /repos/{owner}/{repo}/git/commits/{commit_sha}" not in routes
    assert "GET /repos/{owner}/{repo}/git/ref/{ref}" not in routes


def test_three_reads_however_deep_the_folder(sandbox: Any, tmp_path: Path) -> None:
    asker = _conflict_after_their_save(sandbox, tmp_path, DEEP)
    assert asker.reads_before == [3]


def test_a_branch_that_moved_costs_one_read_and_lands(sandbox: Any, tmp_path: Path) -> None:
    """The other 409 (the branch moved, the file did not): one folder read tells it, the same
    write is sent again and lands, and nothing is asked."""

    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="mine")
        base = await ws.store.load(DOC)
        sandbox.lose_next_write(PATH)
        sandbox.reset_stats()
        res = await ws.saves.save(PATH, base.text + "\n내 문장\n", base.sha, "editor1")
        assert isinstance(res, SaveResult)
        await ws.client.aclose()

    run(body)
    assert sandbox.stats()["branch_moved"] == 1
    assert _reads(sandbox) == 1
