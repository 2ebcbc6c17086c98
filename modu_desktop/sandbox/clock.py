"""The sandbox's time: the wall clock of its dates, the steady clock of its durations, and how it
waits (injected latency, a hanging request).

Everything in the sandbox that depends on time asks its one clock: the ``Date`` header and commit
dates, rate-limit windows, the stale Contents cache, the deploy run's queued → in progress →
completed, download links that expire. ``SystemClock`` is real time. ``ManualClock`` stands
still until it is moved, so a test can say "ten minutes later" without waiting them.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    def time(self) -> float:
        """Wall-clock seconds since the epoch (dates)."""
        ...

    def monotonic(self) -> float:
        """Steady seconds (durations); only differences mean anything."""
        ...

    def sleep(self, seconds: float, stop: threading.Event) -> bool:
        """Let ``seconds`` pass unless ``stop`` is set first; True when it is set."""
        ...


class SystemClock:
    """Real time; sleeping really waits (and wakes when the sandbox stops)."""

    def time(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float, stop: threading.Event) -> bool:
        return stop.wait(seconds) if seconds > 0 else stop.is_set()


class ManualClock:
    """Time that moves only when told: :meth:`advance`, or a sleep (an injected latency or hang
    moves the clock at once instead of waiting). Thread-safe. Starts at ``start`` (now by
    default), with the steady clock at 0."""

    def __init__(self, start: float | None = None) -> None:
        self._lock = threading.Lock()
        self._wall = time.time() if start is None else start
        self._steady = 0.0

    def time(self) -> float:
        with self._lock:
            return self._wall

    def monotonic(self) -> float:
        with self._lock:
            return self._steady

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time does not go back")
        with self._lock:
            self._wall += seconds
            self._steady += seconds

    def sleep(self, seconds: float, stop: threading.Event) -> bool:
        if seconds > 0:
            self.advance(seconds)
        return stop.is_set()
