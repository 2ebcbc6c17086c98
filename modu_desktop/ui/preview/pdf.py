"""PDF export of a brochure document with Qt WebEngine and the site's print rules.

:class:`PdfExporter` builds the static page (no script) with the site style and the paper's
``@page`` size, loads it in a hidden page on the preview's locked-down profile, waits for the
fonts, and prints it with Chromium's PDF backend: text stays text (selectable, searchable
Hangul, with the shipped font embedded). Paper: the one asked for, else the document's layout
(``compact`` → B5, ``poster`` → A3, otherwise A4).

:func:`export_pdf_blocking` runs one export to the end (CLI, tests); a ``QApplication`` must exist.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEventLoop, QMarginsF, QObject, QSizeF, QTimer, Signal
from PySide6.QtGui import QPageLayout, QPageSize

from modu_desktop.core.preview import (
    PAPER_MM,
    ImageResolver,
    SiteStyle,
    build_page,
    default_style,
    render_document,
)

log = logging.getLogger(__name__)

PAPERS = tuple(PAPER_MM)


def page_layout(paper: str) -> QPageLayout:
    w, h = PAPER_MM[paper]
    size = QPageSize(QSizeF(w, h), QPageSize.Unit.Millimeter, paper)
    return QPageLayout(size, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0))


class PdfExporter(QObject):
    finished = Signal(bool, str)  # ok, path

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._page: Any = None
        self._done: Callable[[bool], None] | None = None
        self._path = Path()
        self._layout: QPageLayout | None = None

    def export(
        self,
        text: str,
        path: Path,
        *,
        style: SiteStyle | None = None,
        theme: str | None = None,
        paper: str | None = None,
        image_resolver: ImageResolver | None = None,
        done: Callable[[bool], None] | None = None,
    ) -> None:
        from modu_desktop.ui.preview import engine

        style = style or default_style()
        profile = engine.preview_profile()
        resolver = _file_urls_to_scheme(image_resolver, profile.images)
        doc = render_document(text, style=style, theme=theme, image_resolver=resolver)
        paper = (paper or doc.paper()).upper()
        if paper not in PAPER_MM:
            raise ValueError(f"paper must be one of {', '.join(PAPERS)}")
        html = build_page(doc, style, paper=paper, no_motion=True)
        self._path = Path(path)
        self._done = done
        self._layout = page_layout(paper)
        self._page = engine.new_page(self)
        self._page.loadFinished.connect(self._loaded)
        self._page.pdfPrintingFinished.connect(self._printed)
        self._page.load(profile.pages.put(html))

    def _loaded(self, ok: bool) -> None:
        if not ok:
            self._finish(False)
            return
        # Wait for the fonts (served by our scheme) before printing.
        self._page.runJavaScript("document.fonts.status", 0, self._fonts_state)

    def _fonts_state(self, state: Any) -> None:
        if state == "loaded":
            self._page.printToPdf(str(self._path), self._layout)
        else:
            QTimer.singleShot(
                50, lambda: self._page.runJavaScript("document.fonts.status", 0, self._fonts_state)
            )

    def _printed(self, path: str, ok: bool) -> None:
        self._finish(bool(ok) and Path(path).is_file())

    def _finish(self, ok: bool) -> None:
        if self._done is not None:
            self._done(ok)
        self.finished.emit(ok, str(self._path))
        if self._page is not None:
            self._page.deleteLater()
            self._page = None


def _file_urls_to_scheme(resolver: ImageResolver | None, images: Any) -> ImageResolver | None:
    if resolver is None:
        return None
    from urllib.parse import unquote, urlsplit

    def resolve(src: str) -> str | None:
        url = resolver(src)
        if url and url.startswith("file:"):
            p = Path(unquote(urlsplit(url).path))
            return images.url_for(p) if p.is_file() else None
        return url

    return resolve


def export_pdf_blocking(
    text: str,
    path: Path,
    *,
    style: SiteStyle | None = None,
    paper: str | None = None,
    image_resolver: ImageResolver | None = None,
    timeout_s: float = 60.0,
) -> bool:
    """Export and wait (spins a local event loop). True when the PDF was written."""
    loop = QEventLoop()
    result: list[bool] = []
    exporter = PdfExporter()

    def done(ok: bool) -> None:
        result.append(ok)
        loop.quit()

    exporter.export(text, path, style=style, paper=paper, image_resolver=image_resolver, done=done)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    if not result:
        loop.exec()
    return bool(result and result[0])
