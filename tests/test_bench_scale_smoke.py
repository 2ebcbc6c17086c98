"""Smoke test of the scale simulation: a tiny run end to end (three editors, a few simulated
minutes) prints the table and writes the numbers docs/scale.md is made of. The real runs:
``python -m bench scale`` (slow, see docs/scale.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.bench import run_bench


@pytest.mark.timeout(660)  # a hang guard only: the run takes as long as the machine needs
def test_scale_quick_run(tmp_path: Path) -> None:
    out = tmp_path / "scale.json"
    stdout, result = run_bench(
        "scale", "--editors", "3", "--hours", "0.1", "--speed", "30", json_out=out
    )
    assert "| **saves lost** |" in stdout and "requests/editor-hour" in stdout
    (run,) = result
    assert (run["desk"], run["web"]) == (2, 1)
    assert run["saves_lost"] == 0 and run["unsent_after_drain"] == 0
    assert run["counts"].get("false lock losses", 0) == 0
    assert run["content_written_without_the_lock"].get("desk", 0) == 0
    assert run["commits"]["lock"] > 0  # the editors did lock their documents
    for key in ("commits_per_hour", "requests_per_editor_hour", "peak_per_editor", "races_ours"):
        assert key in run
