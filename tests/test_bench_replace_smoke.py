"""Smoke test of the replace benchmark: a tiny run end to end writes the figures
docs/performance.md reports. It checks what the benchmark counts (one commit, the requests,
what the web admin reads), never how fast anything was. The real run: ``python -m bench
replace``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.bench import run_bench


@pytest.mark.timeout(660)  # a hang guard only: the run takes as long as the machine needs
def test_replace_bench_quick_run(tmp_path: Path) -> None:
    out = tmp_path / "replace.json"
    stdout, result = run_bench(
        "replace", "--docs", "6", "--others", "3", "--size-kb", "2", json_out=out
    )
    assert "### Replace “2025학년도” → “2026학년도” in 6 pages" in stdout
    assert result["documents"] == 9 and result["pages_with_hits"] == 6
    assert result["commits"] == 1 and result["pages_changed"] == 6 and result["met"]
    assert result["requests_for_the_change"] == 6  # ref, commit, tree; tree, commit, ref
    assert result["requests_by_method"] == {"GET": 3, "POST": 2, "PATCH": 1}
    assert result["web_admin_reads_new_text"] == 6
    assert result["hits_replaced"] == result["hits"] > 6
