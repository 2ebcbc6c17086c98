"""Smoke test of the search benchmark: a tiny run end to end writes the figures
docs/performance.md reports. It checks what the benchmark counts (pages read, requests during
the searches), never how fast anything was. The real run: ``python -m bench search``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.bench import run_bench


@pytest.mark.timeout(660)  # a hang guard only: the run takes as long as the machine needs
def test_search_bench_quick_run(tmp_path: Path) -> None:
    out = tmp_path / "search.json"
    stdout, result = run_bench(
        "search", "--docs", "12", "--size-kb", "2", "--runs", "2", "--changed", "3", json_out=out
    )
    assert "| query | whole word | case | hits (pages) | median ms | max ms |" in stdout
    assert result["documents"] == 12 and result["index_pages_read"] == 12
    assert result["index_later_start_loaded"] == 12  # a later start reads none again
    assert result["requests_during_searches"] == 0
    assert result["refresh_after_changes"] == {
        **result["refresh_after_changes"],
        "changed": 3,
        "pages_read": 3,
        "pages_kept": 9,
    }
    by_query = {q["query"]: q for q in result["queries"]}
    assert by_query["2025학년도"]["hits"] > 0 and by_query["없는낱말"]["hits"] == 0
    assert by_query["student success"]["hits"] == by_query["Student Success"]["hits"]
    for key in ("median_ms", "p95_ms", "index_build_ms", "index_memory_mb", "target_ms"):
        assert key in result
