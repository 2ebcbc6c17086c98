"""Dialogs that fit: never larger than the window they belong to (or the screen), so an
800×600 window never hides a dialog's buttons."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QWidget

MARGIN = 16


def room_for(widget: QWidget) -> tuple[int, int]:
    """(width, height) a dialog of ``widget`` may take: its window's size, else the screen's."""
    parent = widget.parentWidget()
    window = parent.window() if parent is not None else None
    if window is not None and window.isVisible():
        return window.width() - MARGIN, window.height() - MARGIN
    screen = widget.screen() or QApplication.primaryScreen()
    if screen is None:
        return 800 - MARGIN, 600 - MARGIN
    geo = screen.availableGeometry()
    return geo.width() - MARGIN, geo.height() - MARGIN


def fit_to_screen(dialog: QWidget, width: int, height: int) -> None:
    """Resize ``dialog`` to ``width``×``height``, or less where its window is smaller."""
    room_w, room_h = room_for(dialog)
    dialog.resize(max(200, min(width, room_w)), max(150, min(height, room_h)))
