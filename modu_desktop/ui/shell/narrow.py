"""A narrow window (below ~1000 px): the document list steps aside for the open document.

While a document is open in a narrow window, the list is tucked behind the toolbar's ☰ button
(for now only: the user's own choice for wide windows is kept). ☰ brings it back beside the
editor, about a third of the window wide, where it shows its compact two-line rows; opening a
document from it tucks it away again. With no document open, the list is the whole point of
the window and stays. A window made wide again gets its list back.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject

NARROW_WINDOW_PX = 1000
LIST_SHARE = 0.4
LIST_MAX_PX = 340


class NarrowLayout(QObject):
    def __init__(self, win: Any) -> None:
        super().__init__(win)
        self.win = win
        self.tucked = False  # the list is hidden because the window is narrow
        win.installEventFilter(self)
        win.editor_pane.toggle_list_button.clicked.connect(self._user_toggled)

    @property
    def narrow(self) -> bool:
        return bool(self.win.width() < NARROW_WINDOW_PX)

    def _document_shown(self) -> bool:
        return bool(self.win.doc is not None and self.win.right.currentIndex() == 1)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if obj is self.win and event.type() == QEvent.Type.Resize:
            self.update()
        return False

    def update(self) -> None:
        pane = self.win.editor_pane
        pane.narrow = self.narrow
        if self.narrow and self._document_shown() and self.win.doc_list.isVisible():
            if not self.tucked:
                self.tuck()
        elif not self.narrow and self.tucked:
            self.tucked = False
            pane.set_list_shown(pane._list_wanted, remember=False)

    def tuck(self) -> None:
        """Hide the list for now (a document is open in a narrow window)."""
        self.tucked = True
        self.win.editor_pane.set_list_shown(False, remember=False)

    def document_opened(self) -> None:
        self.win.editor_pane.narrow = self.narrow
        if self.narrow and self.win.doc_list.isVisible():
            self.tuck()

    def _user_toggled(self, shown: bool) -> None:
        if not self.narrow:
            return
        if shown:
            total = sum(self.win.splitter.sizes()) or self.win.width()
            width = min(LIST_MAX_PX, int(total * LIST_SHARE))
            self.win.splitter.setSizes([width, max(0, total - width)])
        self.tucked = not shown
