"""No dead code: vulture, with the settings and paths of pyproject's [tool.vulture], finds
nothing unused in the product, the benchmark, the scripts or the tests. A name that a library
calls by name goes into vulture_whitelist.py with the reason; anything else it finds is removed
(or used)."""

from __future__ import annotations

import subprocess
import sys
import tomllib

from tests.helpers.paths import CHECKOUT


def test_vulture_finds_no_unused_code() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "vulture"],
        cwd=CHECKOUT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout[-4000:] + done.stderr


def test_vulture_looks_at_every_room_at_a_confidence_that_finds_dead_code() -> None:
    settings = tomllib.loads((CHECKOUT / "pyproject.toml").read_text("utf-8"))["tool"]["vulture"]
    assert settings["min_confidence"] <= 60  # 100 alone finds only unreachable code
    assert {"modu_desktop", "bench", "tests", "vulture_whitelist.py"} <= set(settings["paths"])
