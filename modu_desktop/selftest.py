"""`modu-desktop --self-test`: prove that this installation (a checkout or a frozen bundle) works.

Prints one line per check (``ok   name: detail``, ``warn name: detail`` or ``FAIL name: detail``)
and returns 0 only if no check failed. A warning is something a user would notice but that does
not break the app (no Korean font on a Linux test box). Runs offscreen unless ``--display`` is
given, touches nothing outside a temporary directory, and takes a few seconds.

Options: ``--display`` (use the real display), ``--report FILE`` (also write the lines to FILE:
the Windows bundle is a GUI-subsystem program without a console, so CI reads this file),
``--timeout SECONDS`` (abort with a traceback if a check hangs; default 60), ``--lang ko|en``.

It speaks the interface language (``--lang``, else the language chosen in the app's settings —
``--data-dir`` is honoured —, else the computer's): the status word, the details and the summary.
The check names stay as they are, so a helper can read any report.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import faulthandler
import importlib
import os
import sys
import tempfile
import time
import traceback
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from modu_desktop import i18n
from modu_desktop.i18n import tr

OK, WARN, FAIL = "ok", "warn", "FAIL"
STATUS_WORDS = {OK: "ok", WARN: "warn", FAIL: "FAIL"}  # worded with tr() when shown

KOREAN_SAMPLE = "모두 데스크톱 자체 점검 — 한글 표시 확인"
# Image formats the editor shows (uploads, brochure images, icons).
REQUIRED_IMAGE_FORMATS = ("png", "jpeg", "gif", "webp", "svg")
APP_ICON = "modu-desktop-256.png"


def status_word(status: str) -> str:
    """The status in the interface language, four columns wide (a Hangul syllable takes two)."""
    word = tr(STATUS_WORDS.get(status, status))
    return word.ljust(4) if word.isascii() else word


class CheckWarning(Exception):
    """Raised by a check for a non-fatal problem: reported as ``warn``."""


@dataclass
class Result:
    name: str
    status: str
    detail: str
    seconds: float

    def line(self) -> str:
        return f"{status_word(self.status)} {self.name}: {self.detail}"


class Reporter:
    """Writes result lines to stdout (when there is one) and to the optional report file."""

    def __init__(self, report: Path | None) -> None:
        self.streams: list[IO[str]] = []
        out = _console_stdout()
        if out is not None:
            self.streams.append(out)
        self._file: IO[str] | None = None
        if report is not None:
            report.parent.mkdir(parents=True, exist_ok=True)
            self._file = report.open("w", encoding="utf-8")
            self.streams.append(self._file)

    def emit(self, text: str) -> None:
        for stream in self.streams:
            try:
                stream.write(text + "\n")
                stream.flush()
            except (OSError, ValueError, UnicodeEncodeError):
                with contextlib.suppress(Exception):
                    stream.write(text.encode("ascii", "replace").decode("ascii") + "\n")

    def fault_stream(self) -> IO[str] | None:
        """A real file for faulthandler (needs a file descriptor)."""
        for stream in (self._file, sys.stderr):
            if stream is None:
                continue
            try:
                stream.fileno()
            except (OSError, ValueError, AttributeError):
                continue
            return stream
        return None

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def _console_stdout() -> IO[str] | None:
    """stdout; for a windowed Windows bundle, the console it was started from (if any)."""
    if sys.stdout is not None:
        with contextlib.suppress(Exception):
            sys.stdout.reconfigure(encoding="utf-8", errors="replace")  # type: ignore[union-attr]
        return sys.stdout
    if sys.platform == "win32":
        try:
            import ctypes

            attach_parent_process = -1
            if ctypes.windll.kernel32.AttachConsole(attach_parent_process):  # type: ignore[attr-defined]
                return open("CONOUT$", "w", encoding="utf-8", errors="replace")  # noqa: SIM115
        except Exception:
            return None
    return None


# --------------------------------------------------------------------------------- locating


def is_frozen() -> bool:
    return bool(getattr(sys, "frozen", False)) and hasattr(sys, "_MEIPASS")


def resources_dir() -> Path | None:
    """The resources/ folder: inside a PyInstaller bundle (sys._MEIPASS) or next to the package."""
    candidates: list[Path] = []
    meipass = getattr(sys, "_MEIPASS", None)
    if meipass:
        candidates.append(Path(meipass) / "resources")
    from modu_desktop.core.account.paths import resources_dir as core_resources_dir

    candidates.append(core_resources_dir())
    package_dir = Path(__file__).resolve().parent
    candidates += [package_dir.parent / "resources", package_dir / "resources"]
    for cand in candidates:
        if cand.is_dir():
            return cand
    return None


# ------------------------------------------------------------------------------------ checks


def check_qt(state: dict[str, Any]) -> str:
    from PySide6 import __version__ as pyside_version
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImageReader
    from PySide6.QtWidgets import QApplication, QLabel, QStyleFactory

    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv else "modu-desktop"])
    state["app"] = app
    label = QLabel(KOREAN_SAMPLE)
    label.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    label.resize(480, 48)
    label.show()
    QApplication.processEvents()
    image = label.grab().toImage()
    label.close()
    if image.isNull() or image.width() < 100:
        raise RuntimeError("the widget could not be painted")
    colours = {
        image.pixel(x, y) for y in range(0, image.height(), 2) for x in range(0, image.width(), 2)
    }
    if len(colours) < 2:
        raise RuntimeError("the painted widget is blank: no text was drawn")
    formats = {
        bytes(f.data()).decode("ascii", "replace").lower()
        for f in QImageReader.supportedImageFormats()
    }
    missing = [f for f in REQUIRED_IMAGE_FORMATS if f not in formats]
    if missing:
        raise RuntimeError("image format plugins missing: " + ", ".join(missing))
    platform = QGuiApplication.platformName()
    style = app.style().name() if isinstance(app, QApplication) else "?"
    detail = tr(
        "PySide6 {version}, {platform} window painted, image formats {formats}, style {style}",
        version=pyside_version,
        platform=platform,
        formats="/".join(REQUIRED_IMAGE_FORMATS),
        style=style,
    )
    style_keys = {str(k).lower() for k in QStyleFactory.keys()}  # noqa: SIM118 - not a dict
    if sys.platform == "win32" and not {"windows11", "windowsvista"} & style_keys:
        raise CheckWarning(detail + tr("; the native Windows style plugin is missing"))
    return detail


def check_korean_font(state: dict[str, Any]) -> str:
    from PySide6.QtGui import QFontDatabase

    families = QFontDatabase.families(QFontDatabase.WritingSystem.Korean)
    if not families:
        message = tr("no font with Korean glyphs: Hangul is drawn as boxes")
        if sys.platform.startswith("linux"):
            raise CheckWarning(message + tr(" (install fonts-nanum or fonts-noto-cjk)"))
        raise RuntimeError(message)
    return tr("{n} Korean font families, e.g. {family}", n=len(families), family=families[0])


def check_resources(state: dict[str, Any]) -> str:
    from PySide6.QtCore import QLibraryInfo, QTranslator
    from PySide6.QtGui import QImage

    res = resources_dir()
    if res is None:
        raise RuntimeError("resources/ folder not found (sys._MEIPASS or next to the package)")
    icon = res / "icons" / APP_ICON
    if QImage(str(icon)).isNull():
        raise RuntimeError(f"app icon missing or unreadable: {icon}")
    styles = sorted((res / "styles").glob("*.qss")) if (res / "styles").is_dir() else []
    for qss in styles:
        qss.read_text(encoding="utf-8")
    tr_dir = res / "translations"
    qms = sorted(tr_dir.glob("*.qm")) if tr_dir.is_dir() else []
    for qm in qms:
        if not QTranslator().load(str(qm)):
            raise RuntimeError(f"translation does not load: {qm.name}")
    sources = sorted(tr_dir.glob("*.ts")) if tr_dir.is_dir() else []
    unbuilt = [ts.name for ts in sources if not ts.with_suffix(".qm").exists()]
    qt_tr = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
    if not QTranslator().load("qtbase_ko", str(qt_tr)):
        raise RuntimeError(f"Qt's Korean catalogue qtbase_ko.qm not found in {qt_tr}")
    where = tr("bundle") if is_frozen() else tr("source tree")
    detail = tr(
        "{where} {folder}: app icon, {styles} styles, {qms} translations + Qt's qtbase_ko",
        where=where,
        folder=res,
        styles=len(styles),
        qms=len(qms),
    )
    if unbuilt and not is_frozen():
        raise CheckWarning(detail + f"; not compiled yet: {', '.join(unbuilt)} (run lrelease)")
    return detail


def check_sandbox(state: dict[str, Any]) -> str:
    from modu_desktop.sandbox import PRACTICE_USER, Sandbox

    tmp = Path(state["tmp"])
    user = PRACTICE_USER
    sb = Sandbox(tmp / "practice-repo", users=[user], seed="sample", host="127.0.0.1", port=0)
    state["sandbox_obj"] = sb
    sb.start()
    url = str(sb.api_url)
    if not url.startswith("http://127.0.0.1:"):
        raise RuntimeError(f"sandbox is not on loopback: {url}")
    state["sandbox"] = sb
    state["user"] = user
    return tr("practice sandbox on {url} (user {login})", url=url, login=user.login)


def _repo_ref(sb: Any) -> Any:
    from modu_desktop.core.github.client import RepoRef

    return RepoRef(sb.owner, sb.name, sb.branch)


async def _documents_and_lock(state: dict[str, Any]) -> tuple[str, str]:
    from modu_desktop.core.github.client import GitHubClient
    from modu_desktop.core.workspace import Workspace

    sb = state["sandbox"]
    user = state["user"]
    tmp = Path(state["tmp"])
    async with GitHubClient(sb.api_url, user.token, _repo_ref(sb), timeout=10.0) as client:
        ws = Workspace.build(
            client, user.login, f"selftest-{uuid.uuid4().hex[:8]}", cache_dir=tmp / "cache"
        )
        store = ws.store
        snapshot = await store.refresh()
        docs = list(snapshot.docs)
        if not docs:
            raise RuntimeError("the practice repository lists no documents")
        first = sorted(docs, key=lambda d: str(d.doc_id))[0]
        loaded = await store.load(first.doc_id)
        if not loaded.text.strip():
            raise RuntimeError(f"{first.doc_id} loaded empty")
        docs_detail = tr(
            "{n} documents listed through the core, {doc} loaded ({chars} chars)",
            n=len(docs),
            doc=first.doc_id,
            chars=len(loaded.text),
        )

        manager = ws.locks
        acquired = await manager.acquire(first.doc_id)
        if not acquired.ok or acquired.held is None:
            raise RuntimeError(f"acquire failed: {acquired.text.en}")
        held = acquired.held
        lock_path = held.path
        if sb.read_file(lock_path) is None:
            raise RuntimeError(f"{lock_path} not in the repository after acquire")
        released = await manager.release(held)
        if str(getattr(released.outcome, "value", released.outcome)) != "released":
            raise RuntimeError(f"release failed: {released.text.en}")
        if sb.read_file(lock_path) is not None:
            raise RuntimeError(f"{lock_path} still in the repository after release")
        lock_detail = tr("acquired and released {path}", path=lock_path)
    return docs_detail, lock_detail


def check_documents(state: dict[str, Any]) -> str:
    if "sandbox" not in state:
        raise RuntimeError("skipped: the sandbox did not start")
    docs_detail, lock_detail = asyncio.run(asyncio.wait_for(_documents_and_lock(state), timeout=30))
    state["lock_detail"] = lock_detail
    return docs_detail


def check_lock(state: dict[str, Any]) -> str:
    if "lock_detail" not in state:
        raise RuntimeError("skipped: listing documents failed")
    return str(state["lock_detail"])


def check_keyring(state: dict[str, Any]) -> str:
    from importlib.metadata import entry_points

    import keyring
    import keyring.backends.macOS
    import keyring.backends.Windows  # noqa: F401

    names = {ep.name for ep in entry_points(group="keyring.backends")}
    missing = [n for n in ("Windows", "macOS") if n not in names]
    if missing:
        raise RuntimeError(
            "keyring entry points missing (metadata not bundled): " + ", ".join(missing)
        )
    backend = keyring.get_keyring()
    kind = f"{type(backend).__module__}.{type(backend).__name__}"
    if "fail" in type(backend).__module__ and sys.platform in ("win32", "darwin"):
        raise RuntimeError(f"no usable keyring backend on this OS ({kind})")
    note = tr(" (no Secret Service here: tokens stay in memory)") if "fail" in kind else ""
    return tr("Windows and macOS backends importable, active backend {kind}", kind=kind) + note


def check_tls(state: dict[str, Any]) -> str:
    import ssl

    import truststore

    truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    # httpx's own context, as the OAuth device flow builds it (SSL_CERT_FILE/SSL_CERT_DIR, then
    # certifi). The loopback sandbox client builds none any more, so check it here.
    import httpx

    httpx.create_ssl_context()
    detail = f"truststore {truststore.__version__}"
    try:
        import certifi
    except ImportError:
        return detail + tr(" (certifi not installed)")
    where = Path(certifi.where())
    if not where.is_file():
        raise RuntimeError(f"certifi bundle missing: {where}")
    return detail + tr(", certifi CA bundle {name}", name=where.name)


def check_markdown(state: dict[str, Any]) -> str:
    sample = (
        "# 제목\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\n\n10~20명, 3~5일 :tada:\n"
    )
    from modu_desktop.core.preview import render_preview

    html = render_preview(sample)
    if "<table" not in html or "제목" not in html:
        raise RuntimeError("tables did not render")
    if "<del>20명, 3</del>" not in html or "🎉" not in html:
        raise RuntimeError("Markdown is not read as the site reads it")
    return tr(
        "{source} reads Markdown as the site does (tables, fenced code, emoji)",
        source="core.preview",
    )


def check_ui(state: dict[str, Any]) -> str:
    module = importlib.import_module("modu_desktop.ui.shell.app")
    if not callable(getattr(module, "main", None)):
        raise RuntimeError("modu_desktop.ui.shell.app has no main()")
    return tr("{module} imports", module="modu_desktop.ui.shell.app")


CHECKS: tuple[tuple[str, Callable[[dict[str, Any]], str]], ...] = (
    ("qt", check_qt),
    ("font", check_korean_font),
    ("resources", check_resources),
    ("sandbox", check_sandbox),
    ("documents", check_documents),
    ("lock", check_lock),
    ("keyring", check_keyring),
    ("tls", check_tls),
    ("markdown", check_markdown),
    ("ui", check_ui),
)
CHECK_NAMES = tuple(name for name, _ in CHECKS)


def run_check(name: str, func: Callable[[dict[str, Any]], str], state: dict[str, Any]) -> Result:
    started = time.perf_counter()
    try:
        detail = func(state)
        status = OK
    except CheckWarning as exc:
        detail, status = str(exc), WARN
    except Exception as exc:
        status = FAIL
        detail = f"{type(exc).__name__}: {exc}".strip()
        if os.environ.get("MODU_SELFTEST_TRACEBACK"):
            detail += "\n" + traceback.format_exc()
    return Result(name, status, detail.replace("\n", "\n     "), time.perf_counter() - started)


@contextlib.contextmanager
def _environment(display: bool) -> Iterator[None]:
    """Offscreen Qt unless a display is requested; quiet Qt platform chatter."""
    saved = {k: os.environ.get(k) for k in ("QT_QPA_PLATFORM", "QT_LOGGING_RULES")}
    if not display:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="modu-desktop --self-test", add_help=True)
    parser.add_argument(
        "--display", action="store_true", help="use the real display instead of offscreen Qt"
    )
    parser.add_argument(
        "--report", type=Path, default=None, help="also write the result lines to this file"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help="abort (with a traceback) after this many seconds",
    )
    parser.add_argument("--lang", choices=("ko", "en"), default=None, help="ko or en")
    parser.add_argument("--data-dir", default=None, help=argparse.SUPPRESS)
    args, _unknown = parser.parse_known_args(argv)  # GUI flags passed along are ignored
    return args


def choose_language(cli: str | None, data_dir: str | None) -> str:
    """--lang, else the app's setting, else the computer's language (as the app decides)."""
    configured = None
    with contextlib.suppress(Exception):
        from modu_desktop.core.account.paths import app_paths
        from modu_desktop.core.account.settings import load_settings

        configured = load_settings(app_paths(data_dir).settings_file).language
    try:
        from modu_desktop.ui.shell.i18n import detect_language

        return detect_language(cli, configured)
    except Exception:  # no Qt at all: the checks will say so, in English
        return cli or configured or "en"


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    i18n.set_language(choose_language(args.lang, args.data_dir))
    reporter = Reporter(args.report)
    fault_stream = reporter.fault_stream()
    if fault_stream is not None and args.timeout > 0:
        faulthandler.dump_traceback_later(args.timeout, exit=True, file=fault_stream)
    from modu_desktop import __version__

    started = time.perf_counter()
    mode = tr("bundle") if is_frozen() else tr("source")
    reporter.emit(
        tr(
            "Modu Desktop {version} self-test ({mode}, Python {python}, {platform})",
            version=__version__,
            mode=mode,
            python=sys.version.split()[0],
            platform=sys.platform,
        )
    )
    results: list[Result] = []
    state: dict[str, Any] = {}
    try:
        with (
            _environment(args.display),
            tempfile.TemporaryDirectory(prefix="modu-selftest-") as tmp,
        ):
            state["tmp"] = tmp
            try:
                for name, func in CHECKS:
                    result = run_check(name, func, state)
                    results.append(result)
                    reporter.emit(result.line())
            finally:
                sb = state.get("sandbox_obj")
                if sb is not None:
                    with contextlib.suppress(Exception):
                        sb.stop()
    except Exception as exc:  # never let a windowed bundle show a traceback dialog
        reporter.emit(f"{status_word(FAIL)} self-test: {type(exc).__name__}: {exc}")
        results.append(Result("self-test", FAIL, str(exc), 0.0))
    finally:
        faulthandler.cancel_dump_traceback_later()
    failed = [r.name for r in results if r.status == FAIL]
    warned = [r.name for r in results if r.status == WARN]
    elapsed = time.perf_counter() - started
    counts = {
        "ok": len(results) - len(failed) - len(warned),
        "warned": len(warned),
        "failed": len(failed),
        "seconds": f"{elapsed:.1f}",
    }
    if failed:
        summary = tr(
            "self-test FAILED: {ok} ok, {warned} warnings, {failed} failed in {seconds} s",
            **counts,
        )
    else:
        summary = tr(
            "self-test passed: {ok} ok, {warned} warnings, {failed} failed in {seconds} s",
            **counts,
        )
    if failed:
        summary += " (" + ", ".join(failed) + ")"
    reporter.emit(summary)
    reporter.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
