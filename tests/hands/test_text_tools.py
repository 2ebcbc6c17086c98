"""Every tool of a text box (글 상자), used as a person uses it: the caret put in the text by a
mouse click, the tool clicked with the mouse (its menu or dialog answered the same way), then
Latin and Korean typed through X. The typing lands in that text box at the caret, formatted as
the tool says, and the keyboard is still in the text box. One app process for the whole set."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from PySide6.QtGui import QTextListFormat

from modu_desktop.ui.editing.cards.richdoc import BOLD_PROP, ITALIC_PROP, STRIKE_PROP
from tests.helpers.hands import Account, HandsApp, XScreen, page, put_page

pytestmark = pytest.mark.hands

DOC = "90-hands-tools"
LINK = "https://example.org/hands"
ORDERED = {int(QTextListFormat.Style.ListDecimal.value)}


@dataclass(frozen=True)
class Tool:
    key: str  # the tool's object name is textTool_<key>
    word: str  # its paragraph starts with this word
    check: Callable[[dict[str, Any], str], bool]
    markdown: Callable[[str], str]  # what the page's text holds once typed
    menu: str | None = None  # the entry to choose in the tool's menu
    heading: bool = False  # its paragraph starts as a heading
    answer: Callable[[HandsApp], None] | None = field(default=None)


def _fragment(block: dict[str, Any], typed: str) -> dict[str, Any]:
    return next(f for f in block["fragments"] if typed in f["text"])


def _marked(prop: int) -> Callable[[dict[str, Any], str], bool]:
    return lambda block, typed: _fragment(block, typed)["props"].get(str(prop)) is True


def _answer_link(app: HandsApp) -> None:
    """The link dialog, answered with the keyboard: the address, then Enter."""
    app.wait(
        lambda: any(w["cls"] == "QInputDialog" for w in app.probe.windows()),
        20,
        "the link dialog",
    )
    app.wait(lambda: app.probe.focus()["widget"]["cls"] == "QLineEdit", 10, "its text field")
    app.screen.type(LINK)
    app.screen.key("Return")
    app.wait(
        lambda: not any(w["cls"] == "QInputDialog" for w in app.probe.windows()),
        10,
        "the link dialog to close",
    )


TOOLS = [
    Tool(
        "heading",
        "Alpha",
        lambda b, t: b["heading"] == 2,
        lambda t: f"## Alpha 문단입니다.{t}",
        menu="heading2",
    ),
    Tool(
        "heading",
        "Bravo",
        lambda b, t: b["heading"] == 3,
        lambda t: f"### Bravo 문단입니다.{t}",
        menu="heading3",
    ),
    Tool(
        "heading",
        "Charlie",
        lambda b, t: b["heading"] == 4,
        lambda t: f"#### Charlie 문단입니다.{t}",
        menu="heading4",
    ),
    Tool(
        "heading",
        "Delta",
        lambda b, t: b["heading"] == 0,
        lambda t: f"\nDelta 문단입니다.{t}\n",
        menu="heading0",
        heading=True,
    ),
    Tool("bold", "Echo", _marked(BOLD_PROP), lambda t: f"Echo 문단입니다.**{t}**"),
    Tool("italic", "Foxtrot", _marked(ITALIC_PROP), lambda t: f"Foxtrot 문단입니다.*{t}*"),
    Tool("strike", "Golf", _marked(STRIKE_PROP), lambda t: f"Golf 문단입니다.~~{t}~~"),
    Tool(
        "bullets",
        "Hotel",
        lambda b, t: b["list"] is not None and b["list"] not in ORDERED,
        lambda t: f"- Hotel 문단입니다.{t}",
    ),
    Tool(
        "numbers",
        "India",
        lambda b, t: b["list"] in ORDERED,
        lambda t: f"1. India 문단입니다.{t}",
    ),
    Tool(
        "link",
        "Juliet",
        lambda b, t: (
            any(f["href"] == LINK for f in b["fragments"]) and _fragment(b, t)["href"] is None
        ),
        lambda t: f"Juliet 문단입니다.[{LINK}]({LINK}){t}",
        answer=_answer_link,
    ),
    Tool(
        "table",
        "Kilo",
        lambda b, t: b["cell"] == [0, 0] and b["text"] == t,
        lambda t: f"Kilo 문단입니다.\n\n| {t} |",
    ),
    Tool("quote", "Lima", lambda b, t: b["quote"] == 1, lambda t: f"> Lima 문단입니다.{t}"),
    Tool(
        "break",
        "Mike",
        lambda b, t: f"\u2028{t}" in b["text"],
        lambda t: f"Mike 문단입니다.\\\n{t}",
    ),
]


def _body() -> str:
    lines = []
    for tool in TOOLS:
        line = f"{tool.word} 문단입니다."
        lines.append(f"## {line}" if tool.heading else line)
    return "\n\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def tools_app(
    screen: XScreen, hands_sandbox: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[HandsApp]:
    put_page(hands_sandbox, f"docs/{DOC}.md", page("hands-tools", "도구 연습", _body()))
    data = tmp_path_factory.mktemp("tools-app") / "data"
    app = HandsApp(
        screen, hands_sandbox.api_url, data, Account("editor1", "tok-editor1"), "--open", DOC
    )
    try:
        app.wait(
            lambda: app.probe.widgets(name="textCardEditor", contains="Mike 문단입니다."),
            40,
            "the page's text box",
        )
        yield app
    finally:
        app.finish()


def _block_with(app: HandsApp, text: str) -> dict[str, Any] | None:
    box = app.probe.text(name="textCardEditor", contains="Alpha")
    return next((b for b in box["blocks"] if text in b["text"]), None)


@pytest.mark.parametrize(
    "tool", TOOLS, ids=[f"{t.key}-{t.menu}" if t.menu else t.key for t in TOOLS]
)
def test_a_tool_clicked_keeps_the_caret_and_the_next_keys_land_there(
    tools_app: HandsApp, screen: XScreen, tool: Tool
) -> None:
    app = tools_app
    line = f"{tool.word} 문단입니다."
    box: dict[str, Any] = {"name": "textCardEditor", "contains": "Alpha"}
    app.click_text(line, **box)
    app.wait(
        lambda: (
            app.probe.text(**box)["before"].endswith(line) and app.focus_name() == "textCardEditor"
        ),
        10,
        f"the caret after {line!r}",
    )
    app.click(name=f"textTool_{tool.key}")
    if tool.menu is not None:
        item = app.wait(lambda: app.probe.menu_item(name=tool.menu), 10, f"the menu {tool.menu}")
        screen.click_rect(item["rect"])
        app.wait(lambda: not app.probe.ask("menus")["menus"], 10, "the menu to close")
    if tool.answer is not None:
        tool.answer(app)
    typed = f"{tool.word[:2]}손글씨{tool.key[:3]}"
    screen.type(typed)
    block = app.wait(lambda: _block_with(app, typed), 15, f"{typed!r} in the text box")
    focus = app.probe.focus()["widget"]
    assert focus is not None and focus["name"] == "textCardEditor", focus
    assert "Alpha" in focus["text"], "the keyboard is in another text box"
    assert tool.check(block, typed), block
    document = app.wait(
        lambda: (d := app.probe.document()["text"]) and typed in d and d, 10, "the page's text"
    )
    assert tool.markdown(typed) in document, document
