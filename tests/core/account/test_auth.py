"""Token storage with a working keyring, with none, and MODU_TOKEN; the token never reaches disk."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.account.auth import KEYRING_SERVICE, TokenSource, TokenStore, check_token
from modu_desktop.core.github.client import GitHubClient, MembershipProbe, RepoRef
from tests.helpers.lang import in_lang


def test_keyring_round_trip(memory_keyring: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MODU_TOKEN", raising=False)
    store = TokenStore("api.github.com")
    assert store.keyring_available()
    assert store.load() is None
    assert store.save("ghp_secret") is TokenSource.KEYRING
    assert memory_keyring[(KEYRING_SERVICE, "api.github.com")] == "ghp_secret"
    fresh = TokenStore("api.github.com")
    assert fresh.load() == "ghp_secret" and fresh.source is TokenSource.KEYRING
    assert "ghp_secret" not in repr(fresh)
    fresh.clear()
    assert memory_keyring == {}
    assert TokenStore("api.github.com").load() is None
    fresh.clear()  # deleting twice is fine


@pytest.mark.usefixtures("no_keyring")
def test_no_keyring_is_session_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MODU_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    store = TokenStore("127.0.0.1:1234")
    assert not store.keyring_available()
    assert store.load() is None  # the fail backend raises on reads too: caught
    assert store.save("tok-xyz") is TokenSource.SESSION
    assert store.keyring_error
    assert store.load() == "tok-xyz" and store.source is TokenSource.SESSION
    assert TokenStore("127.0.0.1:1234").load() is None  # nothing persisted
    assert not list(tmp_path.rglob("*"))  # and nothing on disk
    store.clear()
    assert store.load() is None


def test_env_token_wins_and_is_never_stored(
    memory_keyring: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MODU_TOKEN", "env-token")
    store = TokenStore("api.github.com")
    assert store.load() == "env-token" and store.source is TokenSource.ENV
    assert store.save("env-token") is TokenSource.ENV
    assert memory_keyring == {}


class _FakeClient:
    def __init__(self, user: object, repo: object, membership: int = 204) -> None:
        self.user, self.repo, self.membership = user, repo, membership

    async def get_user(self) -> object:
        if isinstance(self.user, Exception):
            raise self.user
        return self.user

    async def get_repo(self) -> object:
        if isinstance(self.repo, Exception):
            raise self.repo
        return self.repo

    async def org_membership_probe(self, org: str, login: str) -> MembershipProbe:
        return MembershipProbe(self.membership, ("repo", "read:org"))


def _run(coro):
    return asyncio.run(coro)


def test_check_token_push_and_viewer() -> None:
    ok = _run(
        check_token(
            _FakeClient({"login": "a"}, {"full_name": "o/r", "permissions": {"push": True}})
        )
    )
    assert ok.ok and ok.can_push and ok.login == "a" and not ok.viewer_only
    ro = _run(
        check_token(_FakeClient({"login": "v"}, {"permissions": {"push": False, "pull": True}}))
    )
    assert ro.ok and ro.viewer_only
    nm = _run(
        check_token(
            _FakeClient({"login": "v"}, {"permissions": {"push": True}}, 404),
            required_org="pnuai",
        )
    )
    assert not nm.ok and nm.error_kind == "not_member"


class _RendezvousClient:
    """get_user answers only once get_repo has been asked: a sequential sign-in never finishes."""

    def __init__(self) -> None:
        self.repo_asked = asyncio.Event()

    async def get_user(self) -> dict[str, Any]:
        await asyncio.wait_for(self.repo_asked.wait(), 2)
        return {"login": "a"}

    async def get_repo(self) -> dict[str, Any]:
        self.repo_asked.set()
        return {"permissions": {"push": True}}


def test_check_token_asks_user_and_repository_together() -> None:
    res = _run(check_token(_RendezvousClient()))
    assert res.ok and res.can_push and res.login == "a"


def test_check_token_network_error() -> None:
    res = in_lang("ko", lambda: _run(check_token(_FakeClient(OSError("down"), {}))))
    assert not res.ok and res.error_kind == "network" and res.message


@pytest.fixture
def org_sandbox(tmp_path: Path) -> Any:
    """The brochure repo owned by org ``pnuai``: two members (one whose token lacks ``read:org``),
    an outsider, and a member with a fine-grained token (no scopes header)."""
    from modu_desktop.sandbox import Sandbox, SandboxUser

    sb = Sandbox(
        tmp_path / "repo",
        org="pnuai",
        users=[
            SandboxUser("staff", "tok-staff", orgs=("pnuai",)),
            SandboxUser("noscope", "tok-noscope", orgs=("pnuai",), scopes=("repo", "workflow")),
            SandboxUser("outsider", "tok-outsider"),
            SandboxUser("finegrained", "tok-fine", orgs=("pnuai",), scopes=None),
        ],
    )
    sb.start()
    try:
        yield sb
    finally:
        sb.stop()


def _sign_in(sb: Any, token: str, lang: str = "en", org: str | None = "pnuai") -> Any:
    async def go() -> Any:
        async with GitHubClient(sb.api_url, token, RepoRef("pnuai", "PNU-Modu", "main")) as gh:
            return await check_token(gh, required_org=org)

    return in_lang(lang, lambda: _run(go()))


def test_required_org_member_signs_in(org_sandbox: Any) -> None:
    res = _sign_in(org_sandbox, "tok-staff")
    assert res.ok and res.login == "staff" and res.can_push and res.error_kind is None
    fine = _sign_in(org_sandbox, "tok-fine")  # no X-OAuth-Scopes header: 204 decides
    assert fine.ok and fine.login == "finegrained"


def test_required_org_refuses_a_non_member(org_sandbox: Any) -> None:
    # GitHub answers 302 (requester outside the org) and the token has read:org: not a member.
    res = _sign_in(org_sandbox, "tok-outsider")
    assert not res.ok and res.error_kind == "not_member" and res.login == "outsider"
    assert "not a member" in (res.message or "") and "pnuai" in (res.message or "")
    ko = _sign_in(org_sandbox, "tok-outsider", lang="ko")
    assert not ko.ok and "구성원이 아니" in (ko.message or "")
    # Without an org requirement the same account signs in.
    assert _sign_in(org_sandbox, "tok-outsider", org=None).ok


def test_required_org_refuses_a_token_without_read_org(org_sandbox: Any) -> None:
    res = _sign_in(org_sandbox, "tok-noscope")
    assert not res.ok and res.error_kind == "no_scope"
    assert "read:org" in (res.message or "")
    outsider = _sign_in(org_sandbox, "tok-outsider")
    assert res.message != outsider.message  # each refusal has its own message
    ko = _sign_in(org_sandbox, "tok-noscope", lang="ko")
    assert "read:org" in (ko.message or "") and ko.message != res.message


def test_required_org_unknown_org_is_refused(org_sandbox: Any) -> None:
    res = _sign_in(org_sandbox, "tok-staff", org="no-such-org")
    assert not res.ok and res.error_kind == "not_member"


def test_required_org_check_failure_is_refused() -> None:
    from modu_desktop.core.github.errors import ServerError

    class _Failing(_FakeClient):
        async def org_membership_probe(self, org: str, login: str) -> MembershipProbe:
            raise ServerError(502, "Bad Gateway")

    res = _run(
        check_token(_Failing({"login": "a"}, {"permissions": {"push": True}}), required_org="pnuai")
    )
    assert not res.ok and res.error_kind == "other" and "pnuai" in (res.message or "")


def _device_transport(answers: list[dict], seen: list[tuple[str, str]]) -> Any:
    import json as _json

    import httpx

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append((request.url.path, request.content.decode()))
        if request.url.path == "/login/device/code":
            return httpx.Response(
                200,
                json={
                    "device_code": "dc1",
                    "user_code": "ABCD-1234",
                    "verification_uri": "https://github.com/login/device",
                    "expires_in": 900,
                    "interval": 5,
                },
            )
        return httpx.Response(200, content=_json.dumps(answers.pop(0)).encode())

    return httpx.MockTransport(handler)


def test_device_flow_pending_slow_down_then_token() -> None:
    from modu_desktop.core.account.auth import poll_device_flow, start_device_flow

    seen: list[tuple[str, str]] = []
    waits: list[float] = []
    answers: list[dict[str, Any]] = [
        {"error": "authorization_pending"},
        {"error": "slow_down", "interval": 10},
        {"access_token": "gho_secret", "token_type": "bearer", "scope": "repo"},
    ]
    transport = _device_transport(answers, seen)

    async def fake_sleep(s: float) -> None:
        waits.append(s)

    async def flow() -> str:
        code = await start_device_flow("https://github.com", "Iv1.x", transport=transport)
        assert code.user_code == "ABCD-1234"
        return await poll_device_flow(
            "https://github.com", "Iv1.x", code, transport=transport, sleep=fake_sleep
        )

    assert _run(flow()) == "gho_secret"
    assert waits == [5, 5, 10]
    assert "scope=repo" in seen[0][1] and "client_id=Iv1.x" in seen[0][1]
    assert "grant_type=urn" in seen[1][1]


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        ("expired_token", "expired"),
        ("access_denied", "denied"),
        ("device_flow_disabled", "disabled"),
    ],
)
def test_device_flow_errors(error: str, kind: str) -> None:
    from modu_desktop.core.account.auth import (
        DeviceCode,
        DeviceFlowError,
        poll_device_flow,
    )

    transport = _device_transport([{"error": error}], [])

    async def no_sleep(s: float) -> None:
        return None

    code = DeviceCode("dc", "UC", "https://github.com/login/device", 900, 1)
    with pytest.raises(DeviceFlowError) as info:
        _run(poll_device_flow("https://github.com", "c", code, transport=transport, sleep=no_sleep))
    assert info.value.kind == kind
    assert in_lang("ko", info.value.user_message) and in_lang("en", info.value.user_message)
