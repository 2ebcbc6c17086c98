"""Content-addressed on-disk cache of git blobs, keyed by the git blob sha.

A blob addressed by its sha never changes, so an entry is never wrong, only perhaps no longer
wanted: `prune` keeps every blob the current tree uses and, of the rest (old versions read for
history, conflicts or a restore), only the newest within `CacheBounds` (age and total size).
Writes are atomic (temp file + rename, no fsync); reads re-hash the bytes and discard a corrupt
file.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from modu_desktop.core.atomic import CACHE_TEMP_PREFIX, git_blob_sha, write_cache_file

__all__ = ["BlobCache", "CacheBounds", "CacheUsage", "PruneReport", "git_blob_sha"]

log = logging.getLogger(__name__)

_SHA_RE = re.compile(r"^[0-9a-f]{40}$")
# A temp file older than this was left by a writer that died; a younger one may be in use.
_STRAY_TEMP_S = 600.0


@dataclass(frozen=True)
class CacheBounds:
    """What the cache keeps besides the blobs the current tree uses: blobs written less than
    ``max_age_s`` ago, newest first, while everything together stays within ``max_bytes``."""

    max_bytes: int = 128 * 1024 * 1024
    max_age_s: float = 30 * 86400.0


@dataclass(frozen=True)
class CacheUsage:
    """How much the cache holds: files, their bytes, and the disk space they take."""

    files: int = 0
    bytes: int = 0
    disk_bytes: int = 0


@dataclass(frozen=True)
class PruneReport:
    removed: int  # files deleted (stray temp files included)
    removed_bytes: int
    left: CacheUsage  # what stays


@dataclass(frozen=True)
class _Cached:
    sha: str
    path: Path
    size: int
    disk: int
    mtime: float


class BlobCache:
    """`get(sha) -> bytes | None`, `put(data) -> sha`; files at `dir/ab/cdef…`."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.dir = Path(directory)

    def __repr__(self) -> str:
        return f"BlobCache({str(self.dir)!r})"

    def _path(self, sha: str) -> Path:
        sha = sha.lower()
        if not _SHA_RE.match(sha):
            raise ValueError(f"not a git sha: {sha!r}")
        return self.dir / sha[:2] / sha[2:]

    def __contains__(self, sha: object) -> bool:
        return isinstance(sha, str) and self.get(sha) is not None

    def get(self, sha: str) -> bytes | None:
        """The bytes of blob `sha`, or None if absent or corrupt (a corrupt file is removed)."""
        try:
            path = self._path(sha)
        except ValueError:
            return None
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.warning("blob cache: cannot read %s: %s", path, exc)
            return None
        if git_blob_sha(data) != sha.lower():
            log.warning("blob cache: discarding corrupt entry %s", sha)
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        return data

    def put(self, data: bytes, sha: str | None = None) -> str:
        """Store `data`; returns its blob sha. If `sha` is given it must match the data."""
        actual = git_blob_sha(data)
        if sha is not None and sha.lower() != actual:
            raise ValueError(f"blob sha mismatch: expected {sha}, data hashes to {actual}")
        path = self._path(actual)
        if path.exists() and self.get(actual) is not None:
            return actual
        write_cache_file(path, data)  # a torn file fails the sha check on read: fetched again
        return actual

    def _scan(self, now: float) -> tuple[list[_Cached], int]:
        """Every cached blob, and how many stray temp files were removed on the way."""
        found: list[_Cached] = []
        strays = 0
        if not self.dir.is_dir():
            return found, strays
        for sub in self.dir.iterdir():
            if not sub.is_dir() or len(sub.name) != 2:
                continue
            for f in sub.iterdir():
                with contextlib.suppress(OSError):
                    st = f.stat()
                    if f.name.startswith(CACHE_TEMP_PREFIX):
                        if now - st.st_mtime > _STRAY_TEMP_S:
                            f.unlink()
                            strays += 1
                        continue
                    disk = getattr(st, "st_blocks", 0) * 512 or st.st_size
                    found.append(_Cached(sub.name + f.name, f, st.st_size, disk, st.st_mtime))
        return found, strays

    def usage(self) -> CacheUsage:
        found, _strays = self._scan(time.time())
        return CacheUsage(len(found), sum(c.size for c in found), sum(c.disk for c in found))

    def prune(
        self, keep: set[str], bounds: CacheBounds | None = None, *, now: float | None = None
    ) -> PruneReport:
        """Delete what is not wanted: every blob whose sha is not in ``keep`` (``bounds`` None),
        or of those, the ones older than ``bounds.max_age_s`` and, newest first, the ones past
        ``bounds.max_bytes`` for the whole cache. Stray temp files go too. ``now`` is the wall
        clock the files' times are compared with. Safe while other code reads and writes the
        cache (a blob pruned meanwhile is fetched again)."""
        now = time.time() if now is None else now
        keep = {k.lower() for k in keep}
        found, removed = self._scan(now)
        kept = [c for c in found if c.sha in keep]
        budget = (bounds.max_bytes if bounds else 0) - sum(c.size for c in kept)
        removed_bytes = 0
        for c in sorted((c for c in found if c.sha not in keep), key=lambda c: -c.mtime):
            young = bounds is not None and now - c.mtime <= bounds.max_age_s
            if young and c.size <= budget:
                budget -= c.size
                kept.append(c)
                continue
            try:
                c.path.unlink()
            except OSError:
                kept.append(c)
                continue
            removed += 1
            removed_bytes += c.size
        left = CacheUsage(len(kept), sum(c.size for c in kept), sum(c.disk for c in kept))
        return PruneReport(removed, removed_bytes, left)

    def discard(self, sha: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._path(sha).unlink()
