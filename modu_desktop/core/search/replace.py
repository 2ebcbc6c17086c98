"""Replacing the words a search found, page by page and hit by hit — the plan, not the commit
(Qt-free): :func:`plan_replace` → :class:`ReplacePlan`.

A plan is plain data: for every page that changes, its new text and the blob sha it was made
from (``changes``, ``base_shas``: what one commit of many files needs), and every hit with its
tick box and, when it cannot be replaced, why. Pages that are not touched are listed with the
reason: someone else holds their lock (who, since when, last sign of life), this app has them
open with unsaved text, or none of their hits can be replaced.

Each replacement changes only the Markdown the replaced words came from: the part of the
words that differs (``2025학년도`` → ``2026학년도`` changes the ``5``), written so the site
reads exactly those characters (escaped where Markdown would read something else, inside the
marks it sits in). Afterwards the page is read again, as the cards and the site read it, and
must read the same except for the replaced words — the same fields in the same places, the
same marks, the same structure for the site's parser; a hit that would make it read otherwise
is not replaced (``READS_DIFFERENTLY``) and the others still are.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from modu_desktop.core.brochure import frontmatter as fm
from modu_desktop.core.brochure.block_model import needs_quotes
from modu_desktop.core.edit_session import holder_of, is_blocking
from modu_desktop.core.locks.model import LockView
from modu_desktop.core.pageedit.writing import escape_text
from modu_desktop.core.preview.markdown import parse
from modu_desktop.core.search.index import PageText, hits_in
from modu_desktop.core.search.model import (
    FieldKind,
    Hit,
    HitKey,
    NotReplaceable,
    PageField,
    PageLeftOut,
    PageLeftOutReason,
    PagePlan,
    Place,
    PlannedHit,
    ReplacePlan,
    SearchOptions,
    hit_key,
)
from modu_desktop.core.search.reading import read_page

__all__ = ["plan_replace"]


def plan_replace(
    pages: Iterable[PageText],
    query: str,
    replacement: str,
    options: SearchOptions | None = None,
    chosen: Collection[HitKey] | None = None,
    *,
    locks: Mapping[str, LockView] | None = None,
    unsaved: Collection[str] = (),
) -> ReplacePlan:
    """The plan to replace ``query`` with ``replacement`` on ``pages`` (their current texts):
    every hit, or only the ``chosen`` ones. ``locks``: the lock of each page that has one
    (``LockManager.cached_view``); ``unsaved``: doc ids open here with unsaved text."""
    options = options or SearchOptions()
    locks = locks or {}
    wanted = None if chosen is None else set(chosen)
    found: set[HitKey] = set()
    planned: list[PagePlan] = []
    left_out: list[PageLeftOut] = []
    for page in pages:
        fields = read_page(page.text)
        hits = hits_in(page.doc_id, fields, query, options)
        if not hits:
            continue
        found.update(hit_key(h) for h in hits)
        lock = locks.get(page.doc_id)
        if lock is not None and is_blocking(lock):
            rec = lock.record
            left_out.append(
                PageLeftOut(
                    page.doc_id,
                    page.path,
                    page.title,
                    PageLeftOutReason.LOCKED,
                    len(hits),
                    holder_of(lock),
                    None if rec is None else rec.started_at,
                    None if rec is None else rec.last_heartbeat,
                    lock,
                )
            )
            continue
        if page.doc_id in unsaved:
            left_out.append(
                PageLeftOut(
                    page.doc_id, page.path, page.title, PageLeftOutReason.UNSAVED_HERE, len(hits)
                )
            )
            continue
        ticks = [wanted is None or hit_key(h) in wanted for h in hits]
        plan = _plan_page(page, fields, hits, ticks, replacement)
        if any(ticks) and not plan.changed and all(h.refused for h in plan.hits if h.chosen):
            left_out.append(
                PageLeftOut(
                    page.doc_id,
                    page.path,
                    page.title,
                    PageLeftOutReason.NOTHING_REPLACEABLE,
                    len(hits),
                )
            )
        planned.append(plan)
    unmatched = tuple(sorted(wanted - found)) if wanted is not None else ()
    return ReplacePlan(query, replacement, options, tuple(planned), tuple(left_out), unmatched)


# ------------------------------------------------------------------------------------ edits
@dataclass(frozen=True, slots=True)
class _Change:
    """On a field's visible text, ``[a, b)`` becomes ``shown`` in the style ``style``."""

    a: int
    b: int
    shown: str
    style: str = ""


@dataclass(frozen=True, slots=True)
class _Edit:
    """Markdown ``[start, end)`` becomes ``markdown``: the change of ``hits`` (one, or every
    chosen hit of a value that is written again as a whole) to field ``field``."""

    hits: tuple[int, ...]
    field: int
    start: int
    end: int
    markdown: str
    changes: tuple[_Change, ...]


def _plan_page(
    page: PageText,
    fields: Sequence[PageField],
    hits: Sequence[Hit],
    ticks: Sequence[bool],
    new: str,
) -> PagePlan:
    refused: dict[int, NotReplaceable] = {}
    per_field: dict[int, list[tuple[int, _Edit]]] = {}
    for n, (hit, tick) in enumerate(zip(hits, ticks, strict=True)):
        if not tick:
            continue
        edit = _edit(page.text, fields[hit.field], n, hit, new)
        if isinstance(edit, NotReplaceable):
            refused[n] = edit
        elif edit is not None:
            per_field.setdefault(hit.field, []).append((n, edit))
    edits: list[_Edit] = []
    for number, found in per_field.items():
        edits.extend(_whole_value(fields[number], number, [e for _, e in found]))
    text = _apply(page.text, edits)
    if edits and not _reads_as_expected(page.text, text, fields, edits):
        accepted: list[_Edit] = []
        for edit in sorted(edits, key=lambda e: -e.start):
            trial = _apply(page.text, [*accepted, edit])
            if _reads_as_expected(page.text, trial, fields, [*accepted, edit]):
                accepted.append(edit)
            else:
                refused.update(dict.fromkeys(edit.hits, NotReplaceable.READS_DIFFERENTLY))
        edits = accepted
        text = _apply(page.text, edits)
    applied = {n for e in edits for n in e.hits}
    planned = tuple(
        PlannedHit(h, tick, refused.get(n), n in applied)
        for n, (h, tick) in enumerate(zip(hits, ticks, strict=True))
    )
    return PagePlan(page.doc_id, page.path, page.title, page.sha, page.text, text, planned)


def _whole_value(field: PageField, number: int, edits: list[_Edit]) -> list[_Edit]:
    """A field's edits, or one edit writing its whole value again where its spelling must
    change with the words: a page setting (quoted or not as YAML needs it), a block value that
    now starts with a circled number (the guide quotes those)."""
    value = field.text
    changes = sorted((c for e in edits for c in e.changes), key=lambda c: -c.a)
    for c in changes:
        value = value[: c.a] + c.shown + value[c.b :]
    if field.kind is FieldKind.SETTING:
        markdown = fm.format_scalar(value, quote=field.quote, string_key=True)
    elif field.kind is FieldKind.VALUE and not field.quote and needs_quotes(value):
        markdown = f'"{value}"'
    else:
        return edits
    hits = tuple(n for e in edits for n in e.hits)
    return [_Edit(hits, number, field.value_start, field.value_end, markdown, tuple(changes))]


def _apply(text: str, edits: Iterable[_Edit]) -> str:
    out = text
    for e in sorted(edits, key=lambda e: -e.start):
        out = out[: e.start] + e.markdown + out[e.end :]
    return out


def _edit(text: str, field: PageField, n: int, hit: Hit, new: str) -> _Edit | NotReplaceable | None:
    """The change for one hit, or why there can be none (None: the words are already
    ``new``). Only the part of the words that differs is changed."""
    if "\n" in new or "\r" in new:
        return NotReplaceable.BREAKS_FIELD
    old = field.text[hit.start : hit.end]
    pre = 0
    while pre < min(len(old), len(new)) and old[pre] == new[pre]:
        pre += 1
    post = 0
    while post < min(len(old), len(new)) - pre and old[-1 - post] == new[-1 - post]:
        post += 1
    a, b = hit.start + pre, hit.end - post
    shown = new[pre : len(new) - post]
    if a == b and not shown:
        return None
    if field.kind is FieldKind.SETTING:  # written again as a whole (see _whole_value)
        return _Edit(
            (n,), hit.field, field.value_start, field.value_end, "", (_Change(a, b, shown),)
        )
    if field.starts is None or field.ends is None:
        return NotReplaceable.SOURCE_UNCLEAR
    if field.kind is FieldKind.MARKDOWN:
        return _markdown_edit(text, field, n, hit, a, b, shown)
    if a < b:
        start, end = field.starts[a], field.ends[b - 1]
    else:
        start = end = field.ends[a - 1] if a > 0 else field.starts[a]
    if field.kind is FieldKind.VALUE:
        if "|" in shown and (field.place.column or field.place.key in _LIST_KEYS):
            return NotReplaceable.BREAKS_FIELD
        if field.quote and field.quote in shown:
            return NotReplaceable.BREAKS_FIELD
    return _Edit((n,), hit.field, start, end, shown, (_Change(a, b, shown),))


_LIST_KEYS = {"items", "bullets", "columns", "align"}  # values the site splits at "|"


def _markdown_edit(
    text: str, field: PageField, n: int, hit: Hit, a: int, b: int, shown: str
) -> _Edit | NotReplaceable:
    assert field.starts is not None and field.ends is not None
    runs, styles = field.runs, field.styles
    if a < b:
        used = set(runs[a:b])
        if len(used) > 1:
            if any(styles[r] == "\n" for r in used):
                return NotReplaceable.ACROSS_LINES
            if any(styles[r].startswith("picture:") for r in used):
                return NotReplaceable.IN_PICTURE
            return NotReplaceable.CROSSES_MARKS
        run = runs[a]
        start, end = field.starts[a], field.ends[b - 1]
    elif a > 0 and not _special(styles[runs[a - 1]]):
        run = runs[a - 1]  # typed after the character before, as in the card
        start = end = field.ends[a - 1]
    else:
        run = runs[a]
        start = end = field.starts[a]
    style = styles[run]
    if style.startswith("picture:"):
        return NotReplaceable.IN_PICTURE
    if style == "\n":
        return NotReplaceable.ACROSS_LINES
    if field.code[run]:
        if "`" in shown:
            return NotReplaceable.READS_DIFFERENTLY
        written = shown
    else:
        line_start = not text[text.rfind("\n", 0, start) + 1 : start].strip()
        heading = field.place.line == "heading"
        written = escape_text(shown, line_start=line_start, table=field.in_table, heading=heading)
    return _Edit((n,), hit.field, start, end, written, (_Change(a, b, shown, style),))


def _special(style: str) -> bool:
    return style == "\n" or style.startswith("picture:")


# ------------------------------------------------------------------------------ read back
def _reads_as_expected(
    old_text: str, new_text: str, fields: Sequence[PageField], edits: Sequence[_Edit]
) -> bool:
    """Whether ``new_text`` reads as ``old_text`` with exactly ``edits`` made: the same fields
    in the same places, each with the expected words in the expected marks, and the same
    structure for the site's parser."""
    after = read_page(new_text)
    if len(after) != len(fields):
        return False
    by_field: dict[int, list[_Edit]] = {}
    for e in edits:
        by_field.setdefault(e.field, []).append(e)
    for n, (before, now) in enumerate(zip(fields, after, strict=True)):
        # a place names its heading or column, which may hold replaced words themselves
        same_place = _bare(before) == _bare(now)
        if not same_place or before.kind is not now.kind:
            return False
        text, looks = before.text, _looks(before)
        changes = [c for e in by_field.get(n, []) for c in e.changes]
        for c in sorted(changes, key=lambda c: -c.a):
            text = text[: c.a] + c.shown + text[c.b :]
            looks = looks[: c.a] + [c.style] * len(c.shown) + looks[c.b :]
        if now.text != text or (before.kind is FieldKind.MARKDOWN and _looks(now) != looks):
            return False
    return _shape(old_text) == _shape(new_text)


def _bare(f: PageField) -> Place:
    return replace(f.place, heading="", column_name="")


def _looks(f: PageField) -> list[str]:
    """Each character's marks and link (Markdown fields; '' elsewhere)."""
    if f.kind is not FieldKind.MARKDOWN:
        return [""] * len(f.text)
    return [f.styles[r] for r in f.runs]


def _shape(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    for tok in parse(text):
        out.append((tok.type, tok.tag, tok.nesting))
        out.extend((c.type, c.tag, c.nesting) for c in tok.children or [])
    return out
