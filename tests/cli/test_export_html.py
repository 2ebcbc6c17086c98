"""``modu-desktop export-html``: a local file as one self-contained page, as the preview shows
it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from modu_desktop.__main__ import main
from modu_desktop.core.preview import render_document, style_from_checkout
from modu_desktop.core.preview.export import STANDALONE_CSP, local_picture_resolver

SITE = Path(__file__).resolve().parents[1] / "fixtures" / "pnu-modu-site"
DOC = """---
title: 보내는 문서
theme: teal-green
---

인원은 10~20명, 기간은 3~5일, **마크다운(Markdown)**을 배웁니다. :tada:

![로고](/img/logo.png) ![옆 그림](./pic.png) ![밖](../../outside.png)

:::cards
- title: 선배창업자 1:1 멘토링
:::
"""


def _content(page: str) -> str:
    m = re.search(r'<div class="theme-doc-markdown markdown" id="modu-content">(.*)</div>'
                  r"</article>", page, re.S)  # fmt: skip
    assert m
    return m.group(1)


def test_the_page_is_the_preview_with_everything_inside(tmp_path: Path, capsys) -> None:
    doc = tmp_path / "docs" / "문서.md"
    doc.parent.mkdir()
    doc.write_text(DOC, "utf-8")
    shutil.copy(SITE / "static" / "img" / "logo.png", doc.parent / "pic.png")
    (tmp_path / "outside.png").write_bytes((SITE / "static" / "img" / "logo.png").read_bytes())
    out = tmp_path / "out" / "page.html"
    assert main(["export-html", str(doc), "--out", str(out), "--site", str(SITE)]) == 0
    assert "wrote" in capsys.readouterr().out
    page = out.read_text("utf-8")
    # what the preview shows, with the site's styles and palette
    expected = render_document(
        DOC,
        style=style_from_checkout(SITE),
        image_resolver=local_picture_resolver(doc.parent, SITE / "static"),
    ).content_html()
    assert _content(page) == expected
    assert "10<del>20명" in page and "**마크다운(Markdown)**을" in page and "🎉" in page
    assert "선배창업자 1 멘토링" in page
    assert 'data-brochure-theme="teal-green"' in page and ".bb-cards-grid" in page
    # self-contained: pictures inlined, the one font inside, nothing fetched, no script
    assert page.count("data:image/png;base64,") == 2
    assert "outside.png" not in page and "이미지를 찾을 수 없습니다: 밖" in page
    assert page.count("data:font/ttf;base64,") == 1
    assert f'content="{STANDALONE_CSP}"' in page.replace("&#x27;", "'")
    assert "<script" not in page.lower()
    head = page.split("<body>", 1)[0]
    assert not re.search(r"font-family:[^;}]*(Noto Sans KR|GmarketSans|Nanum Gothic)", head)
    assert "Noto Sans KR" in (SITE / "src" / "css" / "custom.css").read_text("utf-8")


def test_without_a_site_and_without_the_font(tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_bytes("\ufeff# 제목\n\n![로고](/img/logo.png)\n".encode())
    out = tmp_path / "a.html"
    assert main(["export-html", str(doc), "--out", str(out), "--no-font"]) == 0
    page = out.read_text("utf-8")
    assert "<header><h1>제목</h1></header>" in page
    assert "data:font/ttf;base64," not in page
    assert "data:image/png;base64," not in page  # /img/… is the site's: it needs --site
    assert "brochure" in page  # the preview's own stylesheet


def test_failures_are_one_line(tmp_path: Path, capsys) -> None:
    assert main(["export-html", str(tmp_path / "nope.md"), "--out", str(tmp_path / "x")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: cannot read") and err.count("\n") == 1
    (tmp_path / "bad.md").write_bytes(b"\xff\xfe\x00bad")
    assert main(["export-html", str(tmp_path / "bad.md"), "--out", str(tmp_path / "x")]) == 1
    assert "not UTF-8" in capsys.readouterr().err
    assert main(["export-html", str(tmp_path / "bad.md")]) == 2  # --out is required
    assert not (tmp_path / "x").exists()
