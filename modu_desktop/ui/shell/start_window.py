"""The first paint: the last run's document list, shown before the HTTP stack, the
event-loop glue and the editor are even imported, marked "확인 중" until GitHub confirms it.

`show_last_list()` reads the list file (`core/documents/snapshots.py`, JSON only) and the lock
files' bytes
from the blob cache (by sha, verified), and shows a `StartWindow`: the real `DocListPanel` with
those rows, `checking=True` until the start-up check (`core/account/startcheck.py`, started before
Qt is
imported) says the branch still has the list's tree; its answer is often in before the first
paint, and the list shows as fresh from the start. When the main window is built, `hand_over()`
gives it the rows, the filter, the selection and an open the user asked for meanwhile, puts it
where this window was, shows it, and closes this one. Nothing here writes or reads the network
itself, and no row opens a document from here: an open waits for the fresh list (`DocListPanel`
holds it).
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QMainWindow, QSplitter

from modu_desktop.core.account.startcheck import StartCheck
from modu_desktop.i18n import tr
from modu_desktop.ui.doclist.panel import DocListPanel, DocRow, LockBadge
from modu_desktop.ui.shell.narrow import size_first_window

log = logging.getLogger(__name__)

STALE_S = 900.0  # the lock protocol's default; the fresh list decides anyway


def early_badge(raw: bytes | None, login: str, now: float, stale_s: float = STALE_S) -> LockBadge:
    """A lock file's badge from its bytes, without the lock manager (not imported yet)."""
    try:
        d = json.loads(raw.decode("utf-8")) if raw is not None else None
    except (UnicodeDecodeError, ValueError):
        d = None
    if not isinstance(d, dict) or not isinstance(d.get("editingBy"), str):
        return LockBadge("?", None, None, stale=False, mine=False, malformed=True)

    def number(key: str) -> float | None:
        v = d.get(key)
        return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None

    holder = d["editingBy"]
    beat = number("lastHeartbeat")
    stale = beat is None or now - beat >= stale_s
    return LockBadge(
        holder=holder,
        started_at=number("startedAt"),
        last_heartbeat=beat,
        stale=stale,
        mine=False,  # a new session holds nothing yet
        same_user_elsewhere=not stale and holder.casefold() == login.casefold(),
    )


def rows_from_list_file(d: dict[str, Any], cache: Any, login: str, now: float) -> list[DocRow]:
    """`SnapshotFile.load_raw()` → the list's rows (lock bytes from the blob cache)."""
    locks = d.get("locks") or {}
    rows = []
    for item in d["docs"]:
        doc_id, path = item.get("doc_id"), item.get("path")
        if not isinstance(doc_id, str) or not isinstance(path, str):
            continue
        title = item.get("title") or item.get("nav_label") or doc_id
        position = item.get("position")
        entry = locks.get(doc_id)
        badge = None
        if isinstance(entry, dict) and isinstance(entry.get("sha"), str):
            badge = early_badge(cache.get(entry["sha"]), login, now)
        rows.append(
            DocRow(
                doc_id=doc_id,
                path=path,
                title=str(title),
                position=position if isinstance(position, int) else None,
                lock=badge,
                unpublished=item.get("draft") is True,
            )
        )
    return rows


class _Relay(QObject):
    """Carries the worker thread's answer to the GUI thread (a queued signal)."""

    answered = Signal(str)


class StartWindow(QMainWindow):
    def __init__(self, rows: list[DocRow], now: float, *, practice: bool) -> None:
        super().__init__()
        self.tree_sha = ""  # the list file's tree: confirmed when the branch still has it
        self.confirmed = False
        self._relay = _Relay()
        self._relay.answered.connect(self._answered)
        self.setObjectName("startWindow")
        self.setWindowTitle(tr("Modu Desktop (practice)") if practice else tr("Modu Desktop"))
        size_first_window(self)  # the main window takes this place
        splitter = QSplitter(Qt.Orientation.Horizontal)
        self.doc_list = DocListPanel()
        self.doc_list.set_rows(rows, now, checking=True)
        self.doc_list.refresh_button.setEnabled(False)
        splitter.addWidget(self.doc_list)
        right = self._placeholder = QLabel(tr("Checking with GitHub…"))
        right.setObjectName("startPlaceholder")
        right.setAlignment(Qt.AlignmentFlag.AlignCenter)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([420, 860])
        self.setCentralWidget(splitter)

    def watch(self, check: StartCheck) -> None:
        """Take the start-up check's answer: at once when it is already in (the list shows as
        fresh from its first paint), else when it arrives."""
        relay = self._relay  # parentless: it outlives this window if the answer comes late
        check.when_answered(relay.answered.emit)

    def _answered(self, sha: str) -> None:
        if not sha or sha != self.tree_sha or self.confirmed:
            return  # changed (or no answer): the main window's refresh decides
        self.confirmed = True
        self._placeholder.setText(tr("Opening the editor…"))  # the list is fresh; the rest loads
        waiting = self.doc_list.pending_open
        # Opening needs the main window: keep the request for it, even now that it is fresh.
        self.doc_list.pending_open = None
        self.doc_list.set_rows(self.doc_list.rows, time.time())
        self.doc_list.pending_open = waiting
        self.doc_list.openRequested.connect(self._open_later)

    def _open_later(self, doc_id: str) -> None:
        self.doc_list.pending_open = doc_id
        label = r.title if (r := self.doc_list.row(doc_id)) is not None and r.title else doc_id
        self.doc_list.set_info(tr("Opening “{doc}” as soon as the list is checked…", doc=label))

    def hand_over(self, win: Any) -> None:
        """Give the main window what the user sees and did here, show it here, close this."""
        mine, theirs = self.doc_list, win.doc_list
        if not theirs.rows:
            theirs.set_rows(mine.rows, mine.model.now, checking=not self.confirmed)
        theirs.filter_edit.setText(mine.filter_edit.text())
        selected = mine.selected_doc_id()
        if selected is not None:
            theirs.select(selected)
        if mine.pending_open is not None:
            theirs.pending_open = mine.pending_open
            theirs.set_info(mine.status.text())
        if self.isVisible():
            if self.isMaximized() or self.isFullScreen():
                win.setWindowState(self.windowState())
            else:
                win.setGeometry(self.geometry())
            win.show()
        self.discard()

    def discard(self) -> None:
        self.hide()
        self.deleteLater()


def show_last_list(
    cache_dir: Any,
    api_url: str,
    repo: str,
    branch: str,
    *,
    practice: bool,
    check: StartCheck | None = None,
) -> StartWindow | None:
    """The start window with the last list of this repository, shown; None when there is no
    list from a signed-in run (first start, another repository, a damaged file). `check`: the
    start-up check asking GitHub whether the list is still current
    (`core/account/startcheck.py`)."""
    from modu_desktop.core.documents.snapshots import identity_of, list_file
    from modu_desktop.core.github.blobcache import BlobCache

    d = list_file(cache_dir, api_url, repo, branch, practice=practice).load_raw()
    identity = identity_of(d) if d is not None else None
    if d is None or identity is None or not d["docs"]:
        return None
    now = time.time()
    rows = rows_from_list_file(d, BlobCache(cache_dir / "blobs"), identity.login, now)
    win = StartWindow(rows, now, practice=practice)
    win.tree_sha = str(d.get("tree_sha") or "")
    if check is not None:
        win.watch(check)  # before the first paint: an answer already in shows it fresh
    win.show()
    return win
