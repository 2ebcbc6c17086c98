"""What a lock operation reports (Qt-free): an outcome to decide on, a :class:`~modu_desktop.
core.locks.model.LockCode` for what happened and the fields of its sentence; ``text`` words it
(``news.py``), so no English is made here: ``text()`` in the current language, ``text.en`` for
a log line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from modu_desktop.core.locks.model import (
    AcquireOutcome,
    HeartbeatOutcome,
    HeldLock,
    LockCode,
    LockView,
    ReleaseOutcome,
)
from modu_desktop.core.locks.news import sentence
from modu_desktop.core.text import Text

# The codes that say the lock is no longer ours.
LOSSES = frozenset(
    {
        LockCode.TAKEN_FROM_YOU,
        LockCode.TAKEN_FROM_YOU_ELSEWHERE,
        LockCode.REPLACED_BY_UNREADABLE,
        LockCode.RELEASED_BY_OTHER,
        LockCode.LOST_WHILE_OFFLINE,
    }
)

_ACQUIRE_CODES = {
    AcquireOutcome.ACQUIRED: LockCode.ACQUIRED,
    AcquireOutcome.REUSED: LockCode.ALREADY_YOURS,
    AcquireOutcome.TOOK_OVER: LockCode.TOOK_OVER,
    AcquireOutcome.BLOCKED: LockCode.HELD_BY_OTHER,
    AcquireOutcome.LOST_RACE: LockCode.TAKEN_FIRST,
    AcquireOutcome.FAILED: LockCode.COULD_NOT_LOCK,
}
_HEARTBEAT_CODES = {
    HeartbeatOutcome.OK: LockCode.RENEWED,
    HeartbeatOutcome.LOST: LockCode.TAKEN_FROM_YOU,
    HeartbeatOutcome.RELEASED: LockCode.RELEASED_BY_OTHER,
    HeartbeatOutcome.MISSED: LockCode.MISSED,
}
_RELEASE_CODES = {
    ReleaseOutcome.RELEASED: LockCode.RELEASED,
    ReleaseOutcome.ALREADY_GONE: LockCode.NOT_LOCKED,
    ReleaseOutcome.NOT_OURS: LockCode.NOT_YOURS,
    ReleaseOutcome.FAILED: LockCode.COULD_NOT_RELEASE,
}


def _default_code(result: Any, codes: Mapping[Any, LockCode], outcome: Any) -> None:
    if result.code is None:
        object.__setattr__(result, "code", codes[outcome])


@dataclass(frozen=True)
class AcquireResult:
    outcome: AcquireOutcome
    doc_id: str
    held: HeldLock | None = None
    view: LockView | None = None
    code: LockCode = None  # type: ignore[assignment]  # None: the outcome's own code
    error: Exception | None = None
    fields: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _default_code(self, _ACQUIRE_CODES, self.outcome)

    @property
    def ok(self) -> bool:
        return self.held is not None

    @property
    def text(self) -> Text:
        return sentence(self.code, self.doc_id, self.view, self)


@dataclass(frozen=True)
class HeartbeatResult:
    outcome: HeartbeatOutcome
    held: HeldLock
    view: LockView | None = None
    misses: int = 0
    expires_in_s: float | None = None
    error: Exception | None = None
    code: LockCode = None  # type: ignore[assignment]  # None: the outcome's own code
    fields: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _default_code(self, _HEARTBEAT_CODES, self.outcome)

    @property
    def still_held(self) -> bool:
        return self.outcome in (HeartbeatOutcome.OK, HeartbeatOutcome.MISSED)

    @property
    def text(self) -> Text:
        said = sentence(self.code, self.held.doc_id, self.view, self)
        if self.code in LOSSES:
            return Text("{what} The document is read-only now.", what=said)
        return said


@dataclass(frozen=True)
class ReleaseResult:
    outcome: ReleaseOutcome
    doc_id: str
    view: LockView | None = None
    code: LockCode = None  # type: ignore[assignment]  # None: the outcome's own code
    error: Exception | None = None
    fields: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _default_code(self, _RELEASE_CODES, self.outcome)

    @property
    def text(self) -> Text:
        return sentence(self.code, self.doc_id, self.view, self)


@dataclass(frozen=True)
class VerifyResult:
    """Before a save: is the lock still ours? ``retryable``: GitHub could not be asked."""

    ok: bool
    doc_id: str
    code: LockCode
    view: LockView | None = None
    retryable: bool = False
    error: Exception | None = None
    fields: Mapping[str, object] = field(default_factory=dict)

    @property
    def text(self) -> Text:
        said = sentence(self.code, self.doc_id, self.view, self)
        if self.code in LOSSES:
            return Text("Not saved: {what}", what=said)
        return said


class LockFailure(Exception):
    """A lock result that failed without an error of its own, as an error a screen can word
    (``user_text``) — e.g. when opening a document ends in a lost race."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text

    def user_text(self) -> Text:
        return self.text

    def user_message(self) -> str:
        return self.text()
