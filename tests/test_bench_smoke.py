"""Smoke test of the benchmark: a tiny run end to end, and the JSON has what the README table and
the targets need. It checks that the benchmark runs and what it counts, never how fast anything
was (timings are the benchmark's to report). The real measurements: ``python -m bench`` (slow)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.bench import run_bench

ACTIONS = (
    "list_cold",
    "list_warm",
    "list_restart",
    "open_uncontended",
    "open_contended",
    "heartbeat",
    "save",
    "close",
    "takeover_notice",
)


@pytest.mark.timeout(660)  # a hang guard only: the run takes as long as the machine needs
def test_bench_quick_run_writes_the_expected_json(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    stdout, result = run_bench(
        "--docs", "3", "--latency-ms", "0", "--runs", "1", "--quick", json_out=out
    )
    assert "| action |" in stdout  # the readable table
    report = result
    assert "webadmin" in report["baseline"]
    (cfg,) = report["configs"]
    assert cfg["docs"] == 3 and cfg["latency_ms"] == 0 and cfg["round_trip_ms"] > 0
    for action in ACTIONS:
        a = cfg["actions"][action]
        assert a["ours"]["runs"] >= 1 and a["ours"]["requests"] >= 1, action
        assert a["webadmin"]["requests"] >= 1, action
        assert "ratio_wall_ours_vs_webadmin" in a, action
    # the request patterns the targets are about (independent of timing)
    acts = cfg["actions"]
    assert acts["list_warm"]["ours"]["requests_max"] == 1
    assert acts["list_cold"]["ours"]["requests_max"] <= 1 + 4  # 3 docs + the big one
    assert acts["heartbeat"]["ours"]["requests_max"] == 2  # one look, one write
    # the one who lost a lock learns it from the tree and the new lock, without a write
    assert cfg["takeover_notice_requests"] == acts["takeover_notice"]["ours"]["requests_max"] <= 2
    assert acts["takeover_notice"]["ours"]["routes_last_run"].keys() <= {
        "GET /git/trees/{tree_sha}",
        "GET /git/blobs/{file_sha}",
    }
    # the git database's figures: a save's 409, pages in one commit, the blob cache's size
    gd = cfg["gitdata"]
    assert cfg["save_conflict_reads_before_question"] == 3
    assert gd["save_conflict"]["requests"] == 4  # the PUT, then the three reads
    assert gd["changes"]["commits"] == 1 and gd["changes"]["requests"] == 6
    assert gd["changes"]["committed"] == gd["changes"]["files"] == 4
    assert gd["blob_cache"]["after_first_list"]["disk_bytes"] > 0
    assert gd["blob_cache"]["after_prune"]["files"] >= gd["blob_cache"]["docs"]
    assert acts["open_uncontended"]["webadmin"]["requests"] == 3
    assert acts["heartbeat"]["webadmin"]["requests"] == 2
    assert "ours_proposed" in acts["open_uncontended"]
    assert report["qt_import"]["median_ms"] > 0
    assert cfg["startup"]["warm"]["rows"] == 4
    assert report["stall"]["ui"]["max_stall_ms"] is not None
    mem = report["memory"]
    assert 0 < mem["before_preview_peak_mb"] <= mem["peak_mb"] < mem["with_renderer_mb"]
    assert report["targets"] and all("met" in t for t in report["targets"])
    # the last list at start-up, the contended dialog from cache, the 10,000-row list
    assert cfg["startup"]["warm"]["fresh_median_ms"] >= cfg["startup"]["warm"]["median_ms"]
    assert acts["open_contended"]["ours"]["requests_max"] == 1  # one tree read confirms it
    assert acts["open_contended"]["ours"]["dialog_ms"] is not None
    assert report["doc_list"]["rows"] == 10_000 and report["doc_list"]["keystroke_max_ms"] > 0
    names = {t["target"] for t in report["targets"]}
    assert "filter keystroke with 10,000 documents ≤ 16 ms" in names
    assert any(n.startswith("practice mode start-up") for n in names)
