"""The token's expiry: read from GitHub's header (sent by the sandbox), warned a week ahead."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from modu_desktop.core.account.token_expiry import WARN_BEFORE_S, expiry_warning
from modu_desktop.core.github.client import GitHubClient, parse_token_expiration
from modu_desktop.core.github.errors import BadCredentials
from modu_desktop.core.github.types import RepoRef
from modu_desktop.sandbox import Sandbox, SandboxUser


def test_header_formats() -> None:
    assert parse_token_expiration("2021-10-07 19:07:53 UTC") == 1633633673.0
    assert parse_token_expiration("2021-10-08 04:07:53 +0900") == 1633633673.0
    assert parse_token_expiration("next tuesday") is None


def test_warning_window() -> None:
    now = 1_000_000.0
    assert expiry_warning(None, now) is None
    assert expiry_warning(now + WARN_BEFORE_S + 60, now) is None
    w = expiry_warning(now + 5.5 * 86400, now)
    assert w is not None and w.days_left == 5
    last = expiry_warning(now + 3600, now)
    assert last is not None and last.days_left == 0
    assert expiry_warning(now - 1, now) is None  # expired: sign-in says so instead


def test_client_learns_the_expiry_and_the_sandbox_enforces_it(tmp_path: Path) -> None:
    soon = int(time.time()) + 3 * 86400
    sb = Sandbox(
        tmp_path / "repo",
        users=[SandboxUser("kim", "tok-kim", expires_at=soon), SandboxUser("lee", "tok-lee")],
    ).start()
    ref = RepoRef("pnuai", "PNU-Modu", "main")
    try:

        async def go() -> tuple[float | None, float | None]:
            async with GitHubClient(sb.api_url, "tok-kim", ref) as kim:
                await kim.get_user()
                kims = kim.token_expires_at
            async with GitHubClient(sb.api_url, "tok-lee", ref) as lee:
                await lee.get_user()
                return kims, lee.token_expires_at

        kims, lees = asyncio.run(go())
        assert kims == soon and lees is None
        sb.faults.update(clock_offset_seconds=4 * 86400)  # the server's clock past the expiry

        async def expired() -> None:
            async with GitHubClient(sb.api_url, "tok-kim", ref) as kim:
                await kim.get_user()

        try:
            asyncio.run(expired())
        except BadCredentials:
            pass
        else:
            raise AssertionError("an expired token must be refused")
    finally:
        sb.stop()
