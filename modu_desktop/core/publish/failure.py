"""What went wrong in a failed deploy run, for the notice on the document (Qt-free).

    failure = await deploy_failure(client, run)     # run: a completed WorkflowRun, "failure"
    failure.step_name, failure.lines                 # "Build website", the failing step's lines
    failure.files                                    # the pages the build names, with line

Reads the run's jobs (``GET …/actions/runs/{id}/jobs``) and the failing job's log (``GET
…/actions/jobs/{id}/logs``). A token that may not read logs (403/404) still gets the step name,
with ``logs_unavailable`` saying why.

**Which page broke the build.** Docusaurus names it. A page that does not compile as MDX:

    [ERROR] Client bundle compiled with errors therefore further build is impossible.
    ╰─▶   × Error: MDX compilation failed for file "/home/runner/work/R/R/docs/03-part-3.md"
            │ Cause: Expected a closing tag for `<br>` (42:4-42:8) before the end of `paragraph`
            │ Details:
            │ {
            │   "column": 1,
            │   …
            │   "line": 42,

one such block per broken file, separated by a line of dashes (a real build's output is in
``tests/fixtures/deploy-logs/``); a page that compiles but cannot be rendered: ``Error: Can't
render static file for pathname "/R/docs/part-5"``. :func:`broken_files` reads both, with or
without colours and GitHub's timestamps.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from modu_desktop.core.github import errors
from modu_desktop.core.text import Text, _err_text

_STAMP = re.compile(r"^\d{4}-\d\d-\d\dT[\d:.]+Z ")
_COLOUR = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_MDX_FILE = re.compile(r'MDX compilation failed for file "([^"]+)"')
_STATIC_PAGE = re.compile(r'Can\'t render static file for pathname "([^"]+)"')
_BOX = re.compile(r"^[\s│╰─▶×]*")  # the frame Docusaurus draws around an error
_CAUSE = re.compile(r"^Cause:\s*(.*)$")
_DETAIL = re.compile(r'^"(line|column)":\s*(\d+)')
_CAUSE_PLACE = re.compile(r"\((\d+):(\d+)(?:-\d+:\d+)?\)")
MAX_LINES = 60


@dataclass(frozen=True, slots=True)
class BrokenFile:
    """A page the build names as the reason it failed. ``path`` is the file as the log names
    it (absolute on the build machine); ``route`` the page address when only that is named."""

    path: str | None
    line: int | None = None
    column: int | None = None
    cause: str = ""
    route: str | None = None

    def repo_path(self, known: Iterable[str]) -> str | None:
        """The repository path this names: the longest of ``known`` that the logged path ends
        with (the build runs in a checkout somewhere on the runner)."""
        if self.path is None:
            return None
        logged = self.path.replace("\\", "/")
        hits = [p for p in known if logged == p or logged.endswith("/" + p)]
        return max(hits, key=len) if hits else None


@dataclass(frozen=True, slots=True)
class DeployFailure:
    run_id: int
    run_url: str | None
    step_name: str | None
    lines: tuple[str, ...]
    logs_unavailable: Text | None = None  # why the log could not be read
    files: tuple[BrokenFile, ...] = ()


def _plain(log: str) -> list[str]:
    return [_STAMP.sub("", _COLOUR.sub("", line)) for line in log.splitlines()]


def broken_files(log: str) -> list[BrokenFile]:
    """The pages the build log names, in its order, each once (see the module's docstring)."""
    found: list[BrokenFile] = []
    block: _Block | None = None
    for raw in _plain(log):
        if m := _MDX_FILE.search(raw):
            if block is not None:
                found.append(block.done())
            block = _Block(m.group(1))
            continue
        if m := _STATIC_PAGE.search(raw):
            found.append(BrokenFile(None, route=m.group(1)))
            continue
        if block is None:
            continue
        text = _BOX.sub("", raw).strip()
        if text.startswith("-----") or raw.startswith("##[error]"):
            found.append(block.done())
            block = None
        else:
            block.read(text)
    if block is not None:
        found.append(block.done())
    unique: dict[tuple[str | None, str | None], BrokenFile] = {}
    for f in found:
        unique.setdefault((f.path, f.route), f)
    return list(unique.values())


class _Block:
    """One "MDX compilation failed" block of the log, read line by line."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.cause = ""
        self.place: dict[str, int] = {}

    def read(self, text: str) -> None:
        if (m := _CAUSE.match(text)) and not self.cause:
            self.cause = m.group(1)
        elif m := _DETAIL.match(text):
            self.place.setdefault(m.group(1), int(m.group(2)))  # the first: the error's own

    def done(self) -> BrokenFile:
        line, column = self.place.get("line"), self.place.get("column")
        if line is None and (m := _CAUSE_PLACE.search(self.cause)):
            line, column = int(m.group(1)), int(m.group(2))
        return BrokenFile(self.path, line, column, self.cause)


def failing_lines(log: str, limit: int = MAX_LINES) -> list[str]:
    """The lines of the step that failed, from its first error message (the build's
    ``[ERROR]`` or ``Error:``; else the step's start) up to the ``##[error]`` that ended it —
    at most ``limit``, the last one always kept — timestamps, colours and group markers
    removed."""
    raw = _plain(log)
    first_error = next((i for i, ln in enumerate(raw) if ln.startswith("##[error]")), None)
    if first_error is None:
        picked = [ln for ln in raw if re.search(r"\berror\b", ln, re.I)]
        return picked[-limit:]
    start = 0
    for i in range(first_error, -1, -1):
        if raw[i].startswith("##[group]"):
            start = i
            break
    said = next(
        (i for i in range(start, first_error) if "[ERROR]" in raw[i] or "Error:" in raw[i]),
        start,
    )
    out = []
    for ln in raw[said : first_error + 1]:
        if ln.startswith("##[group]") or ln.startswith("##[endgroup]"):
            continue
        out.append(ln.replace("##[error]", "", 1) if ln.startswith("##[error]") else ln)
    return out if len(out) <= limit else [*out[: limit - 1], out[-1]]


async def deploy_failure(client: Any, run: Any) -> DeployFailure:
    run_id = int(run.id)
    url = getattr(run, "html_url", None)
    try:
        jobs = await client.run_jobs(run_id)
    except (errors.PermissionDenied, errors.NotFound) as exc:
        return DeployFailure(run_id, url, None, (), _err_text(exc))
    job = next((j for j in jobs if j.get("conclusion") == "failure"), jobs[0] if jobs else None)
    if job is None:
        return DeployFailure(run_id, url, None, (), Text("the build has no steps to read"))
    step = next((s for s in job.get("steps") or [] if s.get("conclusion") == "failure"), None)
    step_name = step.get("name") if step else None
    try:
        log = await client.job_logs(int(job["id"]))
    except (errors.PermissionDenied, errors.NotFound) as exc:
        return DeployFailure(run_id, url, step_name, (), _err_text(exc))
    return DeployFailure(
        run_id,
        url,
        step_name,
        tuple(failing_lines(log)),
        files=tuple(broken_files(log)),
    )
