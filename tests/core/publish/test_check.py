"""The publish check: each site-breaker class with its position and fix, the brochure's rules,
front matter, and that fixes keep the text."""

from __future__ import annotations

import re

import pytest

from modu_desktop import i18n
from modu_desktop.core.publish.check import (
    Severity,
    StaleEdit,
    TextEdit,
    apply_all_fixes,
    apply_fix,
    check_text,
)
from tests.helpers import publish_corpus
from tests.helpers.lang import speaking

FM = "---\nid: sample\ntitle: 예시\n---\n\n"
PATHS = {"static/img/logo.png", "docs/images/a.png", "docs/sample.md"}


def check(body: str, **kw: object):
    return check_text(FM + body, path="docs/sample.md", repo_paths=PATHS, **kw)


def only(result, code: str):
    found = [f for f in result.findings if f.code == code]
    assert len(found) == 1, [(f.code, f.line, f.column) for f in result.findings]
    return found[0]


FM_LINES = FM.count("\n")


# (body, code, line in body (1-based), column, text after the fix or None for no fix)
BREAKERS = [
    ("본문 <br> 입니다.\n", "mdx-void-tag", 1, 4, "본문 <br /> 입니다.\n"),
    ('<img src="/img/logo.png">\n', "mdx-void-tag", 1, 1, '<img src="/img/logo.png" />\n'),
    ("안녕하세요, {name} 님.\n", "mdx-undefined-name", 1, 8, "안녕하세요, name 님.\n"),
    ("담당자: {홍길동}\n", "mdx-undefined-name", 1, 6, "담당자: 홍길동\n"),
    ("설정 {a: 1} 입니다.\n", "mdx-expression-syntax", 1, 4, "설정 a: 1 입니다.\n"),
    ("값 {{a}} 입니다.\n", "mdx-undefined-name", 1, 3, "값 a 입니다.\n"),
    ("중괄호 { 하나만\n", "mdx-unclosed-brace", 1, 5, "중괄호 \\{ 하나만\n"),
    ("{props}\n", "mdx-object-content", 1, 1, "props\n"),
    ("<!-- 메모 -->\n\n본문\n", "mdx-html-comment", 1, 1, "본문\n"),
    ("글 <!-- 메모 --> 글\n", "mdx-html-comment", 1, 3, "글 글\n"),
    (
        '<span style="color:red; font-weight: bold">빨강</span>\n',
        "mdx-style-string",
        1,
        7,
        "<span style={{color: 'red', fontWeight: 'bold'}}>빨강</span>\n",
    ),
    ("점수 <90 입니다\n", "mdx-lt-not-tag", 1, 4, "점수 \\<90 입니다\n"),
    ("a <= b\n", "mdx-lt-not-tag", 1, 3, "a \\<= b\n"),
    ("<참고> 자료를 보세요\n", "mdx-not-a-tag", 1, 1, "\\<참고> 자료를 보세요\n"),
    ("<https://pnu.ac.kr>\n", "mdx-autolink", 1, 1, "https://pnu.ac.kr\n"),
    ("<help@pnu.ac.kr>\n", "mdx-autolink", 1, 1, "help@pnu.ac.kr\n"),
    ("<Foo />\n", "mdx-unknown-component", 1, 1, ""),
    ("<Foo>안내</Foo> 문구\n", "mdx-unknown-component", 1, 1, "안내 문구\n"),
    ("<div>\n\n내용\n", "mdx-unclosed-tag", 1, 1, "내용\n"),
    ("앞 문단\n\n<span>\n\n뒤 문단\n", "mdx-unclosed-tag", 3, 1, "앞 문단\n\n뒤 문단\n"),
    ("첫 줄\n<!-- 메모 -->\n둘째 줄\n", "mdx-html-comment", 2, 1, "첫 줄\n\n둘째 줄\n"),
    ("- 하나\n<!-- 메모 -->\n- 둘\n", "mdx-html-comment", 2, 1, "- 하나\n- 둘\n"),
    ("<b>굵게 쓴 글\n", "mdx-unclosed-tag", 1, 1, "굵게 쓴 글\n"),
    ("내용 </div>\n", "mdx-stray-closing-tag", 1, 4, "내용\n"),
    ("<br>텍스트</br>\n", "mdx-void-children", 1, 1, None),
    ("## 제목 {#custom}\n", "mdx-expression-syntax", 1, 7, "## 제목\n"),
    ("export 기능입니다.\n", "mdx-esm", 1, 1, None),
    ("![그림](/img/none.png)\n", "image-missing", 1, 7, None),
    ("| a | b |\n|---|---|\n| x<br>y | z |\n", "mdx-void-tag", 3, 4, None),
    (":::hero\ntitle: {a: 1}\n:::\n", "mdx-expression-syntax", 2, 8, None),
    (":::tip\n{name} 님\n:::\n", "mdx-undefined-name", 2, 1, None),
]


@pytest.mark.parametrize(("body", "code", "line", "col", "fixed"), BREAKERS)
def test_each_site_breaker_is_caught_at_its_place_and_fixed(
    body: str, code: str, line: int, col: int, fixed: str | None
) -> None:
    result = check(body)
    assert result.breaks_build
    f = only(result, code)
    assert f.severity is Severity.BREAKS_BUILD
    assert (f.line, f.column) == (FM_LINES + line, col)
    if fixed is not None:
        assert f.fix is not None
        after = apply_fix(FM + body, f)
        if code == "mdx-void-tag" and "|" in body:
            return
        assert after == FM + fixed
        assert not check_text(after, path="docs/sample.md", repo_paths=PATHS).breaks_build


def test_cells_beyond_the_header_columns_are_not_rendered_so_not_checked() -> None:
    body = (
        "| a | b |\n|---|---|\n| x | y | <Foo /> {name}\n| `|` | <br> |\n| c | d | <https://x.kr>\n"
    )
    result = check(body)
    assert [(f.code, f.line - FM_LINES) for f in result.build_breakers] == [
        ("mdx-void-tag", 4),
        ("mdx-autolink", 5),  # parsed all the same
    ]


def test_the_void_tag_fix_in_a_table_builds() -> None:
    body = "| a | b |\n|---|---|\n| x<br>y | z |\n"
    after = apply_all_fixes(FM + body, check(body))
    assert "x<br />y" in after
    assert not check_text(after).breaks_build


@pytest.mark.parametrize(
    "body",
    [
        "줄바꿈<br />다음 줄\n",
        "\\{name\\} 과 `{name}` 과 `<br>`\n",
        "a < b 이고 닫는 } 괄호\n",
        "{1 + 1} {/* 메모 */} {'텍스트'} {props.x} {frontMatter.title}\n",
        "<b>굵게</b> <span style={{color: 'red'}}>강조</span>\n",
        "&lt;참고&gt; \\<참고>\n",
        "https://example.com/{id} [링크](https://example.com/{x})\n",
        "```\n{name} <br> <!-- x -->\n```\n",
        "<div>\n\n내용\n\n</div>\n",
        '<Callout type="info">\n  안내\n</Callout>\n',
        "<details>\n<summary>더보기</summary>\n\n내용\n\n</details>\n",
        "![그림](/img/logo.png) ![원격](https://example.com/a.png) ![상대](./images/a.png)\n",
        ":::hero\ntitle: {name}\n:::\n",
        "수출(export) 기능\n\n- export 기능\n",
    ],
)
def test_look_alikes_that_build_are_not_reported_as_breaking(body: str) -> None:
    result = check(body)
    assert not result.breaks_build, [(f.code, f.line, f.column) for f in result.findings]


def test_real_documents_build_clean() -> None:
    # The brochure documents (the site's other Markdown, e.g. USER_GUIDE.md, really does not
    # build as MDX: the accuracy tool measures those against the real toolchain).
    for doc in publish_corpus.real_documents():
        if doc.name.startswith("70-"):
            continue
        if "seed" in doc.id:
            paths = {"static/img/modu-logo.png", "static/img/sample-photo.png"}
        else:
            paths = publish_corpus.site_paths()
        result = check_text(doc.text, path="docs/" + doc.name, repo_paths=paths)
        assert not result.breaks_build, (doc.id, [(f.code, f.line) for f in result.build_breakers])


def test_known_breakers_of_the_corpus_are_all_caught() -> None:
    paths = publish_corpus.site_paths()
    for doc in publish_corpus.breakers():
        result = check_text(doc.text, path="docs/" + doc.name, repo_paths=paths)
        assert result.breaks_build, doc.id


# ----- front matter ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("front", "code", "line"),
    [
        ("id: x\ntitle: 전략: 2025", "fm-yaml", 3),
        ('id: x\ntitle: "전략', "fm-yaml", 3),
        ("id: x\ntitle: @pnu", "fm-yaml", 3),
        ("id: x\ntitle: a\ntitle: b", "fm-duplicate-key", 4),
        ("id: x\ntitle: a\nsidebar_position: 첫째", "fm-type", 4),
        ("id: x\ntitle: a\nhide_title: yes", "fm-type", 4),
        ("id: x\ntitle: true", "fm-type", 3),
        ("id: x\n제목 없음\ntitle: a", "fm-yaml", 3),
    ],
)
def test_bad_front_matter_is_caught(front: str, code: str, line: int) -> None:
    result = check_text(f"---\n{front}\n---\n\n본문\n")
    f = only(result, code)
    assert f.breaks_build and f.line == line


def test_a_colon_in_a_title_is_fixed_by_quoting() -> None:
    text = '---\nid: x\ntitle: 전략: 2025 "최종"\n---\n\n본문\n'
    f = only(check_text(text), "fm-yaml")
    after = apply_fix(text, f)
    assert 'title: "전략: 2025 \\"최종\\""' in after
    assert not check_text(after).breaks_build


def test_unclosed_front_matter_breaks_the_build() -> None:
    f = only(check_text("---\nid: x\ntitle: a\n\n본문\n"), "fm-unclosed")
    assert f.breaks_build and (f.line, f.column) == (1, 1)


def test_missing_required_front_matter_is_a_page_problem() -> None:
    f = only(check_text("---\nid: x\n---\n\n본문\n"), "fm-missing-field")
    assert f.severity is Severity.PAGE_WRONG and f.fields["field"] == "title"


# ----- the brochure's own rules ---------------------------------------------------------------


def test_unknown_block_suggests_the_nearest_name_as_a_fix() -> None:
    body = ":::herro\ntitle: 오타\n:::\n"
    f = only(check(body), "block-unknown")
    assert f.severity is Severity.PAGE_WRONG
    assert f.fields["suggestion"] == "hero"
    assert apply_fix(FM + body, f) == FM + ":::hero\ntitle: 오타\n:::\n"


def test_lines_the_site_plugin_ignores_are_reported() -> None:
    body = ":::cards\n제목: 한글 키\ntitle: 카드\n그냥 문장\n- title: 항목\n  icon: 🎯\n:::\n"
    result = check(body)
    ignored = [f for f in result.findings if f.code == "block-ignored-line"]
    assert [(f.line - FM_LINES, f.fields["hint"]) for f in ignored] == [(2, "key"), (4, "text")]
    assert not result.breaks_build


def test_text_after_a_blank_line_that_ends_the_list_is_ignored_by_the_site() -> None:
    body = ":::cards\ntitle: 카드\n- title: 항목\n\ndesc: 목록 뒤\n:::\n"
    ignored = [f for f in check(body).findings if f.code == "block-ignored-line"]
    assert [f.line - FM_LINES for f in ignored] == [5]


def test_a_required_block_field_missing_is_reported() -> None:
    f = only(check(":::hero\ndescription: 설명만\n:::\n"), "block-missing-field")
    assert f.fields == {"block": "hero", "field": "title"}


def test_a_block_picture_not_in_the_repository_is_reported() -> None:
    body = ":::hero\ntitle: a\nimage: /img/none.png\n:::\n"
    f = only(check(body), "block-image-missing")
    assert (f.line - FM_LINES, f.column) == (3, 8)
    assert not f.breaks_build
    assert not [x for x in check(body.replace("none", "logo")).findings if "image" in x.code]


def test_pictures_are_not_checked_without_the_tree() -> None:
    text = FM + "![그림](/img/none.png)\n"
    assert not check_text(text, repo_paths=None).findings


def test_unclosed_block_fix_adds_the_closing_line_after_its_body() -> None:
    body = ":::hero\ntitle: 제목\n\n본문 문단입니다.\n"
    f = only(check(body), "block-unclosed")
    after = apply_fix(FM + body, f)
    assert after == FM + ":::hero\ntitle: 제목\n:::\n\n본문 문단입니다.\n"
    assert not [x for x in check_text(after).findings if x.code == "block-unclosed"]


def test_text_after_an_admonition_name_becomes_its_title() -> None:
    body = ":::tip 알아두세요\n내용\n:::\n"
    f = only(check(body), "block-opener-text")
    assert apply_fix(FM + body, f) == FM + ":::tip[알아두세요]\n내용\n:::\n"


# ----- fixes keep the text; messages ---------------------------------------------------------


def _letters(text: str) -> str:
    return re.sub(r"[\\\s/{}*<>!-]", "", text)


def test_fixes_for_paragraphs_that_read_as_code_and_for_yes() -> None:
    body = "export 기능입니다.\n"
    f = only(check(body), "mdx-esm")
    after = apply_fix(FM + body, f)
    assert after == FM + " export 기능입니다.\n"
    assert not check_text(after).breaks_build
    text = "---\nid: x\ntitle: a\nhide_title: yes\n---\n\n본문\n"
    after = apply_fix(text, only(check_text(text), "fm-type"))
    assert "hide_title: true\n" in after and not check_text(after).breaks_build


def test_unclosed_front_matter_fix_closes_it_after_the_settings() -> None:
    text = "---\nid: x\ntitle: a\n\n본문\n"
    after = apply_fix(text, only(check_text(text), "fm-unclosed"))
    assert after == "---\nid: x\ntitle: a\n---\n\n본문\n"
    assert not check_text(after).breaks_build


def test_br_with_content_and_a_closing_br_becomes_two_line_breaks() -> None:
    body = "<br>텍스트</br>\n"
    after = apply_fix(FM + body, only(check(body), "mdx-void-children"))
    assert after == FM + "<br />텍스트<br />\n"


def _shown_letters(text: str) -> str:
    """The letters a page shows of ``text``: without hidden notes, markup (``<b>``, ``</div>``,
    ``<strong>``), headings' addresses (``{#id}``), braces, escapes, list and emphasis marks and
    spaces."""
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"(?m)^(#{1,6}[ \t].*?)[ \t]*\{#[^}]*\}[ \t]*$", r"\1", text)
    text = re.sub(r"</?[A-Za-z][\w.:-]*(?:\s[^<>]*)?/?>", "", text)
    return _letters(text)


def test_every_fix_of_the_corpus_keeps_every_letter_the_page_shows() -> None:
    """A fix changes the text the way a person would: it may take out what the page never
    shows (a stray tag's markup, the braces around a word, a hidden note) and add escapes or a
    missing line, but never a letter the page shows."""
    paths = publish_corpus.site_paths()
    removing = 0
    for doc in publish_corpus.corpus():
        result = check_text(doc.text, path="docs/" + doc.name, repo_paths=paths)
        for f in result.fixable:
            assert f.fix is not None
            after = f.fix.apply(doc.text)
            if f.code in (
                "block-unknown",
                "mdx-autolink",
                "fm-yaml",
                "block-opener-text",
                "mdx-style-string",
                "block-unclosed",
                "fm-type",
            ):
                continue  # a name or CSS spelling changed, brackets or quotes: checked above
            if len(after) < len(doc.text):
                removing += 1
            assert _shown_letters(after) == _shown_letters(doc.text), (doc.id, f.code, f.fix)
    assert removing >= 10  # the corpus has stray tags, braces and notes to take out


def test_a_stale_fix_is_refused_instead_of_corrupting_the_text() -> None:
    text = FM + "본문 <br> 입니다.\n"
    f = only(check_text(text), "mdx-void-tag")
    with pytest.raises(StaleEdit):
        apply_fix("앞에 글을 더 씀 " + text, f)
    edit = TextEdit(0, 1, "x", "y")
    with pytest.raises(StaleEdit):
        edit.apply("z")


def test_every_finding_has_one_korean_sentence() -> None:
    i18n.set_language("ko")
    paths = publish_corpus.site_paths()
    seen: set[str] = set()
    for doc in publish_corpus.corpus():
        for f in check_text(doc.text, path="docs/" + doc.name, repo_paths=paths).findings:
            msg = f.message
            assert re.search(r"[가-힣]", msg), (f.code, msg)
            assert msg.count("\n") == 0
            for value in f.fields.values():
                msg = msg.replace(value, "")
            assert not re.search(r"\{[a-z_]+(:[^}]*)?\}", msg), (f.code, msg)  # unfilled
            if f.fix is not None:
                assert re.search(r"[가-힣]", f.fix_label), (f.code, f.fix_label)
            seen.add(f.code)
    assert len(seen) >= 20, seen


def test_sentences_are_english_in_english() -> None:
    i18n.set_language("en")
    try:
        f = only(check("본문 <br> 입니다.\n"), "mdx-void-tag")
        assert f.message == "“<br>” must be written “<br />” or the site cannot be built."
    finally:
        i18n.set_language("ko")


def test_a_web_admin_upload_with_the_base_url_in_front_gets_its_own_sentence_and_fix() -> None:
    # The web admin on pnuai.github.io/PNU-Modu/ writes its uploads with the base URL in front;
    # the build looks that up as static/PNU-Modu/img/uploads/… and stops.
    paths = PATHS | {"static/img/uploads/upload_1700000000000.png"}
    body = "업로드한 사진:\n\n![행사 사진](/PNU-Modu/img/uploads/upload_1700000000000.png)\n"
    result = check_text(FM + body, path="docs/sample.md", repo_paths=paths)
    f = only(result, "image-base-url")
    assert f.breaks_build and not [x for x in result.findings if x.code == "image-missing"]
    assert (f.line - FM_LINES, f.column) == (3, 10)
    assert f.fields["base"] == "/PNU-Modu"
    with speaking("ko"):
        assert f.message == (
            "그림 주소 “/PNU-Modu/img/uploads/upload_1700000000000.png” 앞에 사이트 주소 "
            "“/PNU-Modu”가 붙어 있어 사이트를 만들 수 없습니다. "
            "“/img/uploads/upload_1700000000000.png”라고 쓰면 그림이 나옵니다."
        )
        assert f.fix_label == "“/img/uploads/upload_1700000000000.png”라고 쓰기"
    fixed = apply_fix(FM + body, f)
    assert fixed == FM + body.replace("/PNU-Modu/img/", "/img/")
    assert not check_text(fixed, path="docs/sample.md", repo_paths=paths).findings
    # the same address whose file was never uploaded is a missing picture, with no fix
    gone = only(check(body), "image-missing")
    assert gone.fix is None
