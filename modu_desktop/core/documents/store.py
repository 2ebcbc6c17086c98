"""The document store: list, load and save brochure documents through the git database.

- The list (`refresh()`, the blob cache and its bounds) is `listing.py`'s `Listing`, the base
  of `DocumentStore`.
- `load()` reads tree + blob (never the Contents API, which can be stale after a write).
- `save()` PUTs with the base sha the user started from and the web admin's commit message;
  a 409 returns a `SaveConflict` with the current version read from the git database —
  starting from the blob sha the write rule already read after the 409, so the conflict costs
  one blob read more (`core/github/writes.py`).

Texts are decoded as UTF-8 with the BOM and line endings kept exactly; bytes that are not UTF-8
are kept through `surrogateescape` (so saving an untouched document writes identical bytes) and
flagged with `LoadedDoc.decode_problem`. The names, messages and value types live in
`naming.py` and `model.py`; they are re-exported here for the store's callers.
"""

from __future__ import annotations

import logging

from modu_desktop.core.documents.listing import (
    ARCHIVE_BYTES_RATIO,
    ARCHIVE_MAX_BYTES,
    ARCHIVE_MIN_MISSING,
    PREFETCH_MAX_AGE_S,
    Listing,
)
from modu_desktop.core.documents.model import (
    DocSummary,
    LoadedDoc,
    RepoSnapshot,
    SaveConflict,
    SaveResult,
    find_doc,
    page_title,
    sort_docs,
    summarize,
)
from modu_desktop.core.documents.naming import (
    DOCS_DIR,
    LOCK_SUFFIX,
    LOCKS_DIR,
    create_message,
    decode_text,
    delete_message,
    doc_id_for_path,
    encode_text,
    file_name,
    lock_doc_id_for_path,
    new_doc_path,
    new_document_text,
    path_for_doc_id,
    swap_message,
    update_message,
)
from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.github.client import TreeEntry
from modu_desktop.core.github.errors import GitHubConflict, GitHubError, NotFound, RepositoryEmpty

__all__ = [
    "ARCHIVE_BYTES_RATIO",
    "ARCHIVE_MAX_BYTES",
    "ARCHIVE_MIN_MISSING",
    "DOCS_DIR",
    "LOCKS_DIR",
    "LOCK_SUFFIX",
    "PREFETCH_MAX_AGE_S",
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
    "file_name",
    "find_doc",
    "lock_doc_id_for_path",
    "new_doc_path",
    "new_document_text",
    "page_title",
    "path_for_doc_id",
    "sort_docs",
    "summarize",
    "swap_message",
    "update_message",
]

log = logging.getLogger(__name__)


class DocumentStore(Listing):
    """Documents of one repository branch, over a `GitHubClient` and a `BlobCache`: the list
    (`Listing`), and each document found, loaded, saved, created and deleted."""

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

    async def _conflict(
        self, doc_id: str, path: str, mine: str, base_sha: str | None, exc: GitHubError
    ) -> SaveConflict:
        """The conflict as the user will see it: their version now. The write rule read its
        blob sha after the 409 (`GitHubConflict.current_sha`); only without it is the file's
        place read again."""
        if isinstance(exc, GitHubConflict) and exc.current_known:
            their_sha = exc.current_sha
        else:
            _, entry = await self.client.entry_at(path, self.branch)
            their_sha = entry.sha if entry is not None else None
        if their_sha is None:
            return SaveConflict(doc_id, path, mine, base_sha, None, None, exc.message)
        theirs, _problem = decode_text(await self.read_blob(their_sha))
        return SaveConflict(doc_id, path, mine, base_sha, theirs, their_sha, exc.message)

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
