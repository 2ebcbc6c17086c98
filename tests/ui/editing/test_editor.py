"""Editor area: front matter form <-> text, find/replace, Ctrl+S, undo, accessibility."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextBrowser,
)

from modu_desktop.ui.editing.editor import EditorPane

TEXT = (
    "---\nid: x\ntitle: 옛 제목\nsidebar_position: 3\ntheme: teal-green\n---\n"
    "\n# 본문\n\n본문 본문\n"
)


def test_form_follows_text_and_text_follows_form(qtbot: Any) -> None:
    pane = EditorPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.load_text(TEXT, read_only=False)
    f = pane.form
    assert f.title_edit.text() == "옛 제목"
    assert f.position_edit.text() == "3"
    assert f.theme_box.currentData() == "teal-green"
    assert f.layout_box.currentData() is None
    # form → text (only the changed line; other keys and the body stay)
    f.title_edit.setFocus()
    f.title_edit.selectAll()
    qtbot.keyClicks(f.title_edit, "New title")
    assert "title: New title" in pane.text() or 'title: "New title"' in pane.text()
    assert "id: x" in pane.text() and pane.text().endswith("본문 본문\n")
    f.layout_box.setCurrentIndex(f.layout_box.findData("poster"))
    f.layout_box.activated.emit(f.layout_box.currentIndex())
    assert "layout: poster" in pane.text()
    assert pane.is_modified()
    # one undo step per form edit
    pane.editor.undo()
    assert "layout: poster" not in pane.text()
    # text → form (debounced)
    pane.editor.setFocus()
    pane.editor.setPlainText(TEXT.replace("sidebar_position: 3", "sidebar_position: 7"))
    qtbot.waitUntil(lambda: f.position_edit.text() == "7", timeout=10000)


def test_read_only_blocks_form_edits(qtbot: Any) -> None:
    pane = EditorPane()
    qtbot.addWidget(pane)
    pane.load_text(TEXT, read_only=True)
    assert pane.editor.isReadOnly() and pane.form.title_edit.isReadOnly()
    assert not pane.form.theme_box.isEnabled()
    pane._apply_form_edit("title", "nope")
    assert pane.text() == TEXT


def test_find_and_replace_in_the_original_text(qtbot: Any) -> None:
    """In 원문 편집 the bar searches the Markdown (the cards: test_find_in_cards.py)."""
    pane = EditorPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.load_text(TEXT, read_only=False)
    pane.set_raw_view(True)
    fb = pane.find_bar
    fb.open_find(replace=True)
    assert fb.isVisible()
    fb.find_edit.setText("본문")
    assert fb.find_next()
    assert pane.editor.textCursor().selectedText() == "본문"
    fb.replace_edit.setText("내용")
    assert fb.replace_all() == 3
    assert "본문" not in pane.text() and pane.text().count("내용") == 3
    fb.find_edit.setText("없는말")
    assert not fb.find_next()
    assert fb.status.text()
    qtbot.keyClick(fb.find_edit, Qt.Key.Key_Escape)
    assert not fb.isVisible()


def test_ctrl_s_saves_and_title_shows_dirty(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document("04-admission"))
    win.activateWindow()
    win.editor_pane.editor.setFocus()
    qtbot.keyClicks(win.editor_pane.editor, "abc")
    assert win.isWindowModified() and "[*]" in win.windowTitle()
    before = len(sandbox.commits())
    win.act_save.trigger()  # the Ctrl+S action
    qtbot.waitUntil(lambda: not win.editor_pane.is_modified(), timeout=10000)
    assert len(sandbox.commits()) == before + 1
    assert win.act_save.shortcut().toString() == "Ctrl+S"


def test_every_control_has_an_accessible_name_and_key_path(make_window: Any, ui: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document("01-welcome"))
    missing = []
    kinds = (QAbstractButton, QLineEdit, QComboBox, QPlainTextEdit, QTextBrowser, QAbstractItemView)
    for kind in kinds:
        for w in win.findChildren(kind):
            if not w.isVisibleTo(win) or w.objectName().startswith("qt_"):
                continue
            if type(w).__name__ in ("QScrollBar",):
                continue
            name = w.accessibleName() or (w.text() if isinstance(w, QAbstractButton) else "")
            if not name.replace("&", "").strip():
                missing.append(f"{type(w).__name__}:{w.objectName()}")
    assert not missing, missing
    for key in ("docList", "editor", "preview", "frontMatterForm", "lockBanner", "statusLock"):
        assert win.findChild(object, key) is not None, key
    shortcuts = {s.toString() for a in win.actions() for s in a.shortcuts()}
    assert {
        "Ctrl+S",
        "F5",
        "Ctrl+L",
        "Ctrl+E",
        "Ctrl+Shift+L",
        "Ctrl+W",
        "Ctrl+Q",
        "Ctrl+F",
    } <= shortcuts


def test_language_choice_is_saved(make_window: Any) -> None:
    from modu_desktop.core.account.settings import load_settings

    win = make_window()
    win.lang_actions["ko"].trigger()
    assert load_settings(win.ctx.paths.settings_file).language == "ko"
    assert win.lang_actions["ko"].isChecked() and not win.lang_actions["en"].isChecked()
    assert win.notice.isVisible()
    win.lang_actions[None].trigger()
    assert load_settings(win.ctx.paths.settings_file).language is None


def test_the_toolbar_does_not_move_when_the_save_state_changes(qtbot: Any) -> None:
    """ "✔ Saved" → "Checking before saving…" pushed the buttons after it about."""
    from modu_desktop.core.publish.status import EditPhase

    pane = EditorPane()
    qtbot.addWidget(pane)
    pane.resize(560, 500)  # the toolbar full, as beside the list at 800 px
    pane.show()
    qtbot.waitExposed(pane)
    places = set()
    for phase in EditPhase:
        pane._show_save_state(phase)
        QApplication.processEvents()
        places.add(pane.insert_block_button.x())
    assert len(places) == 1


def test_the_publishing_line_keeps_its_height_when_view_on_site_appears(qtbot: Any) -> None:
    from modu_desktop.ui.editing.publish_status import PublishStatus

    line = PublishStatus()
    qtbot.addWidget(line)
    line.label.setText("✔ Saved → publishing…")
    line.show()
    qtbot.waitExposed(line)
    before = line.sizeHint().height(), line.label.width()
    line.view_button.show()
    QApplication.processEvents()
    assert (line.sizeHint().height(), line.label.width()) == before
