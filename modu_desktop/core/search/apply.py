"""A replacement across pages, from the search to one commit (Qt-free).

    plan = await plan_across_pages(index, ws.locks, snapshot.locks, "2025학년도", "2026학년도")
    outcome = await replace_across_pages(ws.client, plan, ws.editor, spool=ws.spool)

:func:`plan_across_pages` plans on the pages with hits only (the index says which), each with
its lock as the last listing saw it (a lock blob the listing did not cache is read once).
:func:`prepare_replace` turns the plan into a change of many pages after **the publish check
runs on every changed page**: a page whose new text would stop the site from being built, or
show it wrongly, where the old text did not, is left out with the check's findings, and the
other pages still go. A careful editor expects exactly that of "replace everywhere": the same
small edit is made on each page, so one page where it would break something (a ``{`` the site
reads as code, say) should not hold back the sixteen where it is fine — and that one page is
named with its finding, so it can be fixed by hand. :func:`replace_across_pages` prepares and
sends (``core/changes/send.send_change``): one commit, or one item in the save queue.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from typing import Any, Protocol

from modu_desktop.core.changes.apply import Editor, ReadBlob
from modu_desktop.core.changes.model import ChangeSet
from modu_desktop.core.changes.outcome import (
    ChangeOutcome,
    ChangeSummary,
    PageNote,
    PageReason,
    PreparedChange,
)
from modu_desktop.core.changes.send import send_change
from modu_desktop.core.documents.naming import encode_text
from modu_desktop.core.github.client import GitHubClient
from modu_desktop.core.locks.model import LockView
from modu_desktop.core.publish.check import Finding, Severity, check_text
from modu_desktop.core.saving.queue import SaveSpool
from modu_desktop.core.search.index import SearchIndex
from modu_desktop.core.search.model import (
    HitKey,
    PageLeftOut,
    PageLeftOutReason,
    ReplacePlan,
    SearchOptions,
)
from modu_desktop.core.search.replace import plan_replace

__all__ = [
    "LockViews",
    "new_findings",
    "page_locks",
    "plan_across_pages",
    "prepare_replace",
    "replace_across_pages",
]

# What keeps a page out: the site would not be built, or the page would not show what was
# written. A new "may surprise" warning does not (the plan already keeps the page's reading).
STOPPING = (Severity.BREAKS_BUILD, Severity.PAGE_WRONG)
_EVERY_HIT = 10**9


class LockViews(Protocol):
    """What the plan needs of the lock manager: a lock classified by its blob sha (from the
    cache when it can be, else read once)."""

    def cached_view(self, doc_id: str, sha: str | None) -> LockView | None: ...

    async def view_of(self, doc_id: str, sha: str | None) -> LockView: ...


async def page_locks(
    locks: LockViews, lock_files: Mapping[str, Any], doc_ids: Collection[str]
) -> dict[str, LockView]:
    """The lock of each page of ``doc_ids`` that has one in ``lock_files`` (a listing's
    ``RepoSnapshot.locks``: doc id → the lock file's entry)."""
    out: dict[str, LockView] = {}
    for doc_id in doc_ids:
        entry = lock_files.get(doc_id)
        if entry is None:
            continue
        sha = str(entry.sha)
        out[doc_id] = locks.cached_view(doc_id, sha) or await locks.view_of(doc_id, sha)
    return out


async def plan_across_pages(
    index: SearchIndex,
    locks: LockViews,
    lock_files: Mapping[str, Any],
    query: str,
    replacement: str,
    options: SearchOptions | None = None,
    *,
    chosen: Collection[HitKey] | None = None,
    pages: Collection[str] | None = None,
    unsaved: Collection[str] = (),
) -> ReplacePlan:
    """The plan over the listed pages that have ``query`` (only ``pages``, doc ids, when
    given): every hit, or the ``chosen`` ones."""
    found = index.search(query, options, limit=_EVERY_HIT)
    with_hits = [p.doc_id for p in found.pages if pages is None or p.doc_id in pages]
    texts = index.page_texts(with_hits)
    views = await page_locks(locks, lock_files, with_hits)
    return plan_replace(texts, query, replacement, options, chosen, locks=views, unsaved=unsaved)


def new_findings(
    old_text: str, new_text: str, path: str, repo_paths: Collection[str] | None = None
) -> tuple[Finding, ...]:
    """The findings on ``new_text`` that would stop the page (:data:`STOPPING`) and that
    ``old_text`` did not have as often: what the replacement itself would break."""

    def stopping(text: str) -> list[Finding]:
        found = check_text(text, path=path, repo_paths=repo_paths).findings
        return [f for f in found if f.severity in STOPPING]

    before = Counter(f.code for f in stopping(old_text))
    after = stopping(new_text)
    grown = {code for code, n in Counter(f.code for f in after).items() if n > before[code]}
    return tuple(f for f in after if f.code in grown)


_PLAN_REASONS = {
    PageLeftOutReason.LOCKED: PageReason.HELD,
    PageLeftOutReason.UNSAVED_HERE: PageReason.UNSAVED_HERE,
    PageLeftOutReason.NOTHING_REPLACEABLE: PageReason.NOTHING_REPLACEABLE,
}


def _note(out: PageLeftOut) -> PageNote:
    status = out.lock.status.value if out.lock is not None else None
    return PageNote(
        out.path,
        out.title,
        _PLAN_REASONS[out.reason],
        out.doc_id,
        out.holder,
        out.since,
        out.last_seen,
        status,
    )


def prepare_replace(
    plan: ReplacePlan, *, repo_paths: Collection[str] | None = None
) -> PreparedChange:
    """The change of ``plan``'s pages that change, each over the blob it was planned from,
    after the publish check (see the module docstring). ``repo_paths``: the repository's
    files, for the picture checks."""
    changes = ChangeSet()
    titles: dict[str, str] = {}
    notes = [_note(out) for out in plan.left_out]
    for page in plan.pages:
        titles[page.path] = page.title
        if not page.changed:
            continue
        broken = new_findings(page.old_text, page.new_text, page.path, repo_paths)
        if broken:
            reason = PageReason.BREAKS_SITE
            notes.append(PageNote(page.path, page.title, reason, page.doc_id, findings=broken))
            continue
        changes.write(page.path, encode_text(page.new_text), page.base_sha)
    summary = ChangeSummary("replace", plan.query, plan.replacement)
    return PreparedChange(summary, changes, titles, tuple(notes))


async def replace_across_pages(
    client: GitHubClient,
    plan: ReplacePlan,
    editor: Editor,
    *,
    spool: SaveSpool | None = None,
    repo_paths: Collection[str] | None = None,
    read_blob: ReadBlob | None = None,
) -> ChangeOutcome:
    """Prepare ``plan`` (:func:`prepare_replace`) and send it as one commit, or as one item
    of the save queue when GitHub is away (``spool``)."""
    prepared = prepare_replace(plan, repo_paths=repo_paths)
    return await send_change(client, prepared, editor, spool=spool, read_blob=read_blob)
