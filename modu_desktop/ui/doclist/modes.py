"""The document list's two modes: the list itself (filtered by title or file name) and a search
of what every page says, side by side as two tabs above the list ("문서 목록", "내용 찾기").

:class:`ListModes` adds the second mode to a :class:`~modu_desktop.ui.doclist.panel.DocListPanel`
given the search's widget (the list room does not know what searches; the window hands it
over). A filter that matches no title offers to look for the same words in the pages.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QPushButton, QTabBar, QVBoxLayout, QWidget

from modu_desktop.i18n import tr
from modu_desktop.ui.doclist.panel import DocListPanel
from modu_desktop.ui.kit.shortcuts import keys_text

LIST, SEARCH = 0, 1


class ListModes(QObject):
    """See the module docstring. ``searchShown`` is emitted when the search mode comes to the
    front; ``searchFor(text)`` when the person asks to look for the filter's words in the
    pages."""

    searchShown = Signal()
    searchFor = Signal(str)

    def __init__(self, panel: DocListPanel, search: QWidget) -> None:
        super().__init__(panel)
        self.panel = panel
        self.search = search
        self.tabs = QTabBar()
        self.tabs.setObjectName("docListModes")
        self.tabs.setAccessibleName(tr("List or search"))
        self.tabs.setExpanding(False)
        self.tabs.setDrawBase(True)
        self.tabs.addTab(tr("Document list"))
        self.tabs.addTab(tr("Search pages"))
        self.tabs.setTabToolTip(LIST, tr("Every page by its title; the filter looks at titles"))
        self.tabs.setTabToolTip(
            SEARCH,
            tr("Find words in what every page says ({keys})", keys=keys_text("searchPages")),
        )
        outer = panel.layout()
        if isinstance(outer, QVBoxLayout):
            outer.insertWidget(0, self.tabs)
        panel.pages.addWidget(search)
        self.tabs.currentChanged.connect(self._switch)
        panel.pages.currentChanged.connect(self._shown)  # Go → 문서 목록 brings the list back

        # under an empty filter: the same words looked for in the pages
        self.look_inside = QPushButton("")
        self.look_inside.setObjectName("filterSearchPagesButton")
        self.look_inside.hide()
        list_lay = panel.list_page.layout()
        if isinstance(list_lay, QVBoxLayout):
            list_lay.insertWidget(list_lay.indexOf(panel.status) + 1, self.look_inside)
        panel.filter_edit.textChanged.connect(self._filtered)
        panel.listed.connect(lambda: self._filtered(panel.filter_edit.text()))
        self.look_inside.clicked.connect(
            lambda: self.searchFor.emit(panel.filter_edit.text().strip())
        )

    @property
    def searching(self) -> bool:
        return self.tabs.currentIndex() == SEARCH

    def show_search(self) -> None:
        self.tabs.setCurrentIndex(SEARCH)
        self.panel.pages.setCurrentWidget(self.search)

    def _switch(self, index: int) -> None:
        self.panel.pages.setCurrentIndex(SEARCH if index == SEARCH else LIST)
        if index == SEARCH:
            self.searchShown.emit()

    def _shown(self, index: int) -> None:
        self.tabs.setCurrentIndex(SEARCH if index == SEARCH else LIST)

    def _filtered(self, text: str) -> None:
        words = text.strip()
        empty = bool(words) and self.panel.model.rowCount() == 0 and bool(self.panel.rows)
        if empty:
            self.look_inside.setText(tr("Look for “{text}” in what the pages say", text=words))
        self.look_inside.setVisible(empty)
