"""``modu-desktop export-pdf`` against the sandbox: a real process, the git database, a PDF."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


def _run(sandbox: Any, tmp_path: Path, *args: str, token: str = "tok-editor1") -> Any:
    env = dict(os.environ, MODU_TOKEN=token, XDG_DATA_HOME=str(tmp_path / "data"))
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    return subprocess.run(
        [sys.executable, "-m", "modu_desktop", "export-pdf", *args, "--api-url", sandbox.api_url],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_export_pdf_writes_the_document_with_its_picture(sandbox: Any, tmp_path: Path) -> None:
    out = tmp_path / "notes.pdf"
    done = _run(sandbox, tmp_path, "05-sandbox-notes", "--out", str(out), "--paper", "b5")
    assert done.returncode == 0, done.stderr[-2000:]
    assert out.read_bytes().startswith(b"%PDF")
    box = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)", out.read_bytes())
    assert box and abs(float(box.group(1)) - 176 / 25.4 * 72) < 3
    assert b"/Subtype /Image" in out.read_bytes() or b"/Subtype/Image" in out.read_bytes()
    routes = sandbox.stats()["by_route"]
    assert not any("/contents/" in r for r in routes)  # the git database only
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True).stdout
        assert "연습" in text.decode("utf-8", "replace")


def test_export_pdf_failures_are_one_line(sandbox: Any, tmp_path: Path) -> None:
    missing = _run(sandbox, tmp_path, "77-nothing", "--out", str(tmp_path / "x.pdf"))
    assert missing.returncode == 1
    assert missing.stderr.startswith("error: ") and missing.stderr.count("\n") == 1
    bad = _run(
        sandbox, tmp_path, "05-sandbox-notes", "--out", str(tmp_path / "x.pdf"), token="nope"
    )
    assert bad.returncode == 1 and "nope" not in bad.stderr
    usage = _run(sandbox, tmp_path, "05-sandbox-notes", "--out", "x.pdf", "--paper", "letter")
    assert usage.returncode == 2
    if not (tmp_path / "x.pdf").exists():
        return
    pytest.fail("a failed export left a file behind")
