"""Server clock: an estimate of GitHub's time from the `Date` header of every response.

Each response whose request left at local time `sent` and whose answer came back at `received`
was stamped by the server at some instant inside [sent, received] with a whole second D, so the
offset (server - local) lies in [D - received, D + 1 - sent]. The clock intersects the intervals
of recent samples (narrowing to well under a second on a fast link) and falls back to the newest
sample alone when they disagree (the local clock was changed, or a proxy rewrote the header).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from datetime import datetime
from email.utils import parsedate_to_datetime

__all__ = ["ServerClock", "parse_http_date"]


def parse_http_date(value: str) -> float | None:
    """An RFC 7231 HTTP date → Unix seconds, or None if it cannot be parsed."""
    try:
        dt: datetime = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if dt is None:  # pragma: no cover - older Pythons returned None
        return None
    if dt.tzinfo is None:
        return None
    return dt.timestamp()


class ServerClock:
    """Thread-safe estimate of server time. `now()` returns server-time Unix seconds.

    Until a first `Date` has been seen the offset is 0 (`synced` is False).
    `local_time` is injectable for tests.
    """

    def __init__(self, local_time: Callable[[], float] = time.time, *, window: int = 16) -> None:
        self._local_time = local_time
        self._lock = threading.Lock()
        self._samples: deque[tuple[float, float]] = deque(maxlen=window)
        self._offset = 0.0
        self._synced = False

    def __repr__(self) -> str:
        return f"ServerClock(offset={self._offset:+.3f}s, synced={self._synced})"

    @property
    def local_time(self) -> Callable[[], float]:
        return self._local_time

    def local_now(self) -> float:
        return self._local_time()

    def now(self) -> float:
        """Current server time (Unix seconds, float)."""
        return self._local_time() + self._offset

    @property
    def offset(self) -> float:
        """Estimated server time minus local time, seconds."""
        return self._offset

    @property
    def synced(self) -> bool:
        return self._synced

    def to_local(self, server_ts: float) -> float:
        """A server Unix time → the local Unix time of the same instant."""
        return server_ts - self._offset

    def observe(
        self, date_header: str | None, sent: float | None = None, received: float | None = None
    ) -> None:
        """Feed a response's `Date` header with local send/receive times (default: now)."""
        if not date_header:
            return
        server = parse_http_date(date_header)
        if server is None:
            return
        if received is None:
            received = self._local_time()
        if sent is None or sent > received:
            sent = received
        self.observe_interval(server - received, server + 1.0 - sent)

    def observe_interval(self, low: float, high: float) -> None:
        with self._lock:
            self._samples.append((low, high))
            samples = list(self._samples)
            lo, hi = low, high
            # Intersect from the newest sample backwards; at the first disagreement, forget
            # that sample and everything older (the local clock jumped, or a proxy lied).
            for i in range(len(samples) - 2, -1, -1):
                s_lo, s_hi = samples[i]
                n_lo, n_hi = max(lo, s_lo), min(hi, s_hi)
                if n_lo > n_hi:
                    self._samples = deque(samples[i + 1 :], maxlen=self._samples.maxlen)
                    break
                lo, hi = n_lo, n_hi
            self._offset = (lo + hi) / 2.0
            self._synced = True
