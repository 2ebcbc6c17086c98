"""The fake Deploy workflow: queued → in_progress → completed, skipped like the real one."""

from __future__ import annotations

from typing import Any

import httpx

from modu_desktop.sandbox import Sandbox, SandboxUser
from modu_desktop.sandbox.clock import ManualClock
from modu_desktop.sandbox.practice.deploy_workflow import (
    glob_to_regex,
    paths_ignore_from_workflow,
    should_run,
)
from tests.helpers.sandbox import REPO_PATH, SandboxFactory, b64, client_for

RUNS = f"{REPO_PATH}/actions/runs"


def _put(editor: httpx.Client, path: str, message: str) -> str:
    r = editor.put(f"{REPO_PATH}/contents/{path}", json={"message": message, "content": b64("x")})
    assert r.status_code == 201, r.text
    return str(r.json()["commit"]["sha"])


def _runs(editor: httpx.Client, sha: str) -> list[dict[str, Any]]:
    body = editor.get(RUNS, params={"head_sha": sha}).json()
    assert body["total_count"] == len(body["workflow_runs"])
    return list(body["workflow_runs"])


def test_content_commit_deploys(make_sandbox: SandboxFactory) -> None:
    clock = ManualClock()
    sb = make_sandbox(clock=clock, deploy_queue_seconds=20, deploy_run_seconds=60)
    with client_for(sb) as editor:
        sha = _put(editor, "docs/07-new.md", "feat(docs): create 07-new.md by @editor1")
        runs = _runs(editor, sha)
        assert len(runs) == 1
        run = runs[0]
        assert run["head_sha"] == sha and run["event"] == "push" and run["head_branch"] == "main"
        assert run["path"] == ".github/workflows/deploy.yml@main"
        seen = []
        for step in (0, 19, 1, 59, 1):
            clock.advance(step)
            now = _runs(editor, sha)[0]
            seen.append((now["status"], now["conclusion"]))
        assert seen == [
            ("queued", None),
            ("queued", None),
            ("in_progress", None),
            ("in_progress", None),
            ("completed", "success"),
        ]
        single = editor.get(f"{RUNS}/{run['id']}").json()
        assert single["id"] == run["id"]


def test_skip_ci_and_lock_only_pushes_have_no_run(sb: Sandbox, editor: httpx.Client) -> None:
    skipped = _put(editor, "docs/08-x.md", "docs(edit): update 08-x.md [skip ci]")
    lock = _put(
        editor, ".locks/01-welcome.lock.json", "system: acquire lock for 01-welcome by @editor1"
    )
    for sha in (skipped, lock):
        assert _runs(editor, sha) == []
    assert editor.get(RUNS).json()["total_count"] == 0


def test_failed_deploy_for_practice(make_sandbox: SandboxFactory) -> None:
    clock = ManualClock()
    sb = make_sandbox(clock=clock)
    sb.workflow.fail_next = True
    with client_for(sb) as editor:
        sha = _put(editor, "docs/09-x.md", "docs: x")
        clock.advance(sb.workflow.queue_seconds + sb.workflow.run_seconds)
        assert _runs(editor, sha)[0]["conclusion"] == "failure"
        second = _put(editor, "docs/09-y.md", "docs: y")
        clock.advance(sb.workflow.queue_seconds + sb.workflow.run_seconds)
        assert _runs(editor, second)[0]["conclusion"] == "success"  # only the next one fails


def test_filter_rules() -> None:
    assert glob_to_regex(".locks/**").match(".locks/a/b.json")
    assert not glob_to_regex("docs/*.md").match("docs/a/b.md")
    assert paths_ignore_from_workflow(
        'on:\n  push:\n    paths-ignore:\n      - ".locks/**"\n  workflow_dispatch:\n'
    ) == (".locks/**",)
    assert should_run("x", [".locks/a.json", "docs/a.md"], (".locks/**",))
    assert not should_run("x", [".locks/a.json"], (".locks/**",))
    assert not should_run("x\n\nskip-checks: true", ["docs/a.md"], ())
    assert not should_run("[CI SKIP] x", ["docs/a.md"], ())
    assert not should_run("x", [], ())


def test_a_token_without_actions_read_gets_403_on_runs_and_still_writes(sb: Sandbox) -> None:
    """A fine-grained token made without "Actions: read": GitHub answers 403 "Resource not
    accessible by personal access token" and names the permission it wanted."""
    sb.users.append(SandboxUser("editor3", "tok-editor3", push=True, actions_read=False))
    with client_for(sb, "tok-editor3") as c:
        sha = _put(c, "docs/08-new.md", "feat(docs): create 08-new.md by @editor3")
        for url in (RUNS, f"{RUNS}?head_sha={sha}"):
            r = c.get(url)
            assert r.status_code == 403
            assert r.json()["message"] == "Resource not accessible by personal access token"
            assert r.headers["X-Accepted-GitHub-Permissions"] == "actions=read"
    with client_for(sb) as other:  # the run exists; only that token cannot see it
        assert len(_runs(other, sha)) == 1
