"""Admin CLI commands for the web admin's other tasks, on ``modu_desktop.core.docops.ops``:

    modu-desktop docs new --id ID --title T [--position N] [--theme T] [--layout L]
                          [--nav-label L] [--template] [--draft | --publish]
    modu-desktop docs publish DOC_ID
    modu-desktop docs delete DOC_ID
    modu-desktop docs move DOC_ID up|down
    modu-desktop docs import FILE… [--dry-run]

``docs new`` makes the page not published (``draft: true``) unless ``--publish`` is given: the
same rule as the app's 새 문서, so a page made by a script never reaches the public site half
written, and the default is the safe one (a page published by mistake cannot be taken back from
people who saw it; one left unpublished costs one ``docs publish``). ``docs publish`` takes
the ``draft`` line out in one save, under the page's lock.

Same connection flags, token lookup and exit status as ``docs list`` (``cli/common.py``):
0 success, 1 failure (one line on stderr), 2 usage error. ``register()`` adds the commands to
the ``docs`` sub-parser; ``commands.build_parser()`` calls it. The picture commands are in
``cli/images.py``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any, TextIO

from modu_desktop.cli import common
from modu_desktop.core.brochure.themes import DEFAULT_LAYOUT, DEFAULT_THEME, LAYOUT_KEYS, THEME_KEYS
from modu_desktop.core.docops.newdoc import next_free_position
from modu_desktop.core.docops.ops import (
    MAX_POSITION,
    DocOps,
    NewDocRequest,
    OpResult,
    validate_new_id,
)
from modu_desktop.i18n import tr

__all__ = ["register"]


# --------------------------------------------------------------------------------------------
# Parsers


def _new_id_arg(text: str) -> str:
    problem = validate_new_id(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem())
    return text.strip()


def _position_arg(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= n <= MAX_POSITION:
        raise argparse.ArgumentTypeError(f"must be from 0 to {MAX_POSITION}")
    return n


def _add(sub: Any, name: str, help_text: str, run: common.Runner) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        name, parents=[common.conn_parser()], help=help_text
    )
    p.set_defaults(run=run)
    return p


def register(subparsers: Mapping[str, Any]) -> None:
    """Add our commands to ``{"docs": docs_subparsers, "images": images_subparsers}`` (either
    may be missing). Commands that already exist are left alone."""
    docs = subparsers.get("docs")
    if docs is not None:
        have = set(getattr(docs, "choices", {}) or {})
        if "new" not in have:
            _add_new(docs)
        if "publish" not in have:
            p = _add(
                docs,
                "publish",
                "publish a page that is not published yet (takes out draft: true)",
                _docs_publish,
            )
            p.add_argument("doc_id", metavar="DOC_ID", type=common.doc_id_arg)
        if "delete" not in have:
            p = _add(
                docs, "delete", "delete a document (refused while someone edits it)", _docs_delete
            )
            p.add_argument("doc_id", metavar="DOC_ID", type=common.doc_id_arg, help="e.g. 05-news")
        if "move" not in have:
            p = _add(
                docs, "move", "move a document up or down the sidebar (swaps positions)", _docs_move
            )
            p.add_argument("doc_id", metavar="DOC_ID", type=common.doc_id_arg)
            p.add_argument("direction", choices=("up", "down"))
        if "import" not in have:
            p = _add(
                docs,
                "import",
                "create documents from .md files (front matter pre-fills)",
                _docs_import,
            )
            p.add_argument("files", metavar="FILE", nargs="+")
            p.add_argument(
                "--dry-run",
                action="store_true",
                help="only show what would be created and the conflicts",
            )


def _add_new(docs: Any) -> None:
    """``docs new``: its id, title, place, look and whether it is published."""
    p = _add(docs, "new", "create a document (locks it first, like the web admin)", _docs_new)
    p.add_argument(
        "--id",
        dest="doc_id",
        required=True,
        type=_new_id_arg,
        help="front matter id and file slug, e.g. bootcamp",
    )
    p.add_argument("--title", required=True, help="page title")
    p.add_argument(
        "--position",
        type=_position_arg,
        default=None,
        help="sidebar_position (default: after the last page); also the file prefix docs/NN-ID.md",
    )
    p.add_argument("--theme", choices=THEME_KEYS, default=DEFAULT_THEME)
    p.add_argument("--layout", choices=LAYOUT_KEYS, default=DEFAULT_LAYOUT)
    p.add_argument("--nav-label", default=None, help="short label for the navigation")
    p.add_argument(
        "--template",
        action="store_true",
        help="start from a body with the common brochure blocks",
    )
    shown = p.add_mutually_exclusive_group()
    shown.add_argument(
        "--draft",
        dest="draft",
        action="store_true",
        default=True,
        help="not published until 'docs publish' (draft: true; the default)",
    )
    shown.add_argument(
        "--publish",
        dest="draft",
        action="store_false",
        help="published with the next build of the site",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")


# --------------------------------------------------------------------------------------------
# Commands


async def _ops(ctx: common.Context, cache_dir: str) -> DocOps:
    login = await ctx.login()
    ws = common.workspace(ctx, login, cache_dir)
    return DocOps(ws.store, ws.locks, login)


def _finish(res: OpResult, ctx: common.Context, *, json_out: bool = False) -> int:
    if json_out:
        ctx.out.write(json.dumps(_result_json(res), ensure_ascii=False, indent=2) + "\n")
    # The sentence names the page by its title, as everywhere; the admin also gets the file
    # and the commits, which is what they type in the next command.
    where = [res.path] if res.path else []
    if not res.ok:
        raise common.CliFailure(res.text() + (f" ({where[0]})" if where else ""))
    if not json_out:
        commits = ", ".join(c[:7] for c in res.commits)
        extra = where + ([f"commit {commits}"] if commits else [])
        ctx.out.write(res.text() + (f" ({', '.join(extra)})" if extra else "") + "\n")
    return 0


def _result_json(res: OpResult) -> dict[str, Any]:
    return {
        "ok": res.ok,
        "code": res.code.value,
        "message": res.text.en,
        "messageKo": res.text.ko,
        "docId": res.doc_id,
        "path": res.path,
        "commits": list(res.commits),
    }


async def _docs_new(args: argparse.Namespace, ctx: common.Context) -> int:
    with common.blob_cache() as cache:
        ops = await _ops(ctx, cache)
        position = args.position
        if position is None:  # last in the menu, like the app's new pages
            position = next_free_position((await ops.store.refresh()).docs)
        req = NewDocRequest(
            args.doc_id,
            args.title,
            position,
            args.nav_label,
            args.theme,
            args.layout,
            template=args.template,
            draft=args.draft,
        )
        res = await ops.create(req, keep_lock=False)
    return _finish(res, ctx, json_out=args.json)


async def _docs_publish(args: argparse.Namespace, ctx: common.Context) -> int:
    with common.blob_cache() as cache:
        ops = await _ops(ctx, cache)
        res = await ops.publish(args.doc_id)
    return _finish(res, ctx)


async def _docs_delete(args: argparse.Namespace, ctx: common.Context) -> int:
    with common.blob_cache() as cache:
        ops = await _ops(ctx, cache)
        res = await ops.delete(args.doc_id)
    return _finish(res, ctx)


async def _docs_move(args: argparse.Namespace, ctx: common.Context) -> int:
    with common.blob_cache() as cache:
        ops = await _ops(ctx, cache)
        res = await ops.move(args.doc_id, args.direction)
    return _finish(res, ctx)


async def _docs_import(args: argparse.Namespace, ctx: common.Context) -> int:
    from modu_desktop.core.docops.importer import (
        check_candidates,
        import_candidates,
        read_candidates,
    )

    cands = read_candidates(args.files)
    with common.blob_cache() as cache:
        ops = await _ops(ctx, cache)
        if args.dry_run:
            checked = check_candidates(cands, await ops.store.refresh())
            bad = 0
            for c in checked:
                _print_candidate(c, ctx.out)
                bad += 0 if c.ok else 1
            if bad:
                raise common.CliFailure(
                    tr("{bad} of {n} file(s) cannot be imported as is", bad=bad, n=len(checked))
                )
            return 0
        results = await import_candidates(ops, cands)
    failed = 0
    for c, res in results:
        name = c.source
        mark = "ok  " if res.ok else "FAIL"
        ctx.out.write(f"{mark} {name}: {res.text()}\n")
        failed += 0 if res.ok else 1
    if failed:
        raise common.CliFailure(
            tr("{bad} of {n} file(s) not imported (see above)", bad=failed, n=len(results))
        )
    return 0


def _print_candidate(c: Any, out: TextIO) -> None:
    if c.request is None:
        why = c.conflict() if c.conflict else tr("it cannot be read as a page")
        out.write(tr("skip {file}: {why}", file=c.source, why=why) + "\n")
        return
    r = c.request
    pos = "-" if r.position is None else str(r.position)
    state = "ok  " if c.ok else "CONFLICT"
    out.write(
        f"{state} {c.source} -> {r.path} (id {r.doc_id}, position {pos}, "
        f"{r.theme}/{r.layout}, title {r.title!r})\n"
    )
    for n in c.notes:
        out.write("       " + tr("note: {what}", what=n()) + "\n")
    if c.conflict is not None:
        out.write("       " + tr("conflict: {what}", what=c.conflict()) + "\n")
