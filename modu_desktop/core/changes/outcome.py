"""One change of many pages as people meet it: what was asked (`ChangeSummary`), the change
ready to go (`PreparedChange`: the files, the pages' titles, the pages already left out), and
what became of it (`ChangeOutcome`: the pages changed, the pages left out and why, whether it
was committed or waits in the save queue). Codes and fields only: ``words.py`` says them.

A replacement across pages, a picture's rename and the undoing of either are all prepared as a
`PreparedChange` and sent the same way (``core/saving/many_pages.send_change``): one commit
through ``apply_changes``, or one item in the save queue while GitHub cannot be reached. The
commit message names the change in the web admin's style (``core/documents/naming.py``), so
the history can tell it again and undo it as one.
"""

from __future__ import annotations

import base64
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.changes.model import (
    ChangeKind,
    ChangeResult,
    ChangeSet,
    FileChange,
    FileLeftOut,
    FileLeftOutReason,
    changes_message,
)
from modu_desktop.core.documents.naming import (
    doc_id_for_path,
    rename_picture_message,
    replace_message,
    undo_message,
)
from modu_desktop.core.publish.check.model import Finding, Severity

__all__ = [
    "ChangeOutcome",
    "ChangeState",
    "ChangeSummary",
    "PageDone",
    "PageNote",
    "PageReason",
    "PreparedChange",
    "commit_message",
    "outcome_of",
]


@dataclass(frozen=True)
class ChangeSummary:
    """What was asked, as the history tells it again. ``kind``: "replace" (``old`` words →
    ``new``), "rename" (a picture's ``old`` path → ``new`` path), "shrink" (the picture at
    ``old`` made ``width`` pixels wide) or "undo" (of the commit ``undone_sha`` whose first
    line was ``undone_subject``; ``old``/``new`` are that change's words when it was a
    replacement or a rename, and ``undone_kind`` says which; ``again``: that commit was itself
    an undo, so this makes the change again)."""

    kind: str
    old: str = ""
    new: str = ""
    width: int = 0
    undone_kind: str = ""
    undone_sha: str = ""
    undone_subject: str = ""
    again: bool = False

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v not in ("", 0, False)}

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> ChangeSummary:
        known = {k: body[k] for k in cls.__dataclass_fields__ if k in body}
        return cls(**known)


class PageReason(enum.Enum):
    """Why a page (or a file) of the change was not changed."""

    HELD = "held"  # someone else holds its lock (or I do in another window, or it is unreadable)
    CHANGED = "changed"  # it changed since it was reviewed
    GONE = "gone"  # it was deleted since it was reviewed
    EXISTS = "exists"  # the new name is taken
    UNSAVED_HERE = "unsaved_here"  # open in this window with text not saved yet
    NOTHING_REPLACEABLE = "nothing_replaceable"  # none of its chosen hits can be replaced there
    BREAKS_SITE = "breaks_site"  # with the new text the site would not build or show it wrongly


@dataclass(frozen=True)
class PageNote:
    """A page (or file) left out of the change, and why: for a lock, who holds it
    (``holder``, a login), since when and its last sign of life (server Unix seconds), and the
    lock's status value; for the publish check, its ``findings`` on the new text."""

    path: str
    title: str
    reason: PageReason
    doc_id: str | None = None
    holder: str | None = None
    since: float | None = None
    last_seen: float | None = None
    lock_status: str | None = None
    findings: tuple[Finding, ...] = ()

    def as_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "path": self.path,
            "title": self.title,
            "reason": self.reason.value,
            "docId": self.doc_id,
        }
        for key, value in (
            ("holder", self.holder),
            ("since", self.since),
            ("lastSeen", self.last_seen),
            ("lockStatus", self.lock_status),
        ):
            if value is not None:
                body[key] = value
        if self.findings:
            body["findings"] = [_finding_json(f) for f in self.findings]
        return body

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> PageNote:
        return cls(
            str(body["path"]),
            str(body["title"]),
            PageReason(body["reason"]),
            body.get("docId"),
            body.get("holder"),
            body.get("since"),
            body.get("lastSeen"),
            body.get("lockStatus"),
            tuple(_finding_from(f) for f in body.get("findings", ())),
        )


def _finding_json(f: Finding) -> dict[str, Any]:
    return {
        "code": f.code,
        "severity": f.severity.value,
        "offset": f.offset,
        "end": f.end,
        "line": f.line,
        "column": f.column,
        "fields": dict(f.fields),
    }


def _finding_from(body: Mapping[str, Any]) -> Finding:
    return Finding(
        str(body["code"]),
        Severity(body["severity"]),
        int(body["offset"]),
        int(body["end"]),
        int(body["line"]),
        int(body["column"]),
        {str(k): str(v) for k, v in dict(body.get("fields", {})).items()},
    )


@dataclass(frozen=True)
class PreparedChange:
    """A change ready to be sent: the files over the versions the person reviewed, each page's
    title (path → title), and the pages already left out before anything was sent (locked
    when reviewed, unsaved here, stopped by the publish check). ``all_or_nothing``: when a
    file would be left out at sending time, nothing goes (a rename and its pages)."""

    summary: ChangeSummary
    changes: ChangeSet
    titles: Mapping[str, str] = field(default_factory=dict)
    left_out: tuple[PageNote, ...] = ()
    all_or_nothing: bool = False

    def title_of(self, path: str) -> str:
        return self.titles.get(path) or path.rsplit("/", 1)[-1]

    @property
    def pages(self) -> int:
        """How many pages (documents) the change would change."""
        return sum(1 for c in self.changes if c.doc_ids)

    @property
    def new_texts(self) -> dict[str, str]:
        """path (after the change) → the page's new text, for the pages it writes."""
        return {
            c.final_path: c.data.decode("utf-8", "surrogateescape")
            for c in self.changes
            if c.data is not None and c.final_path.endswith(".md")
        }

    def as_json(self) -> dict[str, Any]:
        return {
            "summary": self.summary.as_json(),
            "files": [_change_json(c) for c in self.changes],
            "titles": dict(self.titles),
            "leftOut": [n.as_json() for n in self.left_out],
            "allOrNothing": self.all_or_nothing,
        }

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> PreparedChange:
        changes = ChangeSet()
        for f in body["files"]:
            _add_change(changes, f)
        return cls(
            ChangeSummary.from_json(body["summary"]),
            changes,
            {str(k): str(v) for k, v in dict(body.get("titles", {})).items()},
            tuple(PageNote.from_json(n) for n in body.get("leftOut", ())),
            bool(body.get("allOrNothing", False)),
        )


def _change_json(c: FileChange) -> dict[str, Any]:
    body: dict[str, Any] = {"kind": c.kind.value, "path": c.path, "baseSha": c.base_sha}
    if c.new_path:
        body["newPath"] = c.new_path
    if c.data is not None:
        body["data"] = base64.b64encode(c.data).decode("ascii")
    return body


def _add_change(changes: ChangeSet, body: Mapping[str, Any]) -> None:
    kind = ChangeKind(body["kind"])
    data = base64.b64decode(body["data"]) if body.get("data") is not None else None
    base = body.get("baseSha")
    if kind is ChangeKind.DELETE:
        changes.delete(body["path"], str(base))
    elif kind is ChangeKind.RENAME:
        changes.rename(body["path"], body["newPath"], str(base), data)
    else:
        assert data is not None
        changes.write(body["path"], data, base)


def commit_message(summary: ChangeSummary, included: Sequence[FileChange], login: str) -> str:
    """The one commit's message: the change named in its first line (the history reads it),
    then one line per file."""
    pages = sum(1 for c in included if c.doc_ids)
    if summary.kind == "replace":
        subject = replace_message(summary.old, summary.new, pages, login)
    elif summary.kind == "rename":
        subject = rename_picture_message(summary.old, summary.new, pages, login)
    elif summary.kind == "shrink":
        name = summary.old.rsplit("/", 1)[-1]
        subject = f"docs(edit): shrink picture {name} to {summary.width} px by @{login}"
    elif summary.kind == "undo":
        subject = undo_message(summary.undone_subject, pages, login, summary.undone_sha[:7])
    else:
        subject = None
    return changes_message(included, login, subject)


class ChangeState(enum.Enum):
    COMMITTED = "committed"  # in one commit on the branch (``commit_sha``; None: it was already)
    QUEUED = "queued"  # GitHub could not be reached: it waits in the save queue as one item
    NOTHING = "nothing"  # nothing was changed (every page left out, or nothing to change)
    STOPPED = "stopped"  # all or nothing, and something would have been left out


@dataclass(frozen=True)
class PageDone:
    """A page (or file) the change changed: its path now, its new blob sha, and its new text
    when it is a page (an open editor shows it)."""

    path: str
    title: str
    blob_sha: str
    text: str | None = None
    doc_id: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path, "title": self.title, "sha": self.blob_sha, "docId": self.doc_id}

    @classmethod
    def from_json(cls, body: Mapping[str, Any], text: str | None = None) -> PageDone:
        return cls(str(body["path"]), str(body["title"]), str(body["sha"]), text, body.get("docId"))


@dataclass(frozen=True)
class ChangeOutcome:
    """What became of a prepared change. ``queued_id``: the save queue's item (QUEUED);
    ``cause``: the failure that sent it there."""

    summary: ChangeSummary
    state: ChangeState
    committed: tuple[PageDone, ...] = ()
    left_out: tuple[PageNote, ...] = ()
    commit_sha: str | None = None
    queued_id: str | None = None
    cause: BaseException | None = field(default=None, compare=False)
    waiting: int = 0  # QUEUED: how many pages wait

    @property
    def complete(self) -> bool:
        return not self.left_out and self.state in (ChangeState.COMMITTED, ChangeState.QUEUED)

    @property
    def pages(self) -> tuple[PageDone, ...]:
        """The documents changed (a renamed picture itself is not one)."""
        return tuple(p for p in self.committed if p.doc_id)

    def as_json(self) -> dict[str, Any]:
        return {
            "state": self.state.value,
            "summary": self.summary.as_json(),
            "commit": self.commit_sha,
            "queued": self.queued_id,
            "changed": [p.as_json() for p in self.committed],
            "leftOut": [n.as_json() for n in self.left_out],
        }

    @classmethod
    def from_json(
        cls, body: Mapping[str, Any], texts: Mapping[str, str] | None = None
    ) -> ChangeOutcome:
        """The outcome written by :meth:`as_json`; ``texts`` (path → new text) gives the
        changed pages their texts back."""
        texts = texts or {}
        return cls(
            ChangeSummary.from_json(body["summary"]),
            ChangeState(body["state"]),
            tuple(PageDone.from_json(p, texts.get(str(p["path"]))) for p in body["changed"]),
            tuple(PageNote.from_json(n) for n in body["leftOut"]),
            body.get("commit"),
            body.get("queued"),
        )


def _done(prepared: PreparedChange, c: FileChange) -> PageDone:
    path = c.final_path
    sha = git_blob_sha(c.data) if c.data is not None else str(c.base_sha)
    text = None
    if c.data is not None and path.endswith(".md"):
        text = c.data.decode("utf-8", "surrogateescape")
    return PageDone(path, prepared.title_of(c.path), sha, text, doc_id_for_path(path))


_REASONS = {
    FileLeftOutReason.HELD: PageReason.HELD,
    FileLeftOutReason.CHANGED: PageReason.CHANGED,
    FileLeftOutReason.GONE: PageReason.GONE,
    FileLeftOutReason.EXISTS: PageReason.EXISTS,
}


def _note(prepared: PreparedChange, out: FileLeftOut) -> PageNote:
    return PageNote(
        out.path,
        prepared.title_of(out.path),
        _REASONS[out.reason],
        out.doc_id,
        out.holder,
        out.since,
        out.last_seen,
        out.lock_status,
    )


def outcome_of(prepared: PreparedChange, result: ChangeResult) -> ChangeOutcome:
    """The outcome of ``prepared`` sent as ``result``: the pages committed now or already
    there, and every page left out, before sending or at it."""
    done = tuple(_done(prepared, c) for c in (*result.committed, *result.already))
    left = (*prepared.left_out, *(_note(prepared, o) for o in result.left_out))
    if result.commit_sha is not None or done:
        state = ChangeState.COMMITTED
    elif prepared.all_or_nothing and result.left_out:
        state = ChangeState.STOPPED
    else:
        state = ChangeState.NOTHING
    return ChangeOutcome(prepared.summary, state, done, tuple(left), result.commit_sha)
