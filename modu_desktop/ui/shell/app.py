"""GUI entry point: ``modu-desktop [--sandbox] [--api-url URL --repo OWNER/NAME] …``.

Settings, the start-up check (before Qt is imported), the QApplication, one instance per data
folder, the start window with the last list, then the event loop: qasync over the QApplication,
``setQuitOnLastWindowClosed(False)``, and ``app_run.AppRun`` (sign-in and the main window) until
the window's ``finished`` (emitted after every lock is released) or ``lastWindowClosed``.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from modu_desktop.core.account.paths import AppPaths
    from modu_desktop.core.account.settings import Settings
    from modu_desktop.core.account.startcheck import StartCheck
    from modu_desktop.ui.shell.start_window import StartWindow

log = logging.getLogger("modu_desktop")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="modu-desktop", description="Modu Desktop — brochure editor")
    p.add_argument(
        "--sandbox", action="store_true", help="practice mode: a local practice repository"
    )
    p.add_argument("--api-url", help="GitHub API base URL (GitHub Enterprise: https://HOST/api/v3)")
    p.add_argument("--repo", help="repository OWNER/NAME (default pnuai/PNU-Modu)")
    p.add_argument("--branch", help="branch (default main)")
    p.add_argument("--viewer", action="store_true", help="read only: no locks, no writes")
    p.add_argument("--open", dest="open_doc", metavar="DOC_ID", help="open this document at start")
    p.add_argument("--lang", choices=("ko", "en"), help="interface language")
    p.add_argument("--data-dir", help="keep config, cache, drafts and the practice repo here")
    p.add_argument("--heartbeat-seconds", type=float, default=300.0)
    p.add_argument("--stale-seconds", type=float, default=900.0)
    p.add_argument(
        "--idle-release-minutes",
        type=float,
        default=None,
        metavar="MINUTES",
        help="release an open document's lock after this long without typing "
        "(default: settings.json idle_release_minutes, 20; 0 = never)",
    )
    p.add_argument("--screenshot", metavar="FILE", help="write a PNG of the main window")
    p.add_argument("--quit-after", type=float, metavar="SECONDS", help="quit gracefully after N s")
    p.add_argument("--debug", action="store_true", help="verbose log on stderr")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    if (
        os.environ.get("QT_QPA_PLATFORM") is None
        and sys.platform.startswith("linux")
        and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    ):
        # Without a display Qt aborts the whole process; fall back to offscreen (screenshots work).
        os.environ["QT_QPA_PLATFORM"] = "offscreen"

    from modu_desktop.core.account.paths import app_paths
    from modu_desktop.core.account.settings import load_settings

    paths = app_paths(args.data_dir).ensure()
    from modu_desktop.core.support.logfile import start_logging

    # The log file in the platform's log folder (or under --data-dir); the console only when
    # there is one (the windowed Windows build has no stderr).
    start_logging(paths.logs, debug=args.debug)
    log.info("Modu Desktop starting (%s)", sys.platform)
    settings = load_settings(paths.settings_file)
    # Ask GitHub whether the last list is current before Qt is even imported; the
    # answer is often in by the first paint.
    check = _start_check(paths, settings, args)
    app, lang = _qt_application(args, settings)

    # One running instance per data dir: a second start hands its request (--open DOC) to the
    # first one and leaves.
    from modu_desktop.ui.recovery.single_instance import instance_gate

    gate_rc = instance_gate(paths.data_dir, args.open_doc)
    if gate_rc is not None:
        return gate_rc

    # The last list at first paint, before qasync, httpx and the editor are imported.
    early = _show_last_list(paths, settings, args, check)
    if early is not None:
        _import_in_steps(app, WARM_UP)
    rc = _run(args, app, paths, settings, lang, early)
    _teardown_qt(app)
    return rc


def _qt_application(args: argparse.Namespace, settings: Settings) -> tuple[QApplication, str]:
    """The QApplication, in the interface language, with the app's font and style."""
    from PySide6.QtWidgets import QApplication

    from modu_desktop import APP_NAME
    from modu_desktop.ui.shell.i18n import detect_language, install_translators, load_style
    from modu_desktop.ui.shell.qt_setup import prepare_application, register_app_font

    prepare_application()  # WebEngine: shared GL contexts, before the QApplication
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "modu-desktop"])
    assert isinstance(app, QApplication)
    register_app_font(app)  # the font the preview uses, for the UI too (Hangul alike everywhere)
    app.setApplicationName("modu-desktop")
    app.setOrganizationName("pnuai")
    app.setQuitOnLastWindowClosed(False)
    if os.environ.get("MODU_HANDS_PROBE"):  # the real-hands tests read the app through it
        from modu_desktop.ui.kit.hands_probe import start_from_environment

        start_from_environment(app)

    lang = detect_language(args.lang, settings.language)
    install_translators(app, lang)
    from modu_desktop import i18n

    i18n.set_language(lang)  # the Qt-free tr() follows the same language
    # Qt on Linux ends every window title with this name unless the title already ends with it
    app.setApplicationDisplayName(i18n.tr(APP_NAME))
    load_style(app, settings.text_scale)  # the computer's text size × the user's own
    return app, lang


def _run(
    args: argparse.Namespace,
    app: QApplication,
    paths: AppPaths,
    settings: Settings,
    lang: str,
    early: StartWindow | None,
) -> int:
    """The event loop (qasync over Qt) running the app (``app_run.AppRun``) to its end."""
    import asyncio  # here, not at the top: the first paint does not need it

    import qasync

    from modu_desktop.ui.help.crash import install_crash_handler
    from modu_desktop.ui.shell.app_run import SHUTDOWN_GRACE_S, AppRun, Runner

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    runner = Runner()
    # An unexpected error: logged, the text kept, one dialog pointing to 문제 보고.
    install_crash_handler(lambda: runner.window, loop)
    rc = 0
    with loop:
        try:
            run = AppRun(args, app, paths, settings, lang, runner, early)
            rc = int(loop.run_until_complete(run.run()))
        except KeyboardInterrupt:
            rc = 130
        except RuntimeError as exc:
            # Qt's own quit (OS logout/shutdown calling QApplication.quit()) stopped the loop
            # under us: run it once more, briefly, to release every held lock.
            log.warning("event loop stopped early (%s); releasing locks", exc)
            win = runner.window
            if win is not None:
                with contextlib.suppress(Exception):
                    loop.run_until_complete(
                        asyncio.wait_for(win.shutdown(interactive=False), SHUTDOWN_GRACE_S)
                    )
            rc = 0
    return rc


def _teardown_qt(app: QApplication) -> None:
    """Delete every widget while the QApplication still exists: Python's finaliser must not be
    the one destroying Qt objects (PySide can crash in interpreter shutdown otherwise)."""
    import gc

    from PySide6.QtCore import QCoreApplication, QEvent

    for w in list(app.topLevelWidgets()):
        with contextlib.suppress(RuntimeError):
            w.close()
            w.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    app.processEvents()
    gc.collect()


# What the main window needs, in dependency order, imported one step at a time while the start
# window shows the last list: between steps it answers the start-up check, the filter and
# clicks. (In one go this is ~300 ms during which the start window is frozen.)
WARM_UP = (
    "asyncio",
    "qasync",
    "httpx",
    "httpcore",
    "modu_desktop.core.github.client",
    "modu_desktop.core.documents.store",
    "modu_desktop.core.workspace",
    "modu_desktop.ui.kit.context",
    "modu_desktop.core.edit_session",
    "modu_desktop.ui.docops.ops_host",
    "modu_desktop.core.publish.check",
    "modu_desktop.ui.publish.wiring",
    "modu_desktop.core.preview.mdx",
    "modu_desktop.core.preview.site_style",
    "modu_desktop.core.preview",
    "modu_desktop.ui.preview.pane",
    "modu_desktop.ui.editing.editor",
    "modu_desktop.ui.shell.window_parts",
    "modu_desktop.ui.shell.main_window",
    "modu_desktop.ui.shell.app_run",
)


def _import_in_steps(app: QApplication, modules: tuple[str, ...]) -> None:
    import importlib

    for name in modules:
        importlib.import_module(name)
        app.processEvents()


def _list_place(settings: Settings, args: argparse.Namespace) -> tuple[str, str, str]:
    """(API URL, repository, branch) of this run."""
    repo = args.repo or settings.repo_full_name
    api_url = (args.api_url or settings.api_url).rstrip("/")
    return api_url, repo, args.branch or settings.branch


def _start_check(
    paths: AppPaths, settings: Settings, args: argparse.Namespace
) -> StartCheck | None:
    """The start-up check (``core/account/startcheck.py``), started, when there is a last list of a
    GitHub repository to confirm; None in practice mode (its server is not up yet) or with no
    list. A second instance that hands over and leaves makes this one GET for nothing."""
    if args.sandbox:
        return None
    try:
        from modu_desktop.core.account.settings import keyring_account
        from modu_desktop.core.account.startcheck import StartCheck
        from modu_desktop.core.documents.snapshots import list_file

        api_url, repo, branch = _list_place(settings, args)
        if not list_file(paths.cache_dir, api_url, repo, branch).path.is_file():
            return None
        return StartCheck(api_url, repo, branch, keyring_account(api_url)).start()
    except Exception:  # a shortcut: never stops the start
        log.info("no start-up check", exc_info=True)
        return None


def _show_last_list(
    paths: AppPaths, settings: Settings, args: argparse.Namespace, check: StartCheck | None = None
) -> StartWindow | None:
    """The start window with the last run's list (``ui/shell/start_window.py``), or None."""
    try:
        from modu_desktop.ui.shell.start_window import show_last_list

        api_url, repo, branch = _list_place(settings, args)
        return show_last_list(
            paths.cache_dir, api_url, repo, branch, practice=args.sandbox, check=check
        )
    except Exception:  # a cache: never stops the start
        log.info("no start window from the last list", exc_info=True)
        return None
