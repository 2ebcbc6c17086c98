"""What a lock result says (Qt-free): one sentence per :class:`~modu_desktop.core.locks.model.
LockCode`, as a :class:`~modu_desktop.core.text.Text` worded through the catalogues
(``resources/translations/ko/locks.json``) in the current language.

The lock manager decides and returns codes and fields; this is the only place that turns them
into words, so the CLI, an operation's refusal and the log say the same thing. The document is
``{doc}`` (a caller that knows the page's title words the result again with it:
:func:`with_title`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from modu_desktop.core.account import people
from modu_desktop.core.locks import words
from modu_desktop.core.locks.model import LockCode, LockView
from modu_desktop.core.text import Text, _err_text

__all__ = ["SENTENCES", "holder_name", "sentence", "with_title"]


class _Result(Protocol):
    @property
    def fields(self) -> Mapping[str, object]: ...

    @property
    def error(self) -> Exception | None: ...


SENTENCES: Mapping[LockCode, Text] = {
    LockCode.ACQUIRED: Text("You are now editing “{doc}”."),
    LockCode.ALREADY_YOURS: Text("You already hold the lock on “{doc}”."),
    LockCode.TOOK_OVER: Text("You took over the lock on “{doc}” from {who}."),
    LockCode.TOOK_OVER_UNREADABLE: Text("You replaced the unreadable lock on “{doc}” with yours."),
    LockCode.HELD_BY_OTHER: Text("{holding}"),
    LockCode.LOCKED_AT_SAME_MOMENT: Text("Someone else locked “{doc}” at the same moment."),
    LockCode.TAKEN_FIRST: Text("{who} took the lock on “{doc}” first."),
    LockCode.TAKEN_FIRST_BY_YOU_ELSEWHERE: Text(
        "You ({login}) took the lock on “{doc}” first, {where}."
    ),
    LockCode.KEPT_CHANGING: Text(
        "The lock on “{doc}” kept changing while you were taking it over."
    ),
    LockCode.COULD_NOT_LOCK: Text("Could not lock “{doc}”: {error}"),
    LockCode.COULD_NOT_READ: Text("Could not read the lock of “{doc}”: {error}"),
    LockCode.COULD_NOT_TAKE_OVER: Text("Could not take over the lock on “{doc}”: {error}"),
    LockCode.RENEWED: Text("The lock on “{doc}” is renewed."),
    LockCode.MISSED: Text(
        "Could not renew the lock on “{doc}” ({misses} missed): it expires within {minutes} "
        "min unless the connection comes back. ({error})"
    ),
    LockCode.MISSED_EXPIRED: Text(
        "Could not renew the lock on “{doc}” ({misses} missed): it has expired and others may "
        "take it over. ({error})"
    ),
    LockCode.TAKEN_FROM_YOU: Text("{who} took over your lock on “{doc}” at {since}."),
    LockCode.TAKEN_FROM_YOU_ELSEWHERE: Text(
        "You ({login}) took over the lock on “{doc}” {where} at {since}."
    ),
    LockCode.REPLACED_BY_UNREADABLE: Text(
        "Your lock on “{doc}” was replaced by a lock file that cannot be read."
    ),
    LockCode.RELEASED_BY_OTHER: Text("Someone else released your lock on “{doc}”."),
    LockCode.LOST_WHILE_OFFLINE: Text(
        "Someone else took over or released your lock on “{doc}” while the connection was failing."
    ),
    LockCode.RELEASED: Text("Released the lock on “{doc}”."),
    LockCode.RELEASED_FROM: Text("Released the lock on “{doc}” that {who} held."),
    LockCode.NOT_LOCKED: Text("“{doc}” is not locked."),
    LockCode.RELEASED_MEANWHILE: Text("The lock on “{doc}” was released meanwhile."),
    LockCode.CLAIMED_AGAIN: Text(
        "You took the lock on “{doc}” again meanwhile; the new lock is left alone."
    ),
    LockCode.NOT_YOURS: Text("The lock on “{doc}” is no longer yours; it is left alone. {holding}"),
    LockCode.CHANGED_WHILE_RELEASING: Text(
        "The lock on “{doc}” changed while it was being released; nothing was deleted. {holding}"
    ),
    LockCode.COULD_NOT_RELEASE: Text("Could not release the lock on “{doc}”: {error}"),
    LockCode.STILL_YOURS: Text("The lock on “{doc}” is still yours."),
    LockCode.COULD_NOT_CHECK: Text("Could not check the lock on “{doc}”: {error}"),
}

# Codes whose sentence tells who holds the lock now, from the result's view.
_HOLDING = {LockCode.HELD_BY_OTHER, LockCode.NOT_YOURS, LockCode.CHANGED_WHILE_RELEASING}


def holder_name(login: str | None) -> Text:
    """Someone else named inside a sentence: ``@kim`` / "kim 님", with the display name when it
    is known ("김민지 (@kim)" / "김민지(kim) 님"); "someone else" when the lock does not say."""
    if not login:
        return Text("someone else")
    name = people.current().name_of(login)
    if name and name.casefold() != login.casefold():
        return Text("{name} (@{login})", name=name, login=login)
    return Text("@{login}", login=login)


def sentence(code: LockCode, doc: str, view: LockView | None, result: _Result) -> Text:
    """The sentence of ``code`` about ``doc``, with the result's fields (and its error and
    view where the sentence names them)."""
    fields: dict[str, object] = {"doc": doc, **result.fields}
    if result.error is not None and "error" not in fields:
        fields["error"] = result.error
    if "error" in fields and isinstance(fields["error"], BaseException):
        fields["error"] = _err_text(fields["error"])
    if code in _HOLDING:
        fields.setdefault("holding", _holding(view))
    return Text(SENTENCES[code].source, **fields)


def with_title(text: Text, title: str) -> Text:
    """``text`` naming the document by ``title`` instead of its docId (for a screen), in the
    sentences it is made of too."""
    fields = {k: with_title(v, title) if isinstance(v, Text) else v for k, v in text.fields.items()}
    if "doc" in fields:
        fields["doc"] = title
    return Text(text.source, **fields)


def _holding(view: LockView | None) -> Text:
    if view is None:
        return Text("")
    return words.describe(view)
