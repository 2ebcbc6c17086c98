"""The sandbox's clock: a manual clock moves only when told, and a sleep on it moves it."""

from __future__ import annotations

import threading

import pytest

from modu_desktop.sandbox.clock import ManualClock, SystemClock


def test_a_manual_clock_stands_still_until_moved() -> None:
    clock = ManualClock(start=1_800_000_000)
    assert (clock.time(), clock.monotonic()) == (1_800_000_000, 0)
    clock.advance(90)
    assert (clock.time(), clock.monotonic()) == (1_800_000_090, 90)
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_sleeping_on_a_manual_clock_moves_it_and_says_whether_it_was_stopped() -> None:
    clock, stop = ManualClock(start=0), threading.Event()
    assert clock.sleep(20, stop) is False and clock.monotonic() == 20
    stop.set()
    assert clock.sleep(5, stop) is True


def test_the_system_clock_wakes_when_stopped() -> None:
    stop = threading.Event()
    stop.set()
    assert SystemClock().sleep(3600, stop) is True  # returns at once: the sandbox is stopping
    assert SystemClock().sleep(0, threading.Event()) is False
