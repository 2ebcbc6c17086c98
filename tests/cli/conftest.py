"""The admin CLI's tests run against the sandbox with a token in the environment."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def cli_env(sandbox: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The sandbox, with ``MODU_TOKEN`` (editor1) and a private data folder for the CLI."""
    monkeypatch.setenv("MODU_TOKEN", "tok-editor1")
    monkeypatch.setenv("MODU_DATA_DIR", str(tmp_path / "data"))
    return sandbox
