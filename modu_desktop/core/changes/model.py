"""What a change of many files is and what became of it, as codes and fields (no sentences: the
window and the CLI word them).

A `ChangeSet` holds writes (path → new bytes), deletes and renames, each over the blob sha it was
based on — the version the person reviewed. `ChangeResult` says which changes went into the one
commit and which were left out, and why (`FileLeftOutReason`): a page someone else holds (who, since
when), a file changed or deleted since it was read, a new path already taken.
"""

from __future__ import annotations

import enum
import posixpath
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from modu_desktop.core.documents.naming import doc_id_for_path


class ChangeKind(enum.Enum):
    WRITE = "write"  # new bytes at a path (a new file when there was no base)
    DELETE = "delete"
    RENAME = "rename"  # moved to `new_path`, with new bytes or the same ones


@dataclass(frozen=True)
class FileChange:
    """One file's change over ``base_sha`` (the blob the change was based on; None: the path
    was free, a new file). ``data`` None keeps a renamed file's bytes."""

    kind: ChangeKind
    path: str
    base_sha: str | None
    data: bytes | None = None
    new_path: str | None = None

    @property
    def doc_ids(self) -> tuple[str, ...]:
        """The pages whose locks this change must respect (a rename: both names)."""
        paths = (self.path, self.new_path) if self.new_path else (self.path,)
        return tuple(d for p in paths if p and (d := doc_id_for_path(p)) is not None)

    @property
    def final_path(self) -> str:
        return self.new_path or self.path


class ChangeSet:
    """Writes, deletes and renames for one commit. Paths are full paths from the repository's
    root; each path appears in one change only."""

    def __init__(self) -> None:
        self._changes: list[FileChange] = []

    def write(self, path: str, data: bytes, base_sha: str | None) -> ChangeSet:
        return self._add(FileChange(ChangeKind.WRITE, path.strip("/"), base_sha, data))

    def delete(self, path: str, base_sha: str) -> ChangeSet:
        return self._add(FileChange(ChangeKind.DELETE, path.strip("/"), base_sha))

    def rename(
        self, path: str, new_path: str, base_sha: str, data: bytes | None = None
    ) -> ChangeSet:
        change = FileChange(ChangeKind.RENAME, path.strip("/"), base_sha, data, new_path.strip("/"))
        return self._add(change)

    def _add(self, change: FileChange) -> ChangeSet:
        taken = {p for c in self._changes for p in (c.path, c.new_path) if p}
        mine = {p for p in (change.path, change.new_path) if p}
        if taken & mine:
            raise ValueError(f"a path is changed twice: {sorted(taken & mine)}")
        self._changes.append(change)
        return self

    @property
    def changes(self) -> tuple[FileChange, ...]:
        return tuple(self._changes)

    def __iter__(self) -> Iterator[FileChange]:
        return iter(self._changes)

    def __len__(self) -> int:
        return len(self._changes)


class FileLeftOutReason(enum.Enum):
    HELD = "held"  # someone else holds the page's lock (`holder`, `since`)
    CHANGED = "changed"  # the file is no longer the version the change was based on
    GONE = "gone"  # the file was deleted since it was read
    EXISTS = "exists"  # a new file's (or a rename's new) path is taken


@dataclass(frozen=True)
class FileLeftOut:
    """A change that was not made, and why. ``holder``: the login holding the page's lock
    (None when the lock file is unreadable); ``since``: when that lock was taken and
    ``last_seen`` its last heartbeat (server time, Unix seconds); ``lock_status``: the lock's
    `LockStatus` value ("held", "mine_other_session", "malformed"); ``current_sha``: the
    file's blob now (CHANGED, EXISTS)."""

    change: FileChange
    reason: FileLeftOutReason
    doc_id: str | None = None
    holder: str | None = None
    since: int | None = None
    current_sha: str | None = None
    last_seen: int | None = None
    lock_status: str | None = None

    @property
    def path(self) -> str:
        return self.change.path


@dataclass(frozen=True)
class ChangeResult:
    """``commit_sha`` None: nothing was committed (everything left out, or no file would change).
    ``attempts``: how many heads the change was built on (more than one when the branch moved
    before it could be published). ``already``: changes the head already had (each file read
    exactly as asked: an earlier send of the same change landed, or someone made the same
    change), so they were neither made again nor left out."""

    commit_sha: str | None
    committed: tuple[FileChange, ...]
    left_out: tuple[FileLeftOut, ...]
    head_sha: str
    attempts: int = 1
    already: tuple[FileChange, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.left_out


def changes_message(changes: Sequence[FileChange], login: str, subject: str | None = None) -> str:
    """The commit message of a change of many files, in the web admin's style
    (``docs(edit): update {file} by @{login}``): one subject line, then one line per file."""
    if subject is None:
        subject = f"docs(edit): update {len(changes)} files by @{login}"
    lines = []
    for c in changes:
        name = posixpath.basename(c.path)
        if c.kind is ChangeKind.DELETE:
            lines.append(f"- remove {name}")
        elif c.kind is ChangeKind.RENAME:
            lines.append(f"- rename {c.path} to {c.new_path}")
        else:
            lines.append(f"- {'create' if c.base_sha is None else 'update'} {name}")
    return subject + "\n\n" + "\n".join(lines) + "\n"
