"""GUI entry point: ``modu-desktop [--sandbox] [--api-url URL --repo OWNER/NAME] …``.

Event loop: qasync over the QApplication; ``setQuitOnLastWindowClosed(False)`` and the main
coroutine waits for the window's ``finished`` (emitted after every lock is released) or for
``lastWindowClosed``. SIGINT/SIGTERM and OS logout (``commitDataRequest``) take the same path as
File → Quit, without questions; a 200 ms timer lets Python see signals while Qt runs.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import asyncio

from modu_desktop.i18n import tr

log = logging.getLogger("modu_desktop")

SHUTDOWN_GRACE_S = 15.0


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

    from PySide6.QtWidgets import QApplication

    from modu_desktop import APP_NAME
    from modu_desktop.ui.shell.i18n import detect_language, install_translators, load_style
    from modu_desktop.ui.shell.qt_setup import prepare_application, register_app_font

    prepare_application()  # WebEngine: shared GL contexts, before the QApplication
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "modu-desktop"])
    assert isinstance(app, QApplication)
    register_app_font(app)  # the font the preview uses, for the UI too (Hangul alike everywhere)
    app.setApplicationName("modu-desktop")
    app.setApplicationDisplayName(APP_NAME)
    app.setOrganizationName("pnuai")
    app.setQuitOnLastWindowClosed(False)
    if os.environ.get("MODU_HANDS_PROBE"):  # the real-hands tests read the app through it
        from modu_desktop.ui.kit.hands_probe import start_from_environment

        start_from_environment(app)

    lang = detect_language(args.lang, settings.language)
    install_translators(app, lang)
    from modu_desktop import i18n

    i18n.set_language(lang)  # the Qt-free tr() follows the same language
    load_style(app, settings.text_scale)  # the computer's text size × the user's own

    # One running instance per data dir: a second start hands its request (--open DOC) to the
    # first one and leaves.
    from modu_desktop.ui.shell.single_instance import instance_gate

    gate_rc = instance_gate(paths.data_dir, args.open_doc)
    if gate_rc is not None:
        return gate_rc

    # The last list at first paint, before qasync, httpx and the editor are imported.
    early = _show_last_list(paths, settings, args, check)
    if early is not None:
        _import_in_steps(app, WARM_UP)
    import asyncio  # here, not at the top: the first paint does not need it

    import qasync

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    runner = _Runner()
    from modu_desktop.ui.help.crash import install_crash_handler

    # An unexpected error: logged, the text kept, one dialog pointing to 문제 보고.
    install_crash_handler(lambda: runner.window, loop)
    rc = 0
    with loop:
        try:
            rc = int(
                loop.run_until_complete(
                    _async_main(args, app, paths, settings, lang, runner, early)
                )
            )
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
    _teardown_qt(app)
    return rc


def _teardown_qt(app: Any) -> None:
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


class _Runner:
    """Holds the current window so signals and OS logout can reach it."""

    def __init__(self) -> None:
        self.window: Any = None
        self._quit_event: asyncio.Event | None = None
        self.signals = 0

    @property
    def quit_event(self) -> asyncio.Event:
        import asyncio

        if self._quit_event is None:  # created inside the running loop
            self._quit_event = asyncio.Event()
        return self._quit_event

    def quit_quietly(self) -> None:
        """SIGTERM/SIGINT/logout: same as File → Quit, without questions; twice = leave now."""
        self.signals += 1
        if self.window is not None and self.signals == 1:
            self.window.request_quit(False)
        else:
            self.quit_event.set()


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
    "modu_desktop.ui.shell.context",
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
)


def _import_in_steps(app: Any, modules: tuple[str, ...]) -> None:
    import importlib

    for name in modules:
        importlib.import_module(name)
        app.processEvents()


def drop_source_cache() -> None:
    """PySide6 reads the source of every module imported after it (looking for
    ``from __feature__ import``) through ``linecache``, which keeps every line: ~7 MB of text
    (~480 files) that nothing shows. Dropped once the window is up; a traceback that needs a
    line reads it again."""
    import linecache

    linecache.clearcache()


def _list_place(settings: Any, args: argparse.Namespace) -> tuple[str, str, str]:
    """(API URL, repository, branch) of this run."""
    repo = args.repo or settings.repo_full_name
    api_url = (args.api_url or settings.api_url).rstrip("/")
    return api_url, repo, args.branch or settings.branch


def _start_check(paths: Any, settings: Any, args: argparse.Namespace) -> Any:
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


def _show_last_list(paths: Any, settings: Any, args: argparse.Namespace, check: Any = None) -> Any:
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


async def _async_main(
    args: argparse.Namespace,
    app: Any,
    paths: Any,
    settings: Any,
    lang: str,
    runner: _Runner,
    early: Any = None,
) -> int:
    import asyncio

    from PySide6.QtCore import QTimer

    from modu_desktop.core.account.auth import TokenSource, TokenStore, check_token
    from modu_desktop.ui.shell.context import AppContext, AppOptions, make_client
    from modu_desktop.ui.shell.main_window import MainWindow
    from modu_desktop.ui.shell.single_instance import current_instance

    loop = asyncio.get_running_loop()

    def on_signal(_signum: int, _frame: Any) -> None:
        loop.call_soon_threadsafe(runner.quit_quietly)

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(ValueError, OSError):
            signal.signal(sig, on_signal)
    wake = QTimer()
    wake.timeout.connect(lambda: None)  # let the interpreter run signal handlers
    wake.start(200)
    app.commitDataRequest.connect(lambda _m: runner.quit_quietly())

    def _last_closed() -> None:
        if runner.window is None:
            runner.quit_event.set()

    app.lastWindowClosed.connect(_last_closed)

    if args.repo:
        settings.set_repo(args.repo)
    if args.branch:
        settings.branch = args.branch
    if args.api_url:
        settings.api_url = args.api_url.rstrip("/")

    options = AppOptions(
        lang=lang,
        practice=bool(args.sandbox),
        force_viewer=bool(args.viewer),
        heartbeat_s=max(1.0, float(args.heartbeat_seconds)),
        stale_s=max(2.0, float(args.stale_seconds)),
        open_doc=args.open_doc,
        idle_release_s=_idle_release_s(args.idle_release_minutes, settings.idle_release_minutes),
    )

    sandbox = None
    token_store: TokenStore | None = None
    token: str | None = None
    session_only_notice = False
    if args.sandbox:
        sandbox, token = await _start_practice(paths, settings)
    else:
        token_store = TokenStore(settings.api_host)
        token = token_store.load()

    quit_after_handle: list[Any] = []
    if args.quit_after is not None:

        def _time_up() -> None:
            if runner.window is not None:
                _take_screenshot(runner.window, args.screenshot)
                runner.window.request_quit(False)
            else:
                runner.quit_event.set()

        t = QTimer()
        t.setSingleShot(True)
        t.timeout.connect(_time_up)
        t.start(int(args.quit_after * 1000))
        quit_after_handle.append(t)

    rc = 0
    ctx: AppContext | None = None
    try:
        first_error: str | None = None
        retry_token: str | None = None
        while True:
            client = None
            result = None
            tree_ahead: asyncio.Future[Any] | None = None
            if token:
                client = make_client(settings.api_url, token, settings)
                # The list's tree goes out with the sign-in check: one round trip for both.
                tree_ahead = asyncio.ensure_future(client.get_tree(settings.branch))
                tree_ahead.add_done_callback(lambda t: t.cancelled() or t.exception())
                result = await check_token(client, required_org=settings.required_org)
                if not result.ok:
                    tree_ahead.cancel()
                    tree_ahead = None
                    first_error = result.message
                    # Offline or GitHub down: keep the stored token in the field, so
                    # "Sign in" just tries again.
                    retry_token = token if result.error_kind == "network" else None
                    with contextlib.suppress(Exception):
                        await client.aclose()
                    client = None
                    if sandbox is not None:
                        log.error("practice sign-in failed: %s", result.message)
                        return 1
                    if token_store is not None and token_store.source is TokenSource.ENV:
                        token_store.use_env = False  # a bad MODU_TOKEN: ask instead
            if client is None or result is None:
                assert token_store is not None
                if early is not None:  # signing in first: the last list is not for now
                    early.discard()
                    early = None
                got = await _sign_in(settings, token_store, first_error, runner, retry_token)
                if got is None:
                    return 0
                if got == "practice":  # "연습 모드로 둘러보기" on the sign-in screen
                    sandbox, token = await _start_practice(paths, settings)
                    options.practice = True
                    first_error = retry_token = None
                    continue
                result, token, client = got
                session_only_notice = token_store.source is TokenSource.SESSION
                if token_store.account != settings.api_host:
                    token_store.account = settings.api_host
                with contextlib.suppress(Exception):
                    from modu_desktop.core.account.settings import save_settings

                    save_settings(settings, paths.settings_file)
            ctx = AppContext(
                settings=settings,
                paths=paths,
                options=options,
                client=client,
                login=result.login or "?",
                can_push=result.can_push,
                token_store=token_store,
                sandbox=sandbox,
            ).build()
            if tree_ahead is not None:
                ctx.store.use_prefetched(tree_ahead)
                tree_ahead = None
            win = MainWindow(ctx)
            if early is not None:
                early.hand_over(win)  # rows, filter, selection, a waiting open; same place
                early = None
            runner.window = win
            win.nothing_lost.serve(current_instance())
            done = asyncio.Event()
            outcome: dict[str, bool] = {"signed_out": False}

            def _signed_out(ev: asyncio.Event = done, out: dict[str, bool] = outcome) -> None:
                out["signed_out"] = True
                ev.set()

            win.finished.connect(done.set)
            win.signOutRequested.connect(_signed_out)
            win.show()
            drop_source_cache()
            if session_only_notice:
                win.show_notice(
                    tr(
                        "No password store (keyring) on this computer: your token is "
                        "kept only until you quit."
                    ),
                    "warning",
                )
            from modu_desktop.core.account.auth import TOKEN_NAME, read_only_reason

            if token and read_only_reason(token, result) == "approval_pending":
                win.show_notice(
                    tr(
                        "Your token cannot save yet: the organization {owner} has to approve "
                        "“{token}” first. Until then documents open read-only; after the "
                        "approval, sign out and in again.",
                        owner=settings.owner,
                        token=TOKEN_NAME,
                    ),
                    "warning",
                )
            win.ops.run(_startup(win, options.open_doc, args.screenshot), name="startup")
            win.help_menu.updates.start_background()  # later, in the background, once
            waiter = asyncio.ensure_future(done.wait())
            quitter = asyncio.ensure_future(runner.quit_event.wait())
            await asyncio.wait({waiter, quitter}, return_when=asyncio.FIRST_COMPLETED)
            for f in (waiter, quitter):
                f.cancel()
            if not done.is_set():
                # asked to leave without the window's own quit (second signal, window gone):
                # still try to release within the grace period
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(win.shutdown(interactive=False), SHUTDOWN_GRACE_S)
            runner.window = None
            await win.nothing_lost.aclose()
            win.hide()
            win.deleteLater()
            await ctx.aclose()
            ctx = None
            if outcome["signed_out"]:
                token = None
                first_error = None
                continue
            break
    finally:
        if early is not None:
            early.discard()
        if ctx is not None:
            await ctx.aclose()
        if sandbox is not None:
            await loop.run_in_executor(None, sandbox.stop)
        wake.stop()
    return rc


async def _start_practice(paths: Any, settings: Any) -> tuple[Any, str]:
    """Start the practice sandbox (the port of last time if free) and point settings at it.
    Practice mode keeps its address across restarts: drafts, queued saves and lock records
    are keyed by it, and the start-up recovery must recognise them."""
    import asyncio

    from modu_desktop.sandbox import PRACTICE_USER, Sandbox
    from modu_desktop.ui.recovery.nothing_lost import practice_port, remember_practice_port

    loop = asyncio.get_running_loop()
    sandbox = Sandbox(
        paths.sandbox_repo_dir,
        owner=settings.owner,
        name=settings.name,
        branch=settings.branch,
        users=[PRACTICE_USER],
        seed="sample",
        port=practice_port(paths.data_dir),
    )
    try:
        await loop.run_in_executor(None, sandbox.start)
    except OSError:  # last time's port is taken now: any free port
        sandbox.port = 0
        await loop.run_in_executor(None, sandbox.start)
    remember_practice_port(paths.data_dir, sandbox.port)
    settings.api_url = sandbox.api_url
    return sandbox, PRACTICE_USER.token


async def _startup(win: Any, open_doc: str | None, screenshot: str | None) -> None:
    import asyncio

    await win.refresh_list()
    await win.recover_at_start()
    if open_doc:
        await win.open_document(open_doc)
    if screenshot:
        await asyncio.sleep(0.4)  # let the preview render
        _take_screenshot(win, screenshot)


def _take_screenshot(win: Any, path: str | None) -> None:
    if not path or getattr(win, "_screenshot_taken", False):
        return
    win._screenshot_taken = True
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    if not win.grab().save(str(p), "PNG"):
        log.error("could not write screenshot %s", p)


async def _sign_in(
    settings: Any,
    token_store: Any,
    error: str | None,
    runner: _Runner,
    initial_token: str | None = None,
) -> Any:
    import asyncio

    from modu_desktop.ui.shell.context import make_client
    from modu_desktop.ui.signin.signin import SignInWidget

    w = SignInWidget(
        settings,
        token_store,
        make_client,
        initial_error=error,
        initial_token=initial_token,
    )
    fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def ok(result: Any, token: str, client: Any) -> None:
        if not fut.done():
            fut.set_result((result, token, client))

    def cancel() -> None:
        if not fut.done():
            fut.set_result(None)

    def practice() -> None:
        if not fut.done():
            fut.set_result("practice")

    w.signedIn.connect(ok)
    w.quitRequested.connect(cancel)
    w.practiceRequested.connect(practice)
    w.show()
    quitter = asyncio.ensure_future(runner.quit_event.wait())
    quitter.add_done_callback(lambda _f: cancel())
    try:
        return await fut
    finally:
        quitter.cancel()
        w.hide()
        w.deleteLater()


def _idle_release_s(from_args: float | None, from_settings: float) -> float | None:
    """Seconds without typing before an open document's lock is released (None: never)."""
    minutes = from_settings if from_args is None else from_args
    return minutes * 60.0 if minutes and minutes > 0 else None
