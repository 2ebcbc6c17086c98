"""Search every page of the brochure from the local blob cache (Qt-free): :class:`SearchIndex`.

After a list refresh every document's blob is in the disk cache (the store reads them to list
the pages). The index reads each page once per blob sha (:func:`read_page`) and keeps, in
memory, only what a search needs: each field's place and text, and the fields joined into one
prepared string per page. A refresh that changed three pages reads three pages again; a search
is a string search over those strings — no request, no parsing. Given :class:`KeptPages`, what
was read is kept on disk by blob sha too, and a later start loads it instead of reading again.
A hit's pieces of Markdown (``Hit.spans``) come from reading that page again, only when they
are asked for (to mark or replace the words), and the last few pages read are kept.
"""

from __future__ import annotations

import asyncio
import bisect
import logging
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from modu_desktop.core.documents.model import ListedPage
from modu_desktop.core.search.kept import KeptPages
from modu_desktop.core.search.matching import Prepared, count, find, prepare, prepare_query
from modu_desktop.core.search.model import (
    Hit,
    PageField,
    PageHits,
    Place,
    SearchOptions,
    SearchResults,
)
from modu_desktop.core.search.reading import read_page

__all__ = ["PageText", "SearchIndex", "Refreshed", "decode", "hits_in"]

log = logging.getLogger(__name__)

ReadBlob = Callable[[str], bytes | None]
"""The bytes of a blob by its sha from the local cache, None when they are not there."""

Progress = Callable[[int, int], None]
"""Told ``(pages done, pages listed)`` at each pause of an async refresh."""

_SEPARATOR = "\0"  # between two fields of a page: never in a prepared search text
# The work between two looks at the event loop (~20 ms, at most ~70 on the slowest pages of the
# benchmark's brochure): reading a page costs about as much as loading twenty that an earlier run
# kept, so two read pages or 64 loaded ones.
_READ_COST, _LOADED_COST, _SLICE_COST = 32, 1, 64
_FULL_READINGS_KEPT = 16


@dataclass(frozen=True, slots=True)
class PageText:
    """One page's current text, as a replace plan starts from it."""

    doc_id: str
    path: str
    title: str
    sha: str
    text: str


@dataclass(frozen=True, slots=True)
class Refreshed:
    """What :meth:`SearchIndex.update` did: pages ``read`` (new or changed), ``kept`` (already
    in memory), ``loaded`` (as an earlier run read them, from :class:`KeptPages`), and
    ``unread`` doc ids (their text is not in the cache)."""

    read: int
    kept: int
    unread: tuple[str, ...] = ()
    loaded: int = 0


def decode(data: bytes) -> str:
    """A document's bytes as text, as the store decodes them (bytes that are not UTF-8 kept)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape")


@dataclass(slots=True)
class _Page:
    """What the index keeps of one blob: each field's place, text and card, and per case
    choice the fields prepared and joined into one string, with where each field starts in it
    and, for the rare field whose preparing changed its length, the way back to its offsets
    (the case-sensitive string is made at its first use)."""

    places: tuple[Place, ...]
    texts: tuple[str, ...]
    cards: array[int]
    joined: dict[bool, tuple[str, array[int], dict[int, Prepared]]] = field(default_factory=dict)

    @classmethod
    def of(cls, fields: Iterable[tuple[Place, str, int]], places: dict[Place, Place]) -> _Page:
        """The page of its fields' places, texts and cards (``places``: one object per place,
        shared between pages)."""
        got = list(fields)
        page = cls(
            tuple(places.setdefault(p, p) for p, _, _ in got),
            tuple(t for _, t, _ in got),
            array("L", (c for _, _, c in got)),
        )
        page.prepared(False)
        return page

    def prepared(self, case_sensitive: bool) -> tuple[str, array[int], dict[int, Prepared]]:
        got = self.joined.get(case_sensitive)
        if got is None:
            options = SearchOptions(case_sensitive=case_sensitive)
            preps = [prepare(t.replace(_SEPARATOR, " "), options) for t in self.texts]
            starts, at = array("L"), 0
            for p in preps:
                starts.append(at)
                at += len(p.text) + 1
            moved = {n: p for n, p in enumerate(preps) if p.origin is not None}
            got = (_SEPARATOR.join(p.text for p in preps), starts, moved)
            self.joined[case_sensitive] = got
        return got

    def count(self, query: str, options: SearchOptions) -> int:
        return count(self.prepared(options.case_sensitive)[0], query, options.whole_word)

    def hits(self, query: str, options: SearchOptions) -> Iterator[tuple[int, int, int]]:
        """(field, start, end) of each hit, offsets in the field's original text."""
        joined, starts, moved = self.prepared(options.case_sensitive)
        for at in find(joined, query, options.whole_word):
            n = bisect.bisect_right(starts, at) - 1
            start, end = at - starts[n], at - starts[n] + len(query)
            prep = moved.get(n)
            if prep is not None:
                length = len(self.texts[n])
                start, end = prep.original(start, length), prep.original(end, length)
            yield n, start, max(end, start + 1)


def hits_in(
    doc_id: str, fields: Sequence[PageField], query: str, options: SearchOptions
) -> list[Hit]:
    """The hits of ``query`` in one page's fields (the same matching as the index's)."""
    page = _Page.of(_kept(fields), {})
    prepared = prepare_query(query, options)
    return [
        Hit(doc_id, n, fields[n].place, fields[n].text, a, b, fields[n].card_start)
        for n, a, b in page.hits(prepared, options)
    ]


def _kept(fields: Sequence[PageField]) -> list[tuple[Place, str, int]]:
    return [(f.place, f.text, f.card_start) for f in fields]


class SearchIndex:
    """Every listed page's fields, from the blob cache (see the module docstring)."""

    def __init__(self, read_blob: ReadBlob, kept: KeptPages | None = None) -> None:
        self._read_blob = read_blob
        self._kept = kept  # what earlier runs read, by blob sha
        self._pages: dict[str, _Page] = {}  # blob sha → the page's fields
        self._docs: tuple[ListedPage, ...] = ()
        self._unread: tuple[str, ...] = ()
        self._full: OrderedDict[str, tuple[str, tuple[PageField, ...]]] = OrderedDict()
        self._places: dict[Place, Place] = {}  # one object per place, however many pages

    @property
    def docs(self) -> tuple[ListedPage, ...]:
        return self._docs

    # ------------------------------------------------------------------------------ keeping up
    def update(self, docs: Iterable[ListedPage]) -> Refreshed:
        """Follow a new listing (``RepoSnapshot.docs``): pages with a new blob are read, the
        others kept, pages no longer listed dropped."""
        steps = self._steps(tuple(docs))
        for _ in steps:
            pass
        return self._finish(steps)

    async def refresh(
        self, docs: Iterable[ListedPage], progress: Progress | None = None
    ) -> Refreshed:
        """:meth:`update` a slice of work at a time (pages read or loaded from disk), letting
        the event loop run in between; ``progress`` hears how far it got at each pause. The
        searches meanwhile see the listing before this one."""
        steps = self._steps(tuple(docs))
        total, work = len(steps.docs), 0
        for cost in steps:
            work += cost
            if work >= _SLICE_COST:
                work = 0
                if progress is not None:
                    progress(steps.done, total)
                await asyncio.sleep(0)
        return self._finish(steps)

    def _steps(self, docs: tuple[ListedPage, ...]) -> _Steps:
        return _Steps(self, docs)

    def _finish(self, steps: _Steps) -> Refreshed:
        listed = {d.sha for d in steps.docs}
        gone = [s for s in self._pages if s not in listed]
        for sha in gone:
            del self._pages[sha]
        if gone:
            self._places = {p: p for page in self._pages.values() for p in page.places}
        self._docs = steps.docs
        self._unread = tuple(steps.unread)
        return Refreshed(steps.read, steps.kept, self._unread, steps.loaded)

    def _read(self, sha: str) -> tuple[str, tuple[PageField, ...]] | None:
        full = self._full.get(sha)
        if full is not None:
            self._full.move_to_end(sha)
            return full
        data = self._read_blob(sha)
        if data is None:
            return None
        text = decode(data)
        full = (text, read_page(text))
        self._full[sha] = full
        while len(self._full) > _FULL_READINGS_KEPT:
            self._full.popitem(last=False)
        return full

    # -------------------------------------------------------------------------------- asking
    def search(
        self,
        query: str,
        options: SearchOptions | None = None,
        *,
        limit: int = 1000,
        spans: bool = False,
    ) -> SearchResults:
        """Every hit of ``query`` on every listed page, grouped by page in the list's order.
        At most ``limit`` hits are listed (all are counted); ``spans`` fills each listed hit's
        pieces of Markdown (reading its page again)."""
        options = options or SearchOptions()
        prepared = prepare_query(query, options)
        pages: list[PageHits] = []
        total = with_hits = 0
        for doc in self._docs:
            page = self._pages.get(doc.sha)
            if page is None or not prepared:
                continue
            before = total
            found: list[Hit] = []
            if total >= limit:  # past the list: only counted
                total += page.count(prepared, options)
            else:
                for n, start, end in page.hits(prepared, options):
                    total += 1
                    if total <= limit:
                        place, text, card = page.places[n], page.texts[n], page.cards[n]
                        found.append(Hit(doc.doc_id, n, place, text, start, end, card))
            with_hits += total > before
            if found:
                if spans:
                    found = self._with_spans(doc.sha, found)
                pages.append(PageHits(doc.doc_id, doc.path, doc.title, doc.sha, tuple(found)))
        return SearchResults(
            query, options, tuple(pages), total, with_hits, total > limit, tuple(self._unread)
        )

    def _with_spans(self, sha: str, hits: list[Hit]) -> list[Hit]:
        full = self._read(sha)
        if full is None:
            return hits
        fields = full[1]
        return [replace(h, spans=fields[h.field].spans(h.start, h.end)) for h in hits]

    def fields(self, sha: str) -> tuple[PageField, ...] | None:
        """Every field of the page with blob ``sha``, with its Markdown (None: not cached)."""
        full = self._read(sha)
        return None if full is None else full[1]

    def page_texts(self, doc_ids: Iterable[str] | None = None) -> list[PageText]:
        """The current text of the listed pages (all, or those named) from the cache; a page
        whose blob is not cached is left out."""
        wanted = None if doc_ids is None else set(doc_ids)
        out: list[PageText] = []
        for doc in self._docs:
            if wanted is not None and doc.doc_id not in wanted:
                continue
            data = self._read_blob(doc.sha)
            if data is not None:
                out.append(PageText(doc.doc_id, doc.path, doc.title, doc.sha, decode(data)))
        return out


class _Steps:
    """One refresh, page by page (an iterator, so the async refresh can pause between)."""

    def __init__(self, index: SearchIndex, docs: tuple[ListedPage, ...]) -> None:
        self.index, self.docs = index, docs
        self.read = self.kept = self.loaded = 0
        self.unread: list[str] = []

    @property
    def done(self) -> int:
        return self.read + self.kept + self.loaded + len(self.unread)

    def __iter__(self) -> Iterator[int]:
        """Yields the cost of each page that took work (read, or loaded from disk)."""
        index = self.index
        pages, kept = index._pages, index._kept
        for doc in self.docs:
            if doc.sha in pages:
                self.kept += 1
                continue
            stored = kept.get(doc.sha) if kept is not None else None
            if stored is not None:
                pages[doc.sha] = _Page.of(stored, index._places)
                self.loaded += 1
                yield _LOADED_COST
                continue
            data = index._read_blob(doc.sha)
            if data is None:
                self.unread.append(doc.doc_id)
                continue
            fields = _kept(read_page(decode(data)))
            pages[doc.sha] = _Page.of(fields, index._places)
            if kept is not None:
                try:
                    kept.put(doc.sha, fields)
                except OSError as exc:  # a cache: the search works without it
                    log.info("could not keep the search's reading of %s: %s", doc.sha, exc)
            self.read += 1
            yield _READ_COST
