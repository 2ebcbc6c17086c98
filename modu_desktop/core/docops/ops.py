"""What the web admin can do besides editing: create, delete and reorder documents (Qt-free).

Every operation follows the wire contract (``docs/lock-protocol.md``): file
names, front matter keys, commit messages and the lock protocol. Every operation returns an
:class:`OpResult` with a plain Korean/English message and never raises for expected failures
(refusals, conflicts, network errors); the caller's input (e.g. the new-document form values)
travels back in the result so a failed attempt never loses it.

Choices made here (documented in the report and the tests):

* **New document ids** (the front matter ``id`` and the file's slug) are a single path segment:
  letters (Latin or Hangul syllables), digits, ``-`` and ``_``, starting with a letter or digit,
  at most 80 characters. No ``/``: the web admin creates files directly in ``docs/``
  (``docs/{NN}-{id}.md``), and Docusaurus refuses a front matter id containing a slash. No spaces
  (they become ``%20`` in the page URL); the refusal suggests the dashed spelling. Hangul is
  allowed (Docusaurus serves it, percent-encoded in the URL). ``.``/``..`` can never pass.
* **Ids must be unique** ignoring case (two files differing only in case break checkouts on
  Windows/macOS and Docusaurus would build two pages with clashing URLs): the new id is compared
  with every top-level document's effective Docusaurus id (front matter ``id``, else the file
  name without its number prefix) and the new file name with every existing file name.
* **Locks**: the new docId is locked (``LockManager.acquire``) before the file is created; delete
  takes the document's lock for the duration (so nobody starts editing a file that is about to
  vanish) and releases it afterwards; reorder refuses when either document has a *fresh* lock of
  someone else (or of the same login in another window) and does not lock (the two writes are
  sha-checked, like the web admin's).
* **Reorder rollback**: if the second write fails, the first one is undone with a compensating
  write (same commit message format, the original position) over the sha it produced. If that
  fails too, the result says exactly which file has which position now.
"""

from __future__ import annotations

import logging
import posixpath
from typing import Any

from modu_desktop.core.brochure.unpublished import published
from modu_desktop.core.docops.newdoc import (
    MAX_POSITION,
    NewDocRequest,
    effective_id,
    suggest_id,
    template_body,
    validate_new_doc,
    validate_new_id,
)
from modu_desktop.core.docops.reorder import Position, listed_positions, swap_in_menu
from modu_desktop.core.docops.result import (
    OpCode,
    OpResult,
    failed,
)
from modu_desktop.core.documents.store import (
    DocSummary,
    DocumentStore,
    RepoSnapshot,
    SaveConflict,
    create_message,
    delete_message,
    sort_docs,
)
from modu_desktop.core.github.errors import (
    GitHubConflict,
    GitHubError,
    NotFound,
    WriteUncertain,
)
from modu_desktop.core.locks import words
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.locks.model import (
    AcquireOutcome,
    HeldLock,
    LockStatus,
    LockView,
    ReleaseOutcome,
)
from modu_desktop.core.locks.results import AcquireResult, LockFailure
from modu_desktop.core.text import (
    Text,
)

__all__ = [
    "MAX_POSITION",
    "DocOps",
    "NewDocRequest",
    "OpCode",
    "OpResult",
    "Text",
    "blocking_lock",
    "effective_id",
    "existing_clash",
    "lock_holder_text",
    "suggest_id",
    "template_body",
    "validate_new_doc",
    "validate_new_id",
]

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------------------------
# Messages and results


# --------------------------------------------------------------------------------------------
# New-document input


def existing_clash(req: NewDocRequest, snap: RepoSnapshot) -> OpResult | None:
    """EXISTS when the new file name or the new id is already taken (ignoring case)."""
    path = req.path
    for d in snap.docs:
        if d.path.casefold() == path.casefold():
            return OpResult(
                OpCode.EXISTS,
                Text(
                    "“{title}” already has this place in the menu and this address; change one "
                    "of them.",
                    title=d.title,
                ),
                doc_id=d.doc_id,
                path=d.path,
                request=req,
                input_field="position" if req.position is not None else "doc_id",
            )
    for d in snap.docs:
        if "/" not in d.doc_id and effective_id(d).casefold() == req.doc_id.casefold():
            return OpResult(
                OpCode.EXISTS,
                Text(
                    "The address '{doc_id}' is already used by “{title}”; choose another.",
                    doc_id=req.doc_id,
                    title=d.title,
                ),
                doc_id=d.doc_id,
                path=d.path,
                request=req,
                input_field="doc_id",
            )
    return None


# --------------------------------------------------------------------------------------------
# Locks


def blocking_lock(view: LockView) -> bool:
    """A lock we must not override silently: someone else's (or our login's in another window)
    that is fresh, or an unreadable one with a recent time. Stale locks and our own session's
    are not blocking."""
    if view.status in (LockStatus.FREE, LockStatus.MINE_THIS_SESSION, LockStatus.STALE):
        return False
    if view.is_stale:
        return False
    return not (view.status is LockStatus.MALFORMED and view.age_s is None)


def lock_holder_text(view: LockView, title: str) -> Text:
    """Who holds the lock on the document called ``title``, the way every screen says it
    (``core.locks.words``)."""
    text = words.line(words.Holding.of(view), title)
    if view.status is LockStatus.MINE_OTHER_SESSION:
        return Text("{holder} Close it there first.", holder=text)
    return text


_NOT_DELETED = Text("Not deleted")


def _locked(view: LockView, title: str, refused: Text, /, **fields: Any) -> OpResult:
    """``OpCode.LOCKED``: "{refused}: {who holds the lock on it}" in both languages."""
    holder = lock_holder_text(view, title)
    return OpResult(
        OpCode.LOCKED,
        Text("{refused}: {holder}", refused=refused, holder=holder),
        view=view,
        **fields,
    )


# --------------------------------------------------------------------------------------------
# The operations


class DocOps:
    """Create / delete / reorder on one repository branch for one signed-in user."""

    def __init__(self, store: DocumentStore, locks: LockManager, login: str) -> None:
        self.store = store
        self.locks = locks
        self.login = login

    async def _snapshot(self) -> RepoSnapshot:
        return await self.store.refresh()

    # ---------------------------------------------------------------- create

    async def check_new(
        self, req: NewDocRequest, snap: RepoSnapshot | None = None
    ) -> OpResult | None:
        """Validation and the "already exists" checks against a listing (no writes). None = ok."""
        req = req.normalized()
        bad = validate_new_doc(req)
        if bad is not None:
            return OpResult(OpCode.INVALID, bad[1], request=req, input_field=bad[0])
        if snap is None:
            snap = await self._snapshot()
        return existing_clash(req, snap)

    async def create(self, req: NewDocRequest, *, keep_lock: bool = True) -> OpResult:
        """Validate, check for clashes, lock the new docId, create the file with the web admin's
        message. With ``keep_lock`` the lock stays held (``result.held``) for the editor that
        opens the new document (it must heartbeat and release it); otherwise it is released."""
        req = req.normalized()
        try:
            snap = await self._snapshot()
            clash = await self.check_new(req, snap)
        except GitHubError as exc:
            return self._failed(exc, req, Text("list the documents"))
        if clash is not None:
            return clash
        path, lock_id = req.path, req.file_doc_id
        acq = await self.locks.acquire(lock_id)
        if acq.held is None:
            if acq.outcome in (AcquireOutcome.BLOCKED, AcquireOutcome.LOST_RACE) and acq.view:
                return _locked(
                    acq.view,
                    req.title,
                    Text("Not created"),
                    doc_id=lock_id,
                    path=path,
                    request=req,
                    input_field="doc_id",
                )
            return self._lock_failed(acq, req, req.title)
        held = acq.held
        text = req.render()
        try:
            res = await self.store.create(
                path, text, self.login, message=create_message(path, self.login)
            )
        except WriteUncertain as exc:
            # The file may exist or not. Release the lock either way (nothing is open yet);
            # after a refresh the document is opened like any other, with a fresh lock.
            await self._release_quietly(held)
            return OpResult(
                OpCode.UNCERTAIN,
                Text(
                    "Could not confirm whether “{title}” was created; refresh the list "
                    "to check before trying again.",
                    title=req.title,
                ),
                doc_id=lock_id,
                path=path,
                request=req,
                error=exc,
            )
        except GitHubError as exc:
            await self._release_quietly(held)
            return self._failed(exc, req, Text("create “{title}”", title=req.title))
        if isinstance(res, SaveConflict):
            await self._release_quietly(held)
            return OpResult(
                OpCode.EXISTS,
                Text("Not created: someone else made a page at this address just now."),
                doc_id=lock_id,
                path=path,
                request=req,
                input_field="doc_id",
            )
        if not keep_lock:
            await self._release_quietly(held)
        made = Text("Created “{title}”.", title=req.title)
        if req.draft:
            made = Text("Created “{title}”; it is not published yet.", title=req.title)
        return OpResult(
            OpCode.CREATED,
            made,
            doc_id=res.doc_id,
            path=path,
            commits=tuple(c for c in [res.commit_sha] if c),
            held=held if keep_lock else None,
            request=req,
            sha=res.sha,
        )

    # ---------------------------------------------------------------- delete

    async def delete(
        self, doc_id: str, *, expected_sha: str | None = None, held: HeldLock | None = None
    ) -> OpResult:
        """Delete a document at the version the user saw (``expected_sha``; default: the
        current one). Refused while someone else holds a fresh lock. Our lock (``held``, or one
        taken for the duration) is released afterwards."""
        known = self.title_of(doc_id)
        try:
            snap = await self._snapshot()
        except GitHubError as exc:
            return self._failed(exc, None, Text("list the documents"))
        doc = snap.doc(doc_id)
        if doc is None:
            return OpResult(
                OpCode.NOT_FOUND,
                Text("“{title}” does not exist (any more).", title=known),
                doc_id=doc_id,
            )
        if expected_sha is not None and expected_sha != doc.sha:
            return OpResult(
                OpCode.CONFLICT,
                Text(
                    "Not deleted: “{title}” changed since you looked at it; check the "
                    "latest version first.",
                    title=doc.title,
                ),
                doc_id=doc_id,
                path=doc.path,
            )
        ours = await self._lock_to_delete(doc, held)
        if isinstance(ours, OpResult):
            return ours
        try:
            commit = await self.store.delete(
                doc.path, doc.sha, self.login, message=delete_message(doc.path, self.login)
            )
        except GitHubError as exc:
            return await self._not_deleted(doc, ours, exc)
        released = await self._release_quietly(ours)
        extra: Text | str = (
            "" if released else Text(" (its lock file could not be removed; it expires by itself)")
        )
        return OpResult(
            OpCode.DELETED,
            Text("Deleted “{title}”.{extra}", title=doc.title, extra=extra),
            doc_id=doc_id,
            path=doc.path,
            commits=(commit,),
        )

    async def _lock_to_delete(self, doc: DocSummary, held: HeldLock | None) -> HeldLock | OpResult:
        """Our lock on ``doc`` for the delete: the editor's (``held``) if it is still ours,
        else one taken now; the refusal when someone else edits it."""
        doc_id = doc.doc_id
        if held is not None:
            # The editor's lock may have been taken over meanwhile: then someone else edits it.
            check = await self.locks.verify(held)
            if check.ok:
                return held
            if check.view is not None and blocking_lock(check.view):
                return _locked(check.view, doc.title, _NOT_DELETED, doc_id=doc_id, path=doc.path)
            # released or unreadable now: take the lock afresh
        acq = await self.locks.acquire(doc_id)
        if (
            acq.held is None
            and acq.view is not None
            and not blocking_lock(acq.view)
            and acq.outcome is AcquireOutcome.BLOCKED
        ):
            acq = await self.locks.steal(acq.view)  # an unreadable lock without a time
        if acq.held is not None:
            return acq.held
        if acq.view is not None and acq.outcome in (
            AcquireOutcome.BLOCKED,
            AcquireOutcome.LOST_RACE,
        ):
            return _locked(acq.view, doc.title, _NOT_DELETED, doc_id=doc_id, path=doc.path)
        return self._lock_failed(acq, None, doc.title)

    async def _not_deleted(self, doc: DocSummary, ours: HeldLock, exc: GitHubError) -> OpResult:
        """The delete failed: why, in words; our lock released, except when GitHub could not
        say whether the delete happened."""
        doc_id = doc.doc_id
        if isinstance(exc, GitHubConflict):
            await self._release_quietly(ours)
            return OpResult(
                OpCode.CONFLICT,
                Text(
                    "Not deleted: “{title}” changed meanwhile; refresh and check it first.",
                    title=doc.title,
                ),
                doc_id=doc_id,
                path=doc.path,
                error=exc,
            )
        if isinstance(exc, NotFound):
            await self._release_quietly(ours)
            return OpResult(
                OpCode.NOT_FOUND,
                Text("“{title}” was already deleted.", title=doc.title),
                doc_id=doc_id,
                path=doc.path,
                error=exc,
            )
        if isinstance(exc, WriteUncertain):
            return OpResult(
                OpCode.UNCERTAIN,
                Text(
                    "Could not confirm whether “{title}” was deleted; refresh the list to check.",
                    title=doc.title,
                ),
                doc_id=doc_id,
                path=doc.path,
                error=exc,
            )
        await self._release_quietly(ours)
        return self._failed(exc, None, Text("delete “{title}”", title=doc.title))

    # ---------------------------------------------------------------- publish

    async def publish(self, doc_id: str) -> OpResult:
        """Publish a page that is not published yet: take its ``draft`` line out in one save
        (the web admin's edit message), under its lock like any edit; refused while someone
        else edits it. The window's 게시하기 saves through its open editor instead."""
        known = self.title_of(doc_id)
        try:
            snap = await self._snapshot()
        except GitHubError as exc:
            return self._failed(exc, None, Text("list the documents"))
        doc = snap.doc(doc_id)
        if doc is None:
            return OpResult(
                OpCode.NOT_FOUND, Text("“{title}” does not exist.", title=known), doc_id=doc_id
            )
        acq = await self.locks.acquire(doc_id)
        if acq.held is None:
            if acq.view is not None and acq.outcome in (
                AcquireOutcome.BLOCKED,
                AcquireOutcome.LOST_RACE,
            ):
                return _locked(
                    acq.view, doc.title, Text("Did not publish"), doc_id=doc_id, path=doc.path
                )
            return self._lock_failed(acq, None, doc.title)
        try:
            loaded = await self.store.load(doc_id)
            text = published(loaded.text)
            if text == loaded.text:
                return OpResult(
                    OpCode.NOTHING_TO_DO,
                    Text("“{title}” is already published.", title=doc.title),
                    doc_id=doc_id,
                    path=doc.path,
                )
            res = await self.store.save(loaded, text, loaded.sha, self.login)
        except GitHubError as exc:
            return self._failed(exc, None, Text("publish “{title}”", title=doc.title))
        finally:
            await self._release_quietly(acq.held)
        if isinstance(res, SaveConflict):
            return OpResult(
                OpCode.CONFLICT,
                Text("Not published: “{title}” changed meanwhile; try again.", title=doc.title),
                doc_id=doc_id,
                path=doc.path,
            )
        return OpResult(
            OpCode.PUBLISHED,
            Text("Published “{title}”: the site shows it after its next build.", title=doc.title),
            doc_id=doc_id,
            path=doc.path,
            commits=tuple(c for c in [res.commit_sha] if c),
            sha=res.sha,
        )

    # ---------------------------------------------------------------- reorder

    async def move(self, doc_id: str, direction: str) -> OpResult:
        """Move a document one place up or down the sidebar by swapping ``sidebar_position``
        with its neighbour (two sha-checked commits; the first is undone if the second fails)."""
        if direction not in ("up", "down"):
            return OpResult(
                OpCode.INVALID,
                Text("Direction must be 'up' or 'down'."),
                doc_id=doc_id,
                input_field="direction",
            )
        known = self.title_of(doc_id)
        try:
            snap = await self._snapshot()
        except GitHubError as exc:
            return self._failed(exc, None, Text("list the documents"))
        doc = snap.doc(doc_id)
        if doc is None:
            return OpResult(
                OpCode.NOT_FOUND,
                Text("“{title}” does not exist.", title=known),
                doc_id=doc_id,
            )
        # Neighbours in the same sidebar level (Docusaurus orders each folder on its own); a
        # page without a position, listed last, moves too: it takes its place as it is listed.
        folder = posixpath.dirname(doc.doc_id)
        ordered = [d for d in sort_docs(snap.docs) if posixpath.dirname(d.doc_id) == folder]
        i = next(k for k, d in enumerate(ordered) if d.doc_id == doc_id)
        j = i - 1 if direction == "up" else i + 1
        if not 0 <= j < len(ordered):
            where = Text("first") if direction == "up" else Text("last")
            return OpResult(
                OpCode.NOTHING_TO_DO,
                Text("“{title}” is already {where}.", title=doc.title, where=where),
                doc_id=doc_id,
                path=doc.path,
            )
        other = ordered[j]
        return await self.swap(doc, other, listed_positions(ordered))

    async def swap(
        self,
        a: DocSummary | str,
        b: DocSummary | str,
        listed: dict[str, Position] | None = None,
    ) -> OpResult:
        """Swap the ``sidebar_position`` of two documents (a is written first); ``listed``:
        the place a page without a position has in the list (:func:`listed_positions`)."""
        a_id = a if isinstance(a, str) else a.doc_id
        b_id = b if isinstance(b, str) else b.doc_id
        for d in (a_id, b_id):
            title = self.title_of(d)
            try:
                view = await self.locks.inspect(d)
            except GitHubError as exc:
                return self._failed(exc, None, Text("read the lock of “{title}”", title=title))
            if blocking_lock(view):
                return _locked(view, title, Text("Order not changed"), doc_id=d)
        try:
            da = await self.store.load(a_id)
            db = await self.store.load(b_id)
        except GitHubError as exc:
            return self._failed(exc, None, Text("read the two documents"))
        return await swap_in_menu(self.store, self.login, da, db, listed or {})

    # ---------------------------------------------------------------- helpers

    async def _release_quietly(self, held: HeldLock) -> bool:
        try:
            res = await self.locks.release(held)
        except Exception as exc:  # never hide the operation's own result behind this
            log.warning("could not release the lock on %s: %r", held.doc_id, exc)
            return False
        return res.outcome in (ReleaseOutcome.RELEASED, ReleaseOutcome.ALREADY_GONE)

    def _lock_failed(self, acq: AcquireResult, req: NewDocRequest | None, title: str) -> OpResult:
        """Taking the lock failed for another reason than someone holding it."""
        err = acq.error or LockFailure(acq.text)
        return self._failed(err, req, Text("start editing “{title}”", title=title))

    def title_of(self, doc_id: str) -> str:
        """The title of ``doc_id`` in the last listing (the docId when it is not listed)."""
        return self.store.title_of(doc_id)

    def _failed(self, exc: BaseException, req: NewDocRequest | None, what: Text) -> OpResult:
        return failed(exc, req, what)
