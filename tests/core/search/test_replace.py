"""The replace plan (core/search/replace.py): only the words change, the page reads the same
otherwise (cards and the site's parser), hits that cannot be replaced say why, pages held by
someone else or unsaved here are left out with who and since when."""

from __future__ import annotations

import difflib

import pytest

from modu_desktop.core.brochure import frontmatter
from modu_desktop.core.locks.model import LockStatus, classify
from modu_desktop.core.locks.wire import LockRecord
from modu_desktop.core.pageedit.readable import readable_lines
from modu_desktop.core.preview.markdown import parse
from modu_desktop.core.search.index import PageText
from modu_desktop.core.search.model import NotReplaceable, PageLeftOutReason, SearchOptions, hit_key
from modu_desktop.core.search.replace import plan_replace
from tests.helpers.paths import SITE_FIXTURE
from tests.helpers.search_pages import ADMISSION, PLAIN

NOW = 1_800_000_000.0


def _page(doc_id: str = "admission", text: str = ADMISSION) -> PageText:
    return PageText(doc_id, f"docs/{doc_id}.md", f"“{doc_id}” page", f"sha-{doc_id}", text)


def _changed_bytes(old: str, new: str) -> list[tuple[str, str]]:
    ops = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    return [(old[a:b], new[c:d]) for tag, a, b, c, d in ops if tag != "equal"]


def _reads(text: str) -> list[tuple[str, str, int, str]]:
    return [(ln.kind, ln.text, ln.level, ln.marks) for ln in readable_lines(text)]


def _shape(text: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for tok in parse(text):
        out.append((tok.type, tok.nesting))
        out.extend((c.type, c.nesting) for c in tok.children or [])
    return out


def test_only_the_differing_characters_change_and_the_page_reads_the_same() -> None:
    plan = plan_replace([_page()], "2025학년도", "2026학년도")
    (page,) = plan.pages
    assert page.changed and page.replaced == len(page.hits) == 6
    assert all(h.refused is None for h in page.hits)
    # the 5 of 2025 and nothing else, inside the bold mark too (**2025**학년도 → **2026**학년도)
    assert set(_changed_bytes(ADMISSION, page.new_text)) == {("5", "6")}
    assert "**2026**학년도 모집은" in page.new_text
    # read as the cards read it: the same lines, the same marks, only the words changed
    assert _reads(page.new_text) == [
        (k, t.replace("2025학년도", "2026학년도"), lvl, m) for k, t, lvl, m in _reads(ADMISSION)
    ]
    assert _shape(page.new_text) == _shape(ADMISSION)  # the site's parser: the same structure
    assert plan.changes == {"docs/admission.md": page.new_text}
    assert plan.base_shas == {"docs/admission.md": "sha-admission"}


def test_words_that_cross_a_mark_are_replaced_inside_it_or_refused() -> None:
    plan = plan_replace([_page()], "2025학년도 모집", "2026년 모집")
    (hit,) = plan.pages[0].hits
    # "5학년도" would have to change, half bold and half not: which half is bold after?
    assert hit.refused is NotReplaceable.CROSSES_MARKS and not hit.replaced
    assert not plan.pages[0].changed
    assert plan.left_out[0].reason is PageLeftOutReason.NOTHING_REPLACEABLE
    # a link's words change inside the link, its address stays
    plan = plan_replace([_page()], "홈페이지에서", "누리집에서")
    assert _changed_bytes(ADMISSION, plan.pages[0].new_text) == [("홈페이지", "누리집")]
    assert "[누리집](/apply)에서" in plan.pages[0].new_text


def test_new_words_are_written_so_the_site_reads_exactly_them() -> None:
    plan = plan_replace([_page()], "둘째 항목", "둘째 *항목* & <b>")
    new = plan.pages[0].new_text
    assert plan.pages[0].replaced == 1
    # the characters as typed (not a mark, not a tag), in the italic the old word had
    (item,) = [ln for ln in readable_lines(new) if ln.text.startswith("• 둘째")]
    assert item.text == "• 둘째 *항목* & <b>"
    assert item.marks == "3:10:italic:None"  # from 항목 on, italic as 항목 was
    assert "- 둘째 *\\*항목\\* & \\<b>*\n" in new
    assert _shape(new) == _shape(ADMISSION)


def test_unticked_hits_stay_and_the_plan_shows_them() -> None:
    everything = plan_replace([_page()], "2025", "2026")
    hits = [h.hit for h in everything.pages[0].hits]
    chosen = {hit_key(hits[0]), hit_key(hits[3])}
    plan = plan_replace([_page()], "2025", "2026", chosen=chosen)
    ticks = [(h.chosen, h.replaced) for h in plan.pages[0].hits]
    assert ticks == [(hit_key(h.hit) in chosen,) * 2 for h in plan.pages[0].hits]
    assert plan.replaced == 2
    assert len(_changed_bytes(ADMISSION, plan.pages[0].new_text)) == 2


def test_a_setting_is_quoted_when_its_new_words_need_it() -> None:
    plan = plan_replace([_page()], "입학", "입학: 안내")
    new = plan.pages[0].new_text
    parsed = frontmatter.parse(new)
    assert parsed.get("nav_label") == "입학: 안내"
    assert parsed.get("title") == "2025학년도 입학: 안내 안내"
    assert 'nav_label: "입학: 안내"\n' in new
    plan = plan_replace([_page()], "모두", "모'두")
    assert "description: '부산대 ''모''두'' 안내'\n" in plan.pages[0].new_text


def test_a_block_value_keeps_its_line_and_list_values_keep_their_items() -> None:
    plan = plan_replace([_page()], "1,200명", "① 1,300명")
    assert '  value: "① 1,300명"\n' in plan.pages[0].new_text  # the guide quotes ① values
    plan = plan_replace([_page()], "AI 기초", "AI | 기초")
    (hit,) = plan.pages[0].hits
    assert hit.refused is NotReplaceable.BREAKS_FIELD  # a | would make a new column
    plan = plan_replace([_page()], "2025 안내", "2026\n안내")
    assert plan.pages[0].hits[0].refused is NotReplaceable.BREAKS_FIELD


def test_a_hit_that_would_change_the_page_is_refused_and_the_others_still_go() -> None:
    # in the admonition (a 원문 card) a "# " at the line's start would make a heading
    plan = plan_replace([_page()], "2025학년도", "# 2025학년도")
    page = plan.pages[0]
    refused = [h.hit.place.card for h in page.hits if h.refused]
    assert refused == ["raw"]
    assert page.hits[-1].refused is NotReplaceable.READS_DIFFERENTLY
    assert page.replaced == len(page.hits) - 1
    assert "\n2025학년도 주의\n" in page.new_text
    assert "\\# 2025학년도 일정" in page.new_text  # in a text box it is escaped instead


def test_pages_held_by_someone_else_or_unsaved_here_are_left_out_with_who_and_since() -> None:
    def lock(holder: str, beat: float) -> object:
        record = LockRecord("b", holder, int(NOW - 3600), int(beat), session_id="s-them")
        return classify(
            "b", "lock-sha", record, login="me", session_id="s-me", server_now=NOW, stale_s=900
        )

    held = lock("editor2", NOW - 60)
    stale = lock("editor2", NOW - 7200)
    assert held.status is LockStatus.HELD and stale.status is LockStatus.STALE  # type: ignore[attr-defined]
    pages = [_page("a", PLAIN), _page("b", PLAIN), _page("c", PLAIN)]
    plan = plan_replace(pages, "학생", "학우", locks={"b": held}, unsaved={"c"})  # type: ignore[dict-item]
    assert [p.doc_id for p in plan.pages] == ["a"]
    by_id = {left.doc_id: left for left in plan.left_out}
    assert by_id["b"].reason is PageLeftOutReason.LOCKED
    assert (by_id["b"].holder, by_id["b"].since, by_id["b"].last_seen) == (
        "editor2",
        NOW - 3600,
        NOW - 60,
    )
    assert by_id["c"].reason is PageLeftOutReason.UNSAVED_HERE
    assert by_id["b"].hits == by_id["c"].hits == 1
    # a lock nobody has kept alive does not stop the replacement (opening it would take it)
    plan = plan_replace(pages, "학생", "학우", locks={"b": stale})  # type: ignore[dict-item]
    assert [p.doc_id for p in plan.pages] == ["a", "b", "c"]


def test_options_decide_the_hits_and_chosen_hits_that_are_gone_are_named() -> None:
    whole = plan_replace([_page("p", PLAIN)], "학년도", "학기", SearchOptions(whole_word=True))
    assert whole.pages == ()  # "학년도" is glued to 2025 every time
    plan = plan_replace([_page("p", PLAIN)], "student", "학생", SearchOptions(case_sensitive=True))
    assert plan.pages == ()
    plan = plan_replace([_page("p", PLAIN)], "student", "학생", chosen={("p", 1, 99)})
    assert plan.unmatched == (("p", 1, 99),) and plan.replaced == 0


def test_a_column_heading_or_a_heading_may_be_among_the_replaced_words() -> None:
    # the cells of a data table are named by its column headings, text boxes by their heading
    plan = plan_replace([_page()], "과정", "코스")
    page = plan.pages[0]
    assert all(h.replaced for h in page.hits)
    assert "columns: 코스 | 학점\n" in page.new_text and "- label: 기초 코스\n" in page.new_text
    plan = plan_replace([_page()], "일정", "계획")
    assert plan.pages[0].replaced == 1 and "## 2025학년도 계획\n" in plan.pages[0].new_text


@pytest.mark.parametrize(("old", "new"), [("학생", "수험생"), ("교육", "배움"), ("전형", "선발")])
def test_on_the_real_site_every_replaced_page_reads_the_same_but_for_the_words(
    old: str, new: str
) -> None:
    """The site's own pages (tests/fixtures): read by the page editor's reader, every line of a
    changed page is the old line with the words replaced, and the site's parser sees the same
    structure (``new`` is on none of these pages, so the lines can be compared back)."""
    pages = [
        PageText(p.stem, f"docs/{p.name}", p.stem, "sha", p.read_text("utf-8"))
        for p in sorted((SITE_FIXTURE / "docs").glob("*.md"))
    ]
    assert not any(new in p.text for p in pages)
    plan = plan_replace(pages, old, new, SearchOptions(case_sensitive=True))
    assert plan.replaced > 10 and len(plan.changes) >= 3
    for page in plan.pages:
        before, after = readable_lines(page.old_text), readable_lines(page.new_text)
        assert [(ln.kind, ln.level) for ln in after] == [(ln.kind, ln.level) for ln in before]
        assert [ln.text.replace(new, old) for ln in after] == [ln.text for ln in before]
        assert _shape(page.new_text) == _shape(page.old_text)
        replaced = sum(ln.text.count(new) for ln in after)
        refused = sum(1 for h in page.hits if h.refused)
        assert replaced == page.replaced == len(page.hits) - refused
