"""A change of many pages in the save queue (Qt-free, no network): one item beside the saves,
never merged with one, counted as one, sent by the change sender in its turn; found in
``sending/`` after a crash it goes back to wait; a refusal fails it, a long outage exhausts it,
and both can be put back."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from modu_desktop.core.saving.queue import (
    Backoff,
    ChangeItem,
    ChangesLanded,
    Fatal,
    Retryable,
    SaveSpool,
)

BODY = {"summary": {"kind": "replace", "old": "a", "new": "b"}, "files": [], "titles": {}}


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def _never(_: Any) -> Any:
    raise AssertionError("no save is queued in these tests")


def _spool(root: Path, clock: Clock, sender: Any = None, **kw: Any) -> SaveSpool:
    return SaveSpool(
        root,
        _never,
        _never,
        clock=clock,
        backoff=Backoff(base_s=1.0, cap_s=1.0, jitter=0.0),
        change_sender=sender,
        **kw,
    )


def _queue(spool: SaveSpool) -> ChangeItem:
    return spool.enqueue_change(
        api_host="http://x/",
        repo="o/r",
        branch="main",
        login="kim",
        session_id="s1",
        body=BODY,
        pages=17,
        install_id="i1",
    )


def test_a_change_is_one_item_beside_the_saves_and_is_sent_once(tmp_path: Path) -> None:
    clock = Clock()
    sent: list[ChangeItem] = []

    async def sender(item: ChangeItem) -> ChangesLanded:
        sent.append(item)
        return ChangesLanded({"state": "committed"}, "c0ffee")

    spool = _spool(tmp_path, clock, sender)
    item = _queue(spool)
    spool.enqueue(
        api_host="http://x",
        repo="o/r",
        branch="main",
        path="docs/a.md",
        doc_id="a",
        text="mine",
        base_sha="b" * 40,
        message="m",
        login="kim",
    )
    assert spool.pending_count() == 2  # the save and the change of 17 pages: two items
    assert [i.path for i in spool.pending_items()] == ["docs/a.md"]  # saves only
    (waiting,) = spool.change_items("pending")
    assert (waiting.id, waiting.pages, waiting.api_host, waiting.body) == (
        item.id,
        17,
        "http://x",
        BODY,
    )
    spool.discard(spool.pending_items()[0].id)
    report = asyncio.run(spool.run_once())
    (landed,) = report.changes_landed
    assert landed.commit_sha == "c0ffee" and landed.result == {"state": "committed"}
    assert [i.login for i in sent] == ["kim"] and spool.pending_count() == 0
    assert [i.id for i in spool.change_items("done")] == [item.id]
    assert not asyncio.run(spool.run_once()).changes_landed  # never twice


def test_a_change_found_being_sent_after_a_crash_waits_again(tmp_path: Path) -> None:
    clock = Clock()
    spool = _spool(tmp_path, clock)
    item = _queue(spool)
    (tmp_path / "pending" / f"{item.id}.json").rename(tmp_path / "sending" / f"{item.id}.json")

    async def sender(_: ChangeItem) -> ChangesLanded:
        return ChangesLanded({"state": "committed"}, None)

    later = _spool(tmp_path, clock, sender)  # the next start
    report = asyncio.run(later.run_once())
    (landed,) = report.changes_landed
    assert landed.id == item.id and later.pending_count() == 0


def test_a_change_without_a_sender_waits(tmp_path: Path) -> None:
    spool = _spool(tmp_path, Clock())
    _queue(spool)
    assert not asyncio.run(spool.run_once()).changes_landed
    assert spool.pending_count() == 1


def test_a_refused_change_fails_and_an_outage_exhausts_it_both_can_go_back(
    tmp_path: Path,
) -> None:
    clock = Clock()
    answers: list[Any] = [Fatal("PermissionDenied: no")]

    async def sender(_: ChangeItem) -> Any:
        return answers.pop(0)

    spool = _spool(tmp_path, clock, sender, max_attempts=2)
    item = _queue(spool)
    (failed,) = asyncio.run(spool.run_once()).changes_failed
    assert failed.failure == "fatal" and spool.pending_count() == 0
    assert spool.retry_now(item.id) and spool.pending_count() == 1
    answers.extend([Retryable("offline"), Retryable("offline")])
    assert not asyncio.run(spool.run_once()).changes_failed  # waits: attempt 1 of 2
    clock.now += 5
    (exhausted,) = asyncio.run(spool.run_once()).changes_failed
    assert exhausted.failure == "exhausted" and exhausted.last_error == "offline"
    assert [i.id for i in spool.change_items("failed")] == [item.id]
