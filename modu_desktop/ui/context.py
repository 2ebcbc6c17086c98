"""Everything a signed-in window needs: the client, the stores, the lock manager, who we are.

Qt-free glue between the app and the core (it lives in ``ui/`` because it decides what the UI
uses). Widgets receive an ``AppContext`` and call the core through it.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from modu_desktop.core.auth import TokenStore
from modu_desktop.core.paths import AppPaths
from modu_desktop.core.session import new_session_id
from modu_desktop.core.settings import Settings


@dataclass
class AppOptions:
    """Command line options that change behaviour (see ``app.py``)."""

    lang: str = "en"
    practice: bool = False
    force_viewer: bool = False
    heartbeat_s: float = 300.0
    stale_s: float = 900.0
    open_doc: str | None = None
    refresh_s: float = 60.0
    deploy_poll_s: float = 5.0
    release_timeout_s: float = 10.0


@dataclass
class AppContext:
    settings: Settings
    paths: AppPaths
    options: AppOptions
    client: Any  # core.github.GitHubClient
    login: str
    can_push: bool
    token_store: TokenStore | None = None
    session_id: str = field(default_factory=new_session_id)
    store: Any = None  # core.documents.DocumentStore
    locks: Any = None  # core.locks.LockManager
    sandbox: Any = None  # in-process practice sandbox (modu_desktop.sandbox.Sandbox)

    @property
    def lang(self) -> str:
        return self.options.lang

    @property
    def viewer(self) -> bool:
        """No lock traffic and no writes: --viewer, or a token without push permission."""
        return self.options.force_viewer or not self.can_push

    @property
    def practice(self) -> bool:
        return self.options.practice

    def server_now(self) -> float:
        clock = getattr(self.client, "clock", None)
        if clock is not None:
            return float(clock.now())
        import time

        return time.time()

    def build(self) -> AppContext:
        """Create the document store and the lock manager on top of the client."""
        from modu_desktop.core.documents import DocumentStore
        from modu_desktop.core.locks import LockManager
        from modu_desktop.core.session import install_id

        this_install = install_id(self.paths.data_dir)  # random, kept in the data folder
        cache = self.paths.cache_dir / "blobs"
        cache.mkdir(parents=True, exist_ok=True)
        # The list is kept for the next start (issue 18), and the last one is where this start
        # begins: the first refresh then parses only what changed.
        from modu_desktop.core.snapshots import Identity, list_file

        lists = list_file(
            self.paths.cache_dir,
            self.settings.api_url,
            self.settings.repo_full_name,
            self.settings.branch,
            practice=self.options.practice,
        )
        lists.identity = Identity(self.login, self.can_push)
        self.store = DocumentStore(self.client, cache, snapshots=lists)
        with contextlib.suppress(Exception):
            last = lists.load()
            if last is not None:
                self.store.restore(last[0])
        try:
            # Records every lock we hold on disk, so a crashed session's locks are found and
            # resumed or released at the next start (issue 5).
            from modu_desktop.ui.leftover_locks import recording_manager

            self.locks = recording_manager(
                self.client,
                self.login,
                self.session_id,
                data_dir=self.paths.data_dir,
                api_host=self.settings.api_url,
                repo=self.settings.repo_full_name,
                heartbeat_s=self.options.heartbeat_s,
                stale_s=self.options.stale_s,
                install_id=this_install,
            )
        except ImportError:
            self.locks = LockManager(
                self.client,
                self.login,
                self.session_id,
                self.client.clock,
                heartbeat_s=self.options.heartbeat_s,
                stale_s=self.options.stale_s,
                install_id=this_install,
            )
        self.locks.blob_cache = self.store.cache  # lock files the listing read: no request
        return self

    async def aclose(self) -> None:
        with contextlib.suppress(Exception):
            await self.client.aclose()


def make_client(api_url: str, token: str, settings: Settings) -> Any:
    from modu_desktop.core.github import GitHubClient, RepoRef

    return GitHubClient(api_url, token, RepoRef(settings.owner, settings.name, settings.branch))


def repo_dir_for_practice(paths: AppPaths) -> Path:
    return paths.sandbox_repo_dir
