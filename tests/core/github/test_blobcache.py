"""BlobCache: content addressing by git blob sha, atomic writes, verification on read."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest

from modu_desktop.core.github.blobcache import BlobCache, git_blob_sha


def test_git_blob_sha_matches_git() -> None:
    assert git_blob_sha(b"") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
    assert git_blob_sha(b"hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a"
    data = "한글\r\n".encode()
    assert git_blob_sha(data) == hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def test_git_blob_sha_matches_git_binary_if_available(tmp_path: Path) -> None:
    f = tmp_path / "x.md"
    f.write_bytes("\ufeff---\r\ntitle: 제목\r\n---\r\n".encode())
    try:
        out = subprocess.run(
            ["git", "hash-object", str(f)], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("git not available")
    assert git_blob_sha(f.read_bytes()) == out


def test_put_get_round_trip(tmp_path: Path) -> None:
    cache = BlobCache(tmp_path / "blobs")
    sha = cache.put(b"data")
    assert sha == git_blob_sha(b"data")
    assert cache.get(sha) == b"data"
    assert sha in cache
    assert cache.get("0" * 40) is None
    assert cache.get("not-a-sha") is None
    assert cache.put(b"data", sha) == sha  # idempotent
    assert (tmp_path / "blobs" / sha[:2] / sha[2:]).is_file()
    assert not list((tmp_path / "blobs").rglob(".tmp-*"))


def test_put_rejects_wrong_sha(tmp_path: Path) -> None:
    cache = BlobCache(tmp_path)
    with pytest.raises(ValueError):
        cache.put(b"data", "0" * 40)
    assert cache.get("0" * 40) is None


@pytest.mark.expect_log("modu_desktop.core.github.blobcache")
def test_corrupt_file_is_discarded_not_returned(tmp_path: Path) -> None:
    cache = BlobCache(tmp_path)
    sha = cache.put(b"original")
    path = tmp_path / sha[:2] / sha[2:]
    path.write_bytes(b"tampered")
    assert cache.get(sha) is None
    assert not path.exists()
    # A truncated file too.
    sha2 = cache.put(b"0123456789")
    (tmp_path / sha2[:2] / sha2[2:]).write_bytes(b"01234")
    assert cache.get(sha2) is None
    # And a re-put heals it.
    cache.put(b"0123456789")
    assert cache.get(sha2) == b"0123456789"


@pytest.mark.expect_log("modu_desktop.core.github.blobcache")
def test_put_over_corrupt_entry_rewrites_it(tmp_path: Path) -> None:
    cache = BlobCache(tmp_path)
    sha = cache.put(b"abc")
    (tmp_path / sha[:2] / sha[2:]).write_bytes(b"zzz")
    cache.put(b"abc")
    assert cache.get(sha) == b"abc"


def test_prune_keeps_only_wanted(tmp_path: Path) -> None:
    cache = BlobCache(tmp_path)
    a, b = cache.put(b"a"), cache.put(b"b")
    import os
    import time

    stray = tmp_path / a[:2] / ".tmp-stray"
    fresh = tmp_path / a[:2] / ".tmp-fresh"
    stray.write_bytes(b"x")
    fresh.write_bytes(b"y")
    os.utime(stray, (time.time() - 3600, time.time() - 3600))
    assert cache.prune({a}).removed == 2
    assert fresh.exists() and not stray.exists()
    assert cache.get(a) == b"a" and cache.get(b) is None
    assert BlobCache(tmp_path / "missing").prune(set()).removed == 0
