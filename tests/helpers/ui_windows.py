"""Main windows in a known state for the UI tests (built with the ``make_window`` fixture)."""

from __future__ import annotations

from typing import Any

from modu_desktop.core.github.client import RetryPolicy
from modu_desktop.core.saving.queue import Backoff


def window_with_running_queue(make_window: Any, ui: Any) -> tuple[Any, Any]:
    """A window whose save queue runs (after start-up recovery), with quick retries and backoff;
    returns the window and its nothing-lost part."""
    win = make_window()
    ctx = win.ctx
    ctx.client.retry = RetryPolicy(max_attempts=2, base_delay=0.02, max_delay=0.05, max_total=0.3)
    nl = win.nothing_lost
    nl.queue.spool.backoff = Backoff(base_s=0.2, cap_s=0.5, jitter=0.0)
    assert not nl.queue.running  # starts once the window has recovered the last session
    ui.run(win.recover_at_start())
    assert nl.queue.running
    return win, nl
