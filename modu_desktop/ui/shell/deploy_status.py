"""The publishing state of the last save: the status bar's label and the editor's one-line
``PublishStatus``, both fed from ONE :class:`~modu_desktop.core.publish.deploy.DeployTracker`
(waiting →
building → published/failed/skipped/unknown, never backwards, out-of-order answers ignored).
A failed run is handed to ``on_failed`` (the failed-deploy notice)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from PySide6.QtWidgets import QLabel

from modu_desktop.core.github import errors
from modu_desktop.core.github.client import GitHubClient
from modu_desktop.core.github.types import WorkflowRun
from modu_desktop.core.publish.deploy import DeployState, DeployTracker
from modu_desktop.i18n import tr
from modu_desktop.ui.editing.publish_status import PublishStatus
from modu_desktop.ui.shell.operation import Operations

NO_RUN_AFTER_S = 180.0


def deploy_words(state: DeployState) -> tuple[str, str]:
    """One wording (and style kind) per publishing state."""
    return {
        DeployState.WAITING: (tr("Publishing: waiting"), "info"),
        DeployState.BUILDING: (tr("Publishing: building the site…"), "info"),
        DeployState.PUBLISHED: (tr("✔ Published"), "ok"),
        DeployState.FAILED: (tr("✖ Publishing failed"), "error"),
        DeployState.SKIPPED: (tr("Not published (skipped)"), "info"),
        DeployState.UNKNOWN: (tr("Publishing status unknown"), "info"),
    }[state]


class DeployStatus:
    def __init__(
        self,
        label: QLabel,
        line: PublishStatus,
        client: GitHubClient,
        ops: Operations,
        *,
        poll_s: float,
        stopped: Callable[[], bool],
        on_failed: Callable[[str, WorkflowRun], None] | None = None,
    ) -> None:
        self.label = label
        self.line = line
        self.client = client
        self.ops = ops
        self.poll_s = poll_s
        self.stopped = stopped
        self.on_failed = on_failed
        self.tracker: DeployTracker | None = None
        self._task: asyncio.Task[None] | None = None

    def watch(self, commit_sha: str, page_url: str | None = None) -> None:
        """Follow the Deploy run of ``commit_sha`` (``page_url``: "View on site")."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self.line.start(commit_sha, page_url)
        self._task = self.ops.run(self._loop(commit_sha), name="deploy-status")

    def show(self, state: DeployState) -> None:
        text, kind = deploy_words(state)
        label = self.label
        label.setText(text)
        label.setProperty("kind", kind)
        label.style().unpolish(label)
        label.style().polish(label)

    async def _loop(self, commit_sha: str) -> None:
        tracker = self.tracker = DeployTracker(commit_sha, give_up_after_s=NO_RUN_AFTER_S)
        self.show(tracker.state)
        started = time.monotonic()
        while not self.stopped() and not tracker.state.final:
            try:
                runs: list[WorkflowRun] | None = await self.client.workflow_runs(commit_sha)
            except (errors.PermissionDenied, errors.NotFound):
                self.show(tracker.unavailable())
                self.line.stop("no-access")
                return
            except Exception:
                runs = None
            if runs is not None:
                self.line.observe(runs)
            before = tracker.state
            state = tracker.observe(runs, time.monotonic() - started)
            if state is not before:
                self.show(state)
            if state is DeployState.UNKNOWN:
                self.line.stop("no-run")
            if state is DeployState.FAILED and self.on_failed is not None:
                failed_run = tracker.run
                if failed_run is not None:
                    self.on_failed(commit_sha, failed_run)
            if not state.final:
                await asyncio.sleep(self.poll_s)
