"""The fake deploy's build step: the publish check on every document of the pushed commit.

The real deploy (``npm run build``) fails when any one ``docs/*.md`` breaks the MDX build; so
does this one, with a job log in the shape GitHub serves, so staff can practise a failed deploy
and tests can see it. Endpoints, as GitHub has them:

- ``GET /repos/{o}/{r}/actions/runs/{run_id}/jobs`` — one job ``build`` with its steps; when
  the check fails, the step "Build website" is ``failure`` and the later steps are skipped;
- ``GET /repos/{o}/{r}/actions/jobs/{job_id}/logs`` — 302 to the job's plain-text log (GitHub
  redirects to a pre-signed file; the sandbox to ``/_sandbox/logs/{job_id}``), with
  ``##[group]Run …`` per step and, for a failure, what ``docusaurus build`` prints for a page
  that does not compile (``tests/fixtures/deploy-logs/`` has a real build's output): one
  "MDX compilation failed for file" block per broken page, with the runner's absolute path,
  the first problem of that page as its cause and its line and column in the details, blocks
  separated by a line of dashes. Like the real MDX compiler, a page stops at its first problem.

Check results are kept by blob sha, so a push re-checks only the documents it changed.
"""

from __future__ import annotations

import json
import posixpath
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from modu_desktop.sandbox.rest import payloads as P
from modu_desktop.sandbox.rest.messages import ApiRequest, ApiResponse, not_found

if TYPE_CHECKING:
    from modu_desktop.sandbox.api import GitHubApi
    from modu_desktop.sandbox.practice.deploy_workflow import DeployRun
    from modu_desktop.sandbox.repo.gitstore import GitStore

STEPS = (
    "Set up job",
    "Checkout",
    "Setup Node.js",
    "Install dependencies",
    "Build website",
    "Upload artifact",
    "Deploy to GitHub Pages",
    "Complete job",
)
BUILD_STEP = 5  # 1-based number of "Build website"
JOB_ID_OFFSET = 3_000_000_000
BUILD_ERROR = "[ERROR] Client bundle compiled with errors therefore further build is impossible."


@dataclass(frozen=True)
class BuildProblem:
    path: str
    line: int
    column: int
    code: str
    message: str  # English, as a build log is


@dataclass(frozen=True)
class BuildReport:
    documents: int
    problems: tuple[BuildProblem, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return not self.problems


_cache: dict[tuple[str, str, int], tuple[BuildProblem, ...]] = {}
_cache_lock = threading.Lock()


@dataclass(frozen=True)
class _Snapshot:
    docs: tuple[tuple[str, str], ...]  # (path, blob sha) of every document
    paths: frozenset[str]
    static_key: int
    data: dict[str, bytes]  # the blobs not checked before


def _read(store: GitStore, commit_sha: str) -> _Snapshot | None:
    """What the check needs from the repository (under its lock; only new blobs are read)."""
    with store.lock:
        info = store.commit(commit_sha)
        if info is None:
            return None
        entries = [e for e in store.walk_tree(info.tree, recursive=True) if e.kind == "blob"]
        paths = frozenset(e.path for e in entries)
        static_key = hash(frozenset(p for p in paths if p.startswith("static/")))
        docs = tuple(
            (e.path, e.sha)
            for e in entries
            if e.path.startswith("docs/") and posixpath.splitext(e.path)[1] in (".md", ".mdx")
        )
        with _cache_lock:
            todo = {sha for path, sha in docs if (sha, path, static_key) not in _cache}
        data = {sha: store.blob(sha) or b"" for sha in todo}
    return _Snapshot(docs, paths, static_key, data)


def _check(snap: _Snapshot | None) -> BuildReport:
    from modu_desktop.core.publish.check import check_text
    from modu_desktop.core.publish.check.messages import sentence

    if snap is None:
        return BuildReport(0)
    problems: list[BuildProblem] = []
    for path, sha in snap.docs:
        key = (sha, path, snap.static_key)
        with _cache_lock:
            found = _cache.get(key)
        if found is None:
            text = snap.data.get(sha, b"").decode("utf-8", "replace")
            result = check_text(text, path=path, repo_paths=snap.paths)
            found = tuple(
                BuildProblem(path, f.line, f.column, f.code, sentence(f, lang="en"))
                for f in result.build_breakers
            )
            with _cache_lock:
                if len(_cache) > 20_000:
                    _cache.clear()
                _cache[key] = found
        problems.extend(found)
    return BuildReport(len(snap.docs), tuple(problems))


def build_check(store: GitStore, commit_sha: str) -> BuildReport:
    """Run the publish check on every ``docs/*.md``/``.mdx`` of the commit."""
    return _check(_read(store, commit_sha))


_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def start_build_check(store: GitStore, commit_sha: str) -> Future[BuildReport]:
    """Read what the check needs now (the caller, a write, holds the repository lock) and
    check in the background, so a push does not wait for it; the run waits for it."""
    global _pool
    snap = _read(store, commit_sha)
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sandbox-build")
        return _pool.submit(_safe_check, snap)


def _safe_check(snap: _Snapshot | None) -> BuildReport:
    try:
        return _check(snap)
    except Exception as exc:  # never crash the sandbox: report it as the build's problem
        return BuildReport(0, (BuildProblem("", 0, 0, "sandbox-error", str(exc)),))


# ----- jobs and logs --------------------------------------------------------------------------


def _step_state(run_status: str, failed: bool, number: int) -> tuple[str, str | None]:
    if run_status == "queued":
        return "queued", None
    if run_status != "completed":  # in progress: the build step is running
        if number < BUILD_STEP:
            return "completed", "success"
        return ("in_progress", None) if number == BUILD_STEP else ("queued", None)
    if not failed or number < BUILD_STEP or number == len(STEPS):
        return "completed", "success"
    if number == BUILD_STEP:
        return "completed", "failure"
    return "completed", "skipped"


def _job_state(api: GitHubApi, run: DeployRun) -> tuple[str, str | None, list[dict[str, Any]]]:
    state = api.workflow.state(run)
    failed = state.conclusion == "failure"
    steps = []
    for number, name in enumerate(STEPS, start=1):
        status, conclusion = _step_state(state.status, failed, number)
        steps.append(
            {
                "name": name,
                "status": status,
                "conclusion": conclusion,
                "number": number,
                "started_at": P.iso(state.started_wall) if state.started_wall else None,
                "completed_at": P.iso(state.updated_wall) if status == "completed" else None,
            }
        )
    return state.status, state.conclusion, steps


def job_json(api: GitHubApi, run: DeployRun) -> dict[str, Any]:
    status, conclusion, steps = _job_state(api, run)
    state = api.workflow.state(run)
    job_id = run.id + JOB_ID_OFFSET
    return {
        "id": job_id,
        "run_id": run.id,
        "run_url": f"{api.urls.repo_api}/actions/runs/{run.id}",
        "node_id": P.node_id("WorkflowJob", str(job_id)),
        "head_sha": run.head_sha,
        "head_branch": run.head_branch,
        "url": f"{api.urls.repo_api}/actions/jobs/{job_id}",
        "html_url": f"{api.urls.web}/actions/runs/{run.id}/job/{job_id}",
        "status": status,
        "conclusion": conclusion,
        "created_at": P.iso(run.created_wall),
        "started_at": P.iso(state.started_wall or run.created_wall),
        "completed_at": P.iso(state.updated_wall) if status == "completed" else None,
        "name": "build",
        "workflow_name": "Deploy",
        "steps": steps,
        "check_run_url": f"{api.urls.repo_api}/check-runs/{job_id}",
        "labels": ["ubuntu-latest"],
        "runner_id": 1,
        "runner_name": "sandbox",
        "runner_group_id": 1,
        "runner_group_name": "GitHub Actions",
        "run_attempt": 1,
    }


def log_text(api: GitHubApi, run: DeployRun) -> str:
    state = api.workflow.state(run)
    stamp = P.iso(state.started_wall or run.created_wall).replace("Z", ".0000000Z")
    check = getattr(run, "check", None)
    report: BuildReport | None = check.result() if check is not None and check.done() else None
    out: list[str] = []

    def say(line: str) -> None:
        out.append(f"{stamp} {line}")

    commands = {
        "Checkout": "actions/checkout@v4",
        "Setup Node.js": "actions/setup-node@v4",
        "Install dependencies": "npm ci",
        "Build website": "npm run build",
        "Upload artifact": "actions/upload-pages-artifact@v3",
        "Deploy to GitHub Pages": "actions/deploy-pages@v4",
    }
    _status, _conclusion, steps = _job_state(api, run)
    for step in steps:
        if step["status"] != "completed" or step["conclusion"] == "skipped":
            continue
        name = step["name"]
        cmd = commands.get(name)
        if cmd is None:
            say(name)
            continue
        say(f"##[group]Run {cmd}")
        say(cmd)
        say("##[endgroup]")
        if name == "Build website":
            say("> pnu-modu@0.0.0 build")
            say("> npm run generate:chapters && docusaurus build")
            say("[INFO] [ko] Creating an optimized production build...")
            if step["conclusion"] == "failure":
                problems = report.problems if report is not None else ()
                say(BUILD_ERROR)
                firsts = {p.path: p for p in reversed(problems)}  # each page's first problem
                for n, path in enumerate(dict.fromkeys(p.path for p in problems)):
                    if n:
                        say("")
                        say("--------------------------")
                        say("")
                    for line in mdx_error_block(f"{workspace(api)}/{path}", firsts[path]):
                        say(line)
                if not problems:
                    say("Error: the build failed (practice failure set by the sandbox)")
                say("##[error]Process completed with exit code 1.")
            else:
                checked = report.documents if report is not None else 0
                say(f'[SUCCESS] Generated static files in "build" ({checked} documents).')
    return "\n".join(out) + "\n"


def workspace(api: GitHubApi) -> str:
    """Where a GitHub-hosted runner checks the repository out (``$GITHUB_WORKSPACE``)."""
    return f"/home/runner/work/{api.name}/{api.name}"


def mdx_error_block(file: str, problem: BuildProblem) -> list[str]:
    """The lines ``docusaurus build`` prints for a page that does not compile as MDX (the
    frame, the cause and the details the MDX compiler gives)."""
    details = {
        "column": problem.column,
        "file": "",
        "message": problem.message,
        "line": problem.line,
        "name": f"{problem.line}:{problem.column}",
        "reason": problem.message,
        "ruleId": problem.code,
        "source": "modu-publish-check",
    }
    body = json.dumps(details, indent=2, ensure_ascii=False).splitlines()
    return [
        f'╰─▶   × Error: MDX compilation failed for file "{file}"',
        f"        │ Cause: {problem.message}",
        "        │ Details:",
        *(f"        │ {line}" for line in body),
        "        │",
    ]


def _run_by_id(api: GitHubApi, run_id: str) -> DeployRun | None:
    return next((r for r in api.workflow.runs() if str(r.id) == run_id), None)


def list_jobs(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    run = _run_by_id(api, req.params["run_id"])
    if run is None:
        raise not_found()
    return ApiResponse(200, {"total_count": 1, "jobs": [job_json(api, run)]})


def job_logs(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    """GitHub answers 302 with the log file's address (elsewhere, pre-signed); so do we, to
    ``/_sandbox/logs/{job_id}`` (served by :func:`log_file`)."""
    run = _run_for_job(api, req.params["job_id"])
    if run is None or api.workflow.state(run).status != "completed":
        raise not_found()
    location = f"{api.urls.api}/_sandbox/logs/{run.id + JOB_ID_OFFSET}"
    return ApiResponse(302, None, {"Location": location})


def _run_for_job(api: GitHubApi, job_id: str) -> DeployRun | None:
    try:
        run_id = int(job_id) - JOB_ID_OFFSET
    except ValueError:
        return None
    return _run_by_id(api, str(run_id))


def log_file(api: GitHubApi, job_id: str) -> ApiResponse:
    """The log file a job's logs URL redirects to (plain text), or 404."""
    run = _run_for_job(api, job_id)
    if run is None or api.workflow.state(run).status != "completed":
        return ApiResponse(404, P.error_body(404, "Not Found"))
    body = log_text(api, run).encode("utf-8")
    return ApiResponse(200, body, content_type="text/plain; charset=utf-8")
