"""Words for what an editing session reports: every ``core.edit_session`` event becomes status
text, a banner or a notice here, and nowhere else. The session gives codes and fields; this
module decides the sentences."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from modu_desktop.core.account.people import person
from modu_desktop.core.edit_session import (
    HeartbeatMissed,
    LockHolder,
    LockLost,
    LockParked,
    LockRenewed,
    LockResumed,
    Mode,
    NotSaved,
    Opened,
    OpenFailed,
    Queued,
    RaceLost,
    ResumeFailed,
    Saved,
    SessionEvent,
    TheirsTaken,
)
from modu_desktop.core.github import errors
from modu_desktop.core.locks import words
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.operation import error_text
from modu_desktop.ui.locks.lock_dialog import format_when, holding_of, took_first_text

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.ui.kit.banners import Banner
    from modu_desktop.ui.kit.context import AppContext


def queued_text() -> str:
    """Why a save is waiting (the save queue's one sentence)."""
    return tr(
        "Not connected to GitHub: the save is kept on this computer and will be sent "
        "by itself when the connection returns (waiting to save)."
    )


def busy_queued_text() -> str:
    """Why a save is waiting when GitHub was only busy with other people's changes."""
    return tr(
        "GitHub was busy with other people's changes, so the save is kept on this computer "
        "and will be sent by itself in a moment (waiting to save)."
    )


def parked_text(doc: str, idle_s: float) -> str:
    """The lock was let go after a long pause without typing."""
    return tr(
        "No typing for {m} minutes, so the editing lock on “{doc}” was let go and others "
        "may edit it. Your text stays here: type to go on editing.",
        m=max(1, round(idle_s / 60)),
        doc=doc,
    )


def offline(exc: BaseException | None) -> bool:
    """GitHub could not be reached (as opposed to: it answered with an error)."""
    return isinstance(exc, errors.NetworkError | asyncio.TimeoutError | TimeoutError) or (
        type(exc).__name__ in ("QueuedForSave", "WriteUncertain")
    )


def missed_heartbeat_text(misses: int, expires_in_s: float | None) -> str:
    """A missed heartbeat: never "in 0 min" (minutes rounded up, at least one); expired apart."""
    left = expires_in_s or 0
    if left > 0:
        return tr(
            "Not connected to GitHub: your editing lock was not renewed ({n} tries). "
            "If the connection is not back within {m} min, others may take over "
            "editing. Keep this window open: your text is safe here.",
            n=misses,
            m=max(1, -int(-left // 60)),
        )
    return tr(
        "Not connected to GitHub: your editing lock was not renewed ({n} tries) "
        "and has expired, so others may take over editing now. Keep this window "
        "open: your text is safe here.",
        n=misses,
    )


def saved_as_new_text(title: str) -> str:
    """After "새 문서로 저장": where the text went, and that the page waits for 게시하기."""
    return tr(
        "Saved your text as the new page “{new}”. It is not published yet: open it and press "
        "“Publish” when it is ready.",
        new=title,
    )


def took_over_text(holder: LockHolder, now: float, title: str) -> str:
    """``title``: the document's title (never its file name)."""
    return tr(
        "{who} had left “{doc}” without a sign of life since {beat}, so "
        "you have taken over editing.",
        who=person(holder.holder),
        doc=title,
        beat=format_when(holder.last_heartbeat, now),
    )


def resume_failed_text(title: str, error: BaseException | None) -> str:
    """Taking the lock back after an idle release failed (``error`` None: others kept
    changing the lock)."""
    if error is None:
        return tr(
            "Could not take the editing lock on “{doc}” back: others keep changing it. "
            "Your text stays here; type or save to try again.",
            doc=title,
        )
    return tr(
        "Could not take the editing lock on “{doc}” back ({msg}). Your text stays "
        "here; type or save to try again.",
        doc=title,
        msg=error_text(error),
    )


def open_failed_text(title: str, event: OpenFailed) -> str:
    if event.reason == "contended":
        return tr(
            "Could not start editing “{doc}”: others keep changing its lock. Try again.",
            doc=title,
        )
    msg = error_text(event.error) if event.error else "?"
    return tr("Could not open “{doc}”: {msg}", doc=title, msg=msg)


def lock_lost_text(event: LockLost, login: str, now: float) -> str:
    if event.released or event.by is None:
        return tr(
            "Someone released your lock on this document, so it is read-only "
            "now. Your text is still here: copy it, save it as a new "
            "document, or compare it."
        )
    if event.by_me_elsewhere:
        return tr(
            "You ({login}) took over editing in another window at {when}, so this "
            "document is read-only here. Your text is still here: copy it, save it as "
            "a new document, or compare it.",
            login=event.by,
            when=format_when(event.at, now),
        )
    return tr(
        "{who} took over editing at {when}, so this document is "
        "read-only now. Your text is still here: copy it, save it as a "
        "new document, or compare it.",
        who=person(event.by),
        when=format_when(event.at, now),
    )


class WordsWindow(Protocol):
    """Where the session's words are shown: the status bar, the banners, the notice."""

    ctx: AppContext
    readonly_banner: Banner
    lock_banner: Banner

    @property
    def doc(self) -> EditSession | None: ...

    def label(self, doc_id: str) -> str: ...

    def set_lock_status(self, text: str, kind: str = "info") -> None: ...

    def set_connection(
        self, ok: bool, message: str | None = None, *, offline: bool = False
    ) -> None: ...

    def show_notice(
        self, text: str | Callable[[], str], kind: str = "info", topic: str | None = None
    ) -> None: ...

    def resolve_notice(self, *topics: str) -> None: ...

    def show_lock_lost(self, text: str | Callable[[], str]) -> None: ...


class SessionWords:
    """Shows one window's session events (the window's ``report`` forwards here)."""

    def __init__(self, win: WordsWindow) -> None:
        self.win = win

    def opened(self, doc_id: str, opened: Opened) -> None:
        """The banner and status of a document just shown, by the mode it was opened in."""
        win = self.win
        if opened.mode is Mode.EDIT:
            win.readonly_banner.hide()
            win.set_lock_status(tr("You are editing “{doc}”", doc=win.label(doc_id)), "ok")
        elif opened.mode is Mode.READ_ONLY:
            holder = opened.holder
            h = holding_of(holder) if holder else words.Holding(None, None, None, 0.0)
            win.readonly_banner.set_text(
                lambda: words.read_only_banner(replace(h, now=win.ctx.server_now()))()
            )
            win.readonly_banner.show()
            win.set_lock_status(tr("Read-only"), "info")
        else:
            win.readonly_banner.hide()
            win.set_lock_status(tr("Viewer mode — read-only"), "info")

    def show(self, event: SessionEvent) -> None:
        win = self.win
        if isinstance(event, LockRenewed):
            win.set_connection(True)
            stamp = format_when(event.at, event.at).split(" ")[0]
            win.set_lock_status(
                tr(
                    "You are editing “{doc}” · lock renewed at {time}",
                    doc=win.label(event.doc_id),
                    time=stamp,
                ),
                "ok",
            )
        elif isinstance(event, HeartbeatMissed):
            self._heartbeat_missed(event)
        elif isinstance(event, LockLost):
            win.show_lock_lost(lambda: lock_lost_text(event, win.ctx.login, win.ctx.server_now()))
            win.set_lock_status(tr("Lock lost — read-only"), "error")
        elif isinstance(event, Saved):
            win.set_connection(True)
            win.set_lock_status(tr("✔ Saved “{doc}”", doc=win.label(event.doc_id)), "ok")
            # an earlier "not saved" is resolved, and "your unsaved text is back" is saved now
            win.resolve_notice("save", "connection", "recovered")
        elif isinstance(event, Queued) and isinstance(event.cause, errors.BranchMoved):
            # GitHub answered but was busy with others' commits: no outage to report.
            self._editing_status(event.doc_id)
            win.show_notice(busy_queued_text(), "info", topic="connection")
        elif isinstance(event, Queued):
            # Offline: the save waits on disk; the message goes to one place, the notice.
            msg = queued_text()
            self._editing_status(event.doc_id)
            win.set_connection(False, msg, offline=True)
            win.show_notice(msg, "warning", topic="connection")
        elif isinstance(event, TheirsTaken):
            win.resolve_notice("recovered")  # the text on screen is the saved one now
            if not event.saved_as_new:
                win.set_lock_status(
                    tr("Showing the current version of “{doc}”", doc=win.label(event.doc_id)),
                    "ok",
                )
        elif isinstance(event, NotSaved):
            self._not_saved(event)
        elif isinstance(event, LockParked):
            win.set_lock_status(parked_text(win.label(event.doc_id), event.idle_s), "info")
        elif isinstance(event, LockResumed):
            win.set_connection(True)
            win.set_lock_status(tr("You are editing “{doc}”", doc=win.label(event.doc_id)), "ok")
            if event.took_over is not None:
                win.show_notice(
                    took_over_text(event.took_over, win.ctx.server_now(), win.label(event.doc_id)),
                    "warning",
                )
        elif isinstance(event, ResumeFailed):
            win.set_lock_status(resume_failed_text(win.label(event.doc_id), event.error), "warning")
        elif isinstance(event, RaceLost):
            # a different holder took it meanwhile (core.locks re-read it): say who, truthfully
            win.show_notice(took_first_text(win.label(event.doc_id), event.view), "warning")
        elif isinstance(event, OpenFailed):
            win.set_lock_status("")
            win.show_notice(open_failed_text(win.label(event.doc_id), event), "error")

    def _heartbeat_missed(self, event: HeartbeatMissed) -> None:
        win = self.win
        if isinstance(event.error, errors.BranchMoved):
            # GitHub answered; it was only busy with others' commits: the lock is still ours
            # and the next try comes soon. Not an outage, so not said as one.
            win.set_lock_status(
                tr(
                    "You are editing “{doc}” · GitHub was busy; the lock will be renewed "
                    "in a moment",
                    doc=win.label(event.doc_id),
                ),
                "ok",
            )
            return
        if event.expires_in_s is None:
            message = error_text(event.error) if event.error else None
            win.set_connection(False, message, offline=offline(event.error))
            return
        msg = missed_heartbeat_text(event.misses, event.expires_in_s)
        # a missed beat is GitHub not answering: say it as the outage is said
        message = error_text(event.error) if event.error else msg
        win.set_connection(False, message, offline=True)
        win.set_lock_status(msg, "warning")

    def _editing_status(self, doc_id: str) -> None:
        """The status bar keeps the lock state while the notice says what went wrong."""
        doc = self.win.doc
        if doc is not None and doc.doc_id == doc_id and doc.editable:
            self.win.set_lock_status(
                tr("You are editing “{doc}”", doc=self.win.label(doc_id)), "ok"
            )

    def _not_saved(self, event: NotSaved) -> None:
        """One message in one place (the notice); the status bar keeps the lock state."""
        win = self.win
        if event.reason == "conflict":
            win.set_lock_status(tr("Not saved (conflict): your text is still here."), "warning")
            return
        if event.reason == "lock_lost":
            # the lock banner already says whose it is now: it says "not saved" too, once
            win.lock_banner.prefix(tr("Not saved."))
            win.lock_banner.show()
            return
        self._editing_status(event.doc_id)
        if event.reason == "lock_unchecked":  # GitHub could not be asked: said as the outage is
            win.set_connection(False, tr("could not check the lock; try again"), offline=True)
            win.show_notice(
                tr(
                    "Not saved: not connected to GitHub (the lock could not be checked). "
                    "Your text is still here; save again when the connection is back."
                ),
                "error",
                topic="connection",
            )
            return
        msg = error_text(event.error) if event.error else "?"
        cut_off = offline(event.error)
        if cut_off:
            win.set_connection(False, msg, offline=True)
        win.show_notice(
            tr("Not saved: {msg} Your text is still here.", msg=msg),
            "error",
            topic="connection" if cut_off else "save",
        )
