"""Text size: the interface follows the computer's text size, times the user's own scale.

The computer's size is the application font Qt starts with (Windows' "make text bigger" and
macOS's system size are in it); it is read once and kept on the application. 보기 → 글자
크게/작게/원래대로 multiplies it by one of ``STEPS``: the application font changes (every widget
without a font of its own follows), and the style sheet is applied again with its ``em`` sizes
turned into points of the new size (Qt's style sheets have no relative font sizes). The scale
is kept in the settings and applies to the start window at the next start too.
"""

from __future__ import annotations

import contextlib
import logging
import re
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication

from modu_desktop.core.account.paths import resources_dir
from modu_desktop.core.account.settings import MAX_SCALE, MIN_SCALE, Settings, save_settings

log = logging.getLogger(__name__)

STEPS = (0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5)
_BASE = "moduSystemPointSize"
_SCALE = "moduTextScale"
_EM = re.compile(r"font-size:\s*([0-9.]+)em")


def system_point_size(app: Any) -> float:
    """The computer's text size (points), as Qt found it before any scaling."""
    base = app.property(_BASE)
    if not isinstance(base, float) or base <= 0:
        size = app.font().pointSizeF()
        base = size if size > 0 else 10.0
        app.setProperty(_BASE, base)
    return float(base)


def current_scale(app: Any) -> float:
    scale = app.property(_SCALE)
    return float(scale) if isinstance(scale, int | float) and scale > 0 else 1.0


def style_sheet(points: float) -> str:
    """The app's style sheet with every ``font-size: N em`` as points of ``points``."""
    path = resources_dir() / "styles" / "app.qss"
    try:
        text = path.read_text("utf-8")
    except OSError:
        log.info("no style sheet at %s", path)
        return ""
    return _EM.sub(lambda m: f"font-size: {float(m.group(1)) * points:.1f}pt", text)


def apply_scale(app: Any, scale: float) -> float:
    """Set the interface's text to ``scale`` × the computer's size; returns the scale used."""
    scale = min(MAX_SCALE, max(MIN_SCALE, float(scale)))
    points = system_point_size(app) * scale
    font = app.font()
    font.setPointSizeF(points)
    app.setFont(font)
    app.setStyleSheet(style_sheet(points))
    app.setProperty(_SCALE, scale)
    return scale


class TextZoom(QObject):
    """The View menu's text size, remembered in ``settings`` (written to ``settings_file``)."""

    changed = Signal(float)

    def __init__(
        self, settings: Settings, settings_file: Path | None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.settings = settings
        self.settings_file = settings_file
        app = QApplication.instance()
        if app is not None and abs(current_scale(app) - settings.text_scale) > 1e-6:
            apply_scale(app, settings.text_scale)

    @property
    def scale(self) -> float:
        app = QApplication.instance()
        return current_scale(app) if app is not None else 1.0

    def set_scale(self, scale: float) -> None:
        app = QApplication.instance()
        if app is None:
            return
        used = apply_scale(app, scale)
        self.settings.text_scale = used
        if self.settings_file is not None:
            with contextlib.suppress(OSError):
                save_settings(self.settings, self.settings_file)
        self.changed.emit(used)

    def bigger(self) -> None:
        self.set_scale(next((s for s in STEPS if s > self.scale + 1e-6), STEPS[-1]))

    def smaller(self) -> None:
        self.set_scale(next((s for s in reversed(STEPS) if s < self.scale - 1e-6), STEPS[0]))

    def reset(self) -> None:
        self.set_scale(1.0)
