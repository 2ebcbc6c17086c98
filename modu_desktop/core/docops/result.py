"""What an operation reports (Qt-free): its OpCode and one sentence as a Text."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from modu_desktop.core.docops.newdoc import (
    NewDocRequest,
)
from modu_desktop.core.github.errors import NotFound, PermissionDenied
from modu_desktop.core.locks.model import HeldLock, LockView
from modu_desktop.core.text import (
    Text,
    _err_text,
)


class OpCode(enum.Enum):
    CREATED = "created"
    DELETED = "deleted"
    MOVED = "moved"
    PUBLISHED = "published"  # draft: true taken out; the next build shows the page
    INVALID = "invalid"  # the input is wrong (see OpResult.input_field)
    EXISTS = "exists"  # the id or the file already exists
    NOT_FOUND = "not_found"
    LOCKED = "locked"  # someone else holds a fresh lock
    CONFLICT = "conflict"  # the file changed on GitHub meanwhile
    NOTHING_TO_DO = "nothing_to_do"  # e.g. the first document cannot move up
    ROLLED_BACK = "rolled_back"  # reorder: the second write failed, the first was undone
    PARTIAL = "partial"  # reorder: the repository is left half-done (message says how)
    FAILED = "failed"  # network / permission / server error; nothing changed as far as we know
    UNCERTAIN = "uncertain"  # a write may or may not have happened


@dataclass(frozen=True)
class OpResult:
    """The outcome of one operation. ``user_message()`` is the sentence to show the user
    (``text`` is the same sentence, to word later or in another language)."""

    code: OpCode
    text: Text
    doc_id: str | None = None
    path: str | None = None
    commits: tuple[str, ...] = ()
    held: HeldLock | None = None  # create(keep_lock=True): the new document's lock, still held
    request: NewDocRequest | None = None  # the user's input, kept for another attempt
    input_field: str | None = None  # the form field at fault (INVALID / EXISTS)
    error: BaseException | None = None
    view: LockView | None = None  # LOCKED: the lock that blocked us
    sha: str | None = None  # the new blob sha (create)
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.code in (OpCode.CREATED, OpCode.DELETED, OpCode.MOVED, OpCode.PUBLISHED)

    @property
    def message(self) -> str:
        return self.text.en

    def user_message(self) -> str:
        """The sentence in the current language."""
        return self.text()


def failed(exc: BaseException, req: NewDocRequest | None, what: Text) -> OpResult:
    """An operation that could not ``what`` ("list the documents", "delete “{title}”") because
    of ``exc``; ``req``: the user's input, kept for another attempt."""
    t = _err_text(exc)
    if isinstance(exc, (NotFound, PermissionDenied)) and not what.source.startswith(
        ("list", "read")
    ):
        # GitHub answers a write without push access with 404 (or 403).
        t = Text("{t} This account may not have write access to the repository.", t=t)
    return OpResult(
        OpCode.FAILED,
        Text("Could not {what}: {t}", what=what, t=t),
        request=req,
        error=exc,
    )
