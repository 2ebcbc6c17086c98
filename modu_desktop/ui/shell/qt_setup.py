"""What the application needs from Qt at start-up, before the first paint: shared GL contexts
for the preview's WebEngine (set before the ``QApplication`` exists) and the shipped font.
Kept apart from ``ui/preview/engine.py`` so the first paint does not import the preview's
engine module (its URL schemes wait for the first WebEngine object)."""

from __future__ import annotations

import logging
from typing import Any

from modu_desktop.core.account.paths import resources_dir

log = logging.getLogger(__name__)


def prepare_application() -> None:
    """Before the ``QApplication`` exists: WebEngine shares GL contexts with the widgets."""
    from PySide6.QtCore import QCoreApplication, Qt

    if QCoreApplication.instance() is None:
        QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)


def register_app_font(app: Any = None) -> str | None:
    """Register the shipped font and put it first in the application's font (the widgets draw
    Hangul with the preview's font, on every OS, offline). Its family, or None."""
    from PySide6.QtGui import QFontDatabase, QGuiApplication

    path = resources_dir() / "preview" / "fonts" / "PretendardVariable.ttf"
    font_id = QFontDatabase.addApplicationFont(str(path))
    if font_id < 0:
        log.info("shipped font not loaded: %s", path)
        return None
    families = QFontDatabase.applicationFontFamilies(font_id)
    if not families:
        return None
    app = app or QGuiApplication.instance()
    if app is not None:
        font = app.font()
        font.setFamilies([families[0], *[f for f in font.families() if f != families[0]]])
        app.setFont(font)
    return families[0]
