"""The site could not be built: which page stopped it, who saved it and when. Said prominently,
above the list and the editor, in every window whose save it holds back (and to the one who
broke it, whatever is open).

``FailedDeployNotice.show_stop`` takes the window's stop (``core.publish.status.SiteStop``) and
tells it one of three ways:

- to the person who saved the breaking page (``mine``): the page, the line, what the check finds
  there, and "고치기" (``fixRequested``: open the page at that line) and "이전 버전으로 되돌리기"
  for *that* page (``restoreRequested``, after a second click on the confirmation the notice
  shows — never Enter or Esc); the host then does one normal, lock-checked save and calls
  ``restore_started()`` / ``restore_done(ok, message)``;
- to everyone else: their text is saved and publishing waits for that page — no button that
  would touch their own work;
- when the log names no page: that the site failed, and the log.

``openRunRequested(url)`` opens the run on GitHub; ``dismissed`` when the user closes it.
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

from modu_desktop.core.account.people import person
from modu_desktop.core.locks import words
from modu_desktop.core.publish.blame import BrokenPage
from modu_desktop.core.publish.check import Finding
from modu_desktop.core.publish.status import SiteStop
from modu_desktop.i18n import tr

_STYLE = """
QFrame#failedDeployNotice[kind="error"] { background: #fdecea; border: 2px solid #b3261e;
  border-radius: 8px; }
QFrame#failedDeployNotice[kind="warning"] { background: #fff7e6; border: 2px solid #c98a12;
  border-radius: 8px; }
QFrame#failedDeployNotice[kind="error"] QLabel#failedDeployTitle { color: #8c1d18; }
QFrame#failedDeployNotice[kind="warning"] QLabel#failedDeployTitle { color: #6b4300; }
QPlainTextEdit#failedDeployLog { background: #fff; color: #222; border: 1px solid #e0a19b; }
QFrame#restoreConfirm { background: #fff; border: 1px solid #e0a19b; border-radius: 6px; }
QPushButton#restorePreviousButton, QPushButton#confirmRestoreButton { background: #b3261e;
  color: white; font-weight: bold; padding: 5px 14px; border-radius: 4px; }
QPushButton#restorePreviousButton:disabled { background: #d9a19c; }
QPushButton#fixPageButton { font-weight: bold; padding: 5px 14px; }
QLabel#failedDeployProblems { color: #5c1410; }
"""


class FailedDeployNotice(QFrame):
    restoreRequested = Signal()
    fixRequested = Signal()
    openRunRequested = Signal(str)
    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("failedDeployNotice")
        self.setProperty("kind", "error")
        self.setStyleSheet(_STYLE)
        self.stop: SiteStop | None = None
        self.page: BrokenPage | None = None  # the page this person can act on
        v = QVBoxLayout(self)
        v.setContentsMargins(12, 10, 12, 10)
        self._texts(v)
        v.addWidget(self._restore_confirm())
        self.status = QLabel("")
        self.status.setObjectName("failedDeployStatus")
        self.status.setWordWrap(True)
        self.status.hide()
        v.addWidget(self.status)
        v.addLayout(self._buttons())

    def _texts(self, v: QVBoxLayout) -> None:
        """What happened, the check's findings on the page, and the failing step's lines."""
        self.title = QLabel("")
        self.title.setObjectName("failedDeployTitle")
        self.title.setWordWrap(True)
        f = self.title.font()
        f.setBold(True)
        f.setPointSizeF(f.pointSizeF() * 1.2)
        self.title.setFont(f)
        v.addWidget(self.title)
        self.explain = QLabel("")
        self.explain.setObjectName("failedDeployExplain")
        self.explain.setWordWrap(True)
        self.explain.setTextFormat(Qt.TextFormat.PlainText)
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
        self.log.setMaximumHeight(160)
        self.log.hide()
        v.addWidget(self.log)

    def _restore_confirm(self) -> QFrame:
        """The second click a restore needs."""
        self.confirm = QFrame()
        self.confirm.setObjectName("restoreConfirm")
        cl = QHBoxLayout(self.confirm)
        self.confirm_text = QLabel("")
        self.confirm_text.setWordWrap(True)
        cl.addWidget(self.confirm_text, 1)
        self.confirm_button = QPushButton(tr("Restore now"))
        self.confirm_button.setObjectName("confirmRestoreButton")
        self.confirm_button.setAutoDefault(False)
        self.confirm_button.clicked.connect(self._confirmed)
        cl.addWidget(self.confirm_button)
        self.confirm.hide()
        return self.confirm

    def _buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.fix_button = QPushButton(tr("Fix it"))
        self.fix_button.setObjectName("fixPageButton")
        self.fix_button.setAutoDefault(False)
        self.fix_button.clicked.connect(self.fixRequested.emit)
        self.restore_button = QPushButton(tr("Restore the previous version"))
        self.restore_button.setObjectName("restorePreviousButton")
        self.restore_button.setAutoDefault(False)
        self.restore_button.clicked.connect(self._ask)
        self.log_button = QPushButton(tr("Build log"))
        self.log_button.setObjectName("showBuildLogButton")
        self.log_button.setCheckable(True)
        self.log_button.setAutoDefault(False)
        self.log_button.toggled.connect(self.log.setVisible)
        self.run_button = QPushButton(tr("Open on GitHub"))
        self.run_button.setObjectName("openRunButton")
        self.run_button.setAutoDefault(False)
        self.run_button.clicked.connect(self._open_run)
        self.close_button = QPushButton(tr("Close"))
        self.close_button.setObjectName("dismissDeployNoticeButton")
        self.close_button.setAutoDefault(False)
        self.close_button.clicked.connect(self._dismiss)
        row.addWidget(self.fix_button)
        row.addWidget(self.restore_button)
        row.addStretch(1)
        row.addWidget(self.log_button)
        row.addWidget(self.run_button)
        row.addWidget(self.close_button)
        return row

    # -- showing -----------------------------------------------------------------------------

    def show_stop(
        self,
        stop: SiteStop,
        *,
        login: str,
        now: float,
        page: BrokenPage | None = None,
        problems: Sequence[Finding] = (),
    ) -> None:
        """Tell ``stop``. ``page``: the breaking page this person saved (they get 고치기 and
        되돌리기 for it), None for everyone else; ``problems``: the check's findings on that
        page's text, said in plain words above the English log."""
        new = self.stop is None or self.stop.run_id != stop.run_id or self.page != page
        self.stop, self.page = stop, page
        others = [p for p in stop.pages if p != page]
        if page is not None:
            self._kind("error")
            self.title.setText(tr("Publishing failed: the site was not updated"))
            self.explain.setText(_breaker_text(page, others, now))
        elif stop.pages:
            self._kind("warning")
            self.title.setText(tr("Publishing is on hold: your text is saved"))
            self.explain.setText(_bystander_text(stop.pages[0], len(others) - 1, login, now))
        elif stop.failure is None:
            self._kind("error")
            self.title.setText(tr("Publishing failed: the site was not updated"))
            self.explain.setText(
                tr(
                    "The site could not be built. Your text is saved. Which page stopped it is "
                    "not known yet: the build log could not be read, and is read again shortly."
                )
            )
        else:
            self._kind("error")
            self.title.setText(tr("Publishing failed: the site was not updated"))
            step = getattr(stop.failure, "step_name", None) or tr("a step")
            self.explain.setText(
                tr(
                    "The site could not be built, and the build log names no page. Your text is "
                    "saved; the site still shows the pages from before. Failing step: {step}.",
                    step=step,
                )
            )
        self._problems(problems if page is not None else ())
        self._log(stop)
        self.fix_button.setVisible(page is not None and page.doc_id is not None)
        self.restore_button.setVisible(page is not None and page.doc_id is not None)
        self.run_button.setVisible(bool(stop.run_url))
        if new:
            self.confirm.hide()
            self.status.hide()
            self.restore_button.setEnabled(True)
            self.log_button.setChecked(not stop.pages)
        if page is not None:
            self.confirm_text.setText(
                tr(
                    "“{doc}” gets the text it had before the change of {when}; that change "
                    "stays in the history, and the site is built again.",
                    doc=page.label,
                    when=words.when(page.saved_at, now)() if page.saved_at else "?",
                )
            )
        self.show()

    def _kind(self, kind: str) -> None:
        self.setProperty("kind", kind)
        self.style().unpolish(self)
        self.style().polish(self)

    def _problems(self, problems: Sequence[Finding]) -> None:
        breakers = [p for p in problems if p.breaks_build]
        if not breakers:
            self.problems.hide()
            return
        lines = [tr("What the check finds on this page:")]
        for p in breakers[:6]:
            where = tr("line {line}, column {column}", line=p.line, column=p.column)
            lines.append(f"• {where}: {p.message}")
        self.problems.setText("\n".join(lines))
        self.problems.show()

    def _log(self, stop: SiteStop) -> None:
        failure = stop.failure
        if failure is not None and failure.lines:
            self.log.setPlainText("\n".join(failure.lines))
        elif failure is not None and failure.logs_unavailable:
            self.log.setPlainText(
                tr(
                    "The log could not be read with this sign-in ({why}).",
                    why=failure.logs_unavailable(),
                )
            )
        else:
            self.log.setPlainText(tr("The log has no lines for this step."))

    # -- restoring ---------------------------------------------------------------------------

    def _ask(self) -> None:
        self.confirm.show()
        self.confirm_button.setFocus()

    def _confirmed(self) -> None:
        self.confirm.hide()
        self.restoreRequested.emit()

    def restore_started(self) -> None:
        self.restore_button.setEnabled(False)
        self._say(tr("Restoring…"))

    def restore_done(self, ok: bool, message: str = "") -> None:
        if ok:
            self._say(message or tr("Restored. The site is being built again."))
            self.restore_button.setEnabled(False)
        else:
            self._say(message or tr("Not restored."))
            self.restore_button.setEnabled(True)

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def _open_run(self) -> None:
        if self.stop is not None and self.stop.run_url:
            self.openRunRequested.emit(self.stop.run_url)

    def _dismiss(self) -> None:
        self.hide()
        self.dismissed.emit()


def _breaker_text(page: BrokenPage, others: Sequence[BrokenPage], now: float) -> str:
    when = words.when(page.saved_at, now)() if page.saved_at else "?"
    if page.line:
        text = tr(
            "The site could not be built because of line {line} of “{doc}”, which you saved "
            "at {when}. Until it is fixed, nothing is published — neither your pages nor "
            "anyone else's.",
            line=page.line,
            doc=page.label,
            when=when,
        )
    else:
        text = tr(
            "The site could not be built because of “{doc}”, which you saved at {when}. "
            "Until it is fixed, nothing is published — neither your pages nor anyone else's.",
            doc=page.label,
            when=when,
        )
    if others:
        text += " " + tr(
            "{n} other page(s) also stop the build: {docs}.",
            n=len(others),
            docs=", ".join(f"“{p.label}”" for p in others),
        )
    return text


def _bystander_text(page: BrokenPage, more: int, login: str, now: float) -> str:
    when = words.when(page.saved_at, now)() if page.saved_at else None
    if page.saved_by and when:
        text = tr(
            "Your text is saved. Publishing waits for “{doc}”, which {who} saved at {when}: "
            "the site cannot be built with that page. Once it is fixed, your text is "
            "published with it. There is nothing you need to do.",
            doc=page.label,
            who=person(page.saved_by),
            when=when,
        )
    else:
        text = tr(
            "Your text is saved. Publishing waits for “{doc}”: the site cannot be built with "
            "that page. Once it is fixed, your text is published with it. There is nothing "
            "you need to do.",
            doc=page.label,
        )
    if more > 0:
        text += " " + tr("({n} more page(s) also stop the build.)", n=more)
    return text
