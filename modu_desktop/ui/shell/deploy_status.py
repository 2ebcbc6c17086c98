"""The status bar's "Publishing…" label: follows the GitHub Actions run of the last save."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from PySide6.QtWidgets import QLabel

from modu_desktop.core import errors
from modu_desktop.core.github import GitHubClient
from modu_desktop.i18n import tr
from modu_desktop.ui.shell.operation import Operations

NO_RUN_AFTER_S = 180.0


class DeployStatus:
    def __init__(
        self,
        label: QLabel,
        client: GitHubClient,
        ops: Operations,
        *,
        poll_s: float,
        stopped: Callable[[], bool],
    ) -> None:
        self.label = label
        self.client = client
        self.ops = ops
        self.poll_s = poll_s
        self.stopped = stopped
        self._task: asyncio.Task[None] | None = None

    def watch(self, commit_sha: str) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = self.ops.run(self._loop(commit_sha), name="deploy-status")

    def _show(self, text: str, kind: str | None = None) -> None:
        self.label.setText(tr(text))
        if kind is not None:
            self.label.setProperty("kind", kind)

    async def _loop(self, commit_sha: str) -> None:
        label = self.label
        self._show("Publishing: waiting to start", "info")
        started = time.monotonic()
        while not self.stopped():
            try:
                runs = await self.client.workflow_runs(commit_sha)
            except (errors.PermissionDenied, errors.NotFound):
                self._show("Publishing status not available")
                return
            except Exception:
                runs = None
            if runs:
                run = runs[0]
                if run.status == "completed":
                    if run.conclusion == "success":
                        self._show("✔ Published", "ok")
                    elif run.conclusion in ("skipped", "cancelled", "neutral"):
                        self._show("Publishing skipped")
                    else:
                        self._show("✖ Publishing failed", "error")
                    label.style().unpolish(label)
                    label.style().polish(label)
                    return
                if run.status in ("queued", "waiting", "pending", "requested"):
                    self._show("Publishing: queued")
                else:
                    self._show("Publishing: building…")
            elif time.monotonic() - started > NO_RUN_AFTER_S:
                self._show("No publishing run found for this save")
                return
            await asyncio.sleep(self.poll_s)
