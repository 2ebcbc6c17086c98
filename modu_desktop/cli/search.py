"""``modu-desktop docs search TEXT [--json] [--whole-word] [--case-sensitive]``: every place
on every page where TEXT is, as the cards show it (:mod:`modu_desktop.core.search`).

The list is refreshed (one request when nothing changed and the cache is warm), then every
page is searched from the blob cache. Each hit is printed under its page's title with its
place ("통계 카드 › 항목 2 › 값") and the words around it, the hit in ``[…]``; the pages are
in the list's order. ``--json`` prints ``{"query", "total", "pageTotal", "truncated",
"unread", "pages": [{"docId", "title", "path", "sha", "hits": [{"place", "placeText", "text",
"start", "end", "source"}]}]}`` — ``start``/``end`` in the hit's ``text`` (what the card
shows), ``source`` the ``[start, end]`` pieces of the page's Markdown the words came from (more
than one when they cross a mark; empty when they could not be traced). Exit 0 with hits, 1
without (one line).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any

from modu_desktop.cli import common as cli
from modu_desktop.i18n import tr

__all__ = ["register"]

_AROUND = 30  # characters of the field shown on each side of a hit


def register(subparsers: Mapping[str, Any]) -> None:
    docs = subparsers.get("docs")
    if docs is None or "search" in set(getattr(docs, "choices", {}) or {}):
        return
    p = docs.add_parser(
        "search", parents=[cli.conn_parser()], help="find words on every page, as cards show them"
    )
    p.add_argument("text", metavar="TEXT", help="the words to find")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--whole-word",
        action="store_true",
        help="only where TEXT stands as a word (Korean particles may follow it)",
    )
    p.add_argument(
        "--case-sensitive", action="store_true", help="capital and small letters must match"
    )
    p.add_argument("--limit", type=int, default=1000, help="list at most N hits (all are counted)")
    p.set_defaults(run=_docs_search)


async def _docs_search(args: argparse.Namespace, ctx: cli.Context) -> int:
    from modu_desktop.core.documents.store import DocumentStore
    from modu_desktop.core.search.index import SearchIndex
    from modu_desktop.core.search.model import SearchOptions

    if not args.text.strip():
        raise cli.CliFailure(tr("Give the words to find."))
    with cli.blob_cache() as cache:
        store = DocumentStore(ctx.client, cache, branch=ctx.client.repo.branch)
        snap = await store.refresh()
        index = SearchIndex(store.cache.get)
        index.update(snap.docs)
        options = SearchOptions(case_sensitive=args.case_sensitive, whole_word=args.whole_word)
        found = index.search(args.text, options, limit=max(1, args.limit), spans=True)
    if args.json:
        ctx.out.write(json.dumps(_as_json(found), ensure_ascii=False, indent=2) + "\n")
    else:
        _print(found, ctx)
    if not found.total:
        if args.json:
            return 1
        raise cli.CliFailure(tr("No page has “{text}”.", text=args.text))
    return 0


def _print(found: Any, ctx: cli.Context) -> None:
    from modu_desktop.core.search import words

    for page in found.pages:
        ctx.out.write(f"{page.title} ({page.path})\n")
        for hit in page.hits:
            ctx.out.write(f"  {words.place(hit.place)()}: {_around(hit)}\n")
    if found.total:
        ctx.out.write(
            tr("{hits} hit(s) on {pages} page(s).", hits=found.total, pages=found.page_total) + "\n"
        )
    if found.truncated:
        ctx.out.write(tr("Only the first {n} are listed.", n=found.shown) + "\n")
    if found.unread:
        ctx.out.write(
            tr("{n} page(s) were not searched: their text is not here yet.", n=len(found.unread))
            + "\n"
        )


def _around(hit: Any) -> str:
    text = hit.text.replace("\n", " ")
    a, b = hit.start, hit.end
    left = max(0, a - _AROUND)
    right = min(len(text), b + _AROUND)
    before = ("…" if left > 0 else "") + text[left:a]
    after = text[b:right] + ("…" if right < len(text) else "")
    return f"{before}[{text[a:b]}]{after}"


def _as_json(found: Any) -> dict[str, Any]:
    from modu_desktop.core.search import words

    return {
        "query": found.query,
        "wholeWord": found.options.whole_word,
        "caseSensitive": found.options.case_sensitive,
        "total": found.total,
        "pageTotal": found.page_total,
        "truncated": found.truncated,
        "unread": list(found.unread),
        "pages": [
            {
                "docId": page.doc_id,
                "title": page.title,
                "path": page.path,
                "sha": page.sha,
                "hits": [
                    {
                        "place": hit.place.as_json(),
                        "placeText": words.place(hit.place)(),
                        "text": hit.text,
                        "start": hit.start,
                        "end": hit.end,
                        "source": [list(s) for s in hit.spans],
                    }
                    for hit in page.hits
                ],
            }
            for page in found.pages
        ],
    }
