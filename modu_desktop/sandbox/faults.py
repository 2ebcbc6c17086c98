"""Fault injection settings and the per-request decisions derived from them.

`Faults` is the knob panel (mutable at run time from any thread); `FaultInjector` turns it into
decisions for one request: latency, a network failure, a rate-limit rejection, or whether a
write loses the race for the branch.
"""

from __future__ import annotations

import dataclasses
import math
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from modu_desktop.sandbox.users import stable_id

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
    # Secondary limits, per user, as GitHub documents them (docs/github-behaviour.md): at most
    # `secondary_concurrent` requests at once, `secondary_points_per_minute` points a minute
    # (GET/HEAD 1 point, PUT/DELETE/POST/PATCH 5), and `content_per_minute` / `content_per_hour`
    # content-creating requests (writes). None switches one off. Over any → 403 (or 429) with
    # remaining > 0 and `Retry-After`: the seconds until the limit admits the request again, or
    # `secondary_retry_after` when set; `secondary_omit_retry_after` sends none (GitHub may not).
    secondary_concurrent: int | None = 100
    secondary_points_per_minute: int | None = 900
    content_per_minute: int | None = 80
    content_per_hour: int | None = 500
    # An extra, tighter limit for tests: requests per user per `secondary_window_seconds`.
    secondary_limit: int | None = None
    secondary_window_seconds: float = 60.0
    secondary_retry_after: int | None = None
    secondary_omit_retry_after: bool = False
    secondary_status: int = 403
    # The secondary limits' minute and hour last 60/scale and 3600/scale seconds here (a
    # simulation on a compressed clock); Retry-After is given in the same compressed seconds.
    rate_time_scale: float = 1.0
    # The branch race. GitHub builds a Contents API write on the branch head it read and moves
    # the branch only if it still points there; when another write moved it meanwhile, the
    # answer is 409 "is at X but expected Y" and nothing is applied. `race_window_ms` is the
    # time between reading the head and moving the ref (writes overlapping in it race for
    # real); `race_rate` is the chance that another client's commit lands in a write's window
    # (for `race_paths`: paths, or folders ending in "/"; empty = every path).
    race_window_ms: float = 0.0
    race_rate: float = 0.0
    race_paths: tuple[str, ...] = ()
    # Contents API GET by branch serves the pre-write version for this long after a write.
    stale_contents_seconds: float = 0.0
    clock_offset_seconds: float = 0.0
    # Git trees: stop after this many entries and report truncated=true (GitHub: 100,000).
    tree_entry_limit: int = 100_000
    rng_seed: int | None = None
    _lock: Any = field(default_factory=threading.RLock, init=False, repr=False, compare=False)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "race_paths" and value is not None:
            value = tuple(value)
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


_OPTIONAL_FIELDS = (
    "secondary_limit",
    "secondary_retry_after",
    "rng_seed",
    "secondary_concurrent",
    "secondary_points_per_minute",
    "content_per_minute",
    "content_per_hour",
)


def _checked_value(name: str, value: Any, current: Any) -> Any:
    """`value` converted to the field's type, judged by its current value."""
    if value is None and name in _OPTIONAL_FIELDS:
        return None
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be true or false")
        return value
    if isinstance(current, list):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ValueError(f"{name} must be a list of strings")
        return tuple(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number")
    if value < 0 and name != "clock_offset_seconds":
        raise ValueError(f"{name} must not be negative")
    if name in ("failure_rate", "race_rate") and value > 1:
        raise ValueError(f"{name} must be between 0 and 1")
    if name == "rate_time_scale" and value <= 0:
        raise ValueError("rate_time_scale must be positive")
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


WRITE_POINTS = 5  # GitHub's secondary-limit points: most POST/PATCH/PUT/DELETE requests
READ_POINTS = 1  # most GET/HEAD/OPTIONS requests


class _SlidingWindow:
    """Events (time, weight) of the last `length` seconds: GitHub does not say whether its
    minute and hour are fixed or sliding, so the sandbox takes the stricter, sliding one."""

    def __init__(self) -> None:
        self.events: deque[tuple[float, int]] = deque()
        self.total = 0

    def _expire(self, now: float, length: float) -> None:
        while self.events and self.events[0][0] <= now - length:
            self.total -= self.events.popleft()[1]

    def room_for(self, weight: int, limit: int, now: float, length: float) -> float | None:
        """None when `weight` more fits under `limit`; else seconds until it does."""
        self._expire(now, length)
        if self.total + weight <= limit:
            return None
        excess = self.total + weight - limit
        freed = 0
        for when, w in self.events:
            freed += w
            if freed >= excess:
                return max(0.0, when + length - now)
        return length  # heavier than the limit itself: a full window

    def add(self, weight: int, now: float) -> None:
        self.events.append((now, weight))
        self.total += weight


@dataclass
class _UserUsage:
    """One user's secondary-limit counters."""

    in_flight: int = 0
    points: _SlidingWindow = field(default_factory=_SlidingWindow)
    content_minute: _SlidingWindow = field(default_factory=_SlidingWindow)
    content_hour: _SlidingWindow = field(default_factory=_SlidingWindow)
    extra: _Window | None = None


class FaultInjector:
    """Turns the current `Faults` into decisions. Thread-safe."""

    def __init__(self, faults: Faults, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.faults = faults
        self._now = monotonic  # the sandbox clock's steady time: windows open and close by it
        self._lock = threading.Lock()
        self._rng = random.Random(faults.rng_seed)
        self._seed_in_use = faults.rng_seed
        self._primary: dict[str, _Window] = {}
        self._usage: dict[str, _UserUsage] = {}

    def snapshot(self) -> Faults:
        return self.faults.snapshot()

    def _reseed(self, faults: Faults) -> None:
        if faults.rng_seed != self._seed_in_use:
            self._rng.seed(faults.rng_seed)
            self._seed_in_use = faults.rng_seed

    def pick_failure(self, faults: Faults) -> str | None:
        """Roll the dice once per request; the rng is re-seeded when `rng_seed` changes."""
        if faults.failure_rate <= 0 or not faults.failure_kinds:
            return None
        with self._lock:
            self._reseed(faults)
            if self._rng.random() >= faults.failure_rate:
                return None
            return self._rng.choice(list(faults.failure_kinds))

    def loses_race(self, faults: Faults, path: str) -> bool:
        """Does another client's commit land in this write's window (`race_rate`)?"""
        if faults.race_rate <= 0 or not path_matches(path, faults.race_paths):
            return False
        with self._lock:
            self._reseed(faults)
            return self._rng.random() < faults.race_rate

    def rate_info(self, login: str, faults: Faults, wall_now: float) -> RateInfo:
        with self._lock:
            window = self._primary_window(login, faults)
            return self._info(window, faults, wall_now)

    def enter(self, login: str) -> None:
        """A request of `login` is being answered (the concurrency limit counts these)."""
        with self._lock:
            self._usage_of(login).in_flight += 1

    def in_flight(self, login: str) -> int:
        """Requests of `login` being answered right now."""
        with self._lock:
            usage = self._usage.get(login)
            return usage.in_flight if usage is not None else 0

    def leave(self, login: str) -> None:
        with self._lock:
            usage = self._usage_of(login)
            usage.in_flight = max(0, usage.in_flight - 1)

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
            wait = self._secondary_wait(login, faults, is_write)
            if wait is None:
                return None
            if faults.secondary_omit_retry_after:
                retry_after = None
            elif faults.secondary_retry_after is not None:
                retry_after = faults.secondary_retry_after
            else:
                retry_after = max(1, math.ceil(wait))
            return RateRejection(
                faults.secondary_status,
                _secondary_message(is_write),
                secondary=True,
                retry_after=retry_after,
            )

    def _secondary_wait(self, login: str, faults: Faults, is_write: bool) -> float | None:
        """Seconds until the first secondary limit that refuses this request admits it again,
        or None when none refuses it. Caller holds `_lock`."""
        usage = self._usage_of(login)
        now = self._now()
        minute, hour = 60.0 / faults.rate_time_scale, 3600.0 / faults.rate_time_scale
        if (
            faults.secondary_concurrent is not None
            and usage.in_flight > faults.secondary_concurrent
        ):
            return 1.0
        checks: list[tuple[_SlidingWindow, int, int | None, float]] = [
            (
                usage.points,
                WRITE_POINTS if is_write else READ_POINTS,
                faults.secondary_points_per_minute,
                minute,
            )
        ]
        if is_write:
            checks.append((usage.content_minute, 1, faults.content_per_minute, minute))
            checks.append((usage.content_hour, 1, faults.content_per_hour, hour))
        waits = [
            wait
            for counter, weight, limit, length in checks
            if limit is not None
            and (wait := counter.room_for(weight, limit, now, length)) is not None
        ]
        if faults.secondary_limit is not None:
            extra = usage.extra
            if extra is None:
                extra = usage.extra = _Window(now, faults.secondary_window_seconds)
            extra.roll(now, faults.secondary_window_seconds)
            if extra.count >= faults.secondary_limit:
                waits.append(extra.start + extra.length - now)
        return max(waits) if waits else None

    def charge(
        self, login: str, faults: Faults, is_write: bool = False, *, primary: bool = True
    ) -> None:
        """Count a request against the limits. A 304 is never charged to the primary limit,
        like GitHub's (`primary=False`); the secondary limits count every answered request."""
        with self._lock:
            now = self._now()
            if primary:
                self._primary_window(login, faults).count += 1
            usage = self._usage_of(login)
            usage.points.add(WRITE_POINTS if is_write else READ_POINTS, now)
            if is_write:
                usage.content_minute.add(1, now)
                usage.content_hour.add(1, now)
            if faults.secondary_limit is not None:
                if usage.extra is None:
                    usage.extra = _Window(now, faults.secondary_window_seconds)
                usage.extra.roll(now, faults.secondary_window_seconds)
                usage.extra.count += 1

    def reset_counters(self) -> None:
        with self._lock:
            self._primary.clear()
            for usage in self._usage.values():
                in_flight = usage.in_flight
                usage.__init__()  # type: ignore[misc]
                usage.in_flight = in_flight

    def _usage_of(self, login: str) -> _UserUsage:
        usage = self._usage.get(login)
        if usage is None:
            usage = self._usage[login] = _UserUsage()
        return usage

    def _primary_window(self, login: str, faults: Faults) -> _Window:
        now = self._now()
        window = self._primary.get(login)
        if window is None:
            window = self._primary[login] = _Window(now, faults.primary_window_seconds)
        window.roll(now, faults.primary_window_seconds)
        return window

    def _info(self, window: _Window, faults: Faults, wall_now: float) -> RateInfo:
        seconds_left = max(0.0, window.start + window.length - self._now())
        used = min(window.count, faults.primary_limit)
        return RateInfo(
            limit=faults.primary_limit,
            remaining=max(0, faults.primary_limit - window.count),
            used=used,
            reset_epoch=int(wall_now + seconds_left + 0.999),
        )


def path_matches(path: str, patterns: tuple[str, ...]) -> bool:
    """Is `path` one of `patterns` (paths, or folders ending in "/")? Empty = every path."""
    if not patterns:
        return True
    return any(path == p or (p.endswith("/") and path.startswith(p)) for p in patterns)


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
