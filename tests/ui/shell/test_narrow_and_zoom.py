"""800 px that works (the list steps aside, two-line rows tell identical titles apart, the find
box has room) and text that can be made bigger (Ctrl+= twice) and back (Ctrl+0)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.ui.shell.narrow import EDITOR_MIN_PX
from tests.helpers.qt import settle


def _same_title_twice(sandbox: Any, ui: Any, tmp_path: Any) -> str:
    """A second document titled like 01-welcome, in a folder (what staff really do)."""
    from modu_desktop.core.github.client import GitHubClient
    from modu_desktop.core.github.types import RepoRef

    client = GitHubClient(sandbox.api_url, "tok-editor2", RepoRef("pnuai", "PNU-Modu", "main"))
    store = DocumentStore(client, tmp_path / "peer-cache")
    first = ui.run(store.load("01-welcome"))
    title = next(
        line.split(":", 1)[1].strip().strip('"')
        for line in first.text.splitlines()
        if line.startswith("title:")
    )
    text = first.text.replace("sidebar_position: 1", "sidebar_position: 9")
    ui.run(client.put_file("docs/archive/01-welcome.md", text.encode(), "docs: copy"))
    ui.run(client.aclose())
    return title


def test_at_800_px_the_list_steps_aside_and_tells_twins_apart(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any, tmp_path: Any
) -> None:
    title = _same_title_twice(sandbox, ui, tmp_path)
    win = make_window()
    win.resize(800, 600)
    panel = win.doc_list
    qtbot.waitUntil(lambda: win.width() == 800)
    assert panel.isVisible()  # nothing open: the list is the window's content
    assert ui.run(win.open_document("02-programs"))
    qtbot.waitUntil(lambda: not panel.isVisible(), timeout=3000)
    page = win.editor_pane.page_editor  # the cards: what a document opens in
    qtbot.waitUntil(lambda: page.isVisible() and page.width() >= EDITOR_MIN_PX, timeout=3000)
    assert win.editor_pane.preview.isVisible()  # beside the preview still
    win.editor_pane.save_layout()
    layout = json.loads((win.ctx.paths.config_dir / "layout.json").read_text("utf-8"))
    assert layout.get("list_shown", True) is True  # not the user's choice: not remembered
    qtbot.mouseClick(win.editor_pane.toggle_list_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(panel.isVisible, timeout=3000)
    qtbot.waitUntil(lambda: panel.model.compact, timeout=3000)
    # the list back beside the cards: the cards keep their room, the preview steps aside
    qtbot.waitUntil(lambda: page.width() >= EDITOR_MIN_PX, timeout=3000)
    assert not win.editor_pane.preview.isVisible()
    rows = {
        r.doc_id: panel.model.cell(r, panel.COL_TITLE, int(Qt.ItemDataRole.DisplayRole.value))
        for r in panel.model.rows
    }
    twins = [text for text in rows.values() if text.split("\n")[0] == title]
    assert len(twins) == 2 and twins[0] != twins[1]  # the second line tells them apart
    assert any("archive/01-welcome.md" in t for t in twins)
    assert panel.tree.verticalHeader().defaultSectionSize() >= 2 * panel.fontMetrics().height()
    assert ui.run(win.open_document("01-welcome"))  # chosen from the list: it steps aside
    qtbot.waitUntil(lambda: not panel.isVisible(), timeout=3000)
    qtbot.waitUntil(win.editor_pane.preview.isVisible, timeout=3000)  # room for it again
    win.resize(1600, 900)
    qtbot.waitUntil(panel.isVisible, timeout=3000)  # wide again: the list is back
    qtbot.waitUntil(lambda: not panel.model.compact or panel.width() < 360, timeout=3000)


def test_a_narrow_window_does_not_become_the_remembered_layout(
    make_window: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    win.resize(1600, 900)
    qtbot.waitUntil(lambda: win.width() == 1600)
    assert ui.run(win.open_document("02-programs"))
    pane = win.editor_pane
    pane.splitter.setSizes([300, 900])  # the user's choice: a large preview
    settle()
    chosen = pane.splitter.sizes()
    pane.save_layout()
    win.resize(800, 600)
    qtbot.waitUntil(lambda: pane.page_editor.width() >= EDITOR_MIN_PX, timeout=3000)
    pane.save_layout()
    layout = json.loads((win.ctx.paths.config_dir / "layout.json").read_text("utf-8"))
    assert layout["editor"] == chosen
    win.resize(1600, 900)
    qtbot.waitUntil(lambda: pane.splitter.sizes() == chosen, timeout=3000)


def test_find_box_has_room_at_800_and_1600(make_window: Any, ui: Any, qtbot: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document("02-programs"))
    bar = win.editor_pane.find_bar
    for width in (1600, 800):
        win.resize(width, 700)
        win.act_replace.trigger()
        qtbot.waitUntil(bar.isVisible, timeout=3000)
        QApplication.processEvents()
        ten = bar.find_edit.fontMetrics().horizontalAdvance("가") * 10
        assert bar.find_edit.width() >= ten and bar.replace_edit.width() >= ten, width
        assert bar.close_button.geometry().right() <= bar.width()
        bar.close_bar()


def test_ctrl_plus_twice_makes_the_text_bigger_and_ctrl_0_resets(
    make_window: Any, ui: Any, qtbot: Any
) -> None:
    from modu_desktop.core.account.settings import load_settings
    from modu_desktop.ui.shell.zoom import system_point_size

    win = make_window()
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    base = system_point_size(app)
    assert ui.run(win.open_document("02-programs"))
    win.text_zoom.set_scale(1.0)  # the style sheet as the app starts with it
    editor_before = win.editor_pane.editor.font().pointSizeF()
    row_before = win.doc_list.tree.verticalHeader().defaultSectionSize()
    label_before = win.doc_list.status.font().pointSizeF()
    win.editor_pane.editor.setFocus()
    ctrl = Qt.KeyboardModifier.ControlModifier
    for _ in range(2):
        qtbot.keyClick(win.editor_pane.editor, Qt.Key.Key_Equal, ctrl)
    assert abs(app.font().pointSizeF() - base * 1.25) < 0.05
    qtbot.waitUntil(lambda: win.editor_pane.editor.font().pointSizeF() > editor_before * 1.2)
    assert win.doc_list.status.font().pointSizeF() > label_before * 1.2
    assert win.doc_list.tree.verticalHeader().defaultSectionSize() > row_before
    assert load_settings(win.ctx.paths.settings_file).text_scale == 1.25  # remembered
    qtbot.keyClick(win.editor_pane.editor, Qt.Key.Key_0, ctrl)
    assert abs(app.font().pointSizeF() - base) < 0.05
    assert load_settings(win.ctx.paths.settings_file).text_scale == 1.0
    qtbot.keyClick(win.editor_pane.editor, Qt.Key.Key_Minus, ctrl)
    assert app.font().pointSizeF() < base
    win.text_zoom.reset()


@pytest.mark.parametrize("doc", ["sandbox-notes", "admission"])
def test_at_800_px_the_cards_fit_beside_the_preview(
    make_window: Any, ui: Any, qtbot: Any, doc: str
) -> None:
    """A text box's toolbar and a table's buttons wrap instead of making the page wider than
    its pane (the fields, the item buttons and a card's ✕ were out of sight to the right)."""
    win = make_window()
    win.resize(800, 600)
    qtbot.waitUntil(lambda: win.width() == 800)
    assert ui.run(win.open_document(doc))
    page = win.editor_pane.page_editor
    page.build_all()
    qtbot.waitUntil(lambda: page.isVisible() and win.editor_pane.preview.isVisible())
    assert page.viewport().width() < 500  # beside the preview
    settle()
    assert page.horizontalScrollBar().maximum() == 0
    for card in page.cards:
        right = card.mapTo(page.viewport(), card.rect().topRight()).x()
        assert right <= page.viewport().width()


def test_a_narrow_list_shows_titles_not_file_names(make_window: Any, qtbot: Any) -> None:
    win = make_window()
    panel = win.doc_list
    win.splitter.setSizes([250, 1030])
    qtbot.waitUntil(lambda: panel.width() < 300, timeout=10000)
    assert panel.tree.isColumnHidden(panel.COL_FILE)
    assert panel.tree.columnWidth(panel.COL_TITLE) > 100
    win.splitter.setSizes([600, 680])
    qtbot.waitUntil(lambda: not panel.tree.isColumnHidden(panel.COL_FILE), timeout=10000)
