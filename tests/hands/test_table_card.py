"""The 표 card under a real mouse and keyboard: its cells read as the site shows them (no
``**``, ``[!…]``, ``[~…]``), a cell is changed by a double click and typing (Korean), its words
made bold with the 굵게 button, Enter keeps the cell; a column's alignment is chosen from the
choice under its heading, and the heading itself typed in its box over the column. What the
page's text holds afterwards is the site's own marks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from modu_desktop.ui.editing.table_cells import STYLE_PROP
from tests.helpers.hands import Account, HandsApp, XScreen, page, put_page

pytestmark = pytest.mark.hands

DOC = "95-hands-table"
BODY = (
    "표 위의 문단입니다.\n\n"
    ":::datatable\nheader: 모집 인원\ncolumns: 과정 | 인원 | 비고\n"
    "align: left | center | left\n\n"
    "- **기초 과정** | [!80명] | [~저녁 수업]\n- 심화 과정 | 40명 | 주말\n:::\n"
)
CELLS: dict[str, Any] = {"name": "dataTableCells"}


def _start(screen: XScreen, sandbox: Any, folder: Any, doc: str = DOC) -> HandsApp:
    put_page(sandbox, f"docs/{doc}.md", page(doc[3:], "표 연습", BODY, 95))
    app = HandsApp(screen, sandbox.api_url, folder / "data", Account("editor1", "tok-editor1"),
                   "--open", doc)  # fmt: skip
    app.wait(lambda: app.probe.ask("rows", **CELLS)["rows"], 40, "the table's rows")
    return app


@pytest.fixture(scope="module")
def table_app(
    screen: XScreen, hands_sandbox: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[HandsApp]:
    app = _start(screen, hands_sandbox, tmp_path_factory.mktemp("table-app"))
    try:
        yield app
    finally:
        app.finish()


def _rows(app: HandsApp) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = app.probe.ask("rows", **CELLS)["rows"]
    return rows


def _has(app: HandsApp, text: str) -> Callable[[], bool]:
    return lambda: text in app.probe.document()["text"]


def test_the_cells_read_as_the_site_shows_them(table_app: HandsApp, screen: XScreen) -> None:
    app = table_app
    assert [r["texts"] for r in _rows(app)] == [
        ["기초 과정", "80명", "저녁 수업"],
        ["심화 과정", "40명", "주말"],
    ]
    shown = [w["text"] for w in app.probe.widgets(cls="QLabel", inside={"name": "pageEditor"})]
    for code in ("**", "[!", "[~", "left | center"):
        assert not any(code in t for t in shown), (code, shown)
    screen.screenshot("table-card-as-opened")


def test_a_cell_typed_in_and_made_bold_by_clicks(table_app: HandsApp, screen: XScreen) -> None:
    app = table_app
    x, y, w, h = _rows(app)[1]["cells"][0]
    screen.xdo("mousemove", str(x + w // 2), str(y + h // 2), "click", "--repeat", "2", "1")
    app.wait(lambda: app.focus_name() == "tableCellEditor", 10, "the cell open for typing")
    screen.type("야간 과정")  # the whole cell was chosen: the typing replaces it
    editor: dict[str, Any] = {"name": "tableCellEditor"}
    app.wait(lambda: app.probe.text(**editor)["text"] == "야간 과정", 10, "the words in the cell")
    screen.key("ctrl+a")
    app.click(name="cellStyle_bold")
    app.wait(
        lambda: all(
            f["props"].get(str(STYLE_PROP)) == "bold"
            for b in app.probe.text(**editor)["blocks"]
            for f in b["fragments"]
        ),
        10,
        "the words bold",
    )
    assert app.focus_name() == "tableCellEditor"  # the button left the keyboard in the cell
    screen.key("End")
    screen.type(" 반")
    screen.key("Return")
    app.wait(_has(app, "- **야간 과정 반** | 40명 | 주말\n"), 10, "the cell kept")
    assert "- **기초 과정** | [!80명] | [~저녁 수업]\n" in app.probe.document()["text"]
    assert _rows(app)[1]["texts"] == ["야간 과정 반", "40명", "주말"]
    screen.screenshot("table-card-cell-bold")


def test_a_columns_alignment_chosen_under_its_heading(table_app: HandsApp, screen: XScreen) -> None:
    app = table_app
    app.click(name="columnAlign_2")
    app.wait(
        lambda: (app.probe.focus()["widget"] or {}).get("cls") == "QListView",
        10,
        "the alignment choices open",
    )
    screen.key("Down", "Down", "Return")  # 왼쪽 → 가운데 → 오른쪽
    app.wait(_has(app, "align: left | center | right\n"), 10, "the column aligned right")
    screen.screenshot("table-card-aligned-right")


def test_a_heading_typed_in_its_box_over_the_column(table_app: HandsApp, screen: XScreen) -> None:
    app = table_app
    app.click(name="columnHeading_1")
    app.wait(lambda: app.focus_name() == "columnHeading_1", 10, "the heading's box typed in")
    screen.key("ctrl+a")
    screen.type("정원")
    app.wait(_has(app, "columns: 과정 | 정원 | 비고\n"), 10, "the heading changed")
    assert app.focus_name() == "columnHeading_1"  # nothing rebuilt under the caret
    screen.screenshot("table-card-heading-typed")


def test_the_table_card_at_800_px(
    x_screens: Callable[[int, int], XScreen],
    hands_sandbox: Any,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    small = x_screens(800, 600)
    # a page of its own: the page above is still open in the other window
    app = _start(small, hands_sandbox, tmp_path_factory.mktemp("table-800"), "96-hands-table-800")
    try:
        assert _rows(app)[0]["texts"] == ["기초 과정", "80명", "저녁 수업"]
        x, y, w, h = app.probe.widget(name="pageEditor")["rect"]
        bottom = y + h

        def wheel_until_the_table_shows() -> bool:
            rows = _rows(app)
            if rows and rows[-1]["rect"][1] + rows[-1]["rect"][3] <= bottom:
                return True
            small.xdo("mousemove", str(x + w // 2), str(y + h // 2), "click", "5")  # wheel down
            return False

        app.wait(wheel_until_the_table_shows, 20, "the table scrolled into view")
        combo = app.probe.widget(name="columnAlign_0")
        assert combo["visible"] and combo["rect"][2] >= 60  # wide enough to read 가운데
        small.screenshot("table-card-800")
    finally:
        app.finish()
