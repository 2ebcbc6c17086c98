"""A picture put in with the text box's 그림 tool lands where the caret was, not at the end of
the page: the caret placed by a click, the tool clicked, the picture dialog answered with the
keyboard (the file's path typed, Enter)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QColor, QImage

from tests.helpers.hands import Account, HandsApp, XScreen, page, put_page

pytestmark = pytest.mark.hands

DOC = "91-hands-pictures"
BODY = "Alpha 그림 앞 문단입니다.\n\nBravo 가운데 문단입니다.\n\nCharlie 끝 문단입니다.\n"


@pytest.fixture(scope="module")
def picture_app(
    screen: XScreen, hands_sandbox: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[HandsApp]:
    put_page(hands_sandbox, f"docs/{DOC}.md", page("hands-pictures", "그림 연습", BODY))
    data = tmp_path_factory.mktemp("pictures-app") / "data"
    app = HandsApp(
        screen, hands_sandbox.api_url, data, Account("editor1", "tok-editor1"), "--open", DOC
    )
    try:
        app.wait(
            lambda: app.probe.widgets(name="textCardEditor", contains="Charlie"),
            40,
            "the page's text box",
        )
        yield app
    finally:
        app.finish()


def _picture_file(folder: Path) -> Path:
    image = QImage(40, 30, QImage.Format.Format_RGB32)
    image.fill(QColor("#3a7bd5"))
    path = folder / "campus.png"
    assert image.save(str(path))
    return path


def test_a_picture_goes_where_the_caret_was(
    picture_app: HandsApp, screen: XScreen, tmp_path: Path
) -> None:
    app = picture_app
    picture = _picture_file(tmp_path)
    box: dict[str, Any] = {"name": "textCardEditor", "contains": "Alpha"}
    app.click_text("Alpha 그림", **box)
    app.wait(
        lambda: (
            app.probe.text(**box)["before"] == "Alpha 그림" and app.focus_name() == "textCardEditor"
        ),
        10,
        "the caret after “Alpha 그림”",
    )
    app.click(name="textTool_picture")
    app.wait(
        lambda: app.probe.window_open("opsImageDialog"),
        20,
        "the picture dialog",
    )
    app.click(name="opsImagePathEdit")
    app.wait(lambda: app.focus_name() == "opsImagePathEdit", 10, "the file field")
    screen.type(str(picture))
    screen.key("Return")  # the dialog's own button: upload and insert
    app.wait(
        lambda: not app.probe.window_open("opsImageDialog"),
        30,
        "the upload to finish",
    )
    text = app.wait(
        lambda: (d := app.probe.document()["text"]) and "](" in d and d, 15, "the picture"
    )
    at = text.index("![")
    assert text.index("Alpha 그림") < at < text.index(" 앞 문단입니다."), text
    assert app.focus_name() == "textCardEditor"
    screen.type("뒤에")
    app.wait(
        lambda: ")뒤에 앞 문단입니다." in app.probe.document()["text"],
        10,
        "typing after the picture",
    )
