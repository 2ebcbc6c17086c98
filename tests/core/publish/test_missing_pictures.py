"""A picture a page names that the repository does not have: a warning with a plain sentence,
for pictures written as HTML and the front matter's picture too (no fix: only a person knows
which picture was meant)."""

from __future__ import annotations

from modu_desktop.core.publish.check import Severity, check_text
from tests.helpers.lang import speaking

PATHS = {"static/img/logo.png", "docs/img/map.png"}


def _codes(text: str, paths: set[str] | None = PATHS) -> list[tuple[str, str]]:
    result = check_text(text, path="docs/01-intro.md", repo_paths=paths)
    return [
        (f.code, text[f.offset : f.end])
        for f in result.findings
        if "picture" in f.code or "image" in f.code
    ]


def test_a_missing_picture_in_html_or_the_front_matter_is_a_warning() -> None:
    text = (
        "---\nid: intro\ntitle: 소개\nimage: /img/share.png\n---\n\n"
        '<img src="/img/gone.png" alt="사라진 그림" />\n\n'
        '<img src="img/map.png" />\n\n'
        "<img src='/img/logo.png' />\n"
    )
    result = check_text(text, path="docs/01-intro.md", repo_paths=PATHS)
    found = {f.code: f for f in result.findings}
    assert set(found) == {"picture-missing", "fm-picture-missing"}
    html = found["picture-missing"]
    assert html.severity is Severity.PAGE_WRONG and html.fix is None and html.line == 7
    assert text[html.offset : html.end] == "/img/gone.png"
    front = found["fm-picture-missing"]
    assert front.severity is Severity.PAGE_WRONG and front.fix is None and front.line == 4
    with speaking("ko"):
        assert html.message == (
            "저장소에 그림 “/img/gone.png” 파일이 없어 페이지의 그 자리에 그림이 보이지 않습니다."
        )
        assert front.message == (
            "저장소에 그림 “/img/share.png” 파일이 없어 이 페이지를 공유할 때 그림이 보이지 "
            "않습니다."
        )
    assert html.message.startswith("The picture “/img/gone.png” is not in the repository")


def test_only_with_the_listing_and_never_twice() -> None:
    text = '<img src="/img/gone.png" />\n\n![로고](/img/none.png)\n'
    assert _codes(text, None) == []  # without the repository's files: no picture checks
    # the Markdown picture keeps its own finding (it stops the build); HTML gets the new one
    assert sorted(_codes(text)) == [
        ("image-missing", "/img/none.png"),
        ("picture-missing", "/img/gone.png"),
    ]
    # remote and code are not the repository's pictures
    assert _codes('<img src="https://x.org/a.png" />\n\n`<img src="/img/x.png">`\n') == []
