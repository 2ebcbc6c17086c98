"""Time the publish check on the 150 KB handbook and the largest real document.

    uv run python scripts/bench_publish_check.py [--runs 30]

The handbook is the benchmark's big document (``bench/gen.py``, every block kind,
~150 KB); the largest real document is the site's ``docs/99-template.md`` (35 KB). Two
timings each, median and slowest run in milliseconds:

* first check — nothing cached (the check of a document just opened);
* after an edit — one line changed since the previous check (a save after typing: the parts
  of the document that were not edited are not read again).

Wall-clock time is what a writer waits; the CPU time beside it is the check's own work, which a
busy machine (other programs on the same cores) does not inflate. Target: < 50 ms for the
handbook. The app runs the check off the UI thread either way.
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
from modu_desktop.core.publish.check import check_text, clear_check_caches  # noqa: E402

TEMPLATE = ROOT / "tests" / "fixtures" / "pnu-modu-site" / "docs" / "99-template.md"


def timed(
    text: str, runs: int, paths: set[str], *, edited: bool
) -> tuple[float, float, float, int]:
    """Median and slowest wall time and median CPU time (ms) of checking ``text``: cold
    (``edited`` False) or after a one-line edit; and the number of findings."""
    rng = random.Random(11)
    lines = text.split("\n")
    samples = []
    cpu = []
    findings = 0
    clear_check_caches()
    if edited:
        check_text(text, path="docs/zz-big-handbook.md", repo_paths=paths)
    for run in range(runs):
        doc = text
        if edited:  # a few words typed at the end of one line somewhere in the document
            n = rng.randrange(len(lines))
            doc = "\n".join(lines[:n] + [lines[n] + f" 추가 {run}"] + lines[n + 1 :])
        else:
            clear_check_caches()
        t0, c0 = time.perf_counter(), time.process_time()
        result = check_text(doc, path="docs/zz-big-handbook.md", repo_paths=paths)
        samples.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        findings = len(result.findings)
        if edited:
            check_text(text, path="docs/zz-big-handbook.md", repo_paths=paths)
    return statistics.median(samples), max(samples), statistics.median(cpu), findings


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
        size = len(text.encode("utf-8")) / 1024
        for kind, edited in (("first check", False), ("after an edit", True)):
            median, worst, cpu, n = timed(text, args.runs, paths, edited=edited)
            print(
                f"{label}: {size:.0f} KB, {n} findings, {kind} — median {median:.1f} ms "
                f"(CPU {cpu:.1f} ms), slowest {worst:.1f} ms over {args.runs} runs"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
