"""The lock protocol against the sandbox: real clients and managers per login, and a peer that
makes exactly the web admin's requests."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from modu_desktop.core.github.client import GitHubClient, RepoRef, RetryPolicy
from modu_desktop.core.github.clock import ServerClock
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.locks.wire import lock_path
from tests.helpers.webadmin_peer import HttpWebAdminApi, WebAdminPeer

DOC = "01-welcome"
PATH = lock_path(DOC)
FAST_RETRY = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.02, max_total=0.1)


def sandbox_client(sb: Any, token: str, clock: ServerClock | None = None) -> GitHubClient:
    return GitHubClient(
        sb.api_url, token, RepoRef("pnuai", "PNU-Modu", "main"), retry=FAST_RETRY, clock=clock
    )


def sandbox_manager(client: GitHubClient, login: str, session: str, **kw: Any) -> LockManager:
    kw.setdefault("install_id", f"install-{session}")
    return LockManager(client, login, session, client.clock, **kw)


def web_peer(sb: Any, login: str, token: str, skew: float = 0.0) -> WebAdminPeer:
    api = HttpWebAdminApi(sb.api_url, token, "pnuai", "PNU-Modu", "main")
    return WebAdminPeer(api, login, skew_s=skew)


def run_managers(sb: Any, body: Callable[..., Awaitable[None]], *logins: str) -> None:
    """Run ``body(*managers)`` with one client/manager per login ("editor1#2" = 2nd session)."""

    async def main() -> None:
        clients = []
        mgrs = []
        for spec in logins:
            login, _, n = spec.partition("#")
            client = sandbox_client(sb, f"tok-{login}")
            clients.append(client)
            await client.get_user()  # syncs the server clock, like the app's sign-in does
            mgrs.append(sandbox_manager(client, login, f"{login}-s{n or 1}"))
        try:
            await body(*mgrs)
        finally:
            for c in clients:
                await c.aclose()

    asyncio.run(main())
