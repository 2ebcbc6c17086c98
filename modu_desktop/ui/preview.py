"""Live brochure preview: a ``QTextBrowser`` that never touches the network."""

from __future__ import annotations

import base64
import re
from typing import Any

from PySide6.QtCore import QByteArray, QLocale, QTimer, QUrl, Signal
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QTextBrowser, QWidget

from modu_desktop.core.render import ImageResolver, render_preview

DEBOUNCE_MS = 150
_DATA_URL = re.compile(r"^data:(image/[A-Za-z0-9.+-]+)?(;base64)?,(.*)$", re.S)


_WARM_UP_TEXT = (
    "---\ntitle: t\n---\n# h\n\n**b** `c` [l](/x)\n\n- a\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
    "```\ncode\n```\n\n:::hero\ntitle: t\n:::\n"
)
_warmed = False


def _warm_up() -> None:
    global _warmed
    if not _warmed:
        _warmed = True
        render_preview(_WARM_UP_TEXT)


def _korean() -> bool:
    return QLocale().language() == QLocale.Language.Korean


class PreviewPane(QTextBrowser):
    """Renders brochure Markdown with :func:`render_preview`.

    * :meth:`schedule_render` debounces: the last text is rendered ``debounce_ms`` after the
      calls stop (a single-shot timer restarted on every call).
    * :meth:`render_now` renders at once.
    * Re-renders keep the scroll position proportionally.
    * :meth:`loadResource` serves only local files and image data URIs; anything else (http,
      https, ftp, relative names …) is refused, so nothing remote is ever fetched.
    """

    rendered = Signal()  # emitted after each render

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        image_resolver: ImageResolver | None = None,
        theme: str | None = None,
        debounce_ms: int = DEBOUNCE_MS,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("preview")
        self.setOpenExternalLinks(False)
        self.setOpenLinks(False)
        self.setReadOnly(True)
        self.setSearchPaths([])
        self.document().setDocumentMargin(14)
        if _korean():
            self.setAccessibleName("미리보기")
            self.setAccessibleDescription("편집 중인 문서를 사이트와 비슷하게 보여 줍니다")
        else:
            self.setAccessibleName("Preview")
            self.setAccessibleDescription("Shows the document being edited as the site would")
        self._resolver = image_resolver
        self._theme = theme
        self._pending: str | None = None
        self._last_text: str | None = None
        self._last_html: str | None = None
        self.render_count = 0
        self.refused_urls: list[str] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self._render_pending)
        # The first conversion pays for Markdown's set-up (~0.1 s): do it while idle.
        QTimer.singleShot(0, _warm_up)

    # -- configuration -------------------------------------------------------------------------
    def set_image_resolver(self, resolver: ImageResolver | None) -> None:
        self._resolver = resolver
        self._last_html = None  # images may resolve differently now

    def set_theme(self, theme: str | None) -> None:
        """Force a theme (None: use the document's front matter)."""
        self._theme = theme
        if self._last_text is not None:
            self.render_now(self._last_text)

    def debounce_interval(self) -> int:
        return self._timer.interval()

    def is_render_pending(self) -> bool:
        return self._timer.isActive()

    # -- rendering -----------------------------------------------------------------------------
    def schedule_render(self, text: str) -> None:
        self._pending = text
        self._timer.start()  # restarts a running timer: debounce

    def render_now(self, text: str) -> None:
        self._timer.stop()
        self._pending = None
        self._render(text)

    def _render_pending(self) -> None:
        text, self._pending = self._pending, None
        if text is not None:
            self._render(text)

    def _render(self, text: str) -> None:
        html = render_preview(text, theme=self._theme, image_resolver=self._resolver)
        self._last_text = text
        self.render_count += 1
        if html == self._last_html:
            # Nothing visible changed (e.g. trailing spaces): skip Qt's parse and layout.
            self.rendered.emit()
            return
        bar = self.verticalScrollBar()
        maximum = bar.maximum()
        ratio = bar.value() / maximum if maximum > 0 else 0.0
        self.setHtml(html)
        self._last_html = html
        if ratio > 0:
            # Force layout so the new maximum is known, then restore the relative position.
            self.document().documentLayout().documentSize()
            bar.setValue(round(ratio * bar.maximum()))
        self.rendered.emit()

    # -- resources -----------------------------------------------------------------------------
    def loadResource(self, type: int, name: QUrl | str) -> Any:  # noqa: A002 - Qt signature
        """Only ``file:`` URLs and image ``data:`` URLs; never the network."""
        if isinstance(name, str):
            name = QUrl(name)
        scheme = name.scheme().lower()
        if scheme == "file" and name.isLocalFile():
            if int(type) == int(QTextDocument.ResourceType.ImageResource):
                image = QImage(name.toLocalFile())
                if image.isNull():
                    return None
                return self._fit(image)
            return None
        if scheme == "data" and int(type) == int(QTextDocument.ResourceType.ImageResource):
            m = _DATA_URL.match(name.toString())
            if m and m.group(2):
                try:
                    raw = base64.b64decode(m.group(3), validate=False)
                except (ValueError, TypeError):
                    return None
                image = QImage.fromData(QByteArray(raw))
                return None if image.isNull() else self._fit(image)
            return None
        self.refused_urls.append(name.toString())
        return None

    def _fit(self, image: QImage) -> QImage:
        """Scale large images down to the viewport width."""
        max_w = max(200, self.viewport().width() - 40)
        if image.width() > max_w:
            from PySide6.QtCore import Qt

            return image.scaledToWidth(max_w, Qt.TransformationMode.SmoothTransformation)
        return image
