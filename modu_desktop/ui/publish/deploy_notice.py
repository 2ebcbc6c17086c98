"""After a save: the deploy of our commit failed. Said prominently, on the document.

``FailedDeployNotice`` shows the failing step and its log lines
(``core.deploy_failure.DeployFailure``) and offers "이전 버전으로 되돌리기": ``restoreRequested``
is emitted when the user confirms it
(a second click on the confirmation the notice shows — never Enter or Esc); the host then does
one normal, lock-checked save of the version before the failed save and calls
``restore_started()`` / ``restore_done(ok, message)``. ``openRunRequested(url)`` opens the run
on GitHub; ``dismissed`` when the user closes the notice.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.publish.check import Finding
from modu_desktop.core.publish.failure import DeployFailure
from modu_desktop.i18n import tr

_STYLE = """
QFrame#failedDeployNotice { background: #fdecea; border: 2px solid #b3261e; border-radius: 8px; }
QLabel#failedDeployTitle { color: #8c1d18; }
QPlainTextEdit#failedDeployLog { background: #fff; color: #222; border: 1px solid #e0a19b; }
QFrame#restoreConfirm { background: #fff; border: 1px solid #e0a19b; border-radius: 6px; }
QPushButton#restorePreviousButton, QPushButton#confirmRestoreButton { background: #b3261e;
  color: white; font-weight: bold; padding: 5px 14px; border-radius: 4px; }
QPushButton#restorePreviousButton:disabled { background: #d9a19c; }
QLabel#failedDeployProblems { color: #5c1410; }
"""


class FailedDeployNotice(QFrame):
    restoreRequested = Signal()
    openRunRequested = Signal(str)
    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("failedDeployNotice")
        self.setStyleSheet(_STYLE)
        self.failure: DeployFailure | None = None
        v = QVBoxLayout(self)
        v.setContentsMargins(12, 10, 12, 10)
        self.title = QLabel(tr("Publishing failed: the site was not updated"))
        self.title.setObjectName("failedDeployTitle")
        f = self.title.font()
        f.setBold(True)
        f.setPointSizeF(f.pointSizeF() * 1.2)
        self.title.setFont(f)
        v.addWidget(self.title)
        self.explain = QLabel("")
        self.explain.setObjectName("failedDeployExplain")
        self.explain.setWordWrap(True)
        v.addWidget(self.explain)
        self.problems = QLabel("")
        self.problems.setObjectName("failedDeployProblems")
        self.problems.setWordWrap(True)
        self.problems.setTextFormat(Qt.TextFormat.PlainText)
        self.problems.hide()
        v.addWidget(self.problems)
        self.log = QPlainTextEdit()
        self.log.setObjectName("failedDeployLog")
        self.log.setReadOnly(True)
        self.log.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        mono.setStyleHint(QFont.StyleHint.Monospace)
        self.log.setFont(mono)
        self.log.setAccessibleName(tr("Lines of the failing step"))
        self.log.setMaximumHeight(180)
        v.addWidget(self.log)
        self.confirm = QFrame()
        self.confirm.setObjectName("restoreConfirm")
        cl = QHBoxLayout(self.confirm)
        self.confirm_text = QLabel(
            tr(
                "Your change stays in the history; the page gets the text it had before your "
                "save, and the site is built again."
            )
        )
        self.confirm_text.setWordWrap(True)
        cl.addWidget(self.confirm_text, 1)
        self.confirm_button = QPushButton(tr("Restore now"))
        self.confirm_button.setObjectName("confirmRestoreButton")
        self.confirm_button.setAutoDefault(False)
        self.confirm_button.clicked.connect(self._confirmed)
        cl.addWidget(self.confirm_button)
        self.confirm.hide()
        v.addWidget(self.confirm)
        row = QHBoxLayout()
        self.restore_button = QPushButton(tr("Restore the previous version"))
        self.restore_button.setObjectName("restorePreviousButton")
        self.restore_button.setAutoDefault(False)
        self.restore_button.clicked.connect(self._ask)
        self.run_button = QPushButton(tr("Open on GitHub"))
        self.run_button.setObjectName("openRunButton")
        self.run_button.setAutoDefault(False)
        self.run_button.clicked.connect(self._open_run)
        self.close_button = QPushButton(tr("Close"))
        self.close_button.setObjectName("dismissDeployNoticeButton")
        self.close_button.setAutoDefault(False)
        self.close_button.clicked.connect(self._dismiss)
        self.status = QLabel("")
        self.status.setObjectName("failedDeployStatus")
        self.status.setWordWrap(True)
        row.addWidget(self.restore_button)
        row.addWidget(self.status, 1)
        row.addWidget(self.run_button)
        row.addWidget(self.close_button)
        v.addLayout(row)

    def show_failure(
        self, failure: DeployFailure, *, doc_title: str = "", problems: Sequence[Finding] = ()
    ) -> None:
        """``problems``: the publish check's findings on the saved text (shown in plain Korean
        above the build log, which is in English)."""
        self.failure = failure
        breakers = [p for p in problems if p.breaks_build]
        if breakers:
            lines = [tr("What the check finds in this document:")]
            for p in breakers[:8]:
                lines.append(
                    "• "
                    + tr("line {line}, column {column}", line=p.line, column=p.column)
                    + ": "
                    + p.message
                )
            self.problems.setText("\n".join(lines))
            self.problems.show()
        else:
            self.problems.hide()
        step = failure.step_name or tr("a step")
        if doc_title:
            text = tr(
                "The site could not be built after your save of “{doc}”. It still shows the "
                "pages from before. Failing step: {step}.",
                doc=doc_title,
                step=step,
            )
        else:
            text = tr(
                "The site could not be built. It still shows the pages from before. "
                "Failing step: {step}.",
                step=step,
            )
        self.explain.setText(text)
        if failure.lines:
            self.log.setPlainText("\n".join(failure.lines))
        elif failure.logs_unavailable:
            self.log.setPlainText(
                tr(
                    "The log could not be read with this sign-in ({why}).",
                    why=failure.logs_unavailable,
                )
            )
        else:
            self.log.setPlainText(tr("The log has no lines for this step."))
        self.log.setVisible(True)
        self.run_button.setVisible(bool(failure.run_url))
        self.restore_button.setEnabled(True)
        self.confirm.hide()
        self.status.setText("")
        self.show()

    def _ask(self) -> None:
        self.confirm.show()
        self.confirm_button.setFocus()

    def _confirmed(self) -> None:
        self.confirm.hide()
        self.restoreRequested.emit()

    def restore_started(self) -> None:
        self.restore_button.setEnabled(False)
        self.status.setText(tr("Restoring…"))

    def restore_done(self, ok: bool, message: str = "") -> None:
        if ok:
            self.status.setText(message or tr("Restored. The site is being built again."))
            self.restore_button.setEnabled(False)
        else:
            self.status.setText(message or tr("Not restored."))
            self.restore_button.setEnabled(True)

    def _open_run(self) -> None:
        if self.failure is not None and self.failure.run_url:
            self.openRunRequested.emit(self.failure.run_url)

    def _dismiss(self) -> None:
        self.hide()
        self.dismissed.emit()
