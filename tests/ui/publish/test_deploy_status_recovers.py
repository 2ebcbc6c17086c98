"""A failed build whose cause cannot be read at first (the log not there yet, the connection
dropped) is read again at the next look: the window never stays on "finding out why" for good,
and a window that followed no save learns the site's state from the branch's builds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from modu_desktop.core.publish.blame import BrokenPage
from modu_desktop.core.publish.status import PublishBoard, PublishPhase, SiteStop
from modu_desktop.ui.kit.operation import Operations
from modu_desktop.ui.publish.deploy_status import DeployStatus

KIMS = BrokenPage("docs/03-strategy.md", "03-strategy", "비전과 추진 전략", 42, 4, "…", "kim")


@dataclass
class Run:
    id: int
    head_sha: str
    status: str = "completed"
    conclusion: str | None = "failure"
    html_url: str = "https://example/run"


class Builds:
    """The branch's builds, as GitHub's runs endpoints answer them."""

    def __init__(self, *runs: Run) -> None:
        self.runs = list(runs)

    async def workflow_runs(self, commit_sha: str) -> list[Run]:
        return [r for r in self.runs if r.head_sha == commit_sha]

    async def branch_runs(self, per_page: int = 10) -> list[Run]:
        return sorted(self.runs, key=lambda r: -r.id)[:per_page]


class FlakyExplain:
    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0

    async def __call__(self, run: Any) -> SiteStop:
        self.calls += 1
        if self.calls <= self.failures:
            raise ConnectionError("the log could not be read")
        return SiteStop(run.id, run.html_url, (KIMS,), failure=object(), run=run)


def _status(board: PublishBoard, builds: Builds, explain: FlakyExplain) -> DeployStatus:
    errors: list[str] = []
    return DeployStatus(
        board,
        builds,  # type: ignore[arg-type]
        Operations(errors.append),
        poll_s=0.01,
        stopped=lambda: False,
        explain=explain,
    )


def test_a_cause_that_could_not_be_read_is_read_again(ui: Any, qtbot: Any) -> None:
    board = PublishBoard("kim")
    explain = FlakyExplain(failures=1)
    deploy = _status(board, Builds(Run(10, "c1")), explain)
    deploy.watch("03-strategy", "c1")
    qtbot.waitUntil(
        lambda: board.status("03-strategy").publishing is PublishPhase.FAILED, timeout=5_000
    )
    assert explain.calls == 2
    assert board.status("03-strategy").breaks_site == KIMS


def test_a_window_that_followed_nothing_learns_the_stop_from_the_branch(
    ui: Any, qtbot: Any
) -> None:
    board = PublishBoard("kim")
    builds = Builds(Run(9, "c0", conclusion="success"), Run(10, "c1"))
    deploy = _status(board, builds, FlakyExplain(failures=0))
    ui.run(deploy.look_at_site())
    assert board.stop is not None and board.stop.mine("kim") == (KIMS,)
    builds.runs.append(Run(11, "c2", conclusion="success"))  # fixed since
    qtbot.waitUntil(lambda: board.stop is None, timeout=5_000)  # the stop's watch sees it
