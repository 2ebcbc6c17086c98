"""그림 모음 by hand: the text box's 그림 tool, then 사이트에 있는 그림에서 고르기, a picture
clicked in the library's list and 이 그림 넣기 clicked put the picture that is on the site where
the caret was, with the address the page reaches and the description the picture has elsewhere
— and nothing is uploaded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.hands import Account, HandsApp, XScreen, page, put_page

pytestmark = pytest.mark.hands

DOC = "92-hands-library"
BODY = "Alpha 그림 앞 문단입니다.\n\nBravo 가운데 문단입니다.\n"
PICTURE = "![연습용 사진](/img/sample-photo.png)"  # as 04-admission describes it


@pytest.fixture(scope="module")
def library_app(
    screen: XScreen, hands_sandbox: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[HandsApp]:
    put_page(hands_sandbox, f"docs/{DOC}.md", page("hands-library", "그림 모음 연습", BODY))
    data = tmp_path_factory.mktemp("library-app") / "data"
    app = HandsApp(
        screen, hands_sandbox.api_url, data, Account("editor1", "tok-editor1"), "--open", DOC
    )
    try:
        app.wait(
            lambda: app.probe.widgets(name="textCardEditor", contains="Bravo"),
            40,
            "the page's text box",
        )
        yield app
    finally:
        app.finish()


def test_a_picture_on_the_site_goes_where_the_caret_was(
    library_app: HandsApp, screen: XScreen, hands_sandbox: Any
) -> None:
    app = library_app
    commits = len(hands_sandbox.commits())
    box: dict[str, Any] = {"name": "textCardEditor", "contains": "Alpha"}
    app.click_text("Alpha 그림", **box)
    app.wait(
        lambda: app.probe.text(**box)["before"] == "Alpha 그림", 10, "the caret after “Alpha 그림”"
    )
    app.click(name="textTool_picture")
    app.wait(lambda: app.probe.window_open("opsImageDialog"), 20, "the picture dialog")
    app.click(name="pickFromSiteButton")
    app.wait(lambda: app.probe.window_open("pictureLibraryPicker"), 20, "the library, for picking")
    row = app.wait(
        lambda: app.probe.picture_row("sample-photo.png"), 30, "the practice photo in the list"
    )
    screen.click_rect(row["rect"])
    app.wait(
        lambda: app.probe.widget(name="pictureDetailName")["text"] == "sample-photo.png",
        10,
        "the photo chosen",
    )
    screen.screenshot("picture-library-picking-1600")
    app.click(name="pictureInsertButton")
    app.wait(
        lambda: (
            not app.probe.window_open("pictureLibraryPicker")
            and not app.probe.window_open("opsImageDialog")
        ),
        20,
        "both dialogs closed",
    )
    text = app.wait(
        lambda: (d := app.probe.document()["text"]) and PICTURE in d and d, 15, "the picture"
    )
    assert text.index("Alpha 그림") < text.index(PICTURE) < text.index(" 앞 문단입니다."), text
    assert len(hands_sandbox.commits()) == commits  # nothing uploaded, nothing saved yet
