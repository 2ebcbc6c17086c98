"""기록 (history) of one document: every published version, a diff against the current text, and
"이 버전으로 되돌리기".

    panel = HistoryPanel()
    await panel.load(DocHistory(client, store), "docs/01-intro.md", editor_text, title="소개")
    panel.restoreRequested.connect(lambda version, text: ...)   # the host saves, lock held

Loading and reading versions never block the UI (the versions list is one request per 100
versions, a version's text is read once, by sha). Restoring asks once more inside the panel and
then emits ``restoreRequested(Version, text)``: the host makes it a normal, lock-checked save
with ``core.history.restore_version`` (message ``docs(edit): restore {file} to {sha} by @{me}``)
and then calls ``load`` again.
"""

from __future__ import annotations

import asyncio
import re
from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontDatabase, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.documents.history import DocHistory, Version, diff_lines
from modu_desktop.i18n import tr
from modu_desktop.ui.shell.operation import operations_for

_EDIT = re.compile(r"^docs\(edit\): update \S+ by @(\S+)")
_RESTORE = re.compile(r"^docs\(edit\): restore \S+ to ([0-9a-f]{7,}) by @(\S+)")
_CREATE = re.compile(r"^docs\(create\)|^docs\(new\)|^docs: create|^docs\(add\)")


def describe(version: Version) -> str:
    """A plain label for a commit message people did not write themselves."""
    m = _RESTORE.match(version.message)
    if m:
        return tr("Restored the version {sha}", sha=m.group(1)[:7])
    if _EDIT.match(version.message):
        return tr("Edited")
    if _CREATE.match(version.message):
        return tr("Created")
    return version.message


def when(version: Version) -> str:
    if not version.date:
        return "-"
    try:
        moment = datetime.fromisoformat(version.date.replace("Z", "+00:00"))
    except ValueError:
        return version.date
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


class HistoryPanel(QWidget):
    restoreRequested = Signal(object, str)  # Version, its text

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyPanel")
        self.history: DocHistory | None = None
        self.path = ""
        self.current_text = ""
        self.versions: list[Version] = []
        self.selected: Version | None = None
        self.selected_text: str | None = None
        self._task: asyncio.Task[None] | None = None
        v = QVBoxLayout(self)
        self.heading = QLabel(tr("History"))
        self.heading.setObjectName("historyHeading")
        f = self.heading.font()
        f.setBold(True)
        f.setPointSizeF(f.pointSizeF() * 1.15)
        self.heading.setFont(f)
        v.addWidget(self.heading)
        self.status = QLabel("")
        self.status.setObjectName("historyStatus")
        self.status.setWordWrap(True)
        v.addWidget(self.status)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.list = QListWidget()
        self.list.setObjectName("historyList")
        self.list.setAccessibleName(tr("Versions"))
        self.list.setWordWrap(True)
        self.list.setSpacing(3)
        self.list.setMinimumWidth(240)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.currentRowChanged.connect(self._row_changed)
        split.addWidget(self.list)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        self.diff_title = QLabel("")
        self.diff_title.setObjectName("historyDiffTitle")
        self.diff_title.setWordWrap(True)
        rv.addWidget(self.diff_title)
        self.diff = QPlainTextEdit()
        self.diff.setObjectName("historyDiff")
        self.diff.setReadOnly(True)
        self.diff.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        mono.setStyleHint(QFont.StyleHint.Monospace)
        self.diff.setFont(mono)
        self.diff.setAccessibleName(tr("Differences from the current text"))
        rv.addWidget(self.diff, 1)
        self.confirm = QFrame()
        self.confirm.setObjectName("historyRestoreConfirm")
        self.confirm.setStyleSheet(
            "QFrame#historyRestoreConfirm { background: #fff6e0; border: 1px solid #e5c77d;"
            " border-radius: 6px; }"
        )
        cl = QHBoxLayout(self.confirm)
        self.confirm_text = QLabel("")
        self.confirm_text.setWordWrap(True)
        cl.addWidget(self.confirm_text, 1)
        self.confirm_button = QPushButton(tr("Restore"))
        self.confirm_button.setObjectName("confirmHistoryRestoreButton")
        self.confirm_button.setAutoDefault(False)
        self.confirm_button.clicked.connect(self._confirmed)
        cancel = QPushButton(tr("Cancel"))
        cancel.setObjectName("cancelHistoryRestoreButton")
        cancel.setAutoDefault(False)
        cancel.clicked.connect(self.confirm.hide)
        cl.addWidget(self.confirm_button)
        cl.addWidget(cancel)
        self.confirm.hide()
        rv.addWidget(self.confirm)
        row = QHBoxLayout()
        row.addStretch(1)
        self.restore_button = QPushButton(tr("Restore this version"))
        self.restore_button.setObjectName("restoreVersionButton")
        self.restore_button.setAutoDefault(False)
        self.restore_button.setEnabled(False)
        self.restore_button.clicked.connect(self._ask)
        row.addWidget(self.restore_button)
        rv.addLayout(row)
        split.addWidget(right)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 5)
        v.addWidget(split, 1)

    # ----- loading -------------------------------------------------------------------------

    async def load(
        self, history: DocHistory, path: str, current_text: str, *, title: str = ""
    ) -> None:
        self.history, self.path, self.current_text = history, path, current_text
        self.heading.setText(tr("History of “{doc}”", doc=title) if title else tr("History"))
        self.status.setText(tr("Loading the versions…"))
        self.list.clear()
        self.versions = []
        self._set_selected(None, None)
        try:
            versions = await history.versions(path)
        except Exception as exc:
            self.status.setText(tr("The history could not be read: {why}", why=_why(exc)))
            return
        self.versions = versions
        self.status.setText(
            tr("{n} version(s). Pick one to see how it differs from the text now.", n=len(versions))
        )
        for i, version in enumerate(versions):
            label = f"{when(version)}  ·  {version.author}\n{describe(version)}"
            if i == 0:
                label += "  " + tr("(on the site now)")
            item = QListWidgetItem(label)
            item.setToolTip(f"{version.short_sha}  {version.message}")
            self.list.addItem(item)
        if len(versions) > 1:
            self.list.setCurrentRow(1)
        elif versions:
            self.list.setCurrentRow(0)

    def set_current_text(self, text: str) -> None:
        """The editor's text changed: compare with it from now on."""
        self.current_text = text
        if self.selected is not None and self.selected_text is not None:
            self._show_diff(self.selected, self.selected_text)

    def _row_changed(self, row: int) -> None:
        if not 0 <= row < len(self.versions):
            self._set_selected(None, None)
            return
        version = self.versions[row]
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = operations_for(self).run(
            self._open(version), name="history-version", report=self.diff_title.setText
        )

    async def _open(self, version: Version) -> None:
        assert self.history is not None
        self.diff_title.setText(tr("Reading the version {sha}…", sha=version.short_sha))
        self.restore_button.setEnabled(False)
        try:
            text = await self.history.text_at(version.sha, self.path)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.diff_title.setText(tr("This version could not be read: {why}", why=_why(exc)))
            return
        if text is None:
            self.diff_title.setText(tr("The document did not exist in this version."))
            self._set_selected(None, None)
            return
        self._set_selected(version, text)

    def _set_selected(self, version: Version | None, text: str | None) -> None:
        self.selected, self.selected_text = version, text
        self.confirm.hide()
        if version is None or text is None:
            self.diff.setPlainText("")
            self.restore_button.setEnabled(False)
            return
        self._show_diff(version, text)

    def _show_diff(self, version: Version, text: str) -> None:
        lines = diff_lines(text, self.current_text)
        if not lines:
            self.diff_title.setText(
                tr("The version of {date} is the same as the text now.", date=when(version))
            )
            self.diff.setPlainText("")
            self.restore_button.setEnabled(False)
            return
        self.diff_title.setText(
            tr(
                "Lines marked − are in the version of {date} ({who}); lines marked + are in "
                "the text now.",
                date=when(version),
                who=version.author,
            )
        )
        shown = []
        for line in lines[2:]:  # no ---/+++ headers
            if line.startswith("@@"):
                shown.append("⋯")
            elif line.startswith("-"):
                shown.append("− " + line[1:])
            elif line.startswith("+"):
                shown.append("+ " + line[1:])
            else:
                shown.append("  " + line[1:])
        self.diff.setPlainText("\n".join(shown))
        self._colour(shown)
        self.restore_button.setEnabled(True)

    def _colour(self, shown: list[str]) -> None:
        sels = []
        doc = self.diff.document()
        for i, line in enumerate(shown):
            colour = None
            if line.startswith("− "):
                colour = QColor("#fde2e1")
            elif line.startswith("+ "):
                colour = QColor("#dff3e3")
            if colour is None:
                continue
            sel = QTextEdit.ExtraSelection()
            fmt = QTextCharFormat()
            fmt.setBackground(colour)
            fmt.setProperty(QTextFormat.Property.FullWidthSelection, True)
            sel.format = fmt  # type: ignore[misc]
            cursor = QTextCursor(doc.findBlockByNumber(i))
            sel.cursor = cursor  # type: ignore[misc]
            sels.append(sel)
        self.diff.setExtraSelections(sels)

    # ----- restoring -----------------------------------------------------------------------

    def _ask(self) -> None:
        if self.selected is None:
            return
        self.confirm_text.setText(
            tr(
                "Save the version of {date} as the current text? The text now stays in the "
                "history, so you can come back to it.",
                date=when(self.selected),
            )
        )
        self.confirm.show()
        self.confirm_button.setFocus()

    def _confirmed(self) -> None:
        self.confirm.hide()
        if self.selected is not None and self.selected_text is not None:
            self.restoreRequested.emit(self.selected, self.selected_text)


def _why(exc: BaseException) -> str:
    um = getattr(exc, "user_message", None)
    if callable(um):
        try:
            return str(um("ko"))
        except Exception:
            pass
    return str(exc) or type(exc).__name__
