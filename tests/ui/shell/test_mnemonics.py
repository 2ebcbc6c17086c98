"""Alt+letter: with a document open, the menus, the list and the page settings are on screen
together, so no letter may lead to two of them (Qt then gives the key to one of them only —
Alt+H went to the theme box, never to the Help menu)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QWidget

from modu_desktop import i18n

DOC = "admission"


def _mnemonics(win: Any, *more: QWidget) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for action in win.menuBar().actions():
        found.append((QKeySequence.mnemonic(action.text()).toString(), action.text()))
    places: list[QWidget] = [win.doc_list, win.editor_pane.form, *more]
    for place in places:
        for label in place.findChildren(QLabel):
            if label.isVisible() and label.buddy() is not None:
                found.append((QKeySequence.mnemonic(label.text()).toString(), label.text()))
        for button in place.findChildren(QAbstractButton):
            if button.isVisible():
                found.append((QKeySequence.mnemonic(button.text()).toString(), button.text()))
    return [(key, text) for key, text in found if key]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_no_alt_letter_leads_to_two_places(make_window: Any, ui: Any, lang: str) -> None:
    i18n.set_language(lang)
    try:
        win = make_window(lang=lang)
        assert ui.run(win.open_document(DOC))
        found = _mnemonics(win)
        keys = [key for key, _ in found]
        twice = sorted((key, text) for key, text in found if keys.count(key) > 1)
        assert not twice
        assert len(found) >= 12  # seven menus, the filter, Open, the five page settings
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_find_bar_and_the_banners_add_no_second_alt_letter(
    make_window: Any, ui: Any, lang: str
) -> None:
    """Alt+M was 색상 테마 and 대소문자 구분 at once, Alt+R 순서 and 바꾸기, Alt+I the list's
    filter and 찾기, Alt+P 바꿀 글자 and 게시하기."""
    i18n.set_language(lang)
    try:
        win = make_window(lang=lang)
        win.resize(1400, 900)
        assert ui.run(win.open_document(DOC))
        bar = win.editor_pane.find_bar
        win.act_replace.trigger()  # the whole bar, with its replace row
        win.unpublished.banner.show()
        win.unpublished.publish_button.show()
        editing = _mnemonics(win, bar, win.unpublished.banner)
        # the page taken over: read-only, the replace row gone, the lost-lock banner's buttons
        bar.set_read_only(True)
        win.lock_banner.show()
        taken = _mnemonics(win, bar, win.unpublished.banner, win.lock_banner)
        for found in (editing, taken):
            keys = [key for key, _ in found]
            twice = sorted((key, text) for key, text in found if keys.count(key) > 1)
            assert not twice
        assert len(editing) >= 19 and len(taken) >= 19
    finally:
        i18n.set_language("en")


def test_alt_h_opens_the_help_menu_from_a_page_setting(
    make_window: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    field = win.editor_pane.form.title_edit
    field.setFocus()
    qtbot.keyClick(field, Qt.Key.Key_H, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None)
    popup = QApplication.activePopupWidget()
    assert popup is win.help_menu.menu
    popup.close()
