"""The real app process: --sandbox with a screenshot and a graceful timed quit; SIGTERM releases."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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
        timeout=100,  # only against a hang: --quit-after ends it once the window has shown
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert shot.exists() and shot.stat().st_size > 10_000
    # the log file, in the log folder of --data-dir (no console needed)
    log_text = (tmp_path / "d" / "logs" / "modu-desktop.log").read_text("utf-8")
    assert "Modu Desktop starting" in log_text and "practice-token" not in log_text
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


def _run_app(tmp_path: Path, api_url: str, env_extra: dict[str, str], *extra: str) -> Any:
    env = _env()
    env.update(env_extra)
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"  # never the real keyring
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "modu_desktop",
            "--api-url",
            api_url,
            "--repo",
            "pnuai/PNU-Modu",
            "--data-dir",
            str(tmp_path / "d"),
            "--quit-after",
            "3",
            *extra,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_modu_token_against_a_separate_api(tmp_path: Path, sandbox: Any) -> None:
    shot = tmp_path / "editor.png"
    proc = _run_app(
        tmp_path,
        sandbox.api_url,
        {"MODU_TOKEN": "tok-editor1"},
        "--open",
        "01-welcome",
        "--screenshot",
        str(shot),
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert shot.exists()
    subjects = [c["message"] for c in sandbox.commits()]
    assert subjects[0] == "system: release lock for 01-welcome [skip ci]"
    assert subjects[1].startswith("system: acquire lock for 01-welcome by @editor1")
    # the token was used, never stored
    assert not any(
        "tok-editor1" in p.read_text("utf-8", "replace")
        for p in (tmp_path / "d").rglob("*")
        if p.is_file()
    )


def test_read_only_token_opens_viewer_without_writes(tmp_path: Path, sandbox: Any) -> None:
    sandbox.reset_stats()
    proc = _run_app(tmp_path, sandbox.api_url, {"MODU_TOKEN": "tok-viewer"}, "--open", "01-welcome")
    assert proc.returncode == 0, proc.stderr[-2000:]
    by_method = sandbox.stats().get("by_method", {})
    assert not any(by_method.get(m) for m in ("PUT", "POST", "PATCH", "DELETE")), by_method


def test_no_token_shows_sign_in_and_quits_cleanly(tmp_path: Path, sandbox: Any) -> None:
    proc = _run_app(tmp_path, sandbox.api_url, {})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert sandbox.stats()["total"] == 0  # nothing sent without a token
