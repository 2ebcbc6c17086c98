"""The real app process: --sandbox with a screenshot and a graceful timed quit; SIGTERM releases."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env.pop("MODU_TOKEN", None)
    return env


def _subjects(repo: Path) -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(repo), "log", "--format=%s", "-n", "20"],
        capture_output=True,
        text=True,
        check=False,
    )
    return out.stdout.splitlines()


def test_sandbox_screenshot_and_quit(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    t0 = time.monotonic()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "modu_desktop",
            "--sandbox",
            "--data-dir",
            str(tmp_path / "d"),
            "--screenshot",
            str(shot),
            "--quit-after",
            "3",
            "--lang",
            "ko",
        ],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert shot.exists() and shot.stat().st_size > 10_000
    assert time.monotonic() - t0 < 30
    # practice work survives restarts: the practice repository lives in the data dir
    assert (tmp_path / "d" / "data" / "practice-repo").exists()


def test_sigterm_releases_the_lock(tmp_path: Path) -> None:
    data = tmp_path / "d"
    repo = data / "data" / "practice-repo"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "modu_desktop",
            "--sandbox",
            "--data-dir",
            str(data),
            "--open",
            "01-welcome",
            "--quit-after",
            "40",
        ],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if any(s.startswith("system: acquire lock for 01-welcome") for s in _subjects(repo)):
                break
            time.sleep(0.2)
        else:
            pytest.fail("the app never acquired the lock")
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert rc == 0, proc.stderr.read() if proc.stderr else ""
    assert _subjects(repo)[0] == "system: release lock for 01-welcome [skip ci]"
