"""`modu-desktop sandbox …`: run the sandbox in the foreground until SIGINT/SIGTERM."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from types import FrameType

from modu_desktop.sandbox.faults import FAILURE_KINDS, Faults
from modu_desktop.sandbox.server import Sandbox
from modu_desktop.sandbox.users import PRACTICE_USER, parse_user_spec


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="modu-desktop sandbox",
        description="GitHub-compatible practice/test server backed by a local git repository.",
    )
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0, help="0 = any free port")
    p.add_argument("--repo", default="pnuai/PNU-Modu", metavar="OWNER/NAME")
    p.add_argument("--branch", default="main")
    p.add_argument("--org", default=None, help="organisation that exists in the sandbox")
    p.add_argument(
        "--repo-dir",
        type=Path,
        default=None,
        help="git repository directory (reused if it exists; default: a temp dir)",
    )
    p.add_argument("--seed", default="sample", help="sample | empty | PATH (folder or checkout)")
    p.add_argument(
        "--user",
        action="append",
        default=[],
        metavar="LOGIN:TOKEN[:ro|rw[:ORGS]]",
        help="repeatable; ORGS comma-separated; default practice:practice-token",
    )
    _fault_arguments(p.add_argument_group("fault injection"))
    deploy = p.add_argument_group("fake deploy workflow")
    deploy.add_argument("--deploy-queue-seconds", type=float, default=2.0)
    deploy.add_argument("--deploy-run-seconds", type=float, default=5.0)
    return p


def _fault_arguments(faults: argparse._ArgumentGroup) -> None:
    """What can go wrong: latency, failures, rate limits, the branch race, stale reads."""
    faults.add_argument("--latency-ms", type=int, default=0)
    faults.add_argument("--failure-rate", type=float, default=0.0)
    faults.add_argument(
        "--failure-kinds", default="5xx", help=f"comma-separated: {','.join(FAILURE_KINDS)}"
    )
    faults.add_argument("--timeout-hang", type=float, default=20.0, metavar="SECONDS")
    faults.add_argument("--rate-limit", type=int, default=5000, help="primary limit per window")
    faults.add_argument("--rate-window", type=float, default=3600.0, metavar="SECONDS")
    faults.add_argument(
        "--secondary-limit",
        type=int,
        default=None,
        help="requests per --secondary-window before a secondary 403",
    )
    faults.add_argument("--secondary-window", type=float, default=60.0, metavar="SECONDS")
    faults.add_argument("--secondary-retry-after", type=int, default=None, metavar="SECONDS")
    faults.add_argument(
        "--content-per-minute", type=int, default=80, help="writes per user a minute (GitHub: 80)"
    )
    faults.add_argument(
        "--content-per-hour", type=int, default=500, help="writes per user an hour (GitHub: 500)"
    )
    faults.add_argument(
        "--no-secondary-limits",
        action="store_true",
        help="switch GitHub's documented secondary limits off (benchmarks of other things)",
    )
    faults.add_argument(
        "--rate-time-scale",
        type=float,
        default=1.0,
        help="secondary limits' minute/hour last 60/scale and 3600/scale seconds",
    )
    faults.add_argument(
        "--race-window-ms",
        type=float,
        default=0.0,
        help="time between a write reading the branch head and moving it",
    )
    faults.add_argument(
        "--race-rate", type=float, default=0.0, help="chance a write loses the branch race"
    )
    faults.add_argument(
        "--race-path",
        action="append",
        default=[],
        metavar="PATH",
        help="repeatable: --race-rate applies to these paths or folders/ only",
    )
    faults.add_argument("--stale-contents-seconds", type=float, default=0.0)
    faults.add_argument("--clock-offset", type=float, default=0.0, metavar="SECONDS")
    faults.add_argument("--tree-entry-limit", type=int, default=100_000)
    faults.add_argument("--rng-seed", type=int, default=None)


def faults_from(args: argparse.Namespace) -> Faults:
    kinds = tuple(k.strip() for k in args.failure_kinds.split(",") if k.strip())
    return Faults(
        latency_ms=args.latency_ms,
        failure_rate=args.failure_rate,
        failure_kinds=kinds,
        timeout_hang_seconds=args.timeout_hang,
        primary_limit=args.rate_limit,
        primary_window_seconds=args.rate_window,
        secondary_limit=args.secondary_limit,
        secondary_window_seconds=args.secondary_window,
        secondary_retry_after=args.secondary_retry_after,
        content_per_minute=None if args.no_secondary_limits else args.content_per_minute,
        content_per_hour=None if args.no_secondary_limits else args.content_per_hour,
        secondary_points_per_minute=None if args.no_secondary_limits else 900,
        secondary_concurrent=None if args.no_secondary_limits else 100,
        rate_time_scale=args.rate_time_scale,
        race_window_ms=args.race_window_ms,
        race_rate=args.race_rate,
        race_paths=tuple(args.race_path),
        stale_contents_seconds=args.stale_contents_seconds,
        clock_offset_seconds=args.clock_offset,
        tree_entry_limit=args.tree_entry_limit,
        rng_seed=args.rng_seed,
    )


def sandbox_from(args: argparse.Namespace) -> Sandbox:
    owner, sep, name = args.repo.partition("/")
    if not sep or not owner or not name or "/" in name:
        raise ValueError(f"--repo expects OWNER/NAME, got {args.repo!r}")
    users = [parse_user_spec(spec) for spec in args.user] or [PRACTICE_USER]
    repo_dir = args.repo_dir
    if repo_dir is None:
        import tempfile

        repo_dir = Path(tempfile.mkdtemp(prefix="modu-sandbox-")) / "repo"
    seed = args.seed if args.seed in ("sample", "empty") else Path(args.seed)
    return Sandbox(
        repo_dir,
        owner=owner,
        name=name,
        branch=args.branch,
        users=users,
        seed=seed,
        host=args.host,
        port=args.port,
        org=args.org,
        faults=faults_from(args),
        deploy_queue_seconds=args.deploy_queue_seconds,
        deploy_run_seconds=args.deploy_run_seconds,
    )


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        sandbox = sandbox_from(args)
        sandbox.start()
    except (ValueError, OSError) as exc:
        print(f"modu-desktop sandbox: {exc}", file=sys.stderr)
        return 2
    print(f"Sandbox API: {sandbox.api_url}", flush=True)
    print(f"Repository: {args.repo} (branch {args.branch}) in {sandbox.repo_dir}", flush=True)
    for user in sandbox.users:
        access = "push" if user.push else "read-only"
        print(f"User: {user.login} token {user.token} ({access})", flush=True)
    stop = threading.Event()

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        while not stop.wait(0.5):
            pass
    finally:
        sandbox.stop()
    return 0
