"""The fidelity tool on one real document: our preview against the real site, built by
Docusaurus, drawn in the site's own fonts and rendered by the same engine (needs Node and the
npm registry for the site's font packages; skips with a reason without Node)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.nodetools import require_node, site_checkout

ROOT = Path(__file__).resolve().parents[3]


def _private_copy(checkout: Path, into: Path) -> Path:
    """The cached checkout, copied without node_modules (linked): the build writes into it."""
    ignore = shutil.ignore_patterns("node_modules", "build", ".docusaurus")
    shutil.copytree(checkout, into, ignore=ignore)
    (into / "node_modules").symlink_to(checkout / "node_modules", target_is_directory=True)
    return into


@pytest.mark.timeout(900)
def test_preview_matches_the_built_site(tmp_path: Path) -> None:
    require_node()
    pytest.importorskip("skimage", reason="scikit-image (dev group) is needed for SSIM")
    site = _private_copy(site_checkout(), tmp_path / "site")
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "preview_fidelity.py"),
            "--site",
            str(site),
            "--docs",
            "02-part-2",
            "--width",
            "1280",
            "--out",
            str(out),
            "--json",
            str(out / "r.json"),
        ],
        capture_output=True,
        text=True,
        timeout=850,
        env=dict(os.environ),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (row,) = json.loads((out / "r.json").read_text("utf-8"))
    assert row["doc"] == "02-part-2"
    # The site is drawn in its own fonts (served in place of its CDNs), ours in the ones we ship.
    assert {"Noto Sans KR", "Pretendard"} <= set(row["site_fonts"]), row
    assert {"Noto Sans KR", "Pretendard"} <= set(row["our_fonts"]), row
    assert row["ssim"] >= 0.90, row  # measured 0.99 here
    assert abs(row["ours_px"][1] - row["site_px"][1]) <= 0.05 * row["site_px"][1], row
    assert Path(row["png"]).is_file()
