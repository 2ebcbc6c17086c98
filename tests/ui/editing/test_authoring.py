"""Editing without syntax: 블록 넣기 for every block, block forms that give the text
back byte for byte, Tab inside a block, hidden front matter saved unchanged, the Save button,
the publishing line that only moves forward, and the window at 800 px."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QLineEdit, QPushButton

from modu_desktop import i18n
from modu_desktop.core.brochure import block_model as bm
from modu_desktop.core.brochure import syntax
from modu_desktop.core.brochure.catalog import CATALOG
from modu_desktop.core.brochure.cells import ACCENT, CellRun
from modu_desktop.core.publish.status import PublishPhase
from modu_desktop.ui.editing.block_form import ItemTable
from modu_desktop.ui.editing.data_table import DataTable
from modu_desktop.ui.editing.editor import EditorPane
from modu_desktop.ui.preview.pane import PreviewPane
from tests.helpers.qt import child
from tests.helpers.sandbox import AnswerGate

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
TEMPLATE = (FIXTURES / "pnu-modu" / "docs" / "99-template.md").read_text(encoding="utf-8")
DOC = "03-strategy"


@pytest.fixture(autouse=True)
def _korean() -> Any:
    i18n.set_language("ko")
    yield
    i18n.set_language("ko")


@pytest.fixture
def pane(qtbot: Any) -> EditorPane:
    """The pane in 원문 편집: these tests are about the Markdown editor and its block form."""
    p = EditorPane()
    qtbot.addWidget(p)
    p.resize(1200, 800)
    p.show()
    p.set_raw_view(True)
    return p


def _goto_line(p: EditorPane, line: int, col: int = 0) -> None:
    cur = p.editor.textCursor()
    cur.setPosition(p.editor.document().findBlockByNumber(line).position() + col)
    p.editor.setTextCursor(cur)
    p.blocks.sync()


def _current_span(p: EditorPane) -> syntax.BlockPart:
    span = p.current_block_span()
    assert span is not None, "the cursor is in no block"
    return span


# ------------------------------------------------------------------------------ 블록 넣기
@pytest.mark.parametrize("entry", [s.entry for s in CATALOG])
def test_insert_each_block_from_the_picker(pane: EditorPane, qtbot: Any, entry: str) -> None:
    start = "---\nid: new\ntitle: 새 문서\n---\n\n첫 문단입니다.\n"
    pane.load_text(start, read_only=False)
    _goto_line(pane, 5, 3)  # in the middle of "첫 문단입니다."
    button = child(pane, QPushButton, "insertBlockButton")
    assert button.isVisible() and button.text() == "블록 넣기"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    picker = pane.picker
    assert picker is not None and picker.objectName() == "blockPicker"
    assert len(picker.entries()) == 18
    picker.select(entry)
    picker.accept()
    spec = next(s for s in CATALOG if s.entry == entry)
    text = pane.text()
    assert text == start.rstrip("\n") + "\n\n" + spec.example + "\n"
    # the cursor is in the new block and its form shows the block
    span = pane.current_block_span()
    assert span is not None and span.text == spec.example
    assert pane.block_form.isVisible() and pane.block_form.objectName() == "blockForm"
    assert pane.block_form.model is not None and pane.block_form.model.text() == spec.example
    assert pane.is_modified()


def test_picker_lists_names_descriptions_and_pictures(qtbot: Any) -> None:
    from modu_desktop.ui.editing.block_picker import PICTURE, BlockPicker, block_picture

    d = BlockPicker()
    qtbot.addWidget(d)
    names = [d.list.item(r).text() for r in range(d.list.count())]
    assert names[0].startswith("상단 배너 — 페이지 맨 위의")
    for spec in CATALOG:
        pix = block_picture(spec)
        assert pix.size() == PICTURE
        img = pix.toImage()
        colours = {
            img.pixel(x, y)
            for x in range(0, PICTURE.width(), 7)
            for y in range(0, PICTURE.height(), 7)
        }
        assert len(colours) > 3, spec.entry  # a drawn picture, not a blank box
    d.filter.setText("표")
    visible = [
        d.list.item(r).data(Qt.ItemDataRole.UserRole)
        for r in range(18)
        if not d.list.item(r).isHidden()
    ]
    assert "datatable" in visible and "hero" not in visible


def test_insert_block_is_also_a_menu_action_with_a_shortcut(make_window: Any, ui: Any) -> None:
    win = make_window()
    act = win.editor_pane.insert_block_action
    assert act.shortcut().toString() == "Ctrl+Shift+B"
    menus = [a.menu() for a in win.menuBar().actions() if a.menu() is not None]
    assert any(act in m.actions() for m in menus)
    assert ui.run(win.open_document(DOC))
    act.trigger()
    assert win.editor_pane.picker is not None and win.editor_pane.picker.isVisible()
    win.editor_pane.picker.reject()


# ------------------------------------------------------------------------------ block forms
def _touch_every_widget(form: Any) -> None:
    """Write every field and cell back with the value it shows (what a user's edit that ends
    where it began does)."""
    for w in form.field_widgets.values():
        if isinstance(w, QLineEdit):
            w.textEdited.emit(w.text())
        elif isinstance(w, QComboBox):
            w.currentTextChanged.emit(w.currentText())
        elif isinstance(w, QCheckBox):
            w.toggled.emit(w.isChecked())
    for t in form.tables.values():
        for r in range(t.table.rowCount()):
            for c in range(t.table.columnCount()):
                cell = t.table.item(r, c)
                if cell is not None:
                    t.table.cellChanged.emit(r, c)


def test_every_guide_block_round_trips_through_its_form(pane: EditorPane) -> None:
    pane.load_text(TEMPLATE, read_only=False)
    spans = syntax.block_spans(TEMPLATE)
    assert len(spans) == 18
    kinds = set()
    for span in spans:
        _goto_line(pane, span.first_line + 1)
        form = pane.block_form
        assert form.isVisible()
        assert form.model is not None and form.model.understood
        assert not form.problems.isVisible()
        kinds.add(form.model.kind)
        _touch_every_widget(form)
        assert pane.text() == TEMPLATE, span
    assert len(kinds) == 16
    assert not pane.editor.document().isModified() or pane.text() == TEMPLATE


def test_form_edits_write_the_sites_syntax(pane: EditorPane, qtbot: Any) -> None:
    pane.load_text(TEMPLATE, read_only=False)
    cards = next(s for s in syntax.block_spans(TEMPLATE) if s.name == "cards")
    _goto_line(pane, cards.first_line + 2)
    form = pane.block_form
    title = form.field_widgets["title"]
    assert isinstance(title, QLineEdit) and title.text() == "5대 핵심 교육 미션"
    title.clear()
    qtbot.keyClicks(title, "New title")  # QTest types ASCII only
    table = form.tables["items"]
    assert isinstance(table, ItemTable)
    table.table.setCurrentCell(2, 0)
    child(table, QPushButton, "moveUpButton").click()
    child(table, QPushButton, "addItemButton").click()
    new_row = table.current()
    cell = table.table.item(new_row, table.keys.index("description"))
    assert cell is not None
    cell.setText("설명 한 줄")
    text = pane.text()
    found = syntax.block_at(text, cards.first_line + 1)
    assert found is not None
    block = found.text
    model = bm.parse(block)
    assert model.understood
    assert model.get("title") == "New title"
    assert model.body is not None
    assert [it.get("title") for it in model.body.items] == [
        "AI·SW 전문인력 양성",
        "AI·SW 가치확산",
        "새 항목",
        "실효성 있는 산학협력",
    ]
    assert "- title: 새 항목\n  description: 설명 한 줄\n" in block
    # the rest of the document is untouched
    assert text == syntax.replace_block(TEMPLATE, cards, block)
    pane.editor.undo()  # each form change is an undoable step
    assert pane.text() != text


def test_split_and_datatable_forms(pane: EditorPane) -> None:
    pane.load_text(TEMPLATE, read_only=False)
    split = next(s for s in syntax.block_spans(TEMPLATE) if s.name == "split")
    _goto_line(pane, split.first_line + 1)
    form = pane.block_form
    assert set(form.tables) == {"left", "right"}
    right = form.tables["right"]
    right.table.setCurrentCell(1, 0)
    child(right, QPushButton, "moveUpButton").click()
    dark = form.field_widgets["left-dark"]
    assert isinstance(dark, QCheckBox) and dark.isChecked()
    dark.setChecked(False)
    model = bm.parse(_current_span(pane).text)
    assert [it.get("num") for it in model.section("right").items] == ["②", "①"]
    assert model.get("left-dark") is None
    assert '- num: "②"' in model.text()

    table = next(s for s in syntax.block_spans(pane.text()) if s.name == "datatable")
    _goto_line(pane, table.first_line + 1)
    form = pane.block_form
    dt = form.tables["rows"]
    assert dt.table.columnCount() == 3 and dt.table.rowCount() == 3
    dt.table.setCurrentCell(0, 0)
    child(dt, QPushButton, "addColumnButton").click()
    assert isinstance(dt, DataTable)
    dt.set_cell(0, 1, (CellRun("신설", ACCENT),))  # 강조색, as the cell's tool writes it
    shown = dt.table.item(0, 1)
    assert shown is not None and shown.text() == "신설"
    child(dt, QPushButton, "addRowButton").click()
    model = bm.parse(_current_span(pane).text)
    assert model.columns() == ["모집단위", "새 열", "정원", "비고"]
    assert model.get("align") == "left | left | center | left"
    assert model.rows()[0] == ["**컴퓨터공학전공**", "[!신설]", "[!84명]", "SW 전공 핵심 학과"]
    assert model.rows()[1] == ["-", "-", "-", "-"]
    dt.table.setCurrentCell(0, 1)
    child(dt, QPushButton, "removeColumnButton").click()
    dt.table.setCurrentCell(1, 0)
    child(dt, QPushButton, "removeRowButton").click()
    new_split = next(s for s in syntax.block_spans(pane.text()) if s.name == "split")
    assert pane.text() == syntax.replace_block(TEMPLATE, split, new_split.text)


def test_hand_written_lines_the_form_cannot_read_are_kept_and_said(pane: EditorPane) -> None:
    text = ":::cards\ntitle: 제목\n손으로 쓴 줄\n\n- title: 하나\n:::\n"
    pane.load_text(text, read_only=False)
    _goto_line(pane, 1)
    form = pane.block_form
    assert form.problems.isVisible()
    assert "손으로 쓴 줄" in form.problems.text() and "그대로" in form.problems.text()
    w = form.field_widgets["title"]
    assert isinstance(w, QLineEdit)
    w.setText("새 제목")
    w.textEdited.emit("새 제목")
    assert pane.text() == text.replace("title: 제목", "title: 새 제목")


def test_form_hides_outside_blocks(pane: EditorPane) -> None:
    pane.load_text("---\ntitle: t\n---\n\n글\n\n:::quote\ntext: 말\n:::\n", read_only=False)
    _goto_line(pane, 4)
    assert not pane.block_form.isVisible()
    _goto_line(pane, 7)
    assert pane.block_form.isVisible()


# ------------------------------------------------------------------------------ Tab
def test_tab_inside_a_block_indents_two_spaces(pane: EditorPane, qtbot: Any) -> None:
    text = "---\ntitle: t\n---\n글\n:::cards\ntitle: 가\n\n- title: 하나\nicon: 🎯\n:::\n"
    pane.load_text(text, read_only=False)
    _goto_line(pane, 8)  # "icon: 🎯" (forgot its indent)
    pane.editor.setFocus()
    qtbot.keyClick(pane.editor, Qt.Key.Key_Tab)
    assert pane.text().split("\n")[8] == "  icon: 🎯"
    assert "\t" not in pane.text()
    block = bm.parse(_current_span(pane).text)
    assert block.understood and block.body is not None
    assert block.body.items[0].values() == {"title": "하나", "icon": "🎯"}
    qtbot.keyClick(pane.editor, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert pane.text() == text
    # a selection of several lines moves together
    cur = pane.editor.textCursor()
    cur.setPosition(pane.editor.document().findBlockByNumber(7).position())
    cur.setPosition(
        pane.editor.document().findBlockByNumber(8).position() + 3, QTextCursor.MoveMode.KeepAnchor
    )
    pane.editor.setTextCursor(cur)
    qtbot.keyClick(pane.editor, Qt.Key.Key_Tab)
    assert pane.text().split("\n")[7:9] == ["  - title: 하나", "  icon: 🎯"]
    assert "\t" not in pane.text()


# ------------------------------------------------------------------------------ front matter
def test_front_matter_is_hidden_and_kept_byte_for_byte(pane: EditorPane, qtbot: Any) -> None:
    pane.load_text(TEMPLATE, read_only=False)
    fm_lines = syntax.front_matter_lines(TEMPLATE)
    doc = pane.editor.document()
    assert [doc.findBlockByNumber(i).isVisible() for i in range(fm_lines + 1)] == [
        False
    ] * fm_lines + [True]
    assert pane.editor.textCursor().blockNumber() >= fm_lines  # the cursor cannot sit in it
    _goto_line(pane, 0)
    pane.front_matter.keep_cursor_visible()
    assert pane.editor.textCursor().blockNumber() >= fm_lines
    qtbot.keyClicks(pane.editor, "Typed below the header. ")
    fm = "\n".join(TEMPLATE.split("\n")[:fm_lines])
    assert pane.text().startswith(fm + "\n")
    assert pane.text() == TEMPLATE.replace(fm + "\n", fm + "\nTyped below the header. ", 1)
    # the page settings form is where it changes; the raw lines can still be shown
    pane.show_fm_button.click()
    assert all(doc.findBlockByNumber(i).isVisible() for i in range(fm_lines))
    pane.show_fm_button.click()
    assert not doc.findBlockByNumber(1).isVisible()


def test_theme_and_layout_by_korean_name_with_swatch(pane: EditorPane) -> None:
    pane.load_text(TEMPLATE, read_only=False)
    box = pane.form.theme_box
    labels = [box.itemText(i) for i in range(box.count())]
    assert "공공 블루 (챕터 1~2)" in labels and "딥 포레스트 (챕터 3)" in labels
    assert box.currentData() == "public-blue" and box.currentText() == "공공 블루 (챕터 1~2)"
    assert not box.itemIcon(box.currentIndex()).isNull()
    lay = pane.form.layout_box
    assert "A4 브로슈어 (1260px)" in [lay.itemText(i) for i in range(lay.count())]
    i = lay.findData("standard")
    lay.setCurrentIndex(i)
    lay.activated.emit(i)
    assert "\nlayout: standard\n" in pane.text().split("\n---\n", 1)[0] + "\n"


def test_hidden_front_matter_is_saved_unchanged(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    before = sandbox.read_file(f"docs/{DOC}.md").decode("utf-8")
    fm_lines = syntax.front_matter_lines(before)
    assert fm_lines > 0
    assert ui.run(win.open_document(DOC))
    ed = win.editor_pane.editor
    assert not ed.document().findBlockByNumber(0).isVisible()
    ed.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(ed, "One more line.")
    save = child(win, QPushButton, "saveButton")
    assert save is not None and save.isVisible() and save.isEnabled()
    assert win.editor_pane.save_state.text() == "● 저장 안 됨"
    qtbot.mouseClick(save, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not win.editor_pane.is_modified(), timeout=15000)
    assert win.editor_pane.save_state.text() == "✔ 저장됨"
    after = sandbox.read_file(f"docs/{DOC}.md").decode("utf-8")
    head = "\n".join(before.split("\n")[:fm_lines])
    assert after.startswith(head + "\n")
    assert after == before + "One more line."


# ------------------------------------------------------------------------------ publishing
def test_publishing_line_moves_forward_and_opens_the_page(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window(deploy_poll_s=0.2)
    assert ui.run(win.open_document(DOC))
    pub = win.editor_pane.publish
    order = [PublishPhase.WAITING, PublishPhase.BUILDING, PublishPhase.PUBLISHED]
    seen: list[PublishPhase] = []
    win.board.subscribe(lambda: seen.append(pub.publishing))  # after the line was drawn
    win.editor_pane.editor.moveCursor(QTextCursor.MoveOperation.End)
    win.editor_pane.editor.insertPlainText("\n게시 확인.\n")
    assert ui.run(win.save())
    assert pub.isVisible() and pub.objectName() == "publishStatus"
    assert pub.publishing in (PublishPhase.WAITING, PublishPhase.BUILDING)
    assert "저장됨" in pub.text()
    qtbot.waitUntil(lambda: pub.publishing is PublishPhase.PUBLISHED, timeout=30000)
    ranks = [order.index(s) for s in seen if s in order]
    assert ranks == sorted(ranks) and ranks[0] == 0 and 1 in ranks
    assert "게시됨" in pub.text()
    button = child(pub, QPushButton, "viewOnSiteButton")
    assert button is not None and button.isVisible() and button.text() == "사이트에서 보기"
    button.click()
    assert pub.opened == [f"{sandbox.api_url}/_sandbox/site/docs/strategy"]
    page = httpx.get(pub.opened[0])
    assert page.status_code == 200 and "게시 확인." in page.text


def test_publishing_line_ignores_answers_that_go_back(qtbot: Any) -> None:
    from dataclasses import dataclass

    from modu_desktop.core.publish.status import PublishBoard
    from modu_desktop.ui.editing.publish_status import PublishStatus

    @dataclass
    class Run:
        status: str
        conclusion: str | None = None
        id: int = 1

    board = PublishBoard("me")
    p = PublishStatus()
    qtbot.addWidget(p)
    shown: list[PublishPhase] = []

    def draw() -> None:
        p.show_status(board.status("d"))
        phase = p.publishing
        if phase is not None and (not shown or shown[-1] is not phase):
            shown.append(phase)

    board.subscribe(draw)
    board.saved("d", "abc", page_url="https://pnuai.github.io/PNU-Modu/docs/intro")
    for runs in (
        [Run("in_progress")],
        [Run("queued")],
        [],
        [Run("completed", "failure")],
        [Run("completed", "success")],
        [Run("in_progress")],
    ):
        board.observe("abc", runs)
    assert shown == [PublishPhase.WAITING, PublishPhase.BUILDING, PublishPhase.CHECKING]
    assert "게시 실패" in p.text()
    assert not p.view_button.isVisibleTo(p)
    board.saved("d", "def", page_url="https://pnuai.github.io/PNU-Modu/docs/intro")  # next save
    board.observe("def", [Run("completed", "success", id=2)])
    assert p.publishing is PublishPhase.PUBLISHED and p.view_button.isVisibleTo(p)


# ------------------------------------------------------------------------------ 800 px
def test_usable_at_800_px(make_window: Any, ui: Any, qtbot: Any, tmp_path: Path) -> None:
    win = make_window(data="narrow")
    win.resize(800, 600)
    assert ui.run(win.open_document(DOC))
    pane = win.editor_pane
    toggle = win.findChild(type(pane.toggle_list_button), "toggleListButton")
    assert toggle is not None
    qtbot.waitUntil(toggle.isVisible, timeout=2000)
    qtbot.waitUntil(lambda: win.width() == 800, timeout=2000)
    assert not win.doc_list.isVisible()  # a narrow window tucks the list away for the document
    toggle.click()
    assert win.doc_list.isVisible()
    # with the list shown, the window still fits 800 px
    assert win.minimumSizeHint().width() <= 800 and win.minimumWidth() <= 800
    toggle.click()
    assert not win.doc_list.isVisible()
    qtbot.waitUntil(lambda: pane.width() >= 760, timeout=10000)  # the editor takes the window
    for key in ("editor", "preview", "both"):
        pane.view_buttons[key].click()
        assert pane.left_pane.isVisible() == (key != "preview")
        assert pane.preview.isVisible() == (key != "editor")
    pane.view_buttons["editor"].click()
    qtbot.waitUntil(lambda: pane.page_editor.width() >= 700, timeout=10000)
    for raw in (False, True):  # the cards, then 원문 편집
        pane.set_raw_view(raw)
        if raw:
            qtbot.waitUntil(lambda: pane.editor.width() >= 700, timeout=10000)
        for name in ("saveButton", "insertBlockButton", "viewBothButton", "rawEditorToggle") + (
            ("showFrontMatterButton",) if raw else ()
        ):
            b = win.findChild(QPushButton, name) or win.findChild(
                type(pane.toggle_list_button), name
            )
            assert b is not None and b.isVisible(), name
            assert b.mapTo(win, b.rect().topRight()).x() <= 800, name  # nothing cut off
    pane.set_raw_view(False)
    pane.view_buttons["both"].click()
    pane.splitter.setSizes([500, 260])
    wanted = pane.splitter.sizes()
    pane.save_layout()
    layout_file = win.ctx.paths.config_dir / "layout.json"
    saved = json.loads(layout_file.read_text("utf-8"))
    assert saved["editor"] == wanted and saved["view"] == "both"
    assert saved["list_shown"] is False
    assert ui.run(win.shutdown(interactive=False))
    win2 = make_window(data="narrow")  # the next start, same data folder
    win2.resize(800, 600)
    p2 = win2.editor_pane
    assert not p2.toggle_list_button.isChecked() and not win2.doc_list.isVisible()
    assert ui.run(win2.open_document(DOC))

    def share(sizes: list[int]) -> float:
        return sizes[0] / max(1, sum(sizes))

    qtbot.waitUntil(lambda: abs(share(p2.splitter.sizes()) - share(wanted)) < 0.05, timeout=5000)


def test_progress_shows_only_for_waits_over_300_ms(qtbot: Any) -> None:
    from PySide6.QtWidgets import QWidget

    from modu_desktop.ui.kit.busy import BusyOverlay

    host = QWidget()
    qtbot.addWidget(host)
    host.resize(300, 200)
    host.show()
    flag = {"busy": False}
    now = [0.0]
    ov = BusyOverlay(host, lambda: flag["busy"], "불러오는 중…", poll_ms=20, clock=lambda: now[0])
    ticks: list[bool] = []
    ov._timer.timeout.connect(lambda: ticks.append(flag["busy"]))
    flag["busy"] = True
    qtbot.waitUntil(lambda: ticks.count(True) >= 2, timeout=10000)  # busy since 0.0
    now[0] = 0.29
    qtbot.waitUntil(lambda: ticks.count(True) >= 4, timeout=10000)
    flag["busy"] = False
    qtbot.waitUntil(lambda: ticks[-1] is False, timeout=10000)
    assert ov.shown_count == 0  # a quick answer (under 300 ms) shows nothing
    flag["busy"] = True
    qtbot.waitUntil(lambda: ticks.count(True) >= 6, timeout=10000)  # busy again, since 0.29
    assert not ov.isVisible()
    now[0] = 0.6
    qtbot.waitUntil(ov.isVisible, timeout=10000)
    assert ov.geometry() == host.rect()
    flag["busy"] = False
    qtbot.waitUntil(lambda: not ov.isVisible(), timeout=10000)


def test_no_veil_while_a_question_is_open(qtbot: Any) -> None:
    """Opening a page asks the lock question in a dialog: "불러오는 중…" with a moving bar
    behind it said the app was busy while it was waiting for the user."""
    from PySide6.QtWidgets import QDialog, QWidget

    from modu_desktop.ui.kit.busy import BusyOverlay

    host = QWidget()
    qtbot.addWidget(host)
    host.resize(300, 200)
    host.show()
    now = [0.0]
    looks = [0]  # how often the overlay has read its clock: once per poll

    def clock() -> float:
        looks[0] += 1
        return now[0]

    def two_more_polls() -> None:
        seen = looks[0]
        qtbot.waitUntil(lambda: looks[0] >= seen + 2, timeout=5000)

    ov = BusyOverlay(host, lambda: True, "불러오는 중…", poll_ms=20, clock=clock)
    question = QDialog(host)
    question.setModal(True)
    question.show()
    qtbot.waitUntil(lambda: QApplication.activeModalWidget() is question, timeout=5000)
    now[0] = 5.0
    two_more_polls()
    assert not ov.isVisible()
    question.close()
    now[0] = 5.1
    two_more_polls()
    assert not ov.isVisible()  # the 300 ms start again
    now[0] = 5.5
    qtbot.waitUntil(ov.isVisible, timeout=5000)


def test_slow_list_and_open_show_progress_in_place(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    sandbox.clock = gate = AnswerGate()  # GitHub answers only once the progress is seen
    try:
        gate.hold()
        task = ui.start(win.refresh_list())
        qtbot.waitUntil(lambda: win.list_busy.isVisible(), timeout=10000)
        assert win.list_busy.parent() is win.doc_list
        gate.release()
        ui.wait_task(task)
        gate.hold()
        task = ui.start(win.open_document(DOC))
        qtbot.waitUntil(lambda: win.open_busy.isVisible(), timeout=10000)
        assert win.open_busy.parent() is win.right
        gate.release()
        assert ui.wait_task(task)
    finally:
        gate.release()
    qtbot.waitUntil(lambda: not win.open_busy.isVisible(), timeout=10000)


def _shown(pane: EditorPane, qtbot: Any) -> PreviewPane:
    """The pane's WebEngine preview, once it shows the editor's text."""
    preview = pane.preview
    assert isinstance(preview, PreviewPane)
    with qtbot.waitSignal(preview.rendered, timeout=30000):
        pane._render_now()
    return preview


def _js(qtbot: Any, preview: PreviewPane, script: str) -> Any:
    box: list[Any] = []
    preview.run_js(script, box.append)
    qtbot.waitUntil(lambda: bool(box), timeout=10000)
    return box[0]


def test_preview_follows_the_block_being_edited(pane: EditorPane, qtbot: Any) -> None:
    pane.load_text(TEMPLATE, read_only=False)
    preview = _shown(pane, qtbot)
    spans = syntax.block_spans(TEMPLATE)
    positions = []
    for span in (spans[3], spans[8], spans[-1]):  # stats, stepper, datatable
        _goto_line(pane, span.first_line + 1)
        assert pane.blocks.preview_followed == span.first_line
        top_of_block = (
            f"(function(){{var s=document.getElementById('modu-content').childNodes,n=0;"
            f"for(var i=0;i<s.length;i++){{if(s[i].nodeType===8)n++;"
            f"if(n==={_segment_of(preview, span.first_line) + 1}&&s[i].nodeType===1)"
            f"return s[i].getBoundingClientRect().top;}}return null;}})()"
        )
        # the block comes to the top of the view (16 px below it) and stays there
        qtbot.waitUntil(
            lambda script=top_of_block: abs((_js(qtbot, preview, script) or 1e9) - 16) < 2,
            timeout=5000,
        )
        positions.append(_js(qtbot, preview, "window.scrollY"))
    assert positions == sorted(positions) and positions[0] > 0 and len(set(positions)) == 3


def test_preview_follows_the_cursor_into_ordinary_paragraphs(pane: EditorPane, qtbot: Any) -> None:
    paragraphs = [
        f"## 제목 {n}\n\n{n}번째 문단입니다. " + "내용을 채우는 문장입니다. " * 12
        for n in range(30)
    ]
    text = "---\ntitle: 긴 문서\n---\n\n" + "\n\n".join(paragraphs) + "\n"
    pane.load_text(text, read_only=False)
    preview = _shown(pane, qtbot)
    lines = text.split("\n")

    def top_of(heading: str) -> Any:
        script = (
            "(function(){var h=[].slice.call(document.querySelectorAll('h2'))"
            f".filter(function(e){{return e.firstChild.data==={heading!r};}})[0];"
            "return h?h.getBoundingClientRect().top:null;})()"
        )
        return _js(qtbot, preview, script)

    for n in (24, 7):
        _goto_line(pane, lines.index(f"## 제목 {n}"))
        qtbot.waitUntil(lambda n=n: abs((top_of(f"제목 {n}") or 1e9) - 16) < 2, timeout=5000)
    # another line of the same paragraph: the view stays where the reader may have put it
    assert not preview.follow_line(lines.index("## 제목 7"))


def _segment_of(preview: PreviewPane, line: int) -> int:
    doc = preview.current_doc()
    assert doc is not None
    return next(i for i, s in enumerate(doc.segments) if s.line == line)


def test_double_click_in_the_preview_opens_that_blocks_form(pane: EditorPane, qtbot: Any) -> None:
    pane.load_text(TEMPLATE, read_only=False)
    _goto_line(pane, syntax.front_matter_lines(TEMPLATE) + 1)
    preview = _shown(pane, qtbot)
    before = pane.block_form.model
    assert before is None or before.kind != "strategy"
    # The page's own double-click handler, as a click would run it, on the strategy block.
    clicked = _js(
        qtbot,
        preview,
        # the guide shows the block's source in a code fence first: the last one is the block
        "(function(){var w=document.createTreeWalker(document.body,NodeFilter.SHOW_TEXT),h=null;"
        "while(w.nextNode()){if(w.currentNode.data.indexOf('4C 추진전략')>=0){h=w.currentNode;}}"
        "if(!h){return false;}"
        "h.parentElement.dispatchEvent(new MouseEvent('dblclick',{bubbles:true}));"
        "return true;})()",
    )
    assert clicked is True
    qtbot.waitUntil(
        lambda: pane.block_form.model is not None and pane.block_form.model.kind == "strategy",
        timeout=5000,
    )
    assert pane.block_form.isVisible()


def test_form_edit_keeps_the_cursor_on_its_line(pane: EditorPane) -> None:
    pane.load_text(TEMPLATE, read_only=False)
    cards = next(s for s in syntax.block_spans(TEMPLATE) if s.name == "cards")
    _goto_line(pane, cards.first_line + 7, 4)  # in the first item
    before = pane.editor.textCursor().blockNumber()
    w = pane.block_form.field_widgets["title"]
    assert isinstance(w, QLineEdit)
    w.setText("짧게")
    w.textEdited.emit("짧게")
    assert pane.editor.textCursor().blockNumber() == before
    assert pane.text().split("\n")[cards.first_line + 1] == "title: 짧게"
    # removing the item the cursor is in keeps the cursor inside the block
    table = pane.block_form.tables["items"]
    table.table.setCurrentCell(2, 0)
    child(table, QPushButton, "removeItemButton").click()
    span = pane.current_block_span()
    assert span is not None and span.name == "cards"


def test_insert_inside_a_block_goes_after_it_and_into_an_empty_document(pane: EditorPane) -> None:
    text = "앞 문단\n\n:::quote\ntext: 말\n:::\n뒤 문단\n"
    pane.load_text(text, read_only=False)
    _goto_line(pane, 3)  # inside the quote
    example = next(s for s in CATALOG if s.entry == "cta").example
    pane.insert_block(example)
    assert pane.text() == "앞 문단\n\n:::quote\ntext: 말\n:::\n\n" + example + "\n\n뒤 문단\n"
    assert bm.parse(example).understood
    pane.load_text("", read_only=False)
    pane.insert_block(example)
    assert pane.text() == example + "\n"
    assert pane.block_form.isVisible()


def test_read_only_document_has_no_block_editing(pane: EditorPane) -> None:
    pane.load_text(TEMPLATE, read_only=True)
    assert not pane.insert_block_button.isEnabled()
    assert not pane.insert_block_action.isEnabled()
    assert not pane.save_button.isEnabled()
    assert pane.save_state.text() == "읽기 전용"
    span = syntax.block_spans(TEMPLATE)[4]
    _goto_line(pane, span.first_line + 1)
    assert pane.block_form.isVisible() and pane.block_form.read_only
    w = next(iter(pane.block_form.field_widgets.values()))
    assert isinstance(w, QLineEdit) and w.isReadOnly()
    pane.open_block_picker()
    assert pane.picker is None
    pane.block_form._set_field("title", "바꿈")
    assert pane.text() == TEMPLATE


def test_save_button_follows_the_save_action(make_window: Any, ui: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    assert win.editor_pane.save_button.isEnabled()
    win.act_save.setEnabled(False)  # e.g. the lock was lost
    assert not win.editor_pane.save_button.isEnabled()
    win.act_save.setEnabled(True)
    assert win.editor_pane.save_button.isEnabled()
