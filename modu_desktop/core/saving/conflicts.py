"""One way to resolve a save conflict (Qt-free), for a live save and a queued one alike.

A save that meets a conflict (409, or the file changed or went away since the version it was
based on) comes back from :class:`~modu_desktop.core.saving.service.SaveService` as a
:class:`~modu_desktop.core.documents.store.SaveConflict`; a queued save that met one sits in the
spool's ``failed/`` (:func:`queued_conflict` reads the current version for it). Either way
:func:`resolve_conflict` asks the user (``ask``, the view's conflict screen) and does what the
answer needs:

* **keep mine** — save mine over *their* sha (the version just shown: whoever saved since is not
  overwritten) through the ``SaveService``, so offline it waits in the queue as any save does. A
  conflict again (someone saved once more while the user was choosing) is shown again: a 409 is
  information, never retried blindly;
* **take theirs** — nothing is written; mine is dropped (the user's explicit, never-default
  choice);
* **saved as new** — the view has already saved mine as a new document (the window's one
  new-document flow); nothing more is written here;
* **cancel** — nothing is written; mine stays where it was (the editor, or the queue's
  "not saved").

A queued save (``queued``) leaves the spool only once its text is safe elsewhere: the keep-mine
write landed or was queued anew, it went to a new document, or the user took theirs. Any failure
raises with everything left as it was.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from modu_desktop.core.documents.store import SaveConflict, page_title
from modu_desktop.core.github import errors
from modu_desktop.core.text import Text

if TYPE_CHECKING:
    from modu_desktop.core.saving.queue import SpoolItem
    from modu_desktop.core.saving.service import SaveOutcome, SaveService

log = logging.getLogger(__name__)

__all__ = [
    "AskConflict",
    "Conflict",
    "ConflictDecision",
    "OtherRepository",
    "Resolution",
    "belongs_here",
    "queued_conflict",
    "resolve_conflict",
]


class ConflictDecision(enum.Enum):
    KEEP_MINE = "keep_mine"  # save mine over their version (it stays in the history)
    TAKE_THEIRS = "take_theirs"  # show their version; mine is dropped
    SAVED_AS_NEW = "saved_as_new"  # the view saved mine as a new document: show theirs here
    CANCEL = "cancel"  # nothing saved; my text stays in the editor


@dataclass(frozen=True)
class Conflict:
    """What the conflict screen shows. Someone saved first; ``theirs`` None = the file was
    deleted."""

    doc_id: str
    path: str
    mine: str
    theirs: str | None
    their_sha: str | None
    by: str | None = None  # who saved it (best effort)
    queued: bool = False  # a save that waited in the queue (written offline)


AskConflict = Callable[[Conflict], Awaitable[ConflictDecision]]


@dataclass(frozen=True)
class Resolution:
    """How a conflict ended. ``conflict`` is the last one the user was asked about (their
    version as shown); ``saved`` the keep-mine write (``SaveResult`` or ``QueuedSave``), else
    None."""

    decision: ConflictDecision
    conflict: Conflict
    saved: SaveOutcome | None = None
    rounds: int = 1  # how many times the user was asked (someone saved again in between)


class OtherRepository(Exception):
    """A queued save of another repository or branch than the one open: it is resolved there,
    never compared with (or written to) this one."""

    def __init__(self, item: SpoolItem) -> None:
        super().__init__(f"{item.repo}@{item.branch}")
        self.repo, self.branch, self.doc_id = item.repo, item.branch, item.doc_id
        self.title = page_title(item.text, item.doc_id)

    def user_text(self) -> Text:
        return Text(
            "“{doc}” was saved for another repository ({repo}, branch {branch}); sign in "
            "to that one to resolve it. It is kept.",
            doc=self.title,
            repo=self.repo,
            branch=self.branch,
        )

    def user_message(self) -> str:
        """One plain sentence in the current language."""
        return self.user_text()()


def belongs_here(saves: SaveService, item: SpoolItem) -> bool:
    """Is ``item`` a save of the repository and branch ``saves`` writes to?"""
    client = saves.store.client
    return (
        str(client.api_url).rstrip("/") == item.api_host
        and client.repo.full_name == item.repo
        and saves.store.branch == item.branch
    )


async def queued_conflict(saves: SaveService, item: SpoolItem) -> SaveConflict:
    """A failed queued save as a conflict: its text against the current version on the server
    (``theirs`` None when the file is gone). Raises when the current version cannot be read (the
    item stays in the queue's "not saved"), and :class:`OtherRepository` for a save of another
    repository or branch."""
    if not belongs_here(saves, item):
        raise OtherRepository(item)
    try:
        current = await saves.store.load(item.path)
        theirs: str | None = current.text
        their_sha: str | None = current.sha
    except errors.NotFound:
        theirs, their_sha = None, None
    return SaveConflict(
        item.doc_id,
        item.path,
        item.text,
        item.base_sha,
        theirs,
        their_sha,
        item.failure or "",
    )


async def _who_saved(saves: SaveService, path: str) -> str | None:
    """The login (or name) of the last commit to ``path``; None if it cannot be read."""
    try:
        commits = await saves.store.client.list_commits(path=path, per_page=1)
    except Exception:
        log.debug("who saved %s: not known", path, exc_info=True)
        return None
    if not commits:
        return None
    return commits[0].author_login or commits[0].author_name


async def resolve_conflict(
    saves: SaveService,
    found: SaveConflict,
    ask: AskConflict,
    *,
    login: str,
    message: str | None = None,
    queued: SpoolItem | None = None,
) -> Resolution:
    """Ask about ``found`` and carry out the answer (see the module docstring). ``queued``: the
    failed queue item this conflict is about (it leaves the queue once its text is safe)."""
    rounds = 0
    while True:
        rounds += 1
        by = await _who_saved(saves, found.path)
        conflict = Conflict(
            found.doc_id,
            found.path,
            found.mine,
            found.theirs,
            found.their_sha,
            by,
            queued=queued is not None,
        )
        decision = await ask(conflict)
        if decision is ConflictDecision.KEEP_MINE:
            # Over the version the user just saw (None: the file is gone, so create it again;
            # a file that appeared meanwhile comes back as a conflict too).
            outcome = await saves.save(found.path, found.mine, found.their_sha, login, message)
            if isinstance(outcome, SaveConflict):
                found = outcome  # someone saved again meanwhile: show them, ask again
                continue
            _leave_queue(saves, queued)
            return Resolution(decision, conflict, outcome, rounds)
        if decision in (ConflictDecision.TAKE_THEIRS, ConflictDecision.SAVED_AS_NEW):
            _leave_queue(saves, queued)
        return Resolution(decision, conflict, None, rounds)


def _leave_queue(saves: SaveService, item: SpoolItem | None) -> None:
    if item is not None and saves.spool is not None:
        saves.spool.discard(item.id)
