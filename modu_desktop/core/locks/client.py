"""What the lock manager needs from a GitHub client, and how it reads the client's answers
(trees, write results, errors) without depending on its classes (Qt-free)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.github import client as gh
from modu_desktop.core.locks.wire import doc_id_from_lock_path

# --------------------------------------------------------------------------------------------
# Client adapter


class LockClient(Protocol):
    """The subset of ``GitHubClient`` the lock manager uses."""

    async def get_tree(self, ref: str, recursive: bool = True) -> Any: ...

    async def get_blob(self, sha: str) -> bytes: ...

    async def put_file(
        self, path: str, content: bytes, message: str, sha: str | None = None
    ) -> Any: ...

    async def delete_file(self, path: str, sha: str, message: str) -> Any: ...

    async def list_commits(
        self, path: str | None = None, sha: str | None = None, per_page: int = 30
    ) -> Any: ...

    async def get_commit(self, sha: str) -> Any: ...


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def tree_entries(tree: Any) -> tuple[list[tuple[str, str, str]], bool]:
    """(path, type, sha) triples and the truncated flag from a tree response (dict or object)."""
    raw = None
    for name in ("entries", "tree", "items"):
        raw = _get(tree, name)
        if raw is not None:
            break
    if raw is None and isinstance(tree, Iterable) and not isinstance(tree, str | bytes | Mapping):
        raw = tree
    out: list[tuple[str, str, str]] = []
    for entry in raw or ():
        path = _get(entry, "path")
        sha = _get(entry, "sha")
        kind = _get(entry, "type", "blob")
        if isinstance(path, str) and isinstance(sha, str):
            out.append((path, str(kind), sha))
    return out, bool(_get(tree, "truncated", False))


def lock_shas_from_tree(entries: Iterable[tuple[str, str, str]]) -> dict[str, str]:
    """docId -> blob sha for every lock file in a (recursive) tree listing."""
    found: dict[str, str] = {}
    for path, kind, sha in entries:
        if kind != "blob":
            continue
        doc_id = doc_id_from_lock_path(path)
        if doc_id is not None:
            found[doc_id] = sha
    return found


def _written_sha(result: Any, content: bytes) -> str:
    sha = _get(result, "content_sha")
    if not isinstance(sha, str) or not sha:
        content_obj = _get(result, "content")
        sha = _get(content_obj, "sha") if content_obj is not None else None
    return sha if isinstance(sha, str) and sha else git_blob_sha(content)


def _is_conflict(exc: BaseException) -> bool:
    """409 (sha does not match) or 422 "sha wasn't supplied" (the file exists): the lock
    changed under us. Not a 422 validation error, not an unclear write."""
    return isinstance(exc, gh.GitHubConflict) and not isinstance(
        exc, gh.RepositoryEmpty | gh.WriteUncertain
    )


def _is_not_found(exc: BaseException) -> bool:
    return isinstance(exc, gh.NotFound) or getattr(exc, "status", None) == 404


def _server_now_of(clock: Any) -> Callable[[], float]:
    if hasattr(clock, "now") and callable(clock.now):
        return lambda: float(clock.now())
    if callable(clock):
        return lambda: float(clock())
    raise TypeError("clock must be a ServerClock (with now()) or a callable returning seconds")
