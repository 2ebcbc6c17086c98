"""Qt WebEngine for the preview and PDF export: start-up flags, URL schemes, a locked-down profile.

* :func:`register_schemes` — our URL schemes, before the first WebEngine object (Qt locks its
  scheme registry when its context starts, at the first profile or page; the ~40 ms import of
  QtWebEngineCore stays off the first paint). `prepare_engine` and the profile call it.
* :func:`prepare_engine` — before the first WebEngine object: decides software rendering
  (no usable OpenGL, an offscreen platform, a GPU crash seen before, or
  ``MODU_PREVIEW_SOFTWARE=1``) and adds ``--disable-gpu`` to Chromium's flags. Says so once.
* :func:`preview_profile` — one off-the-record profile shared by every preview page:
  ``modu-page:`` serves the pages we build and the fonts we ship, ``modu-img:`` only
  the local pictures the image resolver handed out; every other request (http, https, file,
  ftp, ws …) is blocked by a :class:`BlockingInterceptor`, which counts what it blocked.
* :class:`PreviewPage` — a ``QWebEnginePage`` that never navigates away from our page and runs
  only the script we put in it (a nonce-based Content-Security-Policy).
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, QUrl, Signal

from modu_desktop.core.preview.fonts import FONT_MIME, font_file

log = logging.getLogger(__name__)

SCHEMES = (b"modu-page", b"modu-img")
ALLOWED_SCHEMES = frozenset({"modu-page", "modu-img", "data", "about", "blob"})
# The shipped fonts are served under modu-page:/res/fonts/… (same origin as the page, so they
# load without CORS).
_FONT_PREFIX = "/res/fonts/"
_MIME = {
    ".png": b"image/png",
    ".jpg": b"image/jpeg",
    ".jpeg": b"image/jpeg",
    ".gif": b"image/gif",
    ".webp": b"image/webp",
    ".svg": b"image/svg+xml",
    ".bmp": b"image/bmp",
    ".ico": b"image/x-icon",
}

_registered = False
_software: bool | None = None
_notice_said = False
_lock = threading.Lock()


def register_schemes() -> None:
    """Register our schemes with WebEngine's URL parser, before the first WebEngine object."""
    global _registered
    if _registered:
        return
    from PySide6.QtWebEngineCore import QWebEngineUrlScheme

    for name in SCHEMES:
        scheme = QWebEngineUrlScheme(name)
        scheme.setSyntax(QWebEngineUrlScheme.Syntax.Path)
        scheme.setFlags(
            QWebEngineUrlScheme.Flag.SecureScheme | QWebEngineUrlScheme.Flag.CorsEnabled
        )
        QWebEngineUrlScheme.registerScheme(scheme)
    _registered = True


def _gpu_marker() -> Path:
    from modu_desktop.core.account.paths import app_paths

    return Path(app_paths().cache_dir) / "webengine-gpu-failed"


def _opengl_usable() -> bool:
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform.startswith(("offscreen", "minimal", "vnc")):
        return False
    try:
        from PySide6.QtGui import QOffscreenSurface, QOpenGLContext

        ctx = QOpenGLContext()
        if not ctx.create():
            return False
        surface = QOffscreenSurface()
        surface.create()
        ok = ctx.makeCurrent(surface)
        ctx.doneCurrent()
        return bool(ok)
    except Exception:
        return False


def prepare_engine() -> bool:
    """Choose GPU or software rendering before the first WebEngine object. True = software."""
    global _software
    register_schemes()
    if _software is not None:
        return _software
    reason = ""
    if os.environ.get("MODU_PREVIEW_SOFTWARE") == "1":
        reason = "MODU_PREVIEW_SOFTWARE=1"
    else:
        try:
            if _gpu_marker().exists():
                reason = "the graphics driver failed before"
        except Exception:
            pass
        if not reason and not _opengl_usable():
            reason = "no usable OpenGL"
    _software = bool(reason)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # Chromium refuses to start its sandbox as root (a Linux kiosk, a container, CI): the
        # preview would abort the whole app. Our page runs only our own script and no network.
        os.environ["QTWEBENGINE_DISABLE_SANDBOX"] = "1"
        log.info("preview: Chromium sandbox off (running as root)")
    if _software:
        flags = os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
        if "--disable-gpu" not in flags.split():
            os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = (flags + " --disable-gpu").strip()
        log.info("preview: software rendering (%s)", reason)
    return _software


def software_notice() -> str | None:
    """The once-only sentence about software rendering (None if not needed or already said)."""
    global _notice_said
    if not _software or _notice_said:
        return None
    _notice_said = True
    from modu_desktop.i18n import tr

    return tr("The preview uses software rendering (the graphics card could not be used).")


def remember_gpu_failure() -> None:
    """The renderer crashed: use software rendering from the next start on."""
    try:
        marker = _gpu_marker()
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text("renderer crashed\n", "utf-8")
    except OSError:
        pass


# ------------------------------------------------------------------------------ the profile


class _Pages:
    """The pages built for ``modu-page:`` (id → HTML bytes), a few at a time."""

    def __init__(self) -> None:
        self._pages: dict[str, bytes] = {}

    def put(self, html: str) -> QUrl:
        key = secrets.token_hex(8)
        self._pages[key] = html.encode("utf-8")
        while len(self._pages) > 8:
            self._pages.pop(next(iter(self._pages)))
        return QUrl(f"modu-page:/{key}.html")

    def get(self, path: str) -> bytes | None:
        return self._pages.get(path.strip("/").removesuffix(".html"))


class _Images:
    """Local pictures the resolver handed out (token → path); nothing else is served."""

    def __init__(self) -> None:
        self._files: dict[str, Path] = {}

    def url_for(self, path: Path) -> str:
        token = hashlib.blake2b(str(path).encode(), digest_size=10).hexdigest()
        self._files[token] = path
        return f"modu-img:/{token}/{path.name}"

    def get(self, path: str) -> Path | None:
        token = path.strip("/").split("/", 1)[0]
        return self._files.get(token)


def _new_handler(pages: _Pages, images: _Images) -> Any:
    from PySide6.QtWebEngineCore import QWebEngineUrlRequestJob, QWebEngineUrlSchemeHandler

    class Handler(QWebEngineUrlSchemeHandler):
        def requestStarted(self, job: QWebEngineUrlRequestJob) -> None:  # noqa: N802 - Qt
            url = job.requestUrl()
            scheme, path = url.scheme(), url.path()
            data: bytes | None = None
            mime = b"application/octet-stream"
            if scheme == "modu-page" and path.startswith(_FONT_PREFIX):
                font = font_file(path[len(_FONT_PREFIX) :])
                if font is not None:
                    data = _read(font)
                    mime = FONT_MIME[font.suffix].encode()
            elif scheme == "modu-page":
                data, mime = pages.get(path), b"text/html;charset=utf-8"
            elif scheme == "modu-img":
                file = images.get(path)
                if file is not None:
                    data = _read(file)
                    mime = _MIME.get(file.suffix.lower(), mime)
            if data is None:
                job.fail(QWebEngineUrlRequestJob.Error.UrlNotFound)
                return
            buf = QBuffer(parent=job)
            buf.setData(QByteArray(data))
            buf.open(QIODevice.OpenModeFlag.ReadOnly)
            job.reply(mime, buf)

    return Handler()


_file_cache: dict[Path, bytes] = {}


def _read(path: Path) -> bytes | None:
    hit = _file_cache.get(path)
    if hit is not None:
        return hit
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if path.suffix in FONT_MIME:
        _file_cache[path] = data  # fonts are asked for by every page
    return data


class BlockingInterceptor(QObject):
    """Holds the profile's request interceptor; counts and lists what it blocked."""

    blocked = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        from PySide6.QtWebEngineCore import QWebEngineUrlRequestInterceptor

        owner = self

        class Interceptor(QWebEngineUrlRequestInterceptor):
            def interceptRequest(self, info: Any) -> None:  # noqa: N802 - Qt signature
                url = info.requestUrl()
                if url.scheme().lower() in ALLOWED_SCHEMES:
                    return
                info.block(True)
                owner._note(url.toString())

        self.interceptor = Interceptor()
        self.blocked_urls: list[str] = []

    @property
    def count(self) -> int:
        return len(self.blocked_urls)

    def _note(self, url: str) -> None:
        self.blocked_urls.append(url)
        if len(self.blocked_urls) > 1000:
            del self.blocked_urls[:500]
        log.debug("preview blocked %s", url[:200])
        self.blocked.emit(url)


class PreviewProfile:
    def __init__(self) -> None:
        from PySide6.QtWebEngineCore import QWebEngineProfile, QWebEngineSettings

        register_schemes()
        prepare_engine()
        self.profile = QWebEngineProfile()  # off the record: nothing on disk
        self.profile.setHttpCacheType(QWebEngineProfile.HttpCacheType.MemoryHttpCache)
        self.profile.setPersistentCookiesPolicy(
            QWebEngineProfile.PersistentCookiesPolicy.NoPersistentCookies
        )
        self.pages = _Pages()
        self.images = _Images()
        self.handler = _new_handler(self.pages, self.images)
        for name in SCHEMES:
            self.profile.installUrlSchemeHandler(QByteArray(name), self.handler)
        self.interceptor = BlockingInterceptor()
        self.profile.setUrlRequestInterceptor(self.interceptor.interceptor)
        s = self.profile.settings()
        A = QWebEngineSettings.WebAttribute
        for attr, on in (
            (A.JavascriptEnabled, True),  # our page code only (CSP nonce)
            (A.JavascriptCanOpenWindows, False),
            (A.JavascriptCanAccessClipboard, False),
            (A.LocalContentCanAccessRemoteUrls, False),
            (A.LocalContentCanAccessFileUrls, False),
            (A.LocalStorageEnabled, False),
            (A.PluginsEnabled, False),
            (A.PdfViewerEnabled, False),
            (A.ErrorPageEnabled, False),
            (A.AutoLoadIconsForPage, False),
            (A.NavigateOnDropEnabled, False),
            (A.WebGLEnabled, False),
            (A.ScreenCaptureEnabled, False),
            (A.DnsPrefetchEnabled, False),
        ):
            s.setAttribute(attr, on)
        s.setFontFamily(QWebEngineSettings.FontFamily.SansSerifFont, "Pretendard")
        s.setFontFamily(QWebEngineSettings.FontFamily.StandardFont, "Pretendard")


_profile: PreviewProfile | None = None


def preview_profile() -> PreviewProfile:
    global _profile
    if _profile is None:
        _profile = PreviewProfile()
    return _profile


ACTIVATE_PREFIX = "modu:activate:"


def new_page(
    parent: QObject | None = None, on_activate: Callable[[int], None] | None = None
) -> Any:
    """A :class:`PreviewPage` on the shared profile. ``on_activate(segment_index)`` hears the
    page script's double-click reports (console messages ``modu:activate:N``)."""
    from PySide6.QtWebEngineCore import QWebEnginePage

    class PreviewPage(QWebEnginePage):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            self.refused: list[str] = []  # the last navigations refused (what a click tried)

        def acceptNavigationRequest(  # noqa: N802 - Qt signature
            self, url: QUrl | str, nav_type: Any, _is_main: bool
        ) -> bool:
            # Our own page loads (modu-page:) only; a click on a link never leaves the preview.
            url = QUrl(url) if isinstance(url, str) else url
            ok = (
                url.scheme() == "modu-page"
                and nav_type != QWebEnginePage.NavigationType.NavigationTypeLinkClicked
            )
            if not ok:
                self.refused = [*self.refused[-19:], url.toString()]
            return ok

        def createWindow(self, _type: Any) -> Any:  # noqa: N802 - Qt signature
            return None

        def javaScriptConsoleMessage(
            self, level: Any, message: str, line: int, source: str
        ) -> None:  # noqa: N802
            if on_activate is not None and message.startswith(ACTIVATE_PREFIX):
                index = message[len(ACTIVATE_PREFIX) :]
                if index.isdigit():
                    on_activate(int(index))
                    return
            log.debug("preview js: %s (%s:%d)", message, source, line)

    return PreviewPage(preview_profile().profile, parent)


def csp(nonce: str) -> str:
    """Our page's policy: scripts only with our nonce; everything else goes to the interceptor."""
    return f"script-src 'nonce-{nonce}'; object-src 'none'; base-uri 'none'"
