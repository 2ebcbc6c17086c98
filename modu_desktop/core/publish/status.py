"""Where each document stands, for one window: the one state every widget reads (Qt-free).

    board = PublishBoard(login)
    board.set_phase(doc_id, EditPhase.UNSAVED)     # the editor: typed, saving, queued, read-only
    board.saved(doc_id, commit_sha, at=now)         # a save landed: its deploy is followed
    board.last_save, board.last_save_status()       # the last commit made here, as one
    board.observe(commit_sha, runs, elapsed_s)      # each workflow-runs answer for that commit
    board.site_stopped(stop)                        # a build failed: which pages, who, when
    board.site_built(run_id)                        # a later build succeeded: the stop is over
    board.status(doc_id) -> DocStatus               # what the strip, status bar, list, banners show

The status bar, the line under the editor, the document list and the failed-publish notice all
render :meth:`PublishBoard.status`; none keeps a state of its own, so they cannot disagree.
Listeners (``subscribe``) are told after every change.

A save's deploy is one :class:`~modu_desktop.core.publish.deploy.DeployTracker` (only forward).
A change of many pages (a replacement across pages, a picture's rename) is one commit: its
pages share one tracker, so they are published together and their state is told as one
(:attr:`PublishBoard.last_save`, :meth:`PublishBoard.last_save_status`). The
site's build is shared by everyone: when it fails, the pages the log names
(:class:`~modu_desktop.core.publish.blame.BrokenPage`) are the stop. A save whose build failed
because of *another* page is ON_HOLD, not failed: its text is saved and is published with the
first build that succeeds. That build ends the stop for every save before it.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from modu_desktop.core.publish.blame import BrokenPage
from modu_desktop.core.publish.deploy import DeployState, DeployTracker


class EditPhase(enum.Enum):
    """What the editor holds compared with the saved document."""

    CLEAN = "clean"  # the editor shows what is saved
    UNSAVED = "unsaved"  # typed since the last save
    CHECKING = "checking"  # the check before a save reads the text
    SAVING = "saving"
    QUEUED = "queued"  # the save waits on this computer for the connection
    READ_ONLY = "read_only"  # it cannot be saved here (someone else edits it, lock lost, viewer)


# The editor holds text that is not (yet) the saved document.
UNSAVED_PHASES = frozenset(
    {EditPhase.UNSAVED, EditPhase.CHECKING, EditPhase.SAVING, EditPhase.QUEUED}
)


class PublishPhase(enum.Enum):
    """How far this window's last save of a document has got on the site."""

    NONE = "none"  # not saved from here
    WAITING = "waiting"
    BUILDING = "building"
    PUBLISHED = "published"
    FAILED = "failed"  # the build failed because of this very page
    ON_HOLD = "on_hold"  # the build failed because of another page: saved, published later
    CHECKING = "checking"  # the build failed; the log is being read to learn why
    SKIPPED = "skipped"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class SiteStop:
    """The site's build fails (since run ``run_id``), because of ``pages`` (empty: the log
    names none, or cannot be read)."""

    run_id: int
    run_url: str | None
    pages: tuple[BrokenPage, ...]
    failure: Any = field(default=None, compare=False)  # the DeployFailure; None: log not read
    run: Any = field(default=None, compare=False)  # the failed WorkflowRun (to read it again)

    def page_of(self, doc_id: str | None) -> BrokenPage | None:
        return next((p for p in self.pages if doc_id and p.doc_id == doc_id), None)

    def mine(self, login: str) -> tuple[BrokenPage, ...]:
        """The pages whose breaking change ``login`` saved."""
        return tuple(p for p in self.pages if p.saved_by_login(login))


@dataclass(frozen=True)
class DocStatus:
    """One document as every widget shows it."""

    doc_id: str | None
    phase: EditPhase | None  # None: not open here
    publishing: PublishPhase
    commit_sha: str | None = None  # this window's last save of it
    saved_at: float | None = None  # server seconds of that save
    stop: SiteStop | None = None  # the site's current stop, whatever page it is
    breaks_site: BrokenPage | None = None  # this document is one of the stop's pages
    page_url: str | None = None  # where the page is published ("view on site")
    detail: str = ""  # why no news will come: "no-access", "no-run", "skipped", "cancelled"
    unpublished: bool = False  # draft: true: a good build leaves this page out of the site

    @property
    def unsaved(self) -> bool:
        return self.phase in UNSAVED_PHASES


@dataclass
class _Doc:
    phase: EditPhase | None = None
    tracker: DeployTracker | None = None
    saved_at: float | None = None
    page_url: str | None = None
    detail: str = ""
    unpublished: bool = False


_FROM_DEPLOY = {
    DeployState.WAITING: PublishPhase.WAITING,
    DeployState.BUILDING: PublishPhase.BUILDING,
    DeployState.PUBLISHED: PublishPhase.PUBLISHED,
    DeployState.SKIPPED: PublishPhase.SKIPPED,
    DeployState.UNKNOWN: PublishPhase.UNKNOWN,
}


class PublishBoard:
    def __init__(self, login: str) -> None:
        self.login = login
        self.stop: SiteStop | None = None
        # the documents the last commit made here changed, in the order they were told (one
        # for a save, several for a change of many pages)
        self.last_save: tuple[str, ...] = ()
        self._last_commit: str | None = None
        self._docs: dict[str, _Doc] = {}
        self._built_after: int = 0  # the newest run seen to succeed
        self._listeners: list[Callable[[], None]] = []

    # -- listening ---------------------------------------------------------------------------

    def subscribe(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    # -- feeding -----------------------------------------------------------------------------

    def set_phase(self, doc_id: str, phase: EditPhase | None) -> None:
        """The editor's side of a document (None: it is not open here any more)."""
        doc = self._docs.setdefault(doc_id, _Doc())
        if doc.phase is not phase:
            doc.phase = phase
            self._changed()

    def set_unpublished(self, doc_id: str, unpublished: bool) -> None:
        """The saved page says ``draft: true`` (or no longer does): a built site leaves it out."""
        doc = self._docs.setdefault(doc_id, _Doc())
        if doc.unpublished is not unpublished:
            doc.unpublished = unpublished
            self._changed()

    def saved(
        self,
        doc_id: str,
        commit_sha: str,
        *,
        at: float | None = None,
        page_url: str | None = None,
        give_up_after_s: float = 180.0,
    ) -> DeployTracker:
        """A save of ``doc_id`` made ``commit_sha``: follow its deploy from the start. Another
        page of the same commit (a change of many pages) shares the deploy already followed."""
        shared = self._docs_of(commit_sha)
        tracker = shared[0].tracker if shared else None
        doc = self._docs.setdefault(doc_id, _Doc())
        doc.tracker = tracker or DeployTracker(commit_sha, give_up_after_s=give_up_after_s)
        doc.saved_at, doc.page_url = at, page_url
        doc.detail = next((d.detail for d in shared if d is not doc and d.detail), "")
        if commit_sha != self._last_commit:
            self.last_save, self._last_commit = (), commit_sha
        if doc_id not in self.last_save:
            self.last_save = (*self.last_save, doc_id)
        self._changed()
        return doc.tracker

    def _docs_of(self, commit_sha: str) -> list[_Doc]:
        return [
            doc
            for doc in self._docs.values()
            if doc.tracker is not None and doc.tracker.commit_sha == commit_sha
        ]

    def tracker_of(self, commit_sha: str) -> DeployTracker | None:
        docs = self._docs_of(commit_sha)
        return docs[0].tracker if docs else None

    def observe(
        self, commit_sha: str, runs: Iterable[Any] | None, elapsed_s: float = 0.0
    ) -> DeployState | None:
        """One workflow-runs answer for ``commit_sha``; the state of its deploy now (for
        every page of that commit)."""
        docs = self._docs_of(commit_sha)
        t = docs[0].tracker if docs else None
        if t is None:
            return None
        before = t.state
        state = t.observe(runs, elapsed_s)
        if state is not before:
            detail = ""
            if state is DeployState.UNKNOWN:
                detail = "no-run"
            elif state is DeployState.SKIPPED and t.run is not None:
                detail = str(getattr(t.run, "conclusion", None) or "skipped")
            for doc in docs if detail else ():
                doc.detail = detail
        if state is DeployState.PUBLISHED and t.run is not None:
            self._built(int(getattr(t.run, "id", 0) or 0))
        elif state is not before:
            self._changed()
        return state

    def unavailable(self, commit_sha: str) -> None:
        """The runs of ``commit_sha`` cannot be read with this sign-in."""
        docs = self._docs_of(commit_sha)
        t = docs[0].tracker if docs else None
        if t is not None and not t.state.final:
            t.unavailable()
            for doc in docs:
                doc.detail = "no-access"
            self._changed()

    def site_stopped(self, stop: SiteStop) -> None:
        """A build failed and its log was read. An older failure than what is known, or one
        before a build that succeeded, changes nothing."""
        if stop.run_id <= self._built_after:
            return
        if self.stop is not None and stop.run_id < self.stop.run_id:
            return
        self.stop = stop
        self._changed()

    def site_built(self, run_id: int) -> None:
        """Run ``run_id`` built and published the site: every save before it is published,
        and a stop from an earlier failed run is over."""
        self._built(run_id)

    def _built(self, run_id: int) -> None:
        self._built_after = max(self._built_after, run_id)
        for doc in self._docs.values():
            t = doc.tracker
            if t is not None and t.state is DeployState.FAILED:
                failed_run = int(getattr(t.run, "id", 0) or 0)
                if failed_run and failed_run < run_id:
                    t.published_later()
        if self.stop is not None and self.stop.run_id < run_id:
            self.stop = None
        self._changed()

    def forget(self, doc_id: str) -> None:
        """The document is gone (deleted): nothing more to show about it."""
        self.last_save = tuple(d for d in self.last_save if d != doc_id)
        if self._docs.pop(doc_id, None) is not None:
            self._changed()

    # -- reading -----------------------------------------------------------------------------

    def status(self, doc_id: str | None) -> DocStatus:
        doc = self._docs.get(doc_id or "") or _Doc()
        stop = self.stop
        page = stop.page_of(doc_id) if stop is not None else None
        t = doc.tracker
        if t is None:
            publishing = PublishPhase.NONE
        elif t.state is DeployState.FAILED:
            # A stop already explained tells why even when this save's own, later failure is
            # still being read: the page that broke the site breaks it still, most likely.
            if stop is None or stop.failure is None:
                publishing = PublishPhase.CHECKING
            elif page is not None or not stop.pages:
                publishing = PublishPhase.FAILED
            else:
                publishing = PublishPhase.ON_HOLD
        else:
            publishing = _FROM_DEPLOY[t.state]
        return DocStatus(
            doc_id=doc_id,
            phase=doc.phase,
            publishing=publishing,
            commit_sha=t.commit_sha if t is not None else None,
            saved_at=doc.saved_at,
            stop=stop,
            breaks_site=page,
            page_url=doc.page_url,
            detail=doc.detail,
            unpublished=doc.unpublished,
        )

    def last_save_status(self) -> DocStatus | None:
        """The last commit made here as one state (None: nothing saved from here): its page's,
        or for a change of many pages the state that tells most — a page of it that stops the
        site is the change failing, not the others' waiting for it."""
        states = [self.status(doc_id) for doc_id in self.last_save]
        breaking = [s for s in states if s.publishing is PublishPhase.FAILED]
        return next(iter(breaking or states), None)

    def open_failures(self) -> list[str]:
        """The commits whose deploy failed and whose cause is not read yet."""
        out: dict[str, None] = {}  # a commit of many pages once
        for doc in self._docs.values():
            t = doc.tracker
            if t is not None and t.state is DeployState.FAILED:
                failed_run = int(getattr(t.run, "id", 0) or 0)
                if self.stop is None or self.stop.run_id < failed_run:
                    out[t.commit_sha] = None
        return list(out)
