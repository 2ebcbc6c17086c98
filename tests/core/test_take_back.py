"""Editing again after losing the lock, headless against the sandbox: the unsaved text becomes
editable again when the page did not change, is shown beside the current version when it did,
and a document opened read-only shows the current version once it is ours; the question asked
at opening is asked when someone holds it, and leaving it to them changes nothing. Between
heartbeats the lock is looked at, so a take-over is noticed without waiting for the next one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from modu_desktop.core.edit_session import (
    ConflictDecision,
    EditSession,
    LockLost,
    LockResumed,
    Mode,
    Saved,
    TakeOver,
    TheirsTaken,
)
from modu_desktop.core.workspace import Workspace
from tests.helpers.edit_session import DOC, PATH, FakeView, run, until, workspace

MINE = "내가 쓰던 글입니다.\n"


async def _taken_from(sandbox: Any, tmp_path: Path) -> tuple[Any, Any, FakeView, Any, Any]:
    """kim edits; lee takes it over; kim's session learns it."""
    kim_ws = await workspace(sandbox, "editor1", tmp_path, session="kim")
    kim_view = FakeView()
    opened = await EditSession.open(kim_ws, kim_view, DOC)
    assert opened is not None
    kim, _ = opened
    lee_ws = await workspace(sandbox, "editor2", tmp_path, session="lee")
    taken = await EditSession.open(lee_ws, FakeView(TakeOver.TAKE_OVER), DOC)
    assert taken is not None
    lee, _ = taken
    kim.lock_seen("changed")
    await until(lambda: bool(kim_view.of(LockLost)))
    assert not kim.editable
    return kim_ws, kim, kim_view, lee_ws, lee


def test_taken_back_after_the_other_closed_keeps_the_text_and_saves_it(
    sandbox: Any, tmp_path: Path
) -> None:
    async def body() -> None:
        kim_ws, kim, kim_view, lee_ws, lee = await _taken_from(sandbox, tmp_path)
        await lee.close()
        assert await kim.take_back(MINE) is None  # free: no question, no conflict
        assert kim.editable and kim.mode is Mode.EDIT and not kim.lost
        assert kim_view.asked_take_over == [] and kim_view.asked_conflict == []
        assert kim_view.of(LockResumed) == [LockResumed(DOC, None)]
        assert isinstance(await kim.save(MINE), Saved)
        assert sandbox.read_file(PATH).decode("utf-8") == MINE
        await kim.close()
        for ws in (kim_ws, lee_ws):
            await ws.aclose()

    run(body)


def test_taken_back_from_someone_who_saved_meanwhile_shows_both(
    sandbox: Any, tmp_path: Path
) -> None:
    async def body() -> None:
        kim_ws, kim, kim_view, lee_ws, lee = await _taken_from(sandbox, tmp_path)
        assert isinstance(await lee.save("이준호가 고친 글입니다.\n"), Saved)
        kim_view.take_over = TakeOver.TAKE_OVER  # the question asked at opening: take over
        kim_view.conflict = ConflictDecision.KEEP_MINE
        done = await kim.take_back(MINE)
        assert [h.holder for h in kim_view.asked_take_over] == ["editor2"]
        (shown,) = kim_view.asked_conflict
        assert shown.mine == MINE and shown.theirs == "이준호가 고친 글입니다.\n"
        assert isinstance(done, Saved) and kim.editable
        assert sandbox.read_file(PATH).decode("utf-8") == MINE
        await kim.close()
        await lee.close()
        for ws in (kim_ws, lee_ws):
            await ws.aclose()

    run(body)


def test_leaving_it_to_the_other_changes_nothing(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        kim_ws, kim, kim_view, lee_ws, lee = await _taken_from(sandbox, tmp_path)
        kim_view.take_over = TakeOver.READ_ONLY
        assert await kim.take_back(MINE) is None
        assert not kim.editable and kim.lost
        assert lee.editable and kim_view.of(LockResumed) == []
        await kim.close()
        await lee.close()
        for ws in (kim_ws, lee_ws):
            await ws.aclose()

    run(body)


def test_a_document_opened_read_only_is_taken_back_at_its_current_version(
    sandbox: Any, tmp_path: Path
) -> None:
    async def body() -> None:
        lee_ws = await workspace(sandbox, "editor2", tmp_path, session="lee")
        held = await EditSession.open(lee_ws, FakeView(), DOC)
        assert held is not None
        lee, _ = held
        kim_ws = await workspace(sandbox, "editor1", tmp_path, session="kim")
        kim_view = FakeView(TakeOver.READ_ONLY)
        opened = await EditSession.open(kim_ws, kim_view, DOC)
        assert opened is not None
        kim, how = opened
        assert how.mode is Mode.READ_ONLY and not kim.editable
        assert isinstance(await lee.save("새 버전입니다.\n"), Saved)
        await lee.close()
        done = await kim.take_back(None)  # nothing typed: the current version is shown
        assert isinstance(done, TheirsTaken) and done.text == "새 버전입니다.\n"
        assert kim.editable and kim_view.asked_conflict == []
        assert isinstance(await kim.save("새 버전입니다. 김이 더함.\n"), Saved)
        await kim.close()
        for ws in (kim_ws, lee_ws):
            await ws.aclose()

    run(body)


def test_a_take_over_is_noticed_between_heartbeats(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        kim_ws = await workspace(sandbox, "editor1", tmp_path, session="kim")
        slow = Workspace.build(
            kim_ws.client,
            "editor1",
            "kim-slow",
            cache_dir=tmp_path / "cache-slow",
            heartbeat_s=3600.0,  # no heartbeat during this test
            look_s=0.1,
        )
        kim_view = FakeView()
        opened = await EditSession.open(slow, kim_view, DOC)
        assert opened is not None
        kim, _ = opened
        lee_ws = await workspace(sandbox, "editor2", tmp_path, session="lee")
        taken = await EditSession.open(lee_ws, FakeView(TakeOver.TAKE_OVER), DOC)
        assert taken is not None
        lee, _ = taken
        await until(lambda: bool(kim_view.of(LockLost)))
        (lost,) = kim_view.of(LockLost)
        assert lost.by == "editor2" and not kim.editable
        await kim.close()
        await lee.close()
        for ws in (kim_ws, lee_ws):
            await ws.aclose()

    run(body)
