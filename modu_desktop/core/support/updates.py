"""Is there a newer Modu Desktop? One read of the app repository's latest release.

GitHub's ``GET /repos/{owner}/{repo}/releases/latest`` gives the newest published full release
(no drafts, no pre-releases). Its ``tag_name`` (``v1.2.3``, the form the release workflow
tags) is compared with this version number by number. The question goes through the signed-in
client when the releases live on the same server (a GitHub Enterprise, the sandbox), else it is
asked anonymously: the app's releases are public and the token is the brochure repository's.
Nothing here blocks: the caller runs :func:`check_for_update` in the background and it never
raises for a network or server problem (``UpdateCheck.error`` says what happened).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from modu_desktop import __version__

RELEASES_API_URL = "https://api.github.com"
RELEASES_REPO = "pnuai/modu-desktop"
_VERSION = re.compile(r"^v?(\d+(?:\.\d+)*)$")


def parse_version(tag: str) -> tuple[int, ...] | None:
    """``v1.2.3`` / ``1.2`` → (1, 2, 3) / (1, 2, 0); None for anything else (a pre-release
    suffix included: those are never offered)."""
    m = _VERSION.match(tag.strip())
    if m is None:
        return None
    parts = tuple(int(p) for p in m.group(1).split("."))
    return parts + (0,) * max(0, 3 - len(parts))


@dataclass(frozen=True)
class Release:
    tag: str
    name: str
    url: str  # the release page, where the installers are


@dataclass(frozen=True)
class UpdateCheck:
    current: str
    latest: Release | None = None  # None: the repository has no release (or the check failed)
    error: str | None = None  # why the check could not answer (in English, for the log)

    @property
    def newer(self) -> bool:
        if self.latest is None:
            return False
        theirs, mine = parse_version(self.latest.tag), parse_version(self.current)
        return theirs is not None and mine is not None and theirs > mine


def release_from(data: Any) -> Release | None:
    if not isinstance(data, dict) or not isinstance(data.get("tag_name"), str):
        return None
    if data.get("draft") or data.get("prerelease"):
        return None
    tag = data["tag_name"]
    return Release(
        tag=tag,
        name=str(data.get("name") or tag),
        url=str(data.get("html_url") or ""),
    )


async def check_for_update(
    *,
    api_url: str = RELEASES_API_URL,
    repo: str = RELEASES_REPO,
    current: str = __version__,
    token: str | None = None,
    timeout: float = 10.0,
    transport: Any = None,
    client: Any = None,
) -> UpdateCheck:
    """Ask GitHub for the latest release of ``repo``; never raises for expected failures.
    ``client``: a signed-in ``GitHubClient`` of the same server to ask through."""
    from modu_desktop.core.github.client import GitHubClient
    from modu_desktop.core.github.errors import GitHubError
    from modu_desktop.core.github.types import RepoRef, RetryPolicy

    if client is not None and client.api_url.rstrip("/") == api_url.rstrip("/"):
        try:
            return UpdateCheck(current, release_from(await client.latest_release(repo)))
        except GitHubError as exc:
            return UpdateCheck(current, error=f"{type(exc).__name__}: {exc}")
    owner, _, name = repo.partition("/")
    try:
        client = GitHubClient(
            api_url,
            token,
            RepoRef(owner, name, "main"),
            timeout=timeout,
            transport=transport,
            retry=RetryPolicy(max_attempts=1),
        )
    except ValueError as exc:
        return UpdateCheck(current, error=str(exc))
    try:
        async with client:
            data = await client.latest_release()
    except GitHubError as exc:
        return UpdateCheck(current, error=f"{type(exc).__name__}: {exc}")
    return UpdateCheck(current, release_from(data))
