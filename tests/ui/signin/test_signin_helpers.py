"""Sign-in for people who have never made a token: practice mode from the sign-in screen, the
token page filled in by URL, a token waiting for an organization's approval, and the device flow
configured by IT with a file beside the installer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from modu_desktop import i18n
from modu_desktop.core.account.auth import (
    SignInResult,
    TokenStore,
    check_token,
    deployment_config_paths,
    fine_grained_token_url,
    read_only_reason,
    resolve_oauth_client_id,
)
from modu_desktop.core.account.settings import Settings
from modu_desktop.sandbox import Sandbox, SandboxUser
from modu_desktop.ui.kit.context import make_client
from modu_desktop.ui.signin.signin import SignInWidget


@pytest.fixture(autouse=True)
def _korean() -> Any:
    i18n.set_language("ko")
    yield
    i18n.set_language("ko")


def _widget(api_url: str, **kw: Any) -> SignInWidget:
    w = SignInWidget(
        Settings(api_url=api_url, **kw),
        TokenStore("127.0.0.1"),
        make_client,
        deployment_paths=kw.pop("paths", []),
    )
    w.show()
    return w


def test_practice_button_is_visible_and_asks_for_practice(sandbox: Any, qtbot: Any) -> None:
    w = _widget(sandbox.api_url)
    button = w.findChild(type(w.sign_in_button), "practiceButton")
    assert button is not None and button.isVisible()
    assert button.text() == "연습 모드로 둘러보기"
    with qtbot.waitSignal(w.practiceRequested, timeout=10000):
        qtbot.mouseClick(button, __import__("PySide6.QtCore").QtCore.Qt.MouseButton.LeftButton)
    w.close()


def test_practice_from_the_sign_in_screen_starts_a_signed_in_sandbox(
    ui: Any, qtbot: Any, tmp_path: Path
) -> None:
    """The app's sign-in step answers "practice"; the practice sandbox then signs in."""
    from modu_desktop.core.account.paths import app_paths
    from modu_desktop.ui.shell import app_run

    runner = app_run.Runner()
    settings = Settings()
    task = ui.start(app_run.sign_in(settings, TokenStore("api.github.com"), None, runner))
    from PySide6.QtWidgets import QApplication, QPushButton

    def shown() -> Any:
        for top in QApplication.topLevelWidgets():
            if top.objectName() == "signInWindow" and top.isVisible():
                return top
        return None

    qtbot.waitUntil(lambda: shown() is not None, timeout=5000)
    shown().findChild(QPushButton, "practiceButton").click()
    assert ui.wait_task(task) == "practice"
    paths = app_paths(tmp_path / "data").ensure()
    sandbox, token = ui.run(app_run.start_practice(paths, settings))
    try:
        assert settings.api_url == sandbox.api_url
        client = make_client(settings.api_url, token, settings)
        res = ui.run(check_token(client))
        assert res.ok and res.can_push
        ui.run(client.aclose())
    finally:
        sandbox.stop()


def test_create_token_opens_the_prefilled_page(sandbox: Any, monkeypatch: Any) -> None:
    from PySide6.QtGui import QDesktopServices

    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toString()))
    w = SignInWidget(Settings(), TokenStore("api.github.com"), make_client, deployment_paths=[])
    w.show()
    w.fine_button.click()
    assert len(opened) == 1
    url = urlsplit(opened[0])
    assert (url.scheme, url.netloc, url.path) == (
        "https",
        "github.com",
        "/settings/personal-access-tokens/new",
    )
    assert dict(parse_qsl(url.query)) == {
        "name": "Modu Desktop",
        "description": "Modu Desktop: editing the brochure site",
        "target_name": "pnuai",
        "expires_in": "90",
        "contents": "write",
        "actions": "read",
    }
    raw = w.opened_urls[-1]
    assert urlsplit(raw).query.startswith("name=Modu%20Desktop&description=Modu%20Desktop%3A%20")
    steps = w.steps.text()
    assert "Repository access" in steps and "PNU-Modu" in steps  # what the URL cannot choose
    assert "Only select repositories" in steps
    w.close()


def test_token_url_for_enterprise_and_other_owner() -> None:
    url = fine_grained_token_url("https://ghe.example.edu", "office")
    assert url.startswith("https://ghe.example.edu/settings/personal-access-tokens/new?")
    assert "target_name=office" in url


def test_pending_org_approval_is_explained(tmp_path: Path, ui: Any, memory_keyring: dict) -> None:
    pat = "github_pat_11AAAAAAA0pending"
    sb = Sandbox(
        tmp_path / "repo",
        org="pnuai",
        users=[SandboxUser("newbie", pat, push=False, orgs=("pnuai",), scopes=None)],
    ).start()
    try:
        w = _widget(sb.api_url)
        got: list[Any] = []
        w.signedIn.connect(lambda *a: got.append(a))
        w.token_edit.setText(pat)
        res = ui.run(w.check())
        assert res.ok and res.viewer_only and res.owner_is_org
        assert w.pending_box.isVisible()
        text = w.pending_text.text()
        assert "pnuai" in text and "승인" in text
        assert not got  # not signed in behind the user's back
        w.continue_read_only.click()
        assert got and got[0][0].viewer_only
        ui.run(got[0][2].aclose())
        w.close()
    finally:
        sb.stop()


def test_read_only_reason() -> None:
    ro = SignInResult(True, login="x", can_push=False, owner_is_org=True)
    assert read_only_reason("github_pat_abc", ro) == "approval_pending"
    assert read_only_reason("ghp_abc", ro) == "no_permission"
    user_repo = SignInResult(True, login="x", can_push=False, owner_is_org=False)
    assert read_only_reason("github_pat_abc", user_repo) == "no_permission"
    assert read_only_reason("github_pat_abc", SignInResult(True, can_push=True)) is None


def test_client_id_from_a_file_beside_the_installer(tmp_path: Path, sandbox: Any) -> None:
    beside = tmp_path / "Modu Desktop" / "modu-desktop.json"
    system = tmp_path / "ProgramData" / "modu-desktop.json"
    beside.parent.mkdir()
    system.parent.mkdir()
    system.write_text(json.dumps({"oauth_client_id": "Ov23system"}), encoding="utf-8")
    paths = [beside, system]
    assert resolve_oauth_client_id("https://api.github.com", None, paths=paths, env={}) == (
        "Ov23system"
    )
    beside.write_text('{"oauth_client_id": "Ov23beside"}', encoding="utf-8")
    assert resolve_oauth_client_id("https://api.github.com", None, paths=paths, env={}) == (
        "Ov23beside"
    )
    assert resolve_oauth_client_id("https://api.github.com", "mine", paths=paths, env={}) == "mine"
    assert (
        resolve_oauth_client_id(
            "https://api.github.com", None, paths=paths, env={"MODU_OAUTH_CLIENT_ID": "dev"}
        )
        == "dev"
    )
    # tied to one API: not used for another server
    beside.write_text(
        '{"oauth_client_id": "Ov23ghe", "api_url": "https://ghe.example.edu/api/v3"}',
        encoding="utf-8",
    )
    assert resolve_oauth_client_id("https://api.github.com", None, paths=[beside], env={}) is None
    beside.write_text("{broken", encoding="utf-8")
    assert resolve_oauth_client_id("https://api.github.com", None, paths=[beside], env={}) is None
    assert any(p.name == "modu-desktop.json" for p in deployment_config_paths())

    # the sign-in screen puts the browser first when IT shipped the file
    beside.write_text('{"oauth_client_id": "Ov23beside"}', encoding="utf-8")
    w = SignInWidget(
        Settings(api_url=sandbox.api_url),
        TokenStore("127.0.0.1"),
        make_client,
        deployment_paths=[beside],
    )
    w.show()
    assert w.client_id == "Ov23beside"
    assert w.device_button.isVisible()
    assert not w.token_box.isVisible()  # the token path is one click away
    w.token_toggle.click()
    assert w.token_box.isVisible()
    w.close()
    w2 = _widget(sandbox.api_url)
    assert not w2.device_button.isVisible() and w2.token_box.isVisible()
    w2.close()


def test_device_flow_uses_the_file_client_id(
    tmp_path: Path, sandbox: Any, ui: Any, monkeypatch: Any
) -> None:
    from modu_desktop.core.account import auth as core_auth

    seen: list[str] = []

    async def fake_start(web: str, client_id: str, **kw: Any) -> Any:
        seen.append(client_id)
        raise core_auth.DeviceFlowError("denied")

    monkeypatch.setattr(core_auth, "start_device_flow", fake_start)
    f = tmp_path / "modu-desktop.json"
    f.write_text('{"oauth_client_id": "Ov23file"}', encoding="utf-8")
    w = SignInWidget(
        Settings(api_url=sandbox.api_url),
        TokenStore("127.0.0.1"),
        make_client,
        deployment_paths=[f],
    )
    w.show()
    assert ui.run(w.device_flow()) is None
    assert seen == ["Ov23file"]
    assert w.message.text() == "GitHub에서 승인을 거절했습니다."
    w.close()
