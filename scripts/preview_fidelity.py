"""How close is our preview to the real site? Per-document SSIM, side-by-side PNGs.

    uv run python scripts/preview_fidelity.py --site PATH [--docs 01-intro,02-part-2]
        [--width 900,1280] [--out DIR] [--no-build] [--json FILE] [--markdown FILE]
        [--fonts DIR]

``PATH`` is a checkout of the site with its dependencies installed (``npm ci``; the tests get
one from ``tests/helpers/nodetools.site_checkout()``). The tool runs ``npm run build`` there (unless
``--no-build``), serves ``build/`` on 127.0.0.1, and renders each document's page with the same
engine our preview uses (Qt WebEngine), at each width, with CSS animations and transitions off
and scroll bars hidden, in a viewport as tall as the page. Our preview of the same document
(the site's own stylesheets and palettes read from ``PATH``) is rendered the same way. Both
renders are cropped to the content area (``.theme-doc-markdown``), scaled to 600 px wide,
turned to grayscale, cut to the overlapping height and compared with SSIM (scikit-image). A
tile is grabbed once no font of the page is loading and the picture has stopped changing and
is still the same 3 s later (a busy machine delivers software-rendered frames late); the
site's floating parts are hidden again before each tile, and a capture whose content area
moved meanwhile starts again.

Fonts: the site page gets its own fonts, not ours. Its requests to the font CDNs it names
(Google Fonts' ``css2`` API, jsDelivr for Pretendard and GmarketSans) are redirected to this
tool's server, which answers with the same files at the same versions: Google Fonts' CSS and
files as the ``@fontsource`` npm packages carry them (static weights, per-slice
``unicode-range``), Pretendard from the ``pretendard`` npm package, GmarketSans from the copy we
ship (no registry carries it). The packages are pinned in ``scripts/fidelity-fonts/`` and
installed with ``npm ci`` into ``--fonts`` (default: a cache folder) on first use. Our preview
uses only the fonts it ships. Every other request of the site page beyond 127.0.0.1 is blocked
and counted.

Output: ``DIR/<doc>-<width>-side-by-side.png`` (ours | site), a table on stdout (and
``--markdown``), and ``--json`` with the numbers. Exit status 0, or 2 for usage errors.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SCALE_WIDTH = 600
STILL = 5  # identical grabs in a row (0.4 s apart) that count as a finished picture
CONFIRM = 3.0  # seconds after which the finished picture must still be the same
STILL_TIMEOUT = 180  # seconds a tile may take to stop changing before the measurement gives up
TILE = 6000  # viewport height while capturing (px); taller pages are grabbed in tiles
FONT_WAIT = 120  # seconds a page's fonts may take to load before the measurement gives up
FONTS_PACKAGE = ROOT / "scripts" / "fidelity-fonts"
CDN_PREFIX = "/__cdn__/"  # our server's path for what the site page asked a font CDN for
FONT_CDN_HOSTS = ("fonts.googleapis.com", "fonts.gstatic.com", "cdn.jsdelivr.net")


# ------------------------------------------------------------------------------ the site's fonts


def install_font_packages(into: Path) -> Path:
    """``npm ci`` of the pinned font packages into ``into`` (once); its ``node_modules``."""
    lock = (FONTS_PACKAGE / "package-lock.json").read_bytes()
    modules = into / "node_modules"
    installed = into / "package-lock.json"
    if modules.is_dir() and installed.is_file() and installed.read_bytes() == lock:
        return modules
    into.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        (into / name).write_bytes((FONTS_PACKAGE / name).read_bytes())
    done = subprocess.run(
        ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
        cwd=into,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode != 0:
        raise SystemExit(f"npm ci of the font packages failed in {into}:\n{done.stderr[-3000:]}")
    return modules


class SiteFonts:
    """Answers the site page's font-CDN requests from local files (None: not one we carry)."""

    def __init__(self, modules: Path) -> None:
        from modu_desktop.core.preview.fonts import FONTS_DIR

        self.modules = modules
        self.gmarket = FONTS_DIR / "gmarket-sans"
        pretendard = json.loads((modules / "pretendard" / "package.json").read_text("utf-8"))
        self.pretendard_tag = "v" + pretendard["version"]

    def google_css(self, query: str) -> bytes | None:
        """Google Fonts' ``css2`` answer for a Chromium browser, from the fontsource package
        of each family: its per-weight CSS (same slices, ranges and ``font-display``)."""
        from urllib.parse import parse_qs

        params = parse_qs(query)
        out = []
        for spec in params.get("family", []):
            name, _, axes = spec.partition(":")
            slug = name.strip().lower().replace(" ", "-")
            weights = axes.split("@", 1)[1].split(";") if "@" in axes else ["400"]
            package = self.modules / "@fontsource" / slug
            for weight in weights:
                sheet = package / f"{weight}.css"
                if not sheet.is_file():
                    return None
                css = sheet.read_text("utf-8")
                display = params.get("display", ["auto"])[0]
                css = css.replace("font-display: swap;", f"font-display: {display};")
                out.append(css.replace("url(./files/", f"url({CDN_PREFIX}fontsource/{slug}/files/"))
        return "\n".join(out).encode() if out else None

    def file(self, host: str, path: str) -> Path | None:
        parts = path.strip("/").split("/")
        if host == "fontsource" and len(parts) == 3 and parts[1] == "files":
            return self._inside(self.modules / "@fontsource" / parts[0], "/".join(parts[1:]))
        if host == "cdn.jsdelivr.net" and parts[:3] == [
            "gh",
            "orioncactus",
            f"pretendard@{self.pretendard_tag}",
        ]:
            return self._inside(self.modules / "pretendard", "/".join(parts[3:]))
        if host == "cdn.jsdelivr.net" and parts[:3] == ["gh", "projectnoonnu", "noonfonts_one@1.0"]:
            return self._inside(self.gmarket, "/".join(parts[3:]))
        return None

    @staticmethod
    def _inside(root: Path, rel: str) -> Path | None:
        candidate = (root / rel).resolve()
        return candidate if root.resolve() in candidate.parents and candidate.is_file() else None


_TYPES = {".css": "text/css", ".woff2": "font/woff2", ".woff": "font/woff", ".ttf": "font/ttf"}


# ------------------------------------------------------------------------------ site server


class _Handler(SimpleHTTPRequestHandler):
    fonts: SiteFonts | None = None
    served: list[str] = []
    missing: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - http.server API
        if self.path.startswith(CDN_PREFIX):
            self._cdn(self.path[len(CDN_PREFIX) :])
            return
        super().do_GET()

    def _cdn(self, rest: str) -> None:
        from urllib.parse import unquote

        host, _, path = rest.partition("/")
        path, _, query = path.partition("?")
        body: bytes | None = None
        kind = "application/octet-stream"
        assert self.fonts is not None
        if host == "fonts.googleapis.com" and path == "css2":
            body, kind = self.fonts.google_css(query), "text/css"
        else:
            found = self.fonts.file(host, unquote("/" + path))
            if found is not None:
                body, kind = found.read_bytes(), _TYPES.get(found.suffix, kind)
        if body is None:
            self.missing.append(rest)
            self.send_error(404)
            return
        self.served.append(rest)
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Access-Control-Allow-Origin", "*")  # fonts are fetched in CORS mode
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


def serve(build: Path, fonts: SiteFonts) -> tuple[ThreadingHTTPServer, str]:
    _Handler.fonts = fonts
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, directory=str(build)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def build_site(site: Path) -> None:
    done = subprocess.run(
        ["npm", "run", "build"], cwd=site, capture_output=True, text=True, timeout=900
    )
    if done.returncode != 0:
        raise SystemExit(f"npm run build failed in {site}:\n{done.stderr[-3000:]}")


def doc_route(site: Path, doc_file: Path) -> str:
    """The site URL path of a document (front matter ``id`` or the file name)."""
    from modu_desktop.core.brochure.blocks import split_front_matter

    fm, _ = split_front_matter(doc_file.read_text("utf-8"))
    return "/docs/" + (fm.values.get("id") or doc_file.stem)


# ------------------------------------------------------------------------------ rendering


class Renderer:
    """Loads a page in a view as tall as the page; returns the content area as a QImage."""

    def __init__(self, width: int, base: str) -> None:
        from PySide6.QtWebEngineCore import QWebEngineProfile, QWebEngineSettings
        from PySide6.QtWebEngineWidgets import QWebEngineView

        from modu_desktop.ui.preview import engine

        self.width = width
        self.base = base
        self.ours_page = engine.new_page()
        self.site_profile = QWebEngineProfile()  # off the record; the site's own JS runs here
        self.site_blocked: list[str] = []
        self._site_interceptor = self._loopback_only()
        self.site_profile.setUrlRequestInterceptor(self._site_interceptor)
        from PySide6.QtWebEngineCore import QWebEnginePage

        self.site_page = QWebEnginePage(self.site_profile)
        for page in (self.ours_page, self.site_page):
            page.settings().setAttribute(QWebEngineSettings.WebAttribute.ShowScrollBars, False)
        self.views = {}
        for page in (self.ours_page, self.site_page):
            view = QWebEngineView()
            view.setPage(page)  # one view per page: never switch pages under a view
            view.resize(width, 900)
            view.show()
            self.views[id(page)] = view

    def _loopback_only(self) -> Any:
        from PySide6.QtCore import QUrl
        from PySide6.QtWebEngineCore import QWebEngineUrlRequestInterceptor

        blocked = self.site_blocked
        base = self.base

        class Interceptor(QWebEngineUrlRequestInterceptor):
            def interceptRequest(self, info: Any) -> None:  # noqa: N802 - Qt signature
                url = info.requestUrl()
                if url.scheme() in ("data", "blob", "about") or url.host() == "127.0.0.1":
                    return
                if url.host() in FONT_CDN_HOSTS:
                    tail = url.host() + url.path(QUrl.ComponentFormattingOption.FullyEncoded)
                    if url.hasQuery():
                        tail += "?" + url.query(QUrl.ComponentFormattingOption.FullyEncoded)
                    info.redirect(QUrl(base + CDN_PREFIX + tail))
                    return
                blocked.append(url.toString())
                info.block(True)

        return Interceptor()

    # -- helpers
    def _wait(self, predicate: Any, timeout: float) -> bool:
        from PySide6.QtWidgets import QApplication

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            QApplication.processEvents()
            if predicate():
                return True
            time.sleep(0.01)
        return False

    def _js(self, page: Any, script: str, timeout: float = 20.0) -> Any:
        box: list[Any] = []
        page.runJavaScript(script, 0, box.append)
        if not self._wait(lambda: bool(box), timeout):
            raise RuntimeError(f"no answer from the page to: {script[:80]}")
        return box[0]

    def _load(self, page: Any, url: Any) -> None:
        done: list[bool] = []
        page.loadFinished.connect(done.append)
        page.load(url)
        if not self._wait(lambda: bool(done), 60):
            raise RuntimeError(f"page did not load: {url.toString()}")
        page.loadFinished.disconnect(done.append)

    def _fonts_settled(self, page: Any) -> None:
        """Wait until no font of the page is loading. Text in a font still loading is not
        drawn at all (``font-display: block``), and on a busy machine a font can take longer
        than a picture takes to look still: a grab then has boxes without their words."""
        self._js(
            page,
            "document.body.offsetHeight; window.__fontsReady = 0;"
            " document.fonts.ready.then(function () { window.__fontsReady = 1; }); 1",
        )
        settled = (
            "window.__fontsReady === 1 && document.fonts.status === 'loaded' &&"
            " !Array.from(document.fonts).some(function (f) { return f.status === 'loading'; })"
        )
        if not self._wait(lambda: bool(self._js(page, settled)), FONT_WAIT):
            raise RuntimeError(f"the page's fonts were still loading after {FONT_WAIT} s")

    def _still_grab(self, page: Any, view: Any) -> Any:
        """A grab once the picture stops changing (software rendering paints in steps), no
        font is loading, and the picture is still the same after a longer pause: on a busy
        machine a software-rendered frame can arrive seconds late, and the frames before it
        (a page without its words) look still."""
        import hashlib

        def digest(image: Any) -> str:
            return hashlib.blake2b(bytes(image.constBits()), digest_size=16).hexdigest()

        self._fonts_settled(page)
        seen: list[str] = []
        deadline = time.monotonic() + STILL_TIMEOUT
        while True:
            self._js(
                page,
                "new Promise(function (r) { requestAnimationFrame(function () {"
                " requestAnimationFrame(function () { r(1); }); }); })",
            )
            self._wait(lambda: False, 0.4)
            image = view.grab().toImage()
            seen.append(digest(image))
            if len(seen) >= STILL and len(set(seen[-STILL:])) == 1:
                self._wait(lambda: False, CONFIRM)
                again = view.grab().toImage()
                if digest(again) == seen[-1]:
                    return image
                seen.append(digest(again))
            if time.monotonic() > deadline:
                raise RuntimeError(f"the page did not stop changing in {STILL_TIMEOUT} s")

    def _capture(self, page: Any, prepare: str | None = None) -> Any:
        """The content area (``.theme-doc-markdown``), grabbed in viewport-high tiles while
        scrolling down, stitched into one image. ``prepare``: script run before measuring and
        before each tile (the site's page may put back what it hid, late after hydration);
        when the content area moves meanwhile, the capture starts again."""
        for _ in range(3):
            image = self._capture_once(page, prepare)
            if image is not None:
                return image
        raise RuntimeError("the content area kept moving while it was captured")

    def _capture_once(self, page: Any, prepare: str | None) -> Any:
        from PySide6.QtCore import QRect
        from PySide6.QtGui import QColor, QImage, QPainter

        view = self.views[id(page)]
        if prepare:
            self._js(page, prepare)
        self._fonts_settled(page)
        height = int(self._js(page, "document.documentElement.scrollHeight"))
        view.resize(self.width, max(900, min(TILE, height)))
        self._wait(lambda: False, 0.5)
        rect_js = (
            "JSON.stringify((function (r) { return [r.left + scrollX, r.top + scrollY,"
            " r.width, r.height]; })(document.querySelector('.theme-doc-markdown')"
            ".getBoundingClientRect()))"
        )
        rect = json.loads(self._js(page, rect_js))
        x, top, w, h = (round(v) for v in rect)
        out = QImage(max(1, w), max(1, h), QImage.Format.Format_RGB32)
        out.fill(QColor("#000000"))
        painter = QPainter(out)
        try:
            y = top
            while y < top + h:
                if prepare:
                    self._js(page, prepare)
                scroll = float(self._js(page, f"window.scrollTo(0, {y}); window.scrollY"))
                tile = self._still_grab(page, view)
                if json.loads(self._js(page, rect_js)) != rect:
                    return None
                scroll = float(self._js(page, "window.scrollY"))
                # Rows [y, …) of the document are at viewport row y - scroll.
                src_top = y - scroll
                rows = min(view.height() - src_top, top + h - y)
                if rows <= 0:
                    break
                painter.drawImage(0, y - top, tile.copy(QRect(x, round(src_top), w, round(rows))))
                y += round(rows)
        finally:
            painter.end()
        return out

    # -- the two renders
    def ours(self, text: str, style: Any) -> Any:
        from modu_desktop.core.preview import build_page, render_document
        from modu_desktop.ui.preview.engine import preview_profile

        doc = render_document(text, style=style)
        html = build_page(doc, style, no_motion=True)
        self._load(self.ours_page, preview_profile().pages.put(html))
        return self._capture(self.ours_page)

    def site(self, url: str) -> Any:
        from PySide6.QtCore import QUrl
        from PySide6.QtWebEngineCore import QWebEngineScript

        from modu_desktop.core.preview.page import NO_MOTION_CSS

        css = NO_MOTION_CSS
        script = QWebEngineScript()
        script.setName("modu-fidelity")
        script.setInjectionPoint(QWebEngineScript.InjectionPoint.DocumentReady)
        script.setWorldId(QWebEngineScript.ScriptWorldId.ApplicationWorld)
        script.setSourceCode(
            "(function () { var s = document.createElement('style');"
            f" s.textContent = {json.dumps(css)}; document.head.appendChild(s); }})();"
        )
        scripts = self.site_page.scripts()
        scripts.clear()
        scripts.insert(script)
        self._load(self.site_page, QUrl(url))
        # React hydration sets the theme variables and data attributes.
        self._wait(
            lambda: self._js(
                self.site_page,
                "document.documentElement.getAttribute('data-has-hydrated') === 'true' &&"
                " !!document.documentElement.getAttribute('data-brochure-theme')",
            ),
            30,
        )
        # The site's floating buttons and sticky navbar sit over the content: not content.
        return self._capture(self.site_page, prepare=HIDE_FLOATING_JS)

    def loaded_fonts(self, which: str) -> list[str]:
        """The font families the page has actually loaded (not fallen back from)."""
        page = self.site_page if which == "site" else self.ours_page
        found = self._js(
            page,
            "JSON.stringify(Array.from(new Set(Array.from(document.fonts)"
            ".filter(function (f) { return f.status === 'loaded'; })"
            ".map(function (f) { return f.family.replace(/[\"']/g, ''); }))).sort())",
        )
        return list(json.loads(found))


HIDE_FLOATING_JS = """(function () {
  var box = document.querySelector('.theme-doc-markdown');
  Array.from(document.body.querySelectorAll('*')).forEach(function (e) {
    var pos = getComputedStyle(e).position;
    if ((pos === 'fixed' || pos === 'sticky') && !(box && box.contains(e))) {
      e.style.setProperty('display', 'none', 'important');
    }
  });
  return 1;
})()"""


# ------------------------------------------------------------------------------ comparing


def to_gray(image: Any, width: int = SCALE_WIDTH) -> Any:
    import numpy as np
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    scaled = image.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)
    gray = scaled.convertToFormat(QImage.Format.Format_Grayscale8)
    arr = np.frombuffer(gray.constBits(), dtype=np.uint8)
    arr = arr.reshape(gray.height(), gray.bytesPerLine())[:, : gray.width()]
    return arr.copy()


def ssim(a: Any, b: Any) -> float:
    from skimage.metrics import structural_similarity

    h = min(a.shape[0], b.shape[0])
    return float(structural_similarity(a[:h], b[:h], data_range=255))


def side_by_side(ours: Any, site: Any, path: Path) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QImage, QPainter

    a = ours.scaledToWidth(SCALE_WIDTH, Qt.TransformationMode.SmoothTransformation)
    b = site.scaledToWidth(SCALE_WIDTH, Qt.TransformationMode.SmoothTransformation)
    out = QImage(SCALE_WIDTH * 2 + 8, max(a.height(), b.height()), QImage.Format.Format_RGB32)
    out.fill(QColor("#888888"))
    p = QPainter(out)
    p.drawImage(0, 0, a)
    p.drawImage(SCALE_WIDTH + 8, 0, b)
    p.end()
    out.save(str(path))


# ------------------------------------------------------------------------------ main


def measure(
    site: Path,
    docs: list[str] | None,
    widths: list[int],
    out: Path,
    build: bool,
    fonts_dir: Path,
) -> list[dict]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # Chromium refuses root without it
        flags = os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
        if "--no-sandbox" not in flags:
            os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = (flags + " --no-sandbox").strip()
    from PySide6.QtWidgets import QApplication

    from modu_desktop.core.preview import style_from_checkout
    from modu_desktop.ui.shell.qt_setup import prepare_application

    prepare_application()
    app = QApplication.instance() or QApplication(["preview-fidelity"])
    fonts = SiteFonts(install_font_packages(fonts_dir))
    if build or not (site / "build").is_dir():
        build_site(site)
    files = sorted((site / "docs").glob("*.md"))
    if docs:
        files = [f for f in files if f.stem in docs]
    style = style_from_checkout(site)
    server, base = serve(site / "build", fonts)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    try:
        for width in widths:
            renderer = Renderer(width, base)
            for f in files:
                t0 = time.perf_counter()
                ours = renderer.ours(f.read_text("utf-8"), style)
                theirs = renderer.site(base + doc_route(site, f) + "/")
                a, b = to_gray(ours), to_gray(theirs)
                score = ssim(a, b)
                png = out / f"{f.stem}-{width}-side-by-side.png"
                side_by_side(ours, theirs, png)
                rows.append(
                    {
                        "doc": f.stem,
                        "width": width,
                        "ssim": round(score, 4),
                        "ours_px": [ours.width(), ours.height()],
                        "site_px": [theirs.width(), theirs.height()],
                        "png": str(png),
                        "site_fonts": renderer.loaded_fonts("site"),
                        "our_fonts": renderer.loaded_fonts("ours"),
                        "seconds": round(time.perf_counter() - t0, 1),
                    }
                )
                print(
                    f"{f.stem} @ {width}: SSIM {score:.3f}  ours {ours.width()}x{ours.height()},"
                    f" site {theirs.width()}x{theirs.height()}",
                    flush=True,
                )
            if renderer.site_blocked:
                print(f"blocked site requests: {sorted(set(renderer.site_blocked))}")
    finally:
        server.shutdown()
    print(f"font CDN requests answered locally: {len(set(_Handler.served))}")
    if _Handler.missing:
        print(f"font CDN requests we could not answer: {sorted(set(_Handler.missing))}")
    del app
    return rows


def markdown_table(rows: list[dict]) -> str:
    widths = sorted({r["width"] for r in rows})
    head = "| document | " + " | ".join(f"SSIM {w} | height ours / site {w} (px)" for w in widths)
    lines = [head + " |", "|---" * (1 + 2 * len(widths)) + "|"]
    by = {(r["doc"], r["width"]): r for r in rows}
    for doc in dict.fromkeys(r["doc"] for r in rows):
        cells = []
        for w in widths:
            r = by.get((doc, w))
            cells += (
                [f"{r['ssim']:.3f}", f"{r['ours_px'][1]} / {r['site_px'][1]}"] if r else ["", ""]
            )
        lines.append(f"| {doc} | " + " | ".join(cells) + " |")
    cells = []
    for w in widths:
        scores = [r["ssim"] for r in rows if r["width"] == w]
        cells += [f"**{sum(scores) / len(scores):.3f}** (min {min(scores):.3f})", ""]
    lines.append("| **mean** | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--site", type=Path, required=True, help="site checkout with node_modules")
    ap.add_argument("--docs", help="comma-separated document ids (file stems); default: all")
    ap.add_argument("--width", default="900,1280", help="comma-separated page widths (px)")
    ap.add_argument("--out", type=Path, default=Path("fidelity-out"))
    ap.add_argument("--no-build", action="store_true", help="use the existing build/")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--markdown", type=Path)
    ap.add_argument(
        "--fonts",
        type=Path,
        default=Path.home() / ".cache" / "modu-desktop" / "fidelity-fonts",
        help="where the site's font packages are installed (npm ci, once)",
    )
    args = ap.parse_args(argv)
    if not (args.site / "docs").is_dir():
        ap.error(f"{args.site} is not a site checkout (no docs/)")
    try:
        widths = [int(w) for w in args.width.split(",") if w.strip()]
    except ValueError:
        ap.error("--width takes numbers, e.g. 900,1280")
    docs = [d.strip() for d in args.docs.split(",")] if args.docs else None
    rows = measure(args.site, docs, widths, args.out, not args.no_build, args.fonts)
    table = markdown_table(rows)
    print(table)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2, ensure_ascii=False), "utf-8")
    if args.markdown:
        args.markdown.write_text(table + "\n", "utf-8")
    sys.stdout.flush()
    os._exit(0)  # WebEngine's profile teardown at interpreter exit is noisy; results are out


if __name__ == "__main__":
    sys.exit(main())
