"""The picture library's side of the core, for one window (Qt only for the thumbnails).

``LibrarySource`` builds the library of the last listing off the UI thread from the pages'
texts in the blob cache (pictures' bytes are not read for it — their pixel sizes come with their
thumbnails), makes the thumbnail loader (pictures' bytes from the blob cache, else read by blob
sha through the client), saves a description and deletes a picture. It asks the window only
what the window alone knows (:class:`LibraryPages`: the page open in it and its editor).

Renaming or moving a picture rewrites every page that names it in one commit, all or nothing
(``core/changes/pictures.rename_picture``); making a large picture smaller commits the smaller
copy at the same path (``shrink_picture``; the original stays in the history). Both need the
window's workspace (its editor, save queue and lock manager): ``can_change_many``. Before a
rename the source tells where the picture would go and which pages stop it now (someone else
edits one, or it is open here with text not saved yet); when it is sent the list is read
again first, and asked once more. While GitHub cannot be reached either waits in the save
queue as ONE item, like a replacement across pages: it goes out later under the same rules —
all or nothing for a rename, on the head then found, a page changed or taken meanwhile
stopping it —, so nothing can be half-written and the person's decision is not lost. The
open page follows a rename that landed (``LibraryPages.landed``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Collection, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject

from modu_desktop.core.changes.outcome import ChangeOutcome, ChangeState, PageDone, PageNote
from modu_desktop.core.changes.pictures import (
    RenameRefused,
    rename_blockers,
    rename_picture,
    rename_target,
    shrink_picture,
)
from modu_desktop.core.docops.describe import save_alt_text
from modu_desktop.core.pictures.alt_text import AltChange, AltCode, AltResult
from modu_desktop.core.pictures.found import pictures_needed
from modu_desktop.core.pictures.library import (
    DeleteResult,
    LibraryPicture,
    PictureLibrary,
    build_library,
    delete_picture,
)
from modu_desktop.core.text import Text
from modu_desktop.ui.pictures.thumbnails import ThumbnailCache, ThumbnailLoader

log = logging.getLogger(__name__)

THUMBNAIL_FOLDER = "thumbnails"  # under the app's cache folder
PRUNE_EVERY_S = 3600.0  # the thumbnails on disk are pruned at most this often


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

    def unsaved(self) -> Collection[str]:
        """The pages open here with text not saved yet (doc ids)."""
        ...

    def landed(self, pages: Sequence[PageDone], commit_sha: str | None) -> None:
        """A change of these pages landed: the open page shows its new text and builds on it."""
        ...


@dataclass(frozen=True)
class NotSent:
    """Why a rename or a shrink was not sent: one sentence, and the pages that stop it (a
    rename is all or nothing: each of them has to be free first)."""

    text: Text
    blockers: tuple[PageNote, ...] = ()


Runner = Callable[[Coroutine[Any, Any, Any]], "asyncio.Future[Any]"]


class LibrarySource:
    """The library's core side for one window (see the module docstring)."""

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
        workspace: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.client = client
        self.locks = locks
        self.login = login
        self.thumbnail_dir = Path(cache_dir) / THUMBNAIL_FOLDER
        self.pages = pages
        self.can_write = can_write
        self.run = run
        self.workspace = workspace  # a ``Workspace``: renaming and shrinking need it
        self.clock = clock
        self._pruned_at: float | None = None

    @property
    def can_change_many(self) -> bool:
        """Renaming, moving and shrinking are offered (a window that may write)."""
        return self.can_write and self.workspace is not None

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
        self._prune_when_due(library)
        return library

    def _prune_when_due(self, library: PictureLibrary) -> None:
        """The thumbnails on disk kept within their bounds, in the background: those of the
        library's pictures stay (``ThumbnailCache.prune``)."""
        now = self.clock()
        if self._pruned_at is not None and now - self._pruned_at < PRUNE_EVERY_S:
            return
        self._pruned_at = now
        keep = {p.sha for p in library.pictures}
        cache = ThumbnailCache(self.thumbnail_dir)

        def prune() -> None:
            try:
                report = cache.prune(keep)
            except OSError as exc:  # a cache: pruned again next time
                log.info("thumbnails not pruned: %s", exc)
                return
            if report.removed:
                log.info(
                    "thumbnails pruned: %d file(s), %d bytes", report.removed, report.removed_bytes
                )

        asyncio.get_running_loop().run_in_executor(None, prune)

    def listing(self) -> str | None:
        """Which listing the library is built from now (its tree sha)."""
        snap = self.store.snapshot
        return str(snap.tree_sha) if snap is not None else None

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

    # ------------------------------------------------------------------ many pages at once
    def server_now(self) -> float:
        """GitHub's time now, for when a lock was taken."""
        return float(self.workspace.server_now()) if self.workspace is not None else time.time()

    def taken_paths(self) -> list[str]:
        """Every file of the last listing a picture may not be renamed to."""
        snap = self.store.snapshot
        if snap is None:
            return []
        return [e.path for e in snap.images] + [d.path for d in snap.docs]

    def rename_target(
        self, library: PictureLibrary, picture: LibraryPicture, new: str
    ) -> str | RenameRefused:
        """Where ``picture`` would go when called ``new`` (a name, or a folder and a name), or
        why it may not (``core/changes/pictures.rename_target``)."""
        return rename_target(library, picture.path, new, taken=self.taken_paths())

    def rename_refusal(self, library: PictureLibrary) -> Text | None:
        """Why no rename can be asked now: not every page could be read, so some page naming
        the picture might not be rewritten."""
        if library.unread_pages:
            return Text(
                "Not every page could be read, so the app cannot tell every page that shows "
                "this picture. Refresh the list and try again."
            )
        return None

    def unsaved(self) -> Collection[str]:
        return self.pages.unsaved() if self.pages is not None else ()

    async def rename_blockers(self, picture: LibraryPicture) -> tuple[PageNote, ...]:
        """The pages that stop the rename of ``picture`` now, as the last listing shows them."""
        snap = self.store.snapshot
        lock_files = snap.locks if snap is not None else {}
        return await rename_blockers(picture, self.locks, lock_files, unsaved=self.unsaved())

    async def rename(self, old: str, new_path: str) -> ChangeOutcome | NotSent:
        """Rename the picture at ``old`` to ``new_path`` and rewrite every page naming it, in
        one commit. The list is read again first and the pages asked once more: a page someone
        started editing since the dialog opened stops it, and nothing is sent."""
        ws = self.workspace
        assert ws is not None, "renaming needs the window's workspace"
        await self.refresh()
        library = await self.load()
        picture = library.find(old)
        refusal = self.rename_refusal(library)
        if picture is None or refusal is not None:
            return NotSent(refusal or Text("There is no picture {name}.", name=old))
        blockers = await self.rename_blockers(picture)
        if blockers:
            return NotSent(_blocked_text(), blockers)
        out = await rename_picture(
            ws.client,
            ws.store,
            old,
            new_path,
            ws.editor,
            spool=ws.spool,
            on_queued=ws.saves.on_queued,
        )
        if isinstance(out, RenameRefused):
            return NotSent(out.text)
        await self._landed(out)
        return out

    async def picture_bytes(self, picture: LibraryPicture) -> bytes:
        """The picture's bytes as listed (from the blob cache, else read by blob sha)."""
        data: bytes = await self.store.read_blob(picture.sha)
        return data

    async def shrink(
        self, picture: LibraryPicture, smaller: bytes, width: int
    ) -> ChangeOutcome | NotSent:
        """Commit ``smaller`` (``width`` pixels wide) over the listed version of ``picture``,
        at its own path; the original stays in the history."""
        ws = self.workspace
        assert ws is not None, "making a picture smaller needs the window's workspace"
        out = await shrink_picture(
            ws.client,
            picture.path,
            picture.sha,
            smaller,
            width,
            ws.editor,
            spool=ws.spool,
            on_queued=ws.saves.on_queued,
        )
        if isinstance(out, RenameRefused):
            return NotSent(out.text)
        await self._landed(out)
        return out

    async def _landed(self, outcome: ChangeOutcome) -> None:
        """A change that landed reaches the window: the open page builds on its new version
        and the list is read again (the library reloads with it)."""
        if outcome.state is not ChangeState.COMMITTED:
            return
        if self.pages is not None:
            self.pages.landed(outcome.committed, outcome.commit_sha)
        await self.refresh()


def _blocked_text() -> Text:
    return Text(
        "Nothing was changed: the picture and every page that shows it change together, and "
        "these pages cannot be changed now:"
    )
