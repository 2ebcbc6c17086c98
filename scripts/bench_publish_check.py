"""Time the publish check on the 150 KB handbook and the largest real document.

    uv run python scripts/bench_publish_check.py [--runs 30]

The handbook is the benchmark's big document (``bench/gen.py``, every block kind,
~150 KB); the largest real document is the site's ``docs/99-template.md`` (35 KB). Prints the
median and the slowest run in milliseconds. Target: < 50 ms for the handbook.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.gen import big_document  # noqa: E402
from modu_desktop.core.publish.check import check_text  # noqa: E402

TEMPLATE = ROOT / "tests" / "fixtures" / "pnu-modu-site" / "docs" / "99-template.md"


def timed(text: str, runs: int, paths: set[str]) -> tuple[float, float, int]:
    samples = []
    findings = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        result = check_text(text, path="docs/zz-big-handbook.md", repo_paths=paths)
        samples.append((time.perf_counter() - t0) * 1000)
        findings = len(result.findings)
    return statistics.median(samples), max(samples), findings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args(argv)
    site = ROOT / "tests" / "fixtures" / "pnu-modu-site"
    paths = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    docs = {
        "handbook (bench/gen.py)": big_document(random.Random(7)),
        "99-template.md (largest real)": TEMPLATE.read_text("utf-8"),
    }
    for label, text in docs.items():
        median, worst, n = timed(text, args.runs, paths)
        size = len(text.encode("utf-8")) / 1024
        print(
            f"{label}: {size:.0f} KB, {n} findings — median {median:.1f} ms, "
            f"slowest {worst:.1f} ms over {args.runs} runs"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
