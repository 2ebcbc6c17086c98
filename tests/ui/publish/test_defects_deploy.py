"""Issue 13, defect 5: "✔ Published" never flips back to "waiting" in the status bar, and
each publishing state has one wording."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Run:
    status: str
    conclusion: str | None = None
    head_sha: str = "abc"
    id: int = 7


def test_publishing_status_only_moves_forward(make_window: Any, ui: Any, qtbot: Any) -> None:
    win = make_window(deploy_poll_s=0.05)
    answers = [
        [Run("queued")],
        [Run("in_progress")],
        [Run("queued")],  # a replica behind the others answers late
        [Run("completed", "success")],
        [Run("queued")],
    ]
    shown: list[str] = []
    calls: list[str] = []

    async def runs(sha: str) -> list[Run]:
        calls.append(sha)
        shown.append(win.status_deploy.text())
        return answers.pop(0) if answers else [Run("queued")]

    win.ctx.client.workflow_runs = runs
    win.deploy.watch("abc")
    qtbot.waitUntil(lambda: "Published" in win.status_deploy.text(), timeout=5000)
    qtbot.wait(300)
    shown.append(win.status_deploy.text())
    assert "Published" in win.status_deploy.text()
    assert len(calls) == 4  # a final state ends the polling
    order = ["Publishing: waiting", "Publishing: building the site…", "✔ Published"]
    ranks = [order.index(t) for t in shown]
    assert ranks == sorted(ranks), shown  # never backwards


def test_publishing_states_have_one_wording_each(make_window: Any, qtbot: Any) -> None:
    from modu_desktop.core.publish.deploy import DeployState

    win = make_window()
    texts = set()
    for state in DeployState:
        win.deploy.show(state)
        texts.add(win.status_deploy.text())
    assert len(texts) == len(DeployState)
