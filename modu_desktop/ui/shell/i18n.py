"""The interface language at start, Qt's own translations, and the style.

Words come from the one mechanism, :func:`modu_desktop.i18n.tr` (catalogues in
``resources/translations/``). Qt's ``qtbase_ko`` translator only words Qt's standard buttons.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

from modu_desktop import i18n
from modu_desktop.core.account.paths import resources_dir

log = logging.getLogger(__name__)
_installed: list[QTranslator] = []


def detect_language(cli: str | None, configured: str | None) -> str:
    """--lang, then the settings, then Korean if the OS locale is Korean, else English."""
    for choice in (cli, configured):
        if choice in ("ko", "en"):
            return choice
    return "ko" if QLocale.system().language() == QLocale.Language.Korean else "en"


def install_translators(app: Any, lang: str) -> bool:
    """Set the language of ``tr`` and install Qt's translators (Korean only; English = none)."""
    for t in _installed:
        app.removeTranslator(t)
    _installed.clear()
    i18n.set_language(lang)
    QLocale.setDefault(
        QLocale(QLocale.Language.Korean if lang == "ko" else QLocale.Language.English)
    )
    if lang != "ko":
        return True
    if not i18n.catalogue():
        log.warning("Korean translations not found in %s", resources_dir() / "translations")
        return False
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    qtbase = QTranslator(app)
    if qtbase.load("qtbase_ko", qt_dir):
        app.installTranslator(qtbase)
        _installed.append(qtbase)
    return True


def load_style(app: Any, scale: float = 1.0) -> None:
    """The style sheet, with the text at ``scale`` × the computer's size (``zoom.py``)."""
    from modu_desktop.ui.shell.zoom import apply_scale

    apply_scale(app, scale)
