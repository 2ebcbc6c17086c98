"""The search mode of the document list: every page searched from the local blob cache.

:class:`SearchMode` keeps a :class:`~modu_desktop.core.search.index.SearchIndex` in step with the
list: after each list refresh (:meth:`follow`) the index reads the pages whose text changed,
a slice at a time between turns of the event loop, what it read kept on disk for the next
start (one folder per repository, pruned to the listed pages once a run); the panel shows how far
it got. A search asks nothing of GitHub: it is a string search
over what the index holds, run when typing pauses. Choosing a place found hands it to the
window (``open_found``), which opens the page in its cards at that field; 모두 바꾸기… hands
the search to the review of a replacement across pages (``review``, made by the window with
:func:`~modu_desktop.ui.search.replacing.open_replace_review`).

The counter always says what the list shows: "3개 문서에서 12곳", "찾은 곳이 없습니다", or that
the pages are still being read — never "nothing found" before they were searched.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject

from modu_desktop.core.documents.model import ListedPage
from modu_desktop.core.search.index import Refreshed, SearchIndex
from modu_desktop.core.search.kept import KeptPages
from modu_desktop.core.search.model import SearchOptions, SearchResults
from modu_desktop.i18n import tr
from modu_desktop.ui.search.panel import SearchPanel
from modu_desktop.ui.search.replacing import ReplaceRequest
from modu_desktop.ui.search.results import Found

log = logging.getLogger(__name__)

LISTED_HITS = 500  # places listed at most (every one is counted)

OpenFound = Callable[[Found, str, SearchOptions], Coroutine[Any, Any, object]]
Review = Callable[[ReplaceRequest], Coroutine[Any, Any, object]]
Run = Callable[[Coroutine[Any, Any, Any]], object]


@dataclass(frozen=True, slots=True)
class _TitledPage:
    """A listed page titled as the list titles it."""

    doc_id: str
    path: str
    sha: str
    title: str


class SearchMode(QObject):
    """See the module docstring. ``read_blob`` reads a blob from the local cache; ``run``
    runs a coroutine as one of the window's jobs; ``kept``: where the index's reading is kept
    between runs (None: not kept); ``review``: the review of a replacement across pages (None:
    no replacing here, as in viewer mode)."""

    def __init__(
        self,
        panel: SearchPanel,
        read_blob: Callable[[str], bytes | None],
        run: Run,
        open_found: OpenFound,
        *,
        kept: KeptPages | None = None,
        review: Review | None = None,
    ) -> None:
        super().__init__(panel)
        self.panel = panel
        self.index = SearchIndex(read_blob, kept)
        self._kept = kept
        self._run = run
        self._open_found = open_found
        self._review = review
        self.ready = False  # the index has followed one listing at least
        self.reading = False
        self._waiting: tuple[_TitledPage, ...] | None = None  # a listing that came while reading
        self._titles: dict[str, str] = {}
        self.results: SearchResults | None = None
        self._progress = (0, 0)
        panel.set_replace_shown(review is not None)
        panel.searchChanged.connect(self.search)
        panel.results.chosen.connect(self._chosen)
        panel.replaceRequested.connect(self._replace)
        self._say()

    # ------------------------------------------------------------------ keeping up with the list
    def follow(self, docs: Sequence[ListedPage], titles: dict[str, str] | None = None) -> None:
        """A new listing (after a list refresh): the index follows it in the background."""
        titles = titles or {}
        pages = tuple(
            _TitledPage(d.doc_id, d.path, d.sha, titles.get(d.doc_id) or d.title or d.doc_id)
            for d in docs
        )
        if self.reading:
            self._waiting = pages
            return
        if self.ready and pages == tuple(self.index.docs):
            return  # nothing changed since the index last followed the list
        self.reading = True
        self._titles = {p.doc_id: p.title for p in pages}
        self._run(self._follow(pages))

    async def _follow(self, pages: tuple[_TitledPage, ...]) -> None:
        before = tuple(self.index.docs)
        try:
            done: Refreshed = await self.index.refresh(pages, self._reading_progress)
        finally:
            self.reading = False
            self._progress = (0, 0)
            self.panel.set_progress(0, 0)
        log.info(
            "search index: %d read, %d loaded, %d kept, %d unread",
            done.read,
            done.loaded,
            done.kept,
            len(done.unread),
        )
        first = not self.ready
        self.ready = True
        if first and self._kept is not None:  # once a run: what no listed page needs goes
            removed = await asyncio.to_thread(self._kept.prune, {p.sha for p in pages})
            log.info("search index: %d pages no longer listed taken off the disk", removed)
        waiting, self._waiting = self._waiting, None
        if first or tuple(self.index.docs) != before:
            self.search()
        else:
            self._say()
        if waiting is not None:
            self.follow(waiting, {p.doc_id: p.title for p in waiting})

    def _reading_progress(self, done: int, total: int) -> None:
        self._progress = (done, total)
        self.panel.set_progress(done, total)
        if not self.ready:
            self._say()

    # ------------------------------------------------------------------ searching
    def search(self) -> None:
        """Search with the panel's words and choices, and show what was found."""
        query = self.panel.query()
        if not self.ready or not query.strip():
            self.results = None
            self.panel.results.clear()
            self._say()
            return
        self.results = self.index.search(query, self.panel.options(), limit=LISTED_HITS)
        self.panel.results.show_results(self.results, self._titles)
        self._say()

    def _say(self) -> None:
        """The counter: what the list below it shows, or why it shows nothing."""
        panel, found = self.panel, self.results
        panel.replace_button.setEnabled(bool(found and found.shown))
        if not self.ready:
            done, total = self._progress
            if total:
                panel.set_status(
                    tr("Reading the pages… {done} of {total}", done=done, total=total), "checking"
                )
            else:
                panel.set_status(tr("Reading the pages…"), "checking")
            return
        if found is None:
            n = len(self.index.docs)
            panel.set_status(tr("Type the words to find on all {n} page(s).", n=n))
            return
        if not found.total:
            text = tr("Nothing found.")
            if found.options.case_sensitive or found.options.whole_word:
                text += " " + tr("Without “Match case” or “Whole words only” more may be found.")
            panel.set_status(text + self._unread(found), "info")
            return
        text = tr("{hits} place(s) on {pages} page(s)", hits=found.total, pages=found.page_total)
        if found.truncated:
            text += " · " + tr("only the first {n} are listed", n=found.shown)
        panel.set_status(text + self._unread(found), "ok")

    @staticmethod
    def _unread(found: SearchResults) -> str:
        if not found.unread:
            return ""
        return " " + tr(
            "{n} page(s) were not searched: their text is not here yet.", n=len(found.unread)
        )

    # ------------------------------------------------------------------ acting on what was found
    def _chosen(self, found: Found) -> None:
        results = self.results
        if results is None:
            return
        self._run(self._open_found(found, results.query, results.options))

    def _replace(self) -> None:
        results, review = self.results, self._review
        if results is None or not results.shown or review is None:
            return
        request = ReplaceRequest(
            results.query,
            self.panel.replace_edit.text(),
            results.options,
            results,
            self.index,
        )
        self._run(review(request))
