"""The publish check's warnings where the site reads Markdown differently from how it looks:
each kind, its place, its plain Korean sentence, its fix, and no alarm where nothing surprises.
The last test builds the fixed texts with the real site (needs Node; skips without it)."""

from __future__ import annotations

import re

import pytest

from modu_desktop.core.preview import render_document
from modu_desktop.core.preview.mdx import markdown_html
from modu_desktop.core.publish.check import (
    Severity,
    apply_all_fixes,
    apply_fix,
    check_text,
    new_surprises,
)
from tests.helpers.lang import speaking

FM = "---\nid: x\ntitle: 문서\n---\n\n"
JARGON = re.compile(r"MDX|JSX|HTML|CommonMark|마크다운|directive|디렉티브", re.I)


def surprises(body: str) -> list:
    found = check_text(FM + body).findings
    return [f for f in found if f.severity is Severity.MAY_SURPRISE]


def one(body: str, code: str):
    found = [f for f in surprises(body) if f.code == code]
    assert len(found) == 1, [(f.code, f.line) for f in surprises(body)]
    f = found[0]
    assert not f.breaks_build
    with speaking("ko"):
        wording = f.message
        for value in f.fields.values():  # the writer's own words may say anything
            wording = wording.replace(value, "")
        assert not JARGON.search(wording), f.message
        assert re.search("[가-힣]", f.message)
        if f.fix is not None:
            assert not JARGON.search(f.fix_label)
    return f


def test_emphasis_that_shows_its_stars() -> None:
    body = "소개\n\n**마크다운(Markdown)**을 배웁니다.\n"
    f = one(body, "md-emphasis-literal")
    assert (f.line, f.column) == (8, 1)
    assert "<p>**마크다운(Markdown)**을" in markdown_html(body)  # what the site shows
    fixed = apply_fix(FM + body, f)
    assert "<strong>마크다운(Markdown)</strong>을 배웁니다." in fixed
    assert "<strong>마크다운(Markdown)</strong>을" in markdown_html(fixed[len(FM) :])
    assert not surprises(fixed[len(FM) :])
    g = one('이것은 **"중요"**를 뜻합니다.', "md-emphasis-literal")
    assert g.fix is not None and g.fix.replacement == '<strong>"중요"</strong>'
    h = one("그리고 _기울임_은 보입니다.", "md-emphasis-literal")
    assert h.fix is not None and h.fix.replacement == "<em>기울임</em>"


def test_single_tildes_that_strike_text() -> None:
    body = "인원은 10~20명, 기간은 3~5일입니다.\n"
    f = one(body, "md-tilde-strike")
    assert (f.line, f.column) == (6, 7) and f.fields["text"] == "20명, 기간은 3"
    fixed = apply_fix(FM + body, f)
    assert "10\\~20명, 기간은 3\\~5일" in fixed
    assert "<del>" not in markdown_html(fixed[len(FM) :])
    assert "10~20명, 기간은 3~5일" in markdown_html(fixed[len(FM) :])


def test_a_date_that_becomes_lists() -> None:
    body = "일정\n\n2024. 3. 1. 개강\n"
    f = one(body, "md-number-list")
    assert (f.line, f.column) == (8, 1)
    fixed = apply_fix(FM + body, f)
    assert fixed.endswith("2024\\. 3. 1. 개강\n")
    assert markdown_html(fixed[len(FM) :]) == "<p>일정</p>\n<p>2024. 3. 1. 개강</p>\n"
    one("2024. 개강식\n", "md-number-list")  # a year is not a list number either


def test_lists_that_do_not_form_and_indents_that_are_not_code() -> None:
    found = [x for x in surprises("다음 순서:\n2. 둘째부터\n") if x.code == "md-list-not-formed"]
    assert [(x.line, x.fields["hint"]) for x in found] == [(7, "blank")]
    f = one("-항목 하나\n", "md-list-not-formed")
    assert f.fields["hint"] == "space" and f.fix is None
    f = one("문단\n\n    들여 쓴 글\n", "md-indent-not-code")
    assert f.line == 8 and f.fix is None


def test_a_colon_word_that_a_block_swallows() -> None:
    body = ":::cards\n- title: 선배창업자 1:1 멘토링\n  description: 매주 10:00, AI:SW\n:::\n"
    found = [f for f in surprises(body) if f.code == "block-directive-dropped"]
    assert [(f.line, f.column, f.fields["word"]) for f in found] == [
        (7, 17, ":1"), (8, 21, ":00"), (8, 28, ":SW")
    ]  # fmt: skip
    before = render_document(FM + body).content_html()
    assert "선배창업자 1 멘토링" in before  # the preview shows what the site shows
    fixed = apply_all_fixes(FM + body, check_text(FM + body))
    assert "1\\:1 멘토링" in fixed and "10\\:00, AI\\:SW" in fixed
    after = render_document(fixed).content_html()
    assert "선배창업자 1:1 멘토링" in after and "매주 10:00, AI:SW" in after
    assert not [f for f in surprises(fixed[len(FM) :]) if f.code == "block-directive-dropped"]
    # outside a block the site writes the word back: nothing to warn about
    assert not surprises("1:1 멘토링, 10:00 시작\n")


@pytest.mark.parametrize(
    "body",
    [
        "**중요**합니다. *기울임*도 있습니다.\n",
        "snake_case_name 과 file_name_here.txt, 2*3*4=24\n",
        "\\*별표 그대로\\* 그리고 \\_밑줄\\_\n",
        "`**코드**을` 그리고\n\n```\n**마크다운(Markdown)**을\n2024. 3. 1.\n```\n",
        "~~취소~~ 와 약 10~ 20명, 오전 9시~오후 6시\n",
        "3.5점 이상, 2024.3.1 개강, +82-10-1234-5678\n",
        "1. 첫째\n2. 둘째\n\n- 가\n- 나\n",
        "준비물:\n- 신분증\n",
        "- 항목\n\n    항목의 둘째 문단\n",
        "10\\~20명, 2024\\. 3. 1. 개강\n",
        ":::tip\n1:1 면담\n:::\n",
    ],
)
def test_no_warning_where_nothing_surprises(body: str) -> None:
    assert not surprises(body), [(f.code, f.line) for f in surprises(body)]


def test_only_new_surprises_are_asked_about() -> None:
    before = FM + "인원은 10~20명, 기간은 3~5일입니다.\n"
    text = before + "\n**마크다운(Markdown)**을 배웁니다.\n"
    result = check_text(text)
    assert [f.code for f in new_surprises(text, result, before, "docs/x.md")] == [
        "md-emphasis-literal"
    ]
    assert new_surprises(before, check_text(before), before, "docs/x.md") == []
    assert len(new_surprises(text, result, None, "docs/x.md")) == 2


@pytest.mark.timeout(1800)
def test_the_fixes_make_the_site_build_show_what_was_meant() -> None:
    from tests.helpers.site_oracle import built_bodies

    originals = {
        "emphasis": "**마크다운(Markdown)**을 배웁니다. 그리고 _기울임_은 보입니다.\n",
        "tilde": "인원은 10~20명, 기간은 3~5일입니다.\n",
        "date": "2024. 3. 1. 개강\n",
        "block": (
            ":::cards\n- title: 선배창업자 1:1 멘토링\n  description: 매주 10:00, AI:SW\n:::\n"
        ),
    }
    fixed: dict[str, str] = {}
    for name, body in originals.items():
        text = apply_all_fixes(FM + body, check_text(FM + body))
        assert text != FM + body, name
        fixed[f"{900 + len(fixed)}-fixed-{name}"] = text[len(FM) :]
    site = built_bodies(fixed)
    got = {name.split("-")[-1]: re.sub(r"<!-- -->", "", site[name] or "") for name in fixed}
    assert "<strong>마크다운(Markdown)</strong>을" in got["emphasis"]
    assert "<em>기울임</em>은" in got["emphasis"]
    assert "인원은 10~20명, 기간은 3~5일입니다." in got["tilde"] and "<del>" not in got["tilde"]
    assert "<p>2024. 3. 1. 개강</p>" in got["date"] and "<ol" not in got["date"]
    assert "선배창업자 1:1 멘토링" in got["block"] and "매주 10:00, AI:SW" in got["block"]


def test_a_check_after_an_edit_finds_what_a_first_check_finds() -> None:
    # Parts not edited since the last check are not read again; their warnings move with them.
    from modu_desktop.core.publish.check import clear_check_caches

    body = (
        "인원은 10~20명, 기간은 3~5일입니다.\n\n"
        ":::cards\n- title: 선배창업자 1:1 멘토링\n:::\n\n"
        "**마크다운(Markdown)**을 배웁니다.\n\n2024. 3. 1. 개강\n"
    )
    first = check_text(FM + body).findings
    assert {f.code for f in first} >= {
        "md-tilde-strike",
        "block-directive-dropped",
        "md-emphasis-literal",
        "md-number-list",
    }
    for edited in (
        "새 첫 줄 **굵게**를 넣었습니다.\n\n" + body,  # every part moves down
        body.replace("배웁니다", "함께 배웁니다"),  # one part changes length
        body.replace(":::cards\n", ":::cards\n- title: 10:30 시작\n"),
    ):
        again = check_text(FM + edited).findings
        clear_check_caches()
        assert again == check_text(FM + edited).findings
        for f in again:
            if f.fix is not None:  # each fix still names the text at its place
                assert (FM + edited)[f.fix.start : f.fix.end] == f.fix.original
