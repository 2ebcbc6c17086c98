"""그림 모음's 이름 바꾸기 by hand: the library opened with its button under the list, a picture
clicked in its list, 이름 바꾸기 / 옮기기 clicked, a new Korean name typed into the dialog, the
name it will really get seen, and the button that says what it does clicked — the picture and
the page naming it change in one commit, and the page open in the window shows the new
address."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.hands import Account, HandsApp, XScreen, page, put_page
from tests.helpers.picture_site import picture
from tests.helpers.sandbox import REPO_PATH, b64, client_for

pytestmark = pytest.mark.hands

DOC = "93-hands-rename"
OLD = "static/img/hands-rename.png"
NEW = "static/img/행사-사진-2026.png"
BODY = "행사 안내 문단입니다.\n\n![행사 사진](/img/hands-rename.png)\n"


def _put_picture(sandbox: Any, path: str, data: bytes) -> None:
    with client_for(sandbox) as client:
        body = {"message": f"upload(image): add {path}", "content": b64(data)}
        client.put(f"{REPO_PATH}/contents/{path}", json=body).raise_for_status()


@pytest.fixture(scope="module")
def rename_app(
    screen: XScreen, hands_sandbox: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[HandsApp]:
    _put_picture(hands_sandbox, OLD, picture(160, 120, color="#c0392b"))
    put_page(hands_sandbox, f"docs/{DOC}.md", page("hands-rename", "행사 사진 연습", BODY))
    data = tmp_path_factory.mktemp("rename-app") / "data"
    app = HandsApp(
        screen, hands_sandbox.api_url, data, Account("editor1", "tok-editor1"), "--open", DOC
    )
    try:
        app.wait(
            lambda: app.probe.widgets(name="textCardEditor", contains="행사 안내"),
            40,
            "the page's text box",
        )
        yield app
    finally:
        app.finish()


def test_a_picture_renamed_from_the_library_changes_the_open_page_s_address(
    rename_app: HandsApp, screen: XScreen, hands_sandbox: Any
) -> None:
    app = rename_app
    commits = len(hands_sandbox.commits())
    app.click(name="pictureLibraryButton")
    app.wait(lambda: app.probe.window_open("pictureLibrary"), 20, "the picture library")
    row = app.wait(lambda: app.probe.picture_row("hands-rename.png"), 30, "the picture in the list")
    screen.click_rect(row["rect"])
    app.wait(
        lambda: app.probe.widget(name="pictureDetailName")["text"] == "hands-rename.png",
        10,
        "the picture chosen",
    )
    app.click(name="pictureRenameButton")
    app.wait(lambda: app.probe.window_open("renamePictureDialog"), 20, "the rename dialog")
    app.wait(lambda: app.probe.widgets(name="renamePageList"), 10, "the pages it rewrites")
    app.click(name="renameName")
    screen.key("ctrl+a")
    screen.type("행사 사진 2026")
    app.wait(
        lambda: "행사-사진-2026.png" in app.probe.widget(name="renameResult")["text"],
        15,
        "the name it will get",
    )
    button = app.wait(
        lambda: (w := app.probe.widget(name="renameButton"))["enabled"] and w,
        15,
        "the rename button, enabled",
    )
    assert button["text"] == "이름 바꾸기 — 문서 1개 고침"
    screen.click_rect(button["rect"])
    text = app.wait(
        lambda: (d := app.probe.document()["text"]) and "/img/행사-사진-2026.png" in d and d,
        30,
        "the open page's new picture address",
    )
    assert "/img/hands-rename.png" not in text
    assert hands_sandbox.read_file(OLD) is None and hands_sandbox.read_file(NEW) is not None
    assert len(hands_sandbox.commits()) == commits + 1  # the picture and the page together
