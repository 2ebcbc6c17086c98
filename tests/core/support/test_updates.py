"""The new-version check against releases on the sandbox (GitHub's documented shapes)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from modu_desktop.core.support.updates import UpdateCheck, check_for_update, parse_version
from modu_desktop.sandbox import Sandbox, SandboxUser


def test_versions_compare_by_number() -> None:
    newer, older = parse_version("v1.10.0"), parse_version("v1.9.3")
    assert newer is not None and older is not None and newer > older
    assert parse_version("1.2") == (1, 2, 0)
    assert parse_version("v2.0.0-rc1") is None


def test_newest_full_release_is_offered(tmp_path: Path) -> None:
    sb = Sandbox(
        tmp_path / "repo", owner="pnuai", name="modu-desktop", users=[SandboxUser("rel", "tok")]
    ).start()
    try:

        async def check(current: str) -> UpdateCheck:
            return await check_for_update(
                api_url=sb.api_url, repo="pnuai/modu-desktop", current=current, token="tok"
            )

        none = asyncio.run(check("0.1.0"))
        assert none.latest is None and not none.newer and none.error is None
        with httpx.Client(base_url=sb.api_url, headers={"Authorization": "Bearer tok"}) as c:
            for body in (
                {"tag_name": "v0.2.0", "name": "0.2.0"},
                {"tag_name": "v0.3.0", "prerelease": True},
                {"tag_name": "v0.4.0", "draft": True},
            ):
                assert c.post("/repos/pnuai/modu-desktop/releases", json=body).status_code == 201
        found = asyncio.run(check("0.1.0"))
        assert found.newer and found.latest is not None and found.latest.tag == "v0.2.0"
        assert found.latest.url.endswith("/releases/tag/v0.2.0")
        same = asyncio.run(check("0.2.0"))
        assert not same.newer and same.latest is not None
    finally:
        sb.stop()


def test_a_failed_check_says_why_and_does_not_raise(tmp_path: Path) -> None:
    sb = Sandbox(tmp_path / "repo", users=[SandboxUser("rel", "tok")]).start()
    url = sb.api_url
    sb.stop()  # nobody listens any more
    res = asyncio.run(check_for_update(api_url=url, repo="pnuai/PNU-Modu", timeout=2))
    assert res.latest is None and res.error and not res.newer
