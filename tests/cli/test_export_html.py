"""``modu-desktop export-html``: a local file as one self-contained page, as the preview shows
it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import html5lib

from modu_desktop.__main__ import main
from modu_desktop.core.preview import render_document, style_from_checkout
from modu_desktop.core.preview.export import STANDALONE_CSP, local_picture_resolver
from modu_desktop.core.preview.fonts import SHIPPED_FAMILIES, parse_unicode_range

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
    # self-contained: pictures inlined, fonts inside, nothing fetched, no script
    assert page.count("data:image/png;base64,") == 2
    assert "outside.png" not in page and "이미지를 찾을 수 없습니다: 밖" in page
    assert f'content="{STANDALONE_CSP}"' in page.replace("&#x27;", "'")
    assert "<script" not in page.lower()
    assert "url(http" not in _font_faces_sheet(page)


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


# ---------------------------------------------------------------------------- the fonts inside


def _font_faces_sheet(page: str) -> str:
    m = re.search(r'<style data-sheet="fonts">(.*?)</style>', page, re.S)
    assert m, "the page carries no fonts"
    return m.group(1)


def _embedded(page: str) -> list[tuple[str, str, str | None]]:
    """(family, weight, unicode-range or None) of every embedded face (each a data: URL)."""
    faces = []
    for body in re.findall(r"@font-face\{(.*?)\}", _font_faces_sheet(page)):
        family = re.search(r'font-family:"([^"]+)"', body)
        weight = re.search(r"font-weight:([^;]+)", body)
        assert family and weight and 'src:url("data:font/' in body, body[:200]
        ranges = re.search(r"unicode-range:([^;]+)", body)
        faces.append((family.group(1), weight.group(1), ranges.group(1) if ranges else None))
    return faces


def _shown_text(page: str) -> str:
    root = html5lib.parse(page, namespaceHTMLElements=False)
    body = root.find("body")
    assert body is not None
    return "".join(body.itertext())


def _export(tmp_path: Path, text: str, *extra: str) -> str:
    doc = tmp_path / "doc.md"
    doc.write_text(text, "utf-8")
    out = tmp_path / "doc.html"
    assert main(["export-html", str(doc), "--out", str(out), *extra]) == 0
    return out.read_text("utf-8")


def _covers(ranges: str, text: str) -> bool:
    return any(lo <= ord(c) <= hi for c in set(text) for lo, hi in parse_unicode_range(ranges))


SITE_FONT_CSS = (SITE / "src" / "css" / "custom.css").read_text("utf-8")


def test_the_page_declares_the_families_the_site_draws_it_in(tmp_path: Path) -> None:
    # The site's base font is Noto Sans KR; teal-green's palette draws blocks in Pretendard.
    assert '--ifm-font-family-base: "Noto Sans KR"' in SITE_FONT_CSS
    page = _export(tmp_path, DOC, "--site", str(SITE))
    families = {family for family, _, _ in _embedded(page)}
    assert families == {"Noto Sans KR", "Pretendard"}
    # royal-purple draws in GmarketSans; <Text family="nanum"> in Nanum Gothic.
    purple = DOC.replace("teal-green", "royal-purple") + '\n<Text family="nanum">나눔 글씨</Text>\n'
    page = _export(tmp_path, purple, "--site", str(SITE))
    families = {family for family, _, _ in _embedded(page)}
    assert families == {"Noto Sans KR", "Pretendard", "GmarketSans", "Nanum Gothic"}
    # at the weights the preview declares for each
    for fam in SHIPPED_FAMILIES:
        weights = {w for family, w, _ in _embedded(page) if family == fam.family}
        assert weights == {w for w, _ in fam.files}, fam.family


def test_only_the_slices_covering_the_page_s_characters_are_inside(tmp_path: Path) -> None:
    text = DOC.replace("teal-green", "royal-purple") + '\n<Text family="nanum">나눔 글씨</Text>\n'
    page = _export(tmp_path, text, "--site", str(SITE))
    shown = _shown_text(page) + "0123456789. "  # and the numbers of ordered lists
    embedded = _embedded(page)
    for fam in SHIPPED_FAMILIES:
        if not fam.sliced:
            continue
        inside = {ranges for family, _, ranges in embedded if family == fam.family}
        assert inside and None not in inside
        for ranges in fam.slices().values():
            # every slice inside draws a character of the page; every other one draws none
            assert (ranges in inside) == _covers(ranges, shown), (fam.family, ranges[:40])
    # a handful of the slices, not whole families
    sliced = sum(1 for _, _, ranges in embedded if ranges)
    assert sliced < 0.2 * sum(len(f.slices()) * len(f.files) for f in SHIPPED_FAMILIES)
