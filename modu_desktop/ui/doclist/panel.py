"""Document list: title, file, position, lock badge; site order; filter; loading/errors in place.

Model/view: `DocListModel` (a `QAbstractTableModel` over `DocRow`s), shown in a
`QTableView`. Only the visible cells are ever asked for, so 10,000 documents list in a few
milliseconds. The model filters itself: a keystroke matches every row's pre-folded text in one
Python pass and resets the model to the matching rows. (A `QSortFilterProxyModel` asked Python's
`filterAcceptsRow` once per row and then removed the hidden rows range by range: 6–12 ms a
keystroke at 10,000 rows before any paint, against ~1 ms for the pass and the reset.)

A list shown from the last run's snapshot is *being checked* (`set_rows(…, checking=True)`):
muted, marked "확인 중" in the status line, and an open asked for meanwhile waits for the fresh
list (it never opens from a stale row; a document that is gone by then is reported, not opened).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QRectF,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QKeySequence,
    QPainter,
    QPixmap,
    QResizeEvent,
    QShortcut,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.i18n import tr
from modu_desktop.ui.kit.shortcuts import keys_text

DOC_ID_ROLE = Qt.ItemDataRole.UserRole
NARROW_LIST_PX = 360
_Index = QModelIndex | QPersistentModelIndex


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
    unpublished: bool = False  # draft: true: the site leaves the page out until it is published


def site_order_key(row: DocRow) -> tuple[int, float, str]:
    """The site's order: sidebar_position ascending, missing last, then by file name."""
    return (row.position is None, row.position if row.position is not None else 0, row.path)


def badge_text(b: LockBadge | None, now: float, *, long: bool = False) -> str:
    """Short badge for the list column; ``long`` = the full sentence for the tooltip (both from
    ``core.lockwords``)."""
    if b is None:
        return ""
    from modu_desktop.core.locks import words

    state = words.State.OTHER
    if b.mine:
        state = words.State.MINE_HERE
    elif b.malformed:
        state = words.State.UNREADABLE
    elif b.stale:
        state = words.State.STALE
    elif b.same_user_elsewhere:
        state = words.State.MINE_ELSEWHERE
    h = words.Holding(b.holder, b.started_at, b.last_heartbeat, now, state)
    return (words.tooltip(h) if long else words.badge(h))()


def lock_badges(views: list[Any]) -> dict[str, LockBadge]:
    """``core.locks.LockView``s → the list's badges (free documents have none)."""
    from modu_desktop.core.locks.model import LockStatus

    out: dict[str, LockBadge] = {}
    for v in views:
        if v.status is LockStatus.FREE:
            continue
        rec = v.record
        holder = v.holder or "?"
        if rec is not None and rec.malformed and rec.claimed_by:
            holder = rec.claimed_by
        out[v.doc_id] = LockBadge(
            holder=holder,
            started_at=v.started_at,
            last_heartbeat=v.last_heartbeat,
            stale=v.status is LockStatus.STALE,
            mine=v.status is LockStatus.MINE_THIS_SESSION,
            same_user_elsewhere=v.status is LockStatus.MINE_OTHER_SESSION,
            malformed=v.status is LockStatus.MALFORMED,
        )
    return out


def rows_from_snapshot(snap: Any, views: list[Any]) -> list[DocRow]:
    """A ``core.documents.RepoSnapshot`` and its lock views → the list's rows."""
    badges = lock_badges(views)
    return [
        DocRow(
            doc_id=d.doc_id,
            path=d.path,
            title=d.title or d.nav_label or d.doc_id,
            position=d.position if isinstance(d.position, int) else None,
            lock=badges.get(d.doc_id),
            unpublished=bool(getattr(d, "draft", False)),
        )
        for d in snap.docs
    ]


def unpublished_pill() -> QPixmap:
    """The "게시 안 됨" mark drawn before an unpublished page's title (words, not an icon:
    it must read at a glance; drawn once per language)."""
    text = tr("Not published")
    cached = _PILLS.get(text)
    if cached is not None:
        return cached
    font = QFont(QApplication.font())
    font.setPointSizeF(max(7.5, font.pointSizeF() * 0.9))
    metrics = QFontMetrics(font)
    ratio = 2.0
    w, h = metrics.horizontalAdvance(text) + 12, metrics.height() + 2
    pix = QPixmap(int(w * ratio), int(h * ratio))
    pix.setDevicePixelRatio(ratio)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(QColor("#e0b25c"))
    p.setBrush(QColor("#fff3d6"))
    p.drawRoundedRect(QRectF(0.5, 0.5, w - 1, h - 1), h / 2, h / 2)
    p.setFont(font)
    p.setPen(_STALE_LOCK)
    p.drawText(QRectF(0, 0, w, h), int(Qt.AlignmentFlag.AlignCenter), text)
    p.end()
    _PILLS[text] = pix
    return pix


_PILLS: dict[str, QPixmap] = {}


_MUTED = QColor("#6b6b6b")
_STALE_LOCK = QColor("#8a5a00")
_HELD_LOCK = QColor("#b3261e")
_MINE = QColor("#1a7f37")
_STOPS_SITE = QColor("#b3261e")


class DocListModel(QAbstractTableModel):
    """The rows in site order, and the ones the filter shows; cells are computed when the view
    asks for them. View rows are the filtered rows (`shown`), source rows are `rows`."""

    COLUMNS = 4

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[DocRow] = []
        self.now = 0.0
        self.checking = False
        self.needle = ""
        self._shown: list[DocRow] = []  # the rows the filter lets through, in site order
        self._hay: list[str] | None = None
        self._index: dict[str, int] = {}  # doc id → position in `rows`
        self._view_index: dict[str, int] | None = None  # doc id → position in `_shown`
        self._headers = ["#", "Title", "File", "Editing"]
        self.marks: dict[str, str] = {}  # doc id → why its title is marked (it stops the site)
        # A narrow list shows only the title column, in two lines: the title, then its place
        # (number, file, who is editing), which tells identical titles apart.
        self.compact = False

    def set_headers(self, labels: list[str]) -> None:
        self._headers = labels
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.COLUMNS - 1)

    def load(self, rows: list[DocRow], now: float, checking: bool) -> None:
        """Replace the rows, keeping the filter (one reset)."""
        self.beginResetModel()
        self.rows = rows
        self.now = now
        self.checking = checking
        self._hay = None
        self._index = {r.doc_id: i for i, r in enumerate(rows)}
        self.haystacks()  # folded with the listing, so the next keystroke only matches
        self._match()
        self.endResetModel()

    def set_now(self, now: float) -> None:
        """Time moved on: the lock badges ("방금", "3분 전") are told again."""
        self.now = now
        if self._shown:
            last = self.index(len(self._shown) - 1, self.COLUMNS - 1)
            self.dataChanged.emit(self.index(0, self.COLUMNS - 1), last)

    def set_marks(self, marks: dict[str, str]) -> None:
        if marks == self.marks:
            return
        self.marks = dict(marks)
        if self._shown:
            self.dataChanged.emit(self.index(0, 1), self.index(len(self._shown) - 1, 1))

    def set_needle(self, text: str) -> bool:
        """Filter by `text` (case-folded, trimmed); False when that changes nothing."""
        needle = text.strip().casefold()
        if needle == self.needle:
            return False
        self.beginResetModel()
        self.needle = needle
        self._match()
        self.endResetModel()
        return True

    def _match(self) -> None:
        needle, rows = self.needle, self.rows
        self._shown = (
            [rows[i] for i, h in enumerate(self.haystacks()) if needle in h] if needle else rows
        )
        self._view_index = None

    def position_of(self, doc_id: str) -> int | None:
        """Where `doc_id` is among all rows (filtered or not)."""
        return self._index.get(doc_id)

    def view_row_of(self, doc_id: str) -> int | None:
        """Where `doc_id` is shown, or None when the filter hides it (or it is not listed)."""
        if self._shown is self.rows:
            return self._index.get(doc_id)
        if self._view_index is None:
            self._view_index = {r.doc_id: i for i, r in enumerate(self._shown)}
        return self._view_index.get(doc_id)

    def shown(self) -> list[DocRow]:
        return self._shown

    def haystacks(self) -> list[str]:
        """Every row's searchable text (position, title, file), folded once per listing."""
        if self._hay is None:
            hidden = {False: "", True: " " + tr("Not published")}  # "게시 안 됨" finds them
            self._hay = [
                f"{'' if r.position is None else r.position} {r.title or r.doc_id} "
                f"{r.path.removeprefix('docs/')}{hidden[r.unpublished]}".casefold()
                for r in self.rows
            ]
        return self._hay

    # -- QAbstractTableModel --
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt API
        return 0 if parent.isValid() else len(self._shown)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt API
        return 0 if parent.isValid() else self.COLUMNS

    def headerData(  # noqa: N802 - Qt API
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._headers[section] if 0 <= section < len(self._headers) else None
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Called for every role of every visible cell on each paint: unserved roles leave first.
        if role not in _SERVED:
            return None
        return self.cell(self._shown[index.row()], index.column(), role)

    def place(self, r: DocRow) -> str:
        """The second line of a compact row: number, file, lock badge."""
        parts = [] if r.position is None else [f"{r.position}."]
        parts.append(r.path.removeprefix("docs/"))
        line = " ".join(parts)
        if r.lock is not None:
            line += " · " + badge_text(r.lock, self.now)
        return line

    def set_compact(self, compact: bool) -> None:
        if compact != self.compact:
            self.beginResetModel()
            self.compact = compact
            self.endResetModel()

    def cell(self, r: DocRow, col: int, role: int) -> Any:
        """What the view shows for row `r`, column `col`, in `role`."""
        if role == _DISPLAY:
            if col == 1:
                title = r.title or r.doc_id
                title = f"✖ {title}" if r.doc_id in self.marks else title
                return f"{title}\n{self.place(r)}" if self.compact else title
            if col == 0:
                return "" if r.position is None else str(r.position)
            if col == 2:
                return r.path.removeprefix("docs/")
            return badge_text(r.lock, self.now) if r.lock is not None else ""
        if role == _FOREGROUND:
            if col == 1 and r.doc_id in self.marks:
                return _STOPS_SITE
            if col == 3 and r.lock is not None:
                if r.lock.mine:
                    return _MINE
                return _STALE_LOCK if r.lock.stale else _HELD_LOCK
            return _MUTED if self.checking else None
        if role == _DOC_ID:
            return r.doc_id
        if role == _DECORATION:
            return unpublished_pill() if col == 1 and r.unpublished else None
        if role == _ACCESSIBLE and col == 1 and r.unpublished:
            return tr("{title}, not published", title=r.title or r.doc_id)
        if role == _TOOLTIP:
            if col == 3 and r.lock is not None:
                return badge_text(r.lock, self.now, long=True)
            if col == 1:
                lines = [r.title or r.doc_id]
                if r.doc_id in self.marks:
                    lines.append(self.marks[r.doc_id])
                if r.unpublished:
                    lines.append(tr("Not published: the site does not show this page yet."))
                return "\n".join(lines)
            return None
        if role == _ALIGN and col == 0:
            return _RIGHT
        return None


_DISPLAY = int(Qt.ItemDataRole.DisplayRole.value)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole.value)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole.value)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole.value)
_DOC_ID = int(DOC_ID_ROLE.value)
_DECORATION = int(Qt.ItemDataRole.DecorationRole.value)
_ACCESSIBLE = int(Qt.ItemDataRole.AccessibleTextRole.value)
_SERVED = frozenset({_DISPLAY, _FOREGROUND, _TOOLTIP, _ALIGN, _DOC_ID, _DECORATION, _ACCESSIBLE})
_RIGHT = int((Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter).value)


class _RowItem:
    def __init__(self, model: DocListModel, row: DocRow) -> None:
        self._model, self._row = model, row

    def data(self, column: int, role: int) -> Any:
        return self._model.cell(self._row, column, int(role))

    def text(self, column: int) -> str:
        return str(self.data(column, _DISPLAY) or "")


class DocListPanel(QWidget):
    openRequested = Signal(str)
    refreshRequested = Signal()
    listed = Signal()  # a fresh listing is shown (not the last run's being checked)

    COL_POS, COL_TITLE, COL_FILE, COL_LOCK = range(4)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("docListPanel")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        # the list is one page; the search of every page another (ui/doclist/modes.py)
        self.pages = QStackedWidget()
        self.pages.setObjectName("docListPages")
        self.list_page = QWidget()
        self.pages.addWidget(self.list_page)
        outer.addWidget(self.pages, 1)
        lay = QVBoxLayout(self.list_page)
        lay.setContentsMargins(4, 4, 4, 4)

        top = QHBoxLayout()
        self.filter_label = QLabel(tr("F&ilter:"))
        self.filter_edit = QLineEdit()
        self.filter_edit.setObjectName("docFilter")
        self.filter_edit.setPlaceholderText(tr("Type to filter by title or file"))
        self.filter_edit.setAccessibleName(tr("Filter documents"))
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_label.setBuddy(self.filter_edit)
        self.refresh_button = QPushButton(tr("Refresh"))
        self.refresh_button.setObjectName("refreshButton")
        self.refresh_button.setAccessibleName(tr("Refresh the document list"))
        self.refresh_button.setToolTip(tr("Refresh ({keys})", keys=keys_text("refresh")))
        top.addWidget(self.filter_label)
        top.addWidget(self.filter_edit, 1)
        top.addWidget(self.refresh_button)
        lay.addLayout(top)

        self.model = DocListModel(self)
        self.model.set_headers([tr("#"), tr("Title"), tr("File"), tr("Editing")])
        self.tree = self._table()  # the name the window and its shortcuts use
        lay.addWidget(self.tree, 1)

        self.status = QLabel("")
        self.status.setObjectName("docListStatus")
        self.status.setWordWrap(True)
        self.status.setAccessibleName(tr("Document list status"))
        lay.addWidget(self.status)

        self.open_button = QPushButton(tr("&Open"))
        self.open_button.setObjectName("openButton")
        self.open_button.setAccessibleName(tr("Open the selected document"))
        self.open_button.setEnabled(False)
        self.tools = QHBoxLayout()  # Open, and what the window adds beside it (add_tool)
        self.tools.addWidget(self.open_button, 1)
        lay.addLayout(self.tools)

        self.pending_open: str | None = None  # asked for while the list was being checked
        self._counting = False  # the status line says how many documents are shown
        self._columns_partial = False  # the columns were last measured on a filtered list
        self._server_rows: list[DocRow] = []  # as the last listing said
        self._held: str | None = None  # the document whose lock this window holds
        self._held_badge: LockBadge | None = None
        self._lost: dict[str, LockBadge | None] = {}  # what we learnt before the next listing
        self._lost_seen: set[tuple[str, LockBadge | None]] = set()
        self._connect()

    def _table(self) -> QTableView:
        """The documents, one row each: position, title, file, who edits it."""
        table = QTableView()
        table.setObjectName("docList")
        table.setAccessibleName(tr("Documents"))
        table.setModel(self.model)
        table.setShowGrid(False)
        table.setWordWrap(False)
        table.setAlternatingRowColors(True)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setTabKeyNavigation(False)
        table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        vh = table.verticalHeader()
        vh.hide()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(table.fontMetrics().lineSpacing() + 8)
        header = table.horizontalHeader()
        header.setHighlightSections(False)
        header.setAccessibleName(tr("Document list columns"))
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        # A column sized to its contents looks at no more than this many rows (0 would mean
        # "the visible ones", which is every row while the window is not shown yet).
        header.setResizeContentsPrecision(64)
        # Sized to their contents once per listing (`set_rows`), not on every paint: a
        # ResizeToContents column asks every visible cell for its size at each filter keystroke.
        for col in (self.COL_POS, self.COL_FILE, self.COL_LOCK):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(self.COL_TITLE, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        return table

    def _connect(self) -> None:
        self.filter_edit.textChanged.connect(self._apply_filter)
        self.filter_edit.returnPressed.connect(self._focus_first_visible)
        self.refresh_button.clicked.connect(self.refreshRequested)
        self.tree.activated.connect(self._request_open_index)
        self.tree.doubleClicked.connect(self._request_open_index)
        sel = self.tree.selectionModel()
        sel.selectionChanged.connect(
            lambda *_a: self.open_button.setEnabled(self.selected_doc_id() is not None)
        )
        self.open_button.clicked.connect(lambda: self._request_open(self.selected_doc_id()))
        enter = QShortcut(QKeySequence(Qt.Key.Key_Return), self.tree)
        enter.setContext(Qt.ShortcutContext.WidgetShortcut)
        enter.activated.connect(lambda: self._request_open(self._current_doc_id()))

    def add_tool(self, button: QWidget) -> None:
        """A button of the window's beside Open (그림 모음)."""
        self.tools.addWidget(button)

    def add_list_bar(self, bar: QWidget) -> None:
        """A bar of the window's under the list, above Open (메뉴 순서: ▲ ▼). It acts on the
        list's rows, so it is part of the list page: the search of every page hides it."""
        lay = self.list_page.layout()
        assert isinstance(lay, QVBoxLayout)
        lay.insertWidget(lay.indexOf(self.tools), bar)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        # A narrow list shows the titles in full width, each with its place on a second line
        # (number, file, who edits it), rather than four columns cutting every title to "…".
        self.set_compact(self.width() < NARROW_LIST_PX)

    def show_list_page(self) -> None:
        """The list itself in front (not the search of every page beside it)."""
        self.pages.setCurrentWidget(self.list_page)

    def set_compact(self, compact: bool) -> None:
        selected = self.selected_doc_id()
        self.model.set_compact(compact)
        for col in (self.COL_POS, self.COL_FILE, self.COL_LOCK):
            self.tree.setColumnHidden(col, compact)
        self.tree.horizontalHeader().setVisible(not compact)
        self._row_height()
        if selected is not None:
            self.select(selected, scroll=False)

    def _row_height(self) -> None:
        lines = 2 if self.model.compact else 1
        self.tree.verticalHeader().setDefaultSectionSize(
            self.tree.fontMetrics().lineSpacing() * lines + 8
        )

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._row_height()  # the text size changed (View → Bigger text)
            self._size_columns()

    # --- state ---
    @property
    def rows(self) -> list[DocRow]:
        return self.model.rows

    @property
    def checking(self) -> bool:
        """The rows come from the last run and a fresh list has not confirmed them yet."""
        return self.model.checking

    def set_loading(self, loading: bool) -> None:
        if loading:
            self._counting = False
            self.status.setText(tr("Loading the document list…"))
            self.status.setProperty("kind", "info")
        self.refresh_button.setEnabled(not loading)
        self._repolish()

    def set_error(self, message: str) -> None:
        self._counting = False
        self.status.setText(tr("Could not refresh the list: {msg}", msg=message))
        self.status.setProperty("kind", "error")
        if self.pending_open is not None:
            self.pending_open = None  # never open minutes later, after a retry
        self._repolish()

    def set_info(self, message: str) -> None:
        self._counting = False  # the count is said again by show_count
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
            start = started_at if started_at is not None else self.model.now
            badge = LockBadge(
                holder="", started_at=start, last_heartbeat=start, stale=False, mine=True
            )
        if doc_id == self._held and badge == self._held_badge and not fresh_loss:
            return
        self._held, self._held_badge = doc_id, badge
        self._render(self._server_rows, self.model.now, self.model.checking)

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
        return r if lock is r.lock else replace(r, lock=lock)

    def set_rows(self, rows: list[DocRow], now: float, *, checking: bool = False) -> None:
        """Show `rows` in site order. `checking`: they are the last run's, not confirmed yet."""
        self._server_rows = list(rows)
        self._lost.clear()  # the listing knows now
        waiting = self.row(self.pending_open) if self.pending_open is not None else None
        self._render(rows, now, checking)
        self.tree.setProperty("checking", checking)
        self.show_count()
        if checking:
            return
        self.listed.emit()
        pending, self.pending_open = self.pending_open, None
        if pending is not None:
            if self.model.position_of(pending) is None:
                gone = waiting.title if waiting is not None and waiting.title else pending
                self.set_info(tr("“{doc}” is no longer in the list.", doc=gone))
            else:
                self.openRequested.emit(pending)

    def _render(self, rows: list[DocRow], now: float, checking: bool) -> int:
        selected = self.selected_doc_id()
        own = (
            (self._held is not None)
            or bool(self._lost)
            or any(r.lock is not None and r.lock.mine for r in rows)
        )
        views = [self._own_view(r) for r in rows] if own else rows
        ordered = sorted(views, key=site_order_key)
        self.model.load(ordered, now, checking)
        self._size_columns()
        if selected is not None:
            self.select(selected, scroll=False)
        return len(ordered)

    def _size_columns(self) -> None:
        """The number, file and editing columns fit the rows shown. Under a filter that shows
        some rows or none, they are measured again once the filter is cleared."""
        self._columns_partial = bool(self.filter_edit.text()) or self.model.rowCount() == 0
        if self.model.rowCount() == 0:
            return  # nothing to measure: the widths stay as they were
        for col in (self.COL_POS, self.COL_FILE, self.COL_LOCK):
            self.tree.resizeColumnToContents(col)

    def set_now(self, now: float) -> None:
        self.model.set_now(now)

    def set_publish_marks(self, marks: dict[str, str]) -> None:
        """Mark the titles of the documents the site cannot be built with (doc id → why)."""
        self.model.set_marks(marks)

    def doc_ids(self) -> list[str]:
        return [r.doc_id for r in self.model.rows]

    def row(self, doc_id: str) -> DocRow | None:
        i = self.model.position_of(doc_id)
        return None if i is None else self.model.rows[i]

    def selected_doc_id(self) -> str | None:
        sel = self.tree.selectionModel()
        picked = sel.selectedRows()
        if not picked:
            return None
        v = picked[0].data(DOC_ID_ROLE)
        return str(v) if v else None

    def _current_doc_id(self) -> str | None:
        cur = self.tree.currentIndex()
        if not cur.isValid() or not self.tree.selectionModel().isRowSelected(cur.row()):
            return None
        v = cur.data(DOC_ID_ROLE)
        return str(v) if v else None

    def select(self, doc_id: str, *, scroll: bool = True) -> None:
        i = self.model.view_row_of(doc_id)
        if i is None:
            return  # not listed, or filtered out
        index = self.model.index(i, 0)
        flags = (
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows
        )
        self.tree.selectionModel().setCurrentIndex(index, flags)
        if scroll:
            self.tree.scrollTo(index)

    def visible_doc_ids(self) -> list[str]:
        return [r.doc_id for r in self.model.shown()]

    def _apply_filter(self, text: str) -> None:
        selected = self.selected_doc_id()
        if self.model.set_needle(text) and selected is not None:
            self.select(selected)  # the reset dropped it; kept when it still matches
        if not text and self._columns_partial:
            self._size_columns()  # once, when every row shows again (not at each keystroke)
        if self._counting:
            self.show_count()

    def show_count(self) -> None:
        """The status line says how many documents the list shows: all of them, some of them
        under the filter, or none (never the whole count over an empty list)."""
        total, shown = len(self.model.rows), self.model.rowCount()
        needle = self.filter_edit.text().strip()
        if not needle and self.model.checking:
            text = tr("Checking for changes… (the list from last time, {n} documents)", n=total)
        elif not needle:
            text = tr("{n} document(s)", n=total)
        elif shown:
            text = tr("{shown} of {n} document(s)", shown=shown, n=total)
        else:
            text = tr(
                "No title or file name has “{text}” ({n} document(s) in all).",
                text=needle,
                n=total,
            )
        self.set_info(text)
        if self.model.checking:
            self.status.setProperty("kind", "checking")
            self._repolish()
        self._counting = True

    def _focus_first_visible(self) -> None:
        if self.model.rowCount() == 0:
            return
        first = self.model.index(0, 0)
        flags = (
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows
        )
        self.tree.selectionModel().setCurrentIndex(first, flags)
        self.tree.setFocus()

    def _items(self) -> list[_RowItem]:
        """Every row (filtered or not) as a read-only item: `data(column, role)`, `text(column)`
        (what the tests written for the `QTreeWidget` list read)."""
        m = self.model
        return [_RowItem(m, r) for r in m.rows]

    def _request_open_index(self, index: QModelIndex) -> None:
        if index.isValid():
            self._request_open(index.data(DOC_ID_ROLE))

    def _request_open(self, doc_id: Any) -> None:
        if not doc_id:
            return
        doc_id = str(doc_id)
        if self.model.checking:
            # A row of the last run's list: open once the fresh list has confirmed it.
            self.pending_open = doc_id
            label = r.title if (r := self.row(doc_id)) is not None and r.title else doc_id
            self.set_info(tr("Opening “{doc}” as soon as the list is checked…", doc=label))
            self.status.setProperty("kind", "checking")
            self._repolish()
            return
        self.openRequested.emit(doc_id)
