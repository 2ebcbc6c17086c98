"""The lock file on the wire, exactly as the web admin writes it (Qt-free):
``.locks/{docId}.lock.json``, 2-space JSON without a trailing newline, Unix seconds, its key
orders and commit messages; parsing is forgiving (an unreadable lock is a ``LockRecord`` with
``malformed`` set).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from modu_desktop.core.text import Text

LOCK_DIR = ".locks"
LOCK_SUFFIX = ".lock.json"
UNKNOWN_HOLDER = "unknown"

# Keys in the order the web admin writes them.
ACQUIRE_KEY_ORDER = ("docId", "editingBy", "startedAt", "lastHeartbeat")

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
    """A docId that could escape ``.locks/`` or ``docs/`` or is not a plain relative name.

    ``str(exc)`` names the technical rule; ``reason`` is the plain one for staff."""

    def __init__(self, message: str, reason: Text | None = None) -> None:
        super().__init__(message)
        self.reason = reason if reason is not None else Text("please use another name")

    def user_text(self) -> Text:
        return Text("That document name cannot be used: {reason}.", reason=self.reason)

    def user_message(self) -> str:
        """One plain sentence for staff, in the current language."""
        return self.user_text()()


_DRIVE = re.compile(r"^[A-Za-z]:")


def validate_doc_id(doc_id: object) -> str:
    """Return ``doc_id`` unchanged if it is a safe relative docId, else raise InvalidDocId.

    Hangul, spaces and other Unicode letters are fine (the client URL-encodes them); traversal,
    absolute paths, backslashes, empty segments and control characters are not.
    """
    if not isinstance(doc_id, str):
        raise InvalidDocId(
            f"docId must be text, not {type(doc_id).__name__}", Text("it is not text")
        )
    if not doc_id or not doc_id.strip():
        raise InvalidDocId("docId is empty", Text("it is empty"))
    if "\\" in doc_id:
        raise InvalidDocId(
            f"docId {doc_id!r} contains a backslash; use '/' between folders",
            Text("separate folders with '/', not a backslash (\\)"),
        )
    if doc_id.startswith("/") or _DRIVE.match(doc_id):
        raise InvalidDocId(
            f"docId {doc_id!r} is an absolute path; it must be relative to docs/",
            Text("it must be a name inside the docs/ folder"),
        )
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in doc_id):
        raise InvalidDocId(
            f"docId {doc_id!r} contains a control character",
            Text("it contains an invisible control character"),
        )
    for segment in doc_id.split("/"):
        if segment == "":
            raise InvalidDocId(
                f"docId {doc_id!r} has an empty path segment ('//' or a '/' at the end)",
                Text("it has '/' twice in a row or at the end"),
            )
        if segment in (".", ".."):
            raise InvalidDocId(
                f"docId {doc_id!r} contains a '{segment}' segment",
                Text("a part like '{segment}' cannot point to another folder", segment=segment),
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
