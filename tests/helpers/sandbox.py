"""Driving and reading a sandbox from tests: HTTP clients like GitHub's, its users, repository
checks, and what it holds (lock files, write counts)."""

from __future__ import annotations

import base64
import json
import subprocess
import threading
from collections.abc import Callable
from typing import Any

import httpx

from modu_desktop.sandbox import Sandbox, SandboxUser
from modu_desktop.sandbox.clock import SystemClock

OWNER, REPO = "pnuai", "PNU-Modu"
REPO_PATH = f"/repos/{OWNER}/{REPO}"
USERS = [
    SandboxUser("editor1", "tok-editor1", push=True, orgs=("pnuai",)),
    SandboxUser("editor2", "tok-editor2", push=True),
    SandboxUser("viewer", "tok-viewer", push=False, orgs=("pnuai",)),
]


def b64(data: bytes | str) -> str:
    raw = data.encode() if isinstance(data, str) else data
    return base64.b64encode(raw).decode()


def unwrap(content: str) -> bytes:
    return base64.b64decode(content.replace("\n", ""))


def client_for(sb: Sandbox, token: str | None = "tok-editor1", **kw: Any) -> httpx.Client:
    headers = {"Accept": "application/vnd.github+json", "User-Agent": "modu-tests"}
    if token is not None:
        headers["Authorization"] = f"token {token}"
    return httpx.Client(base_url=sb.api_url, headers=headers, timeout=kw.pop("timeout", 10), **kw)


def assert_repo_intact(sb: Sandbox) -> None:
    """`git fsck --strict` finds nothing wrong and the branch still resolves to a commit."""
    result = subprocess.run(
        ["git", "fsck", "--strict", "--no-dangling"],
        cwd=sb.repo_dir,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert sb.commits(), "branch has no commits"


SandboxFactory = Callable[..., Sandbox]


def lock_json(sandbox: Any, doc_id: str) -> Any:
    """The parsed lock file of ``doc_id`` (None when there is none)."""
    raw = sandbox.read_file(f".locks/{doc_id}.lock.json")
    return None if raw is None else json.loads(raw)


def writes(sandbox: Any) -> int:
    """How many writes (PUT, POST, PATCH, DELETE) the sandbox has answered."""
    by_method = sandbox.stats().get("by_method", {})
    return sum(n for m, n in by_method.items() if m in ("PUT", "POST", "PATCH", "DELETE"))


class AnswerGate(SystemClock):
    """A sandbox clock that holds every answer while closed (``sandbox.clock = gate``): a test
    acts while a request is surely in flight, then ``release()`` lets the answers go. Real time
    otherwise; each request waits here before it is handled (the injected latency's place)."""

    def __init__(self) -> None:
        self._open = threading.Event()
        self._open.set()

    def hold(self) -> None:
        self._open.clear()

    def release(self) -> None:
        self._open.set()

    def sleep(self, seconds: float, stop: threading.Event) -> bool:
        while not self._open.wait(0.05):
            if stop.is_set():
                return True
        return super().sleep(seconds, stop)
