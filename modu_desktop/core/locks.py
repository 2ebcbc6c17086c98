"""The PNU-Modu edit lock, interoperable with the web admin (Qt-free).

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

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from modu_desktop import __version__
from modu_desktop.core import github as gh
from modu_desktop.core.atomic import git_blob_sha

LOCK_DIR = ".locks"
LOCK_SUFFIX = ".lock.json"
UNKNOWN_HOLDER = "unknown"
DEFAULT_CLIENT_NAME = "ModuDesktop"

# Keys in the order the web admin writes them.
ACQUIRE_KEY_ORDER = ("docId", "editingBy", "startedAt", "lastHeartbeat")
HEARTBEAT_KEY_ORDER = ("docId", "editingBy", "lastHeartbeat", "startedAt")

# A lock timestamp in seconds has 10 digits until 2286; 13 digits means JavaScript milliseconds.
_MS_THRESHOLD = 100_000_000_000


def acquire_message(doc_id: str, login: str) -> str:
    return f"system: acquire lock for {doc_id} by @{login} [skip ci]"


def heartbeat_message(doc_id: str) -> str:
    return f"system: heartbeat for {doc_id} [skip ci]"


def release_message(doc_id: str) -> str:
    return f"system: release lock for {doc_id} [skip ci]"


# --------------------------------------------------------------------------------------------
# docId and paths


class InvalidDocId(ValueError):
    """A docId that could escape ``.locks/`` or ``docs/`` or is not a plain relative name."""

    def __init__(self, message: str, korean: str = "") -> None:
        super().__init__(message)
        self.korean = korean

    def user_message(self, lang: str = "en") -> str:
        """One plain sentence for staff (the English text names the technical rule)."""
        if lang == "ko":
            return f"문서 이름이 올바르지 않습니다: {self.korean or '다른 이름을 쓰세요'}."
        return f"That document name cannot be used: {self}."


_DRIVE = re.compile(r"^[A-Za-z]:")


def validate_doc_id(doc_id: object) -> str:
    """Return ``doc_id`` unchanged if it is a safe relative docId, else raise InvalidDocId.

    Hangul, spaces and other Unicode letters are fine (the client URL-encodes them); traversal,
    absolute paths, backslashes, empty segments and control characters are not.
    """
    if not isinstance(doc_id, str):
        raise InvalidDocId(f"docId must be text, not {type(doc_id).__name__}", "글자가 아닙니다")
    if not doc_id or not doc_id.strip():
        raise InvalidDocId("docId is empty", "비어 있습니다")
    if "\\" in doc_id:
        raise InvalidDocId(
            f"docId {doc_id!r} contains a backslash; use '/' between folders",
            "역슬래시(\\) 대신 '/'로 폴더를 나누세요",
        )
    if doc_id.startswith("/") or _DRIVE.match(doc_id):
        raise InvalidDocId(
            f"docId {doc_id!r} is an absolute path; it must be relative to docs/",
            "docs/ 폴더 안의 이름이어야 합니다",
        )
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in doc_id):
        raise InvalidDocId(
            f"docId {doc_id!r} contains a control character", "보이지 않는 제어 문자가 있습니다"
        )
    for segment in doc_id.split("/"):
        if segment == "":
            raise InvalidDocId(
                f"docId {doc_id!r} has an empty path segment ('//' or a '/' at the end)",
                "'/'가 겹치거나 끝에 있습니다",
            )
        if segment in (".", ".."):
            raise InvalidDocId(
                f"docId {doc_id!r} contains a '{segment}' segment",
                f"'{segment}' 같은 경로로 다른 폴더를 가리킬 수 없습니다",
            )
    return doc_id


def lock_path(doc_id: str) -> str:
    return f"{LOCK_DIR}/{validate_doc_id(doc_id)}{LOCK_SUFFIX}"


def doc_id_from_lock_path(path: str) -> str | None:
    """``.locks/a/b.lock.json`` -> ``a/b``; None for anything that is not a lock file."""
    prefix = LOCK_DIR + "/"
    if not path.startswith(prefix) or not path.endswith(LOCK_SUFFIX):
        return None
    doc_id = path[len(prefix) : -len(LOCK_SUFFIX)]
    return doc_id or None


# --------------------------------------------------------------------------------------------
# Records


@dataclass(frozen=True)
class LockRecord:
    """A parsed lock file. ``malformed`` holds the reason when it could not be trusted.

    A malformed record is held by ``"unknown"`` (``editing_by``); ``claimed_by`` keeps what the
    file said, if anything, for display. Timestamps are seconds (milliseconds are converted for
    display but still make the record malformed).
    """

    doc_id: str
    editing_by: str
    started_at: int | None
    last_heartbeat: int | None
    client: str | None = None
    client_version: str | None = None
    session_id: str | None = None
    host: str | None = None  # old locks only: the machine name (we no longer write it)
    install_id: str | None = None
    malformed: str | None = None
    claimed_by: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_malformed(self) -> bool:
        return self.malformed is not None


def _malformed(doc_id: str, reason: str, data: Mapping[str, Any] | None = None) -> LockRecord:
    data = data or {}
    claimed = data.get("editingBy")
    started = _loose_seconds(data.get("startedAt"))
    beat = _loose_seconds(data.get("lastHeartbeat"))
    return LockRecord(
        doc_id=doc_id,
        editing_by=UNKNOWN_HOLDER,
        started_at=started,
        last_heartbeat=beat if beat is not None else started,
        malformed=reason,
        claimed_by=claimed if isinstance(claimed, str) and claimed else None,
    )


def _loose_seconds(value: object) -> int | None:
    """Best-effort seconds for display of a malformed record."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = int(value)
    if number <= 0:
        return None
    return number // 1000 if number >= _MS_THRESHOLD else number


def _optional_str(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def parse_lock(raw: bytes | str, expected_doc_id: str) -> LockRecord:
    """Parse a lock file. Never raises: anything unusable gives a malformed record with a reason."""
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw.lstrip("\ufeff")
    except UnicodeDecodeError:
        return _malformed(expected_doc_id, "the lock file is not UTF-8 text")
    if not text.strip():
        return _malformed(expected_doc_id, "the lock file is empty")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return _malformed(expected_doc_id, f"the lock file is not valid JSON ({exc})")
    if not isinstance(data, dict):
        return _malformed(
            expected_doc_id, f"the lock file holds a JSON {type(data).__name__}, not an object"
        )
    missing = [key for key in ACQUIRE_KEY_ORDER if key not in data]
    if missing:
        return _malformed(expected_doc_id, "missing key(s): " + ", ".join(missing), data)
    doc_id = data["docId"]
    editing_by = data["editingBy"]
    if not isinstance(doc_id, str):
        return _malformed(expected_doc_id, f"docId is a {type(doc_id).__name__}, not text", data)
    if doc_id != expected_doc_id:
        return _malformed(
            expected_doc_id,
            f"docId {doc_id!r} does not match the file name ({expected_doc_id!r})",
            data,
        )
    if not isinstance(editing_by, str) or not editing_by.strip():
        return _malformed(expected_doc_id, "editingBy is not a login name", data)
    stamps: dict[str, int] = {}
    for key in ("startedAt", "lastHeartbeat"):
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int):
            return _malformed(
                expected_doc_id, f"{key} is a {type(value).__name__}, not whole seconds", data
            )
        if value >= _MS_THRESHOLD:
            return _malformed(
                expected_doc_id, f"{key} is in milliseconds ({value}), not Unix seconds", data
            )
        if value <= 0:
            return _malformed(expected_doc_id, f"{key} is not a valid time ({value})", data)
        stamps[key] = value
    known = set(ACQUIRE_KEY_ORDER) | {
        "client",
        "clientVersion",
        "sessionId",
        "installId",
        "host",
    }
    return LockRecord(
        doc_id=doc_id,
        editing_by=editing_by,
        started_at=stamps["startedAt"],
        last_heartbeat=stamps["lastHeartbeat"],
        client=_optional_str(data, "client"),
        client_version=_optional_str(data, "clientVersion"),
        session_id=_optional_str(data, "sessionId"),
        host=_optional_str(data, "host"),
        install_id=_optional_str(data, "installId"),
        extra={k: v for k, v in data.items() if k not in known},
    )


def render_lock(fields: Mapping[str, Any]) -> bytes:
    """``JSON.stringify(obj, null, 2)`` byte-for-byte: 2 spaces, no trailing newline, raw UTF-8."""
    return json.dumps(dict(fields), indent=2, ensure_ascii=False).encode("utf-8")


# --------------------------------------------------------------------------------------------
# Classification


class LockStatus(enum.Enum):
    FREE = "free"
    MINE_THIS_SESSION = "mine_this_session"
    MINE_OTHER_SESSION = "mine_other_session"
    HELD = "held"
    STALE = "stale"
    MALFORMED = "malformed"


def _fmt_time(ts: float | None) -> str:
    if ts is None:
        return "an unknown time"
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M UTC")


def format_age(seconds: float | None, lang: str = "en") -> str:
    """``90`` → "1 min" (or, with ``lang="ko"``, "1분")."""
    ko = lang == "ko"
    if seconds is None:
        return "알 수 없음" if ko else "unknown"
    sign = "-" if seconds < 0 else ""
    s = int(abs(seconds))
    if s < 60:
        return f"{sign}{s}초" if ko else f"{sign}{s} s"
    if s < 3600:
        return f"{sign}{s // 60}분" if ko else f"{sign}{s // 60} min"
    if s < 86400:
        h, m = s // 3600, s % 3600 // 60
        return f"{sign}{h}시간 {m}분" if ko else f"{sign}{h} h {m} min"
    d, h = s // 86400, s % 86400 // 3600
    return f"{sign}{d}일 {h}시간" if ko else f"{sign}{d} d {h} h"


@dataclass(frozen=True)
class LockView:
    """What is on the server for one document, classified from our point of view."""

    doc_id: str
    status: LockStatus
    sha: str | None
    record: LockRecord | None
    server_now: float
    stale_s: float
    same_install: bool = False  # the lock names this installation's id (this computer)

    @property
    def path(self) -> str:
        return f"{LOCK_DIR}/{self.doc_id}{LOCK_SUFFIX}"

    @property
    def holder(self) -> str | None:
        return None if self.record is None else self.record.editing_by

    @property
    def started_at(self) -> int | None:
        return None if self.record is None else self.record.started_at

    @property
    def last_heartbeat(self) -> int | None:
        return None if self.record is None else self.record.last_heartbeat

    @property
    def age_s(self) -> float | None:
        """Seconds since the last heartbeat, in server time (None if unknown)."""
        beat = self.last_heartbeat
        return None if beat is None else self.server_now - beat

    @property
    def is_stale(self) -> bool:
        age = self.age_s
        return age is not None and age >= self.stale_s

    @property
    def malformed_reason(self) -> str | None:
        return None if self.record is None else self.record.malformed

    def describe(self) -> str:
        """One plain English sentence for the UI or the CLI."""
        doc = self.doc_id
        rec = self.record
        if self.status is LockStatus.FREE or rec is None:
            return f"{doc} is not locked."
        since = _fmt_time(rec.started_at)
        beat = format_age(self.age_s)
        if self.status is LockStatus.MALFORMED:
            who = f" (it names @{rec.claimed_by})" if rec.claimed_by else ""
            return f"{doc} has an unreadable lock held by unknown{who}: {rec.malformed}."
        if self.status is LockStatus.MINE_THIS_SESSION:
            return f"You hold the lock on {doc} in this window since {since}."
        if self.status is LockStatus.MINE_OTHER_SESSION:
            where = _where(rec, self.same_install)
            return (
                f"You (@{rec.editing_by}) are already editing {doc} {where} since {since}; "
                f"last heartbeat {beat} ago."
            )
        if self.status is LockStatus.STALE:
            return (
                f"@{rec.editing_by}'s lock on {doc} is stale: no heartbeat for {beat} "
                f"(since {since})."
            )
        return f"@{rec.editing_by} is editing {doc} since {since}; last heartbeat {beat} ago."


def _where(rec: LockRecord, same_install: bool = False) -> str:
    if rec.session_id is None:
        return "in another window (the web admin or another app)"
    if same_install:
        return "in another window on this computer"
    if rec.install_id:
        return "on another computer"
    return "in another window"


def classify(
    doc_id: str,
    sha: str | None,
    record: LockRecord | None,
    *,
    login: str,
    session_id: str,
    server_now: float,
    stale_s: float,
    install_id: str | None = None,
) -> LockView:
    if record is None or sha is None:
        status = LockStatus.FREE
        record = None
    elif record.is_malformed:
        status = LockStatus.MALFORMED
    else:
        age = server_now - (record.last_heartbeat or 0)
        mine = record.editing_by.casefold() == login.casefold()  # GitHub logins ignore case
        if mine and record.session_id == session_id:
            status = LockStatus.MINE_THIS_SESSION
        elif age >= stale_s:
            status = LockStatus.STALE
        elif mine:
            status = LockStatus.MINE_OTHER_SESSION
        else:
            status = LockStatus.HELD
    same_install = bool(record and install_id and record.install_id == install_id)
    return LockView(doc_id, status, sha, record, server_now, stale_s, same_install)


# --------------------------------------------------------------------------------------------
# Results


@dataclass
class HeldLock:
    """A lock this session holds. ``sha`` is the blob sha we last wrote (mutated by heartbeats)."""

    doc_id: str
    sha: str
    started_at: int
    last_heartbeat: int
    misses: int = 0
    last_error: str | None = None

    @property
    def path(self) -> str:
        return f"{LOCK_DIR}/{self.doc_id}{LOCK_SUFFIX}"


class AcquireOutcome(enum.Enum):
    ACQUIRED = "acquired"  # created a new lock
    REUSED = "reused"  # it was already ours in this session
    TOOK_OVER = "took_over"  # replaced a stale / foreign / malformed lock with its seen sha
    BLOCKED = "blocked"  # someone (or we elsewhere) holds it: the UI must ask
    LOST_RACE = "lost_race"  # someone else wrote the lock between our read and our write
    FAILED = "failed"  # network / permission error; nothing changed as far as we know


@dataclass(frozen=True)
class AcquireResult:
    outcome: AcquireOutcome
    doc_id: str
    held: HeldLock | None = None
    view: LockView | None = None
    message: str = ""
    error: Exception | None = None

    @property
    def ok(self) -> bool:
        return self.held is not None


class HeartbeatOutcome(enum.Enum):
    OK = "ok"
    LOST = "lost"  # someone else holds it now
    RELEASED = "released"  # the lock file is gone
    MISSED = "missed"  # could not reach the server; still ours as far as we know


@dataclass(frozen=True)
class HeartbeatResult:
    outcome: HeartbeatOutcome
    held: HeldLock
    view: LockView | None = None
    misses: int = 0
    expires_in_s: float | None = None
    message: str = ""
    error: Exception | None = None

    @property
    def still_held(self) -> bool:
        return self.outcome in (HeartbeatOutcome.OK, HeartbeatOutcome.MISSED)


class ReleaseOutcome(enum.Enum):
    RELEASED = "released"
    ALREADY_GONE = "already_gone"
    NOT_OURS = "not_ours"  # someone else holds it now: left alone
    FAILED = "failed"


@dataclass(frozen=True)
class ReleaseResult:
    outcome: ReleaseOutcome
    doc_id: str
    view: LockView | None = None
    message: str = ""
    error: Exception | None = None


@dataclass(frozen=True)
class VerifyResult:
    ok: bool
    reason: str
    view: LockView | None = None
    retryable: bool = False


# --------------------------------------------------------------------------------------------
# Client adapter


class LockClient(Protocol):
    """The subset of ``GitHubClient`` the lock manager uses."""

    async def get_tree(self, ref: str, recursive: bool = True) -> Any: ...

    async def get_blob(self, sha: str) -> bytes: ...

    async def put_file(
        self, path: str, content: bytes, message: str, sha: str | None = None
    ) -> Any: ...

    async def delete_file(self, path: str, sha: str, message: str) -> Any: ...

    async def list_commits(
        self, path: str | None = None, sha: str | None = None, per_page: int = 30
    ) -> Any: ...

    async def get_commit(self, sha: str) -> Any: ...


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def tree_entries(tree: Any) -> tuple[list[tuple[str, str, str]], bool]:
    """(path, type, sha) triples and the truncated flag from a tree response (dict or object)."""
    raw = None
    for name in ("entries", "tree", "items"):
        raw = _get(tree, name)
        if raw is not None:
            break
    if raw is None and isinstance(tree, Iterable) and not isinstance(tree, str | bytes | Mapping):
        raw = tree
    out: list[tuple[str, str, str]] = []
    for entry in raw or ():
        path = _get(entry, "path")
        sha = _get(entry, "sha")
        kind = _get(entry, "type", "blob")
        if isinstance(path, str) and isinstance(sha, str):
            out.append((path, str(kind), sha))
    return out, bool(_get(tree, "truncated", False))


def lock_shas_from_tree(entries: Iterable[tuple[str, str, str]]) -> dict[str, str]:
    """docId -> blob sha for every lock file in a (recursive) tree listing."""
    found: dict[str, str] = {}
    for path, kind, sha in entries:
        if kind != "blob":
            continue
        doc_id = doc_id_from_lock_path(path)
        if doc_id is not None:
            found[doc_id] = sha
    return found


def _written_sha(result: Any, content: bytes) -> str:
    sha = _get(result, "content_sha")
    if not isinstance(sha, str) or not sha:
        content_obj = _get(result, "content")
        sha = _get(content_obj, "sha") if content_obj is not None else None
    return sha if isinstance(sha, str) and sha else git_blob_sha(content)


def _err_text(exc: BaseException) -> str:
    um = getattr(exc, "user_message", None)
    if callable(um):
        try:
            text = um("en")
            if isinstance(text, str) and text:
                return text
        except Exception:  # pragma: no cover - defensive
            pass
    return str(exc) or type(exc).__name__


def _is_conflict(exc: BaseException) -> bool:
    """409 (sha does not match) or 422 "sha wasn't supplied" (the file exists): the lock
    changed under us. Not a 422 validation error, not an unclear write."""
    return isinstance(exc, gh.Conflict) and not isinstance(
        exc, gh.RepositoryEmpty | gh.WriteUncertain
    )


def _is_not_found(exc: BaseException) -> bool:
    return isinstance(exc, gh.NotFound) or getattr(exc, "status", None) == 404


def _server_now_of(clock: Any) -> Callable[[], float]:
    if hasattr(clock, "now") and callable(clock.now):
        return lambda: float(clock.now())
    if callable(clock):
        return lambda: float(clock())
    raise TypeError("clock must be a ServerClock (with now()) or a callable returning seconds")


# --------------------------------------------------------------------------------------------
# The manager


class LockManager:
    """Acquire, heartbeat, steal, release and verify document locks for one login + session."""

    def __init__(
        self,
        client: LockClient,
        login: str,
        session_id: str,
        clock: Any,
        *,
        heartbeat_s: float = 300,
        stale_s: float = 900,
        client_name: str = DEFAULT_CLIENT_NAME,
        client_version: str = __version__,
        install_id: str | None = None,
        branch: str | None = None,
        host: str | None = None,  # the old name of install_id (callers written before it)
        blob_concurrency: int = 4,
    ) -> None:
        if not login:
            raise ValueError("login is required")
        self.client = client
        self.login = login
        self.session_id = session_id
        self._clock = clock
        self._now = _server_now_of(clock)
        self.heartbeat_s = heartbeat_s
        self.stale_s = stale_s
        self.client_name = client_name
        self.client_version = client_version
        if install_id is None:
            install_id = host
        if install_id is None:
            from modu_desktop.core.session import install_id as process_install_id

            install_id = process_install_id()  # random; never the machine's name
        self.install_id = install_id
        self.branch = branch or _branch_of(client) or "main"
        self._blob_cache: dict[str, bytes] = {}
        self.blob_concurrency = max(1, blob_concurrency)
        # The document store's disk cache (``core.blobcache.BlobCache``), where a listing puts
        # the lock files it read: a lock blob found there costs no request (it is verified by
        # sha on read, so it cannot be stale: a changed lock has another sha).
        self.blob_cache: Any = None

    # -- time --------------------------------------------------------------------------------

    def server_now(self) -> float:
        return self._now()

    def _stamp(self) -> int:
        return int(self._now())

    # -- reading -----------------------------------------------------------------------------

    def _known_blob(self, sha: str) -> bytes | None:
        cached = self._blob_cache.get(sha)
        if cached is None and self.blob_cache is not None:
            with contextlib.suppress(Exception):
                cached = self.blob_cache.get(sha)
        return cached

    def cached_view(self, doc_id: str, sha: str | None) -> LockView | None:
        """The lock with blob ``sha`` classified from what is already here (no request), or
        None when its bytes are not cached. Its ``server_now`` is now: the age is current even
        when the listing that named ``sha`` is not."""
        if sha is None:
            return self._classify(doc_id, None, None)
        data = self._known_blob(sha)
        return None if data is None else self._classify(doc_id, sha, parse_lock(data, doc_id))

    async def _blob(self, sha: str, sem: asyncio.Semaphore | None = None) -> bytes:
        cached = self._known_blob(sha)
        if cached is not None:
            return cached
        if sem is None:
            data = await self.client.get_blob(sha)
        else:
            async with sem:
                data = await self.client.get_blob(sha)
        if isinstance(data, str):
            data = data.encode("utf-8")
        if len(self._blob_cache) > 512:
            self._blob_cache.clear()
        self._blob_cache[sha] = bytes(data)
        return bytes(data)

    async def read_lock_shas(self) -> dict[str, str]:
        """docId -> sha of every lock on the branch (one tree request unless truncated)."""
        tree = await self.client.get_tree(self.branch, recursive=True)
        entries, truncated = tree_entries(tree)
        if truncated:
            entries = await self._walk(self.branch, LOCK_DIR)
        return lock_shas_from_tree(entries)

    async def _walk(self, ref: str, folder: str) -> list[tuple[str, str, str]]:
        """List ``folder`` recursively without a recursive tree of the whole branch."""
        entries, _ = tree_entries(await self.client.get_tree(ref, recursive=False))
        sha = next((s for p, k, s in entries if p == folder and k == "tree"), None)
        if sha is None:
            return []
        sub, truncated = tree_entries(await self.client.get_tree(sha, recursive=True))
        if not truncated:
            return [(f"{folder}/{p}", k, s) for p, k, s in sub]
        out: list[tuple[str, str, str]] = []
        pending = [(folder, sha)]
        while pending:
            prefix, tree_sha = pending.pop()
            level, _ = tree_entries(await self.client.get_tree(tree_sha, recursive=False))
            for p, k, s in level:
                full = f"{prefix}/{p}"
                if k == "tree":
                    pending.append((full, s))
                else:
                    out.append((full, k, s))
        return out

    async def _lock_sha(self, doc_id: str) -> str | None:
        return (await self.read_lock_shas()).get(doc_id)

    async def view_of(
        self, doc_id: str, sha: str | None, *, _sem: asyncio.Semaphore | None = None
    ) -> LockView:
        """Classify the lock with blob ``sha`` (None = no lock file) without reading the tree."""
        record = None if sha is None else parse_lock(await self._blob(sha, _sem), doc_id)
        return self._classify(doc_id, sha, record)

    def _classify(self, doc_id: str, sha: str | None, record: LockRecord | None) -> LockView:
        return classify(
            doc_id,
            sha,
            record,
            login=self.login,
            session_id=self.session_id,
            server_now=self.server_now(),
            stale_s=self.stale_s,
            install_id=self.install_id,
        )

    async def inspect(self, doc_id: str) -> LockView:
        """Read and classify the lock of ``doc_id``: tree + blob by sha (never Contents API)."""
        validate_doc_id(doc_id)
        return await self.view_of(doc_id, await self._lock_sha(doc_id))

    async def list_locks(self, shas: Mapping[str, str] | None = None) -> list[LockView]:
        """Every lock on the branch (or in ``shas``, e.g. a RepoSnapshot's), sorted by docId."""
        if shas is None:
            shas = await self.read_lock_shas()
        else:
            shas = {k: (_get(v, "sha") if not isinstance(v, str) else v) for k, v in shas.items()}
        items = sorted(shas.items())
        sem = asyncio.Semaphore(self.blob_concurrency)  # per call: never bound to an old loop
        views = await asyncio.gather(*(self.view_of(d, s, _sem=sem) for d, s in items))
        return list(views)

    # -- writing -----------------------------------------------------------------------------

    def _extras(self) -> dict[str, Any]:
        return {
            "client": self.client_name,
            "clientVersion": self.client_version,
            "sessionId": self.session_id,
            "installId": self.install_id,
        }

    def acquire_body(self, doc_id: str, now: int) -> bytes:
        return self._lock_body(doc_id, startedAt=now, lastHeartbeat=now)

    def heartbeat_body(self, doc_id: str, started_at: int, now: int) -> bytes:
        return self._lock_body(doc_id, lastHeartbeat=now, startedAt=started_at)

    def _lock_body(self, doc_id: str, **times: int) -> bytes:
        """The lock file: docId, editingBy, then ``times`` in the order given (acquire and
        heartbeat write them in different orders, as before), then this client's fields."""
        fields: dict[str, Any] = {"docId": doc_id, "editingBy": self.login, **times}
        fields.update(self._extras())
        return render_lock(fields)

    def _held_from_view(self, view: LockView) -> HeldLock:
        assert view.sha is not None and view.record is not None
        now = self._stamp()
        return HeldLock(
            view.doc_id,
            view.sha,
            view.record.started_at or now,
            view.record.last_heartbeat or now,
        )

    async def _write_lock(
        self, doc_id: str, sha: str | None
    ) -> tuple[HeldLock | None, Exception | None, bool]:
        """PUT an acquire body. Returns (held, error, conflict)."""
        now = self._stamp()
        body = self.acquire_body(doc_id, now)
        path = lock_path(doc_id)
        try:
            result = await self.client.put_file(
                path, body, acquire_message(doc_id, self.login), sha=sha
            )
        except Exception as exc:
            if _is_conflict(exc):
                return None, exc, True
            if _is_not_found(exc) or isinstance(exc, gh.BadCredentials | gh.PermissionDenied):
                return None, exc, False
            # Outcome unknown (timeout, reset, 5xx): the body is unique to us, so its blob sha
            # tells whether the write landed.
            try:
                current = await self._lock_sha(doc_id)
            except Exception:
                return None, exc, False
            if current == git_blob_sha(body):
                return HeldLock(doc_id, current, now, now), None, False
            return None, exc, False
        return HeldLock(doc_id, _written_sha(result, body), now, now), None, False

    async def _sync_clock(self, doc_id: str) -> AcquireResult | None:
        """Our timestamps are server time: before the first write, learn the clock offset from
        one cheap read. If that read fails, do not write a lock stamped with the local clock."""
        if getattr(self._clock, "synced", True) is not False:
            return None
        try:
            await self.read_lock_shas()
        except Exception as exc:
            return AcquireResult(
                AcquireOutcome.FAILED,
                doc_id,
                error=exc,
                message=f"Could not lock {doc_id}: {_err_text(exc)}",
            )
        return None

    async def acquire(self, doc_id: str, *, take_stale: bool = True) -> AcquireResult:
        """Create the lock (no sha). If one exists, classify it: reuse ours, take over a stale one
        (``take_stale``), otherwise return BLOCKED with the view so the UI can ask the user."""
        validate_doc_id(doc_id)
        unsynced = await self._sync_clock(doc_id)
        if unsynced is not None:
            return unsynced
        held, err, conflict = await self._write_lock(doc_id, None)
        if held is not None:
            return AcquireResult(
                AcquireOutcome.ACQUIRED, doc_id, held=held, message=f"You are now editing {doc_id}."
            )
        if not conflict:
            assert err is not None
            return AcquireResult(
                AcquireOutcome.FAILED,
                doc_id,
                error=err,
                message=f"Could not lock {doc_id}: {_err_text(err)}",
            )
        try:
            view = await self.inspect(doc_id)
        except Exception as exc:
            return AcquireResult(
                AcquireOutcome.FAILED,
                doc_id,
                error=exc,
                message=f"Could not read the lock of {doc_id}: {_err_text(exc)}",
            )
        if view.status is LockStatus.FREE:
            # Released between our write and our read: try once more, as a fresh create.
            held, err, conflict = await self._write_lock(doc_id, None)
            if held is not None:
                return AcquireResult(
                    AcquireOutcome.ACQUIRED,
                    doc_id,
                    held=held,
                    message=f"You are now editing {doc_id}.",
                )
            return AcquireResult(
                AcquireOutcome.LOST_RACE if conflict else AcquireOutcome.FAILED,
                doc_id,
                error=err,
                message=f"Someone else locked {doc_id} at the same moment."
                if conflict
                else f"Could not lock {doc_id}: {_err_text(err) if err else 'unknown error'}",
            )
        if view.status is LockStatus.MINE_THIS_SESSION:
            # Ours from earlier in this session (e.g. a release that failed): renew and reuse it.
            held = self._held_from_view(view)
            beat = await self.heartbeat(held)
            if beat.outcome in (HeartbeatOutcome.LOST, HeartbeatOutcome.RELEASED):
                return AcquireResult(
                    AcquireOutcome.LOST_RACE, doc_id, view=beat.view, message=beat.message
                )
            return AcquireResult(
                AcquireOutcome.REUSED,
                doc_id,
                held=held,
                view=view,
                message=f"You already hold the lock on {doc_id}.",
            )
        if view.status is LockStatus.STALE and take_stale:
            return await self.steal(view)
        return AcquireResult(AcquireOutcome.BLOCKED, doc_id, view=view, message=view.describe())

    async def steal(self, view: LockView) -> AcquireResult:
        """Take the lock over, sending the sha we saw.

        The user agreed to replace *the claim in* ``view`` (its holder, session and start), not
        one exact version of the file: if that claim only heartbeated meanwhile (409 on the old
        sha), re-read and take it over on the new sha; if it was released, create the lock.
        Only a *different* claim is news: then report who holds it now (never retry blindly)."""
        doc_id = validate_doc_id(view.doc_id)
        unsynced = await self._sync_clock(doc_id)
        if unsynced is not None:
            return unsynced
        seen = view
        for _ in range(_STEAL_ATTEMPTS):
            held, err, conflict = await self._write_lock(doc_id, seen.sha)
            if held is not None:
                if view.status is LockStatus.FREE:
                    return AcquireResult(
                        AcquireOutcome.ACQUIRED,
                        doc_id,
                        held=held,
                        message=f"You are now editing {doc_id}.",
                    )
                prev = view.holder or UNKNOWN_HOLDER
                return AcquireResult(
                    AcquireOutcome.TOOK_OVER,
                    doc_id,
                    held=held,
                    view=view,
                    message=f"You took over the lock on {doc_id} from @{prev}.",
                )
            if not conflict:
                assert err is not None
                return AcquireResult(
                    AcquireOutcome.FAILED,
                    doc_id,
                    view=view,
                    error=err,
                    message=f"Could not take over the lock on {doc_id}: {_err_text(err)}",
                )
            try:
                now_view: LockView | None = await self.inspect(doc_id)
            except Exception:
                now_view = None
            if now_view is not None and (
                now_view.status is LockStatus.FREE or _same_claim(view, now_view)
            ):
                seen = now_view  # the same holder heartbeated, or left: go on with the new sha
                continue
            return self._lost_steal(doc_id, now_view, err)
        return AcquireResult(
            AcquireOutcome.LOST_RACE,
            doc_id,
            view=seen,
            message=f"The lock on {doc_id} kept changing while you were taking it over.",
        )

    def _lost_steal(
        self, doc_id: str, now_view: LockView | None, err: Exception | None
    ) -> AcquireResult:
        rec = now_view.record if now_view is not None else None
        if rec is None:
            who = "someone else"
        elif now_view is not None and now_view.status is LockStatus.MINE_OTHER_SESSION:
            who = f"you (@{rec.editing_by}) {_where(rec, now_view.same_install)}"
        elif rec.is_malformed:
            who = f"@{rec.claimed_by}" if rec.claimed_by else "an unreadable lock"
        else:
            who = f"@{rec.editing_by}"
        return AcquireResult(
            AcquireOutcome.LOST_RACE,
            doc_id,
            view=now_view,
            error=err,
            message=f"Someone else took the lock on {doc_id} first ({who}).",
        )

    async def heartbeat(self, held: HeldLock) -> HeartbeatResult:
        """Exactly one conditional PUT with the sha we last wrote. On 409: re-read and report
        LOST (to whom, since when) or RELEASED. On network errors: count the miss."""
        sent = await self._put_heartbeat(held)
        if isinstance(sent, HeartbeatResult):
            return sent
        result, body, now = sent
        new_sha = _written_sha(result, body)
        recreated = _get(result, "created", False) is True
        if not recreated and _get(result, "recovered", False) is True:
            # The answer was lost and the client read the write back: a read-back cannot tell an
            # update from a re-creation, so ask the history whether our previous lock was there.
            try:
                recreated = not await self._continuous(held, new_sha)
            except Exception as exc:
                # Undecided: keep the old sha, so the next beat gets a 409 and decides then.
                return self._missed(held, exc)
        if recreated:
            # GitHub ignores a sha sent for a missing path and creates the file (201): the lock
            # had been released by someone. Undo our re-creation and report the release.
            with contextlib.suppress(Exception):
                await self.client.delete_file(held.path, new_sha, release_message(held.doc_id))
            return HeartbeatResult(
                HeartbeatOutcome.RELEASED,
                held,
                misses=held.misses,
                message=f"Your lock on {held.doc_id} was released by someone else; "
                "the document is read-only now.",
            )
        held.sha = new_sha
        held.last_heartbeat = now
        held.misses = 0
        held.last_error = None
        return HeartbeatResult(
            HeartbeatOutcome.OK,
            held,
            misses=0,
            expires_in_s=self.stale_s,
            message=f"Lock on {held.doc_id} renewed.",
        )

    async def _put_heartbeat(self, held: HeldLock) -> tuple[Any, bytes, int] | HeartbeatResult:
        """The conditional PUT of a fresh heartbeat body on ``held.sha``: (write result, body,
        stamp), or the outcome when it failed (409: re-read and classify; otherwise a miss)."""
        now = self._stamp()
        body = self.heartbeat_body(held.doc_id, held.started_at, now)
        try:
            result = await self.client.put_file(
                held.path, body, heartbeat_message(held.doc_id), sha=held.sha
            )
        except Exception as exc:
            if _is_conflict(exc):
                return await self._after_heartbeat_conflict(held, exc)
            return self._missed(held, exc)
        return result, body, now

    def _missed(self, held: HeldLock, exc: Exception) -> HeartbeatResult:
        held.misses += 1
        held.last_error = _err_text(exc)
        left = held.last_heartbeat + self.stale_s - self.server_now()
        if left > 0:
            minutes = max(1, int(left // 60 + (1 if left % 60 else 0)))
            when = f"in {minutes} minute{'s' if minutes != 1 else ''}"
            msg = (
                f"Could not renew the lock on {held.doc_id} ({held.misses} missed): it expires "
                f"{when} unless the connection comes back. ({held.last_error})"
            )
        else:
            msg = (
                f"Could not renew the lock on {held.doc_id} ({held.misses} missed): it has expired "
                f"and others may take it over. ({held.last_error})"
            )
        return HeartbeatResult(
            HeartbeatOutcome.MISSED,
            held,
            misses=held.misses,
            expires_in_s=left,
            message=msg,
            error=exc,
        )

    async def _after_heartbeat_conflict(self, held: HeldLock, exc: Exception) -> HeartbeatResult:
        try:
            view = await self.inspect(held.doc_id)
        except Exception as read_exc:
            return self._missed(held, read_exc)
        if view.status is LockStatus.MINE_THIS_SESSION:
            # Our session's body with another sha: an earlier write of ours landed although its
            # answer was lost. Adopt it only if that write *updated* our previous lock; if it
            # re-created a lock someone had taken or released meanwhile, we did lose it.
            assert view.sha is not None
            try:
                continuous = await self._continuous(held, view.sha)
            except Exception as hist_exc:
                return self._missed(held, hist_exc)
            if not continuous:
                with contextlib.suppress(Exception):
                    await self.client.delete_file(held.path, view.sha, release_message(held.doc_id))
                return HeartbeatResult(
                    HeartbeatOutcome.RELEASED,
                    held,
                    view=view,
                    misses=held.misses,
                    error=exc,
                    message=f"Your lock on {held.doc_id} was taken over or released by someone "
                    "else while the connection was failing; the document is read-only now.",
                )
            held.sha = view.sha
            if view.record is not None and view.record.last_heartbeat:
                held.last_heartbeat = view.record.last_heartbeat
            sent = await self._put_heartbeat(held)
            if isinstance(sent, HeartbeatResult):
                return sent
            result, body, now = sent
            held.sha = _written_sha(result, body)
            held.last_heartbeat = now
            held.misses = 0
            return HeartbeatResult(
                HeartbeatOutcome.OK,
                held,
                view=view,
                expires_in_s=self.stale_s,
                message=f"Lock on {held.doc_id} renewed.",
            )
        if view.status is LockStatus.FREE:
            return HeartbeatResult(
                HeartbeatOutcome.RELEASED,
                held,
                view=view,
                misses=held.misses,
                error=exc,
                message=f"Your lock on {held.doc_id} was released by someone else; "
                "the document is read-only now.",
            )
        rec = view.record
        if view.status is LockStatus.MALFORMED or rec is None:
            who = "unknown"
        elif view.status is LockStatus.MINE_OTHER_SESSION or (
            rec.editing_by.casefold() == self.login.casefold()
        ):
            who = f"you (@{rec.editing_by}) {_where(rec, view.same_install)}"
        else:
            who = f"@{rec.editing_by}"
        since = _fmt_time(rec.started_at if rec else None)
        return HeartbeatResult(
            HeartbeatOutcome.LOST,
            held,
            view=view,
            misses=held.misses,
            error=exc,
            message=f"Your lock on {held.doc_id} was taken over by {who} at {since}; "
            "the document is read-only now.",
        )

    async def _continuous(self, held: HeldLock, current_sha: str) -> bool:
        """Was the lock blob ``current_sha`` (our session's) written over ``held.sha``? Reads the
        newest commit touching the lock and the lock in its parent commit (rare: only after a
        write whose answer was lost). Raises on network errors."""
        commits = await self.client.list_commits(path=held.path, sha=self.branch, per_page=1)
        if not commits:
            return False
        parents = _get(commits[0], "parents") or ()
        if not parents:
            return False
        parent = parents[0] if isinstance(parents[0], str) else _get(parents[0], "sha")
        commit = await self.client.get_commit(parent)
        tree_sha = _get(commit, "tree_sha")
        if not isinstance(tree_sha, str):
            return False
        entries, _ = tree_entries(await self.client.get_tree(tree_sha, recursive=True))
        before = next((sha for path, _k, sha in entries if path == held.path), None)
        return before == held.sha

    async def release(self, held: HeldLock, *, _again: bool = True) -> ReleaseResult:
        """DELETE with our sha. If the lock is someone else's now, leave it alone."""
        doc_id = held.doc_id
        try:
            await self.client.delete_file(held.path, held.sha, release_message(doc_id))
        except Exception as exc:
            if _is_not_found(exc):
                return ReleaseResult(
                    ReleaseOutcome.ALREADY_GONE,
                    doc_id,
                    error=exc,
                    message=f"{doc_id} was not locked any more.",
                )
            try:
                view = await self.inspect(doc_id)
            except Exception:
                return ReleaseResult(
                    ReleaseOutcome.FAILED,
                    doc_id,
                    error=exc,
                    message=f"Could not release the lock on {doc_id}: {_err_text(exc)}",
                )
            if view.status is LockStatus.FREE:
                return ReleaseResult(
                    ReleaseOutcome.ALREADY_GONE if _is_conflict(exc) else ReleaseOutcome.RELEASED,
                    doc_id,
                    view=view,
                    message=f"The lock on {doc_id} is released.",
                )
            if view.status is LockStatus.MINE_THIS_SESSION and view.sha != held.sha and _again:
                # An earlier heartbeat of ours landed although its answer was lost.
                held.sha = view.sha or held.sha
                return await self.release(held, _again=False)
            if view.status is LockStatus.MINE_THIS_SESSION:
                return ReleaseResult(
                    ReleaseOutcome.FAILED,
                    doc_id,
                    view=view,
                    error=exc,
                    message=f"Could not release the lock on {doc_id}: {_err_text(exc)}",
                )
            return ReleaseResult(
                ReleaseOutcome.NOT_OURS,
                doc_id,
                view=view,
                error=exc,
                message=f"The lock on {doc_id} is no longer yours ({view.describe()}); left alone.",
            )
        return ReleaseResult(
            ReleaseOutcome.RELEASED, doc_id, message=f"Released the lock on {doc_id}."
        )

    async def release_view(self, view: LockView) -> ReleaseResult:
        """Delete the lock exactly as seen in ``view`` (admin release, or cleaning up our own
        leftover from a crashed session). If it changed since, nothing is deleted."""
        doc_id = validate_doc_id(view.doc_id)
        if view.sha is None:
            return ReleaseResult(
                ReleaseOutcome.ALREADY_GONE, doc_id, view=view, message=f"{doc_id} is not locked."
            )
        try:
            await self.client.delete_file(view.path, view.sha, release_message(doc_id))
        except Exception as exc:
            if _is_not_found(exc):
                return ReleaseResult(
                    ReleaseOutcome.ALREADY_GONE,
                    doc_id,
                    view=view,
                    error=exc,
                    message=f"{doc_id} was not locked any more.",
                )
            if _is_conflict(exc):
                try:
                    now_view: LockView | None = await self.inspect(doc_id)
                except Exception:
                    now_view = None
                if now_view is not None and now_view.status is LockStatus.FREE:
                    return ReleaseResult(
                        ReleaseOutcome.ALREADY_GONE,
                        doc_id,
                        view=now_view,
                        message=f"{doc_id} was released meanwhile.",
                    )
                what = now_view.describe() if now_view is not None else "it changed"
                return ReleaseResult(
                    ReleaseOutcome.NOT_OURS,
                    doc_id,
                    view=now_view,
                    error=exc,
                    message=f"The lock on {doc_id} changed while releasing it ({what}); "
                    "nothing was deleted.",
                )
            return ReleaseResult(
                ReleaseOutcome.FAILED,
                doc_id,
                view=view,
                error=exc,
                message=f"Could not release the lock on {doc_id}: {_err_text(exc)}",
            )
        who = f" held by @{view.holder}" if view.holder else ""
        return ReleaseResult(
            ReleaseOutcome.RELEASED,
            doc_id,
            view=view,
            message=f"Released the lock on {doc_id}{who}.",
        )

    async def verify(self, held: HeldLock) -> VerifyResult:
        """Before a save: is the lock still ours? One tree request when it is unchanged."""
        try:
            sha = await self._lock_sha(held.doc_id)
        except Exception as exc:
            return VerifyResult(
                False,
                f"Could not check the lock on {held.doc_id}: {_err_text(exc)}",
                retryable=True,
            )
        if sha == held.sha:
            return VerifyResult(True, "The lock is still yours.")
        try:
            view = await self.view_of(held.doc_id, sha)
        except Exception as exc:
            return VerifyResult(
                False,
                f"Could not check the lock on {held.doc_id}: {_err_text(exc)}",
                retryable=True,
            )
        if view.status is LockStatus.MINE_THIS_SESSION and view.sha:
            try:
                continuous = await self._continuous(held, view.sha)
            except Exception as exc:
                return VerifyResult(
                    False,
                    f"Could not check the lock on {held.doc_id}: {_err_text(exc)}",
                    view=view,
                    retryable=True,
                )
            if continuous:
                held.sha = view.sha
                return VerifyResult(True, "The lock is still yours.", view=view)
            return VerifyResult(
                False,
                f"Not saved: your lock on {held.doc_id} was taken over or released by someone "
                "else while the connection was failing.",
                view=view,
            )
        if view.status is LockStatus.FREE:
            reason = f"Not saved: your lock on {held.doc_id} was released by someone else."
        elif view.status is LockStatus.MALFORMED:
            reason = f"Not saved: the lock on {held.doc_id} was replaced by an unreadable one."
        else:
            rec = view.record
            who = f"@{rec.editing_by}" if rec else "someone else"
            if rec and view.status is LockStatus.MINE_OTHER_SESSION:
                who = f"you (@{rec.editing_by}) {_where(rec, view.same_install)}"
            reason = (
                f"Not saved: your lock on {held.doc_id} was taken over by {who} at "
                f"{_fmt_time(rec.started_at if rec else None)}."
            )
        return VerifyResult(False, reason, view=view)


_STEAL_ATTEMPTS = 4  # a live holder heartbeats every few minutes: a 4th 409 in a row is odd


def _same_claim(agreed: LockView, now: LockView) -> bool:
    """Whether ``now`` is still the claim the user agreed to replace: same holder, same session
    and same start (a heartbeat changes only ``lastHeartbeat``; the web admin keeps
    ``startedAt``, and has no session id, so its start tells its editing sessions apart)."""
    a, b = agreed.record, now.record
    if a is None or b is None or a.is_malformed or b.is_malformed:
        return False
    if now.status is LockStatus.MINE_THIS_SESSION:
        return False
    if agreed.status is LockStatus.STALE and not now.is_stale:
        return False  # taken over *because* it was dead, and it came back: ask the user
    return (
        a.editing_by.casefold() == b.editing_by.casefold()
        and a.session_id == b.session_id
        and a.started_at == b.started_at
    )


def _branch_of(client: Any) -> str | None:
    repo = getattr(client, "repo", None)
    branch = getattr(repo, "branch", None)
    return branch if isinstance(branch, str) and branch else None


def view_to_json(view: LockView) -> dict[str, Any]:
    """A JSON-ready description (used by ``locks list --json``)."""
    rec = view.record
    return {
        "docId": view.doc_id,
        "path": view.path,
        "status": view.status.value,
        "holder": view.holder,
        "startedAt": view.started_at,
        "lastHeartbeat": view.last_heartbeat,
        "ageSeconds": None if view.age_s is None else int(view.age_s),
        "stale": view.is_stale,
        "malformed": view.malformed_reason is not None,
        "malformedReason": view.malformed_reason,
        "claimedBy": rec.claimed_by if rec else None,
        "client": rec.client if rec else None,
        "sessionId": rec.session_id if rec else None,
        "installId": rec.install_id if rec else None,
        "host": rec.host if rec else None,  # old locks only
        "sha": view.sha,
    }


__all__ = [
    "ACQUIRE_KEY_ORDER",
    "HEARTBEAT_KEY_ORDER",
    "AcquireOutcome",
    "AcquireResult",
    "HeartbeatOutcome",
    "HeartbeatResult",
    "HeldLock",
    "InvalidDocId",
    "LockClient",
    "LockManager",
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
