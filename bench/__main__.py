"""``python -m bench [--docs N[,N…]] [--latency-ms MS[,MS…]] [--runs K]
[--json FILE]``: see docs/performance.md. ``python -m bench scale …``: the scale simulation
(``bench/scale.py``, docs/scale.md). ``python -m bench search …``: search across every page
(``bench/search.py``, docs/performance.md). ``python -m bench replace …``: a replacement
across pages in one commit (``bench/replace.py``, docs/performance.md). ``python -m bench
pictures …``: the picture library with 500 pictures (``bench/pictures.py``,
docs/performance.md)."""

from __future__ import annotations

import argparse
import json
import sys
import time

from bench.cli_args import number_list
from bench.report import table
from bench.runner import Options, run

_ints = number_list(int, example="10,100", allow_zero=True)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bench",
        description="Modu Desktop against the web admin's request pattern on a latency sandbox.",
    )
    p.add_argument("--docs", type=_ints, default=[100], help="documents, e.g. 10,100,1000")
    p.add_argument("--latency-ms", type=_ints, default=[50], help="per request, e.g. 50,150")
    p.add_argument("--runs", type=int, default=5, help="runs per action (medians)")
    p.add_argument(
        "--cold-runs",
        type=int,
        default=None,
        help="cold-list runs (default: --runs up to 100 docs, else 1)",
    )
    p.add_argument("--startup-runs", type=int, default=3)
    p.add_argument("--json", metavar="FILE", help="write the results as JSON")
    p.add_argument("--quick", action="store_true", help="one run of everything (smoke test)")
    p.add_argument("--no-qt", action="store_true", help="skip start-up, stall and memory probes")
    p.add_argument("--sandbox-mode", choices=("process", "thread"), default="process")
    p.add_argument("--webadmin-concurrency", type=int, default=6)
    p.add_argument("--stall-docs", type=int, default=None)
    p.add_argument("--stall-latency-ms", type=int, default=None)
    return p


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    if given[:1] == ["scale"]:
        from bench.scale import main as scale_main

        return scale_main(given[1:])
    if given[:1] == ["search"]:
        from bench.search import main as search_main

        return search_main(given[1:])
    if given[:1] == ["replace"]:
        from bench.replace import main as replace_main

        return replace_main(given[1:])
    if given[:1] == ["pictures"]:
        from bench.pictures import main as pictures_main

        return pictures_main(given[1:])
    args = build_parser().parse_args(argv)
    t0 = time.perf_counter()

    def progress(msg: str) -> None:
        print(f"[{time.perf_counter() - t0:6.1f}s] {msg}", file=sys.stderr, flush=True)

    opt = Options(
        docs=args.docs,
        latencies=args.latency_ms,
        runs=max(1, args.runs),
        cold_runs=args.cold_runs,
        quick=args.quick,
        qt=not args.no_qt,
        sandbox_mode=args.sandbox_mode,
        web_concurrency=args.webadmin_concurrency,
        startup_runs=max(1, args.startup_runs),
        stall_docs=args.stall_docs,
        stall_latency=args.stall_latency_ms,
        progress=progress,
    )
    report = run(opt)
    report["command"] = "python -m bench " + " ".join(sys.argv[1:] if argv is None else argv)
    print(table(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2, ensure_ascii=False)
        print(f"JSON written to {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
