"""A picture renamed or made smaller in one commit (Qt-free), on the pictures room's library.

    outcome = await rename_picture(ws.client, ws.store, "static/img/campus.png",
                                   "campus-2026.png", ws.editor, spool=ws.spool)
    outcome = await shrink_picture(ws.client, "static/img/photo.jpg", listed_sha,
                                   smaller_bytes, 1600, ws.editor)

**Rename.** The picture moves and every page that names it is rewritten to name the new file
(each address written the way it was: ``/img/…``, relative, ``@site/…``;
``core/pictures/found.rewrite_references``), all in ONE commit with the same rules as any
change of many pages — a page someone else holds or that changed since is never overwritten —
and all or nothing: were one page left out, it would name a picture that is gone, so then
nothing changes and the reason is told. The new name follows the upload rule
(``core/pictures/names.safe_stem``: Hangul kept, spaces and signs become ``-``, lower case, no
``..``) and keeps the picture's own extension; a bare name stays in the picture's folder. A
new name already taken (case ignored, as Windows and macOS checkouts do) or a picture that is
not there is refused before anything is sent.

**Shrink.** The smaller picture is made where pixels are at hand (the window scales it with
Qt, ``QImage``; no image library in the core) and committed over the version that was listed,
at the same path: the original stays in the history, a page naming it is unchanged.
"""

from __future__ import annotations

import enum
import posixpath
import unicodedata
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Any

from modu_desktop.core.changes.apply import Editor
from modu_desktop.core.changes.model import ChangeSet
from modu_desktop.core.changes.outcome import ChangeOutcome, ChangeSummary, PreparedChange
from modu_desktop.core.changes.send import send_change
from modu_desktop.core.documents.naming import DOCS_DIR, decode_text, encode_text
from modu_desktop.core.github.client import GitHubClient
from modu_desktop.core.pictures.found import rewrite_references
from modu_desktop.core.pictures.library import PictureLibrary, library_from_store
from modu_desktop.core.pictures.names import safe_stem
from modu_desktop.core.pictures.pixels import pixel_size
from modu_desktop.core.pictures.rule import STATIC_DIR, is_picture_file
from modu_desktop.core.saving.queue import SaveSpool
from modu_desktop.core.text import Text

__all__ = [
    "Refusal",
    "RenameRefused",
    "new_picture_path",
    "prepare_rename",
    "prepare_shrink",
    "rename_picture",
    "shrink_picture",
]

ReadBlob = Callable[[str], Awaitable[bytes]]


class Refusal(enum.Enum):
    MISSING = "missing"  # there is no picture at the old path
    EXISTS = "exists"  # the new path is taken
    SAME = "same"  # the new name is the old one
    OUTSIDE = "outside"  # the new path is not where the site keeps pictures
    NOT_SMALLER = "not_smaller"  # the smaller picture is not a picture of that width


@dataclass(frozen=True)
class RenameRefused:
    """Why nothing was sent: a code, the picture's path and the new one (when known)."""

    reason: Refusal
    path: str
    new_path: str = ""

    @property
    def text(self) -> Text:
        name, new = posixpath.basename(self.path), posixpath.basename(self.new_path)
        if self.reason is Refusal.MISSING:
            return Text("There is no picture {name}.", name=self.path)
        if self.reason is Refusal.EXISTS:
            return Text("There is already a file named {name}.", name=new)
        if self.reason is Refusal.SAME:
            return Text("{name} already has this name.", name=name)
        if self.reason is Refusal.NOT_SMALLER:
            return Text("The smaller copy of {name} is not a picture of that width.", name=name)
        return Text(
            "A picture can only be moved within the site's picture folder (static) or beside "
            "the pages (docs)."
        )


def _repo_path(given: str) -> str:
    """A picture named as the repository does (``static/img/a.png``) or as a page does
    (``/img/a.png``)."""
    path = given.strip().replace("\\", "/").lstrip("/")
    if path.startswith((STATIC_DIR + "/", DOCS_DIR + "/")):
        return path
    return f"{STATIC_DIR}/{path}"


def new_picture_path(old_path: str, new: str) -> str | Refusal:
    """Where the picture at ``old_path`` goes when it is to be called ``new``: a bare name
    stays in its folder, a path goes where it says (under ``static/`` or ``docs/``); the name
    made safe as an upload's is, with the picture's own extension."""
    given = unicodedata.normalize("NFC", new.strip().replace("\\", "/"))
    folder, name = posixpath.split(given)
    if ".." in folder.split("/"):
        return Refusal.OUTSIDE
    folder = posixpath.dirname(old_path) if not folder else _repo_path(folder + "/x")[:-2]
    ext = posixpath.splitext(old_path)[1].lower()
    stem = posixpath.splitext(name)[0] if name.lower().endswith(ext) else name
    path = posixpath.join(folder, safe_stem(stem) + ext)
    if not is_picture_file(path):
        return Refusal.OUTSIDE
    return path


def prepare_rename(
    library: PictureLibrary,
    old: str,
    new: str,
    pages: dict[str, tuple[str, str]],
    *,
    taken: Collection[str] = (),
) -> PreparedChange | RenameRefused:
    """The rename of the picture ``old`` to ``new`` with the pages that name it rewritten.
    ``pages``: path → (blob sha, text) of the pages that name it; ``taken``: every file path
    of the repository (the new name must be free)."""
    old_path = _repo_path(old)
    picture = library.find(old_path)
    if picture is None:
        return RenameRefused(Refusal.MISSING, old_path)
    new_path = new_picture_path(old_path, new)
    if isinstance(new_path, Refusal):
        return RenameRefused(new_path, old_path)
    if new_path == old_path:
        return RenameRefused(Refusal.SAME, old_path, new_path)
    used = {p.casefold() for p in (*taken, *(p.path for p in library.pictures)) if p != old_path}
    if new_path.casefold() in used:
        return RenameRefused(Refusal.EXISTS, old_path, new_path)
    changes = ChangeSet().rename(old_path, new_path, picture.sha)
    titles = {old_path: picture.name}
    for page in picture.pages:
        sha, text = pages[page.path]
        rewritten = rewrite_references(text, old_path, new_path, doc_path=page.path)
        if rewritten != text:
            changes.write(page.path, encode_text(rewritten), sha)
            titles[page.path] = page.title
    summary = ChangeSummary("rename", old_path, new_path)
    return PreparedChange(summary, changes, titles, all_or_nothing=True)


async def rename_picture(
    client: GitHubClient,
    store: Any,
    old: str,
    new: str,
    editor: Editor,
    *,
    spool: SaveSpool | None = None,
) -> ChangeOutcome | RenameRefused:
    """Rename a picture of the store's last listing and rewrite the pages that name it, in one
    commit (see the module docstring). ``store``: a ``DocumentStore`` (its listing, its blob
    cache and reader)."""
    snap = store.snapshot if store.snapshot is not None else await store.refresh()
    library = library_from_store(store)
    picture = library.find(_repo_path(old))
    pages: dict[str, tuple[str, str]] = {}
    shas = {d.path: d.sha for d in snap.docs}
    for page in picture.pages if picture is not None else ():
        sha = shas[page.path]
        pages[page.path] = (sha, decode_text(await store.read_blob(sha))[0])
    taken = [e.path for e in snap.images] + [d.path for d in snap.docs]
    prepared = prepare_rename(library, old, new, pages, taken=taken)
    if isinstance(prepared, RenameRefused):
        return prepared
    return await send_change(client, prepared, editor, spool=spool, read_blob=store.read_blob)


def prepare_shrink(
    path: str, base_sha: str, smaller: bytes, width: int
) -> PreparedChange | RenameRefused:
    """The smaller copy of the picture at ``path`` over the version ``base_sha``."""
    size = pixel_size(smaller)
    if size is None or size.width != width:
        return RenameRefused(Refusal.NOT_SMALLER, path)
    changes = ChangeSet().write(path, smaller, base_sha)
    summary = ChangeSummary("shrink", path, width=width)
    return PreparedChange(summary, changes, {path: posixpath.basename(path)})


async def shrink_picture(
    client: GitHubClient,
    path: str,
    base_sha: str,
    smaller: bytes,
    width: int,
    editor: Editor,
    *,
    spool: SaveSpool | None = None,
) -> ChangeOutcome | RenameRefused:
    """Commit the smaller copy of a picture at its own path (the original stays in the
    history); a picture changed since it was listed is left out, never overwritten."""
    prepared = prepare_shrink(path, base_sha, smaller, width)
    if isinstance(prepared, RenameRefused):
        return prepared
    return await send_change(client, prepared, editor, spool=spool)
