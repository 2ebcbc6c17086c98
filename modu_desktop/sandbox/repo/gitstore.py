"""The sandbox's repository: a bare git repository on disk, read and written through dulwich.

Every write is one commit on a branch, made under a lock and published with a compare-and-swap
on the ref, so `git log` in the directory shows exactly what clients did.
"""

from __future__ import annotations

import stat
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from dulwich.errors import NotGitRepository, NotTreeError
from dulwich.object_store import tree_lookup_path
from dulwich.objects import Blob, Commit, ObjectID, ShaFile, Tree
from dulwich.refs import Ref
from dulwich.repo import Repo

FILE_MODE = 0o100644
EXEC_MODE = 0o100755
LINK_MODE = 0o120000
TREE_MODE = 0o040000
SUBMODULE_MODE = 0o160000


class EmptyRepository(Exception):
    """The repository has no commits at all (GitHub: 409 "Git Repository is empty.")."""


class PathConflict(Exception):
    """The path runs through a file, or names a directory where a file is expected."""


class NothingToDelete(Exception):
    """A tree change removes a path the tree does not have."""


@dataclass(frozen=True)
class TreeChange:
    """One entry of a tree to create: ``path`` set to the object ``sha`` with ``mode``, or
    removed (``sha`` None)."""

    path: str
    mode: int
    sha: str | None


@dataclass(frozen=True)
class Entry:
    """One tree entry, as the Git trees API lists it."""

    path: str
    mode: int
    sha: str
    size: int | None  # blobs only

    @property
    def kind(self) -> str:
        if stat.S_ISDIR(self.mode):
            return "tree"
        if self.mode == SUBMODULE_MODE:
            return "commit"
        return "blob"


@dataclass(frozen=True)
class Signature:
    name: str
    email: str
    timestamp: int
    tz_offset: int = 0  # seconds east of UTC


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    tree: str
    parents: list[str]
    message: str
    author: Signature
    committer: Signature


@dataclass(frozen=True)
class WriteOutcome:
    commit: CommitInfo
    previous_head: str | None
    blob_sha: str | None  # None for a delete
    blob_size: int


@dataclass(frozen=True)
class PreparedWrite:
    """A commit built on `outcome.previous_head` that `GitStore.publish` may put on `branch`."""

    branch: str
    outcome: WriteOutcome


def _oid(sha: str | bytes) -> ObjectID:
    """dulwich types SHAs as NewType(bytes); convert our hex strings at the boundary."""
    return ObjectID(sha.encode() if isinstance(sha, str) else sha)


def _ref(name: str) -> Ref:
    return Ref(name.encode())


def _sig(raw: bytes, when: int, tz: int) -> Signature:
    text = raw.decode("utf-8", "replace")
    name, _, rest = text.partition(" <")
    return Signature(name=name, email=rest.rstrip(">"), timestamp=when, tz_offset=tz)


def _commit_info(commit: Commit) -> CommitInfo:
    return CommitInfo(
        sha=commit.id.decode(),
        tree=commit.tree.decode(),
        parents=[p.decode() for p in commit.parents],
        message=commit.message.decode("utf-8", "replace"),
        author=_sig(commit.author, commit.author_time, commit.author_timezone),
        committer=_sig(commit.committer, commit.commit_time, commit.commit_timezone),
    )


def _ident(sig: Signature) -> bytes:
    return f"{sig.name} <{sig.email}>".encode()


class GitStore:
    """Thread-safe access to one repository. Paths are POSIX strings without leading slash."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # One lock for every read and write: a check-then-commit never interleaves with another
        # write, and dulwich never sees concurrent access from our threads.
        self.lock = threading.RLock()
        self._sizes: dict[bytes, int] = {}  # blob sizes by SHA (immutable, so cache forever)
        self.repo = self._open_or_init(path)

    @staticmethod
    def _open_or_init(path: Path) -> Repo:
        if path.exists() and any(path.iterdir()):
            # Reuse: practice work must survive restarts (bare or non-bare both work).
            try:
                return Repo(str(path))
            except NotGitRepository as exc:
                raise ValueError(f"{path} exists but is not a git repository") from exc
        path.mkdir(parents=True, exist_ok=True)
        return Repo.init_bare(str(path), default_branch=b"main")

    def close(self) -> None:
        self.repo.close()

    # ----- reading -------------------------------------------------------------------------

    def is_empty(self) -> bool:
        return not any(name.startswith(b"refs/heads/") for name in self.repo.refs.allkeys())

    def branch_head(self, branch: str) -> str | None:
        try:
            return self.repo.refs[_ref("refs/heads/" + branch)].decode()
        except KeyError:
            return None

    def tag_target(self, tag: str) -> str | None:
        try:
            sha = self.repo.refs[_ref("refs/tags/" + tag)]
        except KeyError:
            return None
        return self._peel_to_commit(sha)

    def set_head_symref(self, branch: str) -> None:
        self.repo.refs.set_symbolic_ref(_ref("HEAD"), _ref("refs/heads/" + branch))

    def resolve_commit(self, ref: str) -> str | None:
        """A branch, a tag or a commit SHA (full 40 hex) → commit SHA, or None."""
        sha = self.branch_head(ref) or self.tag_target(ref)
        if sha:
            return sha
        if _is_hex_sha(ref):
            return self._peel_to_commit(_oid(ref.lower()))
        return None

    def _peel_to_commit(self, sha: ObjectID) -> str | None:
        obj = self._object(sha)
        while obj is not None and obj.type_name == b"tag":
            obj = self._object(obj.object[1])  # type: ignore[attr-defined]
        if isinstance(obj, Commit):
            return obj.id.decode()
        return None

    def _object(self, sha: bytes) -> ShaFile | None:
        try:
            return self.repo.object_store[_oid(sha)]
        except (KeyError, ValueError):
            return None

    def commit(self, sha: str) -> CommitInfo | None:
        obj = self._object(_oid(sha)) if _is_hex_sha(sha) else None
        return _commit_info(obj) if isinstance(obj, Commit) else None

    def tree_sha_for(self, sha_or_ref: str) -> str | None:
        """Trees API accepts a tree SHA, a commit SHA, a branch/tag name, or git's
        ``<rev>:<folder>`` (the folder's tree at a branch, tag or commit)."""
        rev, colon, folder = sha_or_ref.partition(":")
        if colon:
            commit = self.resolve_commit(rev)
            entry = self.lookup(commit, folder.strip("/")) if commit else None
            return entry.sha if entry is not None and entry.kind == "tree" else None
        commit = self.branch_head(sha_or_ref) or self.tag_target(sha_or_ref)
        if commit:
            return self.commit(commit).tree  # type: ignore[union-attr]
        if not _is_hex_sha(sha_or_ref):
            return None
        obj = self._object(_oid(sha_or_ref.lower()))
        if isinstance(obj, Tree):
            return obj.id.decode()
        if isinstance(obj, Commit):
            return obj.tree.decode()
        return None

    def blob(self, sha: str) -> bytes | None:
        obj = self._object(_oid(sha.lower())) if _is_hex_sha(sha) else None
        return obj.as_raw_string() if isinstance(obj, Blob) else None

    def walk_tree(self, tree_sha: str, recursive: bool) -> Iterator[Entry]:
        """Entries in git order; directories come before their contents when recursive."""
        tree = self.repo.object_store[_oid(tree_sha)]
        assert isinstance(tree, Tree)
        yield from self._walk(tree, "", recursive)

    def _walk(self, tree: Tree, prefix: str, recursive: bool) -> Iterator[Entry]:
        for item in tree.iteritems():
            path = prefix + item.path.decode("utf-8", "surrogateescape")
            size = None
            if not stat.S_ISDIR(item.mode) and item.mode != SUBMODULE_MODE:
                size = self.blob_size(item.sha)
            yield Entry(path, item.mode, item.sha.decode(), size)
            if recursive and stat.S_ISDIR(item.mode):
                sub = self.repo.object_store[item.sha]
                assert isinstance(sub, Tree)
                yield from self._walk(sub, path + "/", recursive)

    def lookup(self, commit_sha: str, path: str) -> Entry | None:
        """The entry at `path` in a commit ('' = the root tree), or None."""
        info = self.commit(commit_sha)
        if info is None:
            return None
        if path == "":
            return Entry("", TREE_MODE, info.tree, None)
        try:
            mode, sha = tree_lookup_path(
                self.repo.object_store.__getitem__, _oid(info.tree), path.encode()
            )
        except (KeyError, NotTreeError):
            return None
        size = None
        if not stat.S_ISDIR(mode) and mode != SUBMODULE_MODE:
            size = self.blob_size(sha)
        return Entry(path, mode, sha.decode(), size)

    def blob_size(self, sha: bytes) -> int:
        size = self._sizes.get(sha)
        if size is None:
            size = self._sizes[sha] = len(self.repo.object_store[_oid(sha)].as_raw_string())
        return size

    def read_file(self, commit_sha: str, path: str) -> bytes | None:
        entry = self.lookup(commit_sha, path)
        if entry is None or entry.kind != "blob":
            return None
        return self.blob(entry.sha)

    def log(self, head: str, path: str | None = None, limit: int | None = None) -> list[CommitInfo]:
        """Commits reachable from head, newest first; with a path, only those that changed it."""
        paths = [path.encode()] if path else None
        walker = self.repo.get_walker(include=[_oid(head)], paths=paths, max_entries=limit)
        return [_commit_info(entry.commit) for entry in walker]

    def changed_paths(self, commit_sha: str, since: str | None = None) -> list[str]:
        """Paths that differ between a commit and its first parent (all paths for a root), or
        the commit ``since`` (a push of several commits)."""
        info = self.commit(commit_sha)
        if info is None:
            return []
        base = since or (info.parents[0] if info.parents else None)
        old = self.commit(base).tree if base else None  # type: ignore[union-attr]
        changes = self.repo.object_store.tree_changes(_oid(old) if old else None, _oid(info.tree))
        paths: set[str] = set()
        for (old_path, new_path), _modes, _shas in changes:
            for p in (old_path, new_path):
                if p:
                    paths.add(p.decode("utf-8", "surrogateescape"))
        return sorted(paths)

    def changes(self, commit_sha: str) -> list[tuple[str, str | None]]:
        """(path, its blob sha after the commit — None when deleted) of every file a commit
        changed against its first parent (all files for a root commit)."""
        info = self.commit(commit_sha)
        if info is None:
            return []
        old = self.commit(info.parents[0]).tree if info.parents else None  # type: ignore[union-attr]
        out: list[tuple[str, str | None]] = []
        for (old_path, new_path), _modes, (
            _old_sha,
            new_sha,
        ) in self.repo.object_store.tree_changes(_oid(old) if old else None, _oid(info.tree)):
            path = new_path or old_path
            if path:
                out.append(
                    (
                        path.decode("utf-8", "surrogateescape"),
                        new_sha.decode() if new_path and new_sha else None,
                    )
                )
        return out

    # ----- writing -------------------------------------------------------------------------

    def prepare_change(
        self,
        branch: str,
        path: str,
        content: bytes | None,
        message: str,
        author: Signature,
        committer: Signature,
    ) -> PreparedWrite:
        """Build the commit of one file change on the branch's current head without moving the
        branch (content None = delete): the objects exist, the ref is untouched until
        `publish`. Caller holds `lock`."""
        head = self.branch_head(branch)
        base_tree = self.commit(head).tree if head else None  # type: ignore[union-attr]
        blob_sha: str | None = None
        if content is not None:
            blob = Blob.from_string(content)
            self.repo.object_store.add_object(blob)
            blob_sha = blob.id.decode()
        parts = path.split("/")
        new_tree = self._tree_with(base_tree, parts, blob_sha)
        if new_tree is None:
            new_tree = self._store_tree(Tree())  # deleting the last file leaves an empty root
        commit = self._make_commit(new_tree, [head] if head else [], message, author, committer)
        size = len(content) if content is not None else 0
        return PreparedWrite(branch, WriteOutcome(commit, head, blob_sha, size))

    def publish(self, prepared: PreparedWrite) -> bool:
        """Move the branch to the prepared commit if it still points where the commit was
        built (compare-and-swap); False, and nothing changed, when another write moved it.
        Caller holds `lock`."""
        head = prepared.outcome.previous_head
        ref = _ref("refs/heads/" + prepared.branch)
        old = _oid(head) if head else None
        if not self.repo.refs.set_if_equals(ref, old, _oid(prepared.outcome.commit.sha)):
            return False
        if head is None and self.is_single_branch(prepared.branch):
            self.set_head_symref(prepared.branch)
        return True

    def commit_nothing(self, branch: str, message: str, author: Signature) -> CommitInfo:
        """A commit that changes no file on top of the branch (another client's write elsewhere,
        as far as this branch's files are concerned). Caller holds `lock`."""
        head = self.branch_head(branch)
        if head is None:
            raise EmptyRepository(branch)
        tree = self.commit(head).tree  # type: ignore[union-attr]
        commit = self._make_commit(tree, [head], message, author, author)
        if not self.repo.refs.set_if_equals(
            _ref("refs/heads/" + branch), _oid(head), _oid(commit.sha)
        ):
            raise RuntimeError("branch moved during a serialised write")
        return commit

    # ----- the Git Data API: objects first, the branch last -------------------------------

    def kind_of(self, sha: str) -> str | None:
        """ "blob", "tree", "commit" or "tag" for an object in the repository, else None."""
        obj = self._object(_oid(sha.lower())) if _is_hex_sha(sha) else None
        return obj.type_name.decode() if obj is not None else None

    def create_blob(self, data: bytes) -> str:
        """Store a blob (no commit, no branch moved). Caller holds `lock`."""
        blob = Blob.from_string(data)
        self.repo.object_store.add_object(blob)
        return blob.id.decode()

    def create_tree(self, base_tree: str | None, changes: list[TreeChange]) -> str:
        """A new tree: ``base_tree`` (None: empty) with each change applied in order — a path set
        to an object with its mode, or removed (``sha`` None). The folders on the way are edited
        in memory and stored once, bottom up. Raises `PathConflict` for a path through a file,
        `NothingToDelete` for removing a path the tree does not have. Caller holds `lock`."""
        root = _Folder(self, base_tree)
        for change in changes:
            *folders, name = change.path.split("/")
            node: _Folder | None = root
            for part in folders:
                assert node is not None
                node = node.folder(part, create=change.sha is not None)
            if change.sha is None:
                if node is None or not node.remove(name):
                    raise NothingToDelete(change.path)
            else:
                assert node is not None
                node.put(name, change.mode, change.sha)
        return root.store() or self._store_tree(Tree())

    def create_commit(
        self,
        tree_sha: str,
        parents: list[str],
        message: str,
        author: Signature,
        committer: Signature,
    ) -> CommitInfo:
        """A commit object on no branch. Caller holds `lock`."""
        return self._make_commit(tree_sha, parents, message, author, committer)

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        """Is ``ancestor`` reachable from ``descendant`` (itself included)?"""
        seen: set[str] = set()
        todo = [descendant]
        while todo:
            sha = todo.pop()
            if sha == ancestor:
                return True
            if sha in seen:
                continue
            seen.add(sha)
            info = self.commit(sha)
            if info is not None:
                todo.extend(info.parents)
        return False

    def move_branch(self, branch: str, old: str, new: str) -> bool:
        """Point ``branch`` at ``new`` if it still points at ``old`` (compare-and-swap)."""
        return bool(
            self.repo.refs.set_if_equals(_ref("refs/heads/" + branch), _oid(old), _oid(new))
        )

    def is_single_branch(self, branch: str) -> bool:
        names = [n for n in self.repo.refs.allkeys() if n.startswith(b"refs/heads/")]
        return names == [_ref("refs/heads/" + branch)]

    def commit_files(
        self, branch: str, files: dict[str, tuple[bytes, int]], message: str, author: Signature
    ) -> CommitInfo:
        """Commit a whole set of files on an empty branch (seeding). Caller holds `lock`."""
        nested: dict[str, object] = {}
        for path, (data, mode) in files.items():
            blob = Blob.from_string(data)
            self.repo.object_store.add_object(blob)
            *dirs, leaf = path.split("/")
            node = nested
            for d in dirs:
                node = node.setdefault(d, {})  # type: ignore[assignment]
            node[leaf] = (blob.id, mode)
        tree_sha = self._store_nested(nested)
        commit = self._make_commit(tree_sha, [], message, author, author)
        self.repo.refs[_ref("refs/heads/" + branch)] = _oid(commit.sha)
        self.set_head_symref(branch)
        return commit

    def _store_nested(self, node: dict[str, object]) -> str:
        """Write a {name: subdict | (blob_id, mode)} tree bottom-up (no dangling trees)."""
        tree = Tree()
        for name, value in node.items():
            if isinstance(value, dict):
                tree.add(name.encode(), TREE_MODE, _oid(self._store_nested(value)))
            else:
                blob_id, mode = cast(tuple[ObjectID, int], value)
                tree.add(name.encode(), mode, blob_id)
        return self._store_tree(tree)

    def _tree_with(
        self, tree_sha: str | None, parts: list[str], blob_sha: str | None, mode: int = FILE_MODE
    ) -> str | None:
        """Return a tree SHA with parts set to blob_sha (None = removed); None if it ends empty."""
        tree = Tree()
        if tree_sha is not None:
            existing = self.repo.object_store[_oid(tree_sha)]
            assert isinstance(existing, Tree)
            for item in existing.iteritems():
                tree.add(item.path, item.mode, item.sha)
        name = parts[0].encode()
        current = tree[name] if name in tree else None  # noqa: SIM401 (Tree has no .get)
        if len(parts) == 1:
            if current is not None and stat.S_ISDIR(current[0]):
                raise PathConflict(parts[0])
            if blob_sha is None:
                if current is not None:
                    del tree[name]
            else:
                keep_mode = current[0] if current is not None and current[0] != LINK_MODE else mode
                tree.add(name, keep_mode, _oid(blob_sha))
        else:
            if current is not None and not stat.S_ISDIR(current[0]):
                raise PathConflict(parts[0])
            sub_sha = current[1].decode() if current is not None else None
            new_sub = self._tree_with(sub_sha, parts[1:], blob_sha, mode)
            if new_sub is None:
                if current is not None:
                    del tree[name]
            else:
                tree.add(name, TREE_MODE, _oid(new_sub))
        if not len(tree):
            return None
        return self._store_tree(tree)

    def _store_tree(self, tree: Tree) -> str:
        self.repo.object_store.add_object(tree)
        return tree.id.decode()

    def _make_commit(
        self,
        tree_sha: str,
        parents: list[str],
        message: str,
        author: Signature,
        committer: Signature,
    ) -> CommitInfo:
        commit = Commit()
        commit.tree = _oid(tree_sha)
        commit.parents = [_oid(p) for p in parents]
        commit.author = _ident(author)
        commit.committer = _ident(committer)
        commit.author_time, commit.author_timezone = author.timestamp, author.tz_offset
        commit.commit_time, commit.commit_timezone = committer.timestamp, committer.tz_offset
        commit.message = message.encode("utf-8")
        self.repo.object_store.add_object(commit)
        return _commit_info(commit)


class _Folder:
    """A tree being edited: its entries by name, the folders below opened as they are needed."""

    def __init__(self, store: GitStore, sha: str | None) -> None:
        self._store = store
        self.items: dict[bytes, tuple[int, bytes]] = {}
        self.opened: dict[bytes, _Folder] = {}
        if sha is not None:
            tree = store.repo.object_store[_oid(sha)]
            assert isinstance(tree, Tree)
            self.items = {i.path: (i.mode, i.sha) for i in tree.iteritems()}

    def folder(self, name: str, *, create: bool) -> _Folder | None:
        key = name.encode()
        if key in self.opened:
            return self.opened[key]
        found = self.items.get(key)
        if found is not None and not stat.S_ISDIR(found[0]):
            raise PathConflict(name)
        if found is None and not create:
            return None
        sub = _Folder(self._store, found[1].decode() if found else None)
        self.opened[key] = sub
        return sub

    def put(self, name: str, mode: int, sha: str) -> None:
        key = name.encode()
        self.opened.pop(key, None)
        self.items[key] = (mode, _oid(sha))

    def remove(self, name: str) -> bool:
        key = name.encode()
        sub = self.opened.pop(key, None)
        return self.items.pop(key, None) is not None or sub is not None

    def store(self) -> str | None:
        """Store this tree (and the folders opened below it); None when it ends empty."""
        for key, sub in self.opened.items():
            stored = sub.store()
            if stored is None:
                self.items.pop(key, None)
            else:
                self.items[key] = (TREE_MODE, _oid(stored))
        if not self.items:
            return None
        tree = Tree()
        for key, (mode, oid) in self.items.items():
            tree.add(key, mode, ObjectID(oid))
        return self._store._store_tree(tree)


def _is_hex_sha(value: str) -> bool:
    return len(value) == 40 and all(c in "0123456789abcdefABCDEF" for c in value)
