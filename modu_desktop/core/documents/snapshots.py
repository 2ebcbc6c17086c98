"""The last document list, kept on disk so the next start can show it at first paint.

One JSON file per (API host, repository, branch): the tree sha, every `DocSummary`, the lock
files' tree entries (their bytes are in the blob cache, by sha), the pictures under `docs/` and
`static/`, and who was signed in (login, push permission) so the window can be built before the
sign-in check answers. It is a cache: a missing, old or damaged file is simply no snapshot, and
what it shows is always marked as being checked until a fresh tree request confirms it.

Writes are atomic (temp file + rename, no fsync: a torn file fails to parse and is ignored).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from modu_desktop.core.atomic import write_cache_file

if TYPE_CHECKING:  # imported when decoding: the first paint reads the file without them
    from modu_desktop.core.documents.store import RepoSnapshot
    from modu_desktop.core.github.client import TreeEntry

__all__ = ["FORMAT", "Identity", "SnapshotFile", "identity_of", "list_file", "snapshot_file_for"]

log = logging.getLogger(__name__)

FORMAT = 3  # 3: the pictures under static/ too (2: drafts, titles from # 제목)
_DOC_FIELDS = (
    "doc_id",
    "path",
    "sha",
    "title",
    "nav_label",
    "position",
    "theme",
    "layout",
    "hide_title",
    "description",
    "front_id",
    "size",
    "draft",
)


@dataclass(frozen=True)
class Identity:
    """Who listed it last time: the window can open with this while the check runs."""

    login: str
    can_push: bool


def snapshot_file_for(directory: Path, api_url: str, repo: str, branch: str) -> SnapshotFile:
    key = hashlib.sha256(f"{api_url.rstrip('/')}\n{repo.lower()}\n{branch}".encode()).hexdigest()
    return SnapshotFile(directory / f"list-{key[:24]}.json", api_url, repo, branch)


class SnapshotFile:
    def __init__(self, path: Path, api_url: str, repo: str, branch: str) -> None:
        self.path = path
        self.api_url = api_url.rstrip("/")
        self.repo = repo
        self.branch = branch
        self.identity: Identity | None = None  # written with the next save

    def __repr__(self) -> str:
        return f"SnapshotFile({str(self.path)!r})"

    # ----------------------------------------------------------------- writing

    def encode(self, snap: RepoSnapshot) -> bytes:
        body: dict[str, Any] = {
            "format": FORMAT,
            "api_url": self.api_url,
            "repo": self.repo,
            "branch": self.branch,
            "tree_sha": snap.tree_sha,
            "fetched_at": snap.fetched_at,
            "walked": snap.walked,
            "incomplete": snap.incomplete,
            "docs": [
                {**{f: getattr(d, f) for f in _DOC_FIELDS}, "problems": list(d.problems)}
                for d in snap.docs
            ],
            "locks": {k: _entry_json(e) for k, e in snap.locks.items()},
            "images": [_entry_json(e) for e in snap.images],
        }
        if self.identity is not None:
            body["identity"] = {"login": self.identity.login, "can_push": self.identity.can_push}
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def save(self, snap: RepoSnapshot) -> None:
        data = self.encode(snap)
        write_cache_file(self.path, data)

    def forget(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()

    # ----------------------------------------------------------------- reading

    def load_raw(self) -> dict[str, Any] | None:
        """The file as JSON when it is this repository's and of this format (stdlib only: the
        start window reads it before the HTTP stack is imported)."""
        try:
            d = json.loads(self.path.read_bytes().decode("utf-8"))
        except (OSError, ValueError) as exc:
            if not isinstance(exc, FileNotFoundError):
                log.info("ignoring the saved document list %s: %s", self.path, exc)
            return None
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            return None
        if (d.get("api_url"), str(d.get("repo")).lower(), d.get("branch")) != (
            self.api_url,
            self.repo.lower(),
            self.branch,
        ):
            return None
        if not isinstance(d.get("docs"), list) or not isinstance(d.get("locks"), dict):
            return None
        return d

    def load(self) -> tuple[RepoSnapshot, Identity | None] | None:
        """The persisted list (marked `cached=True`) and who listed it, or None."""
        d = self.load_raw()
        if d is None:
            return None
        try:
            return self._decode(d)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            log.info("ignoring the saved document list %s: %s", self.path, exc)
            return None

    def _decode(self, d: dict[str, Any]) -> tuple[RepoSnapshot, Identity | None] | None:
        from modu_desktop.core.documents.store import DocSummary, RepoSnapshot

        docs = []
        for item in d["docs"]:
            fields = {f: item.get(f) for f in _DOC_FIELDS}
            fields["draft"] = item.get("draft") is True
            for required in ("doc_id", "path", "sha", "title"):
                if not isinstance(fields[required], str):
                    raise ValueError(f"document without {required}")
            docs.append(DocSummary(**fields, problems=tuple(str(p) for p in item["problems"])))
        locks = {str(k): _entry(v) for k, v in d["locks"].items()}
        images = tuple(_entry(v) for v in d.get("images", []))
        snap = RepoSnapshot(
            str(d["tree_sha"]),
            tuple(docs),
            locks,
            self.branch,
            float(d.get("fetched_at") or 0.0),
            False,
            bool(d.get("walked")),
            images,
            bool(d.get("incomplete")),
            cached=True,
        )
        return snap, identity_of(d)


def identity_of(d: dict[str, Any]) -> Identity | None:
    ident = d.get("identity")
    if isinstance(ident, dict) and isinstance(ident.get("login"), str):
        return Identity(ident["login"], bool(ident.get("can_push")))
    return None


def _entry_json(e: TreeEntry) -> dict[str, Any]:
    return {"path": e.path, "sha": e.sha, "mode": e.mode, "type": e.type, "size": e.size}


def _entry(v: dict[str, Any]) -> TreeEntry:
    from modu_desktop.core.github.client import TreeEntry

    if not isinstance(v.get("path"), str) or not isinstance(v.get("sha"), str):
        raise ValueError("tree entry without path or sha")
    size = v.get("size")
    return TreeEntry(
        v["path"], v["sha"], str(v.get("mode", "100644")), str(v.get("type", "blob")), size
    )


def list_file(
    cache_dir: Path, api_url: str, repo: str, branch: str, *, practice: bool = False
) -> SnapshotFile:
    """The list file of one repository: practice mode keys on "practice", since its local
    address may change between runs."""
    return snapshot_file_for(cache_dir / "lists", "practice" if practice else api_url, repo, branch)
