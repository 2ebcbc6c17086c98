"""Qt-free building blocks for "one running instance per user and data directory".

The UI owns the transport (``QLocalServer``/``QLocalSocket``); this module supplies the parts
that must not depend on Qt:

* :class:`InstanceLock` -- an exclusive OS file lock (``flock`` on POSIX, ``msvcrt.locking`` on
  Windows) held for the life of the process. The OS drops it when the process dies, even on
  SIGKILL or power loss, so there is no stale-lock cleanup and no pid guessing.
* :func:`server_name` -- a short local-socket name derived from the user and the data directory
  (two data dirs, e.g. ``--data-dir`` for tests, give two independent instances).
* :func:`encode_request` / :func:`decode_request` -- one JSON line per request (e.g.
  ``{"action": "open", "doc_id": ...}``), tolerant of garbage.

Typical start-up: ``lock = InstanceLock(data_dir / "instance.lock")``; if ``lock.acquire()``
listen on ``server_name(...)`` and keep ``lock`` alive; otherwise connect to
``lock.owner()["server"]`` (or ``server_name(...)``), send ``encode_request("open", ...)`` and exit.
"""

from __future__ import annotations

import contextlib
import getpass
import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from modu_desktop.core.atomic import dump_json, read_json_safely, unlink_durably, write_atomic

MAX_REQUEST_BYTES = 64 * 1024


def server_name(app: str, data_dir: str | Path) -> str:
    """A local server name unique per user and data directory (short: socket paths are limited
    to ~100 bytes on macOS/Linux)."""
    try:
        user = getpass.getuser()
    except (OSError, KeyError, ImportError):
        user = str(os.getuid()) if hasattr(os, "getuid") else "user"
    ident = f"{user}\0{Path(data_dir).expanduser().resolve()}"
    digest = hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{app}-{digest}"


def encode_request(action: str, **fields: Any) -> bytes:
    """One request line for the running instance."""
    return json.dumps({"action": action, **fields}, ensure_ascii=True).encode("ascii") + b"\n"


def decode_request(data: bytes) -> dict[str, Any] | None:
    """Parse a request line; None for anything malformed (never raises)."""
    if len(data) > MAX_REQUEST_BYTES:
        return None
    try:
        value = json.loads(data.decode("utf-8").strip())
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or not isinstance(value.get("action"), str):
        return None
    return value


class InstanceLock:
    """Non-blocking exclusive lock on ``path``; details of the owner go to ``path + '.json'``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.info_path = self.path.with_name(self.path.name + ".json")
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self, **info: Any) -> bool:
        """Take the lock if free; True when this process now holds it. ``info`` (e.g.
        ``server=server_name(...)``) is published with the pid for the other instances."""
        if self._fd is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        if not _try_lock(fd):
            os.close(fd)
            return False
        self._fd = fd
        write_atomic(self.info_path, dump_json({"pid": os.getpid(), "since": time.time(), **info}))
        return True

    def owner(self) -> dict[str, Any] | None:
        """What the holder published (pid, server, ...), or None."""
        value, _problem = read_json_safely(self.info_path)
        return value if isinstance(value, dict) else None

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            unlink_durably(self.info_path)
        _unlock(self._fd)
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> InstanceLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
