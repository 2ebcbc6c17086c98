"""Document list: title, file, position, lock badge; site order; filter; loading/errors in place."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QColor, QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.ui.locks.lock_dialog import format_when

NARROW_LIST_PX = 360


@dataclass(frozen=True)
class LockBadge:
    holder: str  # login, or "unknown" for an unreadable lock
    started_at: float | None
    last_heartbeat: float | None
    stale: bool
    mine: bool  # this window holds it
    same_user_elsewhere: bool = False
    malformed: bool = False


@dataclass(frozen=True)
class DocRow:
    doc_id: str
    path: str
    title: str
    position: int | None
    lock: LockBadge | None = None


def site_order_key(row: DocRow) -> tuple[int, float, str]:
    """The site's order: sidebar_position ascending, missing last, then by file name."""
    return (row.position is None, row.position if row.position is not None else 0, row.path)


def badge_text(b: LockBadge | None, now: float, *, long: bool = False) -> str:
    """Short badge for the list column; ``long`` = the full sentence for the tooltip."""
    if b is None:
        return ""
    if b.mine:
        return QCoreApplication.translate("DocList", "You (this window)")
    if b.malformed:
        return QCoreApplication.translate("DocList", "⚠ unreadable lock")
    if long:
        since = format_when(b.started_at, now)
        beat = format_when(b.last_heartbeat, now)
        if b.stale:
            return QCoreApplication.translate(
                "DocList", "{who} started at {since}; no sign of life since {beat} (inactive)."
            ).format(who=b.holder, since=since, beat=beat)
        return QCoreApplication.translate(
            "DocList", "{who} is editing since {since}; last sign of life {beat}."
        ).format(who=b.holder, since=since, beat=beat)
    since_short = format_when(b.started_at, now).split(" (")[0]
    if b.stale:
        return QCoreApplication.translate("DocList", "{who} · inactive").format(who=b.holder)
    if b.same_user_elsewhere:
        return QCoreApplication.translate("DocList", "You, elsewhere · {since}").format(
            since=since_short
        )
    return QCoreApplication.translate("DocList", "{who} · {since}").format(
        who=b.holder, since=since_short
    )


class DocListPanel(QWidget):
    openRequested = Signal(str)
    refreshRequested = Signal()

    COL_POS, COL_TITLE, COL_FILE, COL_LOCK = range(4)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("docListPanel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)

        top = QHBoxLayout()
        self.filter_label = QLabel(self.tr("&Filter:"))
        self.filter_edit = QLineEdit()
        self.filter_edit.setObjectName("docFilter")
        self.filter_edit.setPlaceholderText(self.tr("Type to filter by title or file"))
        self.filter_edit.setAccessibleName(self.tr("Filter documents"))
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_label.setBuddy(self.filter_edit)
        self.refresh_button = QPushButton(self.tr("Refresh"))
        self.refresh_button.setObjectName("refreshButton")
        self.refresh_button.setAccessibleName(self.tr("Refresh the document list"))
        self.refresh_button.setToolTip(self.tr("Refresh (F5)"))
        top.addWidget(self.filter_label)
        top.addWidget(self.filter_edit, 1)
        top.addWidget(self.refresh_button)
        lay.addLayout(top)

        self.tree = QTreeWidget()
        self.tree.setObjectName("docList")
        self.tree.setAccessibleName(self.tr("Documents"))
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setHeaderLabels(
            [self.tr("#"), self.tr("Title"), self.tr("File"), self.tr("Editing")]
        )
        header = self.tree.header()
        header.setSectionResizeMode(self.COL_POS, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(self.COL_TITLE, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(self.COL_FILE, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(self.COL_LOCK, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        lay.addWidget(self.tree, 1)

        self.status = QLabel("")
        self.status.setObjectName("docListStatus")
        self.status.setWordWrap(True)
        self.status.setAccessibleName(self.tr("Document list status"))
        lay.addWidget(self.status)

        self.open_button = QPushButton(self.tr("&Open"))
        self.open_button.setObjectName("openButton")
        self.open_button.setAccessibleName(self.tr("Open the selected document"))
        self.open_button.setEnabled(False)
        lay.addWidget(self.open_button)

        self.rows: list[DocRow] = []
        self._server_rows: list[DocRow] = []  # as the last listing said
        self._held: str | None = None  # the document whose lock this window holds
        self._held_badge: LockBadge | None = None
        self._lost: dict[str, LockBadge | None] = {}  # what we learnt before the next listing
        self._lost_seen: set[tuple[str, LockBadge | None]] = set()
        self._now = 0.0
        self.filter_edit.textChanged.connect(self._apply_filter)
        self.filter_edit.returnPressed.connect(self._focus_first_visible)
        self.refresh_button.clicked.connect(self.refreshRequested)
        self.tree.itemActivated.connect(lambda item, _c: self._request_open(item))
        self.tree.itemSelectionChanged.connect(
            lambda: self.open_button.setEnabled(self.selected_doc_id() is not None)
        )
        self.open_button.clicked.connect(lambda: self._request_open(self.tree.currentItem()))
        enter = QShortcut(QKeySequence(Qt.Key.Key_Return), self.tree)
        enter.setContext(Qt.ShortcutContext.WidgetShortcut)
        enter.activated.connect(lambda: self._request_open(self.tree.currentItem()))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        # In a narrow list the titles matter more than the file names (still in the tooltip
        # and above the editor): hide the file column rather than cut every title to "…".
        self.tree.setColumnHidden(self.COL_FILE, self.width() < NARROW_LIST_PX)

    # --- state ---
    def set_loading(self, loading: bool) -> None:
        if loading:
            self.status.setText(self.tr("Loading the document list…"))
            self.status.setProperty("kind", "info")
        self.refresh_button.setEnabled(not loading)
        self._repolish()

    def set_error(self, message: str) -> None:
        self.status.setText(self.tr("Could not refresh the list: {msg}").format(msg=message))
        self.status.setProperty("kind", "error")
        self._repolish()

    def set_info(self, message: str) -> None:
        self.status.setText(message)
        self.status.setProperty("kind", "info")
        self._repolish()

    def _repolish(self) -> None:
        st = self.status.style()
        st.unpolish(self.status)
        st.polish(self.status)

    def set_own_lock(
        self,
        doc_id: str | None,
        *,
        started_at: float | None = None,
        lost: tuple[str, LockBadge | None] | None = None,
    ) -> None:
        """What this window itself holds, shown at once (not at the next listing): the lock of
        ``doc_id`` (None = none), and ``lost`` = (doc, what holds it now) after losing one."""
        fresh_loss = lost is not None and lost not in self._lost_seen
        if lost is not None and fresh_loss:
            self._lost_seen.add(lost)  # told once; later listings are the truth
            self._lost[lost[0]] = lost[1]
        badge = None
        if doc_id is not None:
            start = started_at if started_at is not None else self._now
            badge = LockBadge(
                holder="", started_at=start, last_heartbeat=start, stale=False, mine=True
            )
        if doc_id == self._held and badge == self._held_badge and not fresh_loss:
            return
        self._held, self._held_badge = doc_id, badge
        self._render(self._server_rows, self._now)

    def _own_view(self, r: DocRow) -> DocRow:
        """A listed row corrected by what this window knows better than a listing that may
        have started before our own open, close, take-over or recovery."""
        lock = r.lock
        if r.doc_id == self._held:
            # Ours, whatever a listing that started earlier says (no lock yet, the holder we
            # took over from, the crashed session's id before our first heartbeat). Should
            # someone take it from us, the heartbeat finds out at once and reports the loss.
            if lock is None or not lock.mine:
                lock = self._held_badge
        elif r.doc_id in self._lost:
            lock = self._lost[r.doc_id]
        elif lock is not None and lock.mine:
            lock = None  # this session's lock on a document we no longer hold: released
        return r if lock is r.lock else DocRow(r.doc_id, r.path, r.title, r.position, lock)

    def set_rows(self, rows: list[DocRow], now: float) -> None:
        self._server_rows = list(rows)
        self._lost.clear()  # the listing knows now
        self._render(rows, now)

    def _render(self, rows: list[DocRow], now: float) -> None:
        selected = self.selected_doc_id()
        self.rows = sorted((self._own_view(r) for r in rows), key=site_order_key)
        self._now = now
        self.tree.setUpdatesEnabled(False)
        self.tree.clear()
        for r in self.rows:
            item = QTreeWidgetItem(
                [
                    "" if r.position is None else str(r.position),
                    r.title or r.doc_id,
                    r.path.removeprefix("docs/"),
                    badge_text(r.lock, now),
                ]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, r.doc_id)
            item.setTextAlignment(
                self.COL_POS, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            )
            if r.lock is not None:
                color = QColor("#8a5a00") if r.lock.stale else QColor("#b3261e")
                if r.lock.mine:
                    color = QColor("#1a7f37")
                item.setForeground(self.COL_LOCK, color)
                item.setToolTip(self.COL_LOCK, badge_text(r.lock, now, long=True))
            item.setToolTip(self.COL_TITLE, f"{r.title or r.doc_id}\n{r.path}")
            self.tree.addTopLevelItem(item)
            if r.doc_id == selected:
                item.setSelected(True)
                self.tree.setCurrentItem(item)
        self.tree.setUpdatesEnabled(True)
        self._apply_filter(self.filter_edit.text())
        self.set_info(self.tr("%n document(s)", "", len(self.rows)))

    def doc_ids(self) -> list[str]:
        return [r.doc_id for r in self.rows]

    def row(self, doc_id: str) -> DocRow | None:
        return next((r for r in self.rows if r.doc_id == doc_id), None)

    def selected_doc_id(self) -> str | None:
        item = self.tree.currentItem()
        if item is None or not item.isSelected():
            return None
        v = item.data(0, Qt.ItemDataRole.UserRole)
        return str(v) if v else None

    def select(self, doc_id: str) -> None:
        for it in self._items():
            if it.data(0, Qt.ItemDataRole.UserRole) == doc_id:
                self.tree.setCurrentItem(it)
                it.setSelected(True)
                return

    def visible_doc_ids(self) -> list[str]:
        out = []
        for it in self._items():
            if not it.isHidden():
                out.append(str(it.data(0, Qt.ItemDataRole.UserRole)))
        return out

    def _apply_filter(self, text: str) -> None:
        needle = text.strip().casefold()
        for it in self._items():
            hay = " ".join(it.text(c) for c in range(3)).casefold()
            it.setHidden(bool(needle) and needle not in hay)

    def _focus_first_visible(self) -> None:
        for it in self._items():
            if not it.isHidden():
                self.tree.setCurrentItem(it)
                it.setSelected(True)
                self.tree.setFocus()
                return

    def _items(self) -> list[QTreeWidgetItem]:
        out = []
        for i in range(self.tree.topLevelItemCount()):
            it = self.tree.topLevelItem(i)
            if it is not None:
                out.append(it)
        return out

    def _request_open(self, item: QTreeWidgetItem | None) -> None:
        if item is None:
            return
        v = item.data(0, Qt.ItemDataRole.UserRole)
        if v:
            self.openRequested.emit(str(v))
