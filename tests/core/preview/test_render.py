"""Preview renderer (core.preview): the site's block DOM, Markdown, nh3 sanitising, images,
robustness, themes, speed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.brochure.blocks import split_front_matter, split_segments
from modu_desktop.core.brochure.syntax import BLOCK_KINDS
from modu_desktop.core.brochure.themes import THEME_BY_KEY, THEME_KEYS
from modu_desktop.core.preview import (
    MISSING_IMAGE_PLACEHOLDER,
    REMOTE_IMAGE_PLACEHOLDER,
    clear_render_cache,
    mdx,
    render_preview,
)
from tests.helpers.paths import CHECKOUT, SAMPLE_REPO

DOCS = SAMPLE_REPO / "docs"
TEMPLATE = DOCS / "99-template.md"
ALL_DOCS = sorted(DOCS.glob("*.md"))

_OPENER = re.compile(r"^:::([a-z-]+)\s*$")


def _openers_outside_fences(text: str) -> list[str]:
    names: list[str] = []
    fence = False
    for line in text.split("\n"):
        if line.startswith("```"):
            fence = not fence
            continue
        m = _OPENER.match(line)
        if m and not fence:
            names.append(m.group(1))
    return names


def _block_classes(html: str) -> list[str]:
    return re.findall(r'data-block="([a-z-]+)"', html)


def test_fixture_docs_exist() -> None:
    assert TEMPLATE.is_file()
    assert len(ALL_DOCS) >= 9


@pytest.mark.parametrize("path", ALL_DOCS, ids=[p.name for p in ALL_DOCS])
def test_every_fixture_renders_every_block(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    html = render_preview(text)
    assert html.startswith("<!DOCTYPE html>") and html.endswith("</html>")
    expected = _openers_outside_fences(text)
    assert expected, "fixture without blocks?"
    assert _block_classes(html) == expected
    # Front matter is not shown as text; no unreadable-line boxes or unknown blocks in fixtures.
    assert "sidebar_position" not in html.split("<pre", 1)[0]
    assert 'data-block="unknown"' not in html and 'data-block="extra"' not in html
    assert "<script" not in html.lower()


def test_template_covers_every_documented_block() -> None:
    html = render_preview(TEMPLATE.read_text(encoding="utf-8"))
    kinds = set(_block_classes(html))
    documented = set(BLOCK_KINDS) - {"chapter-header"}  # the template does not show this one
    assert documented <= kinds, documented - kinds


def _template_block(kind: str) -> str:
    """HTML of the first rendered block of ``kind`` in the template."""
    html = render_preview(TEMPLATE.read_text(encoding="utf-8"))
    start = html.index(f'data-block="{kind}"')
    nxt = html.find("data-block=", start + 10)
    return html[start : nxt if nxt != -1 else len(html)]


@pytest.mark.parametrize(
    ("kind", "needles"),
    [
        ("hero", ['<h1 class="bb-hero-title">', "진정한 AI·SW 가치확산", "bb-hero-badge-dot"]),
        ("kpi", ['<div class="bb-kpi-value">192명</div>', "SW학과 정원", "2019년 대비 43% 순증"]),
        ("stats", ['<div class="bb-stat-value">89.3%</div>', "졸업생 취업률"]),
        ("cards", ['<div class="bb-card-icon">🎯</div>', "AI·SW 전문인력 양성", "cols-3"]),
        ("panel", ["AI융합교육원 사업추진체계", "Organization", "<li>AI기본교육 전략수립</li>"]),
        ("stepper", ['<span class="bb-stepper-badge">1단계</span>', "2023–2024", "PNU DevCloud"]),
        ("timeline", ['<div class="bb-timeline-badge">1</div>', "2023년 1분기"]),
        ("strategy", ['<div class="bb-strategy-title">4C 추진전략</div>', "Customized Education"]),
        (
            "alphagrid",
            ["SMARTPNU", "문제해결형 혁신인재", '<div class="bb-alphagrid-letter">S</div>'],
        ),
        ("roadmap", ['<div class="bb-roadmap-phase-num">1</div>', "SW중심대학 출범"]),
        ("badges", ["핵심 역량 키워드", 'linear-gradient(135deg, #6366f1, #4f46e5)">A</div>']),
        ("chapters", ['<div class="bb-chapter-num">01</div>', 'href="/docs/intro"', "자세히 보기"]),
        ("quote", ['<div class="bb-quote-icon">“</div>', "차정인", "부산대학교 총장"]),
        ("cta", ['<h2 class="bb-cta-title">AI·SW 교육, 지금 시작하세요</h2>', "/docs/intro"]),
        ("split", ["부산대–경북대 인공지능 공동학과", "68명", "①", "bb-split-dark-panel"]),
        ("datatable", ['<table class="bb-datatable">', "모집단위", "84명", "※ 인공지능전공은"]),
    ],
)
def test_template_block_markup(kind: str, needles: list[str]) -> None:
    block = _template_block(kind)
    for needle in needles:
        assert needle in block, (kind, needle)


def test_datatable_inline_syntax_alignment_and_empty_cells() -> None:
    doc = (
        ":::datatable\nheader: H\ncolumns: A | B | C\nalign: left | center | right\n"
        "note: n\n\n- **굵게** | [!강조] | [~기울임]\n- x | - | z\n:::\n"
    )
    html = render_preview(doc)
    assert '<strong class="bb-dt-bold">굵게</strong>' in html
    assert '<span class="bb-dt-accent">강조</span>' in html
    assert "<em>기울임</em>" in html
    assert 'style="text-align:center"' in html and 'style="text-align:right"' in html
    assert '<td style="text-align:center">-</td>' in html  # "-" cell, as the site shows it
    assert html.count("<th ") == 3 and html.count('<td style="text-align:') == 6  # 3 cols, 2 rows


def test_split_sections_and_panel_variants() -> None:
    segs = split_segments(
        ":::split\nleft-header: L\nleft-dark: true\nright-header: R\n\nleft:\n- label: a\n"
        '  value: 1\n- label: b\n  value: 2\nright:\n- num: "①"\n  title: t\n  desc: d\n:::'
    )
    (block,) = segs
    assert not isinstance(block, str)
    assert block.kind == "split"
    assert [i["value"] for i in block.left] == ["1", "2"]
    assert block.right == [{"num": "①", "title": "t", "desc": "d"}]
    assert block.props["left-header"] == "L"


def test_chapter_header_and_alias() -> None:
    for name in ("chapter-header", "chapterheader"):
        html = render_preview(
            f":::{name}\nchapter: 3\nlabel: 라벨\ntitle: 교육혁신\nsubtitle: 부제\n:::\n"
        )
        assert 'data-block="chapter-header"' in html
        for needle in ("CHAPTER 03", "라벨", "교육혁신", "부제", "bb-chapter-header-divider"):
            assert needle in html


def test_code_fences_keep_directives_as_code() -> None:
    html = render_preview("```\n:::hero\ntitle: 코드\n:::\n```\n")
    assert 'data-block="hero"' not in html
    assert ":::hero" in html and "<pre" in html


def test_block_values_are_escaped() -> None:
    # The site reads block values as Markdown first: tags in them are elements whose text
    # stays and whose markup goes (MDX), so the preview shows the text, escaped, and no markup.
    evil = '<script>alert(1)</script>" onmouseover="x'
    doc = (
        f":::hero\nbadge: {evil}\ntitle: <b>t</b>\ndescription: <img src=x onerror=alert(1)>\n:::\n"
        f":::cards\n- title: <iframe src=http://evil.example/></iframe>\n  icon: {evil}\n:::\n"
        f":::datatable\ncolumns: <i>a</i> | b\n- <script>x</script> | [!<b>y</b>]\n:::\n"
    )
    html = render_preview(doc)
    low = html.lower()
    assert (
        "<script" not in low
        and "<iframe" not in low
        and "onerror" not in low.replace("onerror=alert(1)&gt;", "")
    )
    assert 'class="bb-hero-badge"><span class="bb-hero-badge-dot"></span>alert(1)&quot;' in html
    assert '<h1 class="bb-hero-title">t</h1>' in html
    assert "&quot; onmouseover=&quot;x" in html
    assert "<i>a</i>" not in html and "<b>" not in html


@pytest.mark.parametrize(
    "snippet",
    [
        "<script>alert(1)</script>",
        "<SCRIPT src='http://evil.example/x.js'></SCRIPT>",
        '<iframe src="https://evil.example/"></iframe>',
        '<object data="http://evil.example/x.swf">fallback</object>',
        '<embed src="http://evil.example/x.swf">',
        "<style>body { background: url(http://evil.example/bg.png) }</style>",
        '<link rel="stylesheet" href="http://evil.example/x.css">',
        '<img src="x.png" onerror="alert(1)">',
        '<a href="javascript:alert(1)" onclick="alert(2)">click</a>',
        '<div style="background-image: url(http://evil.example/bg.png); color: red">div</div>',
        '<table background="http://evil.example/t.png"><tr><td>cell</td></tr></table>',
        '<svg><image href="http://evil.example/i.png"/></svg>',
        '<meta http-equiv="refresh" content="0;url=http://evil.example/">',
    ],
)
def test_dangerous_html_is_removed(snippet: str) -> None:
    # The document's part of the page (our own stylesheets in <head> hold data: icons).
    html = render_preview(f"# T\n\nbefore\n\n{snippet}\n\nafter\n").split("<body>", 1)[1]
    low = html.lower()
    for bad in (
        "<script",
        "<iframe",
        "<object",
        "<embed",
        "<link",
        "<meta http",
        "<svg",
        "onerror",
        "onclick",
        "javascript:",
        "evil.example",
        "url(",
    ):
        assert bad not in low, (snippet, bad)
    assert "before" in html and "after" in html


def test_safe_markup_survives_sanitizer() -> None:
    html = render_preview(
        "**b** *i* `c`\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n> q\n\n- x\n- y\n\n"
        '<span style="color: red">red</span>\n\n[site](https://example.org/page)\n'
    )
    for needle in (
        "<strong>b</strong>",
        "<em>i</em>",
        "<code",
        "<table",
        "<blockquote",
        "<li>x</li>",
        'style="color:red"',
        'href="https://example.org/page"',
    ):
        assert needle in html, needle


def test_remote_images_become_placeholders_and_are_never_resolved() -> None:
    calls: list[str] = []

    def resolver(src: str) -> str | None:
        calls.append(src)
        return "file:///tmp/never.png"

    doc = (
        "![로고](https://cdn.example.com/logo.png)\n\n"
        '<img src="http://cdn.example.com/x.png" alt="raw">\n\n'
        "![proto](//cdn.example.com/p.png)\n"
    )
    html = render_preview(doc, image_resolver=resolver)
    assert calls == []
    assert "<img" not in html
    assert "cdn.example.com" not in html  # the placeholder names the alt text, not the URL
    assert html.count(REMOTE_IMAGE_PLACEHOLDER) == 3
    assert "로고" in html


def test_local_images_go_through_the_resolver(tmp_path: Path) -> None:
    seen: list[str] = []
    url = (tmp_path / "a.png").as_uri()

    def resolver(src: str) -> str | None:
        seen.append(src)
        return url if src.endswith("a.png") else None

    doc = "![a](/img/a.png)\n\n![b](img/b.png)\n\n![c](../static/img/uploads/a.png)\n"
    html = render_preview(doc, image_resolver=resolver)
    assert seen == ["/img/a.png", "img/b.png", "../static/img/uploads/a.png"]
    assert html.count(f'src="{url}"') == 2
    assert MISSING_IMAGE_PLACEHOLDER in html


def test_untrusted_resolver_results_are_refused() -> None:
    def remote(_src: str) -> str | None:
        return "https://evil.example/x.png"

    def broken(_src: str) -> str | None:
        raise RuntimeError("boom")

    for resolver in (remote, broken):
        html = render_preview("![a](/img/a.png)", image_resolver=resolver)
        assert "<img" not in html and MISSING_IMAGE_PLACEHOLDER in html
    assert "<img" not in render_preview("![a](/img/a.png)")  # no resolver → placeholder
    data = "data:image/png;base64,iVBORw0KGgo="
    assert f'src="{data}"' in render_preview(f"![d]({data})")
    assert "<img" not in render_preview("![d](data:text/html;base64,PHNjcmlwdD4=)")
    assert "<img" not in render_preview("![f](file:///etc/passwd)")


def test_unknown_block_keeps_its_text() -> None:
    html = render_preview(":::mystery\nfoo: bar <b>\n- one\n  two: 2\n:::\n\nafter\n")
    assert 'data-block="unknown"' in html
    assert "mystery" in html
    assert "foo: bar &lt;b&gt;" in html and "- one" in html and "two: 2" in html
    assert "after" in html


def test_unclosed_block_ends_before_markdown() -> None:
    doc = ":::cards\ntitle: 카드\n- title: 하나\n  icon: x\n\n## 다음 제목\n\n본문 **굵게**\n"
    html = render_preview(doc)
    assert 'data-block="cards"' in html and "하나" in html
    assert "닫히지 않았습니다" in html
    assert (
        re.search(r'<h2 [^>]*id="다음-제목">다음 제목<a', html) and "<strong>굵게</strong>" in html
    )


def test_unclosed_block_at_end_and_before_next_block() -> None:
    html = render_preview(":::hero\ntitle: 첫째\n:::kpi\n- value: 9\n  label: L\n:::\n:::quote\n")
    assert _block_classes(html) == ["hero", "kpi", "quote"]
    assert html.count("닫히지 않았습니다") == 2
    assert "첫째" in html and '<div class="bb-kpi-value">9</div>' in html


def test_unreadable_lines_in_known_block_are_shown() -> None:
    html = render_preview(":::kpi\ntitle: T\n- label: a\n  value: 1\n이건 읽을 수 없는 줄\n:::\n")
    assert 'data-block="kpi"' in html and 'data-block="extra"' in html
    assert "이건 읽을 수 없는 줄" in html


def test_stray_closer_and_garbage_never_crash() -> None:
    samples = [
        "",
        ":::",
        ":::\n:::\n",
        "---\n",
        "---\ntitle: x\n",
        "\ufeff---\r\ntitle: x\r\ntheme: teal-green\r\n---\r\n# 본문\r\n",
        ":::cards\n-\n- \n  : \n  x\n:::",
        ":::datatable\ncolumns: \n- |||\n- \n:::",
        ":::split\nleft:\nright:\nleft:\n:::",
        ":::stepper\n- items: |\n:::",
        ":::cards\ncolumns: many\n:::",
        "<Callout type='x'>\n<Columns>\n<Col>\n</Callout>",
        "<div><p><b>unclosed",
        "```\nunclosed fence :::hero",
        "![](  )",
        "[x](javascript:alert(1))",
    ]
    for text in samples:
        html = render_preview(text)
        assert html.endswith("</html>")
        assert "javascript:" not in html


def test_theme_from_front_matter_and_override() -> None:
    doc = "---\ntitle: T\ntheme: teal-green\n---\n:::hero\ntitle: h\n:::\n"
    assert f"--theme-primary: {THEME_BY_KEY['teal-green'].primary}" in render_preview(doc)
    assert 'data-brochure-theme="teal-green"' in render_preview(doc)
    over = render_preview(doc, theme="royal-purple")
    assert f"--theme-primary: {THEME_BY_KEY['royal-purple'].primary}" in over
    # As on the site: an unknown name keeps the provider's initial theme (startup-gradient);
    # no theme at all gives public-blue.
    assert 'data-brochure-theme="startup-gradient"' in render_preview(doc, theme="no-such-theme")
    assert 'data-brochure-theme="public-blue"' in render_preview("# x")
    assert set(THEME_KEYS) == {
        "public-blue",
        "teal-green",
        "royal-purple",
        "burgundy-gold",
        "ocean-cyan",
        "startup-gradient",
        "minimal-light",
    }
    for name in THEME_KEYS:
        html = render_preview(TEMPLATE.read_text(encoding="utf-8"), theme=name)
        assert f"--theme-background: {THEME_BY_KEY[name].tokens['background']}" in html


def test_title_shown_unless_hidden() -> None:
    shown = render_preview("---\ntitle: 보이는 제목\n---\n본문\n")
    hidden = render_preview("---\ntitle: 숨은 제목\nhide_title: true\n---\n본문\n")
    assert "<header><h1>보이는 제목</h1></header>" in shown
    assert "숨은 제목" not in hidden.split("<body>", 1)[1]


def test_front_matter_parser_tolerates_bom_quotes_comments() -> None:
    fm, body = split_front_matter("\ufeff---\n# c\ntitle: \"따옴표\"\ntheme: 'ocean-cyan'\n---\nB")
    assert fm.values == {"title": "따옴표", "theme": "ocean-cyan"}
    assert body == "B"


def test_mdx_components_are_rendered_safely() -> None:
    doc = (
        '취업률 <Highlight color="#16a34a">89%</Highlight> '
        '<Highlight color="red;background:url(x)">bad</Highlight>\n\n'
        '<Callout type="warning" title="주의">내용</Callout>\n\n'
        '<Details summary="요약">\n  숨은 내용\n</Details>\n\n'
        '<Text size="2rem" weight="900" color="#1565c0">큰 글</Text>\n\n'
        '<HeroButton href="/docs/intro">버튼</HeroButton>\n'
    )
    html = render_preview(doc).split("</head>", 1)[1]
    assert "background-color:#16a34a" in html
    assert "url(" not in html and "background-color:red" not in html
    assert "주의" in html and "내용" in html and "⚠️" in html and "#fffbeb" in html
    assert "<details" in html and "요약" in html and "숨은 내용" in html
    assert "font-size:2rem" in html and "font-weight:900" in html and "color:#1565c0" in html
    assert 'class="hero-button"' in html and "버튼" in html
    assert "<callout" not in html.lower() and "<highlight" not in html.lower()


def test_typing_converts_only_the_edited_fragment_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """While typing, a render converts the edited fragment and nothing else again (pictures are
    never cached). How long that takes is the benchmark's: ``scripts/bench_render.py``."""
    text = TEMPLATE.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) > 30_000
    converted: list[str] = []
    real = mdx._convert

    def counting(fragment: str, resolver: Any) -> str:
        converted.append(fragment)
        return real(fragment, resolver)

    monkeypatch.setattr(mdx, "_convert", counting)
    clear_render_cache()
    render_preview(text)
    cold = len(converted)
    assert cold > 10
    converted.clear()
    edited = text.replace("## ⑨ alphagrid", "## ⑨ alphagrid 수정")
    assert "alphagrid 수정" in render_preview(edited)
    again = [f for f in converted if "alphagrid 수정" not in f]
    assert len(converted) > len(again)  # the edited fragment
    assert all("![" in f or "<img" in f.lower() for f in again), again  # and pictures only
    assert len(converted) < cold / 4


def test_cache_is_keyed_by_text_and_skips_images() -> None:
    doc = "# 제목\n\n`code`\n"
    blue = render_preview(doc, theme="public-blue")
    green = render_preview(doc, theme="teal-green")
    assert blue != green and render_preview(doc, theme="public-blue") == blue
    calls: list[str] = []

    def resolver(src: str) -> str | None:
        calls.append(src)
        return None

    render_preview("![a](/img/a.png)", image_resolver=resolver)
    render_preview("![a](/img/a.png)", image_resolver=resolver)
    assert calls == ["/img/a.png", "/img/a.png"]  # image fragments are never cached


def test_render_module_is_qt_free() -> None:
    code = (
        "import sys, modu_desktop.core.preview as r; r.render_preview('# x');"
        "bad=[m for m in sys.modules if m.startswith('PySide6')]; assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=CHECKOUT)


def test_checkout_image_resolver(tmp_path: Path) -> None:
    from modu_desktop.core.preview import checkout_image_resolver

    repo = tmp_path / "repo"
    static = repo / "static"
    (static / "img" / "uploads").mkdir(parents=True)
    png = static / "img" / "uploads" / "upload_1.png"
    png.write_bytes(b"\x89PNG")
    (repo / "docs" / "img").mkdir(parents=True)
    beside = repo / "docs" / "img" / "b.png"
    beside.write_bytes(b"\x89PNG")
    (tmp_path / "secret.png").write_bytes(b"x")
    resolve = checkout_image_resolver(repo, "docs/01.md")
    uri = png.resolve().as_uri()
    for src in (
        "/img/uploads/upload_1.png",
        "../static/img/uploads/upload_1.png",
        "@site/static/img/uploads/upload_1.png",
        "/img/uploads/upload_1.png?v=2",
    ):
        assert resolve(src) == uri, src
    assert resolve("img/b.png") == resolve("./img/b.png") == beside.resolve().as_uri()
    for src in (
        "/PNU-Modu/img/uploads/upload_1.png",  # the build looks in static/PNU-Modu/ and stops
        "img/uploads/upload_1.png",  # beside the document: docs/img/uploads/
        "/img/missing.png",
        "../../secret.png",
        "/../../secret.png",
        "img/../../../secret.png",
        "",
    ):
        assert resolve(src) is None, src
    html = render_preview("![u](/img/uploads/upload_1.png)", image_resolver=resolve)
    assert f'src="{uri}"' in html


def test_docusaurus_admonitions_render_markdown_inside() -> None:
    html = render_preview(
        ":::tip[알아두기]\n**굵게** 와 [링크](/docs/intro)\n\n- 하나\n:::\n\n끝\n"
    )
    assert "theme-admonition theme-admonition-tip" in html and "alert--success" in html
    assert "알아두기" in html
    assert "<strong>굵게</strong>" in html and "<li>하나</li>" in html
    assert 'data-block="unknown"' not in html and "끝" in html
    plain = render_preview(":::warning\n조심하세요\n:::\n")
    assert "경고" in plain and "조심하세요" in plain and "alert--warning" in plain
    # Unclosed admonition: the rest of the document stays visible inside it.
    unclosed = render_preview(":::note\n첫 줄\n\n## 제목\n\n본문\n")
    assert "닫히지 않았습니다" in unclosed and re.search(r"<h2 [^>]*>제목<a", unclosed)
    assert "<script" not in render_preview(":::info\n<script>x</script>\n:::\n")


def test_segments_know_their_lines_and_paragraphs() -> None:
    """The preview follows the cursor into paragraphs: each Markdown segment knows where it
    starts and where its top-level parts start (fenced code is one part)."""
    from modu_desktop.core.preview import render_document

    text = (
        "---\ntitle: T\n---\n"  # lines 0-2
        "첫 문단\n\n## 제목\n\n```\ncode\n\nmore\n```\n\n"  # 3..12
        ":::cards\n- title: A\n:::\n"  # 13..15
        "끝 문단\n"  # 16
    )
    doc = render_document(text)
    md = [s for s in doc.segments if s.kind == "markdown"]
    assert md[0].start == 3 and md[0].chunks == (3, 5, 7)
    block = next(s for s in doc.segments if s.kind == "cards")
    assert block.start == block.line == 13
    assert md[1].start == 16 and md[1].chunks == (16,)
