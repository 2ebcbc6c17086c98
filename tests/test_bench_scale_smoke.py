"""Smoke test of the scale simulation: a tiny run end to end (three editors, a few simulated
minutes) prints the table and writes the numbers docs/scale.md is made of. The real runs:
``python -m bench scale`` (slow, see docs/scale.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import CHECKOUT


@pytest.mark.timeout(660)  # a hang guard only: the run takes as long as the machine needs
def test_scale_quick_run(tmp_path: Path) -> None:
    out = tmp_path / "scale.json"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench",
            "scale",
            "--editors",
            "3",
            "--hours",
            "0.1",
            "--speed",
            "30",
            "--json",
            str(out),
        ],
        cwd=CHECKOUT,  # the benchmark lives beside the package, run from the checkout
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "| **saves lost** |" in r.stdout and "requests/editor-hour" in r.stdout
    (run,) = json.loads(out.read_text())
    assert (run["desk"], run["web"]) == (2, 1)
    assert run["saves_lost"] == 0 and run["unsent_after_drain"] == 0
    assert run["counts"].get("false lock losses", 0) == 0
    assert run["content_written_without_the_lock"].get("desk", 0) == 0
    assert run["commits"]["lock"] > 0  # the editors did lock their documents
    for key in ("commits_per_hour", "requests_per_editor_hour", "peak_per_editor", "races_ours"):
        assert key in run
