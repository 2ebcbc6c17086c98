"""The publishing status of a save never moves backwards."""

from __future__ import annotations

from dataclasses import dataclass

from modu_desktop.core.publish.deploy import DeployState, DeployTracker


@dataclass
class Run:
    status: str
    conclusion: str | None = None
    head_sha: str = "c1"
    id: int = 1


def test_published_is_never_followed_by_waiting() -> None:
    t = DeployTracker("c1")
    assert t.observe([]) is DeployState.WAITING
    assert t.observe([Run("queued")]) is DeployState.WAITING
    assert t.observe([Run("in_progress")]) is DeployState.BUILDING
    assert t.observe([Run("queued")]) is DeployState.BUILDING  # an older answer arrives late
    assert t.observe([Run("completed", "success")]) is DeployState.PUBLISHED
    for late in ([Run("queued")], [Run("in_progress")], [], None):
        assert t.observe(late, elapsed_s=999) is DeployState.PUBLISHED
    assert t.unavailable() is DeployState.PUBLISHED


def test_no_run_in_time_is_unknown_but_not_after_a_run_was_seen() -> None:
    t = DeployTracker("c1", give_up_after_s=10)
    assert t.observe([], elapsed_s=11) is DeployState.UNKNOWN
    seen = DeployTracker("c1", give_up_after_s=10)
    assert seen.observe([Run("queued")]) is DeployState.WAITING
    assert seen.observe([], elapsed_s=11) is DeployState.WAITING  # the list lagged: keep waiting


def test_other_commits_runs_are_ignored_and_the_latest_run_counts() -> None:
    t = DeployTracker("c1")
    assert t.observe([Run("completed", "success", head_sha="c0")]) is DeployState.WAITING
    runs = [Run("completed", "failure", id=1), Run("in_progress", id=2)]
    assert t.observe(runs) is DeployState.BUILDING
    assert t.observe([Run("completed", "failure")]) is DeployState.FAILED
    assert t.state.final
