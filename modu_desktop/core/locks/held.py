"""Local record of the repository locks this app session holds (Qt-free).

Each session writes only its own file, ``{root}/{hash(session_id)}.locks.json`` (sealed JSON,
written atomically), so two running instances never overwrite each other's records. Each record
carries the pid, host name and (on Linux) the process start time of its writer. On the next start
:meth:`HeldLockRegistry.leftovers` lists the records whose process is gone (crash, kill, power
loss): the app then resumes or releases those locks and calls :meth:`HeldLockRegistry.forget`.
A record whose process is still running (another instance) is never reported as a leftover.

Liveness: POSIX ``os.kill(pid, 0)`` (plus ``/proc`` on Linux to spot zombies and reused pids);
Windows ``OpenProcess`` + ``GetExitCodeProcess`` through ctypes (``os.kill`` on Windows would
*terminate* the process). When liveness cannot be determined the answer is UNKNOWN, which
:meth:`~HeldLockRegistry.leftovers` treats as alive unless asked otherwise: releasing a live
instance's lock is worse than leaving a lock to go stale (900 s).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import logging
import os
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from modu_desktop.core.atomic import (
    FileProblem,
    is_temp_name,
    move_aside,
    read_sealed,
    seal,
    unlink_durably,
    write_atomic,
)

if TYPE_CHECKING:
    from modu_desktop.core.locks.model import HeldLock

log = logging.getLogger(__name__)

REGISTRY_KIND = "modu-held-locks"
REGISTRY_VERSION = 1
SUFFIX = ".locks.json"


class ProcessState(enum.Enum):
    ALIVE = "alive"
    DEAD = "dead"
    UNKNOWN = "unknown"


def _hostname() -> str:
    try:
        return socket.gethostname()
    except OSError:
        return ""


def process_start_token(pid: int) -> str | None:
    """An identity for a running process that changes when its pid is reused (Linux: start
    time in clock ticks since boot); None where unavailable."""
    stat = _proc_stat(pid)
    return stat[19] if stat is not None and len(stat) > 19 else None


def _proc_stat(pid: int) -> list[str] | None:
    """Fields of ``/proc/{pid}/stat`` after the command name (index 0 = state)."""
    if not sys.platform.startswith("linux") or pid <= 0:
        return None
    try:
        raw = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    _, sep, rest = raw.rpartition(")")
    return rest.split() if sep else None


def process_state(pid: int, start_token: str | None = None) -> ProcessState:
    """Whether process ``pid`` on this machine is running (and is the same process, when a
    ``start_token`` from :func:`process_start_token` is given)."""
    if pid <= 0:
        return ProcessState.UNKNOWN
    if sys.platform == "win32":
        return _windows_process_state(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return ProcessState.DEAD
    except PermissionError:
        pass  # exists, owned by someone else
    except OSError:
        return ProcessState.UNKNOWN
    stat = _proc_stat(pid)
    if stat is not None:
        if stat[0] in ("Z", "X"):
            return ProcessState.DEAD  # killed, not yet reaped by its parent
        if start_token is not None and len(stat) > 19 and stat[19] != start_token:
            return ProcessState.DEAD  # the pid now belongs to another process
    return ProcessState.ALIVE


if sys.platform == "win32":

    def _windows_process_state(pid: int) -> ProcessState:
        import ctypes
        from ctypes import wintypes

        query_limited_information = 0x1000
        still_active = 259
        error_access_denied, error_invalid_parameter = 5, 87
        try:
            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
            handle = kernel32.OpenProcess(query_limited_information, False, pid)
            if not handle:
                error = ctypes.get_last_error()
                if error == error_invalid_parameter:
                    return ProcessState.DEAD
                if error == error_access_denied:
                    return ProcessState.ALIVE
                return ProcessState.UNKNOWN
            try:
                code = wintypes.DWORD()
                if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
                    return ProcessState.UNKNOWN
                return ProcessState.ALIVE if code.value == still_active else ProcessState.DEAD
            finally:
                kernel32.CloseHandle(handle)
        except (OSError, AttributeError):
            return ProcessState.UNKNOWN

else:

    def _windows_process_state(pid: int) -> ProcessState:
        return ProcessState.UNKNOWN


@dataclass(frozen=True)
class HeldLockRecord:
    """A lock held in the repository by a session of this app. ``lock_sha`` is the blob sha
    of ``.locks/{doc_id}.lock.json`` after our last write (needed to release it)."""

    api_host: str
    repo: str
    branch: str
    doc_id: str
    lock_sha: str | None
    session_id: str
    acquired_at: float
    pid: int = field(default_factory=os.getpid)
    hostname: str = field(default_factory=_hostname)
    proc_start: str | None = field(default_factory=lambda: process_start_token(os.getpid()))
    login: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "api_host", self.api_host.rstrip("/"))

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.api_host, self.repo, self.branch, self.doc_id)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, value: Any) -> HeldLockRecord:
        if not isinstance(value, dict):
            raise ValueError("record is not an object")
        for name in ("api_host", "repo", "branch", "doc_id", "session_id", "hostname"):
            if not isinstance(value.get(name), str):
                raise ValueError(f"{name} must be a string")
        for name in ("lock_sha", "proc_start", "login"):
            if value.get(name) is not None and not isinstance(value.get(name), str):
                raise ValueError(f"{name} must be a string or null")
        pid, acquired = value.get("pid"), value.get("acquired_at")
        if not isinstance(pid, int) or isinstance(pid, bool):
            raise ValueError("pid must be an integer")
        if not isinstance(acquired, int | float) or isinstance(acquired, bool):
            raise ValueError("acquired_at must be a number")
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in value.items() if k in names})


Liveness = Callable[[HeldLockRecord], ProcessState]


def record_liveness(record: HeldLockRecord) -> ProcessState:
    """Default liveness: the writer's process, if it ran on this machine."""
    if record.hostname != _hostname():
        return ProcessState.UNKNOWN
    return process_state(record.pid, record.proc_start)


class HeldLockRegistry:
    """Held-lock records under the directory ``root`` (one file per session)."""

    def __init__(
        self,
        root: str | Path,
        *,
        liveness: Liveness = record_liveness,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.root = Path(root)
        self.liveness = liveness
        self.clock = clock
        self.problems: list[FileProblem] = []
        self._lock = threading.RLock()

    # -- this session's records ----------------------------------------------------------------

    def add(self, record: HeldLockRecord) -> None:
        """Record (or replace) a held lock; durable when this returns. Call right after the
        acquire succeeded (and before the first edit)."""
        with self._lock:
            records = self._read_session(record.session_id)
            keys = [r.key for r in records]
            if record.key in keys:
                records[keys.index(record.key)] = record
            else:
                records.append(record)
            self._write_session(record.session_id, records)

    def update_sha(
        self, session_id: str, api_host: str, repo: str, branch: str, doc_id: str, lock_sha: str
    ) -> bool:
        """Store the lock file's new sha after a heartbeat; False if not recorded."""
        key = (api_host.rstrip("/"), repo, branch, doc_id)
        with self._lock:
            records = self._read_session(session_id)
            found = [r for r in records if r.key == key]
            if not found:
                return False
            updated = [
                dataclasses.replace(r, lock_sha=lock_sha) if r.key == key else r for r in records
            ]
            self._write_session(session_id, updated)
            return True

    def remove(self, session_id: str, api_host: str, repo: str, branch: str, doc_id: str) -> bool:
        """Forget a lock after it was released (or lost to another editor)."""
        key = (api_host.rstrip("/"), repo, branch, doc_id)
        with self._lock:
            records = self._read_session(session_id)
            kept = [r for r in records if r.key != key]
            if len(kept) == len(records):
                return False
            self._write_session(session_id, kept)
            return True

    def forget(self, record: HeldLockRecord) -> bool:
        """Remove a (leftover) record once its lock was released or adopted."""
        return self.remove(record.session_id, *record.key)

    def adopt(self, record: HeldLockRecord, session_id: str) -> HeldLockRecord:
        """Move a leftover record to the current session (the lock is being resumed)."""
        mine = dataclasses.replace(
            record,
            session_id=session_id,
            pid=os.getpid(),
            hostname=_hostname(),
            proc_start=process_start_token(os.getpid()),
        )
        with self._lock:
            self.add(mine)
            if record.session_id != session_id:
                self.forget(record)
        return mine

    # -- queries -----------------------------------------------------------------------------

    def records(self, session_id: str | None = None) -> list[HeldLockRecord]:
        """All records (of one session if given), oldest first."""
        with self._lock:
            if session_id is not None:
                found = self._read_session(session_id)
            else:
                found = [r for path in self._session_files() for r in self._read_file(path)]
        return sorted(found, key=lambda r: r.acquired_at)

    def leftovers(
        self, current_session_id: str, *, include_unknown: bool = False
    ) -> list[HeldLockRecord]:
        """Records of other sessions whose process is gone (crash or kill). Records of a live
        other instance are never included; UNKNOWN only with ``include_unknown``."""
        wanted = {ProcessState.DEAD} | ({ProcessState.UNKNOWN} if include_unknown else set())
        return [
            r
            for r in self.records()
            if r.session_id != current_session_id and self.liveness(r) in wanted
        ]

    def held_elsewhere(self, current_session_id: str) -> list[HeldLockRecord]:
        """Records of other sessions that are (or may be) still running."""
        return [
            r
            for r in self.records()
            if r.session_id != current_session_id and self.liveness(r) != ProcessState.DEAD
        ]

    # -- files -------------------------------------------------------------------------------

    def _path(self, session_id: str) -> Path:
        digest = hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        return self.root / f"{digest}{SUFFIX}"

    def _session_files(self) -> list[Path]:
        try:
            return sorted(
                p
                for p in self.root.iterdir()
                if p.name.endswith(SUFFIX) and not is_temp_name(p.name)
            )
        except FileNotFoundError:
            return []

    def _read_session(self, session_id: str) -> list[HeldLockRecord]:
        return [r for r in self._read_file(self._path(session_id)) if r.session_id == session_id]

    def _read_file(self, path: Path) -> list[HeldLockRecord]:
        body, problem = read_sealed(path, REGISTRY_KIND, REGISTRY_VERSION)
        if problem is None and body is not None:
            raw = body.get("records")
            try:
                if not isinstance(raw, list):
                    raise ValueError("records missing")
                return [HeldLockRecord.from_json(r) for r in raw]
            except (ValueError, TypeError) as exc:
                problem = f"invalid record ({exc})"
        if problem is not None:
            moved = move_aside(path, self.root / "broken")
            log.warning("damaged held-lock file %s: %s (kept as %s)", path, problem, moved)
            self.problems.append(FileProblem(path, problem, moved))
        return []

    def _write_session(self, session_id: str, records: list[HeldLockRecord]) -> None:
        path = self._path(session_id)
        if not records:
            unlink_durably(path)
            return
        body = {
            "session_id": session_id,
            "written_at": self.clock(),
            "records": [r.to_json() for r in records],
        }
        write_atomic(path, seal(REGISTRY_KIND, REGISTRY_VERSION, body))


class HeldLockRecorder:
    """A lock observer (``LockManager.observers``) that keeps a :class:`HeldLockRegistry` in
    step with the locks one session holds: recorded durably right after an acquire or take-over
    (before the first edit), its sha updated after each heartbeat, removed after the release or
    when the lock was lost. Registry I/O errors are logged, never raised: the lock itself
    matters more than its local record."""

    def __init__(
        self,
        registry: HeldLockRegistry,
        *,
        api_host: str,
        repo: str,
        branch: str,
        session_id: str,
        login: str,
    ) -> None:
        self.registry = registry
        self.api_host = api_host.rstrip("/")
        self.repo = repo
        self.branch = branch
        self.session_id = session_id
        self.login = login

    def _record(self, doc_id: str, lock_sha: str, started_at: float) -> None:
        try:
            self.registry.add(
                HeldLockRecord(
                    api_host=self.api_host,
                    repo=self.repo,
                    branch=self.branch,
                    doc_id=doc_id,
                    lock_sha=lock_sha,
                    session_id=self.session_id,
                    acquired_at=float(started_at),
                    login=self.login,
                )
            )
        except OSError:
            log.warning("could not record the lock on %s", doc_id, exc_info=True)

    # -- LockObserver --------------------------------------------------------------------------

    def lock_acquired(self, held: HeldLock) -> None:
        self._record(held.doc_id, held.sha, held.started_at)

    def lock_renewed(self, held: HeldLock) -> None:
        try:
            key = (self.api_host, self.repo, self.branch, held.doc_id)
            if not self.registry.update_sha(self.session_id, *key, held.sha):
                self._record(held.doc_id, held.sha, held.started_at)
        except OSError:
            log.warning("could not update the lock record of %s", held.doc_id, exc_info=True)

    def lock_gone(self, doc_id: str) -> None:
        try:
            self.registry.remove(self.session_id, self.api_host, self.repo, self.branch, doc_id)
        except OSError:
            log.warning("could not forget the lock on %s", doc_id, exc_info=True)


HELD_LOCKS_DIR = "held-locks"


def registry_for(data_dir: str | Path) -> HeldLockRegistry:
    """The held-lock records of every session of this app under ``data_dir``."""
    return HeldLockRegistry(Path(data_dir) / HELD_LOCKS_DIR)
