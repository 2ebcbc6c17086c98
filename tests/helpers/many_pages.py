"""Pages that say "2025학년도" on a sandbox, and the core a replacement across them needs: a
client whose network can be cut and given back, a workspace with a save queue, the search
index over the listing."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import httpx

from modu_desktop.core.github.client import GitHubClient, RepoRef, RetryPolicy
from modu_desktop.core.search.index import SearchIndex
from modu_desktop.core.workspace import Workspace
from tests.helpers.sandbox import client_for

REPO = RepoRef("pnuai", "PNU-Modu", "main")
QUICK = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.02, max_total=0.1)

YEAR_PAGES = {
    "docs/10-guide.md": "---\ntitle: 입학 안내\n---\n\n# 2025학년도 입학\n\n"
    "2025학년도 모집 요강을 알려 드립니다.\n",
    "docs/11-scholarship.md": "---\ntitle: 장학금\n---\n\n**2025**학년도 장학금 안내입니다.\n",
    "docs/12-calendar.md": "---\ntitle: 학사 일정\n---\n\n- 2025학년도 1학기\n- 2025학년도 2학기\n",
}
TITLES = {"10-guide": "입학 안내", "11-scholarship": "장학금", "12-calendar": "학사 일정"}


def add_pages(sb: Any, pages: dict[str, str], token: str = "tok-editor1") -> None:
    """Each page committed through the Contents API, as another tool would."""
    with client_for(sb, token) as http:
        for path, text in pages.items():
            content = base64.b64encode(text.encode()).decode("ascii")
            body = {"message": f"docs: add {path}", "content": content}
            r = http.put(f"/repos/pnuai/PNU-Modu/contents/{path}", json=body)
            assert r.status_code in (200, 201), r.text


def text_of(sb: Any, path: str) -> str | None:
    raw = sb.read_file(path)
    return None if raw is None else raw.decode("utf-8")


class Switch(httpx.AsyncBaseTransport):
    """A network that can be cut and given back; ``cut_after`` cuts it once that many more
    requests were answered (a cut in the middle of a change)."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.online = True
        self.cut_after: int | None = None
        self.seen = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.seen += 1
        if self.cut_after is not None:
            if self.cut_after <= 0:
                self.online, self.cut_after = False, None
            else:
                self.cut_after -= 1
        if not self.online:
            raise httpx.ConnectError("the network is gone", request=request)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def _no_sleep(_: float) -> None:
    return None


def client(sb: Any, login: str = "editor1", **kw: Any) -> GitHubClient:
    kw.setdefault("retry", QUICK)
    return GitHubClient(sb.api_url, f"tok-{login}", REPO, sleep=_no_sleep, **kw)


def workspace(
    gh: GitHubClient, root: Path, login: str = "editor1", *, queue: bool = True
) -> Workspace:
    """The core as the app builds it (with drafts and the save queue when ``queue``)."""
    return Workspace.build(
        gh,
        login,
        "session-here",
        cache_dir=root / "blobs",
        data_dir=root / "data" if queue else None,
        install_id="install-here",
    )


async def indexed(ws: Workspace) -> SearchIndex:
    """The listing refreshed and every page in the search index."""
    snap = await ws.store.refresh()
    index = SearchIndex(ws.store.cache.get)
    index.update(snap.docs)
    return index
