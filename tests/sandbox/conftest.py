"""Helpers for the sandbox contract tests: clients, a sandbox factory, repository checks."""

from __future__ import annotations

import base64
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from modu_desktop.sandbox import Faults, Sandbox, SandboxUser

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


@pytest.fixture
def make_sandbox(tmp_path: Path) -> Iterator[SandboxFactory]:
    """Start sandboxes with custom options; all are stopped at the end of the test."""
    started: list[Sandbox] = []

    def make(name: str = "repo", **options: Any) -> Sandbox:
        options.setdefault("users", USERS)
        options.setdefault("deploy_queue_seconds", 0.2)
        options.setdefault("deploy_run_seconds", 0.3)
        sb = Sandbox(tmp_path / name, **options)
        sb.start()
        started.append(sb)
        return sb

    yield make
    for sb in started:
        sb.stop()


@pytest.fixture
def sb(make_sandbox: SandboxFactory) -> Sandbox:
    return make_sandbox()


@pytest.fixture
def editor(sb: Sandbox) -> Iterator[httpx.Client]:
    with client_for(sb) as c:
        yield c


@pytest.fixture
def fast_faults() -> Faults:
    return Faults(timeout_hang_seconds=1.5, rng_seed=7)
