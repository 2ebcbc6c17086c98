"""Time the Python side of the preview: a cold render and a one-line edit.

    uv run python scripts/bench_render.py [--runs 5]

Renders the largest real document (``docs/99-template.md``, 35 KB) and the benchmark's 150 KB
handbook (``bench/gen.py``): cold (the Markdown cache emptied first; the best of ``--runs``) and
after a one-line edit (only the edited fragment is converted again). Targets: a cold render of
the template under 100 ms, an edit faster than a cold render. Prints the numbers and whether each
target is met; exit 1 when one is missed. ``tests/core/preview/test_render.py`` checks the
mechanism (what is converted again), never the time.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.gen import big_document  # noqa: E402
from modu_desktop.core.preview import clear_render_cache, render_preview  # noqa: E402

TEMPLATE = ROOT / "tests" / "fixtures" / "pnu-modu" / "docs" / "99-template.md"
COLD_TARGET_MS = 100.0


def _ms(text: str) -> float:
    start = time.perf_counter()
    render_preview(text)
    return (time.perf_counter() - start) * 1000


def measure(text: str, runs: int) -> tuple[float, float]:
    """(best cold render, an edit of one line after a full render), in milliseconds."""
    render_preview(text)  # imports, compiled patterns
    cold = []
    for _ in range(runs):
        clear_render_cache()
        cold.append(_ms(text))
    render_preview(text)
    lines = text.split("\n")
    middle = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("#"))
    lines[middle] += " 수정"
    return min(cold), _ms("\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    docs = {
        "99-template.md (largest real)": TEMPLATE.read_text("utf-8"),
        "handbook (bench/gen.py)": big_document(random.Random(7)),
    }
    missed = 0
    for label, text in docs.items():
        cold, edit = measure(text, args.runs)
        size = len(text.encode("utf-8")) / 1024
        best = f"best of {args.runs}"
        print(f"{label}: {size:.0f} KB; cold {cold:.1f} ms ({best}); edit {edit:.1f} ms")
        checks = [(f"edit faster than cold ({edit:.1f} < {cold:.1f} ms)", edit < cold)]
        if label.startswith("99-template"):
            target = f"cold ≤ {COLD_TARGET_MS:.0f} ms ({cold:.1f} ms)"
            checks.append((target, cold <= COLD_TARGET_MS))
        for name, met in checks:
            print(f"  {'met   ' if met else 'MISSED'} {name}")
            missed += not met
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
