"""Drafts: byte-identical round trip, safe file names, damaged files, coalescing journal."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from modu_desktop.core.saving.drafts import (
    Draft,
    DraftJournal,
    DraftKey,
    DraftStore,
)

HOST = "https://api.github.com"


@pytest.fixture(autouse=True)
def _no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Skip fsync (a busy shared disk makes it slow); test_atomic checks it is normally done."""
    monkeypatch.setattr("modu_desktop.core.atomic.DURABLE", False)


NASTY_TEXT = (
    "\ufeff---\r\ntitle: 부산대 안내 😀\r\n---\r\n\r\n:::hero\n  title: 'x'\r\n:::\n"
    "tab\tnul\x00 lone\ud800 cr\r only \u2028 end"
)


def key(doc_id: str = "01-intro", branch: str = "main") -> DraftKey:
    return DraftKey(HOST, "pnuai/PNU-Modu", branch, doc_id)


def draft(k: DraftKey, text: str = "hello", session: str = "s1", saved_at: float = 1.0) -> Draft:
    return Draft(k, text, "abc123", f"docs/{k.doc_id}.md", saved_at, session, "Intro")


def test_round_trip_is_exact(tmp_path: Path) -> None:
    store = DraftStore(tmp_path)
    d = draft(key(), NASTY_TEXT)
    store.save(d)
    loaded = store.load(key())
    assert loaded == d
    assert loaded is not None and loaded.text == NASTY_TEXT
    assert loaded.text.encode("utf-8", "surrogatepass") == NASTY_TEXT.encode(
        "utf-8", "surrogatepass"
    )


@pytest.mark.parametrize(
    "doc_id",
    [
        "../../etc/passwd",
        "bootcamp/00-overview",
        "a b/c d",
        "한글/문서",
        "..",
        "/abs",
        "x\\..\\y",
        "",
    ],
)
def test_doc_ids_never_escape_the_directory(tmp_path: Path, doc_id: str) -> None:
    root = tmp_path / "drafts"
    store = DraftStore(root)
    path = store.save(draft(key(doc_id), "t"))
    assert path.parent == root
    assert store.load(key(doc_id)) == draft(key(doc_id), "t")
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == [path]


def test_keys_are_distinct(tmp_path: Path) -> None:
    store = DraftStore(tmp_path)
    keys = [
        key("a"),
        key("a", branch="dev"),
        DraftKey(HOST + "/", "pnuai/PNU-Modu", "main", "b"),
        DraftKey("http://127.0.0.1:8000", "pnuai/PNU-Modu", "main", "a"),
        DraftKey(HOST, "other/repo", "main", "a"),
    ]
    for i, k in enumerate(keys):
        store.save(draft(k, f"text {i}"))
    assert {d.text for d in store.list()} == {f"text {i}" for i in range(len(keys))}
    assert DraftKey(HOST + "/", "o/r", "m", "d") == DraftKey(HOST, "o/r", "m", "d")


def test_load_missing_returns_none(tmp_path: Path) -> None:
    assert DraftStore(tmp_path / "none").load(key()) is None
    assert DraftStore(tmp_path / "none").list() == []


@pytest.mark.expect_log("modu_desktop.core.saving.drafts")
def test_truncation_at_every_offset_never_crashes_or_hides_others(tmp_path: Path) -> None:
    store = DraftStore(tmp_path)
    good = draft(key("good"), "좋은 텍스트\r\n")
    store.save(good)
    victim_path = store.save(draft(key("victim"), NASTY_TEXT))
    data = victim_path.read_bytes()
    for cut in range(len(data) - 1):  # every offset: detected as damaged, never raises
        victim_path.write_bytes(data[:cut])
        loaded, reason = store._read(victim_path)
        assert loaded is None and reason, cut
    cuts = list(range(0, len(data) - 1, 5))
    for cut in cuts:  # through the public API (which also moves the file aside)
        victim_path.write_bytes(data[:cut])
        scan = store.scan()
        assert scan.drafts == [good], cut
        assert len(scan.problems) == 1
        problem = scan.problems[0]
        assert problem.moved_to is not None and problem.moved_to.read_bytes() == data[:cut]
        assert not victim_path.exists()
    assert len(list((tmp_path / "broken").iterdir())) == len(cuts)  # all kept, none deleted


@pytest.mark.parametrize(
    "garbage",
    [b"", b"\x00" * 64, b"\xff\xd8\xff\xe0 jpeg", b"[]", b'{"kind": "modu-draft"}', b"null", b"42"],
)
@pytest.mark.expect_log("modu_desktop.core.saving.drafts")
def test_garbage_files_are_set_aside(tmp_path: Path, garbage: bytes) -> None:
    store = DraftStore(tmp_path)
    good = draft(key("good"))
    store.save(good)
    (tmp_path / ("0" * 40 + ".draft.json")).write_bytes(garbage)
    assert store.list() == [good]
    assert len(store.last_problems) == 1
    assert store.list() == [good] and store.last_problems == []


@pytest.mark.expect_log("modu_desktop.core.saving.drafts")
def test_load_of_damaged_file_reports(tmp_path: Path) -> None:
    store = DraftStore(tmp_path)
    path = store.save(draft(key()))
    path.write_bytes(path.read_bytes()[:20])
    assert store.load(key()) is None
    assert store.last_problems and store.last_problems[0].moved_to is not None


@pytest.mark.expect_log("modu_desktop.core.saving.drafts")
def test_file_under_wrong_name_is_set_aside(tmp_path: Path) -> None:
    store = DraftStore(tmp_path)
    path = store.save(draft(key("a")))
    path.rename(tmp_path / ("f" * 40 + ".draft.json"))
    assert store.list() == []
    assert "does not match" in store.last_problems[0].problem


def test_temp_and_foreign_files_are_ignored(tmp_path: Path) -> None:
    store = DraftStore(tmp_path)
    store.save(draft(key()))
    (tmp_path / ".x.draft.json.abc.tmp").write_bytes(b"half")
    (tmp_path / "notes.txt").write_text("hi")
    assert len(store.list()) == 1 and store.last_problems == []


def test_discard_only_if_text(tmp_path: Path) -> None:
    store = DraftStore(tmp_path)
    store.save(draft(key(), "newer text"))
    assert not store.discard(key(), only_if_text="committed text")
    assert store.load(key()) is not None
    assert store.discard(key(), only_if_text="newer text")
    assert store.load(key()) is None
    assert not store.discard(key())


def test_list_orphans(tmp_path: Path) -> None:
    store = DraftStore(tmp_path)
    store.save(draft(key("a"), session="live", saved_at=2))
    store.save(draft(key("b"), session="dead", saved_at=1))
    assert [d.key.doc_id for d in store.list_orphans({"live"})] == ["b"]
    assert [d.key.doc_id for d in store.list()] == ["b", "a"]  # oldest first


def test_concurrent_saves_from_threads(tmp_path: Path) -> None:
    store = DraftStore(tmp_path)

    def worker(n: int) -> None:
        for i in range(20):
            store.save(draft(key(f"doc{n}"), f"{n}-{i}"))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(d.text for d in store.list()) == [f"{n}-19" for n in range(6)]
    assert store.last_problems == []


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def journal(store: DraftStore, clock: FakeClock) -> DraftJournal:
    return DraftJournal(
        store,
        key(),
        base_sha="base",
        doc_path="docs/01-intro.md",
        session_id="s1",
        clock=clock,
        wall_clock=clock,
    )


def test_journal_coalesces_keystrokes(tmp_path: Path) -> None:
    clock, store = FakeClock(), DraftStore(tmp_path)
    j = journal(store, clock)
    assert j.due_in() is None and not j.tick()
    text = ""
    for ch in "abcdefghij":  # one keystroke every 0.3 s: continuous typing
        text += ch
        j.note_edit(text)
        j.tick()
        clock.now += 0.3
    # 3 s of typing: written at most every 2 s, not on every keystroke
    assert 1 <= j.writes <= 2
    clock.now += 1.0
    assert j.tick()
    loaded = store.load(key())
    assert loaded is not None and loaded.text == "abcdefghij" and loaded.base_sha == "base"
    assert not j.dirty and not j.tick()


def test_journal_writes_within_two_seconds_of_last_keystroke(tmp_path: Path) -> None:
    clock, store = FakeClock(), DraftStore(tmp_path)
    j = journal(store, clock)
    j.note_edit("x")
    assert j.due_in() == pytest.approx(1.0)
    clock.now += 0.99
    assert not j.tick()
    clock.now += 0.02
    assert j.tick() and j.writes == 1


def test_journal_ignores_no_op_edits_and_flushes(tmp_path: Path) -> None:
    clock, store = FakeClock(), DraftStore(tmp_path)
    j = journal(store, clock)
    j.note_edit("x")
    assert j.flush() and not j.flush()
    j.note_edit("x")
    assert not j.dirty


@pytest.mark.expect_log("modu_desktop.core.saving.drafts")
def test_journal_survives_io_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock, store = FakeClock(), DraftStore(tmp_path)
    j = journal(store, clock)

    def fail(d: Draft) -> Path:
        raise OSError("disk full")

    monkeypatch.setattr(store, "save", fail)
    j.note_edit("x")
    clock.now += 5
    assert not j.tick() and j.last_error is not None and j.dirty
    assert j.due_in() == pytest.approx(1.0)  # retried later, not in a hot loop
    monkeypatch.undo()
    clock.now += 1
    assert j.tick() and j.last_error is None


def test_journal_committed_discards_only_matching_text(tmp_path: Path) -> None:
    clock, store = FakeClock(), DraftStore(tmp_path)
    j = journal(store, clock)
    j.note_edit("v1")
    j.flush()
    assert j.committed("v1", "sha1")
    assert store.load(key()) is None and j.base_sha == "sha1"

    j.note_edit("v2")
    j.flush()
    j.note_edit("v3")  # typed after the save of v2 started
    assert not j.committed("v2", "sha2")
    j.flush()
    loaded = store.load(key())
    assert loaded is not None and loaded.text == "v3" and loaded.base_sha == "sha2"


def test_journal_committed_rebases_newer_flushed_text(tmp_path: Path) -> None:
    clock, store = FakeClock(), DraftStore(tmp_path)
    j = journal(store, clock)
    j.note_edit("v2")
    j.flush()  # the file holds v2, newer than the v1 that the server just confirmed
    assert not j.committed("v1", "sha1")
    assert j.flush()
    loaded = store.load(key())
    assert loaded is not None and loaded.text == "v2" and loaded.base_sha == "sha1"


@pytest.mark.expect_log("could not write draft")
def test_journal_hands_a_draft_to_a_writer_and_keeps_later_edits(tmp_path: Path) -> None:
    """``take`` gives the due draft to a writer elsewhere; edits noted before it reports back
    wait for the next draft; a failed write puts its text back unless newer text came."""
    clock, store = FakeClock(), DraftStore(tmp_path)
    j = journal(store, clock)
    j.note_edit("v1")
    assert j.take() is None  # not due yet
    clock.now += 5
    first = j.take()
    assert first is not None and first.text == "v1" and j.dirty
    assert j.take() is None  # one write at a time
    j.note_edit("v2")  # typed while v1 is being written
    store.save(first)
    j.written(first)
    assert j.last_written == "v1" and j.writes == 1 and j.dirty
    clock.now += 5
    second = j.take()
    assert second is not None and second.text == "v2"
    j.written(second, OSError("disk full"))
    assert j.last_error is not None and j.dirty
    clock.now += 5
    again = j.take()
    assert again is not None and again.text == "v2"  # tried again
    store.save(again)
    j.written(again)
    assert not j.dirty and store.load(key()) is not None
