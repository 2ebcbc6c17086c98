"""Everything a signed-in window needs: the core workspace, who we are, the options.

Qt-free glue between the app and the core (it lives in ``ui/`` because it decides what the UI
uses, and in the kit because every part of the window receives it). The core objects
themselves are built in one place, :class:`~modu_desktop.core.workspace.Workspace`; widgets
receive an ``AppContext`` and call the core through it.
"""

from __future__ import annotations

import contextlib
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from modu_desktop.core.account.auth import TokenStore
from modu_desktop.core.account.paths import AppPaths
from modu_desktop.core.account.people import People, use_people
from modu_desktop.core.account.session import new_session_id
from modu_desktop.core.account.settings import Settings
from modu_desktop.core.documents.snapshots import Identity, list_file
from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.workspace import LOOK_S, Workspace

if TYPE_CHECKING:
    from modu_desktop.sandbox import Sandbox


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
    idle_release_s: float | None = 20 * 60.0  # lock released after this long without typing
    refresh_on_activate: bool = True  # re-read the list when the app comes to the front
    free_look_s: float = 10.0  # notify-when-free looks this often (a read, free while unchanged)
    look_s: float = LOOK_S  # an open document's lock is looked at this often between heartbeats


@dataclass
class AppContext:
    settings: Settings
    paths: AppPaths
    options: AppOptions
    client: GitHubClient
    login: str
    can_push: bool
    token_store: TokenStore | None = None
    session_id: str = field(default_factory=new_session_id)
    sandbox: Sandbox | None = None  # the in-process practice sandbox
    _workspace: Workspace | None = field(default=None, repr=False)
    # Display names by login ("김민지 (kim)"), read from GitHub and kept on disk
    people: People = field(default_factory=People, repr=False)

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

    @property
    def workspace(self) -> Workspace:
        if self._workspace is None:
            raise RuntimeError("AppContext.build() was not called")
        return self._workspace

    @property
    def store(self) -> DocumentStore:
        return self.workspace.store

    @property
    def locks(self) -> LockManager:
        return self.workspace.locks

    def server_now(self) -> float:
        if self._workspace is None:
            return time.time()
        return self._workspace.server_now()

    def build(self) -> AppContext:
        """Build the core workspace (store, locks with their records, drafts, save queue).
        The list is kept for the next start, and the last one is where this start
        begins: the first refresh then parses only what changed."""
        lists = list_file(
            self.paths.cache_dir,
            self.settings.api_url,
            self.settings.repo_full_name,
            self.settings.branch,
            practice=self.options.practice,
        )
        lists.identity = Identity(self.login, self.can_push)
        self._workspace = Workspace.build(
            self.client,
            self.login,
            self.session_id,
            cache_dir=self.paths.blob_cache_dir,
            data_dir=self.paths.data_dir,
            heartbeat_s=self.options.heartbeat_s,
            stale_s=self.options.stale_s,
            queue_saves=not self.viewer,
            snapshots=lists,
            idle_release_s=self.options.idle_release_s,
            look_s=self.options.look_s,
        )
        host = urlsplit(self.settings.api_url).netloc or "github"
        self.people = People(self.paths.cache_dir / f"people-{_safe(host)}.json")
        use_people(self.people)  # every screen names people from these
        with contextlib.suppress(Exception):
            last = lists.load()
            if last is not None:
                self._workspace.store.restore(last[0])
        return self

    async def aclose(self) -> None:
        with contextlib.suppress(Exception):
            await self.client.aclose()


def make_client(api_url: str, token: str, settings: Settings) -> GitHubClient:
    return GitHubClient(api_url, token, RepoRef(settings.owner, settings.name, settings.branch))


def _safe(host: str) -> str:
    return re.sub(r"[^A-Za-z0-9.-]", "-", host)
