"""The site's own web fonts, shipped: every family the site's CSS loads from a CDN is declared
over files we ship, with the weights the site asks for, a licence beside each, nothing remote."""

from __future__ import annotations

import re
from pathlib import Path

from modu_desktop.core.preview import build_page, render_document, style_from_checkout
from modu_desktop.core.preview.fonts import (
    FONTS_DIR,
    SHIPPED_FAMILIES,
    font_file,
    fonts_css,
    shipped_family_names,
)
from tests.helpers.paths import SITE_FIXTURE

BASE = "modu-page:/res/fonts"


def _site_web_font_families() -> dict[str, set[str]]:
    """Family → weights the site loads from a CDN, read from its stylesheets."""
    css = (SITE_FIXTURE / "src" / "css" / "custom.css").read_text("utf-8")
    out: dict[str, set[str]] = {}
    for spec in re.findall(r"fonts\.googleapis\.com/css2\?family=([^&\"')]+)", css):
        name, _, axes = spec.partition(":")
        out[name.replace("+", " ")] = set(axes.split("@", 1)[1].split(";"))
    for block in re.findall(r"@font-face\s*\{(.*?)\}", css, re.S):
        family = re.search(r"font-family:\s*['\"]([^'\"]+)", block)
        weight = re.search(r"font-weight:\s*(\d+)", block)
        assert family and weight
        out.setdefault(family.group(1), set()).add(weight.group(1))
    if "orioncactus/pretendard" in css:
        out["Pretendard"] = {str(w) for w in range(100, 1000, 100)}
    return out


def _faces(css: str) -> list[dict[str, str]]:
    faces = []
    for body in re.findall(r"@font-face\{(.*?)\}", css):
        faces.append(dict(part.split(":", 1) for part in body.split(";")))
    return faces


def _covers(declared: str, weight: str) -> bool:
    lo, _, hi = declared.partition(" ")
    return int(lo) <= int(weight) <= int(hi or lo)


def test_every_web_font_of_the_site_is_shipped_at_the_weights_it_loads() -> None:
    site = _site_web_font_families()
    assert {"Noto Sans KR", "Nanum Gothic", "Pretendard", "GmarketSans"} <= set(site)
    faces = _faces(fonts_css(BASE))
    for family, weights in site.items():
        assert family in shipped_family_names(), family
        declared = {f["font-weight"] for f in faces if f["font-family"] == f'"{family}"'}
        for weight in weights:
            assert any(_covers(d, weight) for d in declared), (family, weight, declared)


def test_a_weight_the_site_does_not_load_is_not_drawn_in_between() -> None:
    # The site loads Noto Sans KR at 300, 400, 500, 700 and 800 only: text at 600 is drawn at
    # 700 there. A face covering 600 would draw a weight the site never shows.
    faces = [f for f in _faces(fonts_css(BASE)) if f["font-family"] == '"Noto Sans KR"']
    assert not any(_covers(f["font-weight"], "600") for f in faces)
    assert {f["font-weight"] for f in faces} == {"300 500", "700 800"}


def test_every_face_names_a_shipped_file_and_nothing_remote() -> None:
    css = fonts_css(BASE)
    urls = re.findall(r'url\("([^"]+)"\)', css)
    assert urls and all(u.startswith(BASE + "/") for u in urls)
    assert "http" not in css
    for url in set(urls):
        assert font_file(url[len(BASE) + 1 :]) is not None, url
    sliced = [f for f in _faces(css) if "unicode-range" in f]
    assert len(sliced) > 200  # Google's slices: the page loads only the ones it needs


def test_each_font_folder_carries_its_licence() -> None:
    folders = {Path(name).parent for fam in SHIPPED_FAMILIES for _, name in fam.files}
    for folder in folders:
        licences = (
            [FONTS_DIR / "OFL-Pretendard.txt"]
            if folder == Path(".")
            else [FONTS_DIR / folder / "OFL.txt"]
        )
        for lic in licences:
            text = lic.read_text("utf-8")
            assert "SIL Open Font License" in text or "Open Font License" in text, lic


def test_shipped_size_stays_reasonable() -> None:
    total = sum(f.stat().st_size for f in FONTS_DIR.rglob("*") if f.is_file())
    assert total < 20 * 1024 * 1024, total


def test_font_file_serves_only_font_files_inside_the_folder() -> None:
    assert font_file("noto-sans-kr/noto-sans-kr-latin-wght-normal.woff2") is not None
    assert font_file("PretendardVariable.ttf") is not None
    assert font_file("README.md") is None
    assert font_file("noto-sans-kr/unicode.json") is None
    assert font_file("../fonts/PretendardVariable.ttf") is not None  # still inside
    assert font_file("../../preview/fonts/../../../pyproject.toml") is None
    assert font_file("../infima.min.css") is None
    assert font_file("nope.woff2") is None


def test_the_page_declares_the_fonts_after_the_site_sheets() -> None:
    style = style_from_checkout(SITE_FIXTURE)
    text = (SITE_FIXTURE / "docs" / "05-part-5.md").read_text("utf-8")
    page = build_page(render_document(text, style=style), style)
    sheets = re.findall(r'<style data-sheet="([^"]+)">', page)
    assert sheets[-1] == "fonts"
    assert "src/css/custom.css" in sheets
    assert '@font-face{font-family:"GmarketSans";font-style:normal;font-weight:500' in page
