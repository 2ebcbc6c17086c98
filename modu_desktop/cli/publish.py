"""Admin CLI commands for publishing: the publish check, a document's history, restore.

    modu-desktop docs check FILE… [--json] [--root DIR] [--strict]
    modu-desktop docs history DOC_ID [--json] [--limit N]
    modu-desktop docs restore DOC_ID SHA

``docs check`` works on local files and needs no token. It prints one ``FILE:LINE:COL message``
line per finding (``warning:`` before the message when the site still builds) and exits 1 when
a document would break the site's build (with ``--strict``, also for warnings), else 0.
``--json`` prints ``[{"file", "breaksBuild", "findings": [...]}]``. Pictures are checked
against the repository the file is in (the nearest folder above it holding ``docs/`` and
``static/``, or ``--root``).

``docs history`` lists the versions of a document (newest first, lock commits left out);
``docs restore`` saves an earlier version as the current one — it takes the edit lock first,
like any save, and exits 1 when the lock is held by someone else or the document changed.
Connection flags, token and exit status as in ``modu_desktop/cli/commands.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from modu_desktop.cli import common as cli
from modu_desktop.core.text import Text
from modu_desktop.i18n import tr

__all__ = ["register", "check_files"]

_SKIP_DIRS = {".git", "node_modules", "build", ".docusaurus", ".venv", "__pycache__"}


def register(subparsers: Mapping[str, Any]) -> None:
    docs = subparsers.get("docs")
    if docs is None:
        return
    have = set(getattr(docs, "choices", {}) or {})
    if "check" not in have:
        p = docs.add_parser(
            "check", help="check documents for what would break the site (local files)"
        )
        p.add_argument("files", nargs="+", metavar="FILE", help="Markdown documents")
        p.add_argument("--json", action="store_true", help="machine-readable output")
        p.add_argument("--root", default=None, help="repository folder (for the picture checks)")
        p.add_argument(
            "--strict", action="store_true", help="exit 1 for warnings too (the site builds)"
        )
        p.set_defaults(local_run=_docs_check)
    if "history" not in have:
        p = docs.add_parser(
            "history", parents=[cli.conn_parser()], help="list the versions of a document"
        )
        p.add_argument("doc_id", metavar="DOC_ID", type=cli.doc_id_arg, help="e.g. 01-intro")
        p.add_argument("--json", action="store_true", help="machine-readable output")
        p.add_argument("--limit", type=int, default=None, help="at most N versions")
        p.set_defaults(run=_docs_history)
    if "restore" not in have:
        p = docs.add_parser(
            "restore",
            parents=[cli.conn_parser()],
            help="make an earlier version the current one (a normal, locked save)",
        )
        p.add_argument("doc_id", metavar="DOC_ID", type=cli.doc_id_arg, help="e.g. 01-intro")
        p.add_argument("sha", metavar="SHA", help="the version's commit sha (7+ characters)")
        p.set_defaults(run=_docs_restore)


# --------------------------------------------------------------------------------------------
# docs check


def find_root(path: Path) -> Path | None:
    """The nearest folder above ``path`` that looks like the site repository."""
    for folder in [path.parent, *path.parent.parents]:
        if (folder / "docs").is_dir() and (folder / "static").is_dir():
            return folder
    return None


def repo_paths(root: Path) -> set[str]:
    out: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in _SKIP_DIRS]
        rel = Path(dirpath).relative_to(root).as_posix()
        for name in filenames:
            out.add(name if rel == "." else f"{rel}/{name}")
    return out


def check_files(files: list[str], root: str | None = None) -> list[dict[str, Any]]:
    """Check each file; one report per file: ``{"file", "error"|"breaksBuild"+"findings"}``."""
    from modu_desktop.core.publish.check import check_text

    trees: dict[Path, set[str]] = {}
    reports: list[dict[str, Any]] = []
    for name in files:
        path = Path(name)
        try:
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reports.append({"file": name, "error": f"cannot read: {exc}"})
            continue
        base = Path(root) if root else find_root(path.resolve())
        paths = None
        rel = f"docs/{path.name}"
        if base is not None:
            base = base.resolve()
            if base not in trees:
                trees[base] = repo_paths(base)
            paths = trees[base]
            with contextlib.suppress(ValueError):
                rel = path.resolve().relative_to(base).as_posix()
        result = check_text(text, path=rel, repo_paths=paths)
        reports.append(
            {
                "file": name,
                "breaksBuild": result.breaks_build,
                "findings": [f.to_json() for f in result.findings],
            }
        )
    return reports


def _docs_check(args: argparse.Namespace, out: TextIO) -> int:
    reports = check_files(list(args.files), args.root)
    if args.json:
        out.write(json.dumps(reports, ensure_ascii=False, indent=2) + "\n")
    else:
        for rep in reports:
            if "error" in rep:
                sys.stderr.write(f"{rep['file']}: error: {rep['error']}\n")
                continue
            for f in rep["findings"]:
                warn = "" if f["breaksBuild"] else "warning: "
                out.write(f"{rep['file']}:{f['line']}:{f['column']} {warn}{f['message']}\n")
    failed = any("error" in r or r["breaksBuild"] for r in reports)
    if args.strict:
        failed = failed or any(r.get("findings") for r in reports)
    return 1 if failed else 0


# --------------------------------------------------------------------------------------------
# docs history / restore


async def _history_for(ctx: cli.Context, tmp: str) -> tuple[Any, Any]:
    from modu_desktop.core.account.paths import app_paths
    from modu_desktop.core.documents.history import DocHistory
    from modu_desktop.core.documents.store import DocumentStore

    try:
        cache_dir: Any = app_paths().ensure().blob_cache_dir
    except OSError:
        cache_dir = tmp
    store = DocumentStore(ctx.client, cache_dir, branch=ctx.client.repo.branch)
    return store, DocHistory(ctx.client, store)


async def _doc(store: Any, doc_id: str) -> Any:
    snap = await store.refresh()
    doc = snap.doc(doc_id)
    if doc is None:
        raise cli.CliFailure(tr("There is no page {id}.", id=doc_id))
    return doc


async def _docs_history(args: argparse.Namespace, ctx: cli.Context) -> int:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="modu-cli-") as tmp:
        store, history = await _history_for(ctx, tmp)
        doc = await _doc(store, args.doc_id)
        path = str(doc.path)
        versions = await history.versions(path, limit=args.limit)
    if args.json:
        ctx.out.write(
            json.dumps([v.to_json() for v in versions], ensure_ascii=False, indent=2) + "\n"
        )
        return 0
    rows = [["SHA", "DATE", "AUTHOR", "MESSAGE"]]
    for v in versions:
        rows.append([v.short_sha, (v.date or "-").replace("T", " ")[:19], v.author, v.message])
    cli.table(rows, ctx.out)
    ctx.out.write(
        tr("{n} version(s) of “{doc}” on {where}", n=len(versions), doc=doc.title, where=ctx.where)
        + f" ({path})\n"
    )
    return 0


async def _docs_restore(args: argparse.Namespace, ctx: cli.Context) -> int:
    import tempfile

    from modu_desktop.core.documents.history import RestoreRefused, restore_version
    from modu_desktop.core.documents.store import SaveConflict

    sha = args.sha.strip().lower()
    if len(sha) < 7 or any(c not in "0123456789abcdef" for c in sha):
        raise cli.CliFailure(tr("SHA must be at least 7 hexadecimal characters."))
    login = await ctx.login()
    with tempfile.TemporaryDirectory(prefix="modu-cli-") as tmp:
        store, history = await _history_for(ctx, tmp)
        doc = await _doc(store, args.doc_id)
        path, title = str(doc.path), str(doc.title)
        matches = [v for v in await history.versions(path) if v.sha.startswith(sha)]
        if not matches:
            raise cli.CliFailure(tr("{sha} is not a version of “{doc}”.", sha=args.sha, doc=title))
        if len(matches) > 1:
            raise cli.CliFailure(
                tr("{sha} matches several versions of “{doc}”.", sha=args.sha, doc=title)
            )
        version = matches[0]
        text = await history.text_at(version.sha, path)
        if text is None:
            raise cli.CliFailure(tr("“{doc}” is not in {sha}.", doc=title, sha=version.short_sha))
        mgr = cli.lock_manager(ctx, login)
        acquired = await mgr.acquire(args.doc_id, take_stale=True)
        if acquired.held is None:
            raise cli.CliFailure(Text("Nothing was restored. {why}", why=acquired.text)())
        held = acquired.held
        try:
            current = await store.load(args.doc_id)

            async def lock_ok() -> Text | None:
                v = await mgr.verify(held)
                return None if v.ok else v.text

            result = await restore_version(
                store, current, version, text, current.sha, login, lock_ok=lock_ok
            )
        finally:
            await mgr.release(held)
    if isinstance(result, RestoreRefused):
        raise cli.CliFailure(result.reason())
    if isinstance(result, SaveConflict):
        raise cli.CliFailure(
            tr("“{doc}” changed while restoring; nothing was restored.", doc=title)
        )
    if getattr(result, "unchanged", False):
        said = tr(
            "“{doc}” already has the text of {sha}; nothing to do.",
            doc=title,
            sha=version.short_sha,
        )
        ctx.out.write(f"{said} ({path})\n")
        return 0
    said = tr("Restored “{doc}” to {sha}.", doc=title, sha=version.short_sha)
    ctx.out.write(f"{said} ({path}, commit {str(result.commit_sha)[:7]})\n")
    return 0
