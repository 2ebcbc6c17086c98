"""기록 (history) of one document: every saved version — who saved it and when, and what it
did, never a file name or a commit hash —, the chosen version beside the text now in two
columns, and "이 버전으로 되돌리기".

    panel = HistoryPanel()
    await panel.load(DocHistory(client, store), "docs/01-intro.md", editor_text, title="소개")
    panel.restoreRequested.connect(lambda version, text: ...)   # the host saves, lock held

Loading and reading versions never block the UI (the versions list is one request per 100
versions, a version's text is read once, by sha). The comparison is a table of two columns
(``ui.kit.side_by_side``): the chosen version on the left, the text now on the right, both read
as the page editor shows them (a block by its name, fields by their labels, no Markdown marks),
changed lines coloured and changed letters in bold, unchanged stretches folded; 원문 보기 shows
the two original texts the same way. It wraps long lines, so it reads at 800 px. Narrow, the
versions sit above the comparison; wide, beside it. Restoring asks once more inside the panel
and then emits ``restoreRequested(Version, text)``: the host makes it a normal, lock-checked save
with ``core.history.restore_version`` and then calls ``load`` again. A version that is a change
of many pages (a replacement across pages, a picture's rename, or the undoing of one) offers to
undo that whole change as one (after a second click: ``undoChangeRequested(Version)``; the host
runs ``ui/publish/undo_change.undo_from_history``).
"""

from __future__ import annotations

import asyncio
import html
import time

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.documents.history import (
    DocHistory,
    SideRow,
    Version,
    changed_parts,
    describe,
    moment,
    side_by_side,
)
from modu_desktop.core.documents.naming import read_many_pages
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.operation import operations_for
from modu_desktop.ui.kit.side_by_side import ReadingRow, compare_readings, reading_html

NARROW = 700  # below this width the versions go above the comparison
_OLD_LINE, _OLD_PART = "#fde8e7", "#f6b9b5"
_NEW_LINE, _NEW_PART = "#e3f4e6", "#a9dcb3"
_GAP = "#f3f3f3"


def when(version: Version) -> str:
    """When the version was saved, as people say it ("오늘 14:03")."""
    return moment(version.date, time.time())()


def comparison_html(rows: list[SideRow], old_title: str, new_title: str) -> str:
    """The two columns as a rich-text table (what the panel shows; also a test's view)."""
    out = [
        '<table width="100%" cellspacing="0" cellpadding="4" style="border-collapse: collapse">',
        f'<tr><th width="50%" align="left">{html.escape(old_title)}</th>'
        f'<th width="50%" align="left">{html.escape(new_title)}</th></tr>',
    ]
    for row in rows:
        if row.kind == "skipped":
            out.append(
                f'<tr><td colspan="2" align="center" style="color: #777">'
                f"⋯ {html.escape(tr('{n} unchanged line(s)', n=row.skipped))} ⋯</td></tr>"
            )
            continue
        if row.kind == "same":
            cells = [(_line(row.old), ""), (_line(row.new), "")]
        elif row.kind == "changed":
            left, right = changed_parts(row.old or "", row.new or "")
            cells = [
                (_marked(row.old or "", left, _OLD_PART), _OLD_LINE),
                (_marked(row.new or "", right, _NEW_PART), _NEW_LINE),
            ]
        elif row.kind == "removed":
            cells = [(_line(row.old, bold=True), _OLD_LINE), ("", _GAP)]
        else:
            cells = [("", _GAP), (_line(row.new, bold=True), _NEW_LINE)]
        tds = "".join(
            f'<td width="50%" valign="top"{f" bgcolor={colour!r}" if colour else ""}>'
            f"{content or '&nbsp;'}</td>"
            for content, colour in cells
        )
        out.append(f"<tr>{tds}</tr>")
    out.append("</table>")
    return "".join(out)


def _line(text: str | None, *, bold: bool = False) -> str:
    if text is None:
        return ""
    shown = _keep_spaces(html.escape(text)) or "&nbsp;"
    return f"<b>{shown}</b>" if bold and text.strip() else shown


def _marked(text: str, parts: list[tuple[int, int]], colour: str) -> str:
    out, at = [], 0
    for start, end in parts:
        out.append(_keep_spaces(html.escape(text[at:start])))
        piece = _keep_spaces(html.escape(text[start:end])) or "&nbsp;"
        out.append(f'<span style="background-color: {colour}"><b>{piece}</b></span>')
        at = end
    out.append(_keep_spaces(html.escape(text[at:])))
    return "".join(out) or "&nbsp;"


def _keep_spaces(text: str) -> str:
    """Leading and repeated spaces stay visible (indentation means something in a brochure)."""
    stripped = text.lstrip(" ")
    text = "&nbsp;" * (len(text) - len(stripped)) + stripped
    return text.replace("  ", " &nbsp;")


class _VersionList(QListWidget):
    """A list whose labels wrap to its width (QListView's own word wrap keeps the height of
    the width the items were first laid out at, and cuts the label short after that)."""

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self.fit_labels()

    def fit_labels(self) -> None:
        width = max(40, self.viewport().width() - 2 * self.spacing() - 8)
        metrics = self.fontMetrics()
        flags = int(Qt.TextFlag.TextWordWrap)
        for i in range(self.count()):
            item = self.item(i)
            box = metrics.boundingRect(QRect(0, 0, width, 100000), flags, item.text())
            item.setSizeHint(QSize(width, box.height() + 6))


class HistoryPanel(QWidget):
    restoreRequested = Signal(object, str)  # Version, its text
    undoChangeRequested = Signal(object)  # Version: a change of many pages, undone as one

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyPanel")
        self.history: DocHistory | None = None
        self.path = ""
        self.current_text = ""
        self.versions: list[Version] = []
        self.selected: Version | None = None
        self.selected_text: str | None = None
        self.rows: list[ReadingRow] = []  # the two versions as they read
        self.raw_rows: list[SideRow] = []  # their original texts
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
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.setChildrenCollapsible(False)
        self.list = _VersionList()
        self.list.setObjectName("historyList")
        self.list.setAccessibleName(tr("Versions"))
        self.list.setWordWrap(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.list.setSpacing(3)
        self.list.setMinimumWidth(220)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.currentRowChanged.connect(self._row_changed)
        self.split.addWidget(self.list)
        self.split.addWidget(self._chosen_version())
        self.split.setStretchFactor(0, 1)
        self.split.setStretchFactor(1, 4)
        self.split.setSizes([220, 880])
        v.addWidget(self.split, 1)
        v.addWidget(self._undo_row())

    def _chosen_version(self) -> QWidget:
        """The chosen version beside the text now, and restoring it (after a second click)."""
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        self.diff_title = QLabel("")
        self.diff_title.setObjectName("historyDiffTitle")
        self.diff_title.setWordWrap(True)
        rv.addWidget(self.diff_title)
        self.diff = QTextBrowser()
        self.diff.setObjectName("historyDiff")
        self.diff.setOpenLinks(False)
        self.diff.setAccessibleName(tr("The chosen version beside the text now"))
        rv.addWidget(self.diff, 1)
        self.raw_toggle = QCheckBox(tr("Show the &original text (Markdown)"))
        self.raw_toggle.setObjectName("historyRawToggle")
        self.raw_toggle.toggled.connect(lambda _on: self._render())
        rv.addWidget(self.raw_toggle)
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
        return right

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        narrow = event.size().width() < NARROW
        wanted = Qt.Orientation.Vertical if narrow else Qt.Orientation.Horizontal
        if self.split.orientation() != wanted:
            self.split.setOrientation(wanted)
            self.list.setMaximumHeight(150 if narrow else 16777215)
        super().resizeEvent(event)

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
            tr("{n} version(s). Pick one to see it beside the text now.", n=len(versions))
        )
        now = time.time()
        for i, version in enumerate(versions):
            label = tr(
                "{when} · {who}\n{what}",
                when=moment(version.date, now)(),
                who=version.who,
                what=describe(version, versions, now)(),
            )
            if i == 0:
                label += "\n" + tr("(the latest)")
            item = QListWidgetItem(label)
            item.setToolTip(label)
            self.list.addItem(item)
        self.list.fit_labels()
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
        self.diff_title.setText(tr("Reading the version of {when}…", when=when(version)))
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
        self._show_undo(version)
        if version is None or text is None:
            self.rows, self.raw_rows = [], []
            self.diff.clear()
            self.restore_button.setEnabled(False)
            return
        self._show_diff(version, text)

    def _show_diff(self, version: Version, text: str) -> None:
        self.rows = compare_readings(text, self.current_text)
        self.raw_rows = side_by_side(text, self.current_text)
        if not self.raw_rows:
            self.diff_title.setText(
                tr("The version of {date} is the same as the text now.", date=when(version))
            )
            self.diff.clear()
            self.restore_button.setEnabled(False)
            return
        self.diff_title.setText(
            tr(
                "Left: the version {who} saved {when}. Right: the text now. Changed lines are "
                "coloured, changed letters bold.",
                when=when(version),
                who=version.who,
            )
        )
        self._render()
        self.restore_button.setEnabled(True)

    def _render(self) -> None:
        """The comparison as the pages read, or their original texts (원문 보기)."""
        if self.selected is None or not self.raw_rows:
            return
        old_title = tr("Version of {when}", when=when(self.selected))
        new_title = tr("The text now")
        if self.raw_toggle.isChecked():
            self.diff.setHtml(comparison_html(self.raw_rows, old_title, new_title))
        elif self.rows:
            self.diff.setHtml(reading_html(self.rows, old_title, new_title))
        else:
            self.diff.setHtml(
                html.escape(
                    tr(
                        "The two versions read the same; only the way the original text is "
                        "written differs."
                    )
                )
            )

    # ----- undoing a change of many pages ---------------------------------------------------

    def _undo_row(self) -> QFrame:
        """The row that undoes a whole change of many pages, with its second click."""
        self.undo_row = QFrame()
        self.undo_row.setObjectName("historyUndoChange")
        lay = QHBoxLayout(self.undo_row)
        lay.setContentsMargins(0, 0, 0, 0)
        self.undo_text = QLabel("")
        self.undo_text.setWordWrap(True)
        lay.addWidget(self.undo_text, 1)
        self.undo_button = QPushButton(tr("Undo this whole change"))
        self.undo_button.setObjectName("undoChangeButton")
        self.undo_button.clicked.connect(self._ask_undo)
        self.undo_confirm = QPushButton(tr("Undo it"))
        self.undo_confirm.setObjectName("confirmUndoChangeButton")
        self.undo_confirm.clicked.connect(self._undo_confirmed)
        self.undo_cancel = QPushButton(tr("Cancel"))
        self.undo_cancel.setObjectName("cancelUndoChangeButton")
        self.undo_cancel.clicked.connect(lambda: self._show_undo(self.selected))
        for button in (self.undo_button, self.undo_confirm, self.undo_cancel):
            button.setAutoDefault(False)
            lay.addWidget(button)
        self.undo_row.hide()
        return self.undo_row

    def _show_undo(self, version: Version | None) -> None:
        """Offer to undo the whole change when the chosen version is a change of many pages."""
        many = read_many_pages(version.message) if version is not None else None
        self.undo_row.setVisible(many is not None and version is not None)
        if many is None or version is None:
            return
        self.undo_text.setText(
            tr("This version is one change: {what}.", what=describe(version, self.versions)())
        )
        self.undo_button.show()
        self.undo_confirm.hide()
        self.undo_cancel.hide()

    def _ask_undo(self) -> None:
        if self.selected is None:
            return
        self.undo_text.setText(
            tr(
                "Undo “{what}” on every page in one save? A page changed since, or one "
                "someone is editing now, stays as it is.",
                what=describe(self.selected, self.versions)(),
            )
        )
        self.undo_button.hide()
        self.undo_confirm.show()
        self.undo_cancel.show()
        self.undo_confirm.setFocus()

    def _undo_confirmed(self) -> None:
        version = self.selected
        self._show_undo(version)
        if version is not None:
            self.undoChangeRequested.emit(version)

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
