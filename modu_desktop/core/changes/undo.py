"""Undoing one commit as one change (Qt-free): every file it changed goes back to the text it
had before, in one commit, under the same rules as any change of many pages.

    prepared = await prepare_undo(client, commit_sha, read_blob, title_of=store_titles)
    outcome = await send_change(client, prepared, ws.editor, spool=ws.spool)

What the commit changed is found by comparing its tree with its parent's, reading only the
folders whose tree differs (two requests per folder that changed, whatever the size of the
site). Each file is written back over the version the commit made, so a page changed since
is left out (never overwritten) and a page someone else holds is left out too, named with who
and since when; a file the commit added is deleted, one it deleted comes back, a picture it
renamed gets its name back. Undoing a picture's rename is all or nothing: the picture and the
pages that show it go back together. The message names what is undone
(``docs(edit): undo replace “2025학년도” → “2026학년도” in 17 pages by @login``), so the
history says it again ("되돌림: 17개 문서에서 ‘2025학년도’ → ‘2026학년도’").
"""

from __future__ import annotations

import posixpath
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from modu_desktop.core.changes.model import ChangeSet
from modu_desktop.core.changes.outcome import ChangeSummary, PreparedChange
from modu_desktop.core.documents.naming import LOCKS_DIR, read_many_pages
from modu_desktop.core.github.client import GitHubClient
from modu_desktop.core.github.errors import GitHubError
from modu_desktop.core.github.types import TreeEntry

__all__ = ["NothingBefore", "prepare_undo"]

ReadBlob = Callable[[str], Awaitable[bytes]]


class NothingBefore(GitHubError):
    """The commit has no parent: there is no version before it to go back to."""

    def __init__(self, sha: str) -> None:
        super().__init__(None, f"commit {sha} has no parent")


@dataclass(frozen=True)
class _Diff:
    path: str
    before: str | None  # blob sha in the parent (None: the commit added the file)
    after: str | None  # blob sha in the commit (None: the commit deleted it)


async def _entries(client: GitHubClient, tree_sha: str | None) -> dict[str, TreeEntry]:
    if tree_sha is None:
        return {}
    return {e.path: e for e in (await client.get_tree(tree_sha, recursive=False)).entries}


async def _blobs_under(client: GitHubClient, entry: TreeEntry, prefix: str) -> dict[str, str]:
    """path → blob sha of every file under a tree entry (or the entry itself)."""
    if entry.type != "tree":
        return {prefix: entry.sha}
    tree = await client.get_tree(entry.sha, recursive=True)
    return {f"{prefix}/{e.path}": e.sha for e in tree.entries if e.type == "blob"}


async def _diff(
    client: GitHubClient, before: str | None, after: str | None, prefix: str
) -> list[_Diff]:
    """The files that differ between two trees, reading only the folders that differ."""
    old, new = await _entries(client, before), await _entries(client, after)
    out: list[_Diff] = []
    for name in sorted(set(old) | set(new)):
        a, b = old.get(name), new.get(name)
        if a is not None and b is not None and a.sha == b.sha:
            continue
        path = posixpath.join(prefix, name) if prefix else name
        if a is not None and b is not None and a.type == b.type == "tree":
            out.extend(await _diff(client, a.sha, b.sha, path))
            continue
        gone = await _blobs_under(client, a, path) if a is not None else {}
        came = await _blobs_under(client, b, path) if b is not None else {}
        for p in sorted(set(gone) | set(came)):
            out.append(_Diff(p, gone.get(p), came.get(p)))
    return out


async def prepare_undo(
    client: GitHubClient,
    commit_sha: str,
    read_blob: ReadBlob,
    *,
    title_of: Callable[[str], str] | None = None,
) -> PreparedChange:
    """The change that undoes commit ``commit_sha`` (see the module docstring). ``read_blob``
    gives the earlier versions' bytes (the store's cached reader); ``title_of`` names a file
    (a page's path → its title)."""
    commit = await client.get_commit(commit_sha)
    if not commit.parents:
        raise NothingBefore(commit_sha)
    parent = await client.get_commit(commit.parents[0])
    diffs = [
        d
        for d in await _diff(client, parent.tree_sha, commit.tree_sha, "")
        if not d.path.startswith(LOCKS_DIR + "/")
    ]
    changes = ChangeSet()
    added = {d.after: d for d in diffs if d.before is None and d.after is not None}
    handled: set[str] = set()
    for d in diffs:  # a file the commit renamed gets its name back, with the same bytes
        if d.after is None and d.before is not None and d.before in added:
            moved = added.pop(d.before)
            changes.rename(moved.path, d.path, d.before)
            handled |= {moved.path, d.path}
    for d in diffs:
        if d.path in handled:
            continue
        if d.before is None:  # the commit added it
            assert d.after is not None
            changes.delete(d.path, d.after)
        else:  # changed (or deleted) by the commit: its earlier bytes back over what it made
            changes.write(d.path, await read_blob(d.before), d.after)
    many = read_many_pages(commit.subject)
    summary = ChangeSummary(
        "undo",
        many.old if many else "",
        many.new if many else "",
        undone_kind=many.kind if many else "",
        undone_sha=commit.sha,
        undone_subject=commit.subject,
        again=bool(many and many.undo),
    )
    titles = {c.path: title_of(c.path) for c in changes} if title_of is not None else {}
    pages_only = all(c.doc_ids for c in changes)
    return PreparedChange(summary, changes, titles, all_or_nothing=not pages_only)
