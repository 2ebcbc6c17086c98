"""What the web admin can do besides editing: create, delete and reorder documents (Qt-free).

Every operation follows the wire contract (``docs/lock-protocol.md``): file
names, front matter keys, commit messages and the lock protocol. Every operation returns an
:class:`OpResult` with a plain Korean/English message and never raises for expected failures
(refusals, conflicts, network errors); the caller's input (e.g. the new-document form values)
travels back in the result so a failed attempt never loses it.

Choices made here (documented in the report and the tests):

* **New document ids** (the front matter ``id`` and the file's slug) are a single path segment:
  letters (Latin or Hangul syllables), digits, ``-`` and ``_``, starting with a letter or digit,
  at most 80 characters. No ``/``: the web admin creates files directly in ``docs/``
  (``docs/{NN}-{id}.md``), and Docusaurus refuses a front matter id containing a slash. No spaces
  (they become ``%20`` in the page URL); the refusal suggests the dashed spelling. Hangul is
  allowed (Docusaurus serves it, percent-encoded in the URL). ``.``/``..`` can never pass.
* **Ids must be unique** ignoring case (two files differing only in case break checkouts on
  Windows/macOS and Docusaurus would build two pages with clashing URLs): the new id is compared
  with every top-level document's effective Docusaurus id (front matter ``id``, else the file
  name without its number prefix) and the new file name with every existing file name.
* **Locks**: the new docId is locked (``LockManager.acquire``) before the file is created; delete
  takes the document's lock for the duration (so nobody starts editing a file that is about to
  vanish) and releases it afterwards; reorder refuses when either document has a *fresh* lock of
  someone else (or of the same login in another window) and does not lock (the two writes are
  sha-checked, like the web admin's).
* **Reorder rollback**: if the second write fails, the first one is undone with a compensating
  write (same commit message format, the original position) over the sha it produced. If that
  fails too, the result says exactly which file has which position now.
"""

from __future__ import annotations

import enum
import logging
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from modu_desktop.core import frontmatter
from modu_desktop.core.blobcache import git_blob_sha
from modu_desktop.core.documents import (
    DOCS_DIR,
    DocSummary,
    DocumentStore,
    LoadedDoc,
    RepoSnapshot,
    SaveConflict,
    SaveResult,
    create_message,
    delete_message,
    doc_id_for_path,
    encode_text,
    new_document_text,
    sort_docs,
    swap_message,
)
from modu_desktop.core.errors import (
    Conflict,
    GitHubError,
    NotFound,
    PermissionDenied,
    WriteUncertain,
)
from modu_desktop.core.locks import (
    AcquireOutcome,
    AcquireResult,
    HeldLock,
    LockManager,
    LockStatus,
    LockView,
    ReleaseOutcome,
    format_age,
)

__all__ = [
    "DEFAULT_LAYOUT",
    "DEFAULT_THEME",
    "LAYOUTS",
    "THEMES",
    "DocOps",
    "NewDocRequest",
    "OpCode",
    "OpResult",
    "Text",
    "blocking_lock",
    "effective_id",
    "existing_clash",
    "lock_holder_text",
    "suggest_id",
    "template_body",
    "validate_new_doc",
    "validate_new_id",
]

log = logging.getLogger(__name__)

THEMES: tuple[str, ...] = (
    "public-blue",
    "teal-green",
    "royal-purple",
    "burgundy-gold",
    "ocean-cyan",
    "startup-gradient",
    "minimal-light",
)
LAYOUTS: tuple[str, ...] = ("cinema", "poster", "standard", "compact", "slim")
DEFAULT_THEME = "public-blue"
DEFAULT_LAYOUT = "cinema"
MAX_ID_LEN = 80
MAX_POSITION = 9999

_ID_OK = re.compile(r"^[0-9A-Za-z\uac00-\ud7a3][0-9A-Za-z\uac00-\ud7a3_-]*$")
_SLUG_BAD = re.compile(r"[^0-9A-Za-z\uac00-\ud7a3_-]+")
_NUM_PREFIX = re.compile(r"^\d+[-_.]")


# --------------------------------------------------------------------------------------------
# Messages and results


@dataclass(frozen=True)
class Text:
    """One user-facing sentence in English and Korean."""

    en: str
    ko: str

    def __call__(self, lang: str = "ko") -> str:
        return self.ko if lang == "ko" else self.en

    def __str__(self) -> str:
        return self.en


def _err_text(exc: BaseException) -> Text:
    um = getattr(exc, "user_message", None)
    if callable(um):
        try:
            return Text(str(um("en")), str(um("ko")))
        except Exception:  # pragma: no cover - defensive
            pass
    s = str(exc) or type(exc).__name__
    return Text(s, s)


class OpCode(enum.Enum):
    CREATED = "created"
    DELETED = "deleted"
    MOVED = "moved"
    INVALID = "invalid"  # the input is wrong (see OpResult.input_field)
    EXISTS = "exists"  # the id or the file already exists
    NOT_FOUND = "not_found"
    LOCKED = "locked"  # someone else holds a fresh lock
    CONFLICT = "conflict"  # the file changed on GitHub meanwhile
    NOTHING_TO_DO = "nothing_to_do"  # e.g. the first document cannot move up
    ROLLED_BACK = "rolled_back"  # reorder: the second write failed, the first was undone
    PARTIAL = "partial"  # reorder: the repository is left half-done (message says how)
    FAILED = "failed"  # network / permission / server error; nothing changed as far as we know
    UNCERTAIN = "uncertain"  # a write may or may not have happened


@dataclass(frozen=True)
class OpResult:
    """The outcome of one operation. ``text(lang)`` is the sentence to show the user."""

    code: OpCode
    text: Text
    doc_id: str | None = None
    path: str | None = None
    commits: tuple[str, ...] = ()
    held: HeldLock | None = None  # create(keep_lock=True): the new document's lock, still held
    request: NewDocRequest | None = None  # the user's input, kept for another attempt
    input_field: str | None = None  # the form field at fault (INVALID / EXISTS)
    error: BaseException | None = None
    view: LockView | None = None  # LOCKED: the lock that blocked us
    sha: str | None = None  # the new blob sha (create)
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.code in (OpCode.CREATED, OpCode.DELETED, OpCode.MOVED)

    @property
    def message(self) -> str:
        return self.text.en

    def user_message(self, lang: str = "ko") -> str:
        return self.text(lang)


# --------------------------------------------------------------------------------------------
# New-document input


@dataclass(frozen=True)
class NewDocRequest:
    """The new-document form. ``base_text``: an imported file whose front matter is updated with
    these values (other keys, the body and the line endings are kept); else ``template`` picks
    the template body or an empty one."""

    doc_id: str
    title: str
    position: int | None = None
    nav_label: str | None = None
    theme: str = DEFAULT_THEME
    layout: str = DEFAULT_LAYOUT
    template: bool = False
    base_text: str | None = None

    @property
    def path(self) -> str:
        """``docs/{NN}-{id}.md`` with a position, else ``docs/{id}.md`` (id assumed valid)."""
        if self.position is not None:
            return f"{DOCS_DIR}/{self.position:02d}-{self.doc_id}.md"
        return f"{DOCS_DIR}/{self.doc_id}.md"

    @property
    def file_doc_id(self) -> str:
        """The docId of the new file (the lock name): ``01-intro`` for ``docs/01-intro.md``."""
        return doc_id_for_path(self.path) or self.doc_id

    def normalized(self) -> NewDocRequest:
        return replace(
            self,
            doc_id=self.doc_id.strip(),
            title=self.title.strip(),
            nav_label=(self.nav_label or "").strip() or None,
            theme=(self.theme or DEFAULT_THEME).strip(),
            layout=(self.layout or DEFAULT_LAYOUT).strip(),
        )

    def render(self) -> str:
        """The new file's text."""
        if self.base_text is not None:
            fm = frontmatter.parse(self.base_text)
            fm.set("id", self.doc_id)
            fm.set("title", self.title)
            if self.position is not None:
                fm.set("sidebar_position", self.position)
            else:
                fm.remove("sidebar_position")
            if self.nav_label:
                fm.set("nav_label", self.nav_label)
            else:
                fm.remove("nav_label")
            fm.set("theme", self.theme)
            fm.set("layout", self.layout)
            if not fm.has_block:
                # No front matter in the file: new_document_text builds one around the body.
                return new_document_text(
                    self.doc_id,
                    self.title,
                    position=self.position,
                    nav_label=self.nav_label,
                    theme=self.theme,
                    layout=self.layout,
                    body=self.base_text,
                )
            return fm.render()
        body = template_body(self.title) if self.template else f"\n# {self.title}\n"
        return new_document_text(
            self.doc_id,
            self.title,
            position=self.position,
            nav_label=self.nav_label,
            theme=self.theme,
            layout=self.layout,
            body=body,
        )


def suggest_id(text: str) -> str:
    """A valid id from free text: spaces and other characters become ``-``."""
    slug = _SLUG_BAD.sub("-", text.strip()).strip("-_")
    slug = re.sub(r"-{2,}", "-", slug)
    return slug[:MAX_ID_LEN].rstrip("-_")


def validate_new_id(doc_id: str) -> Text | None:
    """None if ``doc_id`` is a valid new-document id, else the reason."""
    d = doc_id.strip()
    if not d:
        return Text(
            "Enter an id, for example 'bootcamp-2026'.",
            "문서 id를 입력해 주세요. 예: bootcamp-2026",
        )
    if d.lower().endswith(".md"):
        return Text(f"Leave out '.md': use '{d[:-3]}'.", f"'.md'는 빼고 입력해 주세요: '{d[:-3]}'")
    if "/" in d or "\\" in d or ".." in d:
        return Text(
            "The id cannot contain '/', '\\' or '..': new documents are created directly in "
            "docs/ (as the web admin does).",
            "id에는 '/', '\\', '..'를 쓸 수 없습니다. 새 문서는 웹 관리자처럼 docs/ 바로 아래에 "
            "만들어집니다.",
        )
    if len(d) > MAX_ID_LEN:
        return Text(
            f"The id is too long ({len(d)} characters; at most {MAX_ID_LEN}).",
            f"id가 너무 깁니다({len(d)}자, 최대 {MAX_ID_LEN}자).",
        )
    if not _ID_OK.match(d):
        hint = suggest_id(d)
        if any(ch.isspace() for ch in d):
            en = "The id cannot contain spaces (they end up in the page address)"
            ko = "id에는 공백을 쓸 수 없습니다(페이지 주소에 들어갑니다)"
        else:
            en = "Use only letters, Hangul, digits, '-' and '_' (starting with a letter or digit)"
            ko = "id에는 영문·한글·숫자·'-'·'_'만 쓸 수 있고 첫 글자는 문자나 숫자여야 합니다"
        if hint and hint != d:
            return Text(f"{en}; try '{hint}'.", f"{ko}. 예: '{hint}'")
        return Text(en + ".", ko + ".")
    return None


def validate_new_doc(req: NewDocRequest) -> tuple[str, Text] | None:
    """None if the form is valid, else (field, reason). Fields: doc_id, title, position,
    nav_label, theme, layout."""
    problem = validate_new_id(req.doc_id)
    if problem is not None:
        return "doc_id", problem
    if not req.title.strip():
        return "title", Text("Enter a title.", "제목을 입력해 주세요.")
    for name, value in (("title", req.title), ("nav_label", req.nav_label or "")):
        if "\n" in value or "\r" in value:
            return name, Text("Use a single line.", "한 줄로 입력해 주세요.")
    if req.position is not None and (
        isinstance(req.position, bool)
        or not isinstance(req.position, int)
        or not 0 <= req.position <= MAX_POSITION
    ):
        return "position", Text(
            f"The position must be a whole number from 0 to {MAX_POSITION}.",
            f"순서는 0부터 {MAX_POSITION} 사이의 정수여야 합니다.",
        )
    if req.theme not in THEMES:
        return "theme", Text(
            f"Unknown theme '{req.theme}'; choose one of: {', '.join(THEMES)}.",
            f"알 수 없는 테마 '{req.theme}'입니다. 다음 중에서 고르세요: {', '.join(THEMES)}",
        )
    if req.layout not in LAYOUTS:
        return "layout", Text(
            f"Unknown layout '{req.layout}'; choose one of: {', '.join(LAYOUTS)}.",
            f"알 수 없는 레이아웃 '{req.layout}'입니다. 다음 중에서 고르세요: {', '.join(LAYOUTS)}",
        )
    return None


def effective_id(doc: DocSummary) -> str:
    """The Docusaurus id of a document: its front matter ``id``, else the file name without a
    number prefix (``01-intro.md`` → ``intro``), prefixed with its folder."""
    folder = posixpath.dirname(doc.doc_id)
    own = doc.front_id or _NUM_PREFIX.sub("", posixpath.basename(doc.doc_id))
    return f"{folder}/{own}" if folder else own


def template_body(title: str) -> str:
    """A starting body with the common brochure blocks (hero, cards, timeline, quote, cta)."""
    return f"""
:::hero
badge: NEW PAGE
title: {title}
description: 이 페이지를 한두 문장으로 소개해 주세요.
:::

:::cards
title: 핵심 내용
subtitle: HIGHLIGHTS
columns: 3
variant: elevated

- title: 첫 번째
  description: 설명을 적어 주세요.
  icon: 🎯

- title: 두 번째
  description: 설명을 적어 주세요.
  icon: 🤝

- title: 세 번째
  description: 설명을 적어 주세요.
  icon: 🌏
:::

:::timeline
title: 추진 일정
subtitle: TIMELINE

- phase: 1단계
  title: 준비
  description: 무엇을 하는지 적어 주세요.

- phase: 2단계
  title: 실행
  description: 무엇을 하는지 적어 주세요.
  accent: true
:::

## 본문

여기에 내용을 적어 주세요.

:::quote
text: 인용문을 적어 주세요.
author: 이름
role: 직함
:::

:::cta
title: 더 알아보기
description: 안내 문구를 적어 주세요.
buttonText: 바로가기
buttonLink: /docs/intro
:::
"""


def existing_clash(req: NewDocRequest, snap: RepoSnapshot) -> OpResult | None:
    """EXISTS when the new file name or the new id is already taken (ignoring case)."""
    path = req.path
    for d in snap.docs:
        if d.path.casefold() == path.casefold():
            return OpResult(
                OpCode.EXISTS,
                Text(
                    f"A file named {d.path} already exists ({d.title}).",
                    f"같은 이름의 파일 {d.path}이(가) 이미 있습니다({d.title}).",
                ),
                doc_id=d.doc_id,
                path=d.path,
                request=req,
                input_field="position" if req.position is not None else "doc_id",
            )
    for d in snap.docs:
        if "/" not in d.doc_id and effective_id(d).casefold() == req.doc_id.casefold():
            return OpResult(
                OpCode.EXISTS,
                Text(
                    f"The id '{req.doc_id}' is already used by {d.path} ({d.title}); "
                    "choose another id.",
                    f"id '{req.doc_id}'은(는) 이미 {d.path}({d.title})에서 쓰고 있습니다. "
                    "다른 id를 골라 주세요.",
                ),
                doc_id=d.doc_id,
                path=d.path,
                request=req,
                input_field="doc_id",
            )
    return None


# --------------------------------------------------------------------------------------------
# Locks


def blocking_lock(view: LockView) -> bool:
    """A lock we must not override silently: someone else's (or our login's in another window)
    that is fresh, or an unreadable one with a recent time. Stale locks and our own session's
    are not blocking."""
    if view.status in (LockStatus.FREE, LockStatus.MINE_THIS_SESSION, LockStatus.STALE):
        return False
    if view.is_stale:
        return False
    return not (view.status is LockStatus.MALFORMED and view.age_s is None)


def lock_holder_text(view: LockView, doc_id: str) -> Text:
    rec = view.record
    who = f"@{rec.editing_by}" if rec is not None else "@unknown"
    age = format_age(view.age_s)
    if view.status is LockStatus.MINE_OTHER_SESSION:
        return Text(
            f"You (@{rec.editing_by if rec else '?'}) are editing {doc_id} in another "
            f"window (last heartbeat {age} ago); close it there first.",
            f"다른 창에서 {doc_id} 문서를 편집 중입니다(마지막 신호 {age} 전). "
            "그 창에서 먼저 닫아 주세요.",
        )
    if view.status is LockStatus.MALFORMED:
        return Text(
            f"{doc_id} has an unreadable lock file ({view.malformed_reason}).",
            f"{doc_id} 문서의 잠금 파일을 읽을 수 없습니다({view.malformed_reason}).",
        )
    return Text(
        f"{who} is editing {doc_id} (last heartbeat {age} ago).",
        f"{who} 님이 {doc_id} 문서를 편집 중입니다(마지막 신호 {age} 전).",
    )


_NOT_DELETED = Text("Not deleted", "삭제하지 않았습니다")


def _locked(view: LockView, lock_id: str, refused: Text, /, **fields: Any) -> OpResult:
    """``OpCode.LOCKED``: "{refused}: {who holds the lock on lock_id}" in both languages."""
    holder = lock_holder_text(view, lock_id)
    return OpResult(
        OpCode.LOCKED,
        Text(f"{refused.en}: {holder.en}", f"{refused.ko}: {holder.ko}"),
        view=view,
        **fields,
    )


# --------------------------------------------------------------------------------------------
# The operations


class DocOps:
    """Create / delete / reorder on one repository branch for one signed-in user."""

    def __init__(self, store: DocumentStore, locks: LockManager, login: str) -> None:
        self.store = store
        self.locks = locks
        self.login = login

    async def _snapshot(self) -> RepoSnapshot:
        return await self.store.refresh()

    # ---------------------------------------------------------------- create

    async def check_new(
        self, req: NewDocRequest, snap: RepoSnapshot | None = None
    ) -> OpResult | None:
        """Validation and the "already exists" checks against a listing (no writes). None = ok."""
        req = req.normalized()
        bad = validate_new_doc(req)
        if bad is not None:
            return OpResult(OpCode.INVALID, bad[1], request=req, input_field=bad[0])
        if snap is None:
            snap = await self._snapshot()
        return existing_clash(req, snap)

    async def create(self, req: NewDocRequest, *, keep_lock: bool = True) -> OpResult:
        """Validate, check for clashes, lock the new docId, create the file with the web admin's
        message. With ``keep_lock`` the lock stays held (``result.held``) for the editor that
        opens the new document (it must heartbeat and release it); otherwise it is released."""
        req = req.normalized()
        try:
            snap = await self._snapshot()
            clash = await self.check_new(req, snap)
        except GitHubError as exc:
            return self._failed(exc, req, "list the documents", "문서 목록을 읽지")
        if clash is not None:
            return clash
        path, lock_id = req.path, req.file_doc_id
        acq = await self.locks.acquire(lock_id)
        if acq.held is None:
            if acq.outcome in (AcquireOutcome.BLOCKED, AcquireOutcome.LOST_RACE) and acq.view:
                return _locked(
                    acq.view,
                    lock_id,
                    Text("Not created", "만들지 않았습니다"),
                    doc_id=lock_id,
                    path=path,
                    request=req,
                    input_field="doc_id",
                )
            return self._lock_failed(acq, req, lock_id)
        held = acq.held
        text = req.render()
        try:
            res = await self.store.create(
                path, text, self.login, message=create_message(path, self.login)
            )
        except WriteUncertain as exc:
            # The file may exist or not. Release the lock either way (nothing is open yet);
            # after a refresh the document is opened like any other, with a fresh lock.
            await self._release_quietly(held)
            return OpResult(
                OpCode.UNCERTAIN,
                Text(
                    f"Could not confirm whether {path} was created; refresh the list to "
                    "check before trying again.",
                    f"{path} 파일이 만들어졌는지 확인하지 못했습니다. 다시 시도하기 전에 목록을 "
                    "새로 고쳐 확인해 주세요.",
                ),
                doc_id=lock_id,
                path=path,
                request=req,
                error=exc,
            )
        except GitHubError as exc:
            await self._release_quietly(held)
            return self._failed(exc, req, f"create {path}", f"{path} 파일을 만들지")
        if isinstance(res, SaveConflict):
            await self._release_quietly(held)
            return OpResult(
                OpCode.EXISTS,
                Text(
                    f"Not created: {path} was created by someone else just now.",
                    f"만들지 않았습니다: 방금 다른 사람이 {path} 파일을 만들었습니다.",
                ),
                doc_id=lock_id,
                path=path,
                request=req,
                input_field="doc_id",
            )
        if not keep_lock:
            await self._release_quietly(held)
        return OpResult(
            OpCode.CREATED,
            Text(f"Created {path}.", f"{path} 문서를 만들었습니다."),
            doc_id=res.doc_id,
            path=path,
            commits=tuple(c for c in [res.commit_sha] if c),
            held=held if keep_lock else None,
            request=req,
            sha=res.sha,
        )

    # ---------------------------------------------------------------- delete

    async def delete(
        self, doc_id: str, *, expected_sha: str | None = None, held: HeldLock | None = None
    ) -> OpResult:
        """Delete a document at the version the user saw (``expected_sha``; default: the
        current one). Refused while someone else holds a fresh lock. Our lock (``held``, or one
        taken for the duration) is released afterwards."""
        try:
            snap = await self._snapshot()
        except GitHubError as exc:
            return self._failed(exc, None, "list the documents", "문서 목록을 읽지")
        doc = snap.doc(doc_id)
        if doc is None:
            return OpResult(
                OpCode.NOT_FOUND,
                Text(
                    f"{doc_id} does not exist (any more).",
                    f"{doc_id} 문서가 없습니다(이미 삭제되었을 수 있습니다).",
                ),
                doc_id=doc_id,
            )
        if expected_sha is not None and expected_sha != doc.sha:
            return OpResult(
                OpCode.CONFLICT,
                Text(
                    f"Not deleted: {doc.file_name} changed on GitHub since you looked at it; "
                    "check the latest version first.",
                    f"삭제하지 않았습니다: 그 사이 {doc.file_name} 파일이 바뀌었습니다. 최신 "
                    "내용을 먼저 확인해 주세요.",
                ),
                doc_id=doc_id,
                path=doc.path,
            )
        ours = held
        if ours is not None:
            # The editor's lock may have been taken over meanwhile: then someone else edits it.
            check = await self.locks.verify(ours)
            if not check.ok and check.view is not None and blocking_lock(check.view):
                return _locked(check.view, doc_id, _NOT_DELETED, doc_id=doc_id, path=doc.path)
            if not check.ok:
                ours = None  # released or unreadable now: take the lock afresh below
        if ours is None:
            acq = await self.locks.acquire(doc_id)
            if (
                acq.held is None
                and acq.view is not None
                and not blocking_lock(acq.view)
                and acq.outcome is AcquireOutcome.BLOCKED
            ):
                acq = await self.locks.steal(acq.view)  # an unreadable lock without a time
            if acq.held is None:
                if acq.view is not None and acq.outcome in (
                    AcquireOutcome.BLOCKED,
                    AcquireOutcome.LOST_RACE,
                ):
                    return _locked(acq.view, doc_id, _NOT_DELETED, doc_id=doc_id, path=doc.path)
                return self._lock_failed(acq, None, doc_id)
            ours = acq.held
        try:
            commit = await self.store.delete(
                doc.path, doc.sha, self.login, message=delete_message(doc.path, self.login)
            )
        except Conflict as exc:
            await self._release_quietly(ours)
            return OpResult(
                OpCode.CONFLICT,
                Text(
                    f"Not deleted: {doc.file_name} changed on GitHub meanwhile; refresh and "
                    "check it first.",
                    f"삭제하지 않았습니다: 그 사이 {doc.file_name} 파일이 바뀌었습니다. 새로 "
                    "고친 뒤 확인해 주세요.",
                ),
                doc_id=doc_id,
                path=doc.path,
                error=exc,
            )
        except NotFound as exc:
            await self._release_quietly(ours)
            return OpResult(
                OpCode.NOT_FOUND,
                Text(
                    f"{doc.file_name} was already deleted.",
                    f"{doc.file_name} 파일은 이미 삭제되었습니다.",
                ),
                doc_id=doc_id,
                path=doc.path,
                error=exc,
            )
        except WriteUncertain as exc:
            return OpResult(
                OpCode.UNCERTAIN,
                Text(
                    f"Could not confirm whether {doc.file_name} was deleted; refresh the list "
                    "to check.",
                    f"{doc.file_name} 파일이 삭제되었는지 확인하지 못했습니다. 목록을 새로 "
                    "고쳐 확인해 주세요.",
                ),
                doc_id=doc_id,
                path=doc.path,
                error=exc,
            )
        except GitHubError as exc:
            await self._release_quietly(ours)
            return self._failed(
                exc, None, f"delete {doc.file_name}", f"{doc.file_name} 파일을 삭제하지"
            )
        released = await self._release_quietly(ours)
        extra_en = "" if released else " (its lock file could not be removed; it expires by itself)"
        extra_ko = "" if released else " (잠금 파일은 지우지 못했지만 저절로 만료됩니다)"
        return OpResult(
            OpCode.DELETED,
            Text(
                f"Deleted {doc.file_name}.{extra_en}",
                f"{doc.file_name} 문서를 삭제했습니다.{extra_ko}",
            ),
            doc_id=doc_id,
            path=doc.path,
            commits=(commit,),
        )

    # ---------------------------------------------------------------- reorder

    async def move(self, doc_id: str, direction: str) -> OpResult:
        """Move a document one place up or down the sidebar by swapping ``sidebar_position``
        with its neighbour (two sha-checked commits; the first is undone if the second fails)."""
        if direction not in ("up", "down"):
            return OpResult(
                OpCode.INVALID,
                Text("Direction must be 'up' or 'down'.", "방향은 up 또는 down이어야 합니다."),
                doc_id=doc_id,
                input_field="direction",
            )
        try:
            snap = await self._snapshot()
        except GitHubError as exc:
            return self._failed(exc, None, "list the documents", "문서 목록을 읽지")
        doc = snap.doc(doc_id)
        if doc is None:
            return OpResult(
                OpCode.NOT_FOUND,
                Text(f"{doc_id} does not exist.", f"{doc_id} 문서가 없습니다."),
                doc_id=doc_id,
            )
        if doc.position is None:
            return OpResult(
                OpCode.NOTHING_TO_DO,
                Text(
                    f"{doc.file_name} has no sidebar_position, so it is listed last; "
                    "give it a position first.",
                    f"{doc.file_name} 문서에는 순서(sidebar_position)가 없어 맨 "
                    "끝에 표시됩니다. 먼저 순서를 정해 주세요.",
                ),
                doc_id=doc_id,
                path=doc.path,
            )
        # Neighbours in the same sidebar level (Docusaurus orders each folder on its own).
        folder = posixpath.dirname(doc.doc_id)
        ordered = [
            d
            for d in sort_docs(snap.docs)
            if d.position is not None and posixpath.dirname(d.doc_id) == folder
        ]
        i = next(k for k, d in enumerate(ordered) if d.doc_id == doc_id)
        j = i - 1 if direction == "up" else i + 1
        if not 0 <= j < len(ordered):
            where = Text("first", "맨 위") if direction == "up" else Text("last", "맨 아래")
            return OpResult(
                OpCode.NOTHING_TO_DO,
                Text(
                    f"{doc.file_name} is already {where.en}.",
                    f"{doc.file_name} 문서는 이미 {where.ko}에 있습니다.",
                ),
                doc_id=doc_id,
                path=doc.path,
            )
        other = ordered[j]
        return await self.swap(doc, other)

    async def swap(self, a: DocSummary | str, b: DocSummary | str) -> OpResult:
        """Swap the ``sidebar_position`` of two documents (a is written first)."""
        a_id = a if isinstance(a, str) else a.doc_id
        b_id = b if isinstance(b, str) else b.doc_id
        for d in (a_id, b_id):
            try:
                view = await self.locks.inspect(d)
            except GitHubError as exc:
                return self._failed(exc, None, f"read the lock of {d}", f"{d} 잠금을 확인하지")
            if blocking_lock(view):
                return _locked(
                    view, d, Text("Order not changed", "순서를 바꾸지 않았습니다"), doc_id=d
                )
        try:
            da = await self.store.load(a_id)
            db = await self.store.load(b_id)
        except GitHubError as exc:
            return self._failed(exc, None, "read the two documents", "두 문서를 읽지")
        fa, fb = frontmatter.parse(da.text), frontmatter.parse(db.text)
        pa, pb = fa.get_number("sidebar_position"), fb.get_number("sidebar_position")
        if pa is None or pb is None:
            missing = da if pa is None else db
            return OpResult(
                OpCode.NOTHING_TO_DO,
                Text(
                    f"{posixpath.basename(missing.path)} has no sidebar_position.",
                    f"{posixpath.basename(missing.path)} 문서에는 순서가 없습니다.",
                ),
                doc_id=missing.doc_id,
                path=missing.path,
            )
        if pa == pb:
            return OpResult(
                OpCode.NOTHING_TO_DO,
                Text(
                    f"{_base(da)} and {_base(db)} both have position {pa}; swapping would "
                    "change nothing. Give them different positions first.",
                    f"{_base(da)}와(과) {_base(db)}의 순서가 둘 다 {pa}라서 바꿔도 달라지지 "
                    "않습니다. 먼저 서로 다른 순서를 정해 주세요.",
                ),
                doc_id=da.doc_id,
                path=da.path,
            )
        fa.set("sidebar_position", pb)
        first = await self._write(da, fa.render(), swap_message(da.path, pb, self.login))
        if not isinstance(first, SaveResult):
            return self._swap_first_failed(da, first)
        fb.set("sidebar_position", pa)
        second = await self._write(db, fb.render(), swap_message(db.path, pa, self.login))
        if isinstance(second, SaveResult):
            commits = tuple(c for c in (first.commit_sha, second.commit_sha) if c)
            return OpResult(
                OpCode.MOVED,
                Text(
                    f"Swapped the order: {_base(da)} is now {pb}, {_base(db)} is now {pa}.",
                    f"순서를 바꿨습니다: {_base(da)} → {pb}, {_base(db)} → {pa}.",
                ),
                doc_id=da.doc_id,
                path=da.path,
                commits=commits,
                details={
                    "positions": {da.doc_id: pb, db.doc_id: pa},
                    "shas": {da.path: first.sha, db.path: second.sha},
                },
            )
        return await self._roll_back(da, first, pa, db, pb, second)

    async def _write(
        self, doc: LoadedDoc, text: str, message: str
    ) -> SaveResult | SaveConflict | GitHubError:
        try:
            return await self.store.save(doc, text, doc.sha, self.login, message=message)
        except GitHubError as exc:
            return exc

    def _swap_first_failed(self, da: LoadedDoc, err: SaveConflict | GitHubError) -> OpResult:
        if isinstance(err, SaveConflict):
            return OpResult(
                OpCode.CONFLICT,
                Text(
                    f"Order not changed: {_base(da)} changed on GitHub meanwhile. "
                    "Refresh and try again.",
                    f"순서를 바꾸지 않았습니다: 그 사이 {_base(da)} 파일이 "
                    "바뀌었습니다. 새로 고친 뒤 다시 시도해 주세요.",
                ),
                doc_id=da.doc_id,
                path=da.path,
            )
        if isinstance(err, WriteUncertain):
            return OpResult(
                OpCode.UNCERTAIN,
                Text(
                    f"Could not confirm whether {_base(da)} was changed; refresh to "
                    "check the order.",
                    f"{_base(da)} 파일이 바뀌었는지 확인하지 못했습니다. 새로 고쳐 "
                    "순서를 확인해 주세요.",
                ),
                doc_id=da.doc_id,
                path=da.path,
                error=err,
            )
        return self._failed(err, None, "change the order", "순서를 바꾸지")

    async def _roll_back(
        self,
        da: LoadedDoc,
        first: SaveResult,
        pa: int | float,
        db: LoadedDoc,
        pb: int | float,
        second: SaveConflict | GitHubError,
    ) -> OpResult:
        why = (
            Text(
                f"{_base(db)} changed on GitHub meanwhile",
                f"그 사이 {_base(db)} 파일이 바뀌었습니다",
            )
            if isinstance(second, SaveConflict)
            else _err_text(second)
        )
        if isinstance(second, WriteUncertain):
            # Did the second write land after all? Then the swap is complete. If we cannot
            # tell, undoing the first write could leave both documents at the same position,
            # so nothing more is written and the state is described instead.
            try:
                entry = await self.store.current_entry(db.path)
            except GitHubError as exc:
                return self._unknown_second(da, first, pa, db, pb, exc)
            fb = frontmatter.parse(db.text)
            fb.set("sidebar_position", pa)
            wanted = git_blob_sha(encode_text(fb.render()))
            if entry is not None and entry.sha == wanted:
                return OpResult(
                    OpCode.MOVED,
                    Text(
                        f"Swapped the order: {_base(da)} is now {pb}, {_base(db)} is now {pa}.",
                        f"순서를 바꿨습니다: {_base(da)} → {pb}, {_base(db)} → {pa}.",
                    ),
                    doc_id=da.doc_id,
                    path=da.path,
                    commits=tuple(c for c in [first.commit_sha] if c),
                    details={
                        "positions": {da.doc_id: pb, db.doc_id: pa},
                        "shas": {da.path: first.sha, db.path: wanted},
                    },
                )
        undo: SaveResult | SaveConflict | GitHubError
        try:
            undo = await self.store.save(
                da.path,
                da.text,
                first.sha,
                self.login,
                message=swap_message(da.path, pa, self.login),
            )
        except GitHubError as exc:
            undo = exc
        return self._after_undo(da, first, pa, db, pb, second, why, undo)

    def _unknown_second(
        self,
        da: LoadedDoc,
        first: SaveResult,
        pa: int | float,
        db: LoadedDoc,
        pb: int | float,
        exc: GitHubError,
    ) -> OpResult:
        commit = (first.commit_sha or "?")[:7]
        return OpResult(
            OpCode.UNCERTAIN,
            Text(
                f"The order may be only half changed: {_base(da)} now has position {pb} "
                f"(commit {commit}), but GitHub did not answer whether {_base(db)} was changed "
                f"to {pa}. Refresh the list: if both show {pb}, move {_base(da)} back or set its "
                f"sidebar_position to {pa}.",
                f"순서가 절반만 바뀌었을 수 있습니다: {_base(da)}의 순서는 {pb}로 바뀌었지만(커밋 "
                f"{commit}) {_base(db)}가 {pa}(으)로 바뀌었는지 GitHub가 답하지 않았습니다. "
                f"목록을 새로 고쳐 둘 다 {pb}이면 {_base(da)}의 sidebar_position을 "
                f"{pa}(으)로 돌려 주세요.",
            ),
            doc_id=da.doc_id,
            path=da.path,
            commits=tuple(c for c in [first.commit_sha] if c),
            error=exc,
            details={"positions": {da.doc_id: pb}, "shas": {da.path: first.sha}},
        )

    def _after_undo(
        self,
        da: LoadedDoc,
        first: SaveResult,
        pa: int | float,
        db: LoadedDoc,
        pb: int | float,
        second: SaveConflict | GitHubError,
        why: Text,
        undo: SaveResult | SaveConflict | GitHubError,
    ) -> OpResult:
        commits = tuple(c for c in [first.commit_sha] if c)
        if isinstance(undo, SaveResult):
            commits += tuple(c for c in [undo.commit_sha] if c)
            return OpResult(
                OpCode.ROLLED_BACK,
                Text(
                    f"Order not changed: {why.en}. The first change ({_base(da)} → {pb}) was "
                    f"undone, so both documents keep their positions ({_base(da)} {pa}, "
                    f"{_base(db)} {pb}).",
                    f"순서를 바꾸지 않았습니다: {why.ko}. 먼저 바꾼 {_base(da)} → {pb}는 "
                    f"되돌렸으므로 두 문서 모두 원래 순서입니다({_base(da)} {pa}, {_base(db)} "
                    f"{pb}).",
                ),
                doc_id=da.doc_id,
                path=da.path,
                commits=commits,
                error=second if isinstance(second, GitHubError) else None,
                details={"positions": {da.doc_id: pa, db.doc_id: pb}},
            )
        return OpResult(
            OpCode.PARTIAL,
            Text(
                f"The order is only half changed: {_base(da)} now has position {pb} (commit "
                f"{(first.commit_sha or '?')[:7]}), but {_base(db)} could not be changed "
                f"({why.en}) and still has {pb}, and undoing the first change failed too. "
                f"Set the sidebar_position of {_base(da)} back to {pa} by hand.",
                f"순서가 절반만 바뀌었습니다: {_base(da)}의 순서는 {pb}로 바뀌었지만(커밋 "
                f"{(first.commit_sha or '?')[:7]}) {_base(db)}는 바꾸지 못해({why.ko}) 여전히 "
                f"{pb}이고, 되돌리기도 실패했습니다. {_base(da)}의 sidebar_position을 직접 "
                f"{pa}(으)로 돌려 주세요.",
            ),
            doc_id=da.doc_id,
            path=da.path,
            commits=commits,
            error=undo if isinstance(undo, BaseException) else None,
            details={"positions": {da.doc_id: pb, db.doc_id: pb}},
        )

    # ---------------------------------------------------------------- helpers

    async def _release_quietly(self, held: HeldLock) -> bool:
        try:
            res = await self.locks.release(held)
        except Exception as exc:  # never hide the operation's own result behind this
            log.warning("could not release the lock on %s: %r", held.doc_id, exc)
            return False
        return res.outcome in (ReleaseOutcome.RELEASED, ReleaseOutcome.ALREADY_GONE)

    def _lock_failed(self, acq: AcquireResult, req: NewDocRequest | None, doc_id: str) -> OpResult:
        """Taking the lock failed for another reason than someone holding it."""
        err = acq.error or GitHubError(None, acq.message)
        return self._failed(err, req, f"lock {doc_id}", f"{doc_id} 문서를 잠그지")

    def _failed(
        self, exc: BaseException, req: NewDocRequest | None, what_en: str, what_ko: str
    ) -> OpResult:
        t = _err_text(exc)
        if isinstance(exc, (NotFound, PermissionDenied)) and not what_en.startswith(
            ("list", "read")
        ):
            # GitHub answers a write without push access with 404 (or 403).
            t = Text(
                f"{t.en} This account may not have write access to the repository.",
                f"{t.ko} 이 계정에 저장소 쓰기 권한이 없을 수 있습니다.",
            )
        return OpResult(
            OpCode.FAILED,
            Text(f"Could not {what_en}: {t.en}", f"{what_ko} 못했습니다: {t.ko}"),
            request=req,
            error=exc,
        )


def _base(doc: LoadedDoc | DocSummary) -> str:
    return posixpath.basename(doc.path)
