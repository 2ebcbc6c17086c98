"""The interface language at start, Qt's own translations, and the style.

Words come from the one mechanism, :func:`modu_desktop.i18n.tr` (catalogues in
``resources/translations/``). Qt's ``qtbase_ko`` translator still words Qt's standard buttons.
Widgets that still call Qt's ``self.tr`` (kept in files other engineers are changing; to be
converted to ``tr`` after their merge) are served from the same catalogue by
:class:`CatalogueTranslator`, so there is one set of Korean texts.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

from modu_desktop import i18n
from modu_desktop.core.paths import resources_dir

log = logging.getLogger(__name__)
_installed: list[QTranslator] = []


def tr_count(source: str, n: int) -> str:
    """``tr`` of a catalogue text with a ``%n`` count (``"%n min ago"``)."""
    return i18n.tr(source).replace("%n", str(n))


def detect_language(cli: str | None, configured: str | None) -> str:
    """--lang, then the settings, then Korean if the OS locale is Korean, else English."""
    for choice in (cli, configured):
        if choice in ("ko", "en"):
            return choice
    return "ko" if QLocale.system().language() == QLocale.Language.Korean else "en"


class CatalogueTranslator(QTranslator):
    """Qt's ``tr()`` answered from the JSON catalogue (context-free: English source → Korean)."""

    def isEmpty(self) -> bool:  # noqa: N802 - Qt API
        return not i18n.catalogue()

    def translate(  # type: ignore[override]
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str | None:
        text = i18n.catalogue().get(source)
        if text is None:
            return None
        return text.replace("%n", str(n)) if n >= 0 else text


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
    ours = CatalogueTranslator(app)
    if ours.isEmpty():
        log.warning("Korean translations not found in %s", resources_dir() / "translations")
        return False
    app.installTranslator(ours)
    _installed.append(ours)
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    qtbase = QTranslator(app)
    if qtbase.load("qtbase_ko", qt_dir):
        app.installTranslator(qtbase)
        _installed.append(qtbase)
    return True


def load_style(app: Any) -> None:
    qss = resources_dir() / "styles" / "app.qss"
    try:
        app.setStyleSheet(qss.read_text("utf-8"))
    except OSError:
        log.info("no style sheet at %s", qss)
