"""The GitHub token: where it comes from, where it is kept, and what it allows (Qt-free).

- ``MODU_TOKEN`` in the environment wins; it is used as is and never stored.
- Otherwise the OS keyring: service ``modu-desktop``, account = the API host
  (``api.github.com``, or the GitHub Enterprise host, or ``127.0.0.1:PORT`` for a sandbox).
- With no usable keyring (headless Linux without Secret Service…) the token is kept in memory for
  this session only and the user is told so.
The token is never written to disk by this module and never logged
(``TokenStore.__repr__`` hides it).
``keyring`` and ``asyncio`` are imported lazily: the start-up check reads the token from a
worker thread before the app has imported either (``core/account/startcheck.py``).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from modu_desktop.core.text import Text
from modu_desktop.i18n import tr

if TYPE_CHECKING:
    import asyncio

log = logging.getLogger(__name__)

KEYRING_SERVICE = "modu-desktop"
TOKEN_ENV = "MODU_TOKEN"


class TokenSource(Enum):
    NONE = "none"
    ENV = "env"  # MODU_TOKEN: used, never stored
    KEYRING = "keyring"  # kept in the OS keyring
    SESSION = "session"  # kept in memory only (no usable keyring, or practice mode)


class TokenStore:
    """Token storage for one API host."""

    def __init__(self, account: str, *, service: str = KEYRING_SERVICE, use_env: bool = True):
        self.account = account
        self.service = service
        self.use_env = use_env
        self._session_token: str | None = None
        self.source = TokenSource.NONE
        self.keyring_error: str | None = None  # last keyring failure, for the UI (no secrets)

    def __repr__(self) -> str:  # never show the token
        return f"TokenStore(account={self.account!r}, source={self.source.value})"

    # --- keyring, every call guarded: KeyringError can come from get as well as set ---
    def _keyring(self) -> Any | None:
        try:
            import keyring
        except Exception as exc:  # pragma: no cover - keyring is a dependency
            self.keyring_error = type(exc).__name__
            return None
        return keyring

    def keyring_available(self) -> bool:
        """True if the OS keyring looks usable (not the 'fail' backend)."""
        kr = self._keyring()
        if kr is None:
            return False
        try:
            backend = kr.get_keyring()
        except Exception as exc:
            self.keyring_error = type(exc).__name__
            return False
        module = type(backend).__module__
        if module.startswith("keyring.backends.fail"):
            return False
        return not (module.endswith("chainer") and not getattr(backend, "backends", None))

    def load(self) -> str | None:
        """The token to use now: env, then the session copy, then the keyring."""
        if self.use_env:
            env = os.environ.get(TOKEN_ENV, "").strip()
            if env:
                self.source = TokenSource.ENV
                return env
        if self._session_token:
            self.source = TokenSource.SESSION
            return self._session_token
        kr = self._keyring()
        if kr is None:
            return None
        try:
            token = kr.get_password(self.service, self.account)
        except Exception as exc:  # keyring.errors.KeyringError and backend-specific failures
            self.keyring_error = type(exc).__name__
            log.info("keyring read failed: %s", type(exc).__name__)
            return None
        if token:
            self.source = TokenSource.KEYRING
            return str(token)
        return None

    def save(self, token: str) -> TokenSource:
        """Keep the token: in the keyring if possible, else for this session only.

        Returns where it went (``KEYRING`` or ``SESSION``); the caller tells the user.
        """
        token = token.strip()
        if self.use_env and os.environ.get(TOKEN_ENV, "").strip() == token and token:
            self.source = TokenSource.ENV
            return self.source
        kr = self._keyring()
        if kr is not None:
            try:
                kr.set_password(self.service, self.account, token)
            except Exception as exc:
                self.keyring_error = type(exc).__name__
                log.info(
                    "keyring write failed: %s; token kept for this session", type(exc).__name__
                )
            else:
                self._session_token = None
                self.source = TokenSource.KEYRING
                return self.source
        self._session_token = token
        self.source = TokenSource.SESSION
        return self.source

    def clear(self) -> None:
        """Sign out: forget the session copy and delete the keyring entry."""
        self._session_token = None
        self.source = TokenSource.NONE
        kr = self._keyring()
        if kr is None:
            return
        try:
            kr.delete_password(self.service, self.account)
        except Exception as exc:  # PasswordDeleteError (absent) or KeyringError
            log.debug("keyring delete: %s", type(exc).__name__)


@dataclass(frozen=True)
class SignInResult:
    """What a token allows on the brochure repository."""

    ok: bool
    login: str | None = None
    can_push: bool = False
    repo_full_name: str | None = None
    # "bad_token" | "no_repo" | "not_member" | "no_scope" | "network" | "other"
    error_kind: str | None = None
    message: str | None = None  # one plain sentence for the user
    owner_is_org: bool = False  # the repository belongs to an organization

    @property
    def viewer_only(self) -> bool:
        return self.ok and not self.can_push


def _field(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _consume_outcome(task: asyncio.Future[Any]) -> None:
    """Mark a side task's outcome as seen (it is read, or deliberately dropped, elsewhere)."""
    if not task.cancelled():
        task.exception()


async def check_token(client: Any, *, required_org: str | None = None) -> SignInResult:
    """Ask GitHub who the token belongs to and whether it can push to the repository.

    ``client`` is a ``core.github.GitHubClient`` (anything with ``get_user``/``get_repo`` and, if an
    org is required, ``org_membership_probe``). Two or three requests, no writes. The messages are
    in the current language (``modu_desktop.i18n``).

    With ``required_org`` the sign-in is refused unless ``core.org.check_org_membership`` confirms
    the membership: not a member, a token without ``read:org`` (or SSO authorisation), and a
    check that could not be made each end with that check's own message.
    """
    import asyncio

    # Both questions go out together (one round trip at start-up); the answers are read in
    # order, so a bad token is still reported as such and not as a missing repository.
    repo_task = asyncio.ensure_future(client.get_repo())
    repo_task.add_done_callback(_consume_outcome)
    try:
        user = await client.get_user()
    except Exception as exc:
        repo_task.cancel()
        return _user_refused(exc)
    login = str(_field(user, "login", "") or "")
    try:
        repo = await repo_task
    except Exception as exc:
        return _repo_refused(exc, login)
    perms = _field(repo, "permissions", None) or {}
    can_push = bool(
        _field(perms, "push", False)
        or _field(perms, "admin", False)
        or _field(perms, "maintain", False)
    )
    full_name = _field(repo, "full_name", None)
    raw = _field(repo, "raw", None) or (repo if isinstance(repo, dict) else {})
    owner = raw.get("owner") if isinstance(raw, dict) else None
    owner_is_org = isinstance(owner, dict) and owner.get("type") == "Organization"
    if required_org and (refused := await _org_refused(client, required_org, login)):
        return refused
    return SignInResult(
        True, login=login, can_push=can_push, repo_full_name=full_name, owner_is_org=owner_is_org
    )


def _error_message(exc: BaseException, fallback: Text) -> str:
    from modu_desktop.core.github import errors

    if isinstance(exc, errors.GitHubError):
        return exc.user_message()
    return fallback()


def _user_refused(exc: BaseException) -> SignInResult:
    """``GET /user`` failed: a bad token, GitHub's error, or no connection."""
    from modu_desktop.core.github import errors

    if isinstance(exc, errors.BadCredentials):
        return SignInResult(
            False,
            error_kind="bad_token",
            message=tr("This token is not valid or has expired; create a new one and paste it."),
        )
    if isinstance(exc, errors.GitHubError):
        return SignInResult(
            False,
            error_kind="other",
            message=_error_message(exc, Text("GitHub returned an error.")),
        )
    return SignInResult(
        False,
        error_kind="network",
        message=_error_message(exc, Text("Cannot reach GitHub; check the internet connection.")),
    )


def _repo_refused(exc: BaseException, login: str) -> SignInResult:
    """The repository could not be read: the token cannot see it, or no connection."""
    from modu_desktop.core.github import errors

    if isinstance(exc, errors.NotFound | errors.PermissionDenied):
        return SignInResult(
            False,
            login=login,
            error_kind="no_repo",
            message=tr(
                "This token cannot see the brochure repository; give it access to the repository."
            ),
        )
    return SignInResult(
        False,
        login=login,
        error_kind="network",
        message=_error_message(exc, Text("Cannot reach GitHub.")),
    )


async def _org_refused(client: Any, org_name: str, login: str) -> SignInResult | None:
    """None when ``login`` is a confirmed member of ``org_name``; else the refusal (a check
    that could not be made refuses too: the membership is not confirmed)."""
    from modu_desktop.core.account.org import MembershipStatus, check_org_membership
    from modu_desktop.core.github import errors

    org = await check_org_membership(client, org_name, login)
    if org.ok:
        return None
    kind = {
        MembershipStatus.NOT_MEMBER: "not_member",
        MembershipStatus.NO_SCOPE: "no_scope",
    }.get(org.status)
    if kind is None:
        kind = "network" if isinstance(org.error, errors.NetworkError) else "other"
    return SignInResult(False, login=login, error_kind=kind, message=org.user_message())


# --------------------------------------------------------------------------------------------
# OAuth device flow ("sign in with the browser"), only when an OAuth app's client id is set.
# https://docs.github.com/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps#device-flow


class DeviceFlowError(Exception):
    """``kind``: "expired" | "denied" | "disabled" | "bad_client" | "network" | "other"."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind

    def user_text(self) -> Text:
        if self.kind == "expired":
            return Text("The code expired; please try again.")
        if self.kind == "denied":
            return Text("The sign-in was declined on GitHub.")
        if self.kind == "disabled":
            return Text("Browser sign-in is not enabled for this app; please use a token.")
        if self.kind == "bad_client":
            return Text("The browser sign-in setting (client id) is wrong; please use a token.")
        if self.kind == "network":
            return Text("Cannot reach GitHub; check the internet connection.")
        return Text("Browser sign-in failed.")

    def user_message(self) -> str:
        """One plain sentence for staff, in the current language."""
        return self.user_text()()


@dataclass(frozen=True)
class DeviceCode:
    device_code: str
    user_code: str
    verification_uri: str
    expires_in: int
    interval: int


async def _post_form(url: str, data: dict[str, str], transport: Any = None) -> dict[str, Any]:
    import httpx

    try:
        async with httpx.AsyncClient(transport=transport, timeout=20.0) as http:
            resp = await http.post(url, data=data, headers={"Accept": "application/json"})
    except httpx.HTTPError as exc:
        raise DeviceFlowError("network", type(exc).__name__) from None
    try:
        body = resp.json()
    except ValueError:
        raise DeviceFlowError("other", f"HTTP {resp.status_code}") from None
    if not isinstance(body, dict):
        raise DeviceFlowError("other", "unexpected answer")
    if resp.status_code >= 400 and "error" not in body:
        raise DeviceFlowError("other", f"HTTP {resp.status_code}")
    return body


async def start_device_flow(
    web_url: str, client_id: str, *, scope: str = "repo", transport: Any = None
) -> DeviceCode:
    """Ask GitHub for a user code to type at ``verification_uri``."""
    body = await _post_form(
        f"{web_url.rstrip('/')}/login/device/code",
        {"client_id": client_id, "scope": scope},
        transport,
    )
    err = body.get("error")
    if err:
        kind = {"device_flow_disabled": "disabled", "incorrect_client_credentials": "bad_client"}
        raise DeviceFlowError(kind.get(str(err), "other"), str(err))
    try:
        return DeviceCode(
            device_code=str(body["device_code"]),
            user_code=str(body["user_code"]),
            verification_uri=str(body.get("verification_uri") or f"{web_url}/login/device"),
            expires_in=int(body.get("expires_in", 900)),
            interval=max(1, int(body.get("interval", 5))),
        )
    except (KeyError, TypeError, ValueError):
        raise DeviceFlowError("other", "incomplete answer") from None


async def poll_device_flow(
    web_url: str,
    client_id: str,
    code: DeviceCode,
    *,
    transport: Any = None,
    sleep: Any = None,
    clock: Any = None,
) -> str:
    """Wait until the user approved the code in the browser; returns the access token (never
    logged, never stored here). Honours ``interval`` and ``slow_down``; raises DeviceFlowError."""
    import asyncio
    import time

    sleep = sleep or asyncio.sleep
    clock = clock or time.monotonic
    interval = code.interval
    deadline = clock() + code.expires_in
    url = f"{web_url.rstrip('/')}/login/oauth/access_token"
    while True:
        await sleep(interval)
        if clock() > deadline:
            raise DeviceFlowError("expired")
        body = await _post_form(
            url,
            {
                "client_id": client_id,
                "device_code": code.device_code,
                "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
            },
            transport,
        )
        token = body.get("access_token")
        if token:
            return str(token)
        err = str(body.get("error") or "")
        if err == "authorization_pending":
            continue
        if err == "slow_down":
            interval = int(body.get("interval") or interval + 5)
            continue
        if err == "expired_token":
            raise DeviceFlowError("expired")
        if err == "access_denied":
            raise DeviceFlowError("denied")
        if err == "device_flow_disabled":
            raise DeviceFlowError("disabled")
        if err in ("incorrect_client_credentials", "unsupported_grant_type"):
            raise DeviceFlowError("bad_client", err)
        raise DeviceFlowError("other", err or "no token")


# --------------------------------------------------------------------------------------------
# Sign-in helpers for people who have never made a token (github-rest-notes §10).

TOKEN_NAME = "Modu Desktop"
TOKEN_DESCRIPTION = "Modu Desktop: editing the brochure site"
TOKEN_EXPIRY_DAYS = 90
TOKEN_PERMISSIONS: tuple[tuple[str, str], ...] = (("contents", "write"), ("actions", "read"))
"""Contents read and write: open and save documents, locks and images. Actions read: see
whether the site has been published. Nothing else."""


def fine_grained_token_url(
    web_url: str,
    owner: str | None = None,
    *,
    name: str = TOKEN_NAME,
    description: str = TOKEN_DESCRIPTION,
    expires_in: int = TOKEN_EXPIRY_DAYS,
    permissions: tuple[tuple[str, str], ...] = TOKEN_PERMISSIONS,
) -> str:
    """GitHub's "new fine-grained token" page, filled in by URL parameters: ``name``,
    ``description``, ``target_name`` (the resource owner), ``expires_in`` (days) and one
    parameter per permission. The repository itself cannot be chosen by URL."""
    from urllib.parse import quote, urlencode

    params: list[tuple[str, str]] = [("name", name), ("description", description)]
    if owner:
        params.append(("target_name", owner))
    params.append(("expires_in", str(int(expires_in))))
    params.extend(permissions)
    query = urlencode(params, quote_via=quote)
    return f"{web_url.rstrip('/')}/settings/personal-access-tokens/new?{query}"


def classic_token_url(web_url: str) -> str:
    return f"{web_url.rstrip('/')}/settings/tokens/new?scopes=repo&description=Modu%20Desktop"


def read_only_reason(token: str, result: SignInResult) -> str | None:
    """Why a token that signed in cannot push: ``"approval_pending"`` when it is a new
    fine-grained token for an organization's repository (it stays pending, read-only on public
    resources, until an organization owner approves it), else ``"no_permission"``."""
    if not result.ok or result.can_push:
        return None
    if token.startswith("github_pat_") and result.owner_is_org:
        return "approval_pending"
    return "no_permission"


# --------------------------------------------------------------------------------------------
# Where IT configures "sign in with the browser": a small JSON file shipped with the installer.

DEPLOYMENT_FILE = "modu-desktop.json"
CLIENT_ID_ENV = "MODU_OAUTH_CLIENT_ID"


def deployment_config_paths() -> list[Any]:
    """Where ``modu-desktop.json`` is looked for, first found wins:

    1. beside the program (the folder of the executable; in a macOS app bundle also
       ``Contents/Resources``) — an installer can drop it there;
    2. the machine-wide folder: Windows ``%PROGRAMDATA%\\Modu Desktop``, macOS
       ``/Library/Application Support/Modu Desktop``, Linux ``/etc/modu-desktop`` (and every
       ``$XDG_CONFIG_DIRS/modu-desktop``).
    """
    import sys
    from pathlib import Path

    out: list[Path] = []
    exe = Path(sys.executable).resolve().parent
    out.append(exe / DEPLOYMENT_FILE)
    if exe.name == "MacOS" and exe.parent.name == "Contents":
        out.append(exe.parent / "Resources" / DEPLOYMENT_FILE)
    if sys.platform == "win32":
        base = os.environ.get("PROGRAMDATA") or r"C:\ProgramData"
        out.append(Path(base) / "Modu Desktop" / DEPLOYMENT_FILE)
    elif sys.platform == "darwin":
        out.append(Path("/Library/Application Support/Modu Desktop") / DEPLOYMENT_FILE)
    else:
        out.append(Path("/etc/modu-desktop") / DEPLOYMENT_FILE)
        for d in (os.environ.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(":"):
            if d:
                out.append(Path(d) / "modu-desktop" / DEPLOYMENT_FILE)
    return out


def load_deployment_config(paths: list[Any] | None = None) -> tuple[dict[str, Any], Any]:
    """(the first readable ``modu-desktop.json`` as a dict, its path) or ``({}, None)``.
    A broken file is skipped with a log line, never fatal."""
    import json

    for path in deployment_config_paths() if paths is None else paths:
        try:
            raw = path.read_bytes()
        except OSError:
            continue
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            log.info("ignoring unreadable %s", path)
            continue
        if isinstance(data, dict):
            return data, path
    return {}, None


def resolve_oauth_client_id(
    api_url: str,
    user_setting: str | None,
    *,
    paths: list[Any] | None = None,
    env: Any = None,
) -> str | None:
    """The OAuth app client id for the device flow, or None (then tokens only).

    ``MODU_OAUTH_CLIENT_ID`` (developers) → the user's own setting ``oauth_client_id`` →
    ``modu-desktop.json`` (``{"oauth_client_id": "Ov23li…"}``, optionally with ``"api_url"``:
    then only for that API). A client id is public; no secret is needed or read."""
    env = os.environ if env is None else env
    value = (env.get(CLIENT_ID_ENV) or "").strip() or (user_setting or "").strip()
    if value:
        return value
    data, _path = load_deployment_config(paths)
    cid = str(data.get("oauth_client_id") or "").strip()
    if not cid:
        return None
    only_for = str(data.get("api_url") or "").strip().rstrip("/")
    if only_for and only_for.lower() != api_url.rstrip("/").lower():
        return None
    return cid
