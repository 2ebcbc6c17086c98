"""From the plan to the change of many pages (core/search/apply.py): the publish check runs on
every changed page, and a page the replacement itself would break is left out with its finding
while the others go; a page that was already broken the same way is not held back."""

from __future__ import annotations

from modu_desktop.core.changes import words
from modu_desktop.core.changes.outcome import PageReason
from modu_desktop.core.search.apply import new_findings, prepare_replace
from modu_desktop.core.search.model import PagePlan, ReplacePlan, SearchOptions

HEAD = "---\ntitle: {title}\n---\n\n"


def _page(doc: str, title: str, old: str, new: str) -> PagePlan:
    text = HEAD.format(title=title)
    return PagePlan(doc, f"docs/{doc}.md", title, f"sha-{doc}", text + old, text + new, ())


def test_a_page_the_new_words_would_break_is_left_out_with_the_finding() -> None:
    fine = _page("a", "입학 안내", "2025학년도 모집\n", "2026학년도 모집\n")
    broken = _page("b", "장학금", "2025학년도 장학금\n", "<div>2026학년도 장학금\n")
    already = _page("c", "일정", "<div>2025학년도\n", "<div>2026학년도\n")
    plan = ReplacePlan("2025학년도", "2026학년도", SearchOptions(), (fine, broken, already))
    prepared = prepare_replace(plan)
    assert [c.path for c in prepared.changes] == ["docs/a.md", "docs/c.md"]
    (note,) = prepared.left_out
    assert note.reason is PageReason.BREAKS_SITE and note.title == "장학금"
    assert [f.code for f in note.findings] == ["mdx-unclosed-tag"]
    said = words.left_out(note, 0.0)("ko")
    assert said.startswith("새 글자로 바꾸면 “장학금” 문서 때문에 사이트를 만들 수 없거나")
    assert "2번째 줄" not in said and "5번째 줄" in said  # the line of the finding in the page
    assert prepared.summary.kind == "replace" and prepared.titles["docs/c.md"] == "일정"


def test_only_findings_the_replacement_adds_count() -> None:
    old = HEAD.format(title="t") + "<div>2025\n"
    assert new_findings(old, old.replace("2025", "2026"), "docs/t.md") == ()
    grown = new_findings(old, old.replace("2025", "<span>2026"), "docs/t.md")
    assert grown and all(f.code == "mdx-unclosed-tag" for f in grown)
