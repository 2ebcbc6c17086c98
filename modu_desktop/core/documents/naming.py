"""How the repository names documents and locks, the commit messages the web admin writes,
and a document's text as bytes (the BOM, line endings and stray bytes kept exactly)."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from modu_desktop.core.brochure import frontmatter
from modu_desktop.core.brochure.themes import DEFAULT_THEME

DOCS_DIR = "docs"
LOCKS_DIR = ".locks"
LOCK_SUFFIX = ".lock.json"


def doc_id_for_path(path: str) -> str | None:
    """`docs/bootcamp/00-overview.md` → `bootcamp/00-overview`; None for non-documents."""
    if not path.startswith(DOCS_DIR + "/") or not path.endswith(".md"):
        return None
    doc_id = path[len(DOCS_DIR) + 1 : -len(".md")]
    return doc_id or None


def path_for_doc_id(doc_id: str) -> str:
    return f"{DOCS_DIR}/{doc_id}.md"


def lock_doc_id_for_path(path: str) -> str | None:
    """`.locks/01-intro.lock.json` → `01-intro`; None for anything else."""
    if not path.startswith(LOCKS_DIR + "/") or not path.endswith(LOCK_SUFFIX):
        return None
    doc_id = path[len(LOCKS_DIR) + 1 : -len(LOCK_SUFFIX)]
    return doc_id or None


def file_name(path: str) -> str:
    return posixpath.basename(path)


def update_message(path: str, login: str) -> str:
    """The web admin's edit message; `{file}` is the file's base name (see commit-log.tsv)."""
    return f"docs(edit): update {file_name(path)} by @{login}"


def create_message(path: str, login: str) -> str:
    return f"feat(docs): create {file_name(path)} by @{login}"


def delete_message(path: str, login: str) -> str:
    return f"docs(delete): remove {file_name(path)} by @{login}"


def swap_message(path: str, position: int | float, login: str) -> str:
    """The web admin's reorder message (one commit per file of the swapped pair)."""
    return f"chore(docs): swap order position of {file_name(path)} to {position} by @{login}"


# One change across many pages, in the web admin's style: what changed, on how many pages, who.
_MANY = re.compile(r"^docs\(edit\): (undo )?(.+?)(?: in (\d+) pages?)? by @(\S+)$")
_REPLACE = re.compile(r"^replace “(.*)” → “(.*)”$")
_RENAME = re.compile(r"^rename picture (\S+) → (\S+)$")


def _one_line(words: str) -> str:
    return " ".join(words.split())


def _pages(n: int) -> str:
    return f" in {n} page" + ("" if n == 1 else "s") if n else ""


def replace_message(old: str, new: str, pages: int, login: str) -> str:
    """``docs(edit): replace “2025학년도” → “2026학년도” in 17 pages by @login``."""
    what = f"replace “{_one_line(old)}” → “{_one_line(new)}”"
    return f"docs(edit): {what}{_pages(pages)} by @{login}"


def rename_picture_message(old_path: str, new_path: str, pages: int, login: str) -> str:
    """``docs(edit): rename picture campus.png → campus-2026.png in 3 pages by @login``."""
    what = f"rename picture {file_name(old_path)} → {file_name(new_path)}"
    return f"docs(edit): {what}{_pages(pages)} by @{login}"


def undo_message(subject: str, pages: int, login: str, short_sha: str) -> str:
    """The message of a commit that undoes the change ``subject`` (its first line) as one:
    ``docs(edit): undo replace “2025학년도” → “2026학년도” in 17 pages by @login``; undoing
    that undo makes the change again and says so (``docs(edit): replace …``); a change this
    app did not describe is named by its commit (``undo 1a2b3c4``)."""
    found = _MANY.match(subject.strip())
    if found is None or read_many_pages(subject) is None:
        return f"docs(edit): undo {short_sha}{_pages(pages)} by @{login}"
    again = "" if found.group(1) else "undo "
    return f"docs(edit): {again}{found.group(2)}{_pages(pages)} by @{login}"


@dataclass(frozen=True)
class ManyPages:
    """A change of many pages read back from its commit message: ``kind`` "replace" (``old``
    → ``new`` words) or "rename" (a picture's old → new file name); ``undo``: the commit
    undid such a change; ``pages``: how many pages it changed."""

    kind: str
    old: str
    new: str
    pages: int
    login: str
    undo: bool = False


def read_many_pages(subject: str) -> ManyPages | None:
    """The change a commit's first line describes, when it is a replacement or a picture's
    rename (or the undoing of one); None for any other message."""
    found = _MANY.match(subject.strip())
    if found is None:
        return None
    undo, what, pages, login = found.groups()
    for kind, pattern in (("replace", _REPLACE), ("rename", _RENAME)):
        words = pattern.match(what)
        if words is not None:
            n = int(pages) if pages else 0
            return ManyPages(kind, words.group(1), words.group(2), n, login, bool(undo))
    return None


def new_document_text(
    front_id: str,
    title: str,
    *,
    position: int | None = None,
    nav_label: str | None = None,
    theme: str | None = DEFAULT_THEME,
    layout: str | None = None,
    hide_title: bool | None = None,
    description: str | None = None,
    body: str = "",
) -> str:
    """A new document in the key order the brochure files use (id, title, sidebar_position,
    nav_label, theme, layout, hide_title, description)."""
    fm = frontmatter.parse("")
    fm.set("id", front_id)
    fm.set("title", title)
    if position is not None:
        fm.set("sidebar_position", position)
    if nav_label:
        fm.set("nav_label", nav_label)
    if theme:
        fm.set("theme", theme)
    if layout:
        fm.set("layout", layout)
    if hide_title is not None:
        fm.set("hide_title", hide_title)
    if description:
        fm.set("description", description)
    fm.body = body if not body or body.startswith("\n") else "\n" + body
    return fm.render()


_ID_RE = re.compile(r"[^0-9A-Za-z\uac00-\ud7a3_-]+")


def new_doc_path(doc_id: str, position: int | None = None) -> str:
    """The web admin's naming for new files: `docs/{NN}-{id}.md` (NN = two-digit position)."""
    slug = _ID_RE.sub("-", doc_id.strip()).strip("-") or "doc"
    if position is not None:
        return f"{DOCS_DIR}/{position:02d}-{slug}.md"
    return f"{DOCS_DIR}/{slug}.md"


def decode_text(data: bytes) -> tuple[str, str | None]:
    """UTF-8 bytes → (text, problem). The BOM and CRLF stay in the text. Invalid bytes are kept
    as surrogate escapes so `encode_text` gives the same bytes back."""
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return data.decode("utf-8", "surrogateescape"), f"not valid UTF-8 at byte {exc.start}"


def encode_text(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")
