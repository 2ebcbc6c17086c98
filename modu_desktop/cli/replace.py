"""``modu-desktop docs replace OLD NEW [--page ID …] [--dry-run] [--json] [--whole-word]
[--case-sensitive]``: change words on every page in ONE commit (:mod:`modu_desktop.core.search`,
:mod:`modu_desktop.core.changes`).

The list is refreshed, the pages that have OLD are planned as the cards read them (only the
words change; a hit that cannot be replaced where it is says why), the publish check runs on
every changed page, and the pages that can change go in one commit through the Git Data API:
a page someone else is editing, one that changed since it was read, or one the new words would
break is left out and listed with the reason (who holds it and since when). ``--page`` limits
the change to those pages; ``--dry-run`` shows what would change and sends nothing. Each page is
named by its title, its file after it. ``--json`` prints ``{"old", "new", "dryRun", "state",
"commit", "changed": [{"docId", "title", "path", "sha"}], "leftOut": [{"docId", "title",
"path", "reason", "holder", "since", "message", "messageKo"}], "pages": [{"docId", "title",
"path", "hits": [{"placeText", "before", "after", "replaced", "refused"}]}]}``.

Exit status: 0 when every page with OLD was changed (or would be), 1 when any was left out or
no page has OLD (one line), 2 for usage errors.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any

from modu_desktop.cli import common as cli
from modu_desktop.i18n import tr

__all__ = ["register"]

_AROUND = 24  # characters of the field shown on each side of a hit


def register(subparsers: Mapping[str, Any]) -> None:
    docs = subparsers.get("docs")
    if docs is None or "replace" in set(getattr(docs, "choices", {}) or {}):
        return
    p = docs.add_parser(
        "replace",
        parents=[cli.conn_parser()],
        help="change words on every page in one commit (pages someone is editing are left out)",
    )
    p.add_argument("old", metavar="OLD", help="the words to change")
    p.add_argument("new", metavar="NEW", help="the words to write instead")
    p.add_argument(
        "--page",
        dest="pages",
        action="append",
        type=cli.doc_id_arg,
        metavar="ID",
        help="only this page (repeat for more)",
    )
    p.add_argument("--dry-run", action="store_true", help="show what would change; send nothing")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--whole-word",
        action="store_true",
        help="only where OLD stands as a word (Korean particles may follow it)",
    )
    p.add_argument(
        "--case-sensitive", action="store_true", help="capital and small letters must match"
    )
    p.set_defaults(run=_docs_replace)


async def _docs_replace(args: argparse.Namespace, ctx: cli.Context) -> int:
    from modu_desktop.core.changes.send import send_change
    from modu_desktop.core.search.apply import plan_across_pages, prepare_replace
    from modu_desktop.core.search.index import SearchIndex
    from modu_desktop.core.search.model import SearchOptions

    if not args.old.strip():
        raise cli.CliFailure(tr("Give the words to replace."))
    login = await ctx.login()
    with cli.blob_cache() as cache:
        ws = cli.workspace(ctx, login, cache)
        snap = await ws.store.refresh()
        unknown = [d for d in args.pages or () if snap.doc(d) is None]
        if unknown:
            raise cli.CliFailure(tr("There is no page {id}.", id=", ".join(unknown)))
        index = SearchIndex(ws.store.cache.get)
        index.update(snap.docs)
        options = SearchOptions(case_sensitive=args.case_sensitive, whole_word=args.whole_word)
        plan = await plan_across_pages(
            index, ws.locks, snap.locks, args.old, args.new, options, pages=args.pages
        )
        if not plan.pages and not plan.left_out:
            raise cli.CliFailure(tr("No page has “{text}”.", text=args.old))
        paths = {d.path for d in snap.docs} | {e.path for e in snap.images}
        prepared = prepare_replace(plan, repo_paths=paths)
        outcome = None
        if not args.dry_run:
            outcome = await send_change(
                ctx.client, prepared, ws.editor, read_blob=ws.store.read_blob
            )
        now = ws.server_now()
    left_out = outcome.left_out if outcome is not None else prepared.left_out
    if args.json:
        body = _as_json(args, plan, prepared, outcome, now)
        ctx.out.write(json.dumps(body, ensure_ascii=False, indent=2) + "\n")
    else:
        _print(ctx, plan, prepared, outcome, now)
    return 1 if left_out else 0


def _around(text: str, start: int, end: int, middle: str) -> str:
    text = text.replace("\n", " ")
    left, right = max(0, start - _AROUND), min(len(text), end + _AROUND)
    before = ("…" if left > 0 else "") + text[left:start]
    after = text[end:right] + ("…" if right < len(text) else "")
    return f"{before}[{middle}]{after}"


def _hit_lines(page: Any, replacement: str) -> list[str]:
    from modu_desktop.core.search import words

    lines = []
    for planned in page.hits:
        hit = planned.hit
        where = words.place(hit.place)()
        if planned.refused is not None:
            lines.append(f"  {where}: {words.refusal(planned.refused)()}")
            continue
        old = _around(hit.text, hit.start, hit.end, hit.words)
        new = _around(hit.text, hit.start, hit.end, replacement)
        lines.append(f"  {where}: {old} → {new}")
    return lines


def _print(ctx: cli.Context, plan: Any, prepared: Any, outcome: Any, now: float) -> None:
    from modu_desktop.core.changes import words

    stopped = {n.path for n in prepared.left_out}
    for page in plan.pages:
        if not page.changed or page.path in stopped:
            continue
        ctx.out.write(f"{page.title} ({page.path})\n")
        for line in _hit_lines(page, plan.replacement):
            ctx.out.write(line + "\n")
    if outcome is None:
        ctx.out.write(
            tr("Would change {n} page(s) in one commit; nothing was sent.", n=prepared.pages) + "\n"
        )
        notes = prepared.left_out
    else:
        commit = f" (commit {outcome.commit_sha[:7]})" if outcome.commit_sha else ""
        ctx.out.write(words.headline(outcome)() + commit + "\n")
        notes = outcome.left_out
    for note in notes:
        ctx.out.write(f"- {words.left_out(note, now)()} ({note.path})\n")


def _as_json(args: Any, plan: Any, prepared: Any, outcome: Any, now: float) -> dict[str, Any]:
    from modu_desktop.core.search import words as search_words

    notes = outcome.left_out if outcome is not None else prepared.left_out
    changed = outcome.committed if outcome is not None else ()
    return {
        "old": args.old,
        "new": args.new,
        "dryRun": bool(args.dry_run),
        "state": outcome.state.value if outcome is not None else "planned",
        "commit": outcome.commit_sha if outcome is not None else None,
        "changed": [p.as_json() for p in changed],
        "leftOut": [_note_json(n, now) for n in notes],
        "pages": [
            {
                "docId": page.doc_id,
                "title": page.title,
                "path": page.path,
                "hits": [
                    {
                        "placeText": search_words.place(h.hit.place)(),
                        "before": h.hit.words,
                        "after": plan.replacement if h.replaced else h.hit.words,
                        "replaced": h.replaced,
                        "refused": h.refused.value if h.refused is not None else None,
                    }
                    for h in page.hits
                ],
            }
            for page in plan.pages
        ],
    }


def _note_json(note: Any, now: float) -> dict[str, Any]:
    from modu_desktop.core.changes import words

    said = words.left_out(note, now)
    return {**note.as_json(), "message": said.en, "messageKo": said.ko}
