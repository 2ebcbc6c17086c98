"""Viewer mode makes no writes; sign-in with good, bad and read-only tokens; keyring absent."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from modu_desktop.core.account.auth import KEYRING_SERVICE, TokenSource, TokenStore
from modu_desktop.core.account.settings import Settings
from modu_desktop.ui.kit.context import make_client
from modu_desktop.ui.signin.signin import SignInWidget, classic_token_url, fine_grained_token_url
from tests.helpers.sandbox import writes

DOC = "01-welcome"


@pytest.mark.parametrize(
    ("login", "token", "force"), [("viewer", "tok-viewer", False), ("editor1", "tok-editor1", True)]
)
def test_viewer_mode_makes_zero_writes(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any, login: str, token: str, force: bool
) -> None:
    sandbox.reset_stats()
    win = make_window(login, token, force_viewer=force, heartbeat_s=0.2)
    assert win.ctx.viewer
    assert win.viewer_banner.isVisible()
    if not force:
        assert "viewer" in win.viewer_banner.label.text()
    assert ui.run(win.open_document(DOC))
    assert win.editor_pane.editor.isReadOnly()
    assert not win.act_save.isEnabled()
    assert ui.run(win.save()) is False
    # Nothing will be sent later either: a viewer holds no lock, so no heartbeat runs.
    assert win.doc is not None and win.doc.held is None
    assert ui.run(_heartbeats_running()) == []
    assert ui.run(win.refresh_list())
    assert ui.run(win.close_document())
    assert ui.run(win.shutdown(interactive=False))
    assert writes(sandbox) == 0, sandbox.stats()
    assert sandbox.read_file(f".locks/{DOC}.lock.json") is None


async def _heartbeats_running() -> list[str]:
    return [t.get_name() for t in asyncio.all_tasks() if t.get_name().startswith("heartbeat:")]


def _signin(sandbox: Any, store: TokenStore) -> SignInWidget:
    settings = Settings(api_url=sandbox.api_url)
    w = SignInWidget(settings, store, make_client)
    w.show()
    return w


def test_signin_good_token(sandbox: Any, ui: Any, memory_keyring: dict, monkeypatch: Any) -> None:
    monkeypatch.delenv("MODU_TOKEN", raising=False)
    store = TokenStore("127.0.0.1")
    w = _signin(sandbox, store)
    assert "keyring" in w.keyring_notice.text()
    assert w.token_edit.echoMode() == w.token_edit.EchoMode.Password
    got: list[Any] = []
    w.signedIn.connect(lambda res, tok, client: got.append((res, tok, client)))
    w.token_edit.setText("tok-editor1")
    res = ui.run(w.check())
    assert res.ok and res.can_push and res.login == "editor1"
    assert got and got[0][1] == "tok-editor1"
    assert memory_keyring[(KEYRING_SERVICE, "127.0.0.1")] == "tok-editor1"
    assert w.stored_as is TokenSource.KEYRING
    ui.run(got[0][2].aclose())
    w.close()


def test_signin_bad_token_says_so_in_place(sandbox: Any, ui: Any, memory_keyring: dict) -> None:
    w = _signin(sandbox, TokenStore("127.0.0.1"))
    w.token_edit.setText("nonsense")
    res = ui.run(w.check())
    assert not res.ok and res.error_kind == "bad_token"
    assert w.message.isVisible() and w.message.text()
    assert w.message.text().count(".") <= 2  # one plain sentence
    assert memory_keyring == {}
    w.close()


def test_signin_read_only_token_gives_viewer(sandbox: Any, ui: Any, memory_keyring: dict) -> None:
    w = _signin(sandbox, TokenStore("127.0.0.1"))
    w.token_edit.setText("tok-viewer")
    res = ui.run(w.check())
    assert res.ok and res.viewer_only and res.login == "viewer"
    w.close()


@pytest.mark.usefixtures("no_keyring")
def test_signin_without_keyring_keeps_token_for_session(
    sandbox: Any, ui: Any, monkeypatch: Any
) -> None:
    monkeypatch.delenv("MODU_TOKEN", raising=False)
    store = TokenStore("127.0.0.1")
    w = _signin(sandbox, store)
    assert "only until you quit" in w.keyring_notice.text()
    w.token_edit.setText("tok-editor1")
    res = ui.run(w.check())
    assert res.ok
    assert w.stored_as is TokenSource.SESSION
    assert store.load() == "tok-editor1"
    assert TokenStore("127.0.0.1").load() is None
    w.close()


def test_token_pages_and_device_flow_visibility(
    sandbox: Any, ui: Any, memory_keyring: dict
) -> None:
    assert fine_grained_token_url("https://github.com").startswith(
        "https://github.com/settings/personal-access-tokens/new?"
    )
    assert "scopes=repo" in classic_token_url("https://ghe.example.edu")
    w = _signin(sandbox, TokenStore("127.0.0.1"))
    assert w.device_button.isHidden()  # no OAuth client id configured
    s = Settings(api_url=sandbox.api_url, oauth_client_id="Iv1.abc")
    w2 = SignInWidget(s, TokenStore("127.0.0.1"), make_client)
    w2.show()
    assert w2.device_button.isVisible()
    w.close()
    w2.close()


def test_browser_sign_in_shows_the_code_then_signs_in(
    sandbox: Any, ui: Any, qtbot: Any, memory_keyring: dict, monkeypatch: Any
) -> None:
    import asyncio

    from PySide6.QtGui import QDesktopServices

    from modu_desktop.core.account import auth as core_auth

    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toString()))
    gate = asyncio.Event()

    async def fake_start(web: str, client_id: str, **kw: Any) -> core_auth.DeviceCode:
        assert client_id == "Iv1.abc"
        return core_auth.DeviceCode("dc", "ABCD-1234", f"{web}/login/device", 900, 5)

    async def fake_poll(web: str, client_id: str, code: Any, **kw: Any) -> str:
        await gate.wait()
        return "tok-editor1"

    monkeypatch.setattr(core_auth, "start_device_flow", fake_start)
    monkeypatch.setattr(core_auth, "poll_device_flow", fake_poll)
    monkeypatch.delenv("MODU_TOKEN", raising=False)
    s = Settings(api_url=sandbox.api_url, oauth_client_id="Iv1.abc")
    w = SignInWidget(s, TokenStore("127.0.0.1"), make_client)
    w.show()
    got: list[Any] = []
    w.signedIn.connect(lambda res, tok, client: got.append(client))
    task = ui.start(w.device_flow())
    qtbot.waitUntil(lambda: w.device_code.isVisible(), timeout=5000)
    assert w.device_code.text() == "ABCD-1234"
    assert opened and opened[0].endswith("/login/device")
    gate.set()
    res = ui.wait_task(task)
    assert res is not None and res.ok and res.login == "editor1"
    assert got
    ui.run(got[0].aclose())
    w.close()


def test_browser_sign_in_error_in_place(sandbox: Any, ui: Any, monkeypatch: Any) -> None:
    from modu_desktop.core.account import auth as core_auth

    async def fake_start(web: str, client_id: str, **kw: Any) -> Any:
        raise core_auth.DeviceFlowError("disabled")

    monkeypatch.setattr(core_auth, "start_device_flow", fake_start)
    s = Settings(api_url=sandbox.api_url, oauth_client_id="Iv1.abc")
    w = SignInWidget(s, TokenStore("127.0.0.1"), make_client)
    w.show()
    assert ui.run(w.device_flow()) is None
    assert "token" in w.message.text()
    w.close()
