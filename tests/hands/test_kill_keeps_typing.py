"""kill -9 loses nothing typed: text typed through X is in the draft on disk half a second
after the app took the last keystroke. The real process is killed (SIGKILL, no goodbye) right
after that half second, and the draft file must hold every character typed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.saving.drafts import DraftStore
from tests.helpers.hands import Account, HandsApp, XScreen, page, put_page

pytestmark = pytest.mark.hands

PROMISE_S = 0.5  # what is typed is on disk this long after the last keystroke


def _drafts(data: Path) -> list[Any]:
    return DraftStore(data / "data" / "drafts").list()


@pytest.mark.parametrize("burst", ["one-go", "three-bursts"])
def test_a_kill_half_a_second_after_typing_loses_nothing(
    screen: XScreen, hands_sandbox: Any, tmp_path: Path, burst: str
) -> None:
    doc = f"92-hands-kill-{len(burst)}"  # its own page: the killed app keeps its lock
    put_page(
        hands_sandbox,
        f"docs/{doc}.md",
        page(doc, "강제 종료 연습", "첫 문단입니다.\n\n둘째 문단입니다.\n"),
    )
    data = tmp_path / "data"
    app = HandsApp(
        screen, hands_sandbox.api_url, data, Account("editor1", "tok-editor1"), "--open", doc
    )
    try:
        box: dict[str, Any] = {"name": "textCardEditor", "contains": "둘째"}
        app.wait(lambda: app.probe.widgets(**box), 40, "the page's text box")
        app.click_text("둘째 문단입니다.", **box)
        app.wait(lambda: app.probe.text(**box)["before"] == "둘째 문단입니다.", 10, "the caret")
        pieces = [" 마지막까지 쓴 글 typed"] if burst == "one-go" else [" 하나", " 둘 two", " 셋"]
        for piece in pieces:
            screen.type(piece)
        typed = "".join(pieces)
        app.wait(lambda: typed in app.probe.text(**box)["text"], 15, "the typing in the box")
        took_last_key = time.monotonic()  # the app has shown the last character
        time.sleep(max(0.0, took_last_key + PROMISE_S - time.monotonic()))
        app.kill()
    finally:
        app.close()
    drafts = [d for d in _drafts(data) if d.key.doc_id == doc]
    assert drafts, "no draft on disk"
    assert f"둘째 문단입니다.{typed}" in drafts[0].text, drafts[0].text
