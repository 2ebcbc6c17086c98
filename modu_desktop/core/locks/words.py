"""How every screen says who holds a lock (Qt-free): the holder, since when, and the last sign
of life, worded the same way in the list's badge and tooltip, the lock dialog, the read-only
banner, an operation's refusal and the CLI.

Each function returns a :class:`~modu_desktop.core.text.Text` (call it for the current
language, ``.en`` for a log line); the lock manager's results are worded in ``news.py``.
Times are one format everywhere: the local clock and how long ago, ``"08:29 (just now)"`` /
``"08:29 (방금)"``; a day or more back, with the date.

In Korean the holder is "{who} 님": polite, and the particle after 님 is always 이/을. The
holder is named as people call them, "김민지 (kim)", when the account has a display name
(``core/account/people.py``); this is the one place lock holders are worded.

A module of its own, outside ``core/locks/`` (whose package imports the HTTP client): the start
window's first paint words lock badges with it before httpx is imported.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from modu_desktop.core.account.people import person
from modu_desktop.core.locks.model import LockStatus, LockView
from modu_desktop.core.text import Text

if TYPE_CHECKING:
    from modu_desktop.core.locks.wire import LockRecord

__all__ = [
    "Holding",
    "State",
    "age",
    "ago",
    "badge",
    "clock",
    "describe",
    "dialog_details",
    "dialog_head",
    "format_age",
    "line",
    "read_only_banner",
    "tooltip",
    "when",
    "where",
]


class State(enum.Enum):
    MINE_HERE = "mine_here"  # this window holds it
    MINE_ELSEWHERE = "mine_elsewhere"  # our login, another window or computer
    OTHER = "other"  # someone else, alive
    STALE = "stale"  # someone else, no sign of life for too long
    UNREADABLE = "unreadable"  # the lock file cannot be read


@dataclass(frozen=True)
class Holding:
    """Who holds a lock, as the screens tell it. ``who`` is a login (for an unreadable lock the
    login it seems to name), None when nothing can be read. Times are server seconds."""

    who: str | None
    started_at: float | None
    last_heartbeat: float | None
    now: float
    state: State = State.OTHER
    where: Text | None = None  # MINE_ELSEWHERE: "in another window" / "on another computer"

    @classmethod
    def of(cls, view: LockView) -> Holding:
        """The holding of a locked document's view (a free one is said by its caller)."""
        state_of = {
            LockStatus.MINE_THIS_SESSION: State.MINE_HERE,
            LockStatus.MINE_OTHER_SESSION: State.MINE_ELSEWHERE,
            LockStatus.HELD: State.OTHER,
            LockStatus.STALE: State.STALE,
            LockStatus.MALFORMED: State.UNREADABLE,
        }
        rec = view.record
        who = view.holder
        if rec is not None and rec.malformed:
            who = rec.claimed_by or None
        return cls(
            who=who,
            started_at=view.started_at,
            last_heartbeat=view.last_heartbeat,
            now=view.server_now,
            state=state_of.get(view.status, State.OTHER),
            where=where(rec, view.same_install) if rec is not None else None,
        )

    @property
    def name(self) -> str:
        """The holder as people call them: "김민지 (kim)" (``core/account/people.py``)."""
        return person(self.who)

    @property
    def at_name(self) -> str:
        """``@login``, with the display name before it when known (the CLI's and the
        operations' way)."""
        return person(self.who, at=True) if self.who else "@unknown"


# -------------------------------------------------------------------------------------- times


def clock(ts: float, now: float) -> str:
    """The local clock of ``ts``: ``"08:29"``, with the date when it is a day or more back."""
    moment = datetime.fromtimestamp(int(ts))
    return moment.strftime("%Y-%m-%d %H:%M" if now - ts > 20 * 3600 else "%H:%M")


def ago(ts: float, now: float) -> Text:
    """``"just now"``, ``"3 min ago"``, ``"5 h ago"`` (a clock a little ahead says just now)."""
    minutes = max(0, int((now - ts) // 60))
    if minutes < 1:
        return Text("just now")
    if minutes < 120:
        return Text("{n} min ago", n=minutes)
    return Text("{n} h ago", n=minutes // 60)


def when(ts: float | None, now: float) -> Text:
    """``"08:29 (3 min ago)"``; ``"?"`` when the lock does not say."""
    if ts is None:
        return Text("?")
    return Text("{clock} ({ago})", clock=clock(ts, now), ago=ago(ts, now))


def age(seconds: float | None) -> Text:
    """A duration: ``90`` → "1 min" / "1분" (the CLI's lock table)."""
    if seconds is None:
        return Text("unknown")
    sign = "-" if seconds < 0 else ""
    s = int(abs(seconds))
    if s < 60:
        return Text("{sign}{n} s", sign=sign, n=s)
    if s < 3600:
        return Text("{sign}{n} min", sign=sign, n=s // 60)
    if s < 86400:
        return Text("{sign}{h} h {m} min", sign=sign, h=s // 3600, m=s % 3600 // 60)
    return Text("{sign}{d} d {h} h", sign=sign, d=s // 86400, h=s % 86400 // 3600)


def format_age(seconds: float | None) -> str:
    """:func:`age` in the current language."""
    return age(seconds)()


def where(rec: LockRecord, same_install: bool = False) -> Text:
    """Where our own login's other lock lives."""
    if rec.session_id is None:
        return Text("in another window (the web admin or another app)")
    if same_install:
        return Text("in another window on this computer")
    if rec.install_id:
        return Text("on another computer")
    return Text("in another window")


# -------------------------------------------------------------------------------------- sentences


def badge(h: Holding) -> Text:
    """The document list's short column: who and since when (clock only)."""
    if h.state is State.MINE_HERE:
        return Text("You (this window)")
    if h.state is State.UNREADABLE:
        return Text("⚠ unreadable lock")
    if h.state is State.STALE:
        return Text("{who} · inactive", who=h.name)
    since = clock(h.started_at, h.now) if h.started_at is not None else "?"
    if h.state is State.MINE_ELSEWHERE:
        return Text("You, elsewhere · {since}", since=since)
    return Text("{who} · {since}", who=h.name, since=since)


def tooltip(h: Holding) -> Text:
    """The badge's full sentence: who, since when, last sign of life."""
    since, beat = when(h.started_at, h.now), when(h.last_heartbeat, h.now)
    if h.state is State.MINE_HERE:
        return Text("You (this window)")
    if h.state is State.UNREADABLE:
        return Text("⚠ unreadable lock")
    if h.state is State.STALE:
        return Text(
            "{who} started at {since}; no sign of life since {beat} (inactive).",
            who=h.name,
            since=since,
            beat=beat,
        )
    if h.state is State.MINE_ELSEWHERE:
        return Text(
            "You ({who}) are editing elsewhere since {since}; last sign of life {beat}.",
            who=h.name,
            since=since,
            beat=beat,
        )
    return Text(
        "{who} is editing since {since}; last sign of life {beat}.",
        who=h.name,
        since=since,
        beat=beat,
    )


def dialog_head(h: Holding, doc: str) -> Text:
    """The lock dialog's headline (``doc`` = the document's title)."""
    if h.state is State.MINE_ELSEWHERE:
        return Text(
            "You ({who}) are already editing “{doc}” in another window or on another computer.",
            who=h.name,
            doc=doc,
        )
    if h.state is State.UNREADABLE:
        return Text("“{doc}” has a lock file that cannot be read.", doc=doc)
    return Text("{who} is editing “{doc}” right now.", who=h.name, doc=doc)


def dialog_details(h: Holding) -> Text:
    """The lock dialog's two lines under the headline."""
    return Text(
        "Started: {start}\nLast sign of life: {beat}",
        start=when(h.started_at, h.now),
        beat=when(h.last_heartbeat, h.now),
    )


def read_only_banner(h: Holding) -> Text:
    """The banner over a document opened read-only because someone else holds it."""
    if h.started_at is None:
        return Text(
            "Read-only: {who} is editing this document. You can read and copy, not change.",
            who=h.name,
        )
    return Text(
        "Read-only: {who} is editing this document since {since}. You can read and copy, "
        "not change.",
        who=h.name,
        since=when(h.started_at, h.now),
    )


def line(h: Holding, doc: str) -> Text:
    """One sentence for the CLI, an operation's refusal and the lock manager's results
    (``doc`` = the document's title where people read it, the docId in the lock manager's
    own results). Why an unreadable lock is unreadable is technical: the CLI's lock table and
    its JSON show it (``LockRecord.malformed``), no sentence does."""
    since, beat = when(h.started_at, h.now), when(h.last_heartbeat, h.now)
    if h.state is State.MINE_HERE:
        return Text(
            "You hold the lock on “{doc}” in this window since {since}.", doc=doc, since=since
        )
    if h.state is State.UNREADABLE:
        if h.who:
            return Text(
                "“{doc}” has a lock file that cannot be read; it names @{who}.", doc=doc, who=h.who
            )
        return Text("“{doc}” has a lock file that cannot be read.", doc=doc)
    if h.state is State.MINE_ELSEWHERE:
        return Text(
            "You ({who}) are already editing “{doc}” {where} since {since}; last sign of life "
            "{beat}.",
            who=h.at_name,
            doc=doc,
            where=h.where or Text("in another window"),
            since=since,
            beat=beat,
        )
    if h.state is State.STALE:
        return Text(
            "{who} started editing “{doc}” at {since}; no sign of life since {beat} (inactive).",
            who=h.at_name,
            doc=doc,
            since=since,
            beat=beat,
        )
    return Text(
        "{who} is editing “{doc}” since {since}; last sign of life {beat}.",
        who=h.at_name,
        doc=doc,
        since=since,
        beat=beat,
    )


def describe(view: LockView) -> Text:
    """Who holds the lock of ``view``'s document (named by its docId), or that nobody does."""
    if view.status is LockStatus.FREE or view.record is None:
        return Text("“{doc}” is not locked.", doc=view.doc_id)
    return line(Holding.of(view), view.doc_id)
