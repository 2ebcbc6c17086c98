"""core.org: organisation membership check (sandbox for 204/302/404, mock transport for scopes)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from modu_desktop.core.account.org import MembershipStatus, check_org_membership
from modu_desktop.core.github.client import GitHubClient, RepoRef, RetryPolicy
from tests.helpers.lang import in_lang

REPO = RepoRef("pnuai", "PNU-Modu", "main")


async def _no_sleep(_: float) -> None:
    return None


@pytest.fixture
def org_sandbox(tmp_path: Path) -> Any:
    from modu_desktop.sandbox import Sandbox, SandboxUser

    sb = Sandbox(
        tmp_path / "repo",
        users=[
            SandboxUser("member1", "tok-m1", orgs=("pnuai",)),
            SandboxUser("member2", "tok-m2", orgs=("pnuai",)),
            SandboxUser("outsider", "tok-out"),
            SandboxUser("noscope", "tok-noscope", orgs=("pnuai",), scopes=("repo", "workflow")),
            SandboxUser("finegrained", "tok-fine", orgs=("pnuai",), scopes=None),
        ],
        org="pnuai",
    )
    sb.start()
    try:
        yield sb
    finally:
        sb.stop()


def check(sb: Any, token: str, org: str, login: str) -> Any:
    async def go() -> Any:
        async with GitHubClient(sb.api_url, token, REPO, sleep=_no_sleep) as gh:
            return await check_org_membership(gh, org, login)

    return asyncio.run(go())


def test_member_not_member_and_outsider(org_sandbox: Any) -> None:
    sb = org_sandbox
    me = check(sb, "tok-m1", "pnuai", "member1")
    assert me.status is MembershipStatus.MEMBER and me.ok and me.http_status == 204
    other = check(sb, "tok-m1", "pnuai", "outsider")
    assert other.status is MembershipStatus.NOT_MEMBER and other.http_status == 404
    # The requester is outside the org: 302, and the token has read:org → not a member.
    out = check(sb, "tok-out", "pnuai", "outsider")
    assert out.status is MembershipStatus.NOT_MEMBER and out.http_status == 302
    assert "invite" in out.message and "초대" in in_lang("ko", out.user_message)
    assert check(sb, "tok-m1", "no-such-org", "member1").status is MembershipStatus.NOT_MEMBER
    bad = check(sb, "wrong-token", "pnuai", "member1")
    assert bad.status is MembershipStatus.ERROR and bad.http_status == 401


def test_token_without_read_org_against_sandbox(org_sandbox: Any) -> None:
    # A member whose classic token lacks read:org: GitHub hides the membership behind a 302.
    res = check(org_sandbox, "tok-noscope", "pnuai", "noscope")
    assert res.status is MembershipStatus.NO_SCOPE and not res.ok
    assert res.http_status == 302 and res.scopes == ("repo", "workflow")
    assert "read:org" in res.message and "read:org" in in_lang("ko", res.user_message)
    # A fine-grained token sends no scopes header: the answer itself decides.
    fine = check(org_sandbox, "tok-fine", "pnuai", "finegrained")
    assert fine.ok and fine.scopes is None
    assert check(org_sandbox, "tok-fine", "pnuai", "outsider").status is (
        MembershipStatus.NOT_MEMBER
    )


def _mock(status: int, scopes: str | None) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        headers = {"Date": "Mon, 30 Nov 2026 05:00:00 GMT"}
        if scopes is not None:
            headers["X-OAuth-Scopes"] = scopes
        if status == 302:
            headers["Location"] = "https://api.github.com/orgs/pnuai/public_members/me"
        body = b'{"message": "x"}' if status >= 400 else b""
        return httpx.Response(status, headers=headers, content=body)

    return httpx.MockTransport(handler)


@pytest.mark.parametrize(
    ("status", "scopes", "expected"),
    [
        (204, "repo", MembershipStatus.MEMBER),
        (302, "repo, workflow", MembershipStatus.NO_SCOPE),  # classic token without read:org
        (302, "repo, read:org", MembershipStatus.NOT_MEMBER),
        (302, "admin:org", MembershipStatus.NOT_MEMBER),
        (302, None, MembershipStatus.NOT_MEMBER),  # fine-grained token: no scopes header
        (404, "repo, read:org", MembershipStatus.NOT_MEMBER),
        (403, "repo", MembershipStatus.NO_SCOPE),  # e.g. SSO not authorised
        (502, "repo", MembershipStatus.ERROR),
    ],
)
def test_status_mapping(status: int, scopes: str | None, expected: MembershipStatus) -> None:
    async def go() -> Any:
        async with GitHubClient(
            "https://api.github.com",
            "t",
            REPO,
            transport=_mock(status, scopes),
            sleep=_no_sleep,
            retry=RetryPolicy(max_attempts=1),
        ) as gh:
            return await check_org_membership(gh, "pnuai", "me")

    res = asyncio.run(go())
    assert res.status is expected
    assert (
        res.message
        and in_lang("ko", res.user_message)
        and res.message != in_lang("ko", res.user_message)
    )
    if expected is MembershipStatus.NO_SCOPE:
        assert "read:org" in res.message and "read:org" in in_lang("ko", res.user_message)


def test_each_status_has_its_own_message() -> None:
    from modu_desktop.core.account.org import _messages

    texts = {s: _messages(s, "pnuai", "me") for s in MembershipStatus}
    assert len({t.en for t in texts.values()}) == 4
    assert len({t.ko for t in texts.values()}) == 4
