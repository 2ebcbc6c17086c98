"""The one conflict path (core/saving/conflicts.py) headless against the sandbox: a live save's
conflict (through EditSession) and a replayed queued save's conflict (a failed spool item), each
of the four choices, and someone saving again while the user is choosing (asked again, nothing
lost, nothing overwritten)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.documents.store import SaveConflict, path_for_doc_id
from modu_desktop.core.edit_session import EditSession, NotSaved, Saved, TheirsTaken
from modu_desktop.core.saving.conflicts import (
    Conflict,
    ConflictDecision,
    OtherRepository,
    queued_conflict,
    resolve_conflict,
)
from modu_desktop.core.workspace import Workspace
from modu_desktop.i18n import particle
from tests.helpers.edit_session import DOC, PATH, FakeView, run, workspace
from tests.helpers.lang import in_lang


def _server(sb: Any, path: str = PATH) -> str | None:
    raw = sb.read_file(path)
    return None if raw is None else raw.decode("utf-8")


def _commits(sb: Any) -> int:
    return len(sb.commits(PATH))


class Asker:
    """Answers the conflict screen from a script; ``between`` runs before each answer (someone
    saving again while the user reads the screen)."""

    def __init__(self, *answers: ConflictDecision, between: Any = None) -> None:
        self.answers = list(answers)
        self.asked: list[Conflict] = []
        self.between = between

    async def __call__(self, conflict: Conflict) -> ConflictDecision:
        self.asked.append(conflict)
        if self.between is not None:
            await self.between(len(self.asked))
        return self.answers[len(self.asked) - 1]


async def _failed_queued_save(ws: Workspace, peer: Workspace, sb: Any, mark: str) -> Any:
    """A save written offline over the current version, then someone else saves, then the queue
    replays it: it fails as a conflict, its text intact."""
    assert ws.spool is not None
    base = await ws.store.load(DOC)
    mine = base.text + f"\nmine, written offline {mark}\n"
    ws.saves.enqueue(PATH, mine, base.sha, ws.login)
    theirs = base.text + f"\ntheirs {mark}\n"
    await peer.store.save(DOC, theirs, base.sha, peer.login)
    report = await ws.spool.run_once()
    (item,) = report.failed
    assert item.failure == "conflict" and item.text == mine
    assert _server(sb) == theirs
    return item, mine, theirs


# -- a queued save ----------------------------------------------------------------------------


def test_queued_conflict_each_choice(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="q", data=True)
        peer = await workspace(sandbox, "editor2", tmp_path, session="p")
        assert ws.spool is not None
        for decision in ConflictDecision:
            item, mine, theirs = await _failed_queued_save(ws, peer, sandbox, decision.value)
            new_id = f"99-copy-{decision.value.replace('_', '-')}"

            async def save_as_new(
                n: int, new_id: str = new_id, mine: str = mine, d: ConflictDecision = decision
            ) -> None:
                if d is ConflictDecision.SAVED_AS_NEW:  # the view's new-document flow
                    await ws.store.create(new_id, mine, ws.login)

            ask = Asker(decision, between=save_as_new)
            found = await queued_conflict(ws.saves, item)
            before = _commits(sandbox)
            done = await resolve_conflict(
                ws.saves, found, ask, login=item.login, message=item.message, queued=item
            )
            (shown,) = ask.asked
            assert shown.mine == mine and shown.theirs == theirs and shown.queued
            assert shown.by == "editor2" and done.decision is decision and done.rounds == 1
            if decision is ConflictDecision.KEEP_MINE:
                assert _server(sandbox) == mine and _commits(sandbox) == before + 1
                assert done.saved is not None and ws.spool.pending_items() == []
            else:
                assert _server(sandbox) == theirs and _commits(sandbox) == before  # not touched
                assert done.saved is None
            if decision is ConflictDecision.CANCEL:
                (kept,) = ws.spool.failed_items()  # still in "not saved", text intact
                assert kept.id == item.id and kept.text == mine
                ws.spool.discard(kept.id)
            else:
                assert ws.spool.failed_items() == [] and ws.spool.pending_items() == []
            if decision is ConflictDecision.SAVED_AS_NEW:
                assert _server(sandbox, path_for_doc_id(new_id)) == mine
        await ws.aclose()
        await peer.aclose()

    run(body)


def test_queued_conflict_someone_saves_again_while_choosing(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="q", data=True)
        peer = await workspace(sandbox, "editor2", tmp_path, session="p")
        assert ws.spool is not None
        for last in (ConflictDecision.KEEP_MINE, ConflictDecision.CANCEL):
            item, mine, theirs = await _failed_queued_save(ws, peer, sandbox, last.value)
            again = theirs + "and once more\n"

            async def meanwhile(n: int, theirs: str = theirs, again: str = again) -> None:
                if n == 1:  # someone saves again while the screen is open
                    current = await peer.store.load(DOC)
                    assert current.text == theirs
                    await peer.store.save(DOC, again, current.sha, peer.login)

            ask = Asker(ConflictDecision.KEEP_MINE, last, between=meanwhile)
            found = await queued_conflict(ws.saves, item)
            done = await resolve_conflict(
                ws.saves, found, ask, login=item.login, message=item.message, queued=item
            )
            first, second = ask.asked  # asked again, now about the newest version
            assert first.theirs == theirs and second.theirs == again
            assert second.mine == mine and done.rounds == 2 and done.decision is last
            if last is ConflictDecision.KEEP_MINE:
                assert _server(sandbox) == mine  # over the version shown the second time
                assert ws.spool.failed_items() == [] and ws.spool.pending_items() == []
            else:
                assert _server(sandbox) == again  # never overwritten without asking
                (kept,) = ws.spool.failed_items()
                assert kept.text == mine  # nothing lost
                ws.spool.discard(kept.id)
        await ws.aclose()
        await peer.aclose()

    run(body)


def test_queued_keep_mine_offline_waits_in_the_queue(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="q", data=True)
        peer = await workspace(sandbox, "editor2", tmp_path, session="p")
        assert ws.spool is not None
        item, mine, theirs = await _failed_queued_save(ws, peer, sandbox, "offline")
        found = await queued_conflict(ws.saves, item)

        async def go_offline(n: int) -> None:
            sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))

        done = await resolve_conflict(
            ws.saves,
            found,
            Asker(ConflictDecision.KEEP_MINE, between=go_offline),
            login=item.login,
            message=item.message,
            queued=item,
        )
        assert done.saved is not None and _server(sandbox) == theirs
        (waiting,) = ws.spool.pending_items()  # on disk again, over their sha
        assert waiting.text == mine and waiting.base_sha == found.their_sha
        assert ws.spool.failed_items() == []
        sandbox.faults.update(failure_rate=0.0)
        report = await ws.spool.run_once()
        assert report.committed and _server(sandbox) == mine
        await ws.aclose()
        await peer.aclose()

    run(body)


# -- a live save (EditSession) ----------------------------------------------------------------


class SecondSaveView(FakeView):
    """Someone saves again while the first conflict screen is open; then ``second`` is chosen."""

    def __init__(self, peer: Workspace, second: ConflictDecision) -> None:
        super().__init__(conflict=ConflictDecision.KEEP_MINE)
        self.peer = peer
        self.second = second
        self.again = ""

    async def ask_conflict(self, conflict: Conflict) -> ConflictDecision:
        self.asked_conflict.append(conflict)
        if len(self.asked_conflict) == 1:
            current = await self.peer.store.load(DOC)
            self.again = current.text + "saved again meanwhile\n"
            await self.peer.store.save(DOC, self.again, current.sha, self.peer.login)
            return ConflictDecision.KEEP_MINE
        return self.second


def test_live_conflict_someone_saves_again_while_choosing(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="s")
        peer = await workspace(sandbox, "editor2", tmp_path, session="p")
        for second in ConflictDecision:
            view = SecondSaveView(peer, second)
            opened = await EditSession.open(ws, view, DOC)
            assert opened is not None
            session, shown = opened
            theirs = shown.loaded.text + f"\ntheirs {second.value}\n"
            await peer.store.save(DOC, theirs, shown.loaded.sha, peer.login)
            mine = shown.loaded.text + f"\nmine {second.value}\n"
            result = await session.save(mine)
            first, again = view.asked_conflict  # asked again about the newest version
            assert first.theirs == theirs and again.theirs == view.again
            assert again.mine == mine and not again.queued
            on_server = _server(sandbox)
            if second is ConflictDecision.KEEP_MINE:
                assert isinstance(result, Saved) and on_server == mine
                assert session.base_sha == result.sha
            elif second is ConflictDecision.CANCEL:
                assert result == NotSaved(DOC, "conflict") and on_server == view.again
                assert session.base_sha == shown.loaded.sha  # mine stays in the editor
            else:
                assert isinstance(result, TheirsTaken) and result.text == view.again
                assert on_server == view.again and session.base_sha == again.their_sha
            await session.close()
        await ws.aclose()
        await peer.aclose()

    run(body)


def test_keep_mine_after_the_file_was_deleted_writes_it_again(sandbox: Any, tmp_path: Path) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="s")
        peer = await workspace(sandbox, "editor2", tmp_path, session="p")
        base = await ws.store.load(DOC)
        await peer.store.delete(DOC, base.sha, peer.login)
        mine = base.text + "\nkept\n"
        found = SaveConflict(DOC, PATH, mine, base.sha, None, None, "deleted")
        ask = Asker(ConflictDecision.KEEP_MINE)
        done = await resolve_conflict(ws.saves, found, ask, login=ws.login)
        (asked,) = ask.asked
        assert asked.theirs is None and asked.their_sha is None
        assert done.saved is not None and _server(sandbox) == mine  # created again, no sha
        # Written again meanwhile by someone else: creating is a conflict, asked about it.
        await peer.store.save(DOC, "theirs\n", (await peer.store.load(DOC)).sha, peer.login)
        done = await resolve_conflict(
            ws.saves,
            found,
            Asker(ConflictDecision.KEEP_MINE, ConflictDecision.CANCEL),
            login=ws.login,
        )
        assert done.rounds == 2 and done.decision is ConflictDecision.CANCEL
        assert _server(sandbox) == "theirs\n"
        await ws.aclose()
        await peer.aclose()

    run(body)


def test_a_queued_save_of_another_repository_is_never_compared_or_written_here(
    sandbox: Any, tmp_path: Path
) -> None:
    async def body() -> None:
        ws = await workspace(sandbox, "editor1", tmp_path, session="q", data=True)
        assert ws.spool is not None
        before = _commits(sandbox)
        for repo, branch in (("pnuai/Other", "main"), ("pnuai/PNU-Modu", "draft")):
            item = ws.spool.enqueue(
                api_host=sandbox.api_url,
                repo=repo,
                branch=branch,
                path=PATH,
                doc_id=DOC,
                text="다른 저장소의 글\n",
                base_sha=None,
                message="docs(edit): x",
                login="editor1",
            )
            with pytest.raises(OtherRepository) as caught:
                await queued_conflict(ws.saves, item)
            assert in_lang("ko", caught.value.user_message) == (
                f"“{DOC}”{particle(DOC, '은')} 다른 저장소({repo}, {branch} 브랜치)에 "
                "저장하려던 글입니다. "
                "그 저장소로 로그인해서 정리하세요. 글은 그대로 남아 있습니다."
            )
            assert ws.spool.get(item.id) is not None  # kept
        assert _commits(sandbox) == before
        await ws.aclose()

    run(body)
