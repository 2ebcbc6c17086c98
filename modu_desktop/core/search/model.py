"""What a search finds and what a replacement would do, as plain data (Qt-free): places,
fields, hits, results, and the plan of a replacement (:class:`ReplacePlan`, which the commit of
many files takes as it is).

Nothing here is worded: a :class:`Place` holds codes (the card, the block's catalogue entry,
the field's key, the item's number) that :mod:`modu_desktop.core.search.words` turns into
"통계 카드 › 항목 2 › 값"; offsets are character offsets into the field's visible text
(``start``/``end``) or into the page's Markdown (``spans``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from modu_desktop.core.locks.model import LockView

__all__ = [
    "FieldKind",
    "Hit",
    "HitKey",
    "PageLeftOut",
    "PageLeftOutReason",
    "NotReplaceable",
    "PageField",
    "PageHits",
    "PagePlan",
    "Place",
    "PlannedHit",
    "ReplacePlan",
    "SearchOptions",
    "SearchResults",
    "hit_key",
]


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """``case_sensitive``: Latin letters (and other cased scripts) must match in case; Hangul
    has no case either way. ``whole_word``: see :mod:`modu_desktop.core.search.matching`."""

    case_sensitive: bool = False
    whole_word: bool = False


@dataclass(frozen=True, slots=True)
class Place:
    """Where a field is on the page, as the page editor shows it.

    ``card``: "settings" (페이지 설정; ``key`` the front-matter key), "text" (a text box;
    ``heading`` the heading it is under, as it reads, ``line`` what the field is: "heading",
    "paragraph", "item", "quote" or "cell"), "block" (a brochure block: ``block`` its catalogue
    entry, ``section`` "left"/"right" in a split, ``item`` the item's or row's number from 1,
    0 for the block's own fields, ``key`` the field's key, ``column``/``column_name`` a data
    table's cell) or "raw" (a 원문 card; a line as written)."""

    card: str
    key: str = ""
    block: str = ""
    section: str = ""
    item: int = 0
    column: int = 0
    column_name: str = ""
    heading: str = ""
    line: str = ""

    def as_json(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in self.__slots__ if getattr(self, k) not in ("", 0)}


class FieldKind(enum.Enum):
    """How a field's text is written in the Markdown, which decides how it is replaced."""

    MARKDOWN = "markdown"  # a text box's paragraph, heading, item, quote or cell
    VALUE = "value"  # a block's ``key: value`` or a data table's cell: the value as written
    SETTING = "setting"  # a front-matter value (plain, '…' or "…")
    RAW = "raw"  # a line of a 원문 card, as written


class NotReplaceable(enum.Enum):
    """Why a hit cannot be replaced where it is (the other hits still can)."""

    CROSSES_MARKS = "crosses_marks"  # the words to change span bold/italic/link boundaries
    IN_PICTURE = "in_picture"  # the words are a picture's description
    ACROSS_LINES = "across_lines"  # the words span a line break inside the text
    SOURCE_UNCLEAR = "source_unclear"  # the Markdown behind the words could not be traced
    READS_DIFFERENTLY = "reads_differently"  # the page would read differently afterwards
    BREAKS_FIELD = "breaks_field"  # the new words would split a list value or end a line
    NOT_FOUND = "not_found"  # the page changed: the words are no longer there


@dataclass(frozen=True, slots=True)
class PageField:
    """One piece of text a person reads on the page, in page order.

    ``text`` is what the card shows (Markdown marks removed, entities and escapes decoded);
    ``card_start`` is where its card starts in the page's Markdown (the page editor opens the
    card that holds this offset). ``starts``/``ends`` give, for each character of ``text``, the
    piece of Markdown it came from (None when it could not be traced: the field is still
    searched, but not replaced). ``runs`` (Markdown fields) numbers each character's run of
    the same marks and link; ``styles`` says what each run is ("b,i|link" and the like,
    "\\n" a line break, "picture:src" a picture's description)."""

    place: Place
    text: str
    kind: FieldKind
    card_start: int
    starts: tuple[int, ...] | None = None
    ends: tuple[int, ...] | None = None
    runs: tuple[int, ...] = ()
    styles: tuple[str, ...] = ()
    quote: str = ""  # VALUE/SETTING: the quote around the value as written
    value_start: int = -1  # VALUE/SETTING: where the value as written starts …
    value_end: int = -1  # … and ends (quotes included for a setting)
    in_table: bool = False  # MARKDOWN: a table cell (``|`` must be escaped)
    code: tuple[bool, ...] = ()  # MARKDOWN: per run, whether it is inline code

    def spans(self, start: int, end: int) -> tuple[tuple[int, int], ...]:
        """The pieces of Markdown that ``text[start:end]`` came from, joined where they touch;
        () when the field's Markdown could not be traced."""
        if self.starts is None or self.ends is None or start >= end:
            return ()
        out: list[list[int]] = []
        for i in range(start, end):
            a, b = self.starts[i], self.ends[i]
            if out and out[-1][1] == a:
                out[-1][1] = b
            else:
                out.append([a, b])
        return tuple((a, b) for a, b in out)


@dataclass(frozen=True, slots=True)
class Hit:
    """One occurrence: ``text[start:end]`` of field number ``field`` (in page order) of the
    page. ``spans`` (filled when asked for) are the pieces of Markdown it came from: more than
    one when the words cross a mark (``**2025**학년도``)."""

    doc_id: str
    field: int
    place: Place
    text: str
    start: int
    end: int
    card_start: int
    spans: tuple[tuple[int, int], ...] = ()

    @property
    def words(self) -> str:
        return self.text[self.start : self.end]


@dataclass(frozen=True, slots=True)
class PageHits:
    """The hits of one page; ``title`` is what people call the page."""

    doc_id: str
    path: str
    title: str
    sha: str
    hits: tuple[Hit, ...]


@dataclass(frozen=True, slots=True)
class SearchResults:
    """``pages`` in the list's order, hits in page order. ``total`` counts every hit and
    ``page_total`` every page with one, also those beyond ``limit`` that were not listed
    (``truncated``). ``unread``: pages whose text was not in the local cache, so they were
    not searched."""

    query: str
    options: SearchOptions
    pages: tuple[PageHits, ...] = ()
    total: int = 0
    page_total: int = 0
    truncated: bool = False
    unread: tuple[str, ...] = field(default=())

    @property
    def shown(self) -> int:
        return sum(len(p.hits) for p in self.pages)


# ------------------------------------------------------------------- the plan of a replacement
HitKey = tuple[str, int, int]
"""A hit as the review screen ticks it: (doc id, field number, start in the field's text)."""


def hit_key(hit: Hit) -> HitKey:
    return (hit.doc_id, hit.field, hit.start)


class PageLeftOutReason(enum.Enum):
    LOCKED = "locked"  # someone else is editing it (or another window of mine, or unreadable)
    UNSAVED_HERE = "unsaved_here"  # open in this app with text not saved yet
    NOTHING_REPLACEABLE = "nothing_replaceable"  # every chosen hit is refused where it is


@dataclass(frozen=True, slots=True)
class PlannedHit:
    """One hit on the review screen: ``chosen`` its tick box, ``refused`` why it cannot be
    replaced (None: it can), ``replaced`` whether the plan's new text replaces it."""

    hit: Hit
    chosen: bool
    refused: NotReplaceable | None = None
    replaced: bool = False


@dataclass(frozen=True, slots=True)
class PagePlan:
    """A page with hits: its new text (the old one when nothing of it is replaced)."""

    doc_id: str
    path: str
    title: str
    base_sha: str
    old_text: str
    new_text: str
    hits: tuple[PlannedHit, ...]

    @property
    def changed(self) -> bool:
        return self.new_text != self.old_text

    @property
    def replaced(self) -> int:
        return sum(1 for h in self.hits if h.replaced)


@dataclass(frozen=True, slots=True)
class PageLeftOut:
    """A page with hits that the plan does not change, and why. For a lock: ``holder`` (a
    login), ``since`` (when the lock was taken) and ``last_seen`` (its last heartbeat), server
    Unix seconds, and the ``lock`` itself (the lock's words say it from there)."""

    doc_id: str
    path: str
    title: str
    reason: PageLeftOutReason
    hits: int
    holder: str | None = None
    since: float | None = None
    last_seen: float | None = None
    lock: LockView | None = None


@dataclass(frozen=True, slots=True)
class ReplacePlan:
    query: str
    replacement: str
    options: SearchOptions
    pages: tuple[PagePlan, ...] = ()
    left_out: tuple[PageLeftOut, ...] = ()
    unmatched: tuple[HitKey, ...] = ()  # chosen hits no longer found (the page changed)

    @property
    def changes(self) -> dict[str, str]:
        """path → new text, for the pages that change."""
        return {p.path: p.new_text for p in self.pages if p.changed}

    @property
    def base_shas(self) -> dict[str, str]:
        """path → the blob sha each new text was made from."""
        return {p.path: p.base_sha for p in self.pages if p.changed}

    @property
    def replaced(self) -> int:
        return sum(p.replaced for p in self.pages)
