"""Smoke test of the picture library's benchmark: a tiny run end to end writes the figures
docs/performance.md reports. It checks what the benchmark counts (rows shown, thumbnails made,
requests per opening), never how fast anything was. The real run: ``python -m bench pictures``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.bench import run_bench


@pytest.mark.timeout(660)  # a hang guard only: the run takes as long as the machine needs
def test_picture_library_bench_quick_run(tmp_path: Path) -> None:
    out = tmp_path / "pictures.json"
    stdout, result = run_bench(
        "pictures", "--pictures", "12", "--pages", "4", "--latency-ms", "0", json_out=out
    )
    assert "| latency | opening | first view | all thumbnails |" in stdout
    assert result["site"]["pictures"] == 12 and result["site"]["unused"] == 1
    (run,) = result["results"]
    first, second = run["first"], run["second"]
    assert first["rows"] == second["rows"] == 12
    assert first["made"] == 12 and first["requests"] == 12  # each picture read once, by sha
    assert second["made"] == 0 and second["requests"] == 0  # from the disk cache
    assert first["broken"] == second["broken"] == 0
    assert run["documents"] == 4 and run["thumbnail_cache_mb"] >= 0
    for key in ("first_view_s", "all_thumbnails_s", "rss_growth_mb", "max_stall_ms"):
        assert key in first and key in second
