"""Changing faults of a running sandbox over HTTP (`/_sandbox/faults`): practice mode and
end-to-end tests cut the network mid-save without reaching into the server's process."""

from __future__ import annotations

from typing import Any

import httpx

HEADERS = {"Authorization": "Bearer tok-editor1", "User-Agent": "test"}


def test_faults_can_be_read_and_changed_at_run_time(sandbox: Any) -> None:
    with httpx.Client(base_url=sandbox.api_url, headers=HEADERS) as http:
        assert http.get("/_sandbox/faults").json()["failure_rate"] == 0.0
        changed = http.post(
            "/_sandbox/faults", json={"failure_rate": 1.0, "failure_kinds": ["5xx"]}
        )
        assert changed.status_code == 200
        assert changed.json()["failure_kinds"] == ["5xx"]
        assert sandbox.faults.failure_rate == 1.0
        assert http.get("/user").status_code == 502  # every API request fails now
        assert http.post("/_sandbox/faults", json={"failure_rate": 0}).status_code == 200
        assert http.get("/user").status_code == 200


def test_bad_fault_changes_are_refused_whole(sandbox: Any) -> None:
    with httpx.Client(base_url=sandbox.api_url, headers=HEADERS) as http:
        bad = [
            ({"latency_ms": 10, "no_such_knob": 1}, "Unknown fault setting"),
            ({"failure_rate": 2}, "between 0 and 1"),
            ({"failure_kinds": ["meteor"]}, "Unknown failure kind"),
            ({"latency_ms": "fast"}, "must be a number"),
            ({"latency_ms": 1.5}, "whole number"),
            ([1, 2], "JSON object"),
        ]
        for body, message in bad:
            answer = http.post("/_sandbox/faults", json=body)
            assert answer.status_code == 422, body
            assert message in answer.json()["message"], answer.json()
        assert http.post("/_sandbox/faults", content=b"{nope").status_code == 400
        assert sandbox.faults.latency_ms == 0  # nothing of a refused change was applied
        ok = http.post("/_sandbox/faults", json={"clock_offset_seconds": -600})
        assert ok.status_code == 200 and sandbox.faults.clock_offset_seconds == -600.0
