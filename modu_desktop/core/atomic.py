"""Atomic file writes and defensive JSON reads (Qt-free).

A file written with :func:`write_atomic` is either the complete old version or the complete new
version, never a mix: the bytes go to a temporary file in the same directory, are flushed and
fsynced, then ``os.replace`` moves the temporary file over the target and the directory is fsynced
(POSIX) so the rename itself survives power loss.

:func:`read_json_safely` never raises for a damaged file; it returns ``(value, None)`` or
``(None, problem)``. :func:`seal` / :func:`unseal` wrap a JSON body in an envelope with a kind,
a version and a SHA-256 of the canonical body, so garbage that happens to be valid JSON (or a
file of another kind) is detected too.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TEMP_PREFIX = "."
TEMP_SUFFIX = ".tmp"
_REPLACE_RETRIES = 5  # Windows: a reader holding the target open makes os.replace fail briefly

# Tests may set this to False to skip fsync (speed on a busy disk); atomicity is unchanged.
DURABLE = True


def temp_name_for(path: Path) -> Path:
    """A unique temporary sibling of ``path`` (same directory, so os.replace is a rename)."""
    return path.with_name(f"{TEMP_PREFIX}{path.name}.{uuid.uuid4().hex[:12]}{TEMP_SUFFIX}")


def is_temp_name(name: str) -> bool:
    """True for names produced by :func:`temp_name_for` (left behind by an interrupted write)."""
    return name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX)


def fsync_dir(directory: Path) -> None:
    """Make a rename/unlink in ``directory`` durable. No-op where unsupported (Windows)."""
    if sys.platform == "win32" or not DURABLE:
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems refuse fsync on directories; the rename is still atomic
    finally:
        os.close(fd)


def replace_durably(src: Path, dst: Path) -> None:
    """``os.replace(src, dst)`` (atomic), retried briefly on Windows sharing errors, then fsync."""
    for attempt in range(_REPLACE_RETRIES):
        try:
            os.replace(src, dst)
            break
        except PermissionError:
            if sys.platform != "win32" or attempt == _REPLACE_RETRIES - 1:
                raise
            time.sleep(0.02 * (attempt + 1))
    fsync_dir(dst.parent)
    if src.parent != dst.parent:
        fsync_dir(src.parent)


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically and durably; creates the parent directory."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_name_for(target)
    try:
        with open(tmp, "xb") as handle:
            handle.write(data)
            handle.flush()
            if DURABLE:
                os.fsync(handle.fileno())
        replace_durably(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


CACHE_TEMP_PREFIX = ".tmp-"  # a cache's half-written file; its pruning removes old ones


def write_cache_file(path: Path, data: bytes) -> None:
    """Write a cache file whole or not at all, without fsync: a file torn by a power cut is
    found out when read (its sha or version no longer match) and made again, while an fsync
    per file stalled the event loop for 50-300 ms on a busy disk (bench stall probe, 1,000
    documents). Creates the parent directory; raises OSError as writing does."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=CACHE_TEMP_PREFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def unlink_durably(path: Path) -> bool:
    """Remove ``path`` if present; True if something was removed."""
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    fsync_dir(path.parent)
    return True


def dump_json(value: Any) -> bytes:
    """Deterministic JSON bytes. ``ensure_ascii`` escapes every non-ASCII code point (even lone
    surrogates and NUL), so any Python ``str`` round-trips exactly."""
    return json.dumps(value, ensure_ascii=True, sort_keys=True, indent=1).encode("ascii") + b"\n"


def write_json_atomic(path: str | os.PathLike[str], value: Any) -> None:
    write_atomic(path, dump_json(value))


def parse_json_bytes(data: bytes) -> tuple[Any | None, str | None]:
    """Decode JSON bytes; ``(value, None)`` or ``(None, problem)``. Never raises."""
    if not data:
        return None, "empty file"
    if not data.strip():
        return None, "blank file"
    if b"\x00" in data:
        return None, "contains NUL bytes (garbage or a torn write)"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 ({exc.reason} at byte {exc.start})"
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
    except RecursionError:
        return None, "invalid JSON (nested too deeply)"


def read_json_safely(path: str | os.PathLike[str]) -> tuple[Any | None, str | None]:
    """Read a JSON file without ever raising.

    Returns ``(value, None)`` on success, ``(None, None)`` when the file does not exist and
    ``(None, problem)`` when it exists but cannot be read or parsed (empty, truncated, garbage).
    """
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return None, None
    except IsADirectoryError:
        return None, "is a directory"
    except OSError as exc:
        return None, f"cannot read ({exc.strerror or exc})"
    return parse_json_bytes(data)


# ---------------------------------------------------------------------------------------------
# Sealed envelopes: {"kind": ..., "version": n, "body": {...}, "sha256": hex}


def _body_digest(body: Any) -> str:
    canonical = json.dumps(body, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def seal(kind: str, version: int, body: dict[str, Any]) -> bytes:
    """Serialize ``body`` in a checksummed envelope (see :func:`unseal`)."""
    envelope = {"kind": kind, "version": version, "body": body, "sha256": _body_digest(body)}
    return dump_json(envelope)


def unseal(value: Any, kind: str, version: int) -> tuple[dict[str, Any] | None, str | None]:
    """Check an envelope parsed from JSON; ``(body, None)`` or ``(None, problem)``."""
    if not isinstance(value, dict):
        return None, "not a JSON object"
    if value.get("kind") != kind:
        return None, f"not a {kind} file (kind={value.get('kind')!r})"
    if value.get("version") != version:
        return None, f"unsupported {kind} version {value.get('version')!r}"
    body = value.get("body")
    if not isinstance(body, dict):
        return None, "body missing"
    if value.get("sha256") != _body_digest(body):
        return None, "checksum mismatch (damaged file)"
    return body, None


def read_sealed(path: Path, kind: str, version: int) -> tuple[dict[str, Any] | None, str | None]:
    """Read and check a sealed file; ``(None, None)`` if it does not exist."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"cannot read ({exc.strerror or exc})"
    value, problem = parse_json_bytes(data)
    if problem is not None:
        return None, problem
    return unseal(value, kind, version)


@dataclass(frozen=True)
class FileProblem:
    """A damaged file found while scanning; ``moved_to`` is where it was kept (None if it
    could not be moved)."""

    path: Path
    problem: str
    moved_to: Path | None = None


def move_aside(path: Path, dest_dir: Path | None = None, *, suffix: str = ".broken") -> Path | None:
    """Rename a damaged file out of the way (never delete it). Returns the new path, or None if
    the file vanished or could not be moved."""
    directory = dest_dir if dest_dir is not None else path.parent
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    target = directory / f"{path.name}.{stamp}-{uuid.uuid4().hex[:6]}{suffix}"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        replace_durably(path, target)
    except OSError:
        return None
    return target


def git_blob_sha(data: bytes) -> str:
    """The git blob id of ``data`` (what the GitHub API reports as a file's ``sha``):
    sha1(b"blob <len>\\0" + data), hashed without copying ``data``. The one implementation;
    ``core.blobcache`` and ``core.locks`` re-export it."""
    h = hashlib.sha1(usedforsecurity=False)
    h.update(b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest()
