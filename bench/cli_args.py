"""Command-line values the benchmark's commands share."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeVar

N = TypeVar("N", int, float)


def number_list(
    convert: Callable[[str], N], *, example: str, allow_zero: bool
) -> Callable[[str], list[N]]:
    """An argparse ``type`` for "10,30,100": a list of numbers, each positive (or, with
    ``allow_zero``, not negative)."""

    def parse(text: str) -> list[N]:
        try:
            vals = [convert(v) for v in text.replace(" ", "").split(",") if v]
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected numbers like {example}: {text!r}") from None
        if not vals or any(v < 0 or (v == 0 and not allow_zero) for v in vals):
            kind = "non-negative" if allow_zero else "positive"
            raise argparse.ArgumentTypeError(f"expected {kind} numbers: {text!r}")
        return vals

    return parse
