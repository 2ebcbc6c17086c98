"""The GitHub client's value types (Qt-free): repository, tree, write result, user, commit,
workflow run, retry policy, and the token wrapper that never prints."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from modu_desktop.core.github.errors import (
    GitHubError,
)

_known_secrets: set[str] = set()


def known_secrets() -> set[str]:
    """Every secret this process has held (the tokens in use): no log line, no problem report
    may contain one, whatever its shape."""
    return set(_known_secrets)


class Secret:
    """A string that does not reveal itself in repr/str/format. `.reveal()` gives the value.
    Its value joins :func:`known_secrets`, which the log file takes out of every line."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value
        if value:
            _known_secrets.add(value)

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return "***"

    def __bool__(self) -> bool:
        return bool(self._value)

    def __reduce__(self) -> Any:
        raise TypeError("Secret cannot be pickled")


@dataclass(frozen=True)
class RepoRef:
    owner: str
    name: str
    branch: str = "main"

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"

    @classmethod
    def parse(cls, text: str, branch: str = "main") -> RepoRef:
        """'owner/name' (optionally 'owner/name@branch') → RepoRef."""
        spec, _, br = text.partition("@")
        owner, sep, name = spec.strip().strip("/").partition("/")
        if not sep or not owner or not name or "/" in name:
            raise ValueError(f"expected OWNER/NAME, got {text!r}")
        return cls(owner, name, br or branch)


@dataclass(frozen=True)
class TreeEntry:
    """One entry of a git tree (paths are full paths from the root for recursive listings)."""

    path: str
    sha: str
    mode: str = "100644"
    type: str = "blob"
    size: int | None = None


@dataclass(frozen=True)
class Tree:
    sha: str
    entries: tuple[TreeEntry, ...]
    truncated: bool = False
    etag: str | None = None
    not_modified: bool = False  # True when served from a 304 answer

    def find(self, path: str) -> TreeEntry | None:
        for e in self.entries:
            if e.path == path:
                return e
        return None


@dataclass(frozen=True)
class NewTreeEntry:
    """One entry of a tree to create (``POST git/trees``): ``sha`` (an existing blob),
    ``content`` (text GitHub writes as a blob), or neither — the path is deleted from the base
    tree (GitHub's ``"sha": null``)."""

    path: str
    sha: str | None = None
    content: str | None = None
    mode: str = "100644"
    type: str = "blob"

    @property
    def deletes(self) -> bool:
        return self.sha is None and self.content is None

    def as_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"path": self.path, "mode": self.mode, "type": self.type}
        if self.content is not None:
            body["content"] = self.content
        else:
            body["sha"] = self.sha  # None: delete
        return body


@dataclass(frozen=True)
class WriteResult:
    content_sha: str | None  # the new blob sha (None for deletes)
    commit_sha: str
    recovered: bool = False  # True when confirmed by reading back after an unclear failure
    # True when GitHub answered 201 (the path did not exist: GitHub ignores a `sha` sent for a
    # missing path and creates the file). For a recovered write: True if no base sha was sent.
    created: bool = False


@dataclass(frozen=True)
class User:
    login: str
    id: int | None = None
    name: str | None = None
    email: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class RepoInfo:
    full_name: str
    default_branch: str
    private: bool
    permissions: Mapping[str, bool]
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def can_push(self) -> bool:
        return bool(
            self.permissions.get("push")
            or self.permissions.get("admin")
            or self.permissions.get("maintain")
        )

    @property
    def can_pull(self) -> bool:
        return bool(self.permissions.get("pull") or self.can_push)


@dataclass(frozen=True)
class Commit:
    sha: str
    message: str
    tree_sha: str | None
    parents: tuple[str, ...]
    author_name: str | None = None
    author_date: str | None = None
    author_login: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0]


@dataclass(frozen=True)
class ContentFile:
    """A Contents API answer. For a directory `type == "dir"`, `content == b""` and `entries`."""

    path: str
    sha: str
    type: str
    content: bytes
    size: int | None = None
    entries: tuple[Mapping[str, Any], ...] = ()
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class WorkflowRun:
    id: int
    name: str | None
    status: str | None
    conclusion: str | None
    head_sha: str | None
    html_url: str | None
    event: str | None = None
    created_at: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class RetryPolicy:
    """Retry bounds for reads (and for writes that provably did not happen)."""

    max_attempts: int = 5
    base_delay: float = 0.5
    max_delay: float = 20.0
    max_total: float = 90.0  # most time spent sleeping between attempts, seconds
    secondary_wait: float = 60.0  # secondary limit without retry-after: wait at least this


@dataclass(frozen=True)
class MembershipProbe:
    """The raw answer of ``GET /orgs/{org}/members/{login}`` (see ``org_membership_probe``)."""

    status: int  # 204, 404, 301/302/307 (or another 2xx)
    scopes: tuple[str, ...] | None  # X-OAuth-Scopes; None when the header is absent


def encode_path(path: str) -> str:
    """URL-encode each segment of a repository path (Hangul, spaces, '#', '?', '%' ...)."""
    return "/".join(quote(seg, safe="") for seg in path.strip("/").split("/"))


def _b64decode(text: str) -> bytes:
    try:
        return base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise GitHubError(None, f"invalid base64 content from server: {exc}") from None


def commit_from_git(d: Mapping[str, Any]) -> Commit:
    """A commit as the git database API gives it (``/git/commits``)."""
    author = d.get("author") or {}
    return Commit(
        sha=str(d["sha"]),
        message=str(d.get("message", "")),
        tree_sha=(d.get("tree") or {}).get("sha"),
        parents=tuple(str(p["sha"]) for p in d.get("parents") or []),
        author_name=author.get("name"),
        author_date=author.get("date"),
        raw=d,
    )


def commit_from_rest(d: Mapping[str, Any]) -> Commit:
    """A commit as the REST commits API gives it (``/commits``)."""
    inner = d.get("commit") or {}
    author = inner.get("author") or {}
    login = (d.get("author") or {}).get("login") if isinstance(d.get("author"), dict) else None
    return Commit(
        sha=str(d["sha"]),
        message=str(inner.get("message", "")),
        tree_sha=(inner.get("tree") or {}).get("sha"),
        parents=tuple(str(p["sha"]) for p in d.get("parents") or []),
        author_name=author.get("name"),
        author_date=author.get("date"),
        author_login=login,
        raw=d,
    )
