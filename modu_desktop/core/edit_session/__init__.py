"""One open document's editing session, Qt-free: open → lock → load → heartbeat → save → release.

``events.py`` (what the session and its view say to each other), ``opening.py`` (taking the lock
and loading), ``keeping.py`` (heartbeat, idle release, taking the lock back), ``session.py``
(:class:`EditSession`: the document, saving, conflicts, closing). Import them from here.

The session owns the protocol and its state machine; its view (the window, or a fake in tests)
only renders. The session talks to the view through :class:`EditView`:

* decisions it must ask — :meth:`EditView.ask_take_over` (someone holds the lock: take over,
  read only, or cancel?) and :meth:`EditView.ask_conflict` (someone saved first: keep mine,
  take theirs, save mine as a new document, or cancel?);
* typed events it reports — :class:`LockRenewed`, :class:`HeartbeatMissed`, :class:`LockLost`
  ``(by, at)``, :class:`Saved`, :class:`Queued`, :class:`TheirsTaken`,
  :class:`Released`, :class:`RaceLost`, :class:`OpenFailed`, :class:`NotSaved`.

Events carry codes and fields, never sentences: the view words them (``modu_desktop.i18n.tr``).

Walk of a save: ``save(text)`` → ``LockManager.verify`` (one tree read when unchanged) → lost?
``LockLost`` and ``NotSaved("lock_lost")`` · unreachable and a queue exists? go on, the queued
write still carries its base sha · → :class:`~modu_desktop.core.saving.service.SaveService.save` →
``SaveResult``: ``Saved`` (new base sha) | ``QueuedSave``: ``Queued`` (on disk, goes out by
itself) | ``SaveConflict`` → the view is asked → keep mine (save again over their sha) | take
theirs | save as new | cancel.

Walk of a steal: ``open(doc)`` → acquire (or inspect first when the list showed a lock) →
BLOCKED → ``ask_take_over(LockHolder)`` → TAKE_OVER → ``LockManager.steal(view)`` (PUT with the
sha we saw: someone faster wins, never overwritten) → we edit. The one stolen from learns it at
its next heartbeat (or at once when a list refresh sees the lock's sha change: :meth:`lock_seen`):
the heartbeat's PUT conflicts → ``LockLost(by, at)`` → its text stays, read-only.

Idle release: after ``idle_release_s`` without typing (``Workspace.idle_release_s``, default 20
minutes) the lock is released so others may edit; the editor and its draft stay
(``LockParked``). The view calls :meth:`note_typing` on every keystroke; when it answers True
the view runs :meth:`resume`, which takes the lock again if it is free (``LockResumed``) or asks
the usual question — taking over, or read-only with the text kept (``LockLost``).

Between heartbeats the lock is looked at every ``Workspace.look_s`` (a conditional read), so a
take-over reaches the one it was taken from within seconds. Editing again after a loss, or in a
document opened read-only (편집 권한 가져오기, 지금 편집하기): :meth:`EditSession.take_back`
takes the lock (free, or after the question asked at opening) and keeps the unsaved text —
beside the current version on the conflict screen when the page changed meanwhile.
"""

from modu_desktop.core.edit_session.events import (
    EditView,
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
    Released,
    ResumeFailed,
    Saved,
    SessionEvent,
    TakeOver,
    TheirsTaken,
    holder_of,
    is_blocking,
)
from modu_desktop.core.edit_session.session import EditSession
from modu_desktop.core.saving.conflicts import Conflict, ConflictDecision

__all__ = [
    "Conflict",
    "ConflictDecision",
    "EditSession",
    "EditView",
    "HeartbeatMissed",
    "LockHolder",
    "LockLost",
    "LockParked",
    "LockRenewed",
    "LockResumed",
    "Mode",
    "NotSaved",
    "OpenFailed",
    "Opened",
    "Queued",
    "RaceLost",
    "Released",
    "ResumeFailed",
    "Saved",
    "SessionEvent",
    "TakeOver",
    "TheirsTaken",
    "holder_of",
    "is_blocking",
]
