"""메뉴 순서: ▲ ▼ belongs to the 문서 목록 page of the list: under the list, above 열기, hidden
while 내용 찾기 (the search of every page) is in front, and back with the list — from its tab,
Go → 문서 목록 or Go → 찾기."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from modu_desktop.ui.doclist.modes import LIST, SEARCH


def test_the_menu_order_bar_shows_with_the_list_only(make_window: Any, qtbot: Any) -> None:
    win = make_window()
    panel, modes = win.doc_list, win.search.modes
    bar = panel.findChild(QWidget, "opsReorderBar")
    assert bar is not None and bar.isVisible()

    def top(w: QWidget) -> int:
        return w.mapTo(panel, QPoint(0, 0)).y()

    assert top(panel.tree) < top(bar) < top(panel.open_button)  # under the list, above 열기

    win.search.start()  # 편집 → 모든 문서에서 찾기
    qtbot.waitUntil(lambda: modes.searching)
    assert not bar.isVisible()
    modes.tabs.setCurrentIndex(LIST)
    assert bar.isVisible()

    for go in ("goListAction", "goFilterAction"):
        modes.tabs.setCurrentIndex(SEARCH)
        assert not bar.isVisible()
        action = win.findChild(QAction, go)
        assert action is not None
        action.trigger()
        assert not modes.searching and bar.isVisible(), go
