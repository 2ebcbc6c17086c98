"""Node and npm for the opt-in suites (MDX oracle, site build, OpenAPI schema, web admin page).

Everything is installed from the npm registry into a cache folder outside the checkout, keyed by
what was asked for, so a second run installs nothing. Tests call ``require_node()`` first: it
skips with a reason when Node or npm is missing.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SITE_FIXTURE = FIXTURES / "pnu-modu-site"


def cache_root() -> Path:
    base = os.environ.get("MODU_TEST_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "modu-desktop-tests"
    )
    root = Path(base)
    root.mkdir(parents=True, exist_ok=True)
    return root


def require_node() -> None:
    """Skip the calling test when Node.js or npm is not installed."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (.ci/run installs it)")


def _npm(args: list[str], cwd: Path, timeout: float = 600) -> None:
    done = subprocess.run(
        ["npm", *args, "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise RuntimeError(f"npm {' '.join(args)} failed in {cwd}:\n{done.stderr[-4000:]}")


def npm_packages(name: str, packages: dict[str, str]) -> Path:
    """A folder whose ``node_modules`` holds ``packages`` (name → version range), installed once."""
    require_node()
    key = hashlib.sha256(json.dumps(packages, sort_keys=True).encode()).hexdigest()[:12]
    folder = cache_root() / f"npm-{name}-{key}"
    marker = folder / ".installed"
    if not marker.exists():
        folder.mkdir(parents=True, exist_ok=True)
        manifest = {"name": f"modu-test-{name}", "private": True, "dependencies": packages}
        (folder / "package.json").write_text(json.dumps(manifest, indent=2), "utf-8")
        _npm(["install"], folder)
        marker.write_text("ok", "utf-8")
    return folder


def site_checkout() -> Path:
    """A writable copy of the real site fixture with its locked dependencies installed (npm ci)."""
    require_node()
    lock = (SITE_FIXTURE / "package-lock.json").read_bytes()
    key = hashlib.sha256(lock).hexdigest()[:12]
    folder = cache_root() / f"site-{key}"
    marker = folder / ".installed"
    if not marker.exists():
        if folder.exists():
            shutil.rmtree(folder)
        shutil.copytree(SITE_FIXTURE, folder)
        for path in folder.rglob("*"):
            path.chmod(path.stat().st_mode | 0o200)
        _npm(["ci"], folder, timeout=900)
        marker.write_text("ok", "utf-8")
    return folder
