"""Admin CLI on the core: ``modu-desktop docs …``, ``locks …``, ``images …``.

    modu-desktop docs list [--json]
    modu-desktop locks list [--json]
    modu-desktop locks release DOC_ID [--force] [--json]

Connection flags (on every command): ``--data-dir`` (as the app's; else ``MODU_DATA_DIR``),
``--api-url`` (default https://api.github.com, or a GitHub
Enterprise ``https://HOST/api/v3``, or a sandbox), ``--repo OWNER/NAME`` (default
pnuai/PNU-Modu), ``--branch`` (default main). The token comes from ``MODU_TOKEN`` or the OS
keyring (service ``modu-desktop``, account = the API host, as the app stores it).

Exit status: 0 success, 1 failure (one line on stderr, never a traceback, never the token),
2 usage error.

Adding a command: write ``_add_<group>_<name>(subparsers)`` that registers a parser with
``parents=[conn_parser()]`` and ``set_defaults(run=<async function(args, ctx) -> int>)``, and call
it from :func:`build_parser`. ``docs new/delete/move/import`` come from ``cli/ops.py``'s
``register()``, the ``images`` commands from ``cli/images.py``'s. Shared parts:
``cli/common.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import UTC, datetime
from typing import Any, TextIO, cast

from modu_desktop import i18n
from modu_desktop.cli.common import (
    CliFailure,
    Context,
    Runner,
    load_token,
)
from modu_desktop.cli.common import Parser as _Parser
from modu_desktop.cli.common import conn_parser as _conn_parser
from modu_desktop.cli.common import data_dir as _data_dir
from modu_desktop.cli.common import doc_id_arg as _doc_id_arg
from modu_desktop.cli.common import lock_manager as _lock_manager
from modu_desktop.cli.common import table as _table
from modu_desktop.core.github.client import GitHubClient
from modu_desktop.core.github.errors import GitHubError
from modu_desktop.core.locks.wire import InvalidDocId
from modu_desktop.core.text import Text
from modu_desktop.i18n import tr

# --------------------------------------------------------------------------------------------
# Parsers


def _add_docs_list(sub: Any) -> None:
    p = sub.add_parser("list", parents=[_conn_parser()], help="list the documents")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=_docs_list)


def _add_locks_list(sub: Any) -> None:
    p = sub.add_parser("list", parents=[_conn_parser()], help="list the edit locks")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=_locks_list)


def _add_locks_release(sub: Any) -> None:
    p = sub.add_parser(
        "release",
        parents=[_conn_parser()],
        help="delete a lock (stale or unreadable; a fresh one only with --force)",
    )
    p.add_argument("doc_id", metavar="DOC_ID", type=_doc_id_arg, help="e.g. 01-intro")
    p.add_argument(
        "--force", action="store_true", help="also release a fresh lock someone is using"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output (with its code)")
    p.set_defaults(run=_locks_release)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="modu-desktop", description="Modu Desktop admin commands.")
    parser.add_argument(
        "--lang", choices=("en", "ko"), default="en", help="language of the messages (en)"
    )
    groups = parser.add_subparsers(dest="group", metavar="{docs,locks,images}", required=True)

    docs = groups.add_parser("docs", help="documents")
    docs_sub = docs.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _add_docs_list(docs_sub)

    locks = groups.add_parser("locks", help="edit locks")
    locks_sub = locks.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _add_locks_list(locks_sub)
    _add_locks_release(locks_sub)

    images = groups.add_parser("images", help="pictures")
    images_sub = images.add_subparsers(dest="command", metavar="COMMAND", required=True)

    # docs new / delete / move / import live in cli/ops.py (on core.docops).
    from modu_desktop.cli import ops as cli_ops

    cli_ops.register({"docs": docs_sub})
    # images list / add / delete live in cli/images.py (on core.pictures).
    from modu_desktop.cli import images as cli_images

    cli_images.register(images_sub)
    # docs check / history / restore live in cli/publish.py.
    from modu_desktop.cli import publish as cli_publish

    cli_publish.register({"docs": docs_sub})
    # docs search lives in cli/search.py.
    from modu_desktop.cli import search as cli_search

    cli_search.register({"docs": docs_sub})
    # docs replace lives in cli/replace.py.
    from modu_desktop.cli import replace as cli_replace

    cli_replace.register({"docs": docs_sub})
    return parser


# --------------------------------------------------------------------------------------------
# Context: client, token, output


def _fmt_ts(ts: float | None) -> str:
    if ts is None:
        return "-"
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M:%S")


# --------------------------------------------------------------------------------------------
# Commands


class _BlobsThroughStore:
    """The client, with blob reads through a DocumentStore's disk cache (for lock blobs)."""

    def __init__(self, client: Any, store: Any) -> None:
        self._client, self._store = client, store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    async def get_blob(self, sha: str) -> bytes:
        data: bytes = await self._store.read_blob(sha)
        return data


async def _docs_list(args: argparse.Namespace, ctx: Context) -> int:
    import tempfile

    from modu_desktop.core.account.paths import app_paths
    from modu_desktop.core.documents.store import DocumentStore

    try:
        cache_dir = app_paths().ensure().blob_cache_dir
    except OSError:
        cache_dir = None
    with tempfile.TemporaryDirectory(prefix="modu-cli-") as tmp:
        store = DocumentStore(ctx.client, cache_dir or tmp, branch=ctx.client.repo.branch)
        snap = await store.refresh()
        login = await ctx.login()
        # Lock blobs go through the disk cache like document blobs: unchanged locks cost nothing.
        locks = _lock_manager(ctx, login, cast(GitHubClient, _BlobsThroughStore(ctx.client, store)))
        views = {v.doc_id: v for v in await locks.list_locks(snap.locks)}
    docs: list[dict[str, Any]] = []
    for d in snap.docs:
        v = views.get(d.doc_id)
        docs.append(
            {
                "docId": d.doc_id,
                "path": d.path,
                "sha": d.sha,
                "title": d.title,
                "navLabel": d.nav_label,
                "position": d.position,
                "theme": d.theme,
                "layout": d.layout,
                "lockedBy": v.holder if v else None,
                "lockStatus": v.status.value if v else "free",
                "published": not d.draft,
            }
        )
    if args.json:
        ctx.out.write(json.dumps(docs, ensure_ascii=False, indent=2) + "\n")
        return 0
    rows = [["DOC ID", "POS", "TITLE", "THEME", "LAYOUT", "LOCK"]]
    for row in docs:
        lock = "-"
        if row["lockedBy"]:
            lock = f"@{row['lockedBy']} ({row['lockStatus'].replace('_', ' ')})"
        rows.append(
            [
                str(row["docId"]),
                "-" if row["position"] is None else str(row["position"]),
                str(row["title"] or "") + ("" if row["published"] else tr(" (not published)")),
                str(row["theme"] or "-"),
                str(row["layout"] or "-"),
                lock,
            ]
        )
    _table(rows, ctx.out)
    ctx.out.write(tr("{n} document(s) on {where}", n=len(docs), where=ctx.where) + "\n")
    return 0


async def _locks_list(args: argparse.Namespace, ctx: Context) -> int:
    from modu_desktop.core.locks.model import LockStatus, view_to_json
    from modu_desktop.core.locks.words import format_age

    login = await ctx.login()
    views = await _lock_manager(ctx, login).list_locks()
    if args.json:
        ctx.out.write(
            json.dumps([view_to_json(v) for v in views], ensure_ascii=False, indent=2) + "\n"
        )
        return 0
    if not views:
        ctx.out.write(tr("No locks on {where}.", where=ctx.where) + "\n")
        return 0
    rows = [["DOC ID", "HOLDER", "STARTED (UTC)", "LAST HEARTBEAT (UTC)", "AGE", "STATE"]]
    for v in views:
        if v.status is LockStatus.MALFORMED:
            # Why it cannot be read is technical, and this table is where an admin looks for it.
            state = f"malformed: {v.malformed_reason}"
            if v.record is not None and v.record.claimed_by:
                state += f" (names @{v.record.claimed_by})"
        elif v.is_stale:
            state = "stale"
        else:
            state = "fresh"
        rows.append(
            [
                v.doc_id,
                v.holder or "-",
                _fmt_ts(v.started_at),
                _fmt_ts(v.last_heartbeat),
                format_age(v.age_s),
                state,
            ]
        )
    _table(rows, ctx.out)
    return 0


async def _locks_release(args: argparse.Namespace, ctx: Context) -> int:
    from modu_desktop.core.locks import words
    from modu_desktop.core.locks.model import LockStatus, ReleaseOutcome
    from modu_desktop.core.locks.results import ReleaseResult

    login = await ctx.login()
    mgr = _lock_manager(ctx, login)
    view = await mgr.inspect(args.doc_id)
    fresh = not view.is_stale and not (view.status is LockStatus.MALFORMED and view.age_s is None)
    if view.status is not LockStatus.FREE and fresh and not args.force:
        fresh_lock = Text(
            "{holding} The lock is fresh: use --force to release it anyway.",
            holding=words.describe(view),
        )
        raise CliFailure(fresh_lock())
    result = (
        await mgr.release_view(view)
        if view.status is not LockStatus.FREE
        else ReleaseResult(ReleaseOutcome.ALREADY_GONE, args.doc_id, view=view)
    )
    done = result.outcome in (ReleaseOutcome.RELEASED, ReleaseOutcome.ALREADY_GONE)
    if args.json:
        ctx.out.write(json.dumps(_release_json(result, done), ensure_ascii=False, indent=2) + "\n")
    if not done:
        raise CliFailure(result.text())
    if not args.json:
        ctx.out.write(result.text() + "\n")
    return 0


def _release_json(result: Any, done: bool) -> dict[str, Any]:
    """A lock result for scripts: its outcome and code (what happened), and the sentence in
    both languages."""
    return {
        "ok": done,
        "docId": result.doc_id,
        "outcome": result.outcome.value,
        "code": result.code.value,
        "message": result.text.en,
        "messageKo": result.text.ko,
    }


# --------------------------------------------------------------------------------------------
# Entry point


def _one_line(text: str, token: str | None) -> str:
    text = " ".join(str(text).split())
    if token:
        text = text.replace(token, "***")
    return text or "unknown error"


async def _run(args: argparse.Namespace, out: TextIO, secrets: list[str]) -> int:
    from modu_desktop.core.github.client import RepoRef, RetryPolicy

    try:
        repo = RepoRef.parse(args.repo, branch=args.branch)
    except Exception as exc:
        raise CliFailure(f"--repo must be OWNER/NAME ({exc})") from None
    token = load_token(args.api_url)
    secrets.append(token)
    retry = RetryPolicy(max_attempts=3, base_delay=0.5, max_delay=4.0, max_total=15.0)
    with _data_dir(getattr(args, "data_dir", None)):
        async with GitHubClient(args.api_url, token, repo, retry=retry) as client:
            runner: Runner = args.run
            return await runner(args, Context(client, token, out))


def main(argv: list[str] | None = None, *, out: TextIO | None = None) -> int:
    """Run an admin command; ``argv`` starts with the group (``["locks", "list", "--json"]``)."""
    out = out if out is not None else sys.stdout
    parser = build_parser()
    i18n.set_language("en")  # argparse's own checks answer in English
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:  # usage error (2) or --help (0)
        return int(exc.code) if isinstance(exc.code, int) else 2
    i18n.set_language(args.lang)
    local = getattr(args, "local_run", None)
    if local is not None:  # a command on local files: no token, no connection
        return int(local(args, out))
    secrets: list[str] = []
    try:
        return asyncio.run(_run(args, out, secrets))
    except CliFailure as exc:
        message = str(exc)
    except KeyboardInterrupt:
        message = "interrupted"
    except Exception as exc:
        if isinstance(exc, GitHubError | InvalidDocId):
            message = exc.user_message()
            detail = getattr(exc, "message", None)
            if isinstance(detail, str) and detail and detail not in message:
                message = f"{message} ({detail})"
        else:
            message = f"unexpected error: {type(exc).__name__}: {exc}"
    sys.stderr.write(f"error: {_one_line(message, secrets[0] if secrets else None)}\n")
    return 1


if __name__ == "__main__":
    sys.exit(main())
