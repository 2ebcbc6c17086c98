"""A fake "Deploy" workflow: one run per qualifying push, queued → in_progress → completed.

Mirrors the real repository's `.github/workflows/deploy.yml`: runs on pushes to the default
branch, skipped (no run object at all) for `[skip ci]`-style messages and for pushes whose changed
paths all match `paths-ignore` (`.locks/**`).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from modu_desktop.sandbox.repo.gitstore import CommitInfo

WORKFLOW_PATH = ".github/workflows/deploy.yml"
SKIP_MARKERS = ("[skip ci]", "[ci skip]", "[no ci]", "[skip actions]", "[actions skip]")
_SKIP_TRAILER = re.compile(r"\n\n\s*skip-checks:\s?true\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class DeployRun:
    id: int
    run_number: int
    head_sha: str
    head_branch: str
    commit: CommitInfo
    created_wall: float
    created_mono: float
    actor: str | None
    check: Any = None  # a Future[deploycheck.BuildReport]: the build step (the publish check)


@dataclass(frozen=True)
class RunState:
    status: str
    conclusion: str | None
    started_wall: float | None
    updated_wall: float


def is_skipped_message(message: str) -> bool:
    lowered = message.lower()
    return any(marker in lowered for marker in SKIP_MARKERS) or bool(
        _SKIP_TRAILER.search(message.rstrip("\n"))
    )


def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """GitHub filter globs: `**` crosses directories, `*` does not, `?` is one character."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("^" + "".join(out) + "$")


def paths_ignore_from_workflow(text: str) -> tuple[str, ...]:
    """Read the `paths-ignore:` list of a workflow file (enough YAML for our own file)."""
    patterns: list[str] = []
    inside = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("paths-ignore:"):
            inside = True
            inline = stripped[len("paths-ignore:") :].strip()
            if inline.startswith("["):
                return tuple(p.strip().strip("'\"") for p in inline.strip("[]").split(",") if p)
            continue
        if inside and stripped.startswith("- "):
            patterns.append(stripped[2:].strip().strip("'\""))
        elif inside and stripped and not stripped.startswith("#"):
            inside = False
    return tuple(patterns)


def should_run(message: str, changed: list[str], paths_ignore: tuple[str, ...]) -> bool:
    if is_skipped_message(message) or not changed:
        return False
    regexes = [glob_to_regex(p) for p in paths_ignore]
    # paths-ignore skips only when *every* changed path matches.
    return not all(any(r.match(path) for r in regexes) for path in changed)


class DeployWorkflow:
    """Keeps the runs in memory (they are gone after a restart, like an expired log)."""

    def __init__(
        self,
        queue_seconds: float = 2.0,
        run_seconds: float = 5.0,
        *,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._now = monotonic  # the sandbox clock's steady time: a run's stages follow it
        self.queue_seconds = queue_seconds
        self.run_seconds = run_seconds
        self.fail_next = False  # practice: make the next run conclude with "failure"
        self._lock = threading.Lock()
        self._runs: list[DeployRun] = []
        self._failed: set[int] = set()
        self._next_id = 1_000_000_001

    def record_push(
        self,
        commit: CommitInfo,
        branch: str,
        actor: str | None,
        wall_now: float,
        check: Any = None,
    ) -> DeployRun:
        with self._lock:
            run = DeployRun(
                id=self._next_id,
                run_number=len(self._runs) + 1,
                head_sha=commit.sha,
                head_branch=branch,
                commit=commit,
                created_wall=wall_now,
                created_mono=self._now(),
                actor=actor,
                check=check,
            )
            self._next_id += 1
            self._runs.append(run)
            if self.fail_next:
                self._failed.add(run.id)
                self.fail_next = False
            return run

    def runs(self) -> list[DeployRun]:
        with self._lock:
            return list(reversed(self._runs))

    def state(self, run: DeployRun) -> RunState:
        elapsed = self._now() - run.created_mono
        start_wall = run.created_wall + self.queue_seconds
        if elapsed < self.queue_seconds:
            return RunState("queued", None, None, run.created_wall)
        if elapsed < self.queue_seconds + self.run_seconds:
            return RunState("in_progress", None, start_wall, start_wall)
        report = None
        if run.check is not None:
            try:  # the build step (a publish check, needs no lock) is usually done by now
                report = run.check.result(timeout=30)
            except TimeoutError:
                return RunState("in_progress", None, start_wall, start_wall)
        broken = report is not None and not report.ok
        conclusion = "failure" if run.id in self._failed or broken else "success"
        done = run.created_wall + self.queue_seconds + self.run_seconds
        return RunState("completed", conclusion, start_wall, done)
