"""Language choice and Qt translators (``resources/translations/modu_ko.qm``), and the style."""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from modu_desktop.core.paths import resources_dir

log = logging.getLogger(__name__)
_installed: list[QTranslator] = []


def translate_or(context: str, en: str, ko: str) -> str:
    """``QCoreApplication.translate(context, en)``, or the built-in Korean ``ko`` when the
    catalogue has no entry and the locale is Korean (texts kept next to their code)."""
    text = QCoreApplication.translate(context, en)
    if text == en and QLocale().language() == QLocale.Language.Korean:
        return ko
    return text


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
    ours: QTranslator = QTranslator(app)
    folder = resources_dir() / "translations"
    qm = folder / "modu_ko.qm"
    if not ours.load(str(qm)):
        # The .qm is a build artefact (installer / update.py); from a plain checkout read the
        # Qt Linguist source directly.
        ours = TsTranslator(folder / "modu_ko.ts", app)
    if not ours.isEmpty():
        app.installTranslator(ours)
        _installed.append(ours)
        ok = True
    else:
        log.warning("Korean translations not found in %s", folder)
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    qtbase = QTranslator(app)
    if qtbase.load("qtbase_ko", qt_dir):
        app.installTranslator(qtbase)
        _installed.append(qtbase)
    return ok


class TsTranslator(QTranslator):
    """Serves translations straight from a ``.ts`` file (no ``.qm`` compiled)."""

    def __init__(self, ts_path: Path, parent: Any = None) -> None:
        super().__init__(parent)
        self._table: dict[tuple[str, str], str] = {}
        try:
            root = ET.parse(ts_path).getroot()
        except (OSError, ET.ParseError) as exc:
            log.warning("cannot read %s: %s", ts_path, exc)
            return
        for ctx in root.iter("context"):
            name = ctx.findtext("name") or ""
            for msg in ctx.iter("message"):
                src = msg.findtext("source")
                tr = msg.find("translation")
                if src is None or tr is None or tr.get("type") in ("unfinished", "obsolete"):
                    continue
                forms = [f.text or "" for f in tr.iter("numerusform")]
                text = forms[0] if forms else (tr.text or "")
                if text:
                    self._table[(name, src)] = text

    def isEmpty(self) -> bool:  # noqa: N802 - Qt API
        return not self._table

    def translate(  # type: ignore[override]
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str | None:
        text = self._table.get((context, source))
        if text is None:
            return None
        return text.replace("%n", str(n)) if n >= 0 else text


def load_style(app: Any) -> None:
    qss = resources_dir() / "styles" / "app.qss"
    try:
        app.setStyleSheet(qss.read_text("utf-8"))
    except OSError:
        log.info("no style sheet at %s", qss)
