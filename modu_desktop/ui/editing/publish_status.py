"""One line that says how far a save has got: 저장됨 → 게시 준비 중 → 게시됨 / 게시 실패.

It shows the one publishing state machine (``core.deploy.DeployTracker``: only forward,
whatever order the workflow-runs API answers in) and offers “사이트에서 보기” once the
document's page is live. The window's deploy watcher (``ui/shell/deploy_status.py``) feeds it:
:meth:`start` for a save, :meth:`observe` with each answer, :meth:`stop` when no news will come.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from modu_desktop.core.github.types import WorkflowRun
from modu_desktop.core.publish.deploy import DeployState, DeployTracker
from modu_desktop.i18n import tr

_STEPS = (
    (DeployState.WAITING, "Saved"),
    (DeployState.BUILDING, "Getting ready to publish"),
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
        self.detail = ""  # why no more news will come, or how it ended without publishing
        self.hide()

    # --- feeding ---
    def start(self, commit_sha: str, url: str | None) -> None:
        """A new save: back to 저장됨 for this commit."""
        self.commit, self.url = commit_sha, url
        self.tracker = DeployTracker(commit_sha)
        self.detail = ""
        self.history = [self.tracker.state]
        self._show()

    def observe(self, runs: Sequence[WorkflowRun] | None) -> None:
        """The runs API's latest answer for this commit (any order; never moves back)."""
        t = self.tracker
        if t is None:
            return
        before = t.state
        if t.observe(runs) is not before:
            self.history.append(t.state)
            if t.state is DeployState.SKIPPED and t.run is not None:
                self.detail = str(t.run.conclusion or "skipped")
            self._show()

    def stop(self, detail: str) -> None:
        """No more news will come (no run, no access, timeout)."""
        if self.tracker is not None and not self.tracker.state.final:
            self.detail = detail
            self._show()

    def clear(self) -> None:
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
        # skipped / unknown: nothing was published, the line stays at 저장됨 with a note
        now = t.state if t.state not in (DeployState.SKIPPED, DeployState.UNKNOWN) else None
        now = now or DeployState.WAITING
        for state, en in _STEPS:
            name = tr(en)
            if failed and state is DeployState.PUBLISHED:
                parts.append(f"<b style='color:#b42318'>✖ {tr('Publishing failed')}</b>")
                continue
            if state.rank < now.rank or (state is now and now.final):
                parts.append(f"<span style='color:#1a7f37'>✔ {name}</span>")
            elif state is now:
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
        }.get(self.detail, "")
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
            DeployState.WAITING: tr("Saved"),
            DeployState.BUILDING: tr("Getting ready to publish"),
            DeployState.PUBLISHED: tr("Published"),
            DeployState.FAILED: tr("Publishing failed"),
            DeployState.SKIPPED: tr("Saved"),
            DeployState.UNKNOWN: tr("Saved"),
        }[t.state]

    def open_page(self) -> None:
        if self.url and self.state is DeployState.PUBLISHED:
            self.opened.append(self.url)
            with contextlib.suppress(Exception):
                QDesktopServices.openUrl(QUrl(self.url))
