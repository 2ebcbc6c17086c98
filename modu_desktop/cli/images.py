"""The picture commands, on ``core/pictures``:

    modu-desktop images list [--json]          every picture, its sizes and the pages using it
    modu-desktop images add FILE [--alt TEXT]  upload a picture, print the Markdown to insert
    modu-desktop images delete PATH            delete a picture no page uses
    modu-desktop images rename OLD NEW [--json] rename a picture and every page naming it

``images list`` reads the listing the app reads (one tree request when the blob cache is warm)
and the pictures' bytes it has not seen yet (once; they are cached), and shows each picture with
its file size, pixel size and the pages that use it, then the pictures no page uses and the
pictures pages name that the repository does not have. ``images add`` keeps the file's own name
(made safe and unique) and offers a picture already on the site instead of a second copy.
``images delete`` refuses a picture a page still uses, naming the pages. ``images rename``
moves a picture and rewrites every page that names it in one commit (``core/changes/
pictures.rename_picture``): NEW is a file name (the picture stays in its folder) or a path; it
is made safe as an upload's name is and keeps the picture's extension; a name already taken or
a picture that is not there is refused, and when a page naming it is being edited by someone
else nothing changes (exit 1, the page and who named).

Same connection flags, token lookup and exit status as ``docs list`` (``cli/common.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from modu_desktop.cli import common
from modu_desktop.core.pictures.library import (
    LibraryPicture,
    PageRef,
    PictureLibrary,
    delete_picture,
    library_from_store,
    load_pixels,
    titles,
)
from modu_desktop.core.pictures.uploads import size_text
from modu_desktop.i18n import tr

__all__ = ["register"]


def register(images: Any) -> None:
    """Add the picture commands to the ``images`` sub-parsers."""
    p = images.add_parser(
        "list", parents=[common.conn_parser()], help="list the pictures and the pages using them"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=_images_list)
    p = images.add_parser(
        "add",
        parents=[common.conn_parser()],
        help="upload a picture and print the Markdown to insert",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--alt", default=None, help="alt text (default: from the file name)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=_images_add)
    p = images.add_parser(
        "delete", parents=[common.conn_parser()], help="delete a picture that no page uses"
    )
    p.add_argument("path", metavar="PATH", help="e.g. static/img/uploads/campus.png")
    p.set_defaults(run=_images_delete)
    p = images.add_parser(
        "rename",
        parents=[common.conn_parser()],
        help="rename a picture and rewrite every page that names it, in one commit",
    )
    p.add_argument("old", metavar="OLD", help="e.g. static/img/uploads/campus.png")
    p.add_argument("new", metavar="NEW", help="the new file name (or path), e.g. campus-2026.png")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=_images_rename)


async def _library(ctx: common.Context, *, pixels: bool) -> PictureLibrary:
    from modu_desktop.core.documents.store import DocumentStore

    with common.blob_cache() as cache:
        store = DocumentStore(ctx.client, cache, branch=ctx.client.repo.branch)
        await store.refresh()
        library = library_from_store(store)
        return await load_pixels(store, library) if pixels else library


def _page_json(page: PageRef) -> dict[str, str]:
    return {"docId": page.doc_id, "title": page.title, "path": page.path}


def _picture_json(p: LibraryPicture) -> dict[str, Any]:
    return {
        "path": p.path,
        "name": p.name,
        "sha": p.sha,
        "bytes": p.size,
        "width": p.pixels.width if p.pixels else None,
        "height": p.pixels.height if p.pixels else None,
        "pages": [_page_json(page) for page in p.pages],
        "uses": [
            {
                "docId": r.page.doc_id,
                "kind": r.use.kind,
                "line": r.use.line + 1,
                "address": r.old_text,
            }
            for r in p.references
        ],
    }


async def _images_list(args: argparse.Namespace, ctx: common.Context) -> int:
    library = await _library(ctx, pixels=True)
    if args.json:
        body = {
            "pictures": [_picture_json(p) for p in library.pictures],
            "unused": [p.path for p in library.unused],
            "missing": [
                {"path": m.path, "pages": [_page_json(page) for page in m.pages]}
                for m in library.missing
            ],
        }
        ctx.out.write(json.dumps(body, ensure_ascii=False, indent=2) + "\n")
        return 0
    rows = [["PICTURE", "SIZE", "PIXELS", "PAGES"]]
    for p in library.pictures:
        rows.append(
            [
                p.path,
                size_text(p.size) if p.size is not None else "-",
                str(p.pixels) if p.pixels else "-",
                titles(p.pages) or "-",
            ]
        )
    common.table(rows, ctx.out)
    ctx.out.write(
        tr(
            "{n} pictures on {where}; {unused} used by no page.",
            n=len(library.pictures),
            where=ctx.where,
            unused=len(library.unused),
        )
        + "\n"
    )
    for m in library.missing:
        ctx.out.write(
            tr("Missing: {path}, named on {pages}.", path=m.path, pages=titles(m.pages)) + "\n"
        )
    return 0


async def _images_add(args: argparse.Namespace, ctx: common.Context) -> int:
    from modu_desktop.core.pictures.uploads import upload_image_file

    tree = await ctx.client.get_tree(ctx.client.repo.branch, recursive=True)
    res = await upload_image_file(
        ctx.client, args.file, alt=args.alt, branch=ctx.client.repo.branch, existing=tree.entries
    )
    if not res.ok:
        raise common.CliFailure(res.text())
    if res.reused:
        sys.stderr.write(f"note: {res.text()}\n")
    elif res.check is not None and res.check.warning is not None:
        sys.stderr.write(f"note: {res.check.warning()}\n")
    if args.json:
        body = {
            "path": res.path,
            "name": res.name,
            "markdown": res.markdown,
            "url": res.site_url,
            "commit": res.commit_sha,
            "reused": res.reused,
        }
        ctx.out.write(json.dumps(body, ensure_ascii=False, indent=2) + "\n")
    else:
        ctx.out.write(f"{res.markdown}\n")
    return 0


async def _images_delete(args: argparse.Namespace, ctx: common.Context) -> int:
    library = await _library(ctx, pixels=False)
    res = await delete_picture(ctx.client, library, args.path, branch=ctx.client.repo.branch)
    if not res.ok:
        raise common.CliFailure(res.text())
    commit = f" (commit {res.commit_sha[:7]})" if res.commit_sha else ""
    ctx.out.write(res.text() + commit + "\n")
    return 0


async def _images_rename(args: argparse.Namespace, ctx: common.Context) -> int:
    from modu_desktop.core.changes import words
    from modu_desktop.core.changes.pictures import RenameRefused, rename_picture
    from modu_desktop.core.documents.store import DocumentStore

    login = await ctx.login()
    with common.blob_cache() as cache:
        ws = common.workspace(ctx, login, cache)
        store: DocumentStore = ws.store
        await store.refresh()
        out = await rename_picture(ctx.client, store, args.old, args.new, ws.editor)
        now = ws.server_now()
    if isinstance(out, RenameRefused):
        raise common.CliFailure(out.text())
    if args.json:
        body = {
            **out.as_json(),
            "from": out.summary.old,
            "to": out.summary.new,
            "leftOut": [
                {
                    **n.as_json(),
                    "message": words.left_out(n, now).en,
                    "messageKo": words.left_out(n, now).ko,
                }
                for n in out.left_out
            ],
        }
        ctx.out.write(json.dumps(body, ensure_ascii=False, indent=2) + "\n")
    else:
        commit = f" (commit {out.commit_sha[:7]})" if out.commit_sha else ""
        ctx.out.write(words.headline(out)() + commit + "\n")
        for page in out.pages:
            ctx.out.write(f"  {page.title} ({page.path})\n")
        for note in out.left_out:
            ctx.out.write(f"- {words.left_out(note, now)()} ({note.path})\n")
    return 0 if out.complete else 1
