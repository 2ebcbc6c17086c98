"""Running the admin CLI against a sandbox, and locking documents as someone else."""

from __future__ import annotations

import asyncio
from typing import Any

from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.locks.wire import lock_path


def cli_args(sb: Any, *args: str) -> list[str]:
    """``args`` aimed at the sandbox (``--api-url``)."""
    return [*args, "--api-url", sb.api_url]


def lock_as(sb: Any, login: str, doc: str, *, body: bytes | None = None) -> None:
    """``login`` holds the lock of ``doc`` (taken as the app does), or its lock file is ``body``."""

    async def go() -> None:
        async with GitHubClient(sb.api_url, f"tok-{login}", RepoRef("pnuai", "PNU-Modu")) as c:
            if body is not None:
                await c.put_file(lock_path(doc), body, "test lock")
                return
            await c.get_user()
            res = await LockManager(c, login, "s-test", c.clock, install_id="h").acquire(doc)
            assert res.held is not None

    asyncio.run(go())
