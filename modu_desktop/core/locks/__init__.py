"""The PNU-Modu edit lock, interoperable with the web admin (Qt-free): ``wire`` (the lock file
and its commit messages), ``model`` (statuses, views, results), ``client`` (what it needs from
GitHub), ``manager`` (the protocol).

Wire contract: ``docs/lock-protocol.md``. In short: ``.locks/{docId}.lock.json``
on the content branch, 2-space JSON without a trailing newline, Unix *seconds*, the web admin's
key orders and commit messages, and every write carries the blob sha it last saw.

Where this module is deliberately better than the web admin:

* the lock is read through the git database (tree + blob by sha), never the Contents API cache;
* the same login in another window or on another machine is *not* taken over silently
  (``MINE_OTHER_SESSION``) - we tell them apart with our own ``sessionId`` key;
* staleness is judged in *server* time (the client's ``ServerClock``), and the timestamps we
  write are server-clock seconds, so a skewed local clock neither steals live locks nor keeps
  dead ones;
* a heartbeat is exactly one conditional PUT with the sha we last wrote; a 409 is explained
  ("lost to X at T" / "released"), network failures are counted ("expires in N minutes");
* ``verify`` lets the editor refuse a save once the lock is gone.

The manager only needs five client methods (see :class:`LockClient`); the real implementation is
``modu_desktop.core.github.GitHubClient``.
"""

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.locks.client import (
    LockClient,
    lock_shas_from_tree,
    tree_entries,
)
from modu_desktop.core.locks.manager import (
    DEFAULT_CLIENT_NAME,
    LockManager,
)
from modu_desktop.core.locks.model import (
    AcquireOutcome,
    AcquireResult,
    HeartbeatOutcome,
    HeartbeatResult,
    HeldLock,
    LockObserver,
    LockStatus,
    LockView,
    ReleaseOutcome,
    ReleaseResult,
    VerifyResult,
    classify,
    view_to_json,
)
from modu_desktop.core.locks.wire import (
    ACQUIRE_KEY_ORDER,
    HEARTBEAT_KEY_ORDER,
    LOCK_DIR,
    LOCK_SUFFIX,
    UNKNOWN_HOLDER,
    InvalidDocId,
    LockRecord,
    acquire_message,
    doc_id_from_lock_path,
    heartbeat_message,
    lock_path,
    parse_lock,
    release_message,
    render_lock,
    validate_doc_id,
)
from modu_desktop.core.lockwords import format_age

__all__ = [
    "ACQUIRE_KEY_ORDER",
    "DEFAULT_CLIENT_NAME",
    "HEARTBEAT_KEY_ORDER",
    "LOCK_DIR",
    "LOCK_SUFFIX",
    "UNKNOWN_HOLDER",
    "AcquireOutcome",
    "AcquireResult",
    "HeartbeatOutcome",
    "HeartbeatResult",
    "HeldLock",
    "InvalidDocId",
    "LockClient",
    "LockManager",
    "LockObserver",
    "LockRecord",
    "LockStatus",
    "LockView",
    "ReleaseOutcome",
    "ReleaseResult",
    "VerifyResult",
    "acquire_message",
    "classify",
    "doc_id_from_lock_path",
    "format_age",
    "git_blob_sha",
    "heartbeat_message",
    "lock_path",
    "lock_shas_from_tree",
    "parse_lock",
    "release_message",
    "render_lock",
    "tree_entries",
    "validate_doc_id",
    "view_to_json",
]
