"""What the document store answers: the list's summaries and snapshot, a loaded document, a
save's result or conflict; how a page is summarised and what people call it (its title)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from modu_desktop.core.brochure import frontmatter
from modu_desktop.core.documents.naming import decode_text, doc_id_for_path, file_name
from modu_desktop.core.github.types import TreeEntry


class ListedPage(Protocol):
    """What the search and the picture library need of a listed page (``DocSummary`` has it,
    and so does a page titled another way)."""

    @property
    def doc_id(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def sha(self) -> str: ...
    @property
    def title(self) -> str: ...


@dataclass(frozen=True)
class DocSummary:
    doc_id: str
    path: str
    sha: str
    title: str
    nav_label: str | None = None
    position: int | float | None = None
    theme: str | None = None
    layout: str | None = None
    hide_title: bool | None = None
    description: str | None = None
    front_id: str | None = None  # the `id:` key (Docusaurus id), which may differ from doc_id
    size: int | None = None
    problems: tuple[str, ...] = ()
    draft: bool = False  # `draft: true`: the site's build leaves the page out (not published)

    @property
    def file_name(self) -> str:
        return file_name(self.path)

    @property
    def sort_key(self) -> tuple[Any, ...]:
        return (self.position is None, self.position or 0, self.file_name, self.path)


def find_doc(docs: Iterable[DocSummary], name: str) -> DocSummary | None:
    """The document ``name`` names: its docId (``01-welcome``, ``bootcamp/00-overview``), its
    path (``docs/01-welcome.md``), or its front-matter ``id`` — which is also the page's
    address on the site (``welcome``; ``bootcamp/overview`` for a file in a folder). A file's
    docId wins over another file's front-matter id; an id two files share names neither."""
    wanted = name.strip().strip("/")
    if wanted.startswith("docs/"):
        wanted = wanted[len("docs/") :]
    if wanted.endswith(".md"):
        wanted = wanted[: -len(".md")]
    if not wanted:
        return None
    docs = list(docs)
    for d in docs:
        if d.doc_id == wanted:
            return d
    by_front = []
    for d in docs:
        if not d.front_id:
            continue
        folder = d.doc_id.rpartition("/")[0]
        site_id = f"{folder}/{d.front_id}" if folder else d.front_id
        if wanted == site_id:
            by_front.append(d)
    return by_front[0] if len(by_front) == 1 else None


@dataclass(frozen=True)
class RepoSnapshot:
    tree_sha: str
    docs: tuple[DocSummary, ...]
    locks: dict[str, TreeEntry]  # doc_id → the lock file's entry (path, sha)
    branch: str = "main"
    fetched_at: float = 0.0  # server time (Unix seconds) of the listing
    not_modified: bool = False  # the tree had not changed since the previous refresh
    walked: bool = False  # the recursive listing was truncated and subtrees were walked
    images: tuple[TreeEntry, ...] = ()  # other files under docs/, and pictures under static/
    incomplete: bool = False  # even a one-level listing was truncated: some files are missing
    cached: bool = False  # read from the disk snapshot of a previous run: not confirmed yet

    def doc(self, doc_id: str) -> DocSummary | None:
        for d in self.docs:
            if d.doc_id == doc_id:
                return d
        return None

    @property
    def doc_ids(self) -> list[str]:
        return [d.doc_id for d in self.docs]


@dataclass(frozen=True)
class LoadedDoc:
    doc_id: str
    path: str
    text: str
    sha: str
    decode_problem: str | None = None

    @property
    def front_matter(self) -> frontmatter.FrontMatter:
        return frontmatter.parse(self.text)

    @property
    def title(self) -> str:
        """What people call the page (see :func:`page_title`)."""
        return page_title(self.text, self.doc_id)


@dataclass(frozen=True)
class SaveResult:
    doc_id: str
    path: str
    sha: str  # the new blob sha (= the base for the next save)
    commit_sha: str | None  # None when nothing changed and no commit was made
    recovered: bool = False  # confirmed by reading back after an unclear network failure
    unchanged: bool = False


@dataclass(frozen=True)
class SaveConflict:
    """The file changed on GitHub since `base_sha`. `theirs` is None if it was deleted."""

    doc_id: str
    path: str
    mine: str
    base_sha: str | None
    theirs: str | None
    their_sha: str | None
    reason: str = ""

    @property
    def deleted(self) -> bool:
        return self.their_sha is None


def summarize(entry: TreeEntry, data: bytes) -> DocSummary:
    """A `DocSummary` from a document's bytes (never raises)."""
    doc_id = doc_id_for_path(entry.path) or entry.path
    text, problem = decode_text(data)
    fm = frontmatter.parse(text)
    problems: list[str] = list(fm.problems)
    if problem:
        problems.append(problem)
    title = page_title(fm, doc_id)
    theme = fm.get("theme") or None
    layout = fm.get("layout") or None
    return DocSummary(
        doc_id=doc_id,
        path=entry.path,
        sha=entry.sha,
        title=title,
        nav_label=fm.get("nav_label") or None,
        position=fm.get_number("sidebar_position"),
        theme=theme,
        layout=layout,
        hide_title=fm.get_bool("hide_title"),
        description=fm.get("description") or None,
        front_id=fm.get("id") or None,
        size=entry.size if entry.size is not None else len(data),
        problems=tuple(problems),
        draft=fm.get_bool("draft") is True,
    )


_FIRST_HEADING = re.compile(r"^[ \t]{0,3}#[ \t]+(.+?)[ \t#]*$", re.M)


def page_title(text: str | frontmatter.FrontMatter, doc_id: str) -> str:
    """What people call a page, as the site does: its ``title``, else its menu label, else its
    first heading, else (only then) the file's name."""
    fm = frontmatter.parse(text) if isinstance(text, str) else text
    title = fm.get("title") or fm.get("nav_label")
    if title:
        return str(title)
    m = _FIRST_HEADING.search(fm.body)
    if m:
        return m.group(1).strip()
    return file_name(doc_id)


def sort_docs(docs: Sequence[DocSummary]) -> list[DocSummary]:
    """sidebar_position ascending (missing last), then file name."""
    return sorted(docs, key=lambda d: d.sort_key)
