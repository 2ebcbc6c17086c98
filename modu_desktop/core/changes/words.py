"""How a change of many pages is said (Qt-free): each function returns a
:class:`~modu_desktop.core.text.Text`, worded in the language of the moment when called.

Pages are named by their titles; who holds a lock is said as every lock is said
(:func:`modu_desktop.core.locks.words.line`); a page the publish check stopped is said with
the check's own sentence.
"""

from __future__ import annotations

from modu_desktop.core.changes.outcome import (
    ChangeOutcome,
    ChangeState,
    ChangeSummary,
    PageNote,
    PageReason,
)
from modu_desktop.core.documents.history import change_words
from modu_desktop.core.documents.naming import ManyPages
from modu_desktop.core.locks import words as lock_words
from modu_desktop.core.publish.check.model import Finding
from modu_desktop.core.text import Text

__all__ = ["finding", "headline", "left_out", "summary"]


def summary(s: ChangeSummary, pages: int) -> Text:
    """The change in a few words, as the history lists it: "17개 문서에서 ‘2025학년도’ →
    ‘2026학년도’"."""
    kind, undo = (s.undone_kind, not s.again) if s.kind == "undo" else (s.kind, False)
    if kind in ("replace", "rename"):
        old, new = s.old, s.new
        if kind == "rename":
            old, new = old.rsplit("/", 1)[-1], new.rsplit("/", 1)[-1]
        return change_words(ManyPages(kind, old, new, pages, "", undo))
    if s.kind == "shrink":
        name = s.old.rsplit("/", 1)[-1]
        return Text("Picture {name} made {width} px wide", name=name, width=s.width)
    if s.kind == "undo":
        return Text("An earlier change undone on {n} page(s)", n=pages)
    return Text("{n} page(s) changed", n=pages)


def headline(o: ChangeOutcome) -> Text:
    """What became of the change, in one or two sentences (the pages left out follow, one
    sentence each: :func:`left_out`)."""
    what = summary(o.summary, len(o.pages) or o.waiting)
    if o.state is ChangeState.QUEUED:
        return Text(
            "GitHub cannot be reached right now. {what}: the change waits on this computer and "
            "is saved as one change when the connection is back. A page someone opens or "
            "changes meanwhile is left out then, never overwritten.",
            what=what,
        )
    if o.state is ChangeState.COMMITTED and o.commit_sha is None:
        return Text("{what}: this change is already on the site.", what=what)
    if o.state is ChangeState.COMMITTED:
        if o.left_out:
            return Text(
                "{what}: saved as one change. {n} page(s) were not changed:",
                what=what,
                n=len(o.left_out),
            )
        return Text("{what}: saved as one change.", what=what)
    if o.state is ChangeState.STOPPED:
        return Text(
            "Nothing was changed: the picture and the pages that show it change together or "
            "not at all. Why:"
        )
    if o.left_out:
        return Text("Nothing was changed. Why:")
    return Text("Nothing was changed: no page has anything to change.")


class _Finding(Text):
    """A publish check finding's own sentence, in the language asked for."""

    __slots__ = ("finding",)

    def __init__(self, f: Finding) -> None:
        super().__init__("{finding}", finding=f.code)
        self.finding = f

    def __call__(self, lang: str | None = None) -> str:
        from modu_desktop.core.publish.check.messages import sentence

        return sentence(self.finding, lang)


def finding(f: Finding) -> Text:
    return _Finding(f)


def left_out(note: PageNote, now: float) -> Text:
    """Why one page was not changed, naming it by its title (``now``: server time, for the
    lock's times)."""
    doc = note.title
    if note.reason is PageReason.HELD:
        state = {
            "mine_other_session": lock_words.State.MINE_ELSEWHERE,
            "malformed": lock_words.State.UNREADABLE,
        }.get(note.lock_status or "", lock_words.State.OTHER)
        holding = lock_words.Holding(note.holder, note.since, note.last_seen, now, state)
        return Text("{who} It was not changed.", who=lock_words.line(holding, doc))
    if note.reason is PageReason.CHANGED:
        return Text(
            "“{doc}” changed after it was reviewed, so it was not changed; the newer text "
            "stays as it is.",
            doc=doc,
        )
    if note.reason is PageReason.GONE:
        return Text("“{doc}” was deleted meanwhile, so it was not changed.", doc=doc)
    if note.reason is PageReason.EXISTS:
        return Text("There is already a file named {name}.", name=note.path.rsplit("/", 1)[-1])
    if note.reason is PageReason.UNSAVED_HERE:
        return Text(
            "“{doc}” is open here with changes not saved yet: save or close it first.", doc=doc
        )
    if note.reason is PageReason.NOTHING_REPLACEABLE:
        return Text("Nothing on “{doc}” can be replaced where it is.", doc=doc)
    first = note.findings[0] if note.findings else None
    if first is None:
        return Text(
            "With the new text “{doc}” would stop the site from being built, so it was not "
            "changed.",
            doc=doc,
        )
    return Text(
        "With the new text “{doc}” would stop the site from being built or show wrongly, so "
        "it was not changed (line {line}: {why})",
        doc=doc,
        line=first.line,
        why=finding(first),
    )
