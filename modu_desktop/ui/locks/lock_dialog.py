"""The "someone is editing this document" dialog: read-only, take over (with a second
confirmation that says the other person will switch to read-only), or cancel."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from enum import Enum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLayout,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.edit_session import LockHolder, TakeOver
from modu_desktop.core.locks import words
from modu_desktop.core.locks.model import LockStatus, LockView
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.asyncutil import ask, run_dialog

# "Notify me when it is free": the window passes ``notify_free``; it is called with the
# docId, after which the dialog closes as CANCEL. None = no button.
NotifyFree = Callable[[str], None]


def _notify_label() -> str:
    return tr("&Notify me when it is free")


class LockChoice(Enum):
    READ_ONLY = "read_only"
    STEAL = "steal"
    CANCEL = "cancel"


LockHolderInfo = LockHolder  # the core's description of who holds a lock


def format_when(ts: float | None, now: float | None = None) -> str:
    """'14:05 (3 min ago)', the one way locks' times are told (``core.lockwords.when``);
    '?' if unknown."""
    return words.when(ts, time.time() if now is None else now)()


def holding_of(info: LockHolderInfo) -> words.Holding:
    """The lock question's holder as ``core.lockwords`` tells it."""
    state = words.State.OTHER
    if info.same_user:
        state = words.State.MINE_ELSEWHERE
    elif info.malformed:
        state = words.State.UNREADABLE
    return words.Holding(info.holder, info.started_at, info.last_heartbeat, info.now, state)


def took_first_text(doc_label: str, view: LockView | None) -> str:
    """The notice when a take-over found that someone *else* (not the holder the user agreed to
    replace) had taken the lock meanwhile: who it is now, truthfully."""
    rec = view.record if view is not None else None
    status = view.status if view is not None else None
    if rec is None or status is LockStatus.FREE:
        return tr("The lock of “{doc}” changed while you were taking it over.", doc=doc_label)
    if status is LockStatus.MINE_OTHER_SESSION:
        return tr(
            "You ({who}) started editing “{doc}” in another window just before this one.",
            who=rec.editing_by,
            doc=doc_label,
        )
    who = rec.claimed_by if rec.is_malformed else rec.editing_by
    if not who:
        return tr("Someone else started editing “{doc}” just before you.", doc=doc_label)
    return tr("{who} started editing “{doc}” just before you took over.", who=who, doc=doc_label)


def changed_text(info: LockHolderInfo) -> str:
    """Why the question is asked again: the editing session the user agreed to take over is
    not the one holding the lock now."""
    prev = info.changed_from
    if prev is None:
        return ""
    if info.same_user:
        return tr(
            "This changed while you were deciding: you have since started editing it in "
            "another window, so {prev} no longer holds it.",
            prev=prev,
        )
    if info.holder and info.holder.casefold() == prev.casefold():
        return tr(
            "This changed while you were deciding: {who} opened it again, so this is a new "
            "editing session, not the one you agreed to take over.",
            who=info.holder,
        )
    return tr(
        "This changed while you were deciding: {who} started editing it instead of {prev}.",
        who=info.holder or "?",
        prev=prev,
    )


class LockDialog(QDialog):
    def __init__(
        self,
        info: LockHolderInfo,
        parent: QWidget | None = None,
        *,
        notify_free: NotifyFree | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("lockDialog")
        self._notify_free = notify_free
        self._monotonic = monotonic
        self.info = info
        self.choice = LockChoice.CANCEL
        self.setWindowTitle(tr("Document in use"))
        self.setAccessibleName(tr("Document in use"))
        self.setModal(True)
        lay = QVBoxLayout(self)

        self._shown_at = monotonic()  # the holder's times are told again as time goes by
        self.changed_label = QLabel(changed_text(info))
        self.changed_label.setObjectName("lockDialogChanged")
        self.changed_label.setWordWrap(True)
        self.changed_label.setStyleSheet("color: #8c1d18; font-weight: 600;")
        self.changed_label.setVisible(info.changed_from is not None)
        lay.addWidget(self.changed_label)
        head, body = self._texts(info)
        self.head_label = QLabel(f"<b>{_esc(head)}</b>")
        self.head_label.setObjectName("lockDialogHeadline")
        self.head_label.setWordWrap(True)
        self.head_label.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.head_label)
        self.details_label = QLabel(self._details(info))
        self.details_label.setObjectName("lockDialogDetails")
        self.details_label.setVisible(info.holder is not None)
        lay.addWidget(self.details_label)
        self.body_label = QLabel(body)
        self.body_label.setWordWrap(True)
        lay.addWidget(self.body_label)

        buttons = QHBoxLayout()
        self.read_only_button = QPushButton(tr("Open &read-only"))
        self.read_only_button.setObjectName("readOnlyButton")
        self.read_only_button.setAccessibleName(tr("Open read-only"))
        self.steal_button = QPushButton(
            tr("&Edit here instead") if info.same_user else tr("&Take over editing")
        )
        self.steal_button.setObjectName("stealButton")
        self.steal_button.setAccessibleName(self.steal_button.text().replace("&", ""))
        self.cancel_button = QPushButton(tr("&Cancel"))
        self.cancel_button.setObjectName("cancelButton")
        self.cancel_button.setAccessibleName(tr("Cancel"))
        buttons.addWidget(self.read_only_button)
        buttons.addWidget(self.steal_button)
        self.notify_button: QPushButton | None = None
        if notify_free is not None:
            self.notify_button = QPushButton(_notify_label())
            self.notify_button.setObjectName("notifyFreeButton")
            self.notify_button.setAccessibleName(self.notify_button.text().replace("&", ""))
            self.notify_button.clicked.connect(self._notify_when_free)
            buttons.addWidget(self.notify_button)
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        lay.addLayout(buttons)
        self.read_only_button.setDefault(True)
        self.read_only_button.clicked.connect(lambda: self._choose(LockChoice.READ_ONLY))
        self.steal_button.clicked.connect(lambda: self._choose(LockChoice.STEAL))
        self.cancel_button.clicked.connect(lambda: self._choose(LockChoice.CANCEL))
        # The row of buttons decides the width: with word-wrapped texts Qt would otherwise
        # choose a narrower dialog and cut "편집 가능해지면 알려 주기" short.
        lay.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        self.setMinimumWidth(460)

    def _texts(self, info: LockHolderInfo) -> tuple[str, str]:
        head = words.dialog_head(holding_of(info), info.label)()
        if info.same_user:
            body = tr(
                "If you edit here, the other window will switch to read-only at "
                "its next check. Unsaved changes there stay on that screen."
            )
        elif info.malformed:
            body = tr("Someone may be editing it. Open it read-only unless you are sure.")
        else:
            body = tr("Two people editing at once would overwrite each other's work.")
        return head, body

    def _details(self, info: LockHolderInfo) -> str:
        if info.holder is None:
            return ""
        h = holding_of(info)
        now = h.now + (self._monotonic() - self._shown_at)
        return words.dialog_details(replace(h, now=now))()

    def refresh_times(self) -> None:
        """Tell "last sign of life: 22:11 (3 min ago)" with the time now."""
        self.details_label.setText(self._details(self.info))

    def update_info(self, info: LockHolderInfo) -> None:
        """Show another holder in place (the fresh read after a dialog shown from the list's
        cached lock found someone else, or the same holder's newer heartbeat); the buttons and
        the focus stay where they are."""
        self.info = info
        self._shown_at = self._monotonic()
        self.changed_label.setText(changed_text(info))
        self.changed_label.setVisible(info.changed_from is not None)
        head, body = self._texts(info)
        self.head_label.setText(f"<b>{_esc(head)}</b>")
        self.details_label.setText(self._details(info))
        self.details_label.setVisible(info.holder is not None)
        self.body_label.setText(body)
        self.steal_button.setText(
            tr("&Edit here instead") if info.same_user else tr("&Take over editing")
        )
        self.steal_button.setAccessibleName(self.steal_button.text().replace("&", ""))

    def _notify_when_free(self) -> None:
        handler = self._notify_free
        if handler is not None:
            handler(self.info.doc_id)
        self._choose(LockChoice.CANCEL)

    def _choose(self, choice: LockChoice) -> None:
        self.choice = choice
        if choice is LockChoice.CANCEL:
            self.reject()
        else:
            self.accept()


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


async def confirm_steal(parent: QWidget | None, info: LockHolderInfo) -> bool:

    if info.same_user:
        text = tr("Edit here and switch your other window to read-only?")
    else:
        text = tr(
            "Take over editing from {who}? {who} will be switched to "
            "read-only and cannot save there any more. Their unsaved text "
            "stays on their screen.",
            who=info.holder or "?",
        )
    key = await ask(
        parent,
        tr("Take over editing?"),
        text,
        [
            (
                "confirmSteal",
                QMessageBox.ButtonRole.AcceptRole,
                tr("Take over"),
            ),
            (
                "cancelSteal",
                QMessageBox.ButtonRole.RejectRole,
                tr("Cancel"),
            ),
        ],
        object_name="stealConfirmDialog",
        icon=QMessageBox.Icon.Warning,
        default="cancelSteal",
    )
    return key == "confirmSteal"


async def choose_lock_action(
    parent: QWidget | None, info: LockHolderInfo, *, notify_free: NotifyFree | None = None
) -> LockChoice:
    """Run the dialog (and, for a steal, the second confirmation)."""
    while True:
        dlg = LockDialog(info, parent, notify_free=notify_free)
        await run_dialog(dlg)
        choice = dlg.choice
        dlg.deleteLater()
        if choice is not LockChoice.STEAL:
            return choice
        if await confirm_steal(parent, info):
            return LockChoice.STEAL
        # said no at the confirmation: back to the three choices


_TAKE_OVER = {
    LockChoice.CANCEL: TakeOver.CANCEL,
    LockChoice.READ_ONLY: TakeOver.READ_ONLY,
    LockChoice.STEAL: TakeOver.TAKE_OVER,
}


async def ask_take_over(
    parent: QWidget | None, holder: LockHolder, *, notify_free: NotifyFree | None = None
) -> TakeOver:
    """The editing session's question "someone holds the lock: take over?" as this dialog."""
    return _TAKE_OVER[await choose_lock_action(parent, holder, notify_free=notify_free)]


def open_lock_dialog(parent: QWidget | None) -> LockDialog | None:
    """The lock question shown over ``parent`` now, if any."""
    for w in QApplication.topLevelWidgets():
        if isinstance(w, LockDialog) and w.isVisible() and w.parent() is parent:
            return w
    return None
