"""Running the benchmark as its smoke tests do: ``python -m bench …`` from the checkout (the
benchmark lives beside the package), with a hang guard only, never a time to meet."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.helpers.paths import CHECKOUT


def run_bench(*args: str, json_out: Path) -> tuple[str, Any]:
    """Run ``python -m bench ARGS --json JSON_OUT``; assert it ended well; return what it
    printed and the JSON it wrote."""
    r = subprocess.run(
        [sys.executable, "-m", "bench", *args, "--json", str(json_out)],
        cwd=CHECKOUT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout, json.loads(json_out.read_text(encoding="utf-8"))
