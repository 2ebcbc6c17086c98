"""A picture's description where a page uses it: found with its place, changed with every other
byte kept, escaped so the site reads it as written, refused when the page moved on."""

from __future__ import annotations

from modu_desktop.core.pictures.alt_text import (
    AltChange,
    AltCode,
    change_alt,
    describable,
    markdown_alt,
    places_of,
    with_alt,
)
from modu_desktop.core.pictures.found import page_pictures
from modu_desktop.core.preview.markdown import parse
from modu_desktop.core.publish.check import check_text

DOC = "docs/04-admission.md"
PAGE = (
    "---\ntitle: 입학 안내\nimage: /img/campus.png\n---\n\n"
    "# 안내\n\n![정문 사진](/img/campus.png)\n\n"
    "`![코드 속 그림](/img/campus.png)`\n\n"
    '<img src="/img/campus.png" width="300">\n\n'
    "<img alt='옛 &amp; 설명' src=\"../static/img/campus.png\">\n\n"
    ":::cards\n- title: 캠퍼스\n  image: /img/campus.png\n:::\n"
)


def _change(index: int, seen: str | None, alt: str) -> AltChange:
    return AltChange("04-admission", "입학 안내", DOC, "static/img/campus.png", index, seen, alt)


def test_each_place_carries_its_description_and_where_it_is_written() -> None:
    uses = places_of(PAGE, DOC, "static/img/campus.png")
    assert [u.kind for u in uses] == ["front-matter", "markdown", "html", "html", "field"]
    assert [u.alt for u in uses] == [None, "정문 사진", None, "옛 & 설명", None]
    assert [describable(u) for u in uses] == [False, True, True, True, False]
    md = uses[1]
    assert md.alt_start is not None and PAGE[md.alt_start : md.alt_end] == "정문 사진"
    assert PAGE[uses[3].alt_start : uses[3].alt_end] == "옛 &amp; 설명"  # type: ignore[index]
    assert all(u.start < u.end for u in page_pictures(PAGE, DOC))


def test_changing_one_description_keeps_every_other_byte() -> None:
    uses = places_of(PAGE, DOC, "static/img/campus.png")
    new = with_alt(PAGE, uses[1], "부산대학교 정문")
    assert new == PAGE.replace("![정문 사진]", "![부산대학교 정문]")
    added = with_alt(PAGE, uses[2], '새 "설명"')
    assert added == PAGE.replace(
        '<img src="/img/campus.png" width',
        '<img alt="새 &quot;설명&quot;" src="/img/campus.png" width',
    )
    quoted = with_alt(PAGE, uses[3], "A & B")
    assert quoted == PAGE.replace("옛 &amp; 설명", "A &amp; B")
    assert places_of(quoted, DOC, "static/img/campus.png")[3].alt == "A & B"


def test_a_description_is_escaped_so_the_site_reads_it_as_typed() -> None:
    typed = "2025 {행사} [본관] <정문> *사진* \\ 끝\n둘째 줄"
    assert markdown_alt(typed).count("\n") == 0
    page = "# 제목\n\n![옛 설명](/img/a.png)\n"
    use = places_of(page, "docs/a.md", "static/img/a.png")[0]
    new = with_alt(page, use, typed)
    image = next(
        child
        for tok in parse(new)
        if tok.children
        for child in tok.children
        if child.type == "image"
    )
    shown = "".join(c.content for c in image.children or [] if c.type == "text")
    assert shown == " ".join(typed.split())  # what the site shows as the alt text
    assert not [f for f in check_text(new).findings if f.breaks_build]
    again = places_of(new, "docs/a.md", "static/img/a.png")
    assert len(again) == 1 and again[0].alt == markdown_alt(typed)


def test_a_change_is_refused_when_the_page_moved_on() -> None:
    ok = change_alt(PAGE, _change(1, "정문 사진", "새 설명"))
    assert ok.code is AltCode.SAVED and ok.new_text is not None and "![새 설명]" in ok.new_text
    same = change_alt(PAGE, _change(1, "정문 사진", "정문 사진"))
    assert same.code is AltCode.UNCHANGED and same.ok
    stale = change_alt(PAGE, _change(1, "다른 설명", "새 설명"))
    assert stale.code is AltCode.CHANGED and not stale.ok
    assert "“입학 안내”" in stale.text.en and "입학 안내" in stale.text.ko
    gone = change_alt(PAGE, _change(9, None, "새 설명"))
    assert gone.code is AltCode.CHANGED
    block = change_alt(PAGE, _change(4, None, "설명"))
    assert block.code is AltCode.NOT_DESCRIBABLE
