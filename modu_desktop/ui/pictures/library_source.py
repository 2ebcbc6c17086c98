"""The picture library's side of the core, for one window (Qt only for the thumbnails).

``LibrarySource`` builds the library of the last listing off the UI thread from the pages'
texts in the blob cache (pictures' bytes are not read for it — their pixel sizes come with their
thumbnails), makes the thumbnail loader (pictures' bytes from the blob cache, else read by blob
sha through the client), saves a description and deletes a picture. It asks the window only
what the window alone knows (:class:`LibraryPages`: the page open in it and its editor).

Renaming or moving a picture, and making a large one smaller, change many pages in one commit;
they are not offered yet (``LibrarySource.can_change_many`` is False).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject

from modu_desktop.core.docops.describe import save_alt_text
from modu_desktop.core.pictures.alt_text import AltChange, AltCode, AltResult
from modu_desktop.core.pictures.found import pictures_needed
from modu_desktop.core.pictures.library import (
    DeleteResult,
    PictureLibrary,
    build_library,
    delete_picture,
)
from modu_desktop.core.text import Text
from modu_desktop.ui.pictures.thumbnails import ThumbnailCache, ThumbnailLoader

THUMBNAIL_FOLDER = "thumbnails"  # under the app's cache folder


@dataclass(frozen=True)
class OpenPage:
    """The page open in the window, as its editor holds it now."""

    doc_id: str
    title: str
    path: str
    text: str
    editable: bool
    modified: bool


class LibraryPages(Protocol):
    """What the library asks the window."""

    def open_page(self) -> OpenPage | None: ...

    async def change_open_page(self, change: AltChange) -> AltResult: ...

    async def show_page(self, doc_id: str) -> None: ...

    async def refresh(self) -> None: ...


Runner = Callable[[Coroutine[Any, Any, Any]], "asyncio.Future[Any]"]


class LibrarySource:
    """The library's core side for one window (see the module docstring)."""

    can_change_many = False  # rename/move and shrink wait for one commit over many files

    def __init__(
        self,
        store: Any,
        client: Any,
        locks: Any,
        login: str,
        cache_dir: str | Path,
        *,
        pages: LibraryPages | None = None,
        can_write: bool = True,
        run: Runner = asyncio.ensure_future,
    ) -> None:
        self.store = store
        self.client = client
        self.locks = locks
        self.login = login
        self.thumbnail_dir = Path(cache_dir) / THUMBNAIL_FOLDER
        self.pages = pages
        self.can_write = can_write
        self.run = run

    # ------------------------------------------------------------------ reading
    async def load(self) -> PictureLibrary:
        """The library of the store's last listing. Pages whose text is not in the blob cache
        are read first (by blob sha), so every use is known."""
        snap = self.store.snapshot
        if snap is None:
            return PictureLibrary(())
        library = await asyncio.get_running_loop().run_in_executor(None, self._build, snap)
        if library.unread_pages:
            unread = {p.doc_id for p in library.unread_pages}
            await self.store.fetch_blobs(d.sha for d in snap.docs if d.doc_id in unread)
            library = await asyncio.get_running_loop().run_in_executor(None, self._build, snap)
        return library

    def _build(self, snap: Any) -> PictureLibrary:
        page_shas = {d.sha for d in snap.docs}
        cache = self.store.cache

        def read(sha: str) -> bytes | None:  # pages only: a picture's bytes wait for its thumbnail
            return cache.get(sha) if sha in page_shas else None

        return build_library(snap.images, snap.docs, read)

    def page_text(self, doc_id: str) -> str | None:
        """The listed version of a page (the one the library's places are counted in)."""
        snap = self.store.snapshot
        doc = snap.doc(doc_id) if snap is not None else None
        data = self.store.cache.get(doc.sha) if doc is not None else None
        return data.decode("utf-8", "surrogateescape") if data is not None else None

    def thumbnails(self, parent: QObject | None = None) -> ThumbnailLoader:
        return ThumbnailLoader(
            ThumbnailCache(self.thumbnail_dir),
            self.store.cache.get,
            self.client.get_blob,
            self.run,
            parent,
        )

    async def show_page(self, doc_id: str) -> None:
        if self.pages is not None:
            await self.pages.show_page(doc_id)

    # ------------------------------------------------------------------ changing
    async def save_alt(self, change: AltChange) -> AltResult:
        """One description changed: in the open page's editor when the page is open here,
        else under the page's lock (``core/pictures/alt_text.py``); the list is read again
        after a save, so the library shows the page as it is now."""
        page = self.pages.open_page() if self.pages is not None else None
        if self.pages is not None and page is not None and page.doc_id == change.doc_id:
            res = await self.pages.change_open_page(change)
        else:
            res = await save_alt_text(self.store, self.locks, self.login, change)
        if res.code is AltCode.SAVED:
            await self.refresh()
        return res

    async def refresh(self) -> None:
        """The listing read again (the window's list with it, when there is a window)."""
        if self.pages is not None:
            await self.pages.refresh()
        else:
            await self.store.refresh()

    def refusal(self, library: PictureLibrary, path: str) -> Text | None:
        """Why the picture at ``path`` may not be deleted: a page uses it (saved, or typed in
        the open page and not saved yet), or not every page could be read."""
        found = library.deletion_refusal(path)
        if found is not None:
            return found
        picture = library.find(path)
        name = picture.name if picture is not None else path.rsplit("/", 1)[-1]
        page = self.pages.open_page() if self.pages is not None else None
        if page is not None and path in pictures_needed(page.text, page.path):
            return Text(
                "{picture} cannot be deleted: “{title}”, open in this window, uses it.",
                picture=name,
                title=page.title,
            )
        if library.unread_pages:
            return Text(
                "{picture} was not deleted: not every page could be read, so the app cannot "
                "tell whether one uses it. Refresh the list and try again.",
                picture=name,
            )
        return None

    async def delete(self, path: str) -> DeleteResult:
        """Delete the picture at ``path`` after reading the list again (a page may have
        started using it since the library was shown); refused while anything uses it."""
        await self.refresh()
        library = await self.load()
        refusal = self.refusal(library, path)
        if refusal is not None:
            return DeleteResult(False, refusal)
        res = await delete_picture(self.client, library, path)
        if res.ok:
            await self.refresh()  # the list without it
        return res
