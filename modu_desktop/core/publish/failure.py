"""What went wrong in a failed deploy run, for the notice on the document (Qt-free).

    failure = await deploy_failure(client, run)     # run: a completed WorkflowRun, "failure"
    failure.step_name, failure.lines                 # "Build website", the failing step's lines

Reads the run's jobs (``GET …/actions/runs/{id}/jobs``) and the failing job's log (``GET
…/actions/jobs/{id}/logs``). A token that may not read logs (403/404) still gets the step name,
with ``logs_unavailable`` saying why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from modu_desktop.core.github import errors

_STAMP = re.compile(r"^\d{4}-\d\d-\d\dT[\d:.]+Z ")
MAX_LINES = 40


@dataclass(frozen=True, slots=True)
class DeployFailure:
    run_id: int
    run_url: str | None
    job_name: str | None
    step_name: str | None
    lines: tuple[str, ...]
    logs_unavailable: str | None = None


def failing_lines(log: str, limit: int = MAX_LINES) -> list[str]:
    """The lines of the step that failed: from the last ``##[group]`` before the first
    ``##[error]`` up to it, timestamps and group markers removed."""
    raw = [_STAMP.sub("", line) for line in log.splitlines()]
    first_error = next((i for i, ln in enumerate(raw) if ln.startswith("##[error]")), None)
    if first_error is None:
        picked = [ln for ln in raw if re.search(r"\berror\b", ln, re.I)]
        return picked[-limit:]
    start = 0
    for i in range(first_error, -1, -1):
        if raw[i].startswith("##[group]"):
            start = i
            break
    out = []
    for ln in raw[start : first_error + 1]:
        if ln.startswith("##[group]") or ln.startswith("##[endgroup]"):
            continue
        out.append(ln.replace("##[error]", "", 1) if ln.startswith("##[error]") else ln)
    return out[-limit:]


async def deploy_failure(client: Any, run: Any) -> DeployFailure:
    run_id = int(run.id)
    url = getattr(run, "html_url", None)
    try:
        jobs = await client.run_jobs(run_id)
    except (errors.PermissionDenied, errors.NotFound) as exc:
        return DeployFailure(run_id, url, None, None, (), str(exc))
    job = next((j for j in jobs if j.get("conclusion") == "failure"), jobs[0] if jobs else None)
    if job is None:
        return DeployFailure(run_id, url, None, None, (), "the run has no jobs")
    step = next((s for s in job.get("steps") or [] if s.get("conclusion") == "failure"), None)
    step_name = step.get("name") if step else None
    try:
        log = await client.job_logs(int(job["id"]))
    except (errors.PermissionDenied, errors.NotFound) as exc:
        return DeployFailure(run_id, url, job.get("name"), step_name, (), str(exc))
    return DeployFailure(run_id, url, job.get("name"), step_name, tuple(failing_lines(log)))
