"""core.ops against the loopback sandbox: create / delete / reorder, refusals and failure paths."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.brochure import frontmatter
from modu_desktop.core.docops.ops import (
    DocOps,
    NewDocRequest,
    OpCode,
    suggest_id,
    validate_new_doc,
    validate_new_id,
)
from modu_desktop.core.locks.model import LockStatus
from modu_desktop.core.locks.wire import lock_path, render_lock
from tests.helpers.docops import ops_for, run
from tests.helpers.lang import in_lang


def lock_as(sb: Any, tmp: Path, login: str, doc_id: str) -> None:
    async def body(ops: DocOps) -> None:
        res = await ops.locks.acquire(doc_id)
        assert res.held is not None

    run(sb, tmp, body, login=login, session="other")


def messages(sb: Any, n: int = 10) -> list[str]:
    return [c["message"].strip() for c in sb.commits()[:n]]


def fm_of(sb: Any, path: str) -> frontmatter.FrontMatter:
    data = sb.read_file(path)
    assert data is not None, path
    return frontmatter.parse(data.decode("utf-8"))


# ------------------------------------------------------------------------------ validation


def test_validate_ids() -> None:
    assert validate_new_id("bootcamp-2026") is None
    assert validate_new_id("부트캠프_안내") is None
    for bad in ("", "a/b", "../x", "a..b", "x.md", " ", "-lead", "a b", "a\\b", "x" * 81, "é"):
        assert validate_new_id(bad) is not None, bad
    spaces = validate_new_id("my new page")
    assert spaces is not None and "my-new-page" in spaces.en and "공백" in spaces.ko
    assert suggest_id("  Hello World! 2026 ") == "Hello-World-2026"
    assert validate_new_doc(NewDocRequest("ok", "T", theme="pink")) is not None
    bad_layout = validate_new_doc(NewDocRequest("ok", "T", layout="grid"))
    assert bad_layout is not None and bad_layout[0] == "layout"
    assert validate_new_doc(NewDocRequest("ok", "T", position=-1)) is not None
    assert validate_new_doc(NewDocRequest("ok", "two\nlines")) is not None
    no_title = validate_new_doc(NewDocRequest("ok", " "))
    assert no_title is not None and no_title[0] == "title"
    assert NewDocRequest("intro", "T", position=7).path == "docs/07-intro.md"
    assert NewDocRequest("intro", "T").path == "docs/intro.md"
    assert NewDocRequest("intro", "T", position=7).file_doc_id == "07-intro"


# ------------------------------------------------------------------------------ create


def test_create_locks_first_then_creates_with_web_admin_message(
    sandbox: Any, tmp_path: Path
) -> None:
    req = NewDocRequest(
        "bootcamp",
        "부트캠프 안내",
        position=6,
        nav_label="부트캠프",
        theme="teal-green",
        layout="poster",
        template=True,
    )

    async def body(ops: DocOps) -> Any:
        res = await ops.create(req)
        assert res.ok, res.message
        assert res.held is not None and res.held.doc_id == "06-bootcamp"
        view = await ops.locks.inspect("06-bootcamp")
        assert view.status is LockStatus.MINE_THIS_SESSION
        rel = await ops.locks.release(res.held)
        return res, rel

    res, _ = run(sandbox, tmp_path, body)
    assert res.code is OpCode.CREATED and res.path == "docs/06-bootcamp.md"
    said = in_lang("ko", res.user_message)
    assert said == "“부트캠프 안내” 문서를 만들었습니다. 아직 게시되지 않았습니다."
    fm = fm_of(sandbox, "docs/06-bootcamp.md")
    assert fm.get("draft") == "true"  # a new page waits for 게시하기
    assert fm.get("id") == "bootcamp" and fm.get("title") == "부트캠프 안내"
    assert fm.get_int("sidebar_position") == 6 and fm.get("nav_label") == "부트캠프"
    assert fm.get("theme") == "teal-green" and fm.get("layout") == "poster"
    assert ":::hero" in fm.body and ":::cta" in fm.body
    assert messages(sandbox, 3) == [
        "system: release lock for 06-bootcamp [skip ci]",
        "feat(docs): create 06-bootcamp.md by @editor1",
        "system: acquire lock for 06-bootcamp by @editor1 [skip ci]",
    ]


def test_create_without_position_and_release(sandbox: Any, tmp_path: Path) -> None:
    res = run(
        sandbox,
        tmp_path,
        lambda ops: ops.create(NewDocRequest("faq", "자주 묻는 질문"), keep_lock=False),
    )
    assert res.ok and res.path == "docs/faq.md" and res.held is None
    assert sandbox.read_file(".locks/faq.lock.json") is None
    text = sandbox.read_file("docs/faq.md").decode()
    assert text.startswith("---\nid: faq\ntitle: 자주 묻는 질문\n")
    assert "sidebar_position" not in text
    assert messages(sandbox, 2)[1] == "feat(docs): create faq.md by @editor1"


@pytest.mark.parametrize(
    ("req", "field"),
    [
        (NewDocRequest("welcome", "dup id"), "doc_id"),  # 01-welcome.md has id: welcome
        (NewDocRequest("WELCOME", "dup id, other case"), "doc_id"),
        (NewDocRequest("programs", "dup file", position=2), "position"),  # docs/02-programs.md
        (NewDocRequest("bad/id", "slash"), "doc_id"),
        (NewDocRequest("ok-id", "bad theme", theme="neon"), "theme"),
    ],
)
def test_create_refusals_keep_the_input(
    sandbox: Any, tmp_path: Path, req: NewDocRequest, field: str
) -> None:
    before = len(sandbox.commits())
    res = run(sandbox, tmp_path, lambda ops: ops.create(req))
    assert not res.ok and res.code in (OpCode.EXISTS, OpCode.INVALID)
    assert res.input_field == field
    assert res.request is not None and res.request.title == req.title
    assert len(sandbox.commits()) == before  # nothing written, not even a lock


def test_create_refused_when_the_new_doc_id_is_locked_by_someone_else(
    sandbox: Any, tmp_path: Path
) -> None:
    lock_as(sandbox, tmp_path, "editor2", "07-news")
    before = len(sandbox.commits())
    res = run(sandbox, tmp_path, lambda ops: ops.create(NewDocRequest("news", "소식", position=7)))
    assert (
        res.code is OpCode.LOCKED
        and "@editor2" in res.message
        and "@editor2" in in_lang("ko", res.user_message)
    )
    assert res.request is not None and res.request.title == "소식"
    assert sandbox.read_file("docs/07-news.md") is None
    assert len(sandbox.commits()) == before


def test_create_when_the_file_appears_between_check_and_write(sandbox: Any, tmp_path: Path) -> None:
    async def body(ops: DocOps) -> Any:
        real_acquire = ops.locks.acquire

        async def acquire_then_race(doc_id: str, **kw: Any) -> Any:
            res = await real_acquire(doc_id, **kw)
            await ops.store.client.put_file(
                "docs/08-race.md", b"---\nid: race\n---\n", "someone else"
            )
            return res

        ops.locks.acquire = acquire_then_race  # type: ignore[method-assign]  # a fault in this one object
        return await ops.create(NewDocRequest("race", "경주", position=8))

    res = run(sandbox, tmp_path, body)
    assert res.code is OpCode.EXISTS and "just now" in res.message
    assert sandbox.read_file(".locks/08-race.lock.json") is None  # our lock was released
    assert sandbox.read_file("docs/08-race.md") == b"---\nid: race\n---\n"


def test_create_from_imported_text_keeps_unknown_keys_and_body(
    sandbox: Any, tmp_path: Path
) -> None:
    base = "---\r\nid: old\r\ntitle: Old\r\ndescription: keep me\r\n---\r\n\r\nBody 본문\r\n"
    req = NewDocRequest("imported", "New title", position=12, base_text=base)
    res = run(sandbox, tmp_path, lambda ops: ops.create(req, keep_lock=False))
    assert res.ok
    text = sandbox.read_file("docs/12-imported.md").decode()
    assert "\r\nid: imported\r\n" in text and "description: keep me" in text
    assert text.endswith("\r\nBody 본문\r\n") and "sidebar_position: 12" in text


# ------------------------------------------------------------------------------ delete


def test_delete_uses_sha_and_message_and_cleans_its_lock(sandbox: Any, tmp_path: Path) -> None:
    res = run(sandbox, tmp_path, lambda ops: ops.delete("05-sandbox-notes"))
    assert res.code is OpCode.DELETED, res.message
    assert sandbox.read_file("docs/05-sandbox-notes.md") is None
    assert sandbox.read_file(lock_path("05-sandbox-notes")) is None
    assert messages(sandbox, 3) == [
        "system: release lock for 05-sandbox-notes [skip ci]",
        "docs(delete): remove 05-sandbox-notes.md by @editor1",
        "system: acquire lock for 05-sandbox-notes by @editor1 [skip ci]",
    ]


def test_delete_with_a_lock_we_hold(sandbox: Any, tmp_path: Path) -> None:
    async def body(ops: DocOps) -> Any:
        acq = await ops.locks.acquire("04-admission")
        assert acq.held is not None
        return await ops.delete("04-admission", held=acq.held)

    res = run(sandbox, tmp_path, body)
    assert res.ok
    assert sandbox.read_file(lock_path("04-admission")) is None
    assert messages(sandbox, 2)[1] == "docs(delete): remove 04-admission.md by @editor1"


def test_delete_refused_under_a_fresh_foreign_lock(sandbox: Any, tmp_path: Path) -> None:
    lock_as(sandbox, tmp_path, "editor2", "03-strategy")
    before = len(sandbox.commits())
    res = run(sandbox, tmp_path, lambda ops: ops.delete("03-strategy"))
    assert res.code is OpCode.LOCKED and "@editor2" in res.message
    assert sandbox.read_file("docs/03-strategy.md") is not None
    assert len(sandbox.commits()) == before


def test_delete_takes_over_a_stale_lock(sandbox: Any, tmp_path: Path) -> None:
    async def body(ops: DocOps) -> Any:
        stale = render_lock(
            {
                "docId": "03-strategy",
                "editingBy": "editor2",
                "startedAt": 1_700_000_000,
                "lastHeartbeat": 1_700_000_000,
            }
        )
        await ops.store.client.put_file(lock_path("03-strategy"), stale, "old lock")
        return await ops.delete("03-strategy")

    res = run(sandbox, tmp_path, body)
    assert res.ok
    assert sandbox.read_file("docs/03-strategy.md") is None
    assert sandbox.read_file(lock_path("03-strategy")) is None


def test_delete_refused_when_the_file_changed_since_the_user_saw_it(
    sandbox: Any, tmp_path: Path
) -> None:
    async def body(ops: DocOps) -> Any:
        snap = await ops.store.refresh()
        seen = snap.doc("02-programs")
        assert seen is not None
        doc = await ops.store.load("02-programs")
        await ops.store.save(doc, doc.text + "\nmore\n", doc.sha, "editor2")
        return await ops.delete("02-programs", expected_sha=seen.sha)

    res = run(sandbox, tmp_path, body)
    assert res.code is OpCode.CONFLICT
    assert sandbox.read_file("docs/02-programs.md") is not None


def test_delete_conflict_during_write_releases_our_lock(sandbox: Any, tmp_path: Path) -> None:
    async def body(ops: DocOps) -> Any:
        real = ops.store.delete

        async def racing_delete(doc: Any, sha: str, login: str, message: str | None = None) -> Any:
            loaded = await ops.store.load("02-programs")
            await ops.store.save(loaded, loaded.text + "x\n", loaded.sha, "editor2")
            return await real(doc, sha, login, message)

        ops.store.delete = racing_delete  # type: ignore[method-assign]  # a fault in this one object
        return await ops.delete("02-programs")

    res = run(sandbox, tmp_path, body)
    assert res.code is OpCode.CONFLICT
    assert sandbox.read_file("docs/02-programs.md") is not None
    assert sandbox.read_file(lock_path("02-programs")) is None


def test_delete_missing(sandbox: Any, tmp_path: Path) -> None:
    res = run(sandbox, tmp_path, lambda ops: ops.delete("nope"))
    assert res.code is OpCode.NOT_FOUND


# ------------------------------------------------------------------------------ reorder


def test_move_down_swaps_positions_in_two_commits(sandbox: Any, tmp_path: Path) -> None:
    res = run(sandbox, tmp_path, lambda ops: ops.move("02-programs", "down"))
    assert res.code is OpCode.MOVED, res.message
    assert fm_of(sandbox, "docs/02-programs.md").get_int("sidebar_position") == 3
    assert fm_of(sandbox, "docs/03-strategy.md").get_int("sidebar_position") == 2
    assert messages(sandbox, 2) == [
        "chore(docs): swap order position of 03-strategy.md to 2 by @editor1",
        "chore(docs): swap order position of 02-programs.md to 3 by @editor1",
    ]
    assert len(res.commits) == 2
    # Only the position line changed.
    text = sandbox.read_file("docs/02-programs.md").decode()
    assert text.startswith("---\nid: programs\ntitle: 교육 프로그램과 추진 일정\n")


def test_move_up_and_edges(sandbox: Any, tmp_path: Path) -> None:
    res = run(sandbox, tmp_path, lambda ops: ops.move("99-template", "up"))
    assert res.ok
    assert fm_of(sandbox, "docs/99-template.md").get_int("sidebar_position") == 5
    assert fm_of(sandbox, "docs/05-sandbox-notes.md").get_int("sidebar_position") == 99
    before = len(sandbox.commits())
    first = run(sandbox, tmp_path, lambda ops: ops.move("01-welcome", "up"))
    assert first.code is OpCode.NOTHING_TO_DO and "first" in first.message
    last = run(sandbox, tmp_path, lambda ops: ops.move("05-sandbox-notes", "down"))
    assert last.code is OpCode.NOTHING_TO_DO
    assert (
        run(sandbox, tmp_path, lambda ops: ops.move("01-welcome", "sideways")).code
        is OpCode.INVALID
    )
    assert len(sandbox.commits()) == before


def test_a_page_without_a_position_moves_and_gets_one(sandbox: Any, tmp_path: Path) -> None:
    """A page made without a place in the menu is listed last; moving it up swaps it with the
    page above, both written with the places they are listed at — no “give it a position
    first”."""

    async def body(ops: DocOps) -> Any:
        made = await ops.create(NewDocRequest("faq", "자주 묻는 질문"), keep_lock=False)
        assert made.ok and made.path == "docs/faq.md"
        return await ops.move("faq", "up")

    up = run(sandbox, tmp_path, body)
    assert up.code is OpCode.MOVED, up.message
    # the sample's last page has position 99: the page listed after it was at 100
    assert fm_of(sandbox, "docs/faq.md").get_int("sidebar_position") == 99
    assert fm_of(sandbox, "docs/99-template.md").get_int("sidebar_position") == 100
    again = run(sandbox, tmp_path, lambda ops: ops.move("faq", "up"))
    assert again.code is OpCode.MOVED, again.message
    assert fm_of(sandbox, "docs/faq.md").get_int("sidebar_position") == 5
    assert fm_of(sandbox, "docs/05-sandbox-notes.md").get_int("sidebar_position") == 99


def test_two_pages_without_positions_change_places(sandbox: Any, tmp_path: Path) -> None:
    async def body(ops: DocOps) -> Any:
        for doc_id in ("faq", "notice"):
            assert (await ops.create(NewDocRequest(doc_id, doc_id), keep_lock=False)).ok
        return await ops.move("notice", "up")

    res = run(sandbox, tmp_path, body)
    assert res.code is OpCode.MOVED, res.message
    assert fm_of(sandbox, "docs/notice.md").get_int("sidebar_position") == 100
    assert fm_of(sandbox, "docs/faq.md").get_int("sidebar_position") == 101


def test_the_places_of_pages_as_listed() -> None:
    from modu_desktop.core.docops.reorder import listed_positions
    from modu_desktop.core.documents.model import DocSummary

    def doc(doc_id: str, position: float | None) -> DocSummary:
        return DocSummary(doc_id, f"docs/{doc_id}.md", "sha", doc_id, position=position)

    listed = listed_positions([doc("a", 1), doc("b", 7.5), doc("c", None), doc("d", None)])
    assert listed == {"a": 1, "b": 7.5, "c": 8, "d": 9}
    assert listed_positions([doc("x", None)]) == {"x": 1}


def test_move_refused_when_the_neighbour_is_locked(sandbox: Any, tmp_path: Path) -> None:
    lock_as(sandbox, tmp_path, "editor2", "03-strategy")
    before = len(sandbox.commits())
    res = run(sandbox, tmp_path, lambda ops: ops.move("02-programs", "down"))
    assert res.code is OpCode.LOCKED and res.doc_id == "03-strategy" and "@editor2" in res.message
    assert len(sandbox.commits()) == before


def test_move_allowed_on_a_document_we_hold(sandbox: Any, tmp_path: Path) -> None:
    async def body(ops: DocOps) -> Any:
        acq = await ops.locks.acquire("02-programs")
        assert acq.held is not None
        res = await ops.move("02-programs", "up")
        await ops.locks.release(acq.held)
        return res

    res = run(sandbox, tmp_path, body)
    assert res.ok
    assert fm_of(sandbox, "docs/02-programs.md").get_int("sidebar_position") == 1


def _second_write_races(ops: DocOps, target: str) -> None:
    """Make someone else change `target` right before our write of it (a 409)."""
    real_save = ops.store.save

    async def save(
        doc: Any, text: str, base_sha: str, login: str, message: str | None = None
    ) -> Any:
        if (
            getattr(doc, "path", doc) == target
            and message
            and "swap" in message
            and "to 2 " in message
        ):
            loaded = await ops.store.load(target)
            await real_save(
                loaded, loaded.text + "\n<!-- edited by editor2 -->\n", loaded.sha, "editor2"
            )
        return await real_save(doc, text, base_sha, login, message)

    ops.store.save = save  # type: ignore[method-assign]  # a fault in this one object


def test_move_second_write_409_rolls_back_the_first(sandbox: Any, tmp_path: Path) -> None:
    before = sandbox.read_file("docs/02-programs.md")

    async def body(ops: DocOps) -> Any:
        _second_write_races(ops, "docs/03-strategy.md")
        return await ops.move("02-programs", "down")

    res = run(sandbox, tmp_path, body)
    assert res.code is OpCode.ROLLED_BACK, res.message
    assert "“비전과 추진 전략” changed meanwhile" in res.message and "undone" in res.message
    assert ".md" not in res.message
    assert sandbox.read_file("docs/02-programs.md") == before
    assert fm_of(sandbox, "docs/03-strategy.md").get_int("sidebar_position") == 3
    assert "edited by editor2" in sandbox.read_file("docs/03-strategy.md").decode()
    msgs = messages(sandbox, 3)
    assert msgs[0] == "chore(docs): swap order position of 02-programs.md to 2 by @editor1"
    assert msgs[1] == "docs(edit): update 03-strategy.md by @editor2"
    assert msgs[2] == "chore(docs): swap order position of 02-programs.md to 3 by @editor1"


def test_move_reports_a_half_done_state_when_the_undo_fails(sandbox: Any, tmp_path: Path) -> None:
    async def body(ops: DocOps) -> Any:
        _second_write_races(ops, "docs/03-strategy.md")
        real_save = ops.store.save
        calls = {"n": 0}

        async def save(*a: Any, **kw: Any) -> Any:
            calls["n"] += 1
            if calls["n"] == 3:  # the compensating write
                from modu_desktop.core.github.errors import ServerError

                raise ServerError(502, "Server Error")
            return await real_save(*a, **kw)

        ops.store.save = save  # type: ignore[method-assign]  # a fault in this one object
        return await ops.move("02-programs", "down")

    res = run(sandbox, tmp_path, body)
    assert res.code is OpCode.PARTIAL
    assert "“교육 프로그램과 추진 일정” now has position 3" in res.message
    assert "back to 2" in res.message and "“비전과 추진 전략” could not" in res.message
    assert ".md" not in res.message and "commit" not in res.message
    assert fm_of(sandbox, "docs/02-programs.md").get_int("sidebar_position") == 3
    assert fm_of(sandbox, "docs/03-strategy.md").get_int("sidebar_position") == 3


def test_move_first_write_conflict_changes_nothing(sandbox: Any, tmp_path: Path) -> None:
    async def body(ops: DocOps) -> Any:
        real_load = ops.store.load

        async def load(doc_id: str) -> Any:
            loaded = await real_load(doc_id)
            if doc_id == "03-strategy":  # after 02 was read: change 02 behind our back
                other = await real_load("02-programs")
                await ops.store.save(other, other.text + "x\n", other.sha, "editor2")
            return loaded

        ops.store.load = load  # type: ignore[method-assign]  # a fault in this one object
        return await ops.move("02-programs", "down")

    res = run(sandbox, tmp_path, body)
    assert res.code is OpCode.CONFLICT
    assert fm_of(sandbox, "docs/02-programs.md").get_int("sidebar_position") == 2
    assert fm_of(sandbox, "docs/03-strategy.md").get_int("sidebar_position") == 3


def test_move_stays_within_its_folder(sandbox: Any, tmp_path: Path) -> None:
    async def body(ops: DocOps) -> Any:
        gh = ops.store.client
        await gh.put_file("docs/camp/01-a.md", b"---\nid: a\nsidebar_position: 1\n---\n", "a")
        await gh.put_file("docs/camp/02-b.md", b"---\nid: b\nsidebar_position: 2\n---\n", "b")
        up = await ops.move("camp/01-a", "up")
        down = await ops.move("camp/01-a", "down")
        return up, down

    up, down = run(sandbox, tmp_path, body)
    assert up.code is OpCode.NOTHING_TO_DO  # 01-welcome (position 1, top level) is not its peer
    assert down.ok
    assert fm_of(sandbox, "docs/camp/01-a.md").get_int("sidebar_position") == 2
    assert fm_of(sandbox, "docs/01-welcome.md").get_int("sidebar_position") == 1


def test_delete_refused_when_our_editor_lock_was_taken_over(sandbox: Any, tmp_path: Path) -> None:
    async def body(ops: DocOps) -> Any:
        acq = await ops.locks.acquire("04-admission")
        assert acq.held is not None
        async with ops_for(sandbox, tmp_path, login="editor2", session="thief") as other:
            view = await other.locks.inspect("04-admission")
            stolen = await other.locks.steal(view)
            assert stolen.held is not None
        return await ops.delete("04-admission", held=acq.held)

    res = run(sandbox, tmp_path, body)
    assert res.code is OpCode.LOCKED and "@editor2" in res.message
    assert sandbox.read_file("docs/04-admission.md") is not None


@pytest.mark.parametrize("landed", [True, False])
def test_move_second_write_uncertain(sandbox: Any, tmp_path: Path, landed: bool) -> None:
    """The answer to the second write is lost: read back; complete if it landed, else undo."""
    from modu_desktop.core.github.errors import WriteUncertain

    async def body(ops: DocOps) -> Any:
        real_save = ops.store.save

        async def save(
            doc: Any, text: str, base_sha: str, login: str, message: str | None = None
        ) -> Any:
            if getattr(doc, "path", doc) == "docs/03-strategy.md":
                if landed:
                    await real_save(doc, text, base_sha, login, message)
                raise WriteUncertain("lost answer")
            return await real_save(doc, text, base_sha, login, message)

        ops.store.save = save  # type: ignore[method-assign]  # a fault in this one object
        return await ops.move("02-programs", "down")

    res = run(sandbox, tmp_path, body)
    p2 = fm_of(sandbox, "docs/02-programs.md").get_int("sidebar_position")
    p3 = fm_of(sandbox, "docs/03-strategy.md").get_int("sidebar_position")
    if landed:
        assert res.code is OpCode.MOVED and (p2, p3) == (3, 2)
    else:
        assert res.code is OpCode.ROLLED_BACK and (p2, p3) == (2, 3)


def test_move_when_github_fails_after_the_first_write(sandbox: Any, tmp_path: Path) -> None:
    """Sandbox fault: every request fails (502) right after the first swap commit. The result
    names the half-done state, which is what the repository shows afterwards."""

    async def body(ops: DocOps) -> Any:
        real_save = ops.store.save

        async def save(doc: Any, *a: Any, **kw: Any) -> Any:
            if getattr(doc, "path", doc) == "docs/03-strategy.md":
                sandbox.faults.update(failure_rate=1.0, failure_kinds=("5xx",))
            return await real_save(doc, *a, **kw)

        ops.store.save = save  # type: ignore[method-assign]  # a fault in this one object
        try:
            return await ops.move("02-programs", "down")
        finally:
            sandbox.faults.update(failure_rate=0.0)

    res = run(sandbox, tmp_path, body)
    # The second write's fate is unknown (no answer, no read-back): nothing more is written,
    # and the message says exactly what is known and what to check.
    assert res.code is OpCode.UNCERTAIN
    assert "“교육 프로그램과 추진 일정” now has position 3" in res.message
    assert "whether “비전과 추진 전략” was changed to 2" in res.message
    assert ".md" not in res.message and "commit" not in res.message
    assert fm_of(sandbox, "docs/02-programs.md").get_int("sidebar_position") == 3
    assert fm_of(sandbox, "docs/03-strategy.md").get_int("sidebar_position") == 3


def test_create_uncertain_releases_the_lock_and_keeps_the_input(
    sandbox: Any, tmp_path: Path
) -> None:
    from modu_desktop.core.github.errors import WriteUncertain

    async def body(ops: DocOps) -> Any:
        async def create(*a: Any, **kw: Any) -> Any:
            raise WriteUncertain("no answer")

        ops.store.create = create  # type: ignore[method-assign]  # a fault in this one object
        return await ops.create(NewDocRequest("maybe", "아마도", position=9))

    res = run(sandbox, tmp_path, body)
    assert res.code is OpCode.UNCERTAIN and res.held is None and "refresh" in res.message
    assert res.request is not None and res.request.title == "아마도"
    assert sandbox.read_file(".locks/09-maybe.lock.json") is None
