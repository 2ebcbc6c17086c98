"""What an operation changed, told to every part of the window that shows it.

An operation (a save, a restore, a queued save that went out, a move in the menu, a document
opened or closed) publishes one :class:`Changes` on the window's :class:`ChangeBus`; the parts
that show the list, the open document, its actions or its publishing subscribe and refresh
themselves. So the part that did something never calls the parts that show it (Anki's
``OpChanges`` does the same for its collection).

    win.changes.subscribe(self._changed)          # a part that cares
    win.changes.publish(Changes(doc_list=True))   # an operation that changed the list
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Landed:
    """A version of a document is on GitHub and is ours to build on: saved, restored, sent
    from the save queue, or changed by a move in the menu."""

    doc_id: str
    path: str
    sha: str  # its blob sha: the open editor's next save is made over it
    text: str | None = None  # the text of that version (None: only the server has it)
    commit_sha: str | None = None  # its commit, whose build is followed (None: not followed)


@dataclass(frozen=True)
class Changes:
    doc_list: bool = False  # documents added, removed, moved or saved: read the list again
    open_doc: bool = False  # the open document's state (which, editable, lock): actions follow
    landed: Landed | None = None


Subscriber = Callable[[Changes], None]


class ChangeBus:
    """One per window. Subscribers are called at once, in the order they subscribed."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    def publish(self, changes: Changes) -> None:
        for subscriber in list(self._subscribers):
            subscriber(changes)
