"""Node and npm for the opt-in suites (MDX oracle, site build, OpenAPI schema, web admin page).

Everything is installed from the npm registry into a cache folder outside the checkout, keyed by
what was asked for, so a second run installs nothing. Tests call ``require_node()`` first: it
skips with a reason when Node or npm is missing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.helpers.paths import SITE_FIXTURE


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


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One installer at a time per cache folder (parallel test runs share the cache). Windows
    runs one suite per machine in CI, so the POSIX lock is enough there."""
    if os.name == "nt":
        yield
        return
    import fcntl

    with open(folder.with_name(folder.name + ".lock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _install_once(folder: Path, build: Callable[[Path], None]) -> Path:
    """``folder`` as ``build`` makes it: built in a temporary sibling and renamed into place,
    so an interrupted or concurrent install never leaves a half-filled folder behind."""
    if (folder / ".installed").exists():
        return folder
    with _locked(folder):
        if (folder / ".installed").exists():
            return folder
        work = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
        try:
            build(work)
            (work / ".installed").write_text("ok", "utf-8")
            if folder.exists():
                shutil.rmtree(folder)
            work.rename(folder)
        finally:
            if work.exists():
                shutil.rmtree(work, ignore_errors=True)
    return folder


def npm_packages(name: str, packages: dict[str, str]) -> Path:
    """A folder whose ``node_modules`` holds ``packages`` (name → version range), installed once."""
    require_node()
    key = hashlib.sha256(json.dumps(packages, sort_keys=True).encode()).hexdigest()[:12]

    def build(work: Path) -> None:
        manifest = {"name": f"modu-test-{name}", "private": True, "dependencies": packages}
        (work / "package.json").write_text(json.dumps(manifest, indent=2), "utf-8")
        _npm(["install"], work)

    return _install_once(cache_root() / f"npm-{name}-{key}", build)


def site_checkout() -> Path:
    """A writable copy of the real site fixture with its locked dependencies installed (npm ci)."""
    require_node()
    key = hashlib.sha256((SITE_FIXTURE / "package-lock.json").read_bytes()).hexdigest()[:12]

    def build(work: Path) -> None:
        shutil.copytree(SITE_FIXTURE, work, dirs_exist_ok=True)
        for path in work.rglob("*"):
            path.chmod(path.stat().st_mode | 0o200)
        _npm(["ci"], work, timeout=900)

    return _install_once(cache_root() / f"site-{key}", build)
