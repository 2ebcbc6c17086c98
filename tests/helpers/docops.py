"""Document operations (new, delete, reorder) over a loopback sandbox, for tests."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from modu_desktop.core.docops.ops import DocOps
from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.locks.manager import LockManager

REPO = RepoRef("pnuai", "PNU-Modu", "main")


async def _no_sleep(_: float) -> None:
    return None


@asynccontextmanager
async def ops_for(
    sb: Any, tmp: Path, login: str = "editor1", session: str = "s1"
) -> AsyncIterator[DocOps]:
    async with GitHubClient(sb.api_url, f"tok-{login}", REPO, sleep=_no_sleep) as gh:
        store = DocumentStore(gh, tmp / f"blobs-{login}-{session}")
        mgr = LockManager(gh, login, session, gh.clock, install_id="test-host")
        yield DocOps(store, mgr, login)


def run(sb: Any, tmp: Path, body: Callable[[DocOps], Awaitable[Any]], **kw: Any) -> Any:
    async def go() -> Any:
        async with ops_for(sb, tmp, **kw) as ops:
            return await body(ops)

    return asyncio.run(go())
