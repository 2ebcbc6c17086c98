"""A missed heartbeat never says "in 0 min"; the instruction is plain."""

from __future__ import annotations

from typing import Any

import pytest

from modu_desktop.core.locks.model import HeartbeatOutcome
from modu_desktop.core.locks.results import HeartbeatResult

DOC = "02-programs"


@pytest.mark.parametrize(
    ("left_s", "expected"), [(20.0, "within 1 min"), (61.0, "within 2 min"), (-5.0, "has expired")]
)
def test_missed_heartbeat_countdown_is_never_zero(
    make_window: Any, ui: Any, qtbot: Any, left_s: float, expected: str
) -> None:
    win = make_window(heartbeat_s=0.2)
    assert ui.run(win.open_document(DOC))

    async def missed(held: Any) -> HeartbeatResult:
        return HeartbeatResult(
            HeartbeatOutcome.MISSED, held, misses=2, expires_in_s=left_s, error=OSError("down")
        )

    win.ctx.locks.heartbeat = missed
    qtbot.waitUntil(lambda: "Not connected to GitHub" in win.status_lock.text(), timeout=5000)
    text = win.status_lock.text()
    assert expected in text and "0 min" not in text.replace("10 min", "")
    assert "Keep this window open" in text
    assert "Not connected to GitHub" in win.status_conn.text()
