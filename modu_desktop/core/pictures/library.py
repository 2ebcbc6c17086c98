"""The picture library: every picture of the site, its sizes and the pages that use it (Qt-free).

Built from what the document list already holds — the tree entries of the last listing (pictures
under ``static/`` and beside the documents under ``docs/``, with their file sizes) and the blob
cache (the pages' texts, and the pictures' bytes where they were read before) — so building it
sends no request. A picture's pixel size is read from its header (``pixels.py``) when its bytes
are in the cache; :func:`load_pixels` reads the others in one pass and the library is built again
with them.

Which pages use a picture is told by the one picture rule (``found.py``: Markdown pictures, HTML
pictures, block fields, the front matter's ``image``), so ``/img/x.png``,
``@site/static/img/x.png`` and ``../../static/img/x.png`` name the same picture. A page that
names a picture the repository does not have is listed under :attr:`PictureLibrary.missing`.

For renaming (which will change many pages in one commit): :meth:`PictureLibrary.references_to`
lists every place that names a picture, and ``found.rewrite_references`` rewrites a page's text.
"""

from __future__ import annotations

import posixpath
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.github.errors import GitHubError
from modu_desktop.core.pictures.found import PictureUse, page_pictures
from modu_desktop.core.pictures.pixels import PixelSize, pixel_size
from modu_desktop.core.pictures.rule import DOCS_DIR, is_picture_file
from modu_desktop.core.text import Text

__all__ = [
    "LibraryPicture",
    "MissingPicture",
    "PageRef",
    "PictureLibrary",
    "Reference",
    "build_library",
    "delete_picture",
    "library_from_store",
    "load_pixels",
]


class _File(Protocol):
    @property
    def path(self) -> str: ...

    @property
    def sha(self) -> str: ...

    @property
    def size(self) -> int | None: ...


class _Page(Protocol):
    @property
    def doc_id(self) -> str: ...

    @property
    def path(self) -> str: ...

    @property
    def sha(self) -> str: ...

    @property
    def title(self) -> str: ...


@dataclass(frozen=True)
class PageRef:
    """A page, as people know it (its title) and as the repository does (its path)."""

    doc_id: str
    title: str
    path: str


@dataclass(frozen=True)
class Reference:
    """One place a page names a picture: the page, the place, and the address as written."""

    page: PageRef
    use: PictureUse

    @property
    def old_text(self) -> str:
        return self.use.written


@dataclass(frozen=True)
class LibraryPicture:
    path: str  # "static/img/uploads/campus.png"
    sha: str  # the git blob sha: equal bytes, equal sha
    size: int | None  # bytes, from the tree listing
    pixels: PixelSize | None  # None until its bytes were read
    references: tuple[Reference, ...] = ()

    @property
    def name(self) -> str:
        return posixpath.basename(self.path)

    @property
    def pages(self) -> tuple[PageRef, ...]:
        """The pages that use it, each once, in the order of the list."""
        return tuple(dict.fromkeys(r.page for r in self.references))

    @property
    def used(self) -> bool:
        return bool(self.references)


@dataclass(frozen=True)
class MissingPicture:
    """A picture pages name that the repository does not have."""

    path: str
    references: tuple[Reference, ...]

    @property
    def pages(self) -> tuple[PageRef, ...]:
        return tuple(dict.fromkeys(r.page for r in self.references))


@dataclass(frozen=True)
class PictureLibrary:
    pictures: tuple[LibraryPicture, ...]
    missing: tuple[MissingPicture, ...] = ()
    unread_pages: tuple[PageRef, ...] = ()  # pages whose text was not in the cache
    _by_path: dict[str, LibraryPicture] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._by_path.update((p.path, p) for p in self.pictures)

    @property
    def unused(self) -> tuple[LibraryPicture, ...]:
        """The pictures no page uses."""
        return tuple(p for p in self.pictures if not p.used)

    def find(self, path: str) -> LibraryPicture | None:
        return self._by_path.get(path)

    def search(self, needle: str) -> tuple[LibraryPicture, ...]:
        """The pictures whose name or folder contains ``needle`` (case ignored, Hangul as
        typed: both sides composed the same way)."""
        wanted = unicodedata.normalize("NFC", needle).strip().casefold()
        if not wanted:
            return self.pictures
        return tuple(
            p for p in self.pictures if wanted in unicodedata.normalize("NFC", p.path).casefold()
        )

    def same_as(self, data: bytes) -> LibraryPicture | None:
        """The picture whose bytes are ``data`` (an upload that is already on the site)."""
        sha = git_blob_sha(data)
        return next((p for p in self.pictures if p.sha == sha), None)

    def references_to(self, path: str) -> list[tuple[PageRef, PictureUse, str]]:
        """Every place that names the picture at ``path``: (page, place, address as written)."""
        picture = self.find(path)
        refs = picture.references if picture is not None else ()
        return [(r.page, r.use, r.old_text) for r in refs]

    def deletion_refusal(self, path: str) -> Text | None:
        """Why the picture at ``path`` may not be deleted (pages still use it), or None."""
        picture = self.find(path)
        if picture is None or not picture.used:
            return None
        return Text(
            "{picture} cannot be deleted: it is still used on {pages}. Take it out of those "
            "pages first.",
            picture=picture.name,
            pages=titles(picture.pages),
        )

    def missing_pixels(self) -> list[str]:
        """The blob shas of the pictures whose pixel size is not known yet."""
        return [p.sha for p in self.pictures if p.pixels is None]

    def with_pixels(self, blobs: Mapping[str, bytes]) -> PictureLibrary:
        """The same library with the pixel sizes read from ``blobs`` (sha → bytes)."""
        pictures = tuple(
            replace(p, pixels=pixel_size(blobs[p.sha]))
            if p.pixels is None and p.sha in blobs
            else p
            for p in self.pictures
        )
        return PictureLibrary(pictures, self.missing, self.unread_pages)


def titles(pages: Iterable[PageRef]) -> str:
    """Pages named by their titles, for a sentence: ‘입학 안내’, ‘교육과정’."""
    return ", ".join(f"‘{p.title}’" for p in pages)


def _decode(data: bytes) -> str:
    # As the store decodes a page: invalid bytes kept, so offsets match the text it loads.
    return data.decode("utf-8", "surrogateescape")


def build_library(
    files: Iterable[_File],
    pages: Iterable[_Page],
    read: Callable[[str], bytes | None],
) -> PictureLibrary:
    """The library of the listing ``files`` (tree entries; pictures are picked out of them) and
    the documents ``pages``, whose texts and pictures' bytes ``read(sha)`` gives when it has them
    (the blob cache; None otherwise: no request is made)."""
    all_files = list(files)
    known = {f.path for f in all_files}
    pictures = [f for f in all_files if is_picture_file(f.path)]
    refs: dict[str, list[Reference]] = {}
    unread: list[PageRef] = []
    for page in pages:
        ref = PageRef(page.doc_id, page.title, page.path)
        data = read(page.sha)
        if data is None:
            unread.append(ref)
            continue
        for use in page_pictures(_decode(data), page.path):
            if use.path is not None:
                refs.setdefault(use.path, []).append(Reference(ref, use))
    entries = []
    for f in sorted(pictures, key=lambda f: f.path):
        data = read(f.sha)
        entries.append(
            LibraryPicture(
                f.path,
                f.sha,
                f.size,
                pixel_size(data) if data is not None else None,
                tuple(refs.get(f.path, ())),
            )
        )
    missing = tuple(
        MissingPicture(path, tuple(found))
        for path, found in sorted(refs.items())
        if path not in known and (is_picture_file(path) or path.startswith(DOCS_DIR + "/"))
    )
    return PictureLibrary(tuple(entries), missing, tuple(unread))


def library_from_store(store: Any) -> PictureLibrary:
    """The library of a document store's last listing and its blob cache (no request)."""
    snap = store.snapshot
    if snap is None:
        return PictureLibrary(())
    return build_library(snap.images, snap.docs, store.cache.get)


async def load_pixels(store: Any, library: PictureLibrary) -> PictureLibrary:
    """``library`` with the pixel sizes of the pictures whose bytes were not cached, read
    through the store (by blob sha, then cached: the next time costs nothing)."""
    wanted = library.missing_pixels()
    if not wanted:
        return library
    blobs = await store.fetch_blobs(wanted)
    return library.with_pixels(blobs)


@dataclass(frozen=True)
class DeleteResult:
    ok: bool
    text: Text
    commit_sha: str | None = None

    def user_message(self) -> str:
        return self.text()


def delete_message(path: str) -> str:
    return f"delete(image): remove {posixpath.basename(path)}"


async def delete_picture(
    client: Any, library: PictureLibrary, path: str, *, branch: str | None = None
) -> DeleteResult:
    """Delete the picture at ``path`` unless a page uses it (then the pages are named and
    nothing is sent). The delete names the sha listed, so a picture replaced since is kept."""
    picture = library.find(path)
    if picture is None:
        return DeleteResult(False, Text("There is no picture {name}.", name=path))
    refusal = library.deletion_refusal(path)
    if refusal is not None:
        return DeleteResult(False, refusal)
    kwargs: dict[str, Any] = {"branch": branch} if branch else {}
    try:
        res = await client.delete_file(path, picture.sha, delete_message(path), **kwargs)
    except GitHubError as exc:
        return DeleteResult(
            False, Text("{name} was not deleted: {error}", name=picture.name, error=exc)
        )
    return DeleteResult(True, Text("Deleted {name}.", name=picture.name), res)
