"""A document's published versions: list, read, compare, restore (Qt-free).

    history = DocHistory(client, store)
    versions = await history.versions("docs/01-intro.md")        # newest first, no lock commits
    text = await history.text_at(versions[3].sha, "docs/01-intro.md")
    lines = diff_lines(text, current_text)                       # unified diff, old → current
    rows = side_by_side(text, current_text)                      # the two texts in two columns
    what, when = describe(versions[3], versions)(), moment(versions[3].date, time.time())()
    result = await restore_version(store, doc, versions[3], text, base_sha, login,
                                   lock_ok=verify)               # one normal, lock-checked save

The list comes from the commits API filtered by the file's path, page by page (``Link:
rel="next"``); a version's text is read through the git database (commit → trees → blob, each
by sha, so nothing is stale) and blobs come from the store's content-addressed cache, so a long
history costs one request per page plus a few per version actually opened. Restoring is a save
like any other: the caller's lock is checked first, the base sha is the one the user last saw
(a 409 comes back as a ``SaveConflict``), and the message is
``docs(edit): restore {file} to {short-sha} by @{login}``.
"""

from __future__ import annotations

import difflib
import posixpath
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import zip_longest
from typing import Any

from modu_desktop.core.documents.naming import ManyPages, read_many_pages
from modu_desktop.core.documents.store import DocumentStore, SaveConflict, SaveResult, decode_text
from modu_desktop.core.text import Text

# The web admin's and our lock commits ("system: acquire lock for 01-intro by @x [skip ci]").
_LOCK_MESSAGE = re.compile(
    r"^system: (?:acquire|release|refresh|take over|steal)\b.*\block\b", re.I
)


@dataclass(frozen=True, slots=True)
class Version:
    sha: str  # commit sha
    message: str  # first line
    author_login: str | None
    author_name: str | None
    date: str | None  # ISO 8601, as the API gives it

    @property
    def short_sha(self) -> str:
        return self.sha[:7]

    @property
    def author(self) -> str:
        return f"@{self.author_login}" if self.author_login else (self.author_name or "?")

    @property
    def who(self) -> str:
        """The person, as people call them: the name on the commit, else the login."""
        name = (self.author_name or "").strip()
        return name or self.author_login or "?"

    def to_json(self) -> dict[str, Any]:
        return {
            "sha": self.sha,
            "shortSha": self.short_sha,
            "message": self.message,
            "author": self.author_login,
            "authorName": self.author_name,
            "date": self.date,
        }


@dataclass(frozen=True, slots=True)
class RestoreRefused:
    """The restore was not attempted (the lock is not ours, or the version has no such file)."""

    reason: Text


def is_lock_commit(message: str) -> bool:
    return bool(_LOCK_MESSAGE.match(message.strip()))


def restore_message(path: str, short_sha: str, login: str) -> str:
    return f"docs(edit): restore {posixpath.basename(path)} to {short_sha} by @{login}"


class DocHistory:
    """Reads versions of documents. Keeps what it read by commit sha (immutable)."""

    def __init__(self, client: Any, store: DocumentStore, *, page_size: int = 100) -> None:
        self.client = client
        self.store = store
        self.page_size = page_size
        self._blob_at: dict[tuple[str, str], str | None] = {}
        self._trees: dict[str, dict[str, tuple[str, str]]] = {}  # tree sha → name → (type, sha)

    async def versions(
        self, path: str, *, limit: int | None = None, at: str | None = None
    ) -> list[Version]:
        """Every commit that changed ``path`` (newest first), lock commits left out; ``at``: as
        of that commit instead of the branch's head."""
        out: list[Version] = []
        page = 1
        per_page = self.page_size if limit is None else min(self.page_size, max(limit, 5))
        while True:
            commits, more = await self.client.list_commits_page(
                path, at or self.store.branch, page=page, per_page=per_page
            )
            for c in commits:
                first = c.message.splitlines()[0] if c.message else ""
                if is_lock_commit(first):
                    continue
                out.append(Version(c.sha, first, c.author_login, c.author_name, c.author_date))
                if limit is not None and len(out) >= limit:
                    return out
            if not more or not commits:
                return out
            page += 1

    async def blob_sha_at(self, commit_sha: str, path: str) -> str | None:
        """The blob sha of ``path`` in commit ``commit_sha`` (None: no such file there)."""
        key = (commit_sha, path)
        if key in self._blob_at:
            return self._blob_at[key]
        commit = await self.client.get_commit(commit_sha)
        sha: str | None = commit.tree_sha
        parts = path.strip("/").split("/")
        for i, part in enumerate(parts):
            if sha is None:
                break
            entries = await self._tree(sha)
            hit = entries.get(part)
            if hit is None:
                sha = None
                break
            kind, sha = hit
            if i < len(parts) - 1 and kind != "tree":
                sha = None
                break
            if i == len(parts) - 1 and kind != "blob":
                sha = None
        self._blob_at[key] = sha
        return sha

    async def _tree(self, sha: str) -> dict[str, tuple[str, str]]:
        cached = self._trees.get(sha)
        if cached is None:
            tree = await self.client.get_tree(sha, recursive=False)
            cached = {e.path: (e.type, e.sha) for e in tree.entries}
            self._trees[sha] = cached
        return cached

    async def text_at(self, commit_sha: str, path: str) -> str | None:
        """The document's text in that version (None: the file is not in that commit)."""
        blob = await self.blob_sha_at(commit_sha, path)
        if blob is None:
            return None
        text, _problem = decode_text(await self.store.read_blob(blob))
        return text


def diff_lines(old: str, new: str, *, old_label: str = "", new_label: str = "") -> list[str]:
    """A unified diff (3 lines of context) from ``old`` to ``new``, lines without newlines."""
    return list(
        difflib.unified_diff(
            old.splitlines(),
            new.splitlines(),
            fromfile=old_label,
            tofile=new_label,
            lineterm="",
        )
    )


async def restore_version(
    store: DocumentStore,
    doc: Any,
    version: Version,
    text: str,
    base_sha: str,
    login: str,
    *,
    lock_ok: Callable[[], Awaitable[Text | None]],
) -> SaveResult | SaveConflict | RestoreRefused:
    """Save ``text`` (the version's text) over ``base_sha`` with the restore message, after
    ``lock_ok()`` confirms the lock (it returns None when the lock is ours, else the reason)."""
    problem = await lock_ok()
    if problem is not None:
        return RestoreRefused(problem)
    path = store._path_of(doc)
    message = restore_message(path, version.short_sha, login)
    return await store.save(doc, text, base_sha, login, message=message)


async def version_before(
    history: DocHistory, commit_sha: str, path: str
) -> tuple[Version, str] | None:
    """The version of ``path`` just before commit ``commit_sha`` (its first parent) and its
    text — what "restore the version before my save" restores. None: the file is new there."""
    commit = await history.client.get_commit(commit_sha)
    if not commit.parents:
        return None
    parent = await history.client.get_commit(commit.parents[0])
    text = await history.text_at(parent.sha, path)
    if text is None:
        return None
    first = parent.message.splitlines()[0] if parent.message else ""
    return Version(parent.sha, first, None, parent.author_name, parent.author_date), text


async def restore_previous(
    store: DocumentStore,
    history: DocHistory,
    path: str,
    my_commit_sha: str,
    current_sha: str,
    login: str,
    *,
    lock_ok: Callable[[], Awaitable[Text | None]],
) -> SaveResult | SaveConflict | RestoreRefused:
    """ "이전 버전으로 되돌리기" after a failed deploy: save the version before ``my_commit_sha``
    over ``current_sha`` (the blob my save created), lock checked, restore message."""
    found = await version_before(history, my_commit_sha, path)
    if found is None:
        return RestoreRefused(Text("This page has no earlier version to go back to."))
    version, text = found
    return await restore_version(store, path, version, text, current_sha, login, lock_ok=lock_ok)


# ----- in plain words: who, when, what -------------------------------------------------------

_EDIT = re.compile(r"^docs\(edit\): update \S+ by @\S+")
_RESTORE = re.compile(r"^docs\(edit\): restore \S+ to ([0-9a-f]{7,40}) by @\S+")
_CREATE = re.compile(r"^(?:feat\(docs\): create|docs\(create\)|docs\(new\)|docs: create)\b")
_REORDER = re.compile(r"^chore\(docs\): swap order position of \S+")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")


def moment(date: str | None, now: float) -> Text:
    """When, as people say it: "오늘 14:03", "어제 09:12", "3월 2일 14:03", "2025년 3월 2일"
    (local time; ``date`` is the API's ISO 8601)."""
    if not date:
        return Text("at an unknown time")
    try:
        at = datetime.fromisoformat(date.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return Text("at an unknown time")
    today = datetime.fromtimestamp(now).astimezone().date()
    clock = at.strftime("%H:%M")
    days = (today - at.date()).days
    if days == 0:
        return Text("today {clock}", clock=clock)
    if days == 1:
        return Text("yesterday {clock}", clock=clock)
    if at.year == today.year:
        return Text("{month}/{day} {clock}", month=at.month, day=at.day, clock=clock)
    return Text("{month}/{day}/{year}", month=at.month, day=at.day, year=at.year)


def change_words(many: ManyPages) -> Text:
    """A change of many pages in a few words: "17개 문서에서 ‘2025학년도’ → ‘2026학년도’",
    "그림 이름 a.png → b.png (3개 문서)", "되돌림: …" for its undoing."""
    n = many.pages
    if many.kind == "rename":
        if n:
            what = Text(
                "Picture {old} renamed {new} on {n} page(s)", old=many.old, new=many.new, n=n
            )
        else:
            what = Text("Picture {old} renamed {new}", old=many.old, new=many.new)
    else:
        what = Text("‘{old}’ → ‘{new}’ on {n} page(s)", old=many.old, new=many.new, n=n)
    return Text("Undone: {what}", what=what) if many.undo else what


def describe(version: Version, versions: Sequence[Version] = (), now: float | None = None) -> Text:
    """What the version did, in words: never a commit hash. A restore names the version it
    brought back by its time (found in ``versions``); a change of many pages is said as one
    change (:func:`change_words`)."""
    message = version.message.strip()
    many = read_many_pages(message)
    if many is not None:
        return change_words(many)
    m = _RESTORE.match(message)
    if m:
        back = next((v for v in versions if v.sha.startswith(m.group(1))), None)
        if back is None:
            return Text("Brought back an earlier version")
        at = moment(back.date, time.time() if now is None else now)
        return Text("Brought back the version of {when}", when=at)
    if _EDIT.match(message):
        return Text("Changed the text")
    if _CREATE.match(message):
        return Text("Created the page")
    if _REORDER.match(message):
        return Text("Changed its place in the menu")
    if _HANGUL.search(message):
        return Text("{message}", message=message)  # written by a person, for people
    return Text("Changed the page")


@dataclass(frozen=True, slots=True)
class SideRow:
    """One row of the side-by-side comparison. ``kind``: "same", "changed" (both sides, the
    line differs), "removed" (only in the older text), "added" (only in the newer), "skipped"
    (``skipped`` unchanged lines left out)."""

    kind: str
    old: str | None = None
    new: str | None = None
    old_no: int | None = None  # 1-based line numbers
    new_no: int | None = None
    skipped: int = 0


def side_by_side(old: str, new: str, *, context: int = 2) -> list[SideRow]:
    """The two texts in two columns, line against line: changed lines face each other, a line
    only one side has faces a gap, and long unchanged stretches shrink to ``context`` lines
    around each change and one "skipped" row. Empty when the texts are the same."""
    return side_by_side_lines(old.splitlines(), new.splitlines(), context=context)


def side_by_side_lines(
    a: Sequence[str], b: Sequence[str], *, context: int | None = 2
) -> list[SideRow]:
    """:func:`side_by_side` of two lists of lines (``context`` None: every unchanged line)."""
    a, b = list(a), list(b)
    if a == b:
        return []
    rows: list[SideRow] = []
    ops = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    for k, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag == "equal":
            head = (context or 0) if k > 0 else 0
            tail = (context or 0) if k < len(ops) - 1 else 0
            n = i2 - i1
            if context is None or n <= head + tail + 1:
                keep = list(range(n))
            else:
                keep = list(range(head)) + [-1] + list(range(n - tail, n))
            for d in keep:
                if d < 0:
                    rows.append(SideRow("skipped", skipped=n - head - tail))
                else:
                    rows.append(SideRow("same", a[i1 + d], b[j1 + d], i1 + d + 1, j1 + d + 1))
            continue
        for d, (x, y) in enumerate(zip_longest(a[i1:i2], b[j1:j2])):
            old_no = i1 + d + 1 if x is not None else None
            new_no = j1 + d + 1 if y is not None else None
            kind = (
                "changed"
                if x is not None and y is not None
                else "removed"
                if y is None
                else "added"
            )
            rows.append(SideRow(kind, x, y, old_no, new_no))
    return rows


def changed_parts(old: str, new: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Where two versions of a line differ: (start, end) character spans in each."""
    sm = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    left: list[tuple[int, int]] = []
    right: list[tuple[int, int]] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            left.append((i1, i2))
        if j2 > j1:
            right.append((j1, j2))
    return left, right
