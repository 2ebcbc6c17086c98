"""Run the real web admin page (`static/admin/index.html`, unmodified) in headless Chromium
against a sandbox, over the real network path a browser takes.

- Chromium resolves `api.github.com:443` to a local TLS front (`--host-resolver-rules`), which
  passes the bytes through, untouched, to the sandbox's plain-HTTP port: every request the page
  makes — CORS preflights included — reaches the sandbox as sent, and every answer reaches the
  page as the sandbox wrote it. Nothing is intercepted or rewritten.
- The page's CDN (`uicdn.toast.com`) is a second TLS front onto a local server that serves the
  same files built from npm packages (`@toast-ui/editor`, bundled with its ProseMirror deps by
  `esbuild` into the "all" file the page asks for). Every other host resolves to nothing.
- The certificate is made here (cryptography), so Chromium runs with
  `--ignore-certificate-errors`; its other flags keep it off the network (this machine has none).
- The page's 5-minute heartbeat `setInterval` is the one thing the test speeds up: a script
  installed before the page's own (`Page.addScriptToEvaluateOnNewDocument`) keeps intervals of a
  minute or more instead of scheduling them, so the test runs "the next heartbeat" on demand.
  It changes timing only; the heartbeat's own code and requests are the page's.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import http.server
import ipaddress
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.nodetools import npm_packages
from tests.helpers.paths import FIXTURES

CDN_PACKAGES = {"@toast-ui/editor": "3.2.2", "esbuild": "0.28.2"}
CHROMIUM = ("chromium", "chromium-browser")
CHROMEDRIVER = ("chromedriver", "chromium-driver")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--ignore-certificate-errors",
    "--window-size=1400,1000",
)
# Runs before the page's scripts: long intervals (the 5-minute heartbeat) are kept, not
# scheduled; `__moduRunIntervals()` runs each once and resolves when their promises settle.
# `__moduAdvanceClock(ms)` moves the page's `Date.now()` on, so a test need not wait for the
# lock's whole-second times to change.
CLOCK_SHIM = r"""
(() => {
  const realSet = window.setInterval.bind(window);
  const realClear = window.clearInterval.bind(window);
  const held = new Map();
  let next = 1e9;
  window.setInterval = (fn, ms, ...args) => {
    if (typeof fn !== 'function' || ms < 60000) return realSet(fn, ms, ...args);
    const id = next++;
    held.set(id, () => fn(...args));
    return id;
  };
  window.clearInterval = (id) => { if (held.has(id)) held.delete(id); else realClear(id); };
  window.__moduHeldIntervals = () => held.size;
  const realNow = Date.now.bind(Date);
  let ahead = 0;
  Date.now = () => realNow() + ahead;
  window.__moduAdvanceClock = (ms) => { ahead += ms; return Date.now(); };
  window.__moduRunIntervals = async () => {
    for (const fn of [...held.values()]) { await fn(); }
    return held.size;
  };
})();
"""


def site_admin_page() -> Path:
    """`MODU_SITE_DIR/static/admin/index.html`, else the site fixture's copy."""
    root = Path(os.environ.get("MODU_SITE_DIR") or FIXTURES / "pnu-modu-site")
    return root / "static" / "admin" / "index.html"


def require_browser() -> tuple[str, str]:
    """(chromium, chromedriver) paths, or skip with the reason."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        pytest.skip("selenium is not installed (uv sync installs the dev group)")
    browser = next((p for p in map(shutil.which, CHROMIUM) if p), None)
    driver = next((p for p in map(shutil.which, CHROMEDRIVER) if p), None)
    if browser is None or driver is None:
        pytest.skip(
            "Chromium or chromedriver is missing (apt-get install chromium chromium-driver)"
        )
    if not site_admin_page().is_file():
        pytest.skip(f"no web admin page at {site_admin_page()} (set MODU_SITE_DIR)")
    return browser, driver


# ----- certificate -----------------------------------------------------------------------------


def make_certificate(folder: Path, hosts: list[str]) -> tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hosts[0])])
    now = dt.datetime.now(dt.UTC)
    sans: list[x509.GeneralName] = [x509.DNSName(h) for h in hosts]
    sans.append(x509.IPAddress(ipaddress.ip_address("127.0.0.1")))
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=7))
        .add_extension(x509.SubjectAlternativeName(sans), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


# ----- TLS front: bytes in, bytes out ----------------------------------------------------------


class TlsFront:
    """Accepts TLS on 127.0.0.1 and pipes the decrypted bytes to a plain TCP port, unchanged."""

    def __init__(self, context: ssl.SSLContext, backend_port: int) -> None:
        self.context = context
        self.backend_port = backend_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._stopping = threading.Event()
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True, name="tls-front").start()

    def _track(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.add(sock)

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                raw, _ = self.listener.accept()
            except OSError:
                return
            self._track(raw)
            threading.Thread(target=self._serve, args=(raw,), daemon=True).start()

    def _serve(self, raw: socket.socket) -> None:
        try:
            tls = self.context.wrap_socket(raw, server_side=True)
        except (OSError, ssl.SSLError):
            raw.close()
            return
        self._track(tls)
        try:
            backend = socket.create_connection(("127.0.0.1", self.backend_port))
        except OSError:
            tls.close()
            return
        self._track(backend)
        threading.Thread(target=self._pipe, args=(backend, tls), daemon=True).start()
        self._pipe(tls, backend)

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self._stopping.set()
        self.listener.close()
        with self._lock:
            for s in self._sockets:
                with contextlib.suppress(OSError):
                    s.close()


# ----- static servers --------------------------------------------------------------------------


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class _CdnHandler(_Quiet):
    files: dict[str, Path] = {}

    def do_GET(self) -> None:
        path = self.files.get(self.path.split("?")[0])
        if path is None:
            self.send_error(404)
            return
        data = path.read_bytes()
        self.send_response(200)
        kind = "text/css" if path.suffix == ".css" else "application/javascript"
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def cdn_files() -> dict[str, Path]:
    """uicdn.toast.com paths the page loads → files built from the npm packages."""
    folder = npm_packages("webadmin-cdn", CDN_PACKAGES)
    dist = folder / "node_modules" / "@toast-ui" / "editor" / "dist"
    bundle = folder / "toastui-editor-all.js"
    if not bundle.exists():
        entry = folder / "entry.mjs"
        entry.write_text(
            "import Editor from '@toast-ui/editor';\n"
            "window.toastui = Object.assign(window.toastui || {}, { Editor });\n",
            "utf-8",
        )
        done = subprocess.run(
            [
                str(folder / "node_modules" / ".bin" / "esbuild"),
                str(entry),
                "--bundle",
                "--format=iife",
                f"--outfile={bundle}",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode != 0:
            raise RuntimeError(f"esbuild failed:\n{done.stderr[-3000:]}")
    return {
        "/editor/latest/toastui-editor.min.css": dist / "toastui-editor.css",
        "/editor/latest/toastui-editor-all.min.js": bundle,
        "/editor/latest/i18n/ko-kr.js": dist / "i18n" / "ko-kr.js",
    }


def _serve(server: http.server.ThreadingHTTPServer) -> http.server.ThreadingHTTPServer:
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    ).start()
    return server


@contextlib.contextmanager
def browser_against(api_port: int) -> Iterator[Any]:
    """A selenium Chrome driver whose https://api.github.com is the sandbox on `api_port`.
    Yields (driver, page_url)."""
    browser, driver_path = require_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="modu-webadmin-") as tmp:
        tmpdir = Path(tmp)
        cert, key = make_certificate(tmpdir, ["api.github.com", "uicdn.toast.com"])
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        context.set_alpn_protocols(["http/1.1"])
        handler = type("Cdn", (_CdnHandler,), {"files": cdn_files()})
        cdn = _serve(http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler))
        static_root = site_admin_page().parent.parent
        page = _serve(
            http.server.ThreadingHTTPServer(
                ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(static_root))
            )
        )
        api_front = TlsFront(context, api_port)
        cdn_front = TlsFront(context, cdn.server_address[1])
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={tmpdir / 'profile'}")
        options.add_argument(
            "--host-resolver-rules="
            f"MAP api.github.com:443 127.0.0.1:{api_front.port}, "
            f"MAP uicdn.toast.com:443 127.0.0.1:{cdn_front.port}, "
            "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
        )
        options.set_capability("unhandledPromptBehavior", "ignore")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(executable_path=driver_path, log_output=str(tmpdir / "driver.log"))
        driver = webdriver.Chrome(service=service, options=options)
        try:
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CLOCK_SHIM})
            yield driver, f"http://127.0.0.1:{page.server_address[1]}/admin/index.html"
        finally:
            driver.quit()
            api_front.close()
            cdn_front.close()
            for server in (cdn, page):
                server.shutdown()
                server.server_close()
