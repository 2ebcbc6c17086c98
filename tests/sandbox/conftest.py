"""Fixtures of the sandbox contract tests: a sandbox factory, a sandbox, an editor's client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from modu_desktop.sandbox import Faults, Sandbox
from tests.helpers.sandbox import USERS, SandboxFactory, client_for


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
