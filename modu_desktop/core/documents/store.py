"""The document store: list, load and save brochure documents through the git database.

- `refresh()` costs one `GET git/trees/{branch}?recursive=1` when nothing changed (blobs are
  cached on disk by sha; a 304 or an identical tree sha re-uses the parsed summaries).
- Lock files (`.locks/**.lock.json`) come from the same tree listing.
- `load()` reads tree + blob (never the Contents API, which can be stale after a write).
- `save()` PUTs with the base sha the user started from and the web admin's commit message;
  a 409 returns a `SaveConflict` with the current version read from the git database.

Texts are decoded as UTF-8 with the BOM and line endings kept exactly; bytes that are not UTF-8
are kept through `surrogateescape` (so saving an untouched document writes identical bytes) and
flagged with `LoadedDoc.decode_problem`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import posixpath
import re
import time
from collections.abc import Awaitable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from modu_desktop.core.brochure import frontmatter
from modu_desktop.core.brochure.themes import DEFAULT_THEME
from modu_desktop.core.github.archive import read_archive
from modu_desktop.core.github.blobcache import BlobCache, git_blob_sha
from modu_desktop.core.github.client import GitHubClient, Tree, TreeEntry
from modu_desktop.core.github.errors import GitHubConflict, GitHubError, NotFound, RepositoryEmpty
from modu_desktop.core.pictures.rule import is_picture_file

__all__ = [
    "DOCS_DIR",
    "LOCKS_DIR",
    "DocSummary",
    "DocumentStore",
    "LoadedDoc",
    "RepoSnapshot",
    "SaveConflict",
    "SaveResult",
    "TreeEntry",
    "create_message",
    "decode_text",
    "delete_message",
    "doc_id_for_path",
    "encode_text",
    "lock_doc_id_for_path",
    "new_doc_path",
    "new_document_text",
    "swap_message",
    "path_for_doc_id",
    "update_message",
]

log = logging.getLogger(__name__)

DOCS_DIR = "docs"
LOCKS_DIR = ".locks"
LOCK_SUFFIX = ".lock.json"
_SYMLINK_MODE = "120000"
# Parse or read this many documents, then yield to the event loop: one slice stays well under
# the 50 ms a user notices (measured: ~64 ms to summarise 1,000 documents in one go).
_SUMMARIES_PER_SLICE = 64
# A first list with many blobs missing reads the whole repository in one archive request
# (tarball → download: 2 requests, 2 RT + the whole repository's bytes) instead of one request
# per blob (k/8 round trips for k missing). Both conditions must hold:
# - at least ARCHIVE_MIN_MISSING blobs missing (below, blob reads take ≤ 3 RT), and
# - the missing bytes are at least 1/ARCHIVE_BYTES_RATIO of the whole tree (the archive carries
#   everything, pictures included).
# Measured (bench threshold series, 150 ms latency, docs/performance.md): the archive wins from
# k ≈ 16–24 missing of 100 documents (350 KB) and k ≈ 24–32 of 1,000 (2.3 MB) on a quiet
# machine, k ≈ 32–64 of 1,000 under load; 1/32 of 2.3 MB is ≈ 36 documents.
ARCHIVE_MIN_MISSING = 24
ARCHIVE_BYTES_RATIO = 32
# ... unless the archive would carry much more than the documents: pictures and the site's
# sources come with it. Above this many bytes in the whole tree, blob reads it is.
ARCHIVE_MAX_BYTES = 48 * 1024 * 1024
# A tree read sent ahead (`use_prefetched`) is used by the next refresh only this soon after.
PREFETCH_MAX_AGE_S = 15.0


# --------------------------------------------------------------------------- naming


def doc_id_for_path(path: str) -> str | None:
    """`docs/bootcamp/00-overview.md` → `bootcamp/00-overview`; None for non-documents."""
    if not path.startswith(DOCS_DIR + "/") or not path.endswith(".md"):
        return None
    doc_id = path[len(DOCS_DIR) + 1 : -len(".md")]
    return doc_id or None


def path_for_doc_id(doc_id: str) -> str:
    return f"{DOCS_DIR}/{doc_id}.md"


def lock_doc_id_for_path(path: str) -> str | None:
    """`.locks/01-intro.lock.json` → `01-intro`; None for anything else."""
    if not path.startswith(LOCKS_DIR + "/") or not path.endswith(LOCK_SUFFIX):
        return None
    doc_id = path[len(LOCKS_DIR) + 1 : -len(LOCK_SUFFIX)]
    return doc_id or None


def _file_name(path: str) -> str:
    return posixpath.basename(path)


def update_message(path: str, login: str) -> str:
    """The web admin's edit message; `{file}` is the file's base name (see commit-log.tsv)."""
    return f"docs(edit): update {_file_name(path)} by @{login}"


def create_message(path: str, login: str) -> str:
    return f"feat(docs): create {_file_name(path)} by @{login}"


def delete_message(path: str, login: str) -> str:
    return f"docs(delete): remove {_file_name(path)} by @{login}"


def swap_message(path: str, position: int | float, login: str) -> str:
    """The web admin's reorder message (one commit per file of the swapped pair)."""
    return f"chore(docs): swap order position of {_file_name(path)} to {position} by @{login}"


def new_document_text(
    front_id: str,
    title: str,
    *,
    position: int | None = None,
    nav_label: str | None = None,
    theme: str | None = DEFAULT_THEME,
    layout: str | None = None,
    hide_title: bool | None = None,
    description: str | None = None,
    body: str = "",
) -> str:
    """A new document in the key order the brochure files use (id, title, sidebar_position,
    nav_label, theme, layout, hide_title, description)."""
    fm = frontmatter.parse("")
    fm.set("id", front_id)
    fm.set("title", title)
    if position is not None:
        fm.set("sidebar_position", position)
    if nav_label:
        fm.set("nav_label", nav_label)
    if theme:
        fm.set("theme", theme)
    if layout:
        fm.set("layout", layout)
    if hide_title is not None:
        fm.set("hide_title", hide_title)
    if description:
        fm.set("description", description)
    fm.body = body if not body or body.startswith("\n") else "\n" + body
    return fm.render()


_ID_RE = re.compile(r"[^0-9A-Za-z\uac00-\ud7a3_-]+")


def new_doc_path(doc_id: str, position: int | None = None) -> str:
    """The web admin's naming for new files: `docs/{NN}-{id}.md` (NN = two-digit position)."""
    slug = _ID_RE.sub("-", doc_id.strip()).strip("-") or "doc"
    if position is not None:
        return f"{DOCS_DIR}/{position:02d}-{slug}.md"
    return f"{DOCS_DIR}/{slug}.md"


def decode_text(data: bytes) -> tuple[str, str | None]:
    """UTF-8 bytes → (text, problem). The BOM and CRLF stay in the text. Invalid bytes are kept
    as surrogate escapes so `encode_text` gives the same bytes back."""
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return data.decode("utf-8", "surrogateescape"), f"not valid UTF-8 at byte {exc.start}"


def encode_text(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


# --------------------------------------------------------------------------- value types


@dataclass(frozen=True)
class DocSummary:
    doc_id: str
    path: str
    sha: str
    title: str
    nav_label: str | None = None
    position: int | float | None = None
    theme: str | None = None
    layout: str | None = None
    hide_title: bool | None = None
    description: str | None = None
    front_id: str | None = None  # the `id:` key (Docusaurus id), which may differ from doc_id
    size: int | None = None
    problems: tuple[str, ...] = ()
    draft: bool = False  # `draft: true`: the site's build leaves the page out (not published)

    @property
    def file_name(self) -> str:
        return _file_name(self.path)

    @property
    def sort_key(self) -> tuple[Any, ...]:
        return (self.position is None, self.position or 0, self.file_name, self.path)


def find_doc(docs: Iterable[DocSummary], name: str) -> DocSummary | None:
    """The document ``name`` names: its docId (``01-welcome``, ``bootcamp/00-overview``), its
    path (``docs/01-welcome.md``), or its front-matter ``id`` — which is also the page's
    address on the site (``welcome``; ``bootcamp/overview`` for a file in a folder). A file's
    docId wins over another file's front-matter id; an id two files share names neither."""
    wanted = name.strip().strip("/")
    if wanted.startswith("docs/"):
        wanted = wanted[len("docs/") :]
    if wanted.endswith(".md"):
        wanted = wanted[: -len(".md")]
    if not wanted:
        return None
    docs = list(docs)
    for d in docs:
        if d.doc_id == wanted:
            return d
    by_front = []
    for d in docs:
        if not d.front_id:
            continue
        folder = d.doc_id.rpartition("/")[0]
        site_id = f"{folder}/{d.front_id}" if folder else d.front_id
        if wanted == site_id:
            by_front.append(d)
    return by_front[0] if len(by_front) == 1 else None


@dataclass(frozen=True)
class RepoSnapshot:
    tree_sha: str
    docs: tuple[DocSummary, ...]
    locks: dict[str, TreeEntry]  # doc_id → the lock file's entry (path, sha)
    branch: str = "main"
    fetched_at: float = 0.0  # server time (Unix seconds) of the listing
    not_modified: bool = False  # the tree had not changed since the previous refresh
    walked: bool = False  # the recursive listing was truncated and subtrees were walked
    images: tuple[TreeEntry, ...] = ()  # other files under docs/, and pictures under static/
    incomplete: bool = False  # even a one-level listing was truncated: some files are missing
    cached: bool = False  # read from the disk snapshot of a previous run: not confirmed yet

    def doc(self, doc_id: str) -> DocSummary | None:
        for d in self.docs:
            if d.doc_id == doc_id:
                return d
        return None

    @property
    def doc_ids(self) -> list[str]:
        return [d.doc_id for d in self.docs]


@dataclass(frozen=True)
class LoadedDoc:
    doc_id: str
    path: str
    text: str
    sha: str
    decode_problem: str | None = None

    @property
    def front_matter(self) -> frontmatter.FrontMatter:
        return frontmatter.parse(self.text)

    @property
    def title(self) -> str:
        """What people call the page (see :func:`page_title`)."""
        return page_title(self.text, self.doc_id)


@dataclass(frozen=True)
class SaveResult:
    doc_id: str
    path: str
    sha: str  # the new blob sha (= the base for the next save)
    commit_sha: str | None  # None when nothing changed and no commit was made
    recovered: bool = False  # confirmed by reading back after an unclear network failure
    unchanged: bool = False


@dataclass(frozen=True)
class SaveConflict:
    """The file changed on GitHub since `base_sha`. `theirs` is None if it was deleted."""

    doc_id: str
    path: str
    mine: str
    base_sha: str | None
    theirs: str | None
    their_sha: str | None
    reason: str = ""

    # The names used in the task description.
    @property
    def theirs_text(self) -> str | None:
        return self.theirs

    @property
    def deleted(self) -> bool:
        return self.their_sha is None


@dataclass
class _Parsed:
    summary: DocSummary
    problems: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- the store


class DocumentStore:
    """Documents of one repository branch, over a `GitHubClient` and a `BlobCache`."""

    def __init__(
        self,
        client: GitHubClient,
        cache: BlobCache | str | os.PathLike[str],
        *,
        concurrency: int = 8,
        branch: str | None = None,
        archive_min_missing: int = ARCHIVE_MIN_MISSING,
        archive_max_bytes: int = ARCHIVE_MAX_BYTES,
        archive_bytes_ratio: float = ARCHIVE_BYTES_RATIO,
        snapshots: Any = None,
    ) -> None:
        self.client = client
        self.cache = cache if isinstance(cache, BlobCache) else BlobCache(Path(cache))
        self.concurrency = max(1, concurrency)
        self.branch = branch or client.repo.branch
        self.snapshot: RepoSnapshot | None = None
        self._summaries: dict[tuple[str, str], DocSummary] = {}  # (path, sha) → summary
        self._incomplete = False
        self.archive_min_missing = archive_min_missing
        self.archive_max_bytes = archive_max_bytes
        self.archive_bytes_ratio = archive_bytes_ratio
        # core.snapshots.SnapshotFile: every new listing is written there for the next start.
        self.snapshots = snapshots
        self.last_listing: dict[str, int] = {}  # how the last refresh read its blobs (tests, bench)
        self._prefetched: tuple[Awaitable[Tree], float] | None = None

    def __repr__(self) -> str:
        return f"DocumentStore({self.client.repo.full_name}@{self.branch}, cache={self.cache!r})"

    # -------------------------------------------------------------- finding

    def title_of(self, doc_id: str) -> str:
        """What people call ``doc_id``, from the last listing (the docId only when the
        document is not listed), for sentences that name a document."""
        doc = self.snapshot.doc(doc_id) if self.snapshot is not None else None
        return doc.title if doc is not None else doc_id

    async def resolve(self, name: str) -> DocSummary | None:
        """The document ``name`` means (see :func:`find_doc`), looked up in the last listing and,
        if it is not there, in a fresh one. None: no such document in the tree (so nothing may
        be written for it, not even a lock)."""
        if self.snapshot is not None:
            found = find_doc(self.snapshot.docs, name)
            if found is not None:
                return found
        snap = await self.refresh()
        return find_doc(snap.docs, name)

    # -------------------------------------------------------------- listing

    def use_prefetched(self, tree: Awaitable[Tree]) -> None:
        """A tree request already under way (the app sends it with the sign-in check, so both
        take one round trip): the next `refresh()` uses its answer instead of asking again.
        Used once, and only within `PREFETCH_MAX_AGE_S`; if it failed, refresh asks again."""
        self._prefetched = (tree, time.monotonic())

    async def _tree(self) -> Tree:
        pre, self._prefetched = self._prefetched, None
        if pre is not None:
            tree_task, at = pre
            if time.monotonic() - at <= PREFETCH_MAX_AGE_S:
                try:
                    return await tree_task
                except RepositoryEmpty:
                    raise
                except Exception as exc:  # asked again below, with the retries of a real read
                    log.info("prefetched tree failed (%s); reading it again", exc)
            elif isinstance(tree_task, asyncio.Future):
                tree_task.cancel()
        return await self.client.get_tree(self.branch, recursive=True)

    async def refresh(self) -> RepoSnapshot:
        """List documents and locks. Unchanged repository + warm cache → exactly one request."""
        try:
            tree = await self._tree()
        except RepositoryEmpty:
            snap = RepoSnapshot("", (), {}, self.branch, self.client.clock.now())
            self.snapshot = snap
            return snap
        prev = self.snapshot
        if prev is not None and prev.tree_sha == tree.sha:
            snap = RepoSnapshot(
                prev.tree_sha,
                prev.docs,
                dict(prev.locks),
                self.branch,
                self.client.clock.now(),
                True,
                prev.walked,
                prev.images,
                prev.incomplete,
            )
            self.snapshot = snap
            return snap
        walked = False
        self._incomplete = False
        if tree.truncated:
            entries = await self._walk_truncated(tree)
            walked = True
        else:
            entries = list(tree.entries)
        docs_entries: list[TreeEntry] = []
        images: list[TreeEntry] = []
        locks: dict[str, TreeEntry] = {}
        for e in entries:
            if e.type != "blob" or e.mode == _SYMLINK_MODE:
                continue
            doc_id = doc_id_for_path(e.path)
            if doc_id is not None:
                docs_entries.append(e)
                continue
            lock_id = lock_doc_id_for_path(e.path)
            if lock_id is not None:
                locks[lock_id] = e
                continue
            if e.path.startswith(DOCS_DIR + "/") or is_picture_file(e.path):
                images.append(e)  # the picture library lists them without another request
        needed = [e for e in docs_entries if (e.path, e.sha) not in self._summaries]
        # Lock files come along: the lock manager reads them from the same disk cache.
        needed += list(locks.values())
        total = None if walked else sum(e.size or 0 for e in entries if e.type == "blob")
        blobs = await self._fetch_listing(needed, total)
        docs: list[DocSummary] = []
        for n, e in enumerate(docs_entries, 1):
            key = (e.path, e.sha)
            summary = self._summaries.get(key)
            if summary is None:
                summary = summarize(e, blobs[e.sha])
                self._summaries[key] = summary
                if n % _SUMMARIES_PER_SLICE == 0:
                    await asyncio.sleep(0)  # let the UI breathe between slices of parsing
            docs.append(summary)
        docs.sort(key=lambda d: d.sort_key)
        live = {(d.path, d.sha) for d in docs}
        for key in [k for k in self._summaries if k not in live]:
            del self._summaries[key]
        snap = RepoSnapshot(
            tree.sha,
            tuple(docs),
            locks,
            self.branch,
            self.client.clock.now(),
            False,
            walked,
            tuple(images),
            self._incomplete,
        )
        self.snapshot = snap
        await self._persist(snap)
        return snap

    def restore(self, snap: RepoSnapshot) -> None:
        """Start from a listing of a previous run (`core.snapshots`): the next `refresh()` then
        costs one tree request when nothing changed, and parses only what did."""
        if self.snapshot is not None:
            return
        self.snapshot = snap
        for d in snap.docs:
            self._summaries[(d.path, d.sha)] = d

    async def _persist(self, snap: RepoSnapshot) -> None:
        if self.snapshots is None:
            return
        try:
            await asyncio.to_thread(self.snapshots.save, snap)
        except (OSError, ValueError, TypeError) as exc:  # a cache: never fails the listing
            log.info("could not save the document list for the next start: %s", exc)

    async def _fetch_listing(self, needed: list[TreeEntry], total: int | None) -> dict[str, bytes]:
        """Blobs for a listing: the disk cache, then one archive request when many are missing
        (each file verified against the tree's sha), then blob reads for whatever is left."""
        out: dict[str, bytes] = {}
        missing: dict[str, TreeEntry] = {}
        for n, e in enumerate(needed, 1):
            if e.sha in out or e.sha in missing:
                continue
            data = self.cache.get(e.sha)
            if data is None:
                missing[e.sha] = e
            else:
                out[e.sha] = data
            if n % _SUMMARIES_PER_SLICE == 0:
                await asyncio.sleep(0)
        stats = {"cached": len(out), "missing": len(missing), "archive": 0, "blob_reads": 0}
        self.last_listing = stats
        missing_bytes = sum(e.size or 0 for e in missing.values())
        if (
            len(missing) >= max(1, self.archive_min_missing)
            and total is not None
            and total <= self.archive_max_bytes
            and missing_bytes * self.archive_bytes_ratio >= total
        ):
            got = await self._from_archive(missing)
            stats["archive"] = len(got)
            out.update(got)
            for sha in got:
                missing.pop(sha, None)
        stats["blob_reads"] = len(missing)
        if missing:
            out.update(await self.fetch_blobs(missing))
        return out

    async def _from_archive(self, missing: dict[str, TreeEntry]) -> dict[str, bytes]:
        wanted = {e.path: e.sha for e in missing.values()}
        try:
            data = await self.client.get_tarball(self.branch)
        except GitHubError as exc:  # NetworkError too: the blob reads still work
            log.info("archive read failed (%s); reading %d blobs one by one", exc, len(wanted))
            return {}
        files = await asyncio.to_thread(_verified_and_cached, data, wanted, self.cache)
        if files.mismatched:
            log.info(
                "%d file(s) changed between the tree and the archive; reading them by sha",
                len(files.mismatched),
            )
        return files.blobs

    async def _walk_truncated(self, tree: Tree) -> list[TreeEntry]:
        """The recursive listing hit GitHub's limit: list only docs/ and .locks/ subtree by
        subtree (recursive per subtree, non-recursive below any that is truncated too)."""
        root = await self.client.get_tree(tree.sha, recursive=False)
        if root.truncated:
            self._incomplete = True
            log.warning("the repository root listing is truncated; some documents are missing")
        out: list[TreeEntry] = []
        for e in root.entries:
            if e.type == "tree" and e.path in (DOCS_DIR, LOCKS_DIR):
                out.extend(await self._walk(e.path, e.sha))
        return out

    async def _walk(self, prefix: str, sha: str) -> list[TreeEntry]:
        sub = await self.client.get_tree(sha, recursive=True)
        if not sub.truncated:
            return [_prefixed(prefix, e) for e in sub.entries]
        level = await self.client.get_tree(sha, recursive=False)
        if level.truncated:
            self._incomplete = True
            log.warning("the listing of %s is truncated; some documents are missing", prefix)
        out: list[TreeEntry] = []
        for e in level.entries:
            out.append(_prefixed(prefix, e))
            if e.type == "tree":
                out.extend(await self._walk(f"{prefix}/{e.path}", e.sha))
        return out

    async def fetch_blobs(self, shas: Iterable[str]) -> dict[str, bytes]:
        """Blobs by sha: from the disk cache, else fetched with bounded concurrency and cached.
        All fetches are attempted; the first failure is raised afterwards."""
        wanted = list(dict.fromkeys(shas))
        out: dict[str, bytes] = {}
        missing: list[str] = []
        for n, sha in enumerate(wanted, 1):
            data = self.cache.get(sha)
            if data is None:
                missing.append(sha)
            else:
                out[sha] = data
            if n % _SUMMARIES_PER_SLICE == 0:
                await asyncio.sleep(0)  # reading and hashing 1,000 cached blobs takes a while
        if not missing:
            return out
        sem = asyncio.Semaphore(self.concurrency)

        async def one(sha: str) -> None:
            async with sem:
                data = await self.client.get_blob(sha)
            try:
                self.cache.put(data, sha)
            except OSError as exc:
                log.warning("blob cache write failed for %s: %s", sha, exc)
            out[sha] = data

        results = await asyncio.gather(*(one(s) for s in missing), return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException):
                raise r
        return out

    def prune_cache(self) -> int:
        """Drop cached blobs that the last snapshot no longer lists (old versions)."""
        if self.snapshot is None:
            return 0
        keep = {d.sha for d in self.snapshot.docs} | {e.sha for e in self.snapshot.locks.values()}
        return self.cache.prune(keep)

    async def read_blob(self, sha: str) -> bytes:
        return (await self.fetch_blobs([sha]))[sha]

    # -------------------------------------------------------------- reading one

    async def current_entry(self, path: str) -> TreeEntry | None:
        """The current tree entry of `path` on the branch, from the git database."""
        try:
            tree = await self.client.get_tree(self.branch, recursive=True)
        except RepositoryEmpty:
            return None
        if not tree.truncated:
            return tree.find(path)
        _, entry = await self.client.entry_at(path, self.branch)
        return entry

    async def load(self, doc_id: str) -> LoadedDoc:
        """The current text and blob sha of a document (tree + blob). NotFound if absent."""
        path = self._path_of(doc_id)
        entry = await self.current_entry(path)
        if entry is None:
            raise NotFound(404, f"{path} is not in {self.branch}")
        data = await self.read_blob(entry.sha)
        text, problem = decode_text(data)
        return LoadedDoc(doc_id_for_path(path) or doc_id, path, text, entry.sha, problem)

    # -------------------------------------------------------------- writing

    async def save(
        self,
        doc: str | DocSummary | LoadedDoc,
        text: str,
        base_sha: str,
        login: str,
        message: str | None = None,
    ) -> SaveResult | SaveConflict:
        """PUT `text` over the version `base_sha`. A conflict is returned, not raised.
        Other failures raise (`WriteUncertain` when the outcome could not be confirmed)."""
        path = self._path_of(doc)
        doc_id = doc_id_for_path(path) or path
        data = encode_text(text)
        new_sha = git_blob_sha(data)
        if new_sha == base_sha:
            return SaveResult(doc_id, path, base_sha, None, unchanged=True)
        msg = message or update_message(path, login)
        try:
            res = await self.client.put_file(path, data, msg, sha=base_sha, branch=self.branch)
        except GitHubConflict as exc:
            return await self._conflict(doc_id, path, text, base_sha, exc)
        except NotFound as exc:
            # The file (or the branch) is gone; report deletions as conflicts too.
            entry = await self.current_entry(path)
            if entry is None:
                return SaveConflict(doc_id, path, text, base_sha, None, None, exc.message)
            raise
        self._remember(path, data)
        return SaveResult(doc_id, path, res.content_sha or new_sha, res.commit_sha, res.recovered)

    async def create(
        self,
        doc: str,
        text: str,
        login: str,
        message: str | None = None,
    ) -> SaveResult | SaveConflict:
        """Create a new document (`doc` = doc id or `docs/…md` path). If a file with that path
        appeared meanwhile, a `SaveConflict` (base_sha None) is returned."""
        path = self._path_of(doc)
        doc_id = doc_id_for_path(path) or path
        data = encode_text(text)
        msg = message or create_message(path, login)
        try:
            res = await self.client.put_file(path, data, msg, sha=None, branch=self.branch)
        except GitHubConflict as exc:
            return await self._conflict(doc_id, path, text, None, exc)
        self._remember(path, data)
        return SaveResult(
            doc_id, path, res.content_sha or git_blob_sha(data), res.commit_sha, res.recovered
        )

    async def delete(
        self,
        doc: str | DocSummary | LoadedDoc,
        sha: str,
        login: str,
        message: str | None = None,
    ) -> str:
        """Delete a document at version `sha`; returns the commit sha. Raises GitHubConflict if it
        changed meanwhile."""
        path = self._path_of(doc)
        return await self.client.delete_file(
            path, sha, message or delete_message(path, login), branch=self.branch
        )

    async def swap_positions(
        self,
        a: str | DocSummary,
        b: str | DocSummary,
        login: str,
    ) -> list[SaveResult | SaveConflict]:
        """Swap the `sidebar_position` of two documents like the web admin: two commits.
        Stops after the first conflict (the returned list then has one or two items, the last
        one a `SaveConflict`). Raises ValueError if either has no position."""
        docs = [await self.load(self._doc_id_of(x)) for x in (a, b)]
        fms = [frontmatter.parse(d.text) for d in docs]
        positions = [fm.get_number("sidebar_position") for fm in fms]
        if positions[0] is None or positions[1] is None:
            raise ValueError("both documents need a sidebar_position to swap")
        results: list[SaveResult | SaveConflict] = []
        for doc, fm, new_pos in ((docs[0], fms[0], positions[1]), (docs[1], fms[1], positions[0])):
            fm.set("sidebar_position", new_pos)
            res = await self.save(
                doc, fm.render(), doc.sha, login, message=swap_message(doc.path, new_pos, login)
            )
            results.append(res)
            if isinstance(res, SaveConflict):
                break
        return results

    def _doc_id_of(self, doc: str | DocSummary | LoadedDoc) -> str:
        path = self._path_of(doc)
        return doc_id_for_path(path) or path

    async def _conflict(
        self, doc_id: str, path: str, mine: str, base_sha: str | None, exc: GitHubError
    ) -> SaveConflict:
        _, entry = await self.client.entry_at(path, self.branch)
        if entry is None:
            return SaveConflict(doc_id, path, mine, base_sha, None, None, exc.message)
        theirs, _problem = decode_text(await self.read_blob(entry.sha))
        return SaveConflict(doc_id, path, mine, base_sha, theirs, entry.sha, exc.message)

    def _remember(self, path: str, data: bytes) -> None:
        try:
            self.cache.put(data)
        except OSError as exc:  # the cache is an optimisation only
            log.warning("blob cache write failed for %s: %s", path, exc)

    def _path_of(self, doc: str | DocSummary | LoadedDoc) -> str:
        if isinstance(doc, (DocSummary, LoadedDoc)):
            return doc.path
        if doc.startswith(DOCS_DIR + "/") and doc.endswith(".md"):
            return doc
        return path_for_doc_id(doc)


def _verified_and_cached(data: bytes, wanted: dict[str, str], cache: BlobCache) -> Any:
    """(worker thread) The archive's files that match the tree, written to the blob cache."""
    files = read_archive(data, wanted)
    for sha, blob in files.blobs.items():
        try:
            cache.put(blob, sha)
        except OSError as exc:
            log.info("blob cache write failed for %s: %s", sha, exc)
    return files


def _prefixed(prefix: str, e: TreeEntry) -> TreeEntry:
    return TreeEntry(f"{prefix}/{e.path}", e.sha, e.mode, e.type, e.size)


def summarize(entry: TreeEntry, data: bytes) -> DocSummary:
    """A `DocSummary` from a document's bytes (never raises)."""
    doc_id = doc_id_for_path(entry.path) or entry.path
    text, problem = decode_text(data)
    fm = frontmatter.parse(text)
    problems: list[str] = list(fm.problems)
    if problem:
        problems.append(problem)
    title = page_title(fm, doc_id)
    theme = fm.get("theme") or None
    layout = fm.get("layout") or None
    return DocSummary(
        doc_id=doc_id,
        path=entry.path,
        sha=entry.sha,
        title=title,
        nav_label=fm.get("nav_label") or None,
        position=fm.get_number("sidebar_position"),
        theme=theme,
        layout=layout,
        hide_title=fm.get_bool("hide_title"),
        description=fm.get("description") or None,
        front_id=fm.get("id") or None,
        size=entry.size if entry.size is not None else len(data),
        problems=tuple(problems),
        draft=fm.get_bool("draft") is True,
    )


_FIRST_HEADING = re.compile(r"^[ \t]{0,3}#[ \t]+(.+?)[ \t#]*$", re.M)


def page_title(text: str | frontmatter.FrontMatter, doc_id: str) -> str:
    """What people call a page, as the site does: its ``title``, else its menu label, else its
    first heading, else (only then) the file's name."""
    fm = frontmatter.parse(text) if isinstance(text, str) else text
    title = fm.get("title") or fm.get("nav_label")
    if title:
        return str(title)
    m = _FIRST_HEADING.search(fm.body)
    if m:
        return m.group(1).strip()
    return _file_name(doc_id)


def sort_docs(docs: Sequence[DocSummary]) -> list[DocSummary]:
    """sidebar_position ascending (missing last), then file name."""
    return sorted(docs, key=lambda d: d.sort_key)
