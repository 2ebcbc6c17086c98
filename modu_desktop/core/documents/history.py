"""A document's published versions: list, read, compare, restore (Qt-free).

    history = DocHistory(client, store)
    versions = await history.versions("docs/01-intro.md")        # newest first, no lock commits
    text = await history.text_at(versions[3].sha, "docs/01-intro.md")
    lines = diff_lines(text, current_text)                       # unified diff, old → current
    result = await restore_version(store, doc, versions[3], text, base_sha, login,
                                   lock_ok=verify)               # one normal, lock-checked save

The list comes from the commits API filtered by the file's path, page by page (``Link:
rel="next"``); a version's text is read through the git database (commit → trees → blob, each
by sha, so nothing is stale) and blobs come from the store's content-addressed cache, so a long
history costs one request per page plus a few per version actually opened. Restoring is a save
like any other: the caller's lock is checked first, the base sha is the one the user last saw
(a 409 comes back as a ``SaveConflict``), and the message is
``docs(edit): restore {file} to {short-sha} by @{login}``.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from modu_desktop.core.documents.store import DocumentStore, SaveConflict, SaveResult, decode_text

# The web admin's and our lock commits ("system: acquire lock for 01-intro by @x [skip ci]").
_LOCK_MESSAGE = re.compile(
    r"^system: (?:acquire|release|refresh|take over|steal)\b.*\block\b", re.I
)


@dataclass(frozen=True, slots=True)
class Version:
    sha: str  # commit sha
    message: str  # first line
    author_login: str | None
    author_name: str | None
    date: str | None  # ISO 8601, as the API gives it

    @property
    def short_sha(self) -> str:
        return self.sha[:7]

    @property
    def author(self) -> str:
        return f"@{self.author_login}" if self.author_login else (self.author_name or "?")

    def to_json(self) -> dict[str, Any]:
        return {
            "sha": self.sha,
            "shortSha": self.short_sha,
            "message": self.message,
            "author": self.author_login,
            "authorName": self.author_name,
            "date": self.date,
        }


@dataclass(frozen=True, slots=True)
class RestoreRefused:
    """The restore was not attempted (the lock is not ours, or the version has no such file)."""

    reason: str


def is_lock_commit(message: str) -> bool:
    return bool(_LOCK_MESSAGE.match(message.strip()))


def restore_message(path: str, short_sha: str, login: str) -> str:
    return f"docs(edit): restore {posixpath.basename(path)} to {short_sha} by @{login}"


class DocHistory:
    """Reads versions of documents. Keeps what it read by commit sha (immutable)."""

    def __init__(self, client: Any, store: DocumentStore, *, page_size: int = 100) -> None:
        self.client = client
        self.store = store
        self.page_size = page_size
        self._blob_at: dict[tuple[str, str], str | None] = {}
        self._trees: dict[str, dict[str, tuple[str, str]]] = {}  # tree sha → name → (type, sha)

    async def versions(
        self, path: str, *, limit: int | None = None, at: str | None = None
    ) -> list[Version]:
        """Every commit that changed ``path`` (newest first), lock commits left out; ``at``: as
        of that commit instead of the branch's head."""
        out: list[Version] = []
        page = 1
        per_page = self.page_size if limit is None else min(self.page_size, max(limit, 5))
        while True:
            commits, more = await self.client.list_commits_page(
                path, at or self.store.branch, page=page, per_page=per_page
            )
            for c in commits:
                first = c.message.splitlines()[0] if c.message else ""
                if is_lock_commit(first):
                    continue
                out.append(Version(c.sha, first, c.author_login, c.author_name, c.author_date))
                if limit is not None and len(out) >= limit:
                    return out
            if not more or not commits:
                return out
            page += 1

    async def blob_sha_at(self, commit_sha: str, path: str) -> str | None:
        """The blob sha of ``path`` in commit ``commit_sha`` (None: no such file there)."""
        key = (commit_sha, path)
        if key in self._blob_at:
            return self._blob_at[key]
        commit = await self.client.get_commit(commit_sha)
        sha: str | None = commit.tree_sha
        parts = path.strip("/").split("/")
        for i, part in enumerate(parts):
            if sha is None:
                break
            entries = await self._tree(sha)
            hit = entries.get(part)
            if hit is None:
                sha = None
                break
            kind, sha = hit
            if i < len(parts) - 1 and kind != "tree":
                sha = None
                break
            if i == len(parts) - 1 and kind != "blob":
                sha = None
        self._blob_at[key] = sha
        return sha

    async def _tree(self, sha: str) -> dict[str, tuple[str, str]]:
        cached = self._trees.get(sha)
        if cached is None:
            tree = await self.client.get_tree(sha, recursive=False)
            cached = {e.path: (e.type, e.sha) for e in tree.entries}
            self._trees[sha] = cached
        return cached

    async def text_at(self, commit_sha: str, path: str) -> str | None:
        """The document's text in that version (None: the file is not in that commit)."""
        blob = await self.blob_sha_at(commit_sha, path)
        if blob is None:
            return None
        text, _problem = decode_text(await self.store.read_blob(blob))
        return text


def diff_lines(old: str, new: str, *, old_label: str = "", new_label: str = "") -> list[str]:
    """A unified diff (3 lines of context) from ``old`` to ``new``, lines without newlines."""
    return list(
        difflib.unified_diff(
            old.splitlines(),
            new.splitlines(),
            fromfile=old_label,
            tofile=new_label,
            lineterm="",
        )
    )


async def restore_version(
    store: DocumentStore,
    doc: Any,
    version: Version,
    text: str,
    base_sha: str,
    login: str,
    *,
    lock_ok: Callable[[], Awaitable[str | None]],
) -> SaveResult | SaveConflict | RestoreRefused:
    """Save ``text`` (the version's text) over ``base_sha`` with the restore message, after
    ``lock_ok()`` confirms the lock (it returns None when the lock is ours, else the reason)."""
    problem = await lock_ok()
    if problem is not None:
        return RestoreRefused(problem)
    path = store._path_of(doc)
    message = restore_message(path, version.short_sha, login)
    return await store.save(doc, text, base_sha, login, message=message)


async def version_before(
    history: DocHistory, commit_sha: str, path: str
) -> tuple[Version, str] | None:
    """The version of ``path`` just before commit ``commit_sha`` (its first parent) and its
    text — what "restore the version before my save" restores. None: the file is new there."""
    commit = await history.client.get_commit(commit_sha)
    if not commit.parents:
        return None
    parent = await history.client.get_commit(commit.parents[0])
    text = await history.text_at(parent.sha, path)
    if text is None:
        return None
    first = parent.message.splitlines()[0] if parent.message else ""
    return Version(parent.sha, first, None, parent.author_name, parent.author_date), text


async def restore_previous(
    store: DocumentStore,
    history: DocHistory,
    path: str,
    my_commit_sha: str,
    current_sha: str,
    login: str,
    *,
    lock_ok: Callable[[], Awaitable[str | None]],
) -> SaveResult | SaveConflict | RestoreRefused:
    """ "이전 버전으로 되돌리기" after a failed deploy: save the version before ``my_commit_sha``
    over ``current_sha`` (the blob my save created), lock checked, restore message."""
    found = await version_before(history, my_commit_sha, path)
    if found is None:
        return RestoreRefused(f"{path} has no earlier version")
    version, text = found
    return await restore_version(store, path, version, text, current_sha, login, lock_ok=lock_ok)
