"""Request counters per method and per route template (what the client actually sent)."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any


class RequestStats:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_route: Counter[str] = Counter()
        self._by_method: Counter[str] = Counter()
        self._by_status: Counter[str] = Counter()

    def count(self, method: str, template: str) -> None:
        with self._lock:
            self._by_route[f"{method} {template}"] += 1
            self._by_method[method] += 1

    def count_outcome(self, outcome: str) -> None:
        """Status code or fault name ("reset", "timeout"), for diagnosing a test run."""
        with self._lock:
            self._by_status[outcome] += 1

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {
                "total": sum(self._by_method.values()),
                "by_route": dict(sorted(self._by_route.items())),
                "by_method": dict(sorted(self._by_method.items())),
                "by_status": dict(sorted(self._by_status.items())),
            }

    def reset(self) -> None:
        with self._lock:
            self._by_route.clear()
            self._by_method.clear()
            self._by_status.clear()
