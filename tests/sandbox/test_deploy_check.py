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
from modu_desktop.core.publish.failure import deploy_failure, failing_lines
from modu_desktop.sandbox.deploycheck import build_check
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


async def _nothing_is_locked(_: Any = None) -> str | None:
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
            assert f'MDX compilation failed for file "{PATH}"' in log

            failure = await deploy_failure(gh, run)
            assert failure.step_name == "Build website"
            sentence = "“<br>” must be written “<br />” or the site cannot be built."
            assert f"{PATH}:{line}:4 {sentence} [mdx-void-tag]" in failure.lines
            assert failure.lines[-1] == "Process completed with exit code 1."

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
        "npm run build",
        'Error: MDX compilation failed for file "docs/a.md"',
        "Process completed with exit code 1.",
    ]
