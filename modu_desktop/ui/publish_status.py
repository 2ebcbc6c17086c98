"""One line that says how far a save has got: 저장됨 → 게시 준비 중 → 게시됨 / 게시 실패.

It only moves forward (``core.publish.DeployTracker``), whatever order the workflow-runs API
answers in, and offers “사이트에서 보기” once the document's page is live. It is fed either by
its own poller (:meth:`watch`, ``core.publish.watch_deploy``) or by a caller that already
polls the runs (:meth:`start` + :meth:`observe`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from modu_desktop.core.publish import (
    DeployState,
    DeployTracker,
    RunLike,
    state_of_runs,
    watch_deploy,
)
from modu_desktop.i18n import tr

_STEPS = (
    (DeployState.SAVED, "Saved"),
    (DeployState.PREPARING, "Getting ready to publish"),
    (DeployState.PUBLISHED, "Published"),
)


class PublishStatus(QWidget):
    changed = Signal(object)  # DeployState

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("publishStatus")
        self.setAccessibleName(tr("Publishing state"))
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel("")
        self.label.setObjectName("publishStatusLine")
        self.label.setTextFormat(self.label.textFormat().RichText)
        lay.addWidget(self.label, 1)
        self.view_button = QPushButton(tr("View on site"))
        self.view_button.setObjectName("viewOnSiteButton")
        self.view_button.setAccessibleName(tr("Open the published page in the browser"))
        self.view_button.hide()
        lay.addWidget(self.view_button)
        self.view_button.clicked.connect(self.open_page)
        self.tracker: DeployTracker | None = None
        self.url: str | None = None
        self.commit: str | None = None
        self.history: list[DeployState] = []
        self.opened: list[str] = []
        self._task: asyncio.Task[Any] | None = None
        self.hide()

    # --- feeding ---
    def start(self, commit_sha: str, url: str | None) -> None:
        """A new save: back to 저장됨 for this commit."""
        self._cancel()
        self.commit, self.url = commit_sha, url
        self.tracker = DeployTracker()
        self.history = [self.tracker.state]
        self._show()

    def observe(self, runs: Sequence[RunLike] | None) -> None:
        """The runs API's latest answer for this commit (any order; never moves back)."""
        if self.tracker is None:
            return
        state = state_of_runs(runs)
        detail = str(runs[0].conclusion or "") if runs and state is DeployState.FAILED else ""
        if self.tracker.advance(state, detail):
            self.history.append(self.tracker.state)
            self._show()

    def stop(self, detail: str) -> None:
        """No more news will come (no run, no access, timeout)."""
        if self.tracker is not None and not self.tracker.state.final:
            self.tracker.detail = detail
            self._show()

    def watch(
        self,
        runs_of: Callable[[str], Awaitable[Sequence[RunLike]]],
        commit_sha: str,
        url: str | None,
        *,
        poll_s: float = 5.0,
    ) -> asyncio.Task[Any]:
        """Poll by itself (``core.publish.watch_deploy``)."""
        self.start(commit_sha, url)

        def on_change(t: DeployTracker) -> None:
            if self.tracker is None or t.state is self.tracker.state:
                if self.tracker is not None and t.detail:
                    self.stop(t.detail)
                return
            if self.tracker.advance(t.state, t.detail):
                self.history.append(self.tracker.state)
                self._show()

        self._task = asyncio.ensure_future(
            watch_deploy(runs_of, commit_sha, on_change, poll_s=poll_s)
        )
        return self._task

    def _cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    def clear(self) -> None:
        self._cancel()
        self.tracker = None
        self.hide()

    # --- showing ---
    @property
    def state(self) -> DeployState | None:
        return self.tracker.state if self.tracker else None

    def text(self) -> str:
        return self.label.text()

    def _show(self) -> None:
        t = self.tracker
        if t is None:
            return
        parts = []
        failed = t.state is DeployState.FAILED
        for state, en in _STEPS:
            name = tr(en)
            if failed and state is DeployState.PUBLISHED:
                parts.append(f"<b style='color:#b42318'>✖ {tr('Publishing failed')}</b>")
                continue
            if state.rank < t.state.rank or (state is t.state and t.state.final):
                parts.append(f"<span style='color:#1a7f37'>✔ {name}</span>")
            elif state is t.state:
                parts.append(f"<b>● {name}</b>")
            else:
                parts.append(f"<span style='color:#8a94a6'>○ {name}</span>")
        line = " → ".join(parts)
        note = {
            "no-run": tr("(no publishing run was started for this save)"),
            "no-access": tr("(this sign-in cannot see the publishing state)"),
            "timeout": tr("(still not finished; look again later)"),
            "skipped": tr("(publishing was skipped for this save)"),
            "cancelled": tr("(publishing was cancelled)"),
        }.get(t.detail, "")
        if note:
            line += f" <span style='color:#8a94a6'>{note}</span>"
        self.label.setText(line)
        self.label.setAccessibleDescription(self._plain())
        self.view_button.setVisible(t.state is DeployState.PUBLISHED and bool(self.url))
        self.show()
        self.changed.emit(t.state)

    def _plain(self) -> str:
        t = self.tracker
        if t is None:
            return ""
        return {
            DeployState.SAVED: tr("Saved"),
            DeployState.PREPARING: tr("Getting ready to publish"),
            DeployState.PUBLISHED: tr("Published"),
            DeployState.FAILED: tr("Publishing failed"),
        }[t.state]

    def open_page(self) -> None:
        if self.url and self.state is DeployState.PUBLISHED:
            self.opened.append(self.url)
            with contextlib.suppress(Exception):
                QDesktopServices.openUrl(QUrl(self.url))
