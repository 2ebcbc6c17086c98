"""The app's life once the event loop runs: sign in (the stored token, or the sign-in screen),
open the main window, wait until it closes, sign in again after Sign out, and leave releasing
every lock. SIGINT/SIGTERM, OS logout and ``--quit-after`` take the window's own quit, without
questions; a 200 ms timer lets Python see signals while Qt runs. ``app.main`` builds the Qt
application and the loop, then runs :class:`AppRun`."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from modu_desktop.core.account.auth import (
    TOKEN_NAME,
    SignInResult,
    TokenSource,
    TokenStore,
    check_token,
    read_only_reason,
)
from modu_desktop.core.account.paths import AppPaths
from modu_desktop.core.account.settings import Settings, save_settings
from modu_desktop.core.github.client import GitHubClient
from modu_desktop.core.github.types import Tree
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.context import AppContext, AppOptions, make_client
from modu_desktop.ui.recovery.nothing_lost import practice_port, remember_practice_port
from modu_desktop.ui.recovery.single_instance import current_instance
from modu_desktop.ui.shell.main_window import MainWindow

if TYPE_CHECKING:
    from modu_desktop.sandbox import Sandbox
    from modu_desktop.ui.shell.start_window import StartWindow

log = logging.getLogger("modu_desktop")

SHUTDOWN_GRACE_S = 15.0


class Runner:
    """Holds the current window so signals and OS logout can reach it."""

    def __init__(self) -> None:
        self.window: MainWindow | None = None
        self._quit_event: asyncio.Event | None = None
        self.signals = 0

    @property
    def quit_event(self) -> asyncio.Event:
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


@dataclass
class Connected:
    """A client whose token works for the repository, and the list's tree if it is on its way."""

    result: SignInResult
    client: GitHubClient
    tree_ahead: asyncio.Future[Tree] | None = None


class AppRun:
    def __init__(
        self,
        args: argparse.Namespace,
        app: QApplication,
        paths: AppPaths,
        settings: Settings,
        lang: str,
        runner: Runner,
        early: StartWindow | None = None,
    ) -> None:
        self.args = args
        self.app = app
        self.paths = paths
        self.settings = settings
        self.runner = runner
        self.early = early  # the start window with the last list, until the main window
        self.options = app_options(args, settings, lang)
        self.sandbox: Sandbox | None = None  # the practice server, in this process
        self.token_store: TokenStore | None = None
        self.token: str | None = None
        self.session_only_notice = False  # no keyring: the token lasts until quitting
        self.first_error: str | None = None  # why the stored token did not work
        self.retry_token: str | None = None  # kept in the field when GitHub could not be reached

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        wake = self._install_quit_paths(loop)
        if self.args.sandbox:
            self.sandbox, self.token = await start_practice(self.paths, self.settings)
        else:
            self.token_store = TokenStore(self.settings.api_host)
            self.token = self.token_store.load()
        self._time_up = self._quit_after()  # kept alive until the run ends
        ctx: AppContext | None = None
        try:
            while True:
                connected = await self._connect()
                if isinstance(connected, int):
                    return connected
                ctx = self._context(connected)
                signed_out = await self._window(ctx, connected.result)
                await ctx.aclose()
                ctx = None
                if not signed_out:
                    break
                self.token = None
                self.first_error = None
        finally:
            if self.early is not None:
                self.early.discard()
            if ctx is not None:
                await ctx.aclose()
            if self.sandbox is not None:
                await loop.run_in_executor(None, self.sandbox.stop)
            wake.stop()
        return 0

    def _install_quit_paths(self, loop: asyncio.AbstractEventLoop) -> QTimer:
        runner = self.runner

        def on_signal(_signum: int, _frame: Any) -> None:
            loop.call_soon_threadsafe(runner.quit_quietly)

        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(ValueError, OSError):
                signal.signal(sig, on_signal)
        wake = QTimer()
        wake.timeout.connect(lambda: None)  # let the interpreter run signal handlers
        wake.start(200)
        self.app.commitDataRequest.connect(lambda _m: runner.quit_quietly())

        def last_closed() -> None:
            if runner.window is None:
                runner.quit_event.set()

        self.app.lastWindowClosed.connect(last_closed)
        return wake

    def _quit_after(self) -> QTimer | None:
        """``--quit-after N``: a screenshot if asked, then a quiet quit after N seconds."""
        if self.args.quit_after is None:
            return None
        runner = self.runner

        def time_up() -> None:
            if runner.window is not None:
                take_screenshot(runner.window, self.args.screenshot)
                runner.window.request_quit(False)
            else:
                runner.quit_event.set()

        timer = QTimer()
        timer.setSingleShot(True)
        timer.timeout.connect(time_up)
        timer.start(int(self.args.quit_after * 1000))
        return timer

    async def _connect(self) -> Connected | int:
        """A client whose token works: the stored one, or one from the sign-in screen (which
        may start practice mode instead). An exit code when the user quit there (0) or the
        practice server refused its own token (1)."""
        while True:
            if self.token:
                connected = await self._check_stored()
                if connected is not None:
                    return connected
                if self.sandbox is not None:
                    log.error("practice sign-in failed: %s", self.first_error)
                    return 1
            token_store = self.token_store
            assert token_store is not None
            if self.early is not None:  # signing in first: the last list is not for now
                self.early.discard()
                self.early = None
            got = await sign_in(
                self.settings, token_store, self.first_error, self.runner, self.retry_token
            )
            if got is None:
                return 0
            if got == "practice":  # "연습 모드로 둘러보기" on the sign-in screen
                self.sandbox, self.token = await start_practice(self.paths, self.settings)
                self.options.practice = True
                self.first_error = self.retry_token = None
                continue
            result, self.token, client = got
            self.session_only_notice = token_store.source is TokenSource.SESSION
            if token_store.account != self.settings.api_host:
                token_store.account = self.settings.api_host
            with contextlib.suppress(Exception):
                save_settings(self.settings, self.paths.settings_file)
            return Connected(result, client)

    async def _check_stored(self) -> Connected | None:
        """The stored token, checked; None when it does not work (``first_error`` says why)."""
        assert self.token is not None
        settings = self.settings
        client = make_client(settings.api_url, self.token, settings)
        # The list's tree goes out with the sign-in check: one round trip for both.
        tree_ahead = asyncio.ensure_future(client.get_tree(settings.branch))
        tree_ahead.add_done_callback(lambda t: t.cancelled() or t.exception())
        result = await check_token(client, required_org=settings.required_org)
        if result.ok:
            return Connected(result, client, tree_ahead)
        tree_ahead.cancel()
        self.first_error = result.message
        # Offline or GitHub down: keep the stored token in the field, so "Sign in" just tries
        # again.
        self.retry_token = self.token if result.error_kind == "network" else None
        with contextlib.suppress(Exception):
            await client.aclose()
        store = self.token_store
        if self.sandbox is None and store is not None and store.source is TokenSource.ENV:
            store.use_env = False  # a bad MODU_TOKEN: ask instead
        return None

    def _context(self, connected: Connected) -> AppContext:
        ctx = AppContext(
            settings=self.settings,
            paths=self.paths,
            options=self.options,
            client=connected.client,
            login=connected.result.login or "?",
            can_push=connected.result.can_push,
            token_store=self.token_store,
            sandbox=self.sandbox,
        ).build()
        if connected.tree_ahead is not None:
            ctx.store.use_prefetched(connected.tree_ahead)
        return ctx

    async def _window(self, ctx: AppContext, result: SignInResult) -> bool:
        """The main window, from its first paint until it closes; True when it signed out."""
        runner = self.runner
        win = MainWindow(ctx)
        if self.early is not None:
            self.early.hand_over(win)  # rows, filter, selection, a waiting open; same place
            self.early = None
        runner.window = win
        win.nothing_lost.serve(current_instance())
        done = asyncio.Event()
        signed_out: list[bool] = []

        def signing_out() -> None:
            signed_out.append(True)
            done.set()

        win.finished.connect(done.set)
        win.signOutRequested.connect(signing_out)
        win.show()
        drop_source_cache()
        self._first_notices(win, result)
        win.ops.run(startup(win, self.options.open_doc, self.args.screenshot), name="startup")
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
        return bool(signed_out)

    def _first_notices(self, win: MainWindow, result: SignInResult) -> None:
        if self.session_only_notice:
            win.show_notice(
                tr(
                    "No password store (keyring) on this computer: your token is "
                    "kept only until you quit."
                ),
                "warning",
            )
        if self.token and read_only_reason(self.token, result) == "approval_pending":
            win.show_notice(
                tr(
                    "Your token cannot save yet: the organization {owner} has to approve "
                    "“{token}” first. Until then documents open read-only; after the "
                    "approval, sign out and in again.",
                    owner=self.settings.owner,
                    token=TOKEN_NAME,
                ),
                "warning",
            )


def app_options(args: argparse.Namespace, settings: Settings, lang: str) -> AppOptions:
    """The command line over the settings: the repository and server it names, and the
    options that change behaviour."""
    if args.repo:
        settings.set_repo(args.repo)
    if args.branch:
        settings.branch = args.branch
    if args.api_url:
        settings.api_url = args.api_url.rstrip("/")
    return AppOptions(
        lang=lang,
        practice=bool(args.sandbox),
        force_viewer=bool(args.viewer),
        heartbeat_s=max(1.0, float(args.heartbeat_seconds)),
        stale_s=max(2.0, float(args.stale_seconds)),
        open_doc=args.open_doc,
        idle_release_s=idle_release_s(args.idle_release_minutes, settings.idle_release_minutes),
    )


def idle_release_s(from_args: float | None, from_settings: float) -> float | None:
    """Seconds without typing before an open document's lock is released (None: never)."""
    minutes = from_settings if from_args is None else from_args
    return minutes * 60.0 if minutes and minutes > 0 else None


def drop_source_cache() -> None:
    """PySide6 reads the source of every module imported after it (looking for
    ``from __feature__ import``) through ``linecache``, which keeps every line: ~7 MB of text
    (~480 files) that nothing shows. Dropped once the window is up; a traceback that needs a
    line reads it again."""
    import linecache

    linecache.clearcache()


async def start_practice(paths: AppPaths, settings: Settings) -> tuple[Sandbox, str]:
    """Start the practice sandbox (the port of last time if free) and point settings at it.
    Practice mode keeps its address across restarts: drafts, queued saves and lock records
    are keyed by it, and the start-up recovery must recognise them."""
    from modu_desktop.sandbox import PRACTICE_USER, Sandbox

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


async def startup(win: MainWindow, open_doc: str | None, screenshot: str | None) -> None:
    await win.refresh_list()
    await win.recover_at_start()
    if open_doc:
        await win.open_document(open_doc)
    if screenshot:
        await asyncio.sleep(0.4)  # let the preview render
        take_screenshot(win, screenshot)


def take_screenshot(win: MainWindow, path: str | None) -> None:
    if not path or getattr(win, "_screenshot_taken", False):
        return
    win._screenshot_taken = True  # type: ignore[attr-defined]
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    if not win.grab().save(str(p), "PNG"):
        log.error("could not write screenshot %s", p)


SignedIn = tuple[SignInResult, str, GitHubClient]


async def sign_in(
    settings: Settings,
    token_store: TokenStore,
    error: str | None,
    runner: Runner,
    initial_token: str | None = None,
) -> SignedIn | Literal["practice"] | None:
    """The sign-in screen: (result, token, client) once a token works, "practice" for
    practice mode, None when the user quit."""
    from modu_desktop.ui.signin.signin import SignInWidget

    w = SignInWidget(
        settings,
        token_store,
        make_client,
        initial_error=error,
        initial_token=initial_token,
    )
    fut: asyncio.Future[SignedIn | Literal["practice"] | None]
    fut = asyncio.get_running_loop().create_future()

    def ok(result: SignInResult, token: str, client: GitHubClient) -> None:
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
