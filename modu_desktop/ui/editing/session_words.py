"""Words for what an editing session reports: every ``core.edit_session`` event becomes status
text, a banner or a notice here, and nowhere else. The session gives codes and fields; this
module decides the sentences."""

from __future__ import annotations

from typing import TYPE_CHECKING

from modu_desktop.core.edit_session import (
    HeartbeatMissed,
    LockHolder,
    LockLost,
    LockRenewed,
    NotSaved,
    OpenFailed,
    Queued,
    RaceLost,
    Saved,
    SessionEvent,
    TheirsTaken,
)
from modu_desktop.i18n import tr
from modu_desktop.ui.locks.lock_dialog import format_when
from modu_desktop.ui.shell.operation import error_text

if TYPE_CHECKING:
    from modu_desktop.ui.shell.window_api import WindowApi


def queued_text() -> str:
    """Why a save is waiting (the save queue's one sentence)."""
    return tr(
        "GitHub cannot be reached, so the save is kept on this computer "
        "and will be sent by itself when the connection returns (waiting "
        "to save)."
    )


def took_over_text(holder: LockHolder, now: float) -> str:
    return tr(
        "{who} had left “{doc}” without a sign of life since {beat}, so "
        "you have taken over editing."
    ).format(
        who=holder.holder or "?",
        doc=holder.doc_id,
        beat=format_when(holder.last_heartbeat, now),
    )


def lock_lost_text(event: LockLost, login: str, now: float) -> str:
    if event.released or event.by is None:
        return tr(
            "Someone released your lock on this document, so it is read-only "
            "now. Your text is still here: copy it, save it as a new "
            "document, or compare it."
        )
    who = event.by
    if event.by_me_elsewhere:
        who = tr("you ({login}) in another window").format(login=event.by)
    return tr(
        "{who} took over editing at {when}, so this document is "
        "read-only now. Your text is still here: copy it, save it as a "
        "new document, or compare it."
    ).format(who=who, when=format_when(event.at, now))


class SessionWords:
    """Shows one window's session events (the window's ``report`` forwards here)."""

    def __init__(self, win: WindowApi) -> None:
        self.win = win

    def show(self, event: SessionEvent) -> None:
        win = self.win
        lang = win.ctx.lang
        if isinstance(event, LockRenewed):
            win.set_connection(True)
            stamp = format_when(event.at, event.at).split(" ")[0]
            win.set_lock_status(
                tr("You are editing “{doc}” · lock renewed at {time}").format(
                    doc=event.doc_id, time=stamp
                ),
                "ok",
            )
        elif isinstance(event, HeartbeatMissed):
            if event.expires_in_s is None:
                win.set_connection(False, error_text(event.error, lang) if event.error else None)
                return
            mins = max(0, int((event.expires_in_s or 0) // 60))
            msg = tr(
                "Cannot reach GitHub to renew your lock ({n} missed). It expires "
                "in {m} min unless the connection comes back; keep your text."
            ).format(n=event.misses, m=mins)
            win.set_connection(False, error_text(event.error, lang) if event.error else msg)
            win.set_lock_status(msg, "warning")
        elif isinstance(event, LockLost):
            win.show_lock_lost(lock_lost_text(event, win.ctx.login, win.ctx.server_now()))
            win.set_lock_status(tr("Lock lost — read-only"), "error")
        elif isinstance(event, Saved):
            win.set_connection(True)
            win.set_lock_status(tr("✔ Saved “{doc}”").format(doc=win.label(event.doc_id)), "ok")
        elif isinstance(event, Queued):
            msg = queued_text()
            win.set_lock_status(tr("Waiting to save: {msg}").format(msg=msg), "warning")
            win.set_connection(False, msg)
            win.show_notice(msg, "warning")
        elif isinstance(event, TheirsTaken):
            if not event.saved_as_new:
                win.set_lock_status(
                    tr("Showing the current version of “{doc}”").format(
                        doc=win.label(event.doc_id)
                    ),
                    "ok",
                )
        elif isinstance(event, NotSaved):
            self._not_saved(event)
        elif isinstance(event, RaceLost):
            win.show_notice(
                tr("Someone else took “{doc}” at the same moment.").format(
                    doc=win.label(event.doc_id)
                ),
                "warning",
            )
        elif isinstance(event, OpenFailed):
            win.set_lock_status("")
            if event.reason == "contended":
                text = tr(
                    "Could not start editing “{doc}”: others keep changing its lock. Try again."
                ).format(doc=win.label(event.doc_id))
            else:
                msg = error_text(event.error, lang) if event.error else "?"
                text = tr("Could not open “{doc}”: {msg}").format(doc=event.doc_id, msg=msg)
            win.show_notice(text, "error")

    def _not_saved(self, event: NotSaved) -> None:
        win = self.win
        if event.reason == "conflict":
            win.set_lock_status(tr("Not saved (conflict): your text is still here."), "warning")
            return
        if event.reason == "lock_lost":
            win.show_notice(tr("Not saved: you no longer hold the lock on this document."), "error")
            return
        if event.reason == "lock_unchecked":
            msg = tr("could not check the lock; try again")
        else:
            msg = error_text(event.error, win.ctx.lang) if event.error else "?"
        win.set_lock_status(tr("Not saved: {msg}").format(msg=msg), "error")
        win.show_notice(tr("Not saved: {msg} Your text is still here.").format(msg=msg), "error")
