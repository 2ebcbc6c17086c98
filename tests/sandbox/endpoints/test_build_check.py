"""The sandbox deploy runs the publish check: a document that would break the real build fails
the run, with jobs and a log served like GitHub's; restoring the version before fixes it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.documents.history import DocHistory, restore_previous, version_before
from modu_desktop.core.documents.store import DocumentStore, SaveResult
from modu_desktop.core.github.blobcache import BlobCache
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.publish import check as publish_check
from modu_desktop.core.publish.check import tree_paths
from modu_desktop.core.publish.failure import broken_files, deploy_failure, failing_lines
from modu_desktop.core.text import Text
from modu_desktop.sandbox.endpoints.build_check import build_check
from tests.helpers.sandbox import REPO_PATH, b64, client_for

REPO = RepoRef("pnuai", "PNU-Modu", "main")
PATH = "docs/03-strategy.md"


async def _no_sleep(_: float) -> None:
    return None


async def _completed_run(gh: GitHubClient, commit: str) -> Any:
    for _ in range(200):
        runs = await gh.workflow_runs(commit)
        if runs and runs[0].status == "completed":
            return runs[0]
        await asyncio.sleep(0.02)
    raise AssertionError("the run did not complete")


async def _nothing_is_locked(_: Any = None) -> Text | None:
    return None


def test_a_breaking_save_fails_the_deploy_with_a_log_and_restoring_fixes_it(
    sandbox: Any, tmp_path: Path
) -> None:
    sandbox.workflow.queue_seconds, sandbox.workflow.run_seconds = 0.0, 0.0  # done once built

    async def go() -> None:
        async with GitHubClient(sandbox.api_url, "tok-editor1", REPO, sleep=_no_sleep) as gh:
            store = DocumentStore(gh, BlobCache(tmp_path / "blobs"))
            await store.refresh()
            paths = await tree_paths(gh)
            assert {"static/img/modu-logo.png", PATH} <= paths
            doc = await store.load("03-strategy")
            broken = doc.text + "\n\n줄바꿈<br>다음 줄\n"
            res = await store.save(doc, broken, doc.sha, "editor1")
            assert isinstance(res, SaveResult) and res.commit_sha
            line = broken.split("\n").index("줄바꿈<br>다음 줄") + 1

            run = await _completed_run(gh, res.commit_sha)
            assert run.conclusion == "failure"
            (job,) = await gh.run_jobs(run.id)
            assert job["conclusion"] == "failure"
            steps = {s["name"]: s["conclusion"] for s in job["steps"]}
            assert steps["Build website"] == "failure"
            assert steps["Deploy to GitHub Pages"] == "skipped"
            log = await gh.job_logs(int(job["id"]))
            # as ``docusaurus build`` prints it on a GitHub runner (the fixture's real log)
            runner_path = f"/home/runner/work/PNU-Modu/PNU-Modu/{PATH}"
            assert f'× Error: MDX compilation failed for file "{runner_path}"' in log
            assert "[ERROR] Client bundle compiled with errors" in log

            failure = await deploy_failure(gh, run)
            assert failure.step_name == "Build website"
            sentence = "“<br>” must be written “<br />” or the site cannot be built."
            assert f"        │ Cause: {sentence}" in failure.lines
            assert failure.lines[-1] == "Process completed with exit code 1."
            (named,) = failure.files
            assert named.repo_path([PATH, "docs/01-welcome.md"]) == PATH
            assert (named.line, named.column, named.cause) == (line, 4, sentence)

            # "이전 버전으로 되돌리기": the version before my save, as one normal save.
            history = DocHistory(gh, store)
            before = await version_before(history, res.commit_sha, PATH)
            assert before is not None
            version, text = before
            assert text == doc.text
            again = await restore_previous(
                store, history, PATH, res.commit_sha, res.sha, "editor1", lock_ok=_nothing_is_locked
            )
            assert isinstance(again, SaveResult) and again.commit_sha
            assert sandbox.read_file(PATH).decode("utf-8") == doc.text
            head = sandbox.commits()[0]["message"]
            assert head == f"docs(edit): restore 03-strategy.md to {version.short_sha} by @editor1"
            fixed = await _completed_run(gh, again.commit_sha)
            assert fixed.conclusion == "success"
            (ok_job,) = await gh.run_jobs(fixed.id)
            assert "[SUCCESS]" in await gh.job_logs(int(ok_job["id"]))

    asyncio.run(go())


def test_the_seeded_site_builds_and_checks_are_cached_by_blob(
    sandbox: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    head = sandbox.commits()[0]["sha"]
    store = sandbox._store
    report = build_check(store, head)
    assert report.ok and report.documents == 6
    checked: list[str] = []
    real = publish_check.check_text

    def counting(text: str, **kw: Any) -> Any:
        checked.append(kw["path"])
        return real(text, **kw)

    monkeypatch.setattr(publish_check, "check_text", counting)
    assert build_check(store, head) == report
    assert checked == []  # every document came from the cache, by its blob sha
    with client_for(sandbox) as editor:
        welcome = f"{REPO_PATH}/contents/docs/01-welcome.md"
        sha = editor.get(welcome).json()["sha"]
        put = editor.put(welcome, json={"message": "edit", "content": b64("# 새 글\n"), "sha": sha})
        assert put.status_code == 200, put.text
    assert build_check(store, sandbox.commits()[0]["sha"]).documents == 6
    # only the changed document is checked again (by this call or by the push's own deploy)
    assert set(checked) == {"docs/01-welcome.md"}


def test_failing_lines_from_a_github_style_log() -> None:
    log = (
        "2026-12-01T07:00:00.0000000Z ##[group]Run npm ci\n"
        "2026-12-01T07:00:00.0000000Z added 1200 packages\n"
        "2026-12-01T07:00:00.0000000Z ##[endgroup]\n"
        "2026-12-01T07:00:01.0000000Z ##[group]Run npm run build\n"
        "2026-12-01T07:00:01.0000000Z npm run build\n"
        "2026-12-01T07:00:01.0000000Z ##[endgroup]\n"
        '2026-12-01T07:00:02.0000000Z Error: MDX compilation failed for file "docs/a.md"\n'
        "2026-12-01T07:00:02.0000000Z ##[error]Process completed with exit code 1.\n"
    )
    assert failing_lines(log) == [
        'Error: MDX compilation failed for file "docs/a.md"',
        "Process completed with exit code 1.",
    ]


REAL_LOG = Path(__file__).resolve().parents[2] / "fixtures" / "deploy-logs"


def _as_github_serves(text: str) -> str:
    return "".join(f"2026-12-01T07:00:02.1234567Z {line}\n" for line in text.splitlines())


def test_the_pages_a_real_build_names_are_read_from_its_log() -> None:
    """``docusaurus build`` of the real site with two broken pages (the fixture), as GitHub
    serves a job log: every page it names, with the line and the cause, in the log's order."""
    raw = (REAL_LOG / "docusaurus-build-two-broken-pages.txt").read_text("utf-8")
    for log in (raw, _as_github_serves(raw), _as_github_serves(_coloured(raw))):
        files = broken_files(log)
        assert [f.repo_path(["docs/03-part-3.md", "docs/06-part-6.md"]) for f in files] == [
            "docs/03-part-3.md",
            "docs/06-part-6.md",
        ]
        assert [(f.line, f.column) for f in files] == [(42, 1), (32, 2)]
        assert files[0].cause.startswith("Expected a closing tag for `<br>`")
        assert "to create a comment in MDX" in files[1].cause


def _coloured(text: str) -> str:
    """The same log as a terminal with colours shows it (FORCE_COLOR)."""
    return text.replace("[ERROR]", "\x1b[31m\x1b[1m[ERROR]\x1b[22m").replace(
        'file "', 'file \x1b[36m\x1b[4m"'
    )


def test_the_sandbox_names_broken_pages_the_way_the_real_build_does(sandbox: Any) -> None:
    """The sandbox's build log for two broken pages reads like the real one: the same frame,
    one block per page (its first problem, as the MDX compiler stops there), dashes between."""
    from modu_desktop.sandbox.endpoints.build_check import BuildProblem, mdx_error_block

    real = (REAL_LOG / "docusaurus-build-two-broken-pages.txt").read_text("utf-8").splitlines()
    ours = mdx_error_block(
        "/home/runner/work/PNU-Modu/PNU-Modu/docs/a.md",
        BuildProblem("docs/a.md", 3, 5, "mdx-void-tag", "a sentence"),
    )
    frame = [ln.split("Error:")[0] for ln in real if "MDX compilation failed" in ln]
    assert ours[0].split("Error:")[0] == frame[0]
    assert ours[1] == "        │ Cause: a sentence"
    assert all(line.startswith("        │") for line in ours[1:])
    assert "--------------------------" in real  # what separates two pages, in both
    (named,) = broken_files("\n".join(ours))
    assert (named.line, named.column, named.cause) == (3, 5, "a sentence")
