"""Who is editing from where: a per-window session id and a per-install id (Qt-free).

The lock file carries these as our own extra keys (the web admin ignores unknown keys), so that
the same login in two windows or on two machines can be told apart, and so that a lock left by a
crashed session on *this* machine can be recognised as our own leftover on the next start.

The lock files live in a repository that may be public, so they never name the machine: the
install id is random, made once and kept in the data folder (``install-id``).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from pathlib import Path

INSTALL_ID_FILE = "install-id"
_INSTALL_ID = re.compile(r"[0-9a-f]{16}")
_process_install_id: list[str] = []


def new_session_id() -> str:
    """A fresh random id for one editor window / process (16 hex digits)."""
    return secrets.token_hex(8)


def install_id(data_dir: str | Path | None = None) -> str:
    """This installation's random id (16 hex digits), read from ``data_dir/install-id`` or made
    there on first use. Without a data folder (or when it cannot be written) the id lives as
    long as the process. It says nothing about the machine or the person."""
    if data_dir is None:
        return _process_id()
    path = Path(data_dir) / INSTALL_ID_FILE
    for _ in range(2):
        found = _read_id(path)
        if found is not None:
            return found
        made = secrets.token_hex(8)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists():  # unreadable or damaged: replace it whole
                tmp = path.with_name(f"{INSTALL_ID_FILE}.{os.getpid()}.tmp")
                tmp.write_text(made, "ascii")
                os.replace(tmp, path)
                return made
            with open(path, "x", encoding="ascii") as f:  # never two ids from two processes
                f.write(made)
            return made
        except FileExistsError:
            continue  # another process made it just now: read theirs
        except OSError:
            break
    return _process_id()


def _read_id(path: Path) -> str | None:
    with contextlib.suppress(OSError, UnicodeDecodeError):
        text = path.read_text("ascii").strip()
        if _INSTALL_ID.fullmatch(text):
            return text
    return None


def _process_id() -> str:
    if not _process_install_id:
        _process_install_id.append(secrets.token_hex(8))
    return _process_install_id[0]
