"""On start: drafts left behind by a crash or kill, shown against the current server version.

:func:`orphan_drafts` picks the drafts of this repository written by sessions that are not
running (the single-instance lock guarantees no other instance uses the same data dir), and
:func:`assess` compares each with the server - *unchanged* since the draft's base, *changed* by
someone else, *deleted*, or *new* (a document that was never saved) - at the cost of one tree
request (plus a blob read per changed document, cached by sha).

:class:`RecoveryDialog` lists them with both texts side by side — as the page editor reads them,
the original texts one tick away (``ui.kit.side_by_side``) — and lets the user restore, save as
a new document or discard each one (or decide later: the draft stays on disk). Discard happens in
the dialog (only if the draft file still holds exactly that text); restore and save-as-new are
done by the window through :func:`offer_recovery`'s callbacks, which receive the draft's text
unchanged, so a restored text is byte-identical to what was typed.
"""

from __future__ import annotations

import contextlib
import enum
import logging
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.saving.drafts import Draft, DraftKey, DraftStore
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.fit import fit_to_screen
from modu_desktop.ui.kit.side_by_side import (
    compare_readings,
    link_scrolling,
    read_only_pane,
    reading_html,
)

log = logging.getLogger(__name__)

__all__ = [
    "RecoveryChoice",
    "RecoveryDialog",
    "RecoveryItem",
    "ServerState",
    "assess",
    "offer_recovery",
    "orphan_drafts",
]


class ServerState(enum.Enum):
    UNCHANGED = "unchanged"  # the server still has the version the draft started from
    CHANGED = "changed"  # someone saved another version meanwhile
    DELETED = "deleted"  # the document is gone from the server
    NEW = "new"  # the draft is of a document that was never saved
    UNKNOWN = "unknown"  # the server could not be reached


class RecoveryChoice(enum.Enum):
    RESTORE = "restore"
    SAVE_AS_NEW = "save_as_new"


@dataclass
class RecoveryItem:
    draft: Draft
    state: ServerState
    server_sha: str | None = None
    server_text: str | None = None
    problem: str | None = None

    @property
    def doc_id(self) -> str:
        return self.draft.key.doc_id

    @property
    def title(self) -> str:
        return self.draft.title or self.draft.key.doc_id


def orphan_drafts(
    store: DraftStore,
    *,
    api_host: str,
    repo: str,
    branch: str,
    live_session_ids: Collection[str] = (),
    exclude: Collection[DraftKey] = (),
    skip_queued: bool = True,
) -> list[Draft]:
    """Drafts of this repository/branch whose session is not running (oldest first).

    With ``skip_queued`` a draft whose exact text is waiting in the save queue (the spool next
    to the drafts directory, ``{data_dir}/spool``) or was committed through it is left out: it
    is being (or was) saved already, and offering it would invite a "discard" of text that
    still lands, or a restore that conflicts with our own commit."""
    host = api_host.rstrip("/")
    queued = _queued_texts(store.root.parent / "spool") if skip_queued else set()
    return [
        d
        for d in store.list_orphans(live_session_ids)
        if (d.key.api_host, d.key.repo, d.key.branch) == (host, repo, branch)
        and d.key not in exclude
        and (d.key.api_host, d.key.repo, d.key.branch, d.doc_path, d.text) not in queued
    ]


def _queued_texts(spool_root: Path) -> set[tuple[str, str, str, str, str]]:
    """(api host, repo, branch, path, text) of every save waiting in the spool or already
    committed through it (read only)."""
    if not (spool_root / "pending").is_dir():
        return set()
    from modu_desktop.core.saving.queue import SaveSpool

    async def _never(_item: object) -> Any:
        raise RuntimeError("read-only spool")

    try:
        spool = SaveSpool(spool_root, _never, _never)
        items = spool.pending_items() + spool.done_items()
    except OSError:
        return set()
    return {(i.api_host, i.repo, i.branch, i.path, i.text) for i in items}


async def assess(drafts: list[Draft], doc_store: object) -> list[RecoveryItem]:
    """Each draft against the server: one ``refresh()`` (tree) plus a blob per changed doc."""
    from modu_desktop.core.documents.store import decode_text

    try:
        snap = await doc_store.refresh()  # type: ignore[attr-defined]
    except Exception as exc:
        log.info("cannot compare drafts with the server: %s", exc)
        return [RecoveryItem(d, ServerState.UNKNOWN, problem=str(exc)) for d in drafts]
    by_path = {doc.path: doc for doc in snap.docs}
    items: list[RecoveryItem] = []
    for d in drafts:
        summary = by_path.get(d.doc_path) or snap.doc(d.key.doc_id)
        if summary is None:
            state = ServerState.NEW if d.base_sha is None else ServerState.DELETED
            items.append(RecoveryItem(d, state))
            continue
        state = ServerState.UNCHANGED if summary.sha == d.base_sha else ServerState.CHANGED
        item = RecoveryItem(d, state, server_sha=summary.sha)
        try:
            item.server_text, _problem = decode_text(
                await doc_store.read_blob(summary.sha)  # type: ignore[attr-defined]
            )
        except Exception as exc:
            item.problem = str(exc)
        items.append(item)
    return items


def describe_state(item: RecoveryItem) -> str:
    if item.state is ServerState.UNCHANGED:
        return tr(
            "Nobody has changed this document on the site since you started: "
            "restoring and saving is safe."
        )
    if item.state is ServerState.CHANGED:
        return tr(
            "Someone else saved this document on the site meanwhile. Restore "
            "it to compare when you save, or save yours as a new document."
        )
    if item.state is ServerState.DELETED:
        return tr("This document was deleted from the site. Save your text as a new document.")
    if item.state is ServerState.NEW:
        return tr("This document was never saved to the site.")
    return tr("The site cannot be reached right now, so it is not known whether it changed.")


def _state_badge(state: ServerState) -> str:
    return {
        ServerState.UNCHANGED: tr("unchanged on the site"),
        ServerState.CHANGED: tr("changed on the site"),
        ServerState.DELETED: tr("deleted on the site"),
        ServerState.NEW: tr("new document"),
        ServerState.UNKNOWN: tr("site not reachable"),
    }[state]


class RecoveryDialog(QDialog):
    """The list of recovered drafts. ``chosen`` = (item, RESTORE | SAVE_AS_NEW) when the user
    picked one of those (the dialog then closes); discards are done here at once."""

    discarded = Signal(object)  # RecoveryItem

    def __init__(
        self,
        items: list[RecoveryItem],
        draft_store: DraftStore,
        parent: QWidget | None = None,
        *,
        can_write: bool = True,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("recoveryDialog")
        self.setWindowTitle(tr("Recover unsaved text"))
        self.setAccessibleName(self.windowTitle())
        self.setWindowModality(Qt.WindowModality.WindowModal)
        fit_to_screen(self, 980, 620)
        self.items = list(items)
        self.draft_store = draft_store
        self.chosen: tuple[RecoveryItem, RecoveryChoice] | None = None

        lay = QVBoxLayout(self)
        head = QLabel(
            tr(
                "The app closed before this text was saved. Nothing was lost: "
                "choose what to do with each document."
            )
        )
        head.setWordWrap(True)
        head.setObjectName("recoveryHeading")
        lay.addWidget(head)

        body = QHBoxLayout()
        self.list = QListWidget()
        self.list.setObjectName("recoveryList")
        self.list.setAccessibleName(tr("Recovered documents"))
        self.list.setMaximumWidth(300)
        body.addWidget(self.list)
        right = QVBoxLayout()
        self.state_label = QLabel("")
        self.state_label.setObjectName("recoveryState")
        self.state_label.setWordWrap(True)
        right.addWidget(self.state_label)
        right.addWidget(self._versions(), 1)
        self.raw_toggle = QCheckBox(tr("Show the &original text (Markdown)"))
        self.raw_toggle.setObjectName("recoveryRawToggle")
        self.raw_toggle.toggled.connect(lambda on: self.views.setCurrentIndex(1 if on else 0))
        right.addWidget(self.raw_toggle)
        body.addLayout(right, 1)
        lay.addLayout(body, 1)

        buttons = QHBoxLayout()
        self.restore_button = QPushButton(tr("&Restore and keep editing"))
        self.restore_button.setObjectName("recoverRestoreButton")
        self.save_new_button = QPushButton(tr("Save as &new document"))
        self.save_new_button.setObjectName("recoverSaveNewButton")
        self.discard_button = QPushButton(tr("&Discard this text"))
        self.discard_button.setObjectName("recoverDiscardButton")
        self.later_button = QPushButton(tr("Decide &later"))
        self.later_button.setObjectName("recoverLaterButton")
        for b in (self.restore_button, self.save_new_button, self.discard_button):
            b.setAccessibleName(b.text().replace("&", ""))
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.later_button.setAccessibleName(self.later_button.text().replace("&", ""))
        buttons.addWidget(self.later_button)
        lay.addLayout(buttons)
        self.restore_button.setEnabled(can_write)
        self.save_new_button.setEnabled(can_write)

        self.restore_button.clicked.connect(lambda: self._choose(RecoveryChoice.RESTORE))
        self.save_new_button.clicked.connect(lambda: self._choose(RecoveryChoice.SAVE_AS_NEW))
        self.discard_button.clicked.connect(self._discard_current)
        self.later_button.clicked.connect(self.reject)
        self.list.currentRowChanged.connect(self._show)
        for it in self.items:
            self.list.addItem(QListWidgetItem(f"{it.title}\n{_state_badge(it.state)}"))
        if self.items:
            self.list.setCurrentRow(0)
        self.restore_button.setDefault(True)
        self.discard_button.setAutoDefault(False)  # Enter never throws text away

    def _versions(self) -> QStackedWidget:
        """The two texts as they read, or as written (원문 보기)."""
        self.reading_view = QTextBrowser()
        self.reading_view.setObjectName("recoveryReading")
        self.reading_view.setOpenLinks(False)
        self.reading_view.setAccessibleName(tr("The two versions side by side"))
        split = QSplitter(Qt.Orientation.Horizontal)
        self.mine_view = read_only_pane(split, tr("Your unsaved text"), "recoveryMine")
        self.server_view = read_only_pane(
            split, tr("The version on the site now"), "recoveryServer"
        )
        link_scrolling(self.mine_view, self.server_view)
        self.views = QStackedWidget()
        self.views.addWidget(self.reading_view)
        self.views.addWidget(split)
        return self.views

    def current(self) -> RecoveryItem | None:
        row = self.list.currentRow()
        return self.items[row] if 0 <= row < len(self.items) else None

    def select(self, doc_id: str) -> bool:
        for i, it in enumerate(self.items):
            if it.doc_id == doc_id:
                self.list.setCurrentRow(i)
                return True
        return False

    def _show(self, row: int) -> None:
        item = self.items[row] if 0 <= row < len(self.items) else None
        if item is None:
            self.state_label.setText("")
            self.reading_view.clear()
            self.mine_view.setPlainText("")
            self.server_view.setPlainText("")
            return
        self.state_label.setText(describe_state(item))
        self.mine_view.setPlainText(item.draft.text)
        self.server_view.setPlainText(item.server_text or "")
        rows = compare_readings(item.draft.text, item.server_text or "")
        if rows:
            mine, theirs = tr("Your unsaved text"), tr("The version on the site now")
            self.reading_view.setHtml(reading_html(rows, mine, theirs))
        elif item.draft.text == (item.server_text or ""):
            self.reading_view.setPlainText(tr("The two versions are identical."))
        else:
            self.reading_view.setPlainText(
                tr(
                    "The two versions read the same; only the way the original text is "
                    "written differs."
                )
            )
        # a deleted document cannot be restored in place
        self.restore_button.setEnabled(
            self.save_new_button.isEnabled() and item.state is not ServerState.DELETED
        )

    def _choose(self, choice: RecoveryChoice) -> None:
        item = self.current()
        if item is None:
            return
        self.chosen = (item, choice)
        self.accept()

    def _discard_current(self) -> None:
        row = self.list.currentRow()
        item = self.current()
        if item is None:
            return
        try:
            self.draft_store.discard(item.draft.key, only_if_text=item.draft.text)
        except OSError as exc:
            self.state_label.setText(str(exc))
            return
        self.items.pop(row)
        with contextlib.suppress(RuntimeError):
            self.list.takeItem(row)
        self.discarded.emit(item)
        if not self.items:
            self.reject()
        else:
            self.list.setCurrentRow(min(row, len(self.items) - 1))
            self._show(self.list.currentRow())  # the row number may not have changed


RestoreFn = Callable[[Draft, RecoveryItem], Awaitable[bool]]
SaveNewFn = Callable[[Draft, RecoveryItem], Awaitable[str | None]]


async def offer_recovery(
    parent: QWidget | None,
    items: list[RecoveryItem],
    draft_store: DraftStore,
    *,
    restore: RestoreFn,
    save_as_new: SaveNewFn,
    can_write: bool = True,
) -> tuple[RecoveryItem, RecoveryChoice] | None:
    """Show the dialog; run the chosen restore / save-as-new. After a successful save as a new
    document the draft is removed; a restored draft is removed by the editor once committed."""
    from modu_desktop.ui.kit.asyncutil import run_dialog

    if not items:
        return None
    dlg = RecoveryDialog(items, draft_store, parent, can_write=can_write)
    await run_dialog(dlg)
    chosen = dlg.chosen
    dlg.deleteLater()
    if chosen is None:
        return None
    item, choice = chosen
    if choice is RecoveryChoice.RESTORE:
        await restore(item.draft, item)
    elif choice is RecoveryChoice.SAVE_AS_NEW:
        new_id = await save_as_new(item.draft, item)
        if new_id:
            with contextlib.suppress(OSError):
                draft_store.discard(item.draft.key, only_if_text=item.draft.text)
    return chosen
