""" "✔ Published" never flips back to "waiting" in the status bar, and each publishing state
has one wording (the status bar and the line under the editor share it)."""

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
    win.deploy.watch("03-strategy", "abc")
    qtbot.waitUntil(lambda: "Published" in win.status_deploy.text(), timeout=5000)
    qtbot.waitUntil(lambda: not win.deploy.following(), timeout=5000)
    shown.append(win.status_deploy.text())
    assert "Published" in win.status_deploy.text()
    assert len(calls) == 4  # a final state ends the polling
    order = ["Waiting to publish", "Publishing…", "✔ Published"]
    ranks = [next(i for i, word in enumerate(order) if word in t) for t in shown]
    assert ranks == sorted(ranks), shown  # never backwards


def test_publishing_states_have_one_wording_each() -> None:
    from modu_desktop.core.publish.status import PublishPhase
    from modu_desktop.ui.publish.status_words import publishing_words

    texts = {publishing_words(p)[0] for p in PublishPhase if p is not PublishPhase.NONE}
    assert len(texts) == len(PublishPhase) - 1 and "" not in texts
