"""Live brochure preview: the site's page in Qt WebEngine, offline and locked down.

:class:`PreviewPane` keeps the interface of the earlier ``QTextBrowser`` preview
(``schedule_render``, ``render_now``, ``set_image_resolver``, ``rendered``,
``render_count``, ``debounce_interval``, ``is_render_pending``) and adds:

* ``set_site_style(style)`` / ``set_site_source(store, spawn)`` — the repository's own
  stylesheets and palettes (:mod:`modu_desktop.core.preview.site_style`); until one is given,
  our built-in stylesheet is used;
* ``export_pdf(path, paper=None)`` — the current document with the site's print rules;
* ``blocked_requests`` — what the request interceptor refused (it refuses every network URL).

The ``QWebEngineView`` is created lazily, at the first render, so start-up never pays for it.
The first render loads a page; later edits update only the segments whose HTML changed (our
page code ``resources/preview/preview.js``), so the scroll position stays where it is. A new
site style or a change of theme keeps the page and changes the ``<html>`` attributes, or
reloads it (style) and restores the scroll position.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QStackedLayout, QToolButton, QWidget

from modu_desktop.core.account.paths import resources_dir
from modu_desktop.core.preview import (
    ImageResolver,
    RenderedDoc,
    SiteStyle,
    build_page,
    default_style,
    render_document,
)
from modu_desktop.i18n import tr

log = logging.getLogger(__name__)

DEBOUNCE_MS = 60  # + render and patch: the preview is up to date < 150 ms after typing stops
# The page is laid out at least this wide (CSS px) and scaled down to a narrower pane, as a
# phone shows it, rather than squeezed until Korean words break across lines.
MIN_PAGE_PX = 480
ZOOM_STEPS = (0.5, 0.67, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0)


class ZoomBar(QWidget):
    """The preview's own zoom, on screen: − 100% + (the percentage resets to 100%)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("previewZoomBar")
        self.setAutoFillBackground(True)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.setSpacing(2)
        self.out_button = QToolButton(self)
        self.out_button.setObjectName("previewZoomOut")
        self.out_button.setText("−")
        self.out_button.setAccessibleName(tr("Preview smaller"))
        self.out_button.setToolTip(tr("Preview smaller (Ctrl + mouse wheel)"))
        self.label = QToolButton(self)
        self.label.setObjectName("previewZoomLevel")
        self.label.setAutoRaise(True)
        self.label.setToolTip(tr("Preview zoom; click for 100%"))
        self.in_button = QToolButton(self)
        self.in_button.setObjectName("previewZoomIn")
        self.in_button.setText("+")
        self.in_button.setAccessibleName(tr("Preview bigger"))
        self.in_button.setToolTip(tr("Preview bigger (Ctrl + mouse wheel)"))
        for w in (self.out_button, self.label, self.in_button):
            lay.addWidget(w)

    def show_zoom(self, user: float, fitted: bool) -> None:
        self.label.setText(f"{round(user * 100)}%")
        self.label.setAccessibleName(tr("Preview {percent}%", percent=round(user * 100)))
        note = tr("The page is made smaller to fit this narrow pane.") if fitted else ""
        self.setToolTip(note)
        self.adjustSize()


def _page_script() -> str:
    return (resources_dir() / "preview" / "preview.js").read_text("utf-8")


class PreviewPane(QWidget):
    """Renders brochure Markdown as the site does, in a lazily created ``QWebEngineView``."""

    rendered = Signal()  # after each render is on screen (page loaded or segments patched)
    zoomChanged = Signal(float)  # the user's own zoom of the preview (1.0 = 100%)
    notice = Signal(str)  # a sentence for the status bar (e.g. software rendering), once
    blockActivated = Signal(int)  # a block was double-clicked: its opening line in the text

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        image_resolver: ImageResolver | None = None,
        theme: str | None = None,
        debounce_ms: int = DEBOUNCE_MS,
        style: SiteStyle | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("preview")
        self.setAccessibleName(tr("Preview"))
        self.setAccessibleDescription(tr("Shows the document being edited as the site will"))
        self._stack = QStackedLayout(self)
        self._stack.setContentsMargins(0, 0, 0, 0)
        self._placeholder = QLabel(tr("Open a document to see its preview here."), self)
        self._placeholder.setWordWrap(True)
        self._placeholder.setObjectName("previewPlaceholder")
        self._stack.addWidget(self._placeholder)
        self._resolver = image_resolver
        self._theme = theme
        self._style: SiteStyle = style or default_style()
        self._view: Any = None
        self._page: Any = None
        self._loaded = False
        self._loading = False
        self._doc: RenderedDoc | None = None  # what the page shows (or is loading)
        self._shown_attrs: dict[str, str] = {}
        self._pending: str | None = None
        self._last_text: str | None = None
        self._queued_after_load: str | None = None
        self._scroll_y: float = 0.0
        self._followed: tuple[int, int] | None = None  # the segment and part last followed
        self._in_flight = 0
        self.render_count = 0
        self.load_count = 0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self._render_pending)
        self._style_task: Any = None
        self._user_zoom = 1.0
        self.zoom_bar = ZoomBar(self)
        self.zoom_bar.out_button.clicked.connect(lambda: self.step_zoom(-1))
        self.zoom_bar.in_button.clicked.connect(lambda: self.step_zoom(1))
        self.zoom_bar.label.clicked.connect(lambda: self.set_user_zoom(1.0))
        self.zoom_bar.hide()  # shown with the page
        self._show_zoom()

    # -- zoom ----------------------------------------------------------------------------------
    def user_zoom(self) -> float:
        return self._user_zoom

    def fit_factor(self) -> float:
        """How much the page is scaled down to fit the pane (1.0: it fits as it is)."""
        width = max(1, self.width())
        return min(1.0, width / MIN_PAGE_PX)

    def effective_zoom(self) -> float:
        return max(0.25, min(5.0, self._user_zoom * self.fit_factor()))

    def set_user_zoom(self, zoom: float, *, announce: bool = True) -> None:
        zoom = max(ZOOM_STEPS[0], min(ZOOM_STEPS[-1], float(zoom)))
        changed = abs(zoom - self._user_zoom) > 1e-6
        self._user_zoom = zoom
        self._apply_zoom()
        if changed and announce:
            self.zoomChanged.emit(zoom)

    def step_zoom(self, direction: int) -> None:
        z = self._user_zoom
        if direction > 0:
            self.set_user_zoom(next((s for s in ZOOM_STEPS if s > z + 1e-6), ZOOM_STEPS[-1]))
        else:
            self.set_user_zoom(
                next((s for s in reversed(ZOOM_STEPS) if s < z - 1e-6), ZOOM_STEPS[0])
            )

    def _apply_zoom(self) -> None:
        self._show_zoom()
        if self._page is None:
            return
        self._page.setZoomFactor(self.effective_zoom())

    def _show_zoom(self) -> None:
        self.zoom_bar.show_zoom(self._user_zoom, self.fit_factor() < 1.0)
        self._place_zoom_bar()

    def _place_zoom_bar(self) -> None:
        bar = self.zoom_bar
        bar.adjustSize()
        bar.move(max(0, self.width() - bar.width() - 18), max(0, self.height() - bar.height() - 6))
        bar.raise_()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._apply_zoom()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        kind = event.type()
        if kind == QEvent.Type.ChildAdded and obj is self._view:
            child = event.child()  # type: ignore[attr-defined]
            if isinstance(child, QWidget):
                child.installEventFilter(self)  # Chromium's widget gets the wheel
        elif (
            kind == QEvent.Type.Wheel
            and isinstance(event, QWheelEvent)
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            delta = event.angleDelta().y()
            if delta:
                self.step_zoom(1 if delta > 0 else -1)
            return True  # our zoom, shown and remembered, not Chromium's silent one
        return super().eventFilter(obj, event)

    # -- configuration -------------------------------------------------------------------------
    def set_image_resolver(self, resolver: ImageResolver | None) -> None:
        self._resolver = resolver  # pictures may resolve differently now: the next render
        # re-renders every segment and the page patches those whose HTML changed

    def set_site_style(self, style: SiteStyle | None) -> None:
        """Apply a site style (None: our built-in one); the page reloads, keeping its scroll."""
        style = style or default_style()
        if style is self._style:
            return
        self._style = style
        self._loaded = False  # the next render loads a whole page
        if self._last_text is not None:
            self.render_now(self._last_text)

    def site_style(self) -> SiteStyle:
        return self._style

    def set_site_source(self, store: Any, spawn: Callable[[Any], Any]) -> None:
        """Read the site style of ``store``'s branch (git database, cached) in the background."""
        from modu_desktop.core.preview import load_site_style

        async def load() -> None:
            try:
                style = await load_site_style(store)
            except Exception as exc:  # offline, no rights …: keep what we have
                log.info("preview style not read: %s", exc)
                return
            self.set_site_style(style)

        self._style_task = spawn(load())

    def debounce_interval(self) -> int:
        return self._timer.interval()

    def is_render_pending(self) -> bool:
        return self._timer.isActive() or self._in_flight > 0 or self._loading

    @property
    def view(self) -> Any:
        """The ``QWebEngineView`` (None until the first render)."""
        return self._view

    @property
    def blocked_requests(self) -> list[str]:
        if self._view is None:
            return []
        from modu_desktop.ui.preview.engine import preview_profile

        return list(preview_profile().interceptor.blocked_urls)

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

    def _ensure_view(self) -> None:
        if self._view is not None:
            return
        from PySide6.QtWebEngineWidgets import QWebEngineView

        from modu_desktop.ui.preview import engine

        t0 = time.perf_counter()
        engine.prepare_engine()
        self._view = QWebEngineView(self)
        self._view.installEventFilter(self)
        for child in self._view.findChildren(QWidget):
            child.installEventFilter(self)
        self._page = engine.new_page(self._view, on_activate=self._on_activate)
        self._view.setPage(self._page)
        self._view.setContextMenuPolicy(self._view.contextMenuPolicy().NoContextMenu)
        self._view.setAccessibleName(tr("Preview"))
        self._page.loadFinished.connect(self._on_load_finished)
        self._page.renderProcessTerminated.connect(self._on_render_crash)
        self._stack.addWidget(self._view)
        self._stack.setCurrentWidget(self._view)
        self.zoom_bar.show()
        self._apply_zoom()
        log.info("preview view created in %.0f ms", (time.perf_counter() - t0) * 1000)
        message = engine.software_notice()
        if message:
            QTimer.singleShot(0, lambda: self.notice.emit(message))

    def _wrapped_resolver(self) -> ImageResolver | None:
        resolver = self._resolver
        if resolver is None:
            return None
        from modu_desktop.ui.preview.engine import preview_profile

        images = preview_profile().images

        def resolve(src: str) -> str | None:
            url = resolver(src)
            if not url:
                return None
            if url.startswith("file:"):
                path = Path(unquote(urlsplit(url).path))
                if path.is_file():
                    return images.url_for(path)
                return None
            return url

        return resolve

    def _render(self, text: str) -> None:
        self._ensure_view()
        self._last_text = text
        if self._loading:
            self._queued_after_load = text  # apply once the page is there
            return
        doc = render_document(
            text, style=self._style, theme=self._theme, image_resolver=self._wrapped_resolver()
        )
        self.render_count += 1
        if not self._loaded or self._doc is None:
            self._load_page(doc)
            return
        old = self._doc
        attrs = doc.root_attrs(self._style)
        js_parts = []
        if attrs != self._shown_attrs:
            js_parts.append(f"modu.setRoot({json.dumps(attrs)});")
        if doc.keys != old.keys:
            known = set(old.keys)
            fresh = {s.key: s.html for s in doc.segments if s.key not in known}
            js_parts.append(f"modu.patch({json.dumps(doc.keys)}, {json.dumps(fresh)});")
        self._doc = doc
        self._shown_attrs = attrs
        if not js_parts:
            self.rendered.emit()
            return
        self._in_flight += 1

        def done(_result: Any) -> None:
            self._in_flight -= 1
            # WebEngine answers a patch still running when the window closes while the pane
            # and its listeners are being taken down: nobody is left to tell then
            with contextlib.suppress(RuntimeError, TypeError):
                self.rendered.emit()

        self._page.runJavaScript("".join(js_parts) + "0;", 0, done)

    def _load_page(self, doc: RenderedDoc) -> None:
        from modu_desktop.ui.preview.engine import csp, preview_profile

        nonce = secrets.token_urlsafe(12)
        page_html = build_page(
            doc, self._style, script=_page_script(), nonce=nonce, csp=csp(nonce), live=True
        )
        url = preview_profile().pages.put(page_html)
        self._doc = doc
        self._shown_attrs = doc.root_attrs(self._style)
        self._loading = True
        self.load_count += 1
        if self._loaded_once:
            # Keep the reader's place across the reload.
            self._page.runJavaScript(
                "window.modu ? window.modu.scrollState().y : 0", 0, self._remember_scroll
            )
        self._page.load(url)

    _loaded_once = False

    def _remember_scroll(self, y: Any) -> None:
        if isinstance(y, int | float):
            self._scroll_y = float(y)

    def _on_load_finished(self, ok: bool) -> None:
        self._loading = False
        self._apply_zoom()  # a new page starts at Chromium's zoom: ours again
        self._loaded = bool(ok)
        first = not self._loaded_once
        self._loaded_once = True
        if not ok:
            log.info("preview page did not load")
        elif not first and self._scroll_y > 0:
            self._page.runJavaScript(f"modu.restoreScroll({self._scroll_y:.0f})")
        queued, self._queued_after_load = self._queued_after_load, None
        if queued is not None and ok:
            self._render(queued)
            return
        self.rendered.emit()

    def _on_render_crash(self, status: Any, code: int) -> None:
        from PySide6.QtWebEngineCore import QWebEnginePage

        from modu_desktop.ui.preview import engine

        if status == QWebEnginePage.RenderProcessTerminationStatus.CrashedTerminationStatus:
            engine.remember_gpu_failure()
            self.notice.emit(
                tr("The preview stopped unexpectedly; it will use software rendering next time.")
            )
        self._loaded = False
        self._loading = False
        if self._last_text is not None:
            QTimer.singleShot(500, lambda: self.render_now(self._last_text or ""))

    # -- following the editor ------------------------------------------------------------------
    def scroll_to_line(self, line: int) -> bool:
        """Bring the block that opens on ``line`` of the text to the top of the view. False
        when no block of the shown page opens there (or the page is not shown yet)."""
        doc = self._doc
        if doc is None or not self._loaded or self._page is None:
            return False
        index = next((i for i, s in enumerate(doc.segments) if s.line == line), None)
        if index is None:
            return False
        self._followed = None  # a block now: the next paragraph is followed again
        self._page.runJavaScript(f"modu.scrollToSegment({index});")
        return True

    def follow_line(self, line: int) -> bool:
        """Bring the part of the page made from ``line`` of the text into view: its block, or
        its paragraph within the Markdown around it. Once per part: moving the cursor inside
        the same paragraph leaves the view where the reader put it. False when nothing was
        scrolled."""
        doc = self._doc
        if doc is None or not self._loaded or self._page is None:
            return False
        found = None
        for i, seg in enumerate(doc.segments):
            if 0 <= seg.start <= line:
                found = i
        if found is None:
            return False
        seg = doc.segments[found]
        part = 0
        if seg.chunks:
            part = max((k for k, c in enumerate(seg.chunks) if c <= line), default=0)
        target = (found, part)
        if target == self._followed:
            return False
        self._followed = target
        if seg.chunks:
            self._page.runJavaScript(f"modu.scrollToSegment({found}, {part}, {len(seg.chunks)});")
        else:
            self._page.runJavaScript(f"modu.scrollToSegment({found});")
        return True

    def _on_activate(self, index: int) -> None:
        doc = self._doc
        if doc is not None and 0 <= index < len(doc.segments) and doc.segments[index].line >= 0:
            self.blockActivated.emit(doc.segments[index].line)

    # -- reading back (tests, tools) ------------------------------------------------------------
    def run_js(self, script: str, callback: Callable[[Any], None]) -> None:
        if self._page is None:
            callback(None)
            return
        self._page.runJavaScript(script, 0, callback)

    def current_doc(self) -> RenderedDoc | None:
        return self._doc

    # -- PDF -------------------------------------------------------------------------------------
    def export_pdf(
        self,
        path: str | Path,
        *,
        paper: str | None = None,
        done: Callable[[bool], None] | None = None,
    ) -> None:
        """Write the current document to ``path`` as PDF (site print rules, paper from layout)."""
        from modu_desktop.ui.preview.pdf import PdfExporter

        text = self._last_text or ""
        exporter = PdfExporter(self)
        exporter.export(
            text,
            Path(path),
            style=self._style,
            theme=self._theme,
            paper=paper,
            image_resolver=self._resolver,
            done=done,
        )
