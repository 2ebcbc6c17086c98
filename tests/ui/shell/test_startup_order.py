"""Start-up order, in the real app's own process: the start-up check is asked before
Qt is imported, the last list is shown before WebEngine is imported, then confirmed while the
rest of the app loads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.helpers.paths import CHECKOUT

SCRIPT = """
import sys, time
from modu_desktop.core.account import startcheck


class WatchWebEngine:
    def find_spec(self, name, path, target=None):
        if name == "PySide6.QtWebEngineCore":
            print(f"WEBENGINE_IMPORT {time.time():.6f}", flush=True)
            sys.meta_path.remove(self)
        return None


sys.meta_path.insert(0, WatchWebEngine())

started = startcheck.StartCheck.start

def start(self):
    print("QT_AT_CHECK", any(m.startswith("PySide6") for m in sys.modules), flush=True)
    return started(self)

startcheck.StartCheck.start = start
from bench.probe import main
sys.exit(main(["startup", *sys.argv[1:]]))
"""


def _start(api_url: str, data: Path) -> str:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "MODU_TOKEN": "tok-editor1"}
    env.pop("MODU_DATA_DIR", None)
    r = subprocess.run(
        [sys.executable, "-c", SCRIPT, "--api-url", api_url, "--data-dir", str(data)],
        env=env,
        cwd=CHECKOUT,  # the probe is the benchmark's (bench/ in the checkout)
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "FRESH_LIST" in r.stdout, (r.stdout, r.stderr[-2000:])
    return r.stdout


def test_the_check_goes_out_before_qt_and_confirms_the_last_list(
    sandbox: Any, tmp_path: Path
) -> None:
    first = _start(sandbox.api_url, tmp_path)
    assert "QT_AT_CHECK" not in first  # no list from a last run: nothing to check
    sandbox.reset_stats()
    second = _start(sandbox.api_url, tmp_path)
    assert "QT_AT_CHECK False" in second
    first_rows = second.split("FIRST_LIST ", 1)[1].split()
    fresh_rows = second.split("FRESH_LIST ", 1)[1].split()
    assert first_rows[1] == fresh_rows[1] != "0"  # the same documents, confirmed
    assert float(first_rows[0]) <= float(fresh_rows[0])
    # WebEngine (~40 ms of import) is not on the way to the first paint.
    if "WEBENGINE_IMPORT " in second:
        assert float(second.split("WEBENGINE_IMPORT ", 1)[1].split()[0]) > float(first_rows[0])
    assert sandbox.stats()["total"] >= 1
