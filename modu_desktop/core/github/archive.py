"""Read the files we want out of a repository archive (`GET tarball/{ref}`, notes §11), trusting
nothing: a file is kept only when its git blob sha equals the sha the tree listed for its path.

The archive has one top folder (`{owner}-{repo}-{short sha}/`) and, like `git archive`, a pax
global header whose `comment` is the commit sha. The tree and the archive are two requests, so the
branch may have moved in between: any file that is missing or different is simply not returned,
and the caller reads it by blob sha as before. Symlinks, folders and anything outside the wanted
paths are skipped; members are never written to disk.
"""

from __future__ import annotations

import io
import tarfile
from collections.abc import Mapping
from dataclasses import dataclass, field

from modu_desktop.core.atomic import git_blob_sha

__all__ = ["ArchiveFiles", "read_archive"]


@dataclass
class ArchiveFiles:
    blobs: dict[str, bytes] = field(default_factory=dict)  # blob sha → bytes (verified)
    commit_sha: str | None = None  # from the pax header, when present
    top: str | None = None  # the top folder's name
    mismatched: list[str] = field(default_factory=list)  # wanted paths whose bytes differ
    members: int = 0


def read_archive(data: bytes, wanted: Mapping[str, str]) -> ArchiveFiles:
    """`wanted`: path in the repository → the blob sha the tree lists. Returns the verified
    blobs; never raises for a damaged archive (what was read before the damage is kept)."""
    out = ArchiveFiles()
    try:
        tar = tarfile.open(fileobj=io.BytesIO(data), mode="r:*")  # noqa: SIM115 - closed below
    except (tarfile.TarError, OSError, EOFError):
        return out
    with tar:
        comment = tar.pax_headers.get("comment") if tar.pax_headers else None
        if isinstance(comment, str) and len(comment) == 40:
            out.commit_sha = comment.lower()
        try:
            for member in tar:
                out.members += 1
                top, _, rel = member.name.partition("/")
                if out.top is None:
                    out.top = top
                elif top != out.top:
                    continue  # not the archive's one folder: never trusted
                if not member.isfile() or rel not in wanted:
                    continue
                fh = tar.extractfile(member)
                if fh is None:
                    continue
                blob = fh.read()
                sha = wanted[rel].lower()
                if git_blob_sha(blob) == sha:
                    out.blobs[sha] = blob
                else:
                    out.mismatched.append(rel)
        except (tarfile.TarError, OSError, EOFError):
            pass
    return out
