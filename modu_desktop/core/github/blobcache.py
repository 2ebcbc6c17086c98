"""Content-addressed on-disk cache of git blobs, keyed by the git blob sha.

A blob addressed by its sha never changes, so entries live forever. Writes are atomic
(temp file + rename, no fsync); reads re-hash the bytes and discard a corrupt file.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import tempfile
import time
from pathlib import Path

from modu_desktop.core.atomic import git_blob_sha

__all__ = ["BlobCache", "git_blob_sha"]

log = logging.getLogger(__name__)

_SHA_RE = re.compile(r"^[0-9a-f]{40}$")


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
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        try:
            # No fsync: this is a cache. A file torn by a power cut fails the sha check on read
            # and is fetched again, while an fsync per blob stalled the event loop for 50-300 ms
            # on a busy disk (bench stall probe, 1,000 documents).
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        return actual

    def prune(self, keep: set[str]) -> int:
        """Delete every entry (and stray temp file) whose sha is not in `keep`; returns the
        number of files removed. Safe to call while other code reads the cache."""
        keep = {k.lower() for k in keep}
        removed = 0
        if not self.dir.is_dir():
            return 0
        for sub in self.dir.iterdir():
            if not sub.is_dir() or len(sub.name) != 2:
                continue
            for f in sub.iterdir():
                if f.name.startswith(".tmp-"):
                    # Another writer may be busy with a fresh temp file: only old leftovers.
                    with contextlib.suppress(OSError):
                        if time.time() - f.stat().st_mtime > 600:
                            f.unlink()
                            removed += 1
                    continue
                if (sub.name + f.name) not in keep:
                    with contextlib.suppress(OSError):
                        f.unlink()
                        removed += 1
        return removed

    def discard(self, sha: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._path(sha).unlink()
