"""Durable local drafts of unsaved edits (Qt-free).

One file per document: ``{root}/{hash}.draft.json`` where ``hash`` is a SHA-256 of the full key
(API host, repository, branch, docId). The real key lives inside the file, so a docId with
``/``, ``..``, spaces or Hangul can never name a path outside ``root``. Files are sealed
(checksummed envelope, see :mod:`modu_desktop.core.atomic`) and written atomically; a damaged
file is renamed to ``*.broken`` (kept, never deleted) and reported, and never hides the others.

:class:`DraftJournal` coalesces keystrokes: the UI calls :meth:`DraftJournal.note_edit` on every
change and :meth:`DraftJournal.tick` from a timer (a ``QTimer`` every ~250 ms, or an asyncio
task); a draft is written at most ``max_latency_s`` (2 s) after the first unsaved keystroke and
``idle_s`` after the last one, whichever comes first, never on every keystroke.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from modu_desktop.core.atomic import (
    FileProblem,
    is_temp_name,
    move_aside,
    read_sealed,
    seal,
    unlink_durably,
    write_atomic,
)

log = logging.getLogger(__name__)

__all__ = ["Draft", "DraftJournal", "DraftKey", "DraftScan", "DraftStore", "FileProblem"]

DRAFT_KIND = "modu-draft"
DRAFT_VERSION = 1
DRAFT_SUFFIX = ".draft.json"
BROKEN_DIR = "broken"


@dataclass(frozen=True)
class DraftKey:
    """Identifies a document: API host (e.g. ``https://api.github.com``), ``owner/name``,
    branch and docId. Trailing slashes of the host are ignored."""

    api_host: str
    repo: str
    branch: str
    doc_id: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "api_host", self.api_host.rstrip("/"))

    def digest(self) -> str:
        """Stable file-name-safe hash of the key (hex, 40 chars)."""
        raw = json.dumps([self.api_host, self.repo, self.branch, self.doc_id], ensure_ascii=True)
        return hashlib.sha256(raw.encode("ascii")).hexdigest()[:40]

    def to_json(self) -> dict[str, str]:
        return {
            "api_host": self.api_host,
            "repo": self.repo,
            "branch": self.branch,
            "doc_id": self.doc_id,
        }

    @classmethod
    def from_json(cls, value: Any) -> DraftKey:
        if not isinstance(value, dict):
            raise ValueError("key is not an object")
        parts: list[str] = []
        for name in ("api_host", "repo", "branch", "doc_id"):
            part = value.get(name)
            if not isinstance(part, str):
                raise ValueError(f"key field {name} must be a string")
            parts.append(part)
        return cls(*parts)


@dataclass(frozen=True)
class Draft:
    """Unsaved text of one document. ``base_sha`` is the blob sha the text was edited from
    (None for a document that does not exist on the server yet); ``saved_at`` is Unix seconds."""

    key: DraftKey
    text: str
    base_sha: str | None
    doc_path: str
    saved_at: float
    session_id: str
    title: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key.to_json(),
            "text": self.text,
            "base_sha": self.base_sha,
            "doc_path": self.doc_path,
            "saved_at": self.saved_at,
            "session_id": self.session_id,
            "title": self.title,
        }

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Draft:
        key = DraftKey.from_json(body.get("key"))
        text, base_sha = body.get("text"), body.get("base_sha")
        doc_path, saved_at = body.get("doc_path"), body.get("saved_at")
        session_id, title = body.get("session_id"), body.get("title")
        if not isinstance(text, str):
            raise ValueError("text must be a string")
        if base_sha is not None and not isinstance(base_sha, str):
            raise ValueError("base_sha must be a string or null")
        if not isinstance(doc_path, str) or not isinstance(session_id, str):
            raise ValueError("doc_path and session_id must be strings")
        if isinstance(saved_at, bool) or not isinstance(saved_at, int | float):
            raise ValueError("saved_at must be a number")
        if title is not None and not isinstance(title, str):
            raise ValueError("title must be a string or null")
        return cls(key, text, base_sha, doc_path, float(saved_at), session_id, title)


@dataclass
class DraftScan:
    drafts: list[Draft] = field(default_factory=list)
    problems: list[FileProblem] = field(default_factory=list)


class DraftStore:
    """Drafts on disk under ``root_dir``. Thread-safe within one process."""

    def __init__(self, root_dir: str | Path) -> None:
        self.root = Path(root_dir)
        self._lock = threading.RLock()
        self.last_problems: list[FileProblem] = []

    # -- paths -------------------------------------------------------------------------------

    def path_for(self, key: DraftKey) -> Path:
        return self.root / f"{key.digest()}{DRAFT_SUFFIX}"

    # -- operations --------------------------------------------------------------------------

    def save(self, draft: Draft) -> Path:
        """Write ``draft`` atomically and durably (replacing any earlier draft of its key)."""
        path = self.path_for(draft.key)
        data = seal(DRAFT_KIND, DRAFT_VERSION, draft.to_json())
        with self._lock:
            write_atomic(path, data)
        return path

    def load(self, key: DraftKey) -> Draft | None:
        """The draft for ``key``, or None. A damaged file is moved aside and reported in
        :attr:`last_problems`."""
        with self._lock:
            self.last_problems = []
            path = self.path_for(key)
            draft, problem = self._read(path)
            if problem is not None:
                self.last_problems = [self._set_aside(path, problem)]
                return None
            if draft is not None and draft.key != key:
                # Only a hash collision or a hand-copied file could do this: keep it, ignore it.
                self.last_problems = [self._set_aside(path, "key does not match file name")]
                return None
            return draft

    def scan(self) -> DraftScan:
        """All readable drafts (oldest first) plus the damaged files found (moved aside)."""
        result = DraftScan()
        with self._lock:
            try:
                entries = sorted(self.root.iterdir())
            except FileNotFoundError:
                entries = []
            except OSError as exc:
                result.problems.append(FileProblem(self.root, f"cannot list ({exc})"))
                entries = []
            for path in entries:
                if not path.name.endswith(DRAFT_SUFFIX) or is_temp_name(path.name):
                    continue  # temp files of interrupted writes: the old version is still intact
                draft, problem = self._read(path)
                if problem is None and draft is not None and path != self.path_for(draft.key):
                    problem = "key does not match file name"
                if problem is not None:
                    result.problems.append(self._set_aside(path, problem))
                elif draft is not None:
                    result.drafts.append(draft)
            self.last_problems = list(result.problems)
        result.drafts.sort(key=lambda d: d.saved_at)
        return result

    def list(self) -> list[Draft]:
        """All readable drafts; damaged files are skipped, kept aside and listed in
        :attr:`last_problems`."""
        return self.scan().drafts

    def discard(self, key: DraftKey, *, only_if_text: str | None = None) -> bool:
        """Remove the draft of ``key``. Call this only once its text is committed; pass the
        committed text as ``only_if_text`` so a draft edited further meanwhile is kept."""
        with self._lock:
            path = self.path_for(key)
            if only_if_text is not None:
                current = self.load(key)
                if current is None or current.text != only_if_text:
                    return False
            return unlink_durably(path)

    def list_orphans(self, live_session_ids: Iterable[str]) -> builtins.list[Draft]:
        """Drafts written by sessions that are not alive (left behind by a crash or kill)."""
        live = set(live_session_ids)
        return [d for d in self.list() if d.session_id not in live]

    # -- helpers -----------------------------------------------------------------------------

    def _read(self, path: Path) -> tuple[Draft | None, str | None]:
        body, problem = read_sealed(path, DRAFT_KIND, DRAFT_VERSION)
        if problem is not None or body is None:
            return None, problem
        try:
            return Draft.from_json(body), None
        except ValueError as exc:
            return None, f"invalid draft ({exc})"

    def _set_aside(self, path: Path, problem: str) -> FileProblem:
        moved = move_aside(path, self.root / BROKEN_DIR)
        log.warning("damaged draft %s: %s (kept as %s)", path, problem, moved)
        return FileProblem(path, problem, moved)


class DraftJournal:
    """Coalesces edits of one open document into draft writes.

    Drive it from any timer: call :meth:`tick` periodically (or after :meth:`due_in` seconds)
    and :meth:`flush` when the window closes. ``clock`` is a monotonic clock in seconds,
    ``wall_clock`` the Unix time stored in the draft. I/O errors never escape :meth:`tick`;
    they are kept in :attr:`last_error` and the write is retried after ``idle_s``.
    """

    def __init__(
        self,
        store: DraftStore,
        key: DraftKey,
        *,
        base_sha: str | None,
        doc_path: str,
        session_id: str,
        title: str | None = None,
        idle_s: float = 1.0,
        max_latency_s: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.key = key
        self.base_sha = base_sha
        self.doc_path = doc_path
        self.session_id = session_id
        self.title = title
        self.idle_s = idle_s
        self.max_latency_s = max_latency_s
        self._clock = clock
        self._wall_clock = wall_clock
        self._text: str | None = None  # latest text not yet written
        self._writing: Draft | None = None  # taken to be written (another thread may write it)
        self._first_dirty: float | None = None
        self._last_edit: float | None = None
        self._retry_at: float | None = None
        self.last_written: str | None = None
        self.last_error: OSError | None = None
        self.writes = 0

    @property
    def dirty(self) -> bool:
        """Some text is not on disk yet (pending, or being written)."""
        return self._text is not None or self._writing is not None

    def note_edit(self, text: str) -> None:
        """Record the editor's current text (cheap; no I/O)."""
        now = self._clock()
        if self._text is None:
            latest = self._writing.text if self._writing is not None else self.last_written
            if text == latest:
                return
            self._first_dirty = now
        self._text = text
        self._last_edit = now

    def due_in(self) -> float | None:
        """Seconds until the next write is due (0 if overdue); None when nothing is pending."""
        if self._text is None or self._first_dirty is None or self._last_edit is None:
            return None
        due = min(self._last_edit + self.idle_s, self._first_dirty + self.max_latency_s)
        if self._retry_at is not None:
            due = max(due, self._retry_at)
        return max(0.0, due - self._clock())

    def tick(self) -> bool:
        """Write the draft if it is due; True if a draft was written."""
        wait = self.due_in()
        if wait is None or wait > 0:
            return False
        return self._write()

    def take(self, *, due_only: bool = True) -> Draft | None:
        """The draft to write now (None: nothing is due, or a write is still going on), for a
        writer elsewhere (a worker thread); report its end with :meth:`written`. Edits noted
        meanwhile wait for the next one."""
        if self._writing is not None or self._text is None:
            return None
        wait = self.due_in()
        if due_only and (wait is None or wait > 0):
            return None
        draft = Draft(
            self.key,
            self._text,
            self.base_sha,
            self.doc_path,
            self._wall_clock(),
            self.session_id,
            self.title,
        )
        self._writing = draft
        self._text = None
        self._first_dirty = self._last_edit = None
        return draft

    def written(self, draft: Draft, error: OSError | None = None) -> None:
        """The write of ``draft`` (from :meth:`take`) ended, with ``error`` if it failed."""
        if draft is not self._writing:
            return
        self._writing = None
        if error is None:
            self.last_error = None
            self._retry_at = None
            self.last_written = draft.text
            self.writes += 1
            return
        self.last_error = error
        self._retry_at = self._clock() + self.idle_s
        log.warning("could not write draft for %s: %s", self.key.doc_id, error)
        if self._text is None:  # nothing newer: this text is still to be written
            self._text = draft.text
            self._first_dirty = self._last_edit = self._clock()

    def flush(self) -> bool:
        """Write pending text now (window closing, app quitting); True if written."""
        if self._text is None:
            return False
        return self._write()

    def rebase(self, base_sha: str | None, doc_path: str | None = None) -> None:
        """Record a new base after the text was committed or reloaded; pending text stays."""
        self.base_sha = base_sha
        if doc_path is not None:
            self.doc_path = doc_path
        if self._text is None and self.last_written is not None:
            self._text = self.last_written  # rewrite the file with the new base on next tick
            self._first_dirty = self._last_edit = self._clock()

    def committed(self, text: str, new_sha: str) -> bool:
        """The server now holds ``text`` at ``new_sha``: discard the draft unless the user has
        typed more since. Returns True if the draft file was removed."""
        self.base_sha = new_sha
        if self._text is not None and self._text != text:
            return False  # newer edits pending: next write carries the new base
        self._text = None
        self._first_dirty = self._last_edit = self._retry_at = None
        removed = self.store.discard(self.key, only_if_text=text)
        if not removed and self.last_written is not None and self.last_written != text:
            # The file holds newer text than what was committed: keep it, rewrite on new base.
            self._text = self.last_written
            self._first_dirty = self._last_edit = self._clock()
            return False
        self.last_written = text
        return removed

    def _write(self) -> bool:
        draft = self.take(due_only=False)
        if draft is None:
            return False
        try:
            self.store.save(draft)
        except OSError as exc:
            self.written(draft, exc)
            return False
        self.written(draft)
        return True
