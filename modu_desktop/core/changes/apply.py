"""`apply_changes`: a `ChangeSet` as one commit on the head the caller read, never over anything
newer.

1. Read the head: the branch's commit and its tree (3 requests; a tree too large for one answer
   is read folder by folder).
2. Review each change against that head: a page whose lock (`.locks/{docId}.lock.json`) someone
   else holds is left out, named with who and since when (a stale lock does not count, as when a
   page is opened); a file that is no longer the blob the change was based on is left out too.
3. Build: text goes into the tree request itself (`content`), other bytes as blobs; one tree
   over the head's tree (`base_tree`), one commit whose parent is the head.
4. Publish: move the branch to the commit only as a fast forward (`update_ref(force=False)`).
   Because taking a lock is a commit on the same branch, a head that carried no lock on these
   pages and has not moved proves nobody started editing them. If GitHub refuses ("not a fast
   forward": the branch moved), go back to 1 on the new head — a bounded number of times, then
   `BranchMoved`.

A file that already reads exactly as the change asks (an earlier send of the same change landed
although its answer was lost, or someone made the same change) is neither made again nor left
out (`ChangeResult.already`): sending a change twice commits it once. ``all_or_nothing``: when
any change would be left out, none is made (a picture's rename and the pages naming it go
together or not at all).

Nothing is half-written: objects made before the branch moves are on no branch (harmless), so a
failure anywhere before step 4 changes nothing, and raises the client's error (`NetworkError`,
`ServerError`, `RateLimited` …), which the save queue classifies as one it can wait out
(`core/saving/service.is_queueable_error`). An unclear answer to step 4 is settled by reading
the branch back; when that cannot tell, `WriteUncertain`.
"""

from __future__ import annotations

import asyncio
import logging
import posixpath
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass

from modu_desktop.core.changes.model import (
    ChangeKind,
    ChangeResult,
    ChangeSet,
    FileChange,
    FileLeftOut,
    FileLeftOutReason,
    changes_message,
)
from modu_desktop.core.documents.naming import doc_id_for_path
from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.github.client import GitHubClient
from modu_desktop.core.github.errors import (
    BranchMoved,
    GitHubError,
    NetworkError,
    NotFastForward,
    ServerError,
    WriteUncertain,
)
from modu_desktop.core.github.types import NewTreeEntry, TreeEntry
from modu_desktop.core.locks.model import LockStatus, classify
from modu_desktop.core.locks.wire import lock_path, parse_lock

log = logging.getLogger(__name__)

# Heads a change is built on before it gives up as `BranchMoved` (the branch kept moving).
DEFAULT_ATTEMPTS = 3
# Text up to this size goes inside the tree request; larger files and bytes that are not UTF-8
# are sent as blobs first (one request each).
INLINE_MAX_BYTES = 512 * 1024
# How far back from the branch's head an unclear branch update is looked for.
SETTLE_DEPTH = 20
# The locks that keep a page out: as when a page is opened, a stale lock is taken over.
BLOCKING = (LockStatus.HELD, LockStatus.MINE_OTHER_SESSION, LockStatus.MALFORMED)

ReadBlob = Callable[[str], Awaitable[bytes]]
Message = str | Callable[[Sequence[FileChange]], str] | None


@dataclass(frozen=True)
class Editor:
    """Who makes the change, as lock files name people: this login's locks in this session do
    not keep a page out. ``stale_s``: a lock without a heartbeat for this long is stale."""

    login: str
    session_id: str
    install_id: str | None = None
    stale_s: float = 900.0


@dataclass(frozen=True)
class _Head:
    sha: str  # the branch's commit
    tree_sha: str
    entries: dict[str, TreeEntry]  # full path → blob entry, for the paths the change needs


async def apply_changes(
    client: GitHubClient,
    changes: ChangeSet,
    editor: Editor,
    *,
    message: Message = None,
    branch: str | None = None,
    attempts: int = DEFAULT_ATTEMPTS,
    read_blob: ReadBlob | None = None,
    all_or_nothing: bool = False,
) -> ChangeResult:
    """Make ``changes`` one commit on ``branch`` (see the module docstring). ``message``: the
    commit message, or a function of the changes that go in (default `changes_message`).
    ``read_blob``: how lock files are read (a blob cache's reader saves requests)."""
    br = branch or client.repo.branch
    reader = read_blob or client.get_blob
    made: dict[str, str] = {}  # bytes' sha → blob made, kept across attempts
    for attempt in range(1, max(1, attempts) + 1):
        head = await _read_head(client, br, _paths_needed(changes))
        included, left_out, already = await _review(client, head, changes, editor, reader)
        if not included or (all_or_nothing and left_out):
            return ChangeResult(None, (), left_out, head.sha, attempt, already)
        entries = await _tree_entries(client, included, head, made)
        tree = await client.create_tree(entries, base_tree=head.tree_sha)
        if tree == head.tree_sha:  # every included file already reads as asked
            return ChangeResult(None, (), left_out, head.sha, attempt, (*already, *included))
        text = message(included) if callable(message) else message
        commit = await client.create_commit(
            text or changes_message(included, editor.login), tree, [head.sha]
        )
        if await _publish(client, br, head.sha, commit.sha):
            return ChangeResult(commit.sha, included, left_out, head.sha, attempt, already)
        log.info("the branch moved before %d file(s) could be committed; again", len(included))
    raise BranchMoved(
        422, "the branch kept moving before the change could be committed", tries=attempts
    )


def _paths_needed(changes: ChangeSet) -> set[str]:
    paths: set[str] = set()
    for c in changes:
        paths.add(c.path)
        if c.new_path:
            paths.add(c.new_path)
        paths.update(lock_path(d) for d in c.doc_ids)
    return paths


async def _read_head(client: GitHubClient, branch: str, wanted: Iterable[str]) -> _Head:
    """The branch's commit, its tree sha and the entries at ``wanted`` paths: the whole tree in
    one request, or, when GitHub truncates it, the folders that hold those paths."""
    sha = await client.get_ref(branch)
    commit = await client.get_commit(sha)
    if commit.tree_sha is None:
        raise GitHubError(None, f"commit {sha} names no tree")
    tree = await client.get_tree(commit.tree_sha, recursive=True)
    if not tree.truncated:
        return _Head(sha, commit.tree_sha, {e.path: e for e in tree.entries if e.type == "blob"})
    entries: dict[str, TreeEntry] = {}
    for folder in sorted({posixpath.dirname(p) for p in wanted}):
        found = await client.get_folder_tree(sha, folder)
        for e in found.entries if found is not None else ():
            if e.type == "blob":
                path = posixpath.join(folder, e.path) if folder else e.path
                entries[path] = TreeEntry(path, e.sha, e.mode, e.type, e.size)
    return _Head(sha, commit.tree_sha, entries)


async def _review(
    client: GitHubClient,
    head: _Head,
    changes: ChangeSet,
    editor: Editor,
    read_blob: ReadBlob,
) -> tuple[tuple[FileChange, ...], tuple[FileLeftOut, ...], tuple[FileChange, ...]]:
    """The changes that may go in on this head, the ones left out with why, and the ones the
    head already has."""
    locks = await _other_holders(client, head, changes, editor, read_blob)
    included: list[FileChange] = []
    left_out: list[FileLeftOut] = []
    already: list[FileChange] = []
    for c in changes:
        if _already(c, head.entries):
            already.append(c)
            continue
        held = next((locks[d] for d in c.doc_ids if d in locks), None)
        out = _moved(c, head.entries) if held is None else _held(c, held)
        if out is None:
            included.append(c)
        else:
            left_out.append(out)
    return tuple(included), tuple(left_out), tuple(already)


def _already(change: FileChange, entries: dict[str, TreeEntry]) -> bool:
    """Whether the files already read exactly as ``change`` asks."""
    current = entries.get(change.path)
    if change.kind is ChangeKind.DELETE:
        return current is None
    if change.kind is ChangeKind.RENAME:
        moved = entries.get(change.new_path or "")
        wanted = change.base_sha if change.data is None else git_blob_sha(change.data)
        return current is None and moved is not None and moved.sha == wanted
    assert change.data is not None
    return current is not None and current.sha == git_blob_sha(change.data)


@dataclass(frozen=True)
class _Holder:
    doc_id: str
    login: str | None
    since: int | None
    last_seen: int | None
    status: str


async def _other_holders(
    client: GitHubClient,
    head: _Head,
    changes: ChangeSet,
    editor: Editor,
    read_blob: ReadBlob,
) -> dict[str, _Holder]:
    """Page → who else holds its lock on this head (lock files read concurrently)."""
    locked = {d: e for c in changes for d in c.doc_ids if (e := head.entries.get(lock_path(d)))}
    raw = await asyncio.gather(*(read_blob(e.sha) for e in locked.values()))
    now = client.clock.now()
    holders: dict[str, _Holder] = {}
    for (doc_id, entry), data in zip(locked.items(), raw, strict=True):
        record = parse_lock(data, doc_id)
        view = classify(
            doc_id,
            entry.sha,
            record,
            login=editor.login,
            session_id=editor.session_id,
            server_now=now,
            stale_s=editor.stale_s,
            install_id=editor.install_id,
        )
        if view.status in BLOCKING:
            who = record.claimed_by if record.malformed else record.editing_by
            holders[doc_id] = _Holder(
                doc_id,
                who or None,
                record.started_at,
                record.last_heartbeat,
                view.status.value,
            )
    return holders


def _held(change: FileChange, holder: _Holder) -> FileLeftOut:
    return FileLeftOut(
        change,
        FileLeftOutReason.HELD,
        holder.doc_id,
        holder.login,
        holder.since,
        last_seen=holder.last_seen,
        lock_status=holder.status,
    )


def _moved(change: FileChange, entries: dict[str, TreeEntry]) -> FileLeftOut | None:
    """Why ``change`` cannot go in over these files (None: it can)."""
    doc_id = doc_id_for_path(change.path)
    current = entries.get(change.path)
    if change.kind is ChangeKind.WRITE and change.base_sha is None:
        if current is not None:
            return FileLeftOut(change, FileLeftOutReason.EXISTS, doc_id, current_sha=current.sha)
        return None
    if current is None:
        return FileLeftOut(change, FileLeftOutReason.GONE, doc_id)
    if current.sha != change.base_sha:
        return FileLeftOut(change, FileLeftOutReason.CHANGED, doc_id, current_sha=current.sha)
    taken = entries.get(change.new_path) if change.new_path else None
    if taken is not None:
        return FileLeftOut(change, FileLeftOutReason.EXISTS, doc_id, current_sha=taken.sha)
    return None


async def _tree_entries(
    client: GitHubClient,
    included: Sequence[FileChange],
    head: _Head,
    made: dict[str, str],
) -> list[NewTreeEntry]:
    """The tree request's entries: deletes, text inline, other bytes as blobs made first."""
    out: list[NewTreeEntry] = []
    for c in included:
        current = head.entries.get(c.path)
        mode = current.mode if current is not None and current.mode else "100644"
        if c.kind is ChangeKind.DELETE:
            out.append(NewTreeEntry(c.path))
            continue
        target = c.new_path or c.path
        if c.kind is ChangeKind.RENAME:
            out.append(NewTreeEntry(c.path))
            if c.data is None:
                out.append(NewTreeEntry(target, sha=c.base_sha, mode=mode))
                continue
        assert c.data is not None
        out.append(await _content_entry(client, target, c.data, mode, made))
    return out


async def _content_entry(
    client: GitHubClient, path: str, data: bytes, mode: str, made: dict[str, str]
) -> NewTreeEntry:
    if len(data) <= INLINE_MAX_BYTES:
        try:
            return NewTreeEntry(path, content=data.decode("utf-8"), mode=mode)
        except UnicodeDecodeError:
            pass
    sha = git_blob_sha(data)
    if sha not in made:
        made[sha] = await client.create_blob(data)
    return NewTreeEntry(path, sha=made[sha], mode=mode)


async def _publish(client: GitHubClient, branch: str, head: str, commit: str) -> bool:
    """Move ``branch`` from ``head`` to ``commit`` as a fast forward. False: the branch moved
    first (nothing of ours is on it)."""
    try:
        await client.update_ref(branch, commit, force=False)
        return True
    except NotFastForward:
        return False
    except (NetworkError, ServerError) as exc:
        if isinstance(exc, NetworkError) and not exc.sent:
            raise  # it never left this computer: nothing was published
        return await _settle(client, branch, head, commit, exc)


async def _settle(
    client: GitHubClient, branch: str, head: str, commit: str, cause: GitHubError
) -> bool:
    """After an unclear answer to the branch update: is ``commit`` on the branch now (perhaps
    under newer commits)? True: it landed; False: it did not (the branch is still at ``head``,
    or moved on from ``head`` without it)."""
    try:
        sha = await client.get_ref(branch)
        for _ in range(SETTLE_DEPTH):
            if sha == commit:
                return True
            if sha == head:
                return False
            parents = (await client.get_commit(sha)).parents
            if not parents:
                return False
            sha = parents[0]
    except GitHubError as exc:
        raise WriteUncertain(
            f"could not read {branch} back after {cause!r}: {exc!r}", cause=cause
        ) from None
    raise WriteUncertain(
        f"{commit} not found within {SETTLE_DEPTH} commits of {branch}", cause=cause
    )
