"""How close is our preview to the real site? Per-document SSIM, side-by-side PNGs.

    uv run python scripts/preview_fidelity.py --site PATH [--docs 01-intro,02-part-2]
        [--width 1280] [--out DIR] [--no-build] [--json FILE] [--markdown FILE]

``PATH`` is a checkout of the site with its dependencies installed (``npm ci``; the tests get
one from ``tests/helpers/nodetools.site_checkout()``). The tool runs ``npm run build`` there (unless
``--no-build``), serves ``build/`` on 127.0.0.1, and renders each document's page with the same
engine our preview uses (Qt WebEngine), at the same width, with CSS animations and transitions
off and scroll bars hidden, in a viewport as tall as the page. Our preview of the same document
(the site's own stylesheets and palettes read from ``PATH``) is rendered the same way. Both
renders are cropped to the content area (``.theme-doc-markdown``), scaled to 600 px wide,
turned to grayscale, cut to the overlapping height and compared with SSIM (scikit-image).

Offline, the site's CDN fonts cannot load; both renders get the fonts we ship (injected into
the site page after its own stylesheets), so the comparison measures layout and styling, not
which fonts a CDN served. Every other request of the site page beyond 127.0.0.1 is blocked.

Output: ``DIR/<doc>-side-by-side.png`` (ours | site), a table on stdout (and ``--markdown``),
and ``--json`` with the numbers. Exit status 0, or 2 for usage errors.
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
TILE = 6000  # viewport height while capturing (px); taller pages are grabbed in tiles
FONT_PATH = "/__modu__/PretendardVariable.ttf"


# ------------------------------------------------------------------------------ site server


class _Handler(SimpleHTTPRequestHandler):
    font: bytes = b""

    def do_GET(self) -> None:  # noqa: N802 - http.server API
        if self.path == FONT_PATH:
            self.send_response(200)
            self.send_header("Content-Type", "font/ttf")
            self.send_header("Content-Length", str(len(self.font)))
            self.end_headers()
            self.wfile.write(self.font)
            return
        super().do_GET()

    def log_message(self, *args: Any) -> None:
        pass


def serve(build: Path) -> tuple[ThreadingHTTPServer, str]:
    from modu_desktop.core.account.paths import resources_dir

    _Handler.font = (resources_dir() / "preview" / "fonts" / "PretendardVariable.ttf").read_bytes()
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

    def __init__(self, width: int) -> None:
        from PySide6.QtWebEngineCore import QWebEngineProfile, QWebEngineSettings
        from PySide6.QtWebEngineWidgets import QWebEngineView

        from modu_desktop.ui.preview import engine

        self.width = width
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
        from PySide6.QtWebEngineCore import QWebEngineUrlRequestInterceptor

        blocked = self.site_blocked

        class Interceptor(QWebEngineUrlRequestInterceptor):
            def interceptRequest(self, info: Any) -> None:  # noqa: N802 - Qt signature
                url = info.requestUrl()
                if url.scheme() in ("data", "blob", "about") or url.host() == "127.0.0.1":
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

    def _still_grab(self, page: Any, view: Any) -> Any:
        """A grab once the picture stops changing (software rendering paints in steps)."""
        import hashlib

        seen: list[str] = []
        image = None
        for _ in range(60):
            self._js(
                page,
                "new Promise(function (r) { requestAnimationFrame(function () {"
                " requestAnimationFrame(function () { r(1); }); }); })",
            )
            self._wait(lambda: False, 0.4)
            image = view.grab().toImage()
            seen.append(hashlib.blake2b(bytes(image.constBits()), digest_size=16).hexdigest())
            if len(seen) >= STILL and len(set(seen[-STILL:])) == 1:
                break
        assert image is not None
        return image

    def _capture(self, page: Any) -> Any:
        """The content area (``.theme-doc-markdown``), grabbed in viewport-high tiles while
        scrolling down, stitched into one image."""
        from PySide6.QtCore import QRect
        from PySide6.QtGui import QColor, QImage, QPainter

        view = self.views[id(page)]
        self._js(page, "document.fonts.ready.then(function () { window.__fontsReady = 1; }); 1")
        self._wait(lambda: self._js(page, "window.__fontsReady === 1"), 20)
        height = int(self._js(page, "document.documentElement.scrollHeight"))
        view.resize(self.width, max(900, min(TILE, height)))
        self._wait(lambda: False, 0.5)
        rect_js = (
            "JSON.stringify((function (r) { return [r.left + scrollX, r.top + scrollY,"
            " r.width, r.height]; })(document.querySelector('.theme-doc-markdown')"
            ".getBoundingClientRect()))"
        )
        x, top, w, h = (round(v) for v in json.loads(self._js(page, rect_js)))
        out = QImage(max(1, w), max(1, h), QImage.Format.Format_RGB32)
        out.fill(QColor("#000000"))
        painter = QPainter(out)
        y = top
        while y < top + h:
            scroll = float(self._js(page, f"window.scrollTo(0, {y}); window.scrollY"))
            tile = self._still_grab(page, view)
            scroll = float(self._js(page, "window.scrollY"))
            # Rows [y, …) of the document are at viewport row y - scroll.
            src_top = y - scroll
            rows = min(view.height() - src_top, top + h - y)
            if rows <= 0:
                break
            painter.drawImage(0, y - top, tile.copy(QRect(x, round(src_top), w, round(rows))))
            y += round(rows)
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

        from modu_desktop.core.account.paths import resources_dir
        from modu_desktop.core.preview.page import NO_MOTION_CSS

        fonts = (resources_dir() / "preview" / "fonts.css").read_text("utf-8")
        css = fonts.replace("{FONT_URL}", FONT_PATH) + "\n" + NO_MOTION_CSS
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
        self._js(self.site_page, HIDE_FLOATING_JS)
        return self._capture(self.site_page)


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


def measure(site: Path, docs: list[str] | None, width: int, out: Path, build: bool) -> list[dict]:
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
    if build or not (site / "build").is_dir():
        build_site(site)
    files = sorted((site / "docs").glob("*.md"))
    if docs:
        files = [f for f in files if f.stem in docs]
    style = style_from_checkout(site)
    server, base = serve(site / "build")
    renderer = Renderer(width)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    try:
        for f in files:
            t0 = time.perf_counter()
            ours = renderer.ours(f.read_text("utf-8"), style)
            theirs = renderer.site(base + doc_route(site, f) + "/")
            a, b = to_gray(ours), to_gray(theirs)
            score = ssim(a, b)
            png = out / f"{f.stem}-side-by-side.png"
            side_by_side(ours, theirs, png)
            rows.append(
                {
                    "doc": f.stem,
                    "ssim": round(score, 4),
                    "ours_px": [ours.width(), ours.height()],
                    "site_px": [theirs.width(), theirs.height()],
                    "png": str(png),
                    "seconds": round(time.perf_counter() - t0, 1),
                }
            )
            print(f"{f.stem}: SSIM {score:.3f}  ours {ours.height()} px, site {theirs.height()} px")
    finally:
        server.shutdown()
    del app
    return rows


def markdown_table(rows: list[dict]) -> str:
    lines = [
        "| document | SSIM | our height (px) | site height (px) |",
        "|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['doc']} | {r['ssim']:.3f} | {r['ours_px'][1]} | {r['site_px'][1]} |")
    if rows:
        scores = [r["ssim"] for r in rows]
        lines.append(
            f"| **mean** | **{sum(scores) / len(scores):.3f}** (min {min(scores):.3f}) | | |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--site", type=Path, required=True, help="site checkout with node_modules")
    ap.add_argument("--docs", help="comma-separated document ids (file stems); default: all")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--out", type=Path, default=Path("fidelity-out"))
    ap.add_argument("--no-build", action="store_true", help="use the existing build/")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--markdown", type=Path)
    args = ap.parse_args(argv)
    if not (args.site / "docs").is_dir():
        ap.error(f"{args.site} is not a site checkout (no docs/)")
    docs = [d.strip() for d in args.docs.split(",")] if args.docs else None
    rows = measure(args.site, docs, args.width, args.out, build=not args.no_build)
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
