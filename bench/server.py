"""The sandbox under test: in a child process (default, like a remote server: it does not share
the client's GIL or CPU scheduling slot) or in a thread of this process (``--sandbox-mode
thread``, like the app's practice mode). Statistics come from the sandbox's own counters."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

OWNER, NAME, BRANCH = "pnuai", "PNU-Modu", "main"


@dataclass(frozen=True)
class BenchUser:
    login: str
    token: str


OURS = BenchUser("desk", "tok-desk")  # our client
WEB = BenchUser("webadmin", "tok-webadmin")  # the reference web-admin client
OTHER = BenchUser("other", "tok-other")  # holds locks in the contended scenario
USERS = (OURS, WEB, OTHER)
NO_LIMIT = 1_000_000_000  # the benchmark must never hit the sandbox's rate limits (any of them)


class SandboxProcess:
    """``modu-desktop sandbox ARGS`` in a child process (its own core, like a remote server):
    ``start(args, log_path)`` returns its API URL, ``stop()`` ends it. Its stderr (broken pipes
    when a client drops a keep-alive connection) goes to ``log_path``."""

    def __init__(self, *, own_session: bool) -> None:
        # own_session=False keeps it in the caller's process group, so stopping a run (by its
        # group) stops its sandbox too.
        self.own_session = own_session
        self._proc: subprocess.Popen[str] | None = None
        self._log: Any = None

    def start(self, args: list[str], log_path: Path) -> str:
        cmd = [sys.executable, "-m", "modu_desktop", "sandbox", *args]
        self._log = open(log_path, "w")  # noqa: SIM115 - closed in stop()
        self._proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            start_new_session=self.own_session,
        )
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line.startswith("Sandbox API: "):
            self.stop()
            raise RuntimeError(f"sandbox did not start: {line!r}")
        return line.split(": ", 1)[1].strip()

    def stop(self, wait: float = 10) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(wait)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(wait / 2)
            if self._proc.stdout is not None:
                self._proc.stdout.close()
            self._proc = None
        if self._log is not None:
            self._log.close()
            self._log = None


class SandboxHandle:
    """``start()``, ``api_url``, ``stats()``, ``reset_stats()``, ``stop()``."""

    def __init__(self, seed: Path, latency_ms: int, mode: str = "process") -> None:
        if mode not in ("process", "thread"):
            raise ValueError(f"sandbox mode must be process or thread, not {mode!r}")
        self.seed = seed
        self.latency_ms = latency_ms
        self.mode = mode
        self.api_url = ""
        self._tmp = Path(tempfile.mkdtemp(prefix="modu-bench-repo-"))
        self._process = SandboxProcess(own_session=True)
        self._sb: Any = None

    def start(self) -> SandboxHandle:
        repo_dir = self._tmp / "repo"
        if self.mode == "thread":
            from modu_desktop.sandbox import Faults, Sandbox, SandboxUser

            self._sb = Sandbox(
                repo_dir,
                owner=OWNER,
                name=NAME,
                branch=BRANCH,
                users=[SandboxUser(u.login, u.token, push=True) for u in USERS],
                seed=self.seed,
                faults=Faults(
                    latency_ms=self.latency_ms,
                    primary_limit=NO_LIMIT,
                    secondary_concurrent=None,
                    secondary_points_per_minute=None,
                    content_per_minute=None,
                    content_per_hour=None,
                ),
                deploy_queue_seconds=3600,
                deploy_run_seconds=3600,
            ).start()
            self.api_url = self._sb.api_url
            return self
        args = [
            "--repo",
            f"{OWNER}/{NAME}",
            "--branch",
            BRANCH,
            "--repo-dir",
            str(repo_dir),
            "--seed",
            str(self.seed),
            "--latency-ms",
            str(self.latency_ms),
            "--rate-limit",
            str(NO_LIMIT),
            "--no-secondary-limits",
            "--deploy-queue-seconds",
            "3600",
            "--deploy-run-seconds",
            "3600",
        ]
        for u in USERS:
            args += ["--user", f"{u.login}:{u.token}"]
        self.api_url = self._process.start(args, self._tmp / "sandbox.log")
        return self

    def _meta(self, path: str, method: str = "GET") -> Any:
        req = urllib.request.Request(
            self.api_url + path, method=method, data=b"" if method == "POST" else None
        )
        with urllib.request.urlopen(req, timeout=30) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def stats(self) -> dict[str, Any]:
        if self._sb is not None:
            return dict(self._sb.stats())
        return dict(self._meta("/_sandbox/stats"))

    def reset_stats(self) -> None:
        if self._sb is not None:
            self._sb.reset_stats()
        else:
            self._meta("/_sandbox/stats/reset", "POST")

    def total(self) -> int:
        return int(self.stats()["total"])

    def stop(self) -> None:
        if self._sb is not None:
            self._sb.stop()
            self._sb = None
        self._process.stop()
        import shutil

        with contextlib.suppress(OSError):
            shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> SandboxHandle:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
