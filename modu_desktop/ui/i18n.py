"""Language choice and Qt translators (``resources/translations/modu_ko.qm``), and the style."""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

from modu_desktop.core.paths import resources_dir

log = logging.getLogger(__name__)
_installed: list[QTranslator] = []


def detect_language(cli: str | None, configured: str | None) -> str:
    """--lang, then the settings, then Korean if the OS locale is Korean, else English."""
    for choice in (cli, configured):
        if choice in ("ko", "en"):
            return choice
    return "ko" if QLocale.system().language() == QLocale.Language.Korean else "en"


def install_translators(app: Any, lang: str) -> bool:
    """Install our Korean catalogue (and Qt's own, for standard buttons). English = no-op."""
    for t in _installed:
        app.removeTranslator(t)
    _installed.clear()
    QLocale.setDefault(
        QLocale(QLocale.Language.Korean if lang == "ko" else QLocale.Language.English)
    )
    if lang != "ko":
        return True
    ok = False
    ours = QTranslator(app)
    qm = resources_dir() / "translations" / "modu_ko.qm"
    if ours.load(str(qm)):
        app.installTranslator(ours)
        _installed.append(ours)
        ok = True
    else:
        log.warning("Korean translations not found at %s", qm)
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    qtbase = QTranslator(app)
    if qtbase.load("qtbase_ko", qt_dir):
        app.installTranslator(qtbase)
        _installed.append(qtbase)
    return ok


def load_style(app: Any) -> None:
    qss = resources_dir() / "styles" / "app.qss"
    try:
        app.setStyleSheet(qss.read_text("utf-8"))
    except OSError:
        log.info("no style sheet at %s", qss)
