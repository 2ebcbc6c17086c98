"""The layering is a checked contract: ``lint-imports`` (import-linter) with the contracts in
pyproject.toml — the core never imports the UI, the CLI, the sandbox or Qt; the sandbox never
imports the UI, the CLI or the client's code; nothing in the product imports the benchmark; the
UI's rooms are in layers (the window over its parts over the editor over what it shows over the
kit); no import circles between the rooms of the core, the sandbox, the CLI and the UI."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.helpers.paths import CHECKOUT


def _lint_imports() -> str:
    here = Path(sys.executable).parent
    found = shutil.which("lint-imports", path=str(here)) or shutil.which("lint-imports")
    assert found, "lint-imports (import-linter, a dev dependency) is not installed"
    return found


def test_the_import_contracts_are_kept() -> None:
    done = subprocess.run(
        [_lint_imports(), "--no-cache", "--no-logo"],
        cwd=CHECKOUT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    contracts = tomllib.loads((CHECKOUT / "pyproject.toml").read_text("utf-8"))["tool"][
        "importlinter"
    ]["contracts"]
    assert f"Contracts: {len(contracts)} kept, 0 broken." in done.stdout
