"""A narrow window (below ~1000 px): the document list steps aside for the open document.

While a document is open in a narrow window, the list is tucked behind the toolbar's ☰ button
(for now only: the user's own choice for wide windows is kept). ☰ brings it back beside the
editor, about a third of the window wide, where it shows its compact two-line rows; opening a
document from it tucks it away again. With no document open, the list is the whole point of
the window and stays. A window made wide again gets its list back.

The first window fits its screen: 1280×800 where there is room for it and the window manager's
frame, else as large as the screen's free area (maximised), never partly off the screen
(:func:`size_first_window`).

The cards come first in a narrow window: beside the preview they get at least
:data:`EDITOR_MIN_PX` (the preview, which scales the page down, takes the rest); where that
leaves the preview less than :data:`PREVIEW_MIN_PX` (the list brought back at 800 px), the
preview steps aside for now and returns when there is room again. Neither is remembered as the
user's layout; a split the user drags is.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QCursor, QGuiApplication
from PySide6.QtWidgets import QWidget

NARROW_WINDOW_PX = 1000
LIST_SHARE = 0.4
LIST_MAX_PX = 340
EDITOR_MIN_PX = 480
PREVIEW_MIN_PX = 240
FIRST_SIZE = (1280, 800)
FRAME_ROOM = (16, 48)  # a window manager's borders and title bar around the window


def size_first_window(win: QWidget) -> None:
    """The first window's size on the screen it opens on (the one under the mouse)."""
    screen = QGuiApplication.screenAt(QCursor.pos()) or QGuiApplication.primaryScreen()
    width, height = FIRST_SIZE
    if screen is None:
        win.resize(width, height)
        return
    free = screen.availableGeometry()
    room_w, room_h = free.width() - FRAME_ROOM[0], free.height() - FRAME_ROOM[1]
    win.resize(min(width, room_w), min(height, room_h))
    if width > room_w or height > room_h:
        win.setWindowState(win.windowState() | Qt.WindowState.WindowMaximized)


class NarrowLayout(QObject):
    def __init__(self, win: Any) -> None:
        super().__init__(win)
        self.win = win
        self.tucked = False  # the list is hidden because the window is narrow
        self.preview_tucked = False  # the preview is hidden so that the cards have room
        self._wide_sizes: list[int] | None = None  # the cards and preview before narrowing
        win.installEventFilter(self)
        win.editor_pane.splitter.installEventFilter(self)
        win.editor_pane.splitter.splitterMoved.connect(self._user_moved)
        win.editor_pane.toggle_list_button.clicked.connect(self._user_toggled)

    @property
    def narrow(self) -> bool:
        return bool(self.win.width() < NARROW_WINDOW_PX)

    def _document_shown(self) -> bool:
        return bool(self.win.doc is not None and self.win.right.currentIndex() == 1)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Resize:
            if obj is self.win:
                self.update()
            elif obj is self.win.editor_pane.splitter:
                self.fit_editor()
        return False

    def fit_editor(self) -> None:
        """In a narrow window, the cards get :data:`EDITOR_MIN_PX` before the preview."""
        pane = self.win.editor_pane
        if not self.narrow or pane.view != "both":
            self._untuck_preview()
            if not self.narrow and self._wide_sizes is not None:
                pane.splitter.setSizes(self._wide_sizes)
                self._wide_sizes = None
            return
        room = pane.splitter.width() - pane.splitter.handleWidth()
        if room < EDITOR_MIN_PX + PREVIEW_MIN_PX:
            if not self.preview_tucked and pane.preview.isVisible():
                self._remember_wide()
                self.preview_tucked = True
                pane.preview.hide()
            return
        self._untuck_preview()
        editor, preview = pane.splitter.sizes()
        if editor < EDITOR_MIN_PX:
            self._remember_wide()
            pane.splitter.setSizes([EDITOR_MIN_PX, max(PREVIEW_MIN_PX, room - EDITOR_MIN_PX)])
            pane.fitted_sizes = pane.splitter.sizes()

    def _user_moved(self, *_args: object) -> None:
        """The user's own sizes, narrow or not: theirs to keep."""
        self.win.editor_pane.fitted_sizes = None
        self._wide_sizes = None

    def _remember_wide(self) -> None:
        if self._wide_sizes is None:
            self._wide_sizes = self.win.editor_pane.splitter.sizes()

    def _untuck_preview(self) -> None:
        if self.preview_tucked:
            self.preview_tucked = False
            if self.win.editor_pane.view in ("preview", "both"):
                self.win.editor_pane.preview.show()

    def update(self) -> None:
        pane = self.win.editor_pane
        pane.narrow = self.narrow
        if self.narrow and self._document_shown() and self.win.doc_list.isVisible():
            if not self.tucked:
                self.tuck()
        elif not self.narrow and self.tucked:
            self.tucked = False
            pane.set_list_shown(pane.layout_memory.list_wanted, remember=False)

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
