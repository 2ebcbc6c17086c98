"""Every write path when its first write loses the race for the branch (GitHub's 409 "is at X
but expected Y": another commit moved the branch, nothing of ours applied).

Each test makes the sandbox's next write to the path lose on purpose (no sleeping to provoke
it) and checks what the user would see: the lock is kept, the save lands with no question,
the release leaves no lock, the document is created/deleted/moved/imported, the picture keeps
its name. A write that keeps losing is a temporary failure (a heartbeat miss, a queued save),
never a conflict or a lost lock.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from modu_desktop.core.brochure import frontmatter
from modu_desktop.core.docops.importer import import_candidates, parse_candidate
from modu_desktop.core.docops.newdoc import NewDocRequest
from modu_desktop.core.docops.ops import DocOps
from modu_desktop.core.docops.result import OpCode
from modu_desktop.core.documents.history import DocHistory, restore_version
from modu_desktop.core.documents.store import DocumentStore, SaveResult
from modu_desktop.core.edit_session import EditSession, HeartbeatMissed, LockLost, Saved
from modu_desktop.core.edit_session import session as edit_session
from modu_desktop.core.github.client import GitHubClient, RepoRef, RetryPolicy
from modu_desktop.core.github.errors import BranchMoved
from modu_desktop.core.github.writes import RaceRetry
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.locks.model import (
    STEAL_ATTEMPTS,
    AcquireOutcome,
    HeartbeatOutcome,
    LockStatus,
    ReleaseOutcome,
)
from modu_desktop.core.locks.wire import lock_path
from modu_desktop.core.pictures.uploads import upload_image
from modu_desktop.core.saving.queue import Backoff
from modu_desktop.core.saving.service import QueuedSave
from modu_desktop.core.text import Text
from modu_desktop.core.workspace import Workspace
from tests.helpers.edit_session import FakeView

REPO = RepoRef("pnuai", "PNU-Modu", "main")
DOC = "01-welcome"
PATH = f"docs/{DOC}.md"
LOCK = lock_path(DOC)
QUICK_RACE = RaceRetry(attempts=5, base_delay=0.01, max_delay=0.05, max_total=1.0)
PNG = (
    Path(__file__).resolve().parents[3]
    / "modu_desktop/sandbox/repo/seed_data/static/img/modu-logo.png"
).read_bytes()


def client_for(sb: Any, login: str = "editor1") -> GitHubClient:
    return GitHubClient(
        sb.api_url,
        f"tok-{login}",
        REPO,
        race=QUICK_RACE,
        retry=RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.02, max_total=0.1),
    )


@asynccontextmanager
async def manager(sb: Any, login: str = "editor1", session: str = "s1") -> AsyncIterator[Any]:
    async with client_for(sb, login) as gh:
        await gh.get_user()  # the server clock, as sign-in learns it
        yield LockManager(gh, login, session, gh.clock, install_id="test-host")


@asynccontextmanager
async def docops(sb: Any, tmp: Path, login: str = "editor1") -> AsyncIterator[DocOps]:
    async with manager(sb, login) as mgr:
        yield DocOps(DocumentStore(mgr.client, tmp / f"blobs-{login}"), mgr, login)


async def workspace(sb: Any, tmp: Path, *, data: bool = False) -> Workspace:
    client = client_for(sb)
    await client.get_user()
    return Workspace.build(
        client,
        "editor1",
        "s1",
        cache_dir=tmp / "cache",
        data_dir=tmp / "data" if data else None,
        heartbeat_s=60,
        backoff=Backoff(base_s=0.01, cap_s=0.02, jitter=0.0),
    )


def server_lock(sb: Any, doc: str = DOC) -> dict[str, Any] | None:
    raw = sb.read_file(lock_path(doc))
    return None if raw is None else json.loads(raw)


# -- locks ---------------------------------------------------------------------------------------


def test_acquire_that_loses_the_race_gets_the_lock(sandbox: Any) -> None:
    """Losing twice in a row used to read as "someone else locked it at the same moment"."""

    async def go() -> None:
        async with manager(sandbox) as mgr:
            sandbox.lose_next_write(LOCK, times=2)
            res = await mgr.acquire(DOC)
            assert res.outcome is AcquireOutcome.ACQUIRED, res.text.en
            assert server_lock(sandbox)["sessionId"] == "s1"  # type: ignore[index]

    asyncio.run(go())
    assert sandbox.stats()["branch_moved"] == 2


def test_heartbeat_that_loses_the_race_keeps_the_lock(sandbox: Any) -> None:
    """The bug this guards: a raced heartbeat read our own unchanged lock as "taken over or
    released" and deleted it."""

    async def go() -> None:
        async with manager(sandbox) as mgr:
            held = (await mgr.acquire(DOC)).held
            assert held is not None
            sandbox.lose_next_write(LOCK)
            beat = await mgr.heartbeat(held)
            assert beat.outcome is HeartbeatOutcome.OK, beat.text.en
            assert (await mgr.inspect(DOC)).status is LockStatus.MINE_THIS_SESSION
            assert (await mgr.inspect(DOC)).sha == held.sha  # the renewed lock is the one we hold
            assert not [c for c in sandbox.commits(LOCK) if "release" in c["message"]]

    asyncio.run(go())


def test_take_over_that_loses_the_race_takes_over(sandbox: Any) -> None:
    """A take-over on a busy branch: four lost races in a row used to end as "the lock kept
    changing while you were taking it over" although nobody touched it."""

    async def go() -> None:
        async with manager(sandbox, "editor2", "theirs") as theirs:
            assert (await theirs.acquire(DOC)).held is not None
        async with manager(sandbox) as mgr:
            view = await mgr.inspect(DOC)
            assert view.status is LockStatus.HELD
            sandbox.lose_next_write(LOCK, times=STEAL_ATTEMPTS)
            res = await mgr.steal(view)
            assert res.outcome is AcquireOutcome.TOOK_OVER, res.text.en
            assert server_lock(sandbox)["editingBy"] == "editor1"  # type: ignore[index]

    asyncio.run(go())


def test_release_that_loses_the_race_leaves_no_lock(sandbox: Any) -> None:
    async def go() -> None:
        async with manager(sandbox) as mgr:
            held = (await mgr.acquire(DOC)).held
            assert held is not None
            sandbox.lose_next_write(LOCK)
            res = await mgr.release(held)
            assert res.outcome is ReleaseOutcome.RELEASED, res.text.en

    asyncio.run(go())
    assert server_lock(sandbox) is None


def test_a_late_release_of_a_closed_claim_leaves_the_reopened_documents_lock(
    sandbox: Any,
) -> None:
    """Closing on a busy branch: the release keeps losing the race (it is sent again later) and
    the document is opened again meanwhile, in the same session, so the lock is reused. The
    late release of the old claim used to take the reopened lock for "an earlier heartbeat of
    ours" and delete it: the new editor then lost its lock to nobody."""

    async def go() -> None:
        async with manager(sandbox) as mgr:
            first = (await mgr.acquire(DOC)).held
            assert first is not None
            sandbox.lose_next_write(LOCK, times=QUICK_RACE.attempts)
            assert (await mgr.release(first)).outcome is ReleaseOutcome.FAILED
            again = await mgr.acquire(DOC)
            assert again.outcome is AcquireOutcome.REUSED, again.text.en
            second = again.held
            assert second is not None
            late = await mgr.release(first)
            assert late.outcome is not ReleaseOutcome.FAILED
            view = await mgr.inspect(DOC)
            assert view.status is LockStatus.MINE_THIS_SESSION, late.text.en
            assert view.sha == second.sha
            assert (await mgr.heartbeat(second)).outcome is HeartbeatOutcome.OK
            assert (await mgr.release(second)).outcome is ReleaseOutcome.RELEASED

    asyncio.run(go())
    assert server_lock(sandbox) is None


def test_a_document_closed_on_a_busy_branch_and_opened_again_keeps_its_lock(
    sandbox: Any, tmp_path: Path
) -> None:
    """The window's path of the same race: the close's release gives up and is sent again a
    little later (a tenth of the heartbeat interval), by which time the document is open again.
    The late release leaves the reopened lock alone."""

    async def go() -> None:
        client = client_for(sandbox)
        await client.get_user()
        ws = Workspace.build(client, "editor1", "s1", cache_dir=tmp_path / "cache", heartbeat_s=5)
        view = FakeView()
        opened = await EditSession.open(ws, view, DOC, list_saw_no_lock=True)
        assert opened is not None
        sandbox.lose_next_write(LOCK, times=QUICK_RACE.attempts)
        await opened[0].close()  # the release gives up: sent again later
        reopened = await EditSession.open(ws, view, DOC)
        assert reopened is not None and reopened[0].held is not None
        held = reopened[0].held
        assert not [c for c in sandbox.commits(LOCK) if "release" in c["message"]]
        await asyncio.wait_for(asyncio.gather(*list(edit_session._LATER)), 30)
        assert server_lock(sandbox)["sessionId"] == "s1"  # type: ignore[index]
        assert (await ws.locks.inspect(DOC)).sha == held.sha
        assert (await ws.locks.heartbeat(held)).outcome is HeartbeatOutcome.OK
        assert not view.of(LockLost)
        await reopened[0].close()
        await ws.aclose()

    asyncio.run(go())
    assert server_lock(sandbox) is None


def test_a_heartbeat_that_keeps_losing_is_a_miss_and_the_lock_stays(sandbox: Any) -> None:
    async def go() -> None:
        async with manager(sandbox) as mgr:
            held = (await mgr.acquire(DOC)).held
            assert held is not None
            sandbox.lose_next_write(LOCK, times=QUICK_RACE.attempts)
            beat = await mgr.heartbeat(held)
            assert beat.outcome is HeartbeatOutcome.MISSED
            assert isinstance(beat.error, BranchMoved)
            assert (await mgr.inspect(DOC)).sha == held.sha  # still ours, untouched
            assert (await mgr.heartbeat(held)).outcome is HeartbeatOutcome.OK

    asyncio.run(go())


# -- saving --------------------------------------------------------------------------------------


def test_save_that_loses_the_race_lands_with_no_question(sandbox: Any, tmp_path: Path) -> None:
    async def go() -> None:
        ws = await workspace(sandbox, tmp_path)
        view = FakeView()
        opened = await EditSession.open(ws, view, DOC, list_saw_no_lock=True)
        assert opened is not None
        session, loaded = opened[0], opened[1].loaded
        sandbox.lose_next_write(PATH)
        event = await session.save(loaded.text + "\n경주에서 진 저장\n")
        assert isinstance(event, Saved), view.events
        assert view.asked_conflict == [] and not view.of(LockLost)
        await session.close()
        await ws.aclose()

    asyncio.run(go())
    assert "경주에서 진 저장" in sandbox.read_file(PATH).decode()


def test_a_save_that_keeps_losing_is_queued_then_sent(sandbox: Any, tmp_path: Path) -> None:
    """Never a conflict: the save waits in the queue and goes out by itself."""

    async def go() -> None:
        ws = await workspace(sandbox, tmp_path, data=True)
        assert ws.spool is not None
        loaded = await ws.store.load(DOC)
        sandbox.lose_next_write(PATH, times=QUICK_RACE.attempts)
        res = await ws.saves.save(PATH, loaded.text + "대기한 저장\n", loaded.sha, "editor1")
        assert isinstance(res, QueuedSave) and isinstance(res.cause, BranchMoved)
        report = await ws.spool.run_once()
        assert len(report.committed) == 1 and not ws.spool.failed_items()
        await ws.aclose()

    asyncio.run(go())
    assert "대기한 저장" in sandbox.read_file(PATH).decode()


def test_queued_save_replay_that_loses_the_race_is_sent(sandbox: Any, tmp_path: Path) -> None:
    async def go() -> None:
        ws = await workspace(sandbox, tmp_path, data=True)
        assert ws.spool is not None
        loaded = await ws.store.load(DOC)
        ws.saves.enqueue(PATH, loaded.text + "큐에서 보낸 저장\n", loaded.sha, "editor1")
        sandbox.lose_next_write(PATH)
        report = await ws.spool.run_once()
        assert len(report.committed) == 1, report
        assert not ws.spool.failed_items() and not ws.spool.pending_items()
        await ws.aclose()

    asyncio.run(go())
    assert "큐에서 보낸 저장" in sandbox.read_file(PATH).decode()


def test_restore_that_loses_the_race_is_restored(sandbox: Any, tmp_path: Path) -> None:
    async def go() -> None:
        ws = await workspace(sandbox, tmp_path)
        loaded = await ws.store.load(DOC)
        saved = await ws.store.save(DOC, loaded.text + "고친 줄\n", loaded.sha, "editor1")
        assert isinstance(saved, SaveResult)
        history = DocHistory(ws.client, ws.store)
        versions = await history.versions(PATH)
        older = versions[1]
        text = await history.text_at(older.sha, PATH)
        assert text is not None

        async def lock_ok() -> Text | None:
            return None

        sandbox.lose_next_write(PATH)
        res = await restore_version(
            ws.store, DOC, older, text, saved.sha, "editor1", lock_ok=lock_ok
        )
        assert isinstance(res, SaveResult), res
        await ws.aclose()

    asyncio.run(go())
    assert "고친 줄" not in sandbox.read_file(PATH).decode()


# -- document operations ------------------------------------------------------------------------


def test_new_document_that_loses_the_race_is_created(sandbox: Any, tmp_path: Path) -> None:
    """Was: "Not created: docs/race-new.md was created by someone else just now"."""

    async def go() -> None:
        async with docops(sandbox, tmp_path) as ops:
            req = NewDocRequest(doc_id="race-new", title="경주")
            sandbox.lose_next_write(req.normalized().path)
            res = await ops.create(req, keep_lock=False)
            assert res.code is OpCode.CREATED, res.user_message()

    asyncio.run(go())
    assert sandbox.read_file("docs/race-new.md") is not None
    assert server_lock(sandbox, "race-new") is None


def test_delete_that_loses_the_race_deletes(sandbox: Any, tmp_path: Path) -> None:
    async def go() -> None:
        async with docops(sandbox, tmp_path) as ops:
            sandbox.lose_next_write(PATH)
            res = await ops.delete(DOC)
            assert res.code is OpCode.DELETED, res.user_message()

    asyncio.run(go())
    assert sandbox.read_file(PATH) is None and server_lock(sandbox) is None


def test_reorder_that_loses_the_race_moves(sandbox: Any, tmp_path: Path) -> None:
    first = "docs/01-welcome.md"
    second = "docs/02-programs.md"
    before = [
        frontmatter.parse(sandbox.read_file(p).decode()).get_number("sidebar_position")
        for p in (first, second)
    ]

    async def go() -> None:
        async with docops(sandbox, tmp_path) as ops:
            sandbox.lose_next_write(first)
            res = await ops.move(DOC, "down")
            assert res.code is OpCode.MOVED, res.user_message()

    asyncio.run(go())
    after = [
        frontmatter.parse(sandbox.read_file(p).decode()).get_number("sidebar_position")
        for p in (first, second)
    ]
    assert after == before[::-1]


def test_import_that_loses_the_race_imports(sandbox: Any, tmp_path: Path) -> None:
    data = "---\nid: imported\ntitle: 가져온 문서\n---\n\n# 가져온 문서\n".encode()

    async def go() -> None:
        async with docops(sandbox, tmp_path) as ops:
            cand = parse_candidate(str(tmp_path / "imported.md"), data)
            assert cand.request is not None
            sandbox.lose_next_write(cand.request.normalized().path)
            ((_, res),) = await import_candidates(ops, [cand])
            assert res.code is OpCode.CREATED, res.user_message()

    asyncio.run(go())


def test_picture_that_loses_the_race_keeps_its_name(sandbox: Any) -> None:
    async def go() -> None:
        async with client_for(sandbox) as gh:
            sandbox.lose_next_write("static/img/uploads/")
            up = await upload_image(gh, PNG, "logo.png")
            assert up.ok, up.text
            assert up.name == "logo.png"  # not renamed as if it existed

    asyncio.run(go())
    assert sandbox.read_file("static/img/uploads/logo.png") == PNG


def test_the_window_session_keeps_its_lock_through_raced_heartbeats(
    sandbox: Any, tmp_path: Path
) -> None:
    """Two raced heartbeats of an open document: renewed, never lost, nothing asked."""

    async def go() -> None:
        client = client_for(sandbox)
        await client.get_user()
        ws = Workspace.build(client, "editor1", "s1", cache_dir=tmp_path / "c", heartbeat_s=0.05)
        view = FakeView()
        opened = await EditSession.open(ws, view, DOC, list_saw_no_lock=True)
        assert opened is not None
        session = opened[0]
        sandbox.lose_next_write(LOCK, times=2)
        while sandbox.stats()["branch_moved"] < 2 or len(sandbox.commits(LOCK)) < 3:
            await asyncio.sleep(0.02)
        assert session.editable and not view.of(LockLost) and not view.of(HeartbeatMissed)
        assert view.asked_take_over == [] and view.asked_conflict == []
        await session.close()
        await ws.aclose()

    asyncio.run(asyncio.wait_for(go(), 30))


def test_a_release_that_keeps_losing_is_sent_again_later(sandbox: Any, tmp_path: Path) -> None:
    """Closing while the branch is busy: the lock does not stay behind for a quarter of an
    hour (the next person to open the document would be asked about us)."""

    async def go() -> None:
        client = client_for(sandbox)
        await client.get_user()
        ws = Workspace.build(client, "editor1", "s1", cache_dir=tmp_path / "c", heartbeat_s=0.2)
        opened = await EditSession.open(ws, FakeView(), DOC, list_saw_no_lock=True)
        assert opened is not None
        sandbox.lose_next_write(LOCK, times=QUICK_RACE.attempts)
        released = await opened[0].close()
        assert released is not None and released.outcome is None  # not yet
        while server_lock(sandbox) is not None:
            await asyncio.sleep(0.02)
        await ws.aclose()

    asyncio.run(asyncio.wait_for(go(), 30))
