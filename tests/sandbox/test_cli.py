"""`modu-desktop sandbox`: first stdout line, serves requests, stops on SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from modu_desktop.sandbox.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_cli_prints_the_api_url_first_and_serves(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "modu_desktop",
            "sandbox",
            "--port",
            "0",
            "--repo-dir",
            str(tmp_path / "repo"),
            "--user",
            "alice:tok-a",
            "--user",
            "bob:tok-b:ro",
            "--repo",
            "acme/brochure",
            "--latency-ms",
            "1",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline().rstrip("\n")
        assert first.startswith("Sandbox API: http://127.0.0.1:")
        url = first.removeprefix("Sandbox API: ")
        headers = {"Authorization": "token tok-b"}
        repo = httpx.get(f"{url}/repos/acme/brochure", headers=headers, timeout=5).json()
        assert repo["permissions"]["push"] is False
        assert (
            httpx.get(f"{url}/user", headers={"Authorization": "token tok-a"}).json()["login"]
            == "alice"
        )
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=10)
    assert code == 0
    assert (tmp_path / "repo" / "HEAD").exists()


def test_cli_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--repo", "no-slash"]) == 2
    assert main(["--user", "only-login"]) == 2
    with pytest.raises(SystemExit):
        main(["--failure-rate", "lots"])


def test_user_spec_parsing() -> None:
    from modu_desktop.sandbox.users import parse_user_spec

    assert parse_user_spec("a:t").push is True
    assert parse_user_spec("a:t:ro").push is False
    staff = parse_user_spec("a:t:rw:pnuai,other")
    assert staff.push and staff.orgs == ("pnuai", "other")
    with pytest.raises(ValueError):
        parse_user_spec("a:t:admin")


def test_sandbox_is_qt_free() -> None:
    code = (
        "import sys, modu_desktop.sandbox, modu_desktop.sandbox.cli; "
        "sys.exit(1 if any(m.startswith('PySide6') for m in sys.modules) else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0
