"""The git database (GitHub's Git Data API): refs, commits, trees and blobs, read and written.

Reads are never stale (objects are named by their content; a ref is read fresh) and trees are
conditional (an unchanged tree is a free 304). A folder's tree is read by its path in one request
(`GET git/trees/{commit-or-branch}:{folder}`, git's `<rev>:<path>` syntax, which GitHub's trees
endpoint accepts though its reference does not spell it out; see docs/github-behaviour.md), with a
walk from the root as the fallback.

Writes build a commit the way `git` does — blobs, a tree over a base tree, a commit with its
parent — and move a branch only as a fast forward (`update_ref(force=False)`): a branch that moved
meanwhile answers 422 "Update is not a fast forward" (`NotFastForward`) and keeps everything
newer. `core/changes/` uses them to change many files in one commit.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.github.errors import GitHubError, NetworkError, NotFound
from modu_desktop.core.github.http import HttpCore
from modu_desktop.core.github.types import (
    Commit,
    NewTreeEntry,
    Tree,
    TreeEntry,
    _b64decode,
    commit_from_git,
    encode_path,
)

log = logging.getLogger(__name__)

# How many tree answers (with their ETags) a client keeps for conditional reads.
TREE_CACHE_SIZE = 64
# A blob as its bytes (GitHub: "Returns the raw blob data"), not base64 in JSON.
RAW_BLOB_MEDIA_TYPE = "application/vnd.github.raw+json"
# Answers at least this large are decoded and checked off the event loop.
OFF_LOOP_BYTES = 64 * 1024


class GitData(HttpCore):
    """Refs, commits, trees and blobs of the repository."""

    # ------------------------------------------------------------------ reading

    async def get_ref(self, branch: str | None = None) -> str:
        """The commit sha at `heads/{branch}` (default: the repo's branch)."""
        br = branch or self.repo.branch
        d = await self._get_json(f"{self._repo_path}/git/ref/heads/{quote(br, safe='/')}")
        if isinstance(d, list):  # some servers answer a prefix match with a list
            for item in d:
                if item.get("ref") == f"refs/heads/{br}":
                    return str(item["object"]["sha"])
            raise NotFound(404, f"no branch {br}")
        return str(d["object"]["sha"])

    async def get_commit(self, sha: str) -> Commit:
        d = await self._get_json(f"{self._repo_path}/git/commits/{quote(sha, safe='')}")
        return commit_from_git(d)

    async def get_tree(self, ref: str | None = None, recursive: bool = True) -> Tree:
        """A tree by sha, commit sha or branch name. Conditional: an unchanged tree is a free 304
        (one request) answered from the last result, with `not_modified=True`."""
        r = ref or self.repo.branch
        return await self._tree_at(f"{self._repo_path}/git/trees/{quote(r, safe='')}", recursive)

    async def get_folder_tree(self, ref: str | None, folder: str) -> Tree | None:
        """The tree of ``folder`` (a path from the root, "" = the root) at ``ref`` (a branch or a
        commit sha), one level deep; None when there is no such folder. One request
        (``git/trees/{ref}:{folder}``), conditional like every tree read; when that form is not
        answered, the folders are walked from the root."""
        r = ref or self.repo.branch
        folder = folder.strip("/")
        if folder:
            spec = f"{quote(r, safe='')}:{encode_path(folder)}"
            try:
                return await self._tree_at(f"{self._repo_path}/git/trees/{spec}", False)
            except NotFound:
                log.debug("no tree at %s:%s; walking from the root", r, folder)
        # The trees endpoint is documented for tree shas and branch names: a commit is read first.
        root: str | None = (await self.get_commit(r)).tree_sha if _is_sha(r) else r
        if root is None:
            return None
        tree = await self.get_tree(root, recursive=False)
        for part in folder.split("/") if folder else ():
            hit = next((e for e in tree.entries if e.path == part), None)
            if hit is None or hit.type != "tree":
                return None
            tree = await self.get_tree(hit.sha, recursive=False)
        return tree

    async def _tree_at(self, url: str, recursive: bool) -> Tree:
        params = {"recursive": "1"} if recursive else None
        key = f"{url}?r={int(recursive)}"
        cached = self._tree_cache.get(key)
        headers = {"If-None-Match": cached.etag} if cached and cached.etag else None
        resp = await self._request("GET", url, params=params, headers=headers, ok=(304,))
        if resp.status_code == 304:
            if cached is None:
                raise GitHubError(304, "unexpected 304 Not Modified", method="GET", path=url)
            return Tree(cached.sha, cached.entries, cached.truncated, cached.etag, True)
        d = resp.json()
        entries = tuple(
            TreeEntry(
                path=str(e["path"]),
                sha=str(e["sha"]),
                mode=str(e.get("mode", "")),
                type=str(e.get("type", "")),
                size=e.get("size"),
            )
            for e in d.get("tree", [])
        )
        tree = Tree(str(d["sha"]), entries, bool(d.get("truncated")), resp.headers.get("etag"))
        if tree.etag:
            self._tree_cache.pop(key, None)
            self._tree_cache[key] = tree
            while len(self._tree_cache) > TREE_CACHE_SIZE:  # oldest first
                self._tree_cache.pop(next(iter(self._tree_cache)))
        return tree

    async def get_blob(self, sha: str) -> bytes:
        """Blob bytes by sha (immutable, never stale), verified against the sha. Asked for as
        GitHub's raw media type, so a picture of megabytes arrives as its bytes rather than as
        base64 inside JSON; a server that answers JSON anyway is read as before. The decoding
        and the sha check of a large blob run in a worker thread: on the window's event loop
        they held it for tens of milliseconds per picture."""
        url = f"{self._repo_path}/git/blobs/{quote(sha, safe='')}"
        resp = await self._request("GET", url, headers={"Accept": RAW_BLOB_MEDIA_TYPE})
        body = resp.content
        as_json = "json" in resp.headers.get("content-type", "")
        if len(body) < OFF_LOOP_BYTES:
            return _blob_from_answer(body, as_json, sha)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, _blob_from_answer, body, as_json, sha)

    async def get_tarball(self, ref: str | None = None) -> bytes:
        """The whole repository at `ref` as a gzip'd tar (`GET tarball/{ref}`, notes §11): GitHub
        answers 302 to a temporary download link, which is followed (the token is not sent to
        another host). One top folder `{owner}-{repo}-{short sha}/`. Callers verify each file
        against the tree's blob shas (`core/github/archive.py`)."""
        r = ref or self.repo.branch
        resp = await self._request("GET", f"{self._repo_path}/tarball/{quote(r, safe='')}")
        return resp.content

    async def entry_at(self, path: str, branch: str | None = None) -> tuple[str, TreeEntry | None]:
        """(head commit sha, the tree entry at `path` or None) read through the git database:
        the ref, then the folder's tree at that commit (two requests). Never stale."""
        head = await self.get_ref(branch)
        folder, _, name = path.strip("/").rpartition("/")
        tree = await self.get_folder_tree(head, folder)
        hit = None if tree is None else next((e for e in tree.entries if e.path == name), None)
        if hit is None:
            return head, None
        return head, TreeEntry(path.strip("/"), hit.sha, hit.mode, hit.type, hit.size)

    async def blob_sha_at(self, path: str, branch: str | None = None) -> str | None:
        """The blob sha of ``path`` on ``branch`` now (None: no such file): its folder's tree,
        one conditional request, so a folder no other commit touched costs a free 304."""
        folder, _, name = path.strip("/").rpartition("/")
        tree = await self.get_folder_tree(branch or self.repo.branch, folder)
        hit = None if tree is None else next((e for e in tree.entries if e.path == name), None)
        return hit.sha if hit is not None and hit.type == "blob" else None

    # ------------------------------------------------------------------ writing

    async def create_blob(self, data: bytes) -> str:
        """``POST git/blobs``: the bytes as a blob (UTF-8 text as it is, anything else base64);
        its sha, checked against the bytes. Makes no commit and moves no branch."""
        try:
            body = {"content": data.decode("utf-8"), "encoding": "utf-8"}
        except UnicodeDecodeError:
            body = {"content": base64.b64encode(data).decode("ascii"), "encoding": "base64"}
        d = await self._send_json("POST", f"{self._repo_path}/git/blobs", body)
        sha = str(d.get("sha", ""))
        if sha != git_blob_sha(data):
            raise GitHubError(None, f"the blob GitHub made ({sha}) is not the bytes sent")
        return sha

    async def create_tree(self, entries: Sequence[NewTreeEntry], base_tree: str | None) -> str:
        """``POST git/trees``: ``base_tree`` with ``entries`` set (a blob sha, inline text) or
        deleted; the new tree's sha. Paths are full paths; GitHub makes the folders."""
        body: dict[str, Any] = {"tree": [e.as_json() for e in entries]}
        if base_tree:
            body["base_tree"] = base_tree
        d = await self._send_json("POST", f"{self._repo_path}/git/trees", body)
        return str(d["sha"])

    async def create_commit(
        self,
        message: str,
        tree: str,
        parents: Sequence[str],
        *,
        author: Mapping[str, str] | None = None,
    ) -> Commit:
        """``POST git/commits``: a commit of ``tree`` over ``parents`` (the author is the token's
        user unless given). It is on no branch until ``update_ref``."""
        body: dict[str, Any] = {"message": message, "tree": tree, "parents": list(parents)}
        if author:
            body["author"] = dict(author)
        d = await self._send_json("POST", f"{self._repo_path}/git/commits", body)
        return commit_from_git(d)

    async def update_ref(self, branch: str, sha: str, *, force: bool = False) -> str:
        """``PATCH git/refs/heads/{branch}``: move the branch to ``sha``. Without ``force`` only
        as a fast forward: a branch that moved meanwhile raises ``NotFastForward`` and nothing
        changes. Sent once: an unclear answer (``NetworkError``, ``ServerError``) is the
        caller's to settle by reading the ref back."""
        url = f"{self._repo_path}/git/refs/heads/{quote(branch, safe='/')}"
        resp = await self._send_once("PATCH", url, json={"sha": sha, "force": force})
        if not 200 <= resp.status_code < 300:
            raise self._error_for(resp, "PATCH", url)
        try:
            return str(resp.json()["object"]["sha"])
        except (ValueError, KeyError, TypeError):
            raise NetworkError(
                "the answer to a branch update could not be read", method="PATCH", path=url
            ) from None


def _is_sha(ref: str) -> bool:
    return len(ref) == 40 and all(c in "0123456789abcdef" for c in ref.lower())


def _blob_from_answer(body: bytes, as_json: bool, sha: str) -> bytes:
    """The blob in an answer to ``git/blobs/{sha}`` (its raw bytes, or GitHub's JSON with the
    content in base64), checked against ``sha``. Safe in a worker thread."""
    if as_json:
        try:
            d = json.loads(body)
        except ValueError:
            raise GitHubError(None, f"blob {sha}: the server's answer was not JSON") from None
        enc = d.get("encoding", "base64")
        content = d.get("content") or ""
        data = _b64decode(content) if enc == "base64" else str(content).encode("utf-8")
    else:
        data = body
    if git_blob_sha(data) != sha.lower():
        raise GitHubError(None, f"blob {sha} content does not match its sha")
    return data
