"""The pictures a page names, by the one rule, with their places; rewriting one picture's
addresses keeps every other byte."""

from __future__ import annotations

from modu_desktop.core.pictures.found import page_pictures, pictures_needed, rewrite_references

PAGE = """\ufeff---
title: 입학 안내
image: /img/social.png
---
# 입학 안내

![캠퍼스 [정문]](/img/campus.png "정문") 그리고 `![코드](/img/in-code.png)`

```md
![펜스 안](/img/in-fence.png)
```

<img src="img/map.png" alt="지도" />

![사진](<../static/img/a b.png>)
![한글](img/%ED%95%9C%EA%B8%80.png)
![원격](https://example.com/x.png)
![같은 그림](@site/static/img/campus.png?v=2#top)

:::hero
title: 환영합니다
image: ./hero.jpg
- logo: "/img/logo.svg"
- title: /img/not-a-picture-field.png
:::
"""


def test_every_form_is_found_where_the_site_takes_it_from() -> None:
    uses = page_pictures(PAGE, "docs/01-admission.md")
    got = [(u.kind, u.path, u.written) for u in uses]
    assert got == [
        ("front-matter", "static/img/social.png", "/img/social.png"),
        ("markdown", "static/img/campus.png", "/img/campus.png"),
        ("html", "docs/img/map.png", "img/map.png"),
        ("markdown", "static/img/a b.png", "../static/img/a b.png"),
        ("markdown", "docs/img/한글.png", "img/%ED%95%9C%EA%B8%80.png"),
        ("markdown", None, "https://example.com/x.png"),
        ("markdown", "static/img/campus.png", "@site/static/img/campus.png?v=2#top"),
        ("field", "docs/hero.jpg", "./hero.jpg"),
        ("field", "static/img/logo.svg", "/img/logo.svg"),
    ]
    for u in uses:
        assert PAGE[u.start : u.end] == u.written
        assert u.written in PAGE.splitlines()[u.line]
    assert uses[1].alt == "캠퍼스 [정문]" and uses[2].alt == "지도"
    assert uses[7].field == "image" and uses[8].field == "logo"


def test_pictures_needed_by_a_page() -> None:
    assert pictures_needed(PAGE, "docs/01-admission.md") == {
        "static/img/social.png",
        "static/img/campus.png",
        "docs/img/map.png",
        "static/img/a b.png",
        "docs/img/한글.png",
        "docs/hero.jpg",
        "static/img/logo.svg",
    }


def test_code_names_no_picture() -> None:
    text = (
        "`` ![a](/img/x.png) `` and `![b](/img/y.png)`\n\n"
        "```\n![c](/img/c.png)\n```\n"
        "~~~~\n<img src='/img/z.png'>\n```\n~~~~\n"
        "\\![not a picture either](/img/escaped.png)\n"
    )
    assert page_pictures(text, "docs/a.md") == []


def test_rewriting_one_picture_keeps_every_other_byte() -> None:
    doc = "docs/01-admission.md"
    out = rewrite_references(
        PAGE, "static/img/campus.png", "static/img/새 캠퍼스.png", doc_path=doc
    )
    expected = PAGE.replace(
        '![캠퍼스 [정문]](/img/campus.png "정문")',
        '![캠퍼스 [정문]](/img/새%20캠퍼스.png "정문")',  # a space a Markdown address can hold
    ).replace("@site/static/img/campus.png?v=2#top", "@site/static/img/새%20캠퍼스.png?v=2#top")
    assert out == expected
    assert out.startswith("\ufeff---")  # the BOM too
    # the rewritten page names the new file in every place the old one was named
    assert pictures_needed(out, doc) - pictures_needed(PAGE, doc) == {"static/img/새 캠퍼스.png"}
    assert "static/img/campus.png" not in pictures_needed(out, doc)


def test_rewriting_keeps_each_address_in_its_own_form() -> None:
    doc = "docs/sub/page.md"
    text = (
        "![a](../img/old.png)\n"
        "<img src='../img/old.png'>\n"
        ":::hero\nimage: ../img/old.png\n:::\n"
        "![b](<../img/old.png>)\r\n"
    )
    out = rewrite_references(text, "docs/img/old.png", "docs/sub/pics/new.png", doc_path=doc)
    assert out == (
        "![a](pics/new.png)\n"
        "<img src='pics/new.png'>\n"
        ":::hero\nimage: ./pics/new.png\n:::\n"  # a field keeps a form that names a picture
        "![b](<pics/new.png>)\r\n"
    )
    assert pictures_needed(out, doc) == {"docs/sub/pics/new.png"}
    # a picture moved into the static folder is named from there
    moved = rewrite_references(
        "![a](../img/old.png)", "docs/img/old.png", "static/img/new.png", doc_path=doc
    )
    assert moved == "![a](../../static/img/new.png)"
    static = rewrite_references(
        "![a](/img/old.png)", "static/img/old.png", "docs/img/new.png", doc_path=doc
    )
    assert static == "![a](../img/new.png)"  # no "/…" address reaches docs/
