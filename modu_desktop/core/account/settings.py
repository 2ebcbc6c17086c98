"""User settings (Qt-free): which repository, which API, which language.

Stored as JSON in the per-user config dir, written atomically (temp file, fsync, rename).
A corrupt or unreadable file never stops the app: it is set aside as ``settings.json.corrupt``
and defaults are used. Unknown keys are kept so newer versions' settings survive a round trip.
No secret is ever stored here (the token lives in the keyring, see ``auth.py``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from modu_desktop.core.atomic import write_atomic

log = logging.getLogger(__name__)

DEFAULT_API_URL = "https://api.github.com"
DEFAULT_OWNER = "pnuai"
DEFAULT_NAME = "PNU-Modu"
DEFAULT_BRANCH = "main"
LANGUAGES = ("ko", "en")
MIN_SCALE, MAX_SCALE = 0.5, 3.0  # text size and preview zoom stay readable and on screen


def keyring_account(api_url: str) -> str:
    """The keyring account of an API URL: its host, with the port if any."""
    return urlsplit(api_url).netloc or api_url


@dataclass
class Settings:
    api_url: str = DEFAULT_API_URL
    owner: str = DEFAULT_OWNER
    name: str = DEFAULT_NAME
    branch: str = DEFAULT_BRANCH
    language: str | None = None  # "ko" | "en" | None = follow the OS
    required_org: str | None = None  # sign-in requires membership of this org, if set
    oauth_client_id: str | None = None  # enables "sign in with the browser" when set
    # An open document's lock is released after this many minutes without typing (0: never).
    idle_release_minutes: float = 20.0
    text_scale: float = 1.0  # 보기 → 글자 크게/작게: the interface and the editor, × system size
    preview_zoom: float = 1.0  # the preview's own zoom
    check_updates: bool = True  # look for a newer version once after start-up
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def repo_full_name(self) -> str:
        return f"{self.owner}/{self.name}"

    @property
    def api_host(self) -> str:
        """Host (and port) of the API; the keyring account name."""
        return keyring_account(self.api_url)

    @property
    def is_github_com(self) -> bool:
        return self.api_host.lower() == "api.github.com"

    @property
    def web_url(self) -> str:
        """The web UI matching the API: github.com, or a GitHub Enterprise Server host."""
        return web_url_for_api(self.api_url)

    def set_repo(self, full_name: str) -> None:
        owner, sep, name = full_name.strip().partition("/")
        if not sep or not owner or not name or "/" in name:
            raise ValueError(f"repository must look like OWNER/NAME, got {full_name!r}")
        self.owner, self.name = owner, name


def web_url_for_api(api_url: str) -> str:
    parts = urlsplit(api_url.rstrip("/"))
    host = parts.netloc
    if host.lower() == "api.github.com":
        return "https://github.com"
    if host.lower().startswith("api.") and host.lower().endswith(".ghe.com"):
        return f"{parts.scheme}://{host[4:]}"  # GHE.com data residency: api.X.ghe.com → X.ghe.com
    path = parts.path
    if path.endswith("/api/v3"):
        path = path[: -len("/api/v3")]
    return f"{parts.scheme}://{host}{path}"


def _coerce(data: dict[str, Any]) -> Settings:
    s = Settings()
    known = {f.name for f in fields(Settings)} - {"extra"}
    for key, value in data.items():
        if key in known:
            if key in ("api_url", "owner", "name", "branch"):
                if isinstance(value, str) and value.strip():
                    setattr(s, key, value.strip())
            elif key == "language":
                s.language = value if value in LANGUAGES else None
            elif key == "idle_release_minutes":
                if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
                    s.idle_release_minutes = float(value)
            elif key in ("text_scale", "preview_zoom"):
                if isinstance(value, int | float) and not isinstance(value, bool):
                    setattr(s, key, min(MAX_SCALE, max(MIN_SCALE, float(value))))
            elif key == "check_updates":
                s.check_updates = value is not False
            elif key in ("required_org", "oauth_client_id"):
                s.__setattr__(
                    key, value.strip() if isinstance(value, str) and value.strip() else None
                )
        else:
            s.extra[key] = value
    return s


def load_settings(path: Path) -> Settings:
    """Read settings; missing → defaults; corrupt → defaults and the bad file set aside."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Settings()
    except OSError as exc:
        log.warning("settings unreadable (%s); using defaults", exc)
        return Settings()
    try:
        data = json.loads(raw.decode("utf-8-sig"))
        if not isinstance(data, dict):
            raise ValueError("settings is not a JSON object")
    except (ValueError, UnicodeDecodeError) as exc:
        log.warning("settings file %s is corrupt (%s); using defaults", path, exc)
        with contextlib.suppress(OSError):
            os.replace(path, path.with_name(path.name + ".corrupt"))
        return Settings()
    return _coerce(data)


def save_settings(settings: Settings, path: Path) -> None:
    """Write settings atomically: a crash leaves the old file or the new one, never half of one."""
    data = asdict(settings)
    extra = data.pop("extra", {}) or {}
    merged = {**extra, **data}
    payload = (json.dumps(merged, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    write_atomic(path, payload)
