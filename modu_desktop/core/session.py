"""Who is editing from where: a per-window session id and a short host name (Qt-free).

The lock file carries these as our own extra keys (the web admin ignores unknown keys), so that
the same login in two windows or on two machines can be told apart, and so that a lock left by a
crashed session on *this* machine can be recognised as our own leftover on the next start.
"""

from __future__ import annotations

import re
import secrets
import socket

_HOST_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def new_session_id() -> str:
    """A fresh random id for one editor window / process (16 hex digits)."""
    return secrets.token_hex(8)


def host_name() -> str:
    """The short host name (no domain), restricted to safe characters; "unknown-host" if none."""
    try:
        raw = socket.gethostname()
    except OSError:
        raw = ""
    short = raw.split(".", 1)[0]
    cleaned = _HOST_SAFE.sub("-", short).strip("-")[:63]
    return cleaned or "unknown-host"
