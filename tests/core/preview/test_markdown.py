"""The site's reading of Markdown (``core/preview/markdown.py``), rule by rule, without Node.
Each expectation is what the real build produced for the same text (the corpus in
``tests/fixtures/markdown-corpus`` holds these cases and the differential test checks them
against the build)."""

from __future__ import annotations

from modu_desktop.core.preview.markdown import (
    block_body_text,
    directive_name_at,
    first_heading,
    heading_slug,
    parse,
    site_markdown,
)
from modu_desktop.core.preview.mdx import markdown_html


def _types(text: str) -> list[str]:
    return [t.type for t in parse(text)]


def test_emphasis_after_a_closing_parenthesis_before_a_particle_stays_literal() -> None:
    assert markdown_html("**마크다운(Markdown)**을 배웁니다") == (
        "<p>**마크다운(Markdown)**을 배웁니다</p>\n"
    )
    assert "<strong>중요</strong>합니다" in markdown_html("**중요**합니다")


def test_single_tildes_pair_like_double_ones() -> None:
    assert "10<del>20명, 기간은 3</del>5일" in markdown_html("인원은 10~20명, 기간은 3~5일")
    assert "<del>취소</del>" in markdown_html("~~취소~~")
    assert "<del>" not in markdown_html("~~~취소~~~ 세 개 가운데 ~~~ 물결")[3:]


def test_a_list_interrupts_a_paragraph_and_two_spaces_nest() -> None:
    assert _types("준비물:\n- 신분증")[:4] == [
        "paragraph_open", "inline", "paragraph_close", "bullet_list_open"
    ]  # fmt: skip
    nested = [t.type for t in parse("- a\n  - b") if t.type.endswith("list_open")]
    assert nested == ["bullet_list_open", "bullet_list_open"]
    assert "ordered_list_open" in _types("1) 첫째\n2) 둘째")
    assert "ordered_list_open" not in _types("설명:\n2. 둘째")  # only 1. interrupts


def test_indented_text_is_a_paragraph_not_code() -> None:
    assert markdown_html("    들여쓴 텍스트") == "<p>들여쓴 텍스트</p>\n"


def test_a_date_at_a_line_start_is_three_nested_lists() -> None:
    assert [t.type for t in parse("2024. 3. 1. 개강")].count("ordered_list_open") == 3


def test_task_lists_footnotes_and_bare_urls() -> None:
    html = markdown_html("- [ ] 할 일\n- [x] 끝")
    assert '<li class="task-list-item"><input type="checkbox" disabled> 할 일' in html
    assert "checked" in html
    html = markdown_html("문장[^1]\n\n[^1]: 각주.")
    assert 'href="#user-content-fn-1"' in html and 'class="footnotes"' in html
    html = markdown_html("https://example.com에서 신청")
    assert '<a href="https://example.com%EC%97%90%EC%84%9C">https://example.com에서</a>' in html


def test_backslash_and_two_space_breaks() -> None:
    assert markdown_html("a\\\nb").count("<br") == 1
    assert markdown_html("a  \nb").count("<br") == 1


def test_text_directives_follow_remark_directive() -> None:
    assert directive_name_at("1:1", 1) == ("1", 3)
    assert directive_name_at("12:30:45", 2) is None  # followed by ":"
    assert directive_name_at(":smile:", 0) is None
    assert directive_name_at("a :-x", 2) is None  # a name starts with no punctuation
    assert directive_name_at("a :x-", 2) is None  # …and ends with neither - nor _
    assert directive_name_at("a::b", 2) is None  # not right after another ":"
    kinds = [c.type for c in parse("1:1 멘토링")[1].children or []]
    assert kinds == ["text", "text_directive", "text"]
    assert markdown_html("1:1 멘토링") == "<p>1:1 멘토링</p>\n"  # written back outside blocks


def test_emoji_shortcodes_are_node_emoji_names() -> None:
    assert markdown_html(":tada: :+1: :없는것: `:tada:`") == (
        "<p>🎉 👍 :없는것: <code>:tada:</code></p>\n"
    )


def test_heading_ids_are_github_slugger_ids_with_counters() -> None:
    tokens = parse("## 모집 안내\n\n## 모집 안내\n\n## Q&A: 자주 묻는 질문!")
    ids = [t.attrs["id"] for t in tokens if t.type == "heading_open"]
    assert ids == ["모집-안내", "모집-안내-1", "qa-자주-묻는-질문"]
    assert heading_slug("C++ & C# 언어") == "c--c-언어"


def test_jsx_flow_lines_hold_markdown() -> None:
    assert "<div>\n<p><strong>x</strong></p>\n</div>" in markdown_html("<div>\n  **x**\n</div>")
    assert markdown_html("<div>한 줄 **굵게**</div>") == "<div>한 줄 <strong>굵게</strong></div>"


def test_first_heading_decides_the_content_title() -> None:
    assert first_heading("본문\n\n# 제목") == "h1"
    assert first_heading("## 소제목\n\n# 제목") == "h2"
    assert first_heading("큰 제목\n===") == "h1"
    assert first_heading("위\n\n---\n\n# 아래") == "hr"


def test_block_bodies_are_written_back_as_the_brochure_plugin_does() -> None:
    body = (
        "title: **주요** 성과\n\n- title: 선배창업자 1:1 멘토링\n  description: "
        "[신청](https://x.example) :smile: _학생_ 10~20명, 3~5일\n"
    )
    assert block_body_text(body) == (
        "title: **주요** 성과\n- title: 선배창업자 1 멘토링\n"
        "  description: 신청 😄 _학생_ 10~~20명, 3~~5일"
    )


def test_one_parser_is_shared() -> None:
    assert site_markdown() is site_markdown()
