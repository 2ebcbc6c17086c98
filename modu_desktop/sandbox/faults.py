"""Fault injection settings and the per-request decisions derived from them.

`Faults` is the knob panel (mutable at run time from any thread); `FaultInjector` turns it into
decisions for one request: latency, a network failure, or a rate-limit rejection.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from .users import stable_id

FailureKind = Literal["5xx", "reset", "timeout", "lost_response"]
FAILURE_KINDS: tuple[str, ...] = ("5xx", "reset", "timeout", "lost_response")


@dataclass
class Faults:
    """What can go wrong, per request. Every field may be changed while the server runs.

    failure_kinds: "5xx" (502 Server Error), "reset" (connection reset before the request is
    handled), "timeout" (hang for `timeout_hang_seconds`, then reset), "lost_response" (the request
    IS applied, then the connection is reset: the write-succeeded-but-client-never-heard case).
    """

    latency_ms: int = 0
    failure_rate: float = 0.0
    failure_kinds: tuple[str, ...] = ("5xx",)
    timeout_hang_seconds: float = 20.0
    # Primary limit: requests per user per window; over it → 403/429 with remaining 0.
    primary_limit: int = 5000
    primary_window_seconds: float = 3600.0
    primary_status: int = 403
    # Secondary limit: requests (all users) per window; over it → 403 with remaining > 0.
    secondary_limit: int | None = None
    secondary_window_seconds: float = 60.0
    secondary_retry_after: int | None = None
    secondary_status: int = 403
    # Contents API GET by branch serves the pre-write version for this long after a write.
    stale_contents_seconds: float = 0.0
    clock_offset_seconds: float = 0.0
    # Git trees: stop after this many entries and report truncated=true (GitHub: 100,000).
    tree_entry_limit: int = 100_000
    rng_seed: int | None = None
    _lock: Any = field(default_factory=threading.RLock, init=False, repr=False, compare=False)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("failure_kinds",) and value is not None:
            value = tuple(value)
            unknown = [k for k in value if k not in FAILURE_KINDS]
            if unknown:
                raise ValueError(f"unknown failure kinds {unknown}; use {FAILURE_KINDS}")
        lock = self.__dict__.get("_lock")
        if lock is None:
            object.__setattr__(self, name, value)
            return
        with lock:
            object.__setattr__(self, name, value)

    def update(self, **changes: Any) -> None:
        """Change several fields atomically (a request never sees half of the change)."""
        with self._lock:
            for name, value in changes.items():
                if not hasattr(self, name) or name.startswith("_"):
                    raise AttributeError(f"Faults has no field {name!r}")
                setattr(self, name, value)

    def snapshot(self) -> Faults:
        with self._lock:
            values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}
        return Faults(**values)

    def to_json(self) -> dict[str, Any]:
        snap = self.snapshot()
        return {
            f.name: list(v) if isinstance(v := getattr(snap, f.name), tuple) else v
            for f in dataclasses.fields(snap)
            if f.init
        }

    def apply_json(self, changes: object) -> None:
        """Apply a JSON object of changes (the `/_sandbox/faults` endpoint), all or nothing.
        Raises ValueError with a specific message for an unknown field or a wrongly typed value."""
        if not isinstance(changes, dict):
            raise ValueError("Body should be a JSON object")
        current = self.to_json()
        checked: dict[str, Any] = {}
        for name, value in changes.items():
            if name not in current:
                raise ValueError(f"Unknown fault setting {name!r}")
            checked[name] = _checked_value(name, value, current[name])
        kinds = checked.get("failure_kinds", ())
        unknown = [k for k in kinds if k not in FAILURE_KINDS]
        if unknown:
            raise ValueError(f"Unknown failure kind(s) {unknown}; use {list(FAILURE_KINDS)}")
        self.update(**checked)


_OPTIONAL_FIELDS = ("secondary_limit", "secondary_retry_after", "rng_seed")


def _checked_value(name: str, value: Any, current: Any) -> Any:
    """`value` converted to the field's type, judged by its current value."""
    if value is None and name in _OPTIONAL_FIELDS:
        return None
    if isinstance(current, list):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ValueError(f"{name} must be a list of strings")
        return tuple(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number")
    if value < 0 and name != "clock_offset_seconds":
        raise ValueError(f"{name} must not be negative")
    if name == "failure_rate" and value > 1:
        raise ValueError("failure_rate must be between 0 and 1")
    if isinstance(current, int) or name in _OPTIONAL_FIELDS:
        if value != int(value):
            raise ValueError(f"{name} must be a whole number")
        return int(value)
    return float(value)


@dataclass(frozen=True)
class RateInfo:
    limit: int
    remaining: int
    used: int
    reset_epoch: int


@dataclass(frozen=True)
class RateRejection:
    status: int
    message: str
    secondary: bool
    retry_after: int | None


class _Window:
    """A fixed counting window (GitHub's primary limit resets at a fixed time, not sliding)."""

    def __init__(self, now: float, length: float) -> None:
        self.start = now
        self.length = length
        self.count = 0

    def roll(self, now: float, length: float) -> None:
        if now >= self.start + self.length or length != self.length:
            self.start, self.length, self.count = now, length, 0


class FaultInjector:
    """Turns the current `Faults` into decisions. Thread-safe."""

    def __init__(self, faults: Faults, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.faults = faults
        self._now = monotonic  # the sandbox clock's steady time: windows open and close by it
        self._lock = threading.Lock()
        self._rng = random.Random(faults.rng_seed)
        self._seed_in_use = faults.rng_seed
        self._primary: dict[str, _Window] = {}
        self._secondary: _Window | None = None

    def snapshot(self) -> Faults:
        return self.faults.snapshot()

    def pick_failure(self, faults: Faults) -> str | None:
        """Roll the dice once per request; the rng is re-seeded when `rng_seed` changes."""
        if faults.failure_rate <= 0 or not faults.failure_kinds:
            return None
        with self._lock:
            if faults.rng_seed != self._seed_in_use:
                self._rng.seed(faults.rng_seed)
                self._seed_in_use = faults.rng_seed
            if self._rng.random() >= faults.failure_rate:
                return None
            return self._rng.choice(list(faults.failure_kinds))

    def rate_info(self, login: str, faults: Faults, wall_now: float) -> RateInfo:
        with self._lock:
            window = self._primary_window(login, faults)
            return self._info(window, faults, wall_now)

    def check_limits(
        self, login: str, faults: Faults, is_write: bool, wall_now: float
    ) -> RateRejection | None:
        """Return a rejection if this request is over a limit (without charging it)."""
        with self._lock:
            window = self._primary_window(login, faults)
            if window.count >= faults.primary_limit:
                return RateRejection(
                    faults.primary_status,
                    _primary_message(login),
                    secondary=False,
                    retry_after=None,
                )
            if faults.secondary_limit is None:
                return None
            secondary = self._secondary_window(faults)
            if secondary.count >= faults.secondary_limit:
                return RateRejection(
                    faults.secondary_status,
                    _secondary_message(is_write),
                    secondary=True,
                    retry_after=faults.secondary_retry_after,
                )
            return None

    def charge(self, login: str, faults: Faults) -> None:
        """Count a request against both limits (a 304 is never charged, like GitHub)."""
        with self._lock:
            self._primary_window(login, faults).count += 1
            if faults.secondary_limit is not None:
                self._secondary_window(faults).count += 1

    def reset_counters(self) -> None:
        with self._lock:
            self._primary.clear()
            self._secondary = None

    def _primary_window(self, login: str, faults: Faults) -> _Window:
        now = self._now()
        window = self._primary.get(login)
        if window is None:
            window = self._primary[login] = _Window(now, faults.primary_window_seconds)
        window.roll(now, faults.primary_window_seconds)
        return window

    def _secondary_window(self, faults: Faults) -> _Window:
        now = self._now()
        if self._secondary is None:
            self._secondary = _Window(now, faults.secondary_window_seconds)
        self._secondary.roll(now, faults.secondary_window_seconds)
        return self._secondary

    def _info(self, window: _Window, faults: Faults, wall_now: float) -> RateInfo:
        seconds_left = max(0.0, window.start + window.length - self._now())
        used = min(window.count, faults.primary_limit)
        return RateInfo(
            limit=faults.primary_limit,
            remaining=max(0, faults.primary_limit - window.count),
            used=used,
            reset_epoch=int(wall_now + seconds_left + 0.999),
        )


def _primary_message(login: str) -> str:
    # The wording users quote (notes §9); GitHub names the numeric user id, or the IP address.
    if not login:
        return "API rate limit exceeded for 127.0.0.1."
    return f"API rate limit exceeded for user ID {stable_id('user', login.lower())}."


def _secondary_message(is_write: bool) -> str:
    # Both texts as seen in the wild (docs/github-behaviour.md, "Rate limits").
    if is_write:
        return (
            "You have exceeded a secondary rate limit and have been temporarily blocked from "
            "content creation. Please retry your request again later."
        )
    return (
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
    )
