"""Whole-repository archives, as GitHub serves them (notes §11).

- `GET /repos/{owner}/{repo}/tarball/{ref}` answers **302** with a `Location` to a download route
  (GitHub: codeload). The repository is private, so the link carries a temporary `token` that
  expires after five minutes (`ArchiveLinks.ttl_seconds`); an expired or unknown link is a 404.
- The download route (`/codeload/{owner}/{repo}/legacy.tar.gz/{ref}?token=…`) needs no
  Authorization header, like codeload, and answers a gzip'd tar whose one top folder is
  `{owner}-{repo}-{short sha}/`. Like `git archive`, the first member is a pax global header
  whose `comment` is the full commit sha; files keep their mode (644/755), symlinks are symlinks,
  submodules are empty folders, every file's mtime is the commit time.
- `{ref}` is a branch, a tag or a commit sha; the Location keeps what was asked for
  (`refs/heads/main` for a branch, the sha for a sha), as GitHub's does. An unknown ref is 404.
- `zipball` is not served (nothing uses it).
"""

from __future__ import annotations

import io
import secrets
import stat
import tarfile
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import quote

from modu_desktop.sandbox.api import GitHubApi
from modu_desktop.sandbox.repo.gitstore import SUBMODULE_MODE
from modu_desktop.sandbox.rest.messages import ApiRequest, ApiResponse, not_found

DOWNLOAD_TEMPLATE = "/codeload/{owner}/{repo}/legacy.tar.gz/{ref}"
LINK_SECONDS = 300.0  # GitHub: "the link expires after five minutes" (private repositories)


@dataclass
class _Link:
    commit_hint: str
    login: str
    expires: float


@dataclass
class ArchiveLinks:
    """The temporary download links one sandbox has handed out (test hook: `ttl_seconds`)."""

    ttl_seconds: float = LINK_SECONDS
    monotonic: Callable[[], float] = time.monotonic  # the sandbox clock's steady time
    _links: dict[str, _Link] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def issue(self, ref: str, login: str) -> str:
        token = "GHSAT0" + secrets.token_hex(16).upper()
        now = self.monotonic()
        with self._lock:
            for key in [k for k, v in self._links.items() if v.expires <= now]:
                del self._links[key]
            self._links[token] = _Link(ref, login, now + self.ttl_seconds)
        return token

    def valid(self, token: str | None, ref: str) -> bool:
        if not token:
            return False
        with self._lock:
            link = self._links.get(token)
        return link is not None and link.commit_hint == ref and link.expires > self.monotonic()


_LINKS: weakref.WeakKeyDictionary[GitHubApi, ArchiveLinks] = weakref.WeakKeyDictionary()
_LINKS_LOCK = threading.Lock()


def links_for(api: GitHubApi) -> ArchiveLinks:
    with _LINKS_LOCK:
        links = _LINKS.get(api)
        if links is None:
            links = _LINKS[api] = ArchiveLinks(monotonic=api.monotonic)
        return links


def _location_ref(api: GitHubApi, ref: str) -> str | None:
    """What the download link names: refs/heads/… for a branch, refs/tags/… for a tag, the
    sha for a sha; None when the ref does not resolve."""
    if api.store.branch_head(ref):
        return f"refs/heads/{ref}"
    if api.store.tag_target(ref):
        return f"refs/tags/{ref}"
    for prefix in ("refs/heads/", "heads/", "refs/tags/", "tags/"):
        if ref.startswith(prefix):
            name = ref[len(prefix) :]
            kind = "heads" if "heads/" in prefix else "tags"
            resolve = api.store.branch_head if kind == "heads" else api.store.tag_target
            return f"refs/{kind}/{name}" if resolve(name) else None
    commit = api.store.resolve_commit(ref)
    return commit if commit else None


def _resolve(api: GitHubApi, location_ref: str) -> str | None:
    for prefix, resolve in (
        ("refs/heads/", api.store.branch_head),
        ("refs/tags/", api.store.tag_target),
    ):
        if location_ref.startswith(prefix):
            return resolve(location_ref[len(prefix) :])
    return api.store.resolve_commit(location_ref)


def get_tarball(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    assert req.user is not None
    api.require_commits()
    target = _location_ref(api, req.params["ref"])
    if target is None:
        raise not_found()
    token = links_for(api).issue(target, req.user.login)
    location = (
        f"{api.urls.api}/codeload/{quote(api.owner, safe='')}/{quote(api.name, safe='')}"
        f"/legacy.tar.gz/{quote(target, safe='/')}?token={token}"
    )
    return ApiResponse(302, None, {"Location": location})


def download_tarball(api: GitHubApi, req: ApiRequest) -> ApiResponse:
    ref = req.params["ref"]
    if not links_for(api).valid(req.arg("token"), ref):
        raise not_found()
    commit = _resolve(api, ref)
    info = api.store.commit(commit) if commit else None
    if info is None:
        raise not_found()
    data = build_tarball(api, info.sha)
    name = f"{api.owner}-{api.name}-{info.sha[:7]}.tar.gz"
    headers = {"Content-Disposition": f"attachment; filename={name}"}
    return ApiResponse(200, data, headers, content_type="application/x-gzip")


def build_tarball(api: GitHubApi, commit_sha: str) -> bytes:
    """The archive of one commit, laid out like `git archive --prefix={owner}-{repo}-{short}/`."""
    info = api.store.commit(commit_sha)
    assert info is not None
    top = f"{api.owner}-{api.name}-{commit_sha[:7]}"
    mtime = info.committer.timestamp
    buf = io.BytesIO()
    with tarfile.open(
        fileobj=buf,
        mode="w:gz",
        format=tarfile.PAX_FORMAT,
        pax_headers={"comment": commit_sha},
        compresslevel=6,
    ) as tar:
        tar.addfile(_member(top + "/", tarfile.DIRTYPE, 0o775, mtime))
        for entry in api.store.walk_tree(info.tree, recursive=True):
            path = f"{top}/{entry.path}"
            if stat.S_ISDIR(entry.mode) or entry.mode == SUBMODULE_MODE:
                tar.addfile(_member(path + "/", tarfile.DIRTYPE, 0o775, mtime))
                continue
            data = api.store.blob(entry.sha) or b""
            if stat.S_ISLNK(entry.mode):
                m = _member(path, tarfile.SYMTYPE, 0o777, mtime)
                m.linkname = data.decode("utf-8", "surrogateescape")
                tar.addfile(m)
                continue
            m = _member(path, tarfile.REGTYPE, 0o775 if entry.mode & 0o111 else 0o664, mtime)
            m.size = len(data)
            tar.addfile(m, io.BytesIO(data))
    return buf.getvalue()


def _member(name: str, kind: bytes, mode: int, mtime: int) -> tarfile.TarInfo:
    m = tarfile.TarInfo(name)
    m.type = kind
    m.mode = mode
    m.mtime = mtime
    m.uname = m.gname = "root"
    return m


__all__ = ["DOWNLOAD_TEMPLATE", "LINK_SECONDS", "ArchiveLinks", "build_tarball", "links_for"]
