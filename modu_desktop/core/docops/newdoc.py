"""The new-document form (Qt-free): NewDocRequest, its validation like the web admin's, the
suggested id and the template."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from modu_desktop.core.brochure import frontmatter
from modu_desktop.core.brochure.themes import DEFAULT_LAYOUT, DEFAULT_THEME, LAYOUT_KEYS, THEME_KEYS
from modu_desktop.core.brochure.unpublished import unpublished
from modu_desktop.core.documents.store import (
    DOCS_DIR,
    DocSummary,
    doc_id_for_path,
    new_document_text,
)
from modu_desktop.core.text import (
    Text,
)

MAX_ID_LEN = 80


MAX_POSITION = 9999


_ID_OK = re.compile(r"^[0-9A-Za-z\uac00-\ud7a3][0-9A-Za-z\uac00-\ud7a3_-]*$")


_SLUG_BAD = re.compile(r"[^0-9A-Za-z\uac00-\ud7a3_-]+")


_NUM_PREFIX = re.compile(r"^\d+[-_.]")


@dataclass(frozen=True)
class NewDocRequest:
    """The new-document form. ``base_text``: an imported file whose front matter is updated with
    these values (other keys, the body and the line endings are kept); ``verbatim``: a text
    saved as it is ("save mine as a new document"); else ``template`` picks the template body or
    an empty one. ``draft``: the page is saved not published (``draft: true``, see
    ``core.brochure.unpublished``) — new pages and copies are, until someone publishes them; an
    import keeps what its file says (``draft=False`` adds nothing)."""

    doc_id: str
    title: str
    position: int | None = None
    nav_label: str | None = None
    theme: str = DEFAULT_THEME
    layout: str = DEFAULT_LAYOUT
    template: bool = False
    base_text: str | None = None
    verbatim: str | None = None
    draft: bool = True

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
        text = self._render()
        return unpublished(text) if self.draft else text

    def _render(self) -> str:
        if self.verbatim is not None:
            return self.verbatim
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
        return Text("Enter an id, for example 'bootcamp-2026'.")
    if d.lower().endswith(".md"):
        return Text("Leave out '.md': use '{v}'.", v=d[:-3])
    if "/" in d or "\\" in d or ".." in d:
        return Text(
            "The id cannot contain '/', '\\' or '..': new documents are "
            "created directly in docs/ (as the web admin does)."
        )
    if len(d) > MAX_ID_LEN:
        return Text(
            "The id is too long ({v} characters; at most {MAX_ID_LEN}).",
            v=len(d),
            MAX_ID_LEN=MAX_ID_LEN,
        )
    if not _ID_OK.match(d):
        hint = suggest_id(d)
        if any(ch.isspace() for ch in d):
            reason = Text("The id cannot contain spaces (they end up in the page address)")
        else:
            reason = Text(
                "Use only letters, Hangul, digits, '-' and '_' (starting with a letter or digit)"
            )
        if hint and hint != d:
            return Text("{reason}; try '{hint}'.", reason=reason, hint=hint)
        return Text("{reason}.", reason=reason)
    return None


def validate_new_doc(req: NewDocRequest) -> tuple[str, Text] | None:
    """None if the form is valid, else (field, reason). Fields: doc_id, title, position,
    nav_label, theme, layout."""
    problem = validate_new_id(req.doc_id)
    if problem is not None:
        return "doc_id", problem
    if not req.title.strip():
        return "title", Text("Enter a title.")
    for name, value in (("title", req.title), ("nav_label", req.nav_label or "")):
        if "\n" in value or "\r" in value:
            return name, Text("Use a single line.")
    if req.position is not None and (
        isinstance(req.position, bool)
        or not isinstance(req.position, int)
        or not 0 <= req.position <= MAX_POSITION
    ):
        return "position", Text(
            "The position must be a whole number from 0 to {MAX_POSITION}.",
            MAX_POSITION=MAX_POSITION,
        )
    if req.theme not in THEME_KEYS:
        return "theme", Text(
            "Unknown theme '{theme}'; choose one of: {v}.", theme=req.theme, v=", ".join(THEME_KEYS)
        )
    if req.layout not in LAYOUT_KEYS:
        return "layout", Text(
            "Unknown layout '{layout}'; choose one of: {v}.",
            layout=req.layout,
            v=", ".join(LAYOUT_KEYS),
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


# ----- "새 문서로 저장": what the copy is called and where it goes -----------------------------


@dataclass(frozen=True)
class CopySuggestion:
    """What "새 문서로 저장" proposes: a title that tells the copy from the original, the next
    free place in the menu after the original, and an address of its own."""

    title: str
    position: int
    doc_id: str


def next_free_position(docs: Sequence[DocSummary], after: int | float | None = None) -> int:
    """The first menu position after ``after`` (after the last one when None) that no page at
    the top of the menu has."""
    taken = {
        int(d.position)
        for d in docs
        if d.position is not None and "/" not in d.doc_id and float(d.position).is_integer()
    }
    n = int(after) + 1 if after is not None else max(taken, default=0) + 1
    while n in taken:
        n += 1
    return min(n, MAX_POSITION)


def copy_title(title: str, taken: Iterable[str]) -> str:
    """``"교육 프로그램 (사본)"``, or ``"… (사본 2)"`` when that title is taken too."""
    used = {t.strip() for t in taken}
    first = Text("{title} (copy)", title=title)()
    if first not in used:
        return first
    n = 2
    while (cand := Text("{title} (copy {n})", title=title, n=n)()) in used:
        n += 1
    return cand


def suggest_copy(text: str, doc_id: str, docs: Sequence[DocSummary]) -> CopySuggestion:
    """The proposal for saving ``text`` (the page ``doc_id``'s) as a new page beside ``docs``."""
    from modu_desktop.core.documents.store import page_title

    fm = frontmatter.parse(text)
    source = next((d for d in docs if d.doc_id == doc_id), None)
    title = page_title(fm, doc_id)
    after = fm.get_number("sidebar_position")
    if after is None and source is not None:
        after = source.position
    own = (fm.get("id") or "").strip() or (effective_id(source) if source else "")
    base = suggest_id(own.rsplit("/", 1)[-1] or _NUM_PREFIX.sub("", doc_id)) or "page"
    used = {effective_id(d).casefold() for d in docs if "/" not in d.doc_id}
    cand, n = f"{base}-copy"[:MAX_ID_LEN], 2
    while cand.casefold() in used:
        cand, n = f"{base}-copy-{n}"[:MAX_ID_LEN], n + 1
    return CopySuggestion(
        copy_title(title, (d.title for d in docs)), next_free_position(docs, after), cand
    )


def copy_text(text: str, suggestion: CopySuggestion) -> str:
    """``text`` as the copy: its title, place and address the chosen ones (other lines kept),
    and not published (see ``core.brochure.unpublished``)."""
    fm = frontmatter.parse(text)
    fm.set("title", suggestion.title)
    fm.set("sidebar_position", suggestion.position)
    if fm.get("id") is not None:
        fm.set("id", suggestion.doc_id)
    return unpublished(fm.render())
