"""Thumbnails of the site's pictures: made off the UI thread, kept on disk by blob sha.

* :class:`ThumbnailCache` — one small PNG per picture content under the app's cache folder
  (``thumbnails/{px}/ab/cdef….png``, keyed by the git blob sha: equal bytes, one thumbnail), with
  the picture's own pixel size in a text chunk, so a second look needs neither the picture nor a
  decode. Written like the blob cache: a temporary file renamed over, no fsync (a torn file does
  not load and is made again).
  ``prune`` keeps the library's thumbnails and, within ``THUMBNAIL_BOUNDS``, the newest others.
* :func:`make_thumbnail` — the picture's bytes → a thumbnail (Qt's image readers, turned upright
  by the photo's EXIF orientation, decoded straight to the small size where the format can);
  None for bytes no reader takes. Safe in a worker thread (``QImage`` is reentrant).
* :class:`ThumbnailLoader` — ``request(sha, urgent=)``; ``ready(sha, QImage, PixelSize | None)``
  or ``failed(sha)`` arrive on the UI thread. The work runs on the loader's own
  ``QThreadPool`` (at most ``workers`` threads, below the UI thread's priority): the disk
  thumbnail, else the picture's bytes from the blob cache, else — on the Qt loop, at most
  ``fetches`` at once — ``fetch(sha)``, the client's read by blob sha. Bytes read that way are
  not kept (the thumbnail and the picture's pixel size are): 500 photos would be some 300 MB on
  disk, and writing them held the UI thread. Urgent requests (what the list is drawing) go
  before the rest, and bytes just read go first of all, so no more than a few pictures are in
  memory at a time.
  Finished thumbnails are taken in on the UI thread in turns of at most ``DRAIN_BUDGET_S``
  (500 thumbnails from disk arrive within a blink: taken in at once they would hold the window
  for a noticeable moment).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import os
import shutil
import sys
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QIODevice,
    QObject,
    Qt,
    QThread,
    QThreadPool,
    QTimer,
    Signal,
)
from PySide6.QtGui import QImage, QImageReader

from modu_desktop.core.atomic import CACHE_TEMP_PREFIX, write_cache_file
from modu_desktop.core.github.blobcache import CacheBounds, CacheUsage, PruneReport
from modu_desktop.core.pictures.pixels import PixelSize, pixel_size
from modu_desktop.ui.pictures.image_reading import read_at_most

log = logging.getLogger(__name__)

THUMB_PX = 112  # the longest side of a thumbnail, in pixels
PIXELS_KEY = "modu-pixels"  # the PNG text chunk holding the picture's own size, "1920x1080"
WORKERS = 2  # threads making thumbnails (decoding is the slow part; the machine may have two)
FETCHES = 8  # pictures read from GitHub at once (the store reads 8 blobs at once too)
DRAIN_MS = 25  # how often finished thumbnails are taken in on the UI thread
DRAIN_BUDGET_S = 0.006  # and for how long at most each time
# Thumbnails of pictures the site no longer has (replaced, renamed, deleted) are kept a while,
# as old blobs are: a month, within 32 MB (some 6,000 thumbnails; the site's own always stay).
THUMBNAIL_BOUNDS = CacheBounds(max_bytes=32 * 1024 * 1024, max_age_s=30 * 86400.0)
STRAY_TEMP_S = 600.0  # a temporary file this old was left by a writer that died


class ThumbnailCache:
    """Thumbnails on disk, keyed by blob sha (see the module docstring)."""

    def __init__(self, folder: str | os.PathLike[str], px: int = THUMB_PX) -> None:
        self.px = px
        self.dir = Path(folder) / str(px)

    def path(self, sha: str) -> Path:
        sha = sha.lower()
        if len(sha) != 40 or any(c not in "0123456789abcdef" for c in sha):
            raise ValueError(f"not a git sha: {sha!r}")
        return self.dir / sha[:2] / f"{sha[2:]}.png"

    def load(self, sha: str) -> tuple[QImage, PixelSize | None] | None:
        """The thumbnail and the picture's pixel size, or None when there is none (or it is
        damaged: then it is made again)."""
        try:
            data = self.path(sha).read_bytes()
        except (OSError, ValueError):
            return None
        image = QImage()
        if not image.loadFromData(data, "PNG"):  # type: ignore[call-overload]
            return None
        return image, _pixels_from(image.text(PIXELS_KEY))

    def store(self, sha: str, image: QImage, pixels: PixelSize | None) -> None:
        if pixels is not None:
            image.setText(PIXELS_KEY, f"{pixels.width}x{pixels.height}")
        target = self.path(sha)
        buf = QBuffer()
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buf, "PNG")  # type: ignore[call-overload]
        data = bytes(buf.data().data())
        buf.close()
        try:
            write_cache_file(target, data)
        except OSError as exc:  # a cache: the thumbnail is simply made again next time
            log.warning("thumbnail cache: cannot write %s: %s", target, exc)

    def prune(
        self,
        keep: Iterable[str],
        bounds: CacheBounds = THUMBNAIL_BOUNDS,
        *,
        now: float | None = None,
    ) -> PruneReport:
        """Delete the thumbnails not wanted, as the blob cache prunes itself: every one whose
        sha is in ``keep`` (the pictures of the library now) stays; of the others (pictures
        replaced, renamed or deleted since), those younger than ``bounds.max_age_s`` stay,
        newest first, while all together fit in ``bounds.max_bytes``. Thumbnails of another
        size (an older version of the app) and temporary files left by a writer that died go
        too. Safe while the loader reads and writes (a thumbnail pruned meanwhile is made
        again); meant for a worker thread."""
        now = time.time() if now is None else now
        wanted = {k.lower() for k in keep}
        removed, removed_bytes = self._other_sizes()
        found: list[tuple[str, Path, int, float]] = []
        for f in self.dir.glob("??/*") if self.dir.is_dir() else ():
            with contextlib.suppress(OSError):
                st = f.stat()
                if f.name.startswith(CACHE_TEMP_PREFIX):
                    if now - st.st_mtime > STRAY_TEMP_S:
                        f.unlink()
                        removed += 1
                    continue
                found.append((f.parent.name + f.stem, f, st.st_size, st.st_mtime))
        kept = [c for c in found if c[0] in wanted]
        budget = bounds.max_bytes - sum(c[2] for c in kept)
        for c in sorted((c for c in found if c[0] not in wanted), key=lambda c: -c[3]):
            if now - c[3] <= bounds.max_age_s and c[2] <= budget:
                budget -= c[2]
                kept.append(c)
                continue
            try:
                c[1].unlink()
            except OSError:
                kept.append(c)
                continue
            removed += 1
            removed_bytes += c[2]
        size = sum(c[2] for c in kept)
        return PruneReport(removed, removed_bytes, CacheUsage(len(kept), size, size))

    def _other_sizes(self) -> tuple[int, int]:
        """Thumbnails of sizes this version does not draw: (files, bytes) removed."""
        files = size = 0
        root = self.dir.parent
        for other in root.iterdir() if root.is_dir() else ():
            if other == self.dir or not other.is_dir() or not other.name.isdigit():
                continue
            for f in other.rglob("*"):
                with contextlib.suppress(OSError):
                    if f.is_file():
                        n = f.stat().st_size
                        f.unlink()
                        files, size = files + 1, size + n
            shutil.rmtree(other, ignore_errors=True)
        return files, size


def _pixels_from(text: str) -> PixelSize | None:
    w, _, h = text.partition("x")
    if w.isdigit() and h.isdigit() and int(w) > 0 and int(h) > 0:
        return PixelSize(int(w), int(h))
    return None


def make_thumbnail(data: bytes, px: int = THUMB_PX) -> QImage | None:
    """A thumbnail of the picture ``data`` whose longest side is at most ``px`` (never
    enlarged), or None when no image reader takes the bytes."""
    buf = QBuffer()
    buf.setData(QByteArray(data))
    buf.open(QIODevice.OpenModeFlag.ReadOnly)
    image = read_at_most(QImageReader(buf), px)
    buf.close()
    if image.isNull():
        return None
    if max(image.width(), image.height()) > px:
        image = image.scaled(
            px, px, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
        )
    return image


def give_back_free_memory() -> None:
    """After a burst of large reads glibc keeps the freed blocks for later (its threshold for
    handing big blocks straight back grows with them): hand them back once. Other systems'
    allocators return large blocks by themselves."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        ctypes.CDLL(None).malloc_trim(0)


class ThumbnailLoader(QObject):
    """Thumbnails on request, made in the background (see the module docstring)."""

    ready = Signal(str, object, object)  # sha, QImage, PixelSize | None
    failed = Signal(str)  # sha: no thumbnail (not a picture Qt can draw, or unreadable)

    def __init__(
        self,
        cache: ThumbnailCache,
        cached_bytes: Callable[[str], bytes | None],
        fetch: Callable[[str], Awaitable[bytes]],
        run: Callable[[Any], Any],
        parent: QObject | None = None,
        *,
        workers: int = WORKERS,
        fetches: int = FETCHES,
        make: Callable[[bytes, int], QImage | None] = make_thumbnail,
    ) -> None:
        super().__init__(parent)
        self.cache = cache
        self.cached_bytes = cached_bytes  # the blob cache's read (called in a worker thread)
        self.fetch = fetch  # the client's read by blob sha (awaited on the Qt loop)
        self.run = run  # starts a coroutine as one of the window's jobs
        self.make = make
        self.fetches = fetches
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(max(1, workers))
        self.pool.setThreadPriority(QThread.Priority.LowPriority)  # the window answers first
        # (sha, "ready" | "need" | "failed", image, pixels), from the workers to the UI thread
        self._results: deque[tuple[str, str, QImage | None, PixelSize | None]] = deque()
        self._drain = QTimer(self)
        self._drain.setInterval(DRAIN_MS)
        self._drain.timeout.connect(self._take_results)
        self._read_since_trim = 0
        self._lock = threading.Lock()
        self._first: deque[str] = deque()  # bytes just read: made before anything else
        self._urgent: deque[str] = deque()
        self._later: deque[str] = deque()
        self._state: dict[str, str] = {}  # queued | working | fetching | done | failed
        self._bytes: dict[str, bytes] = {}  # read from GitHub, waiting for a worker
        self._running = 0
        self._to_fetch: deque[str] = deque()
        self._fetching: set[asyncio.Future[Any]] = set()
        self._stopped = False
        self.made = 0  # thumbnails decoded from a picture (not loaded from disk)

    # ------------------------------------------------------------------ asking
    def request(self, sha: str, *, urgent: bool = False) -> None:
        """Make or load the thumbnail of the picture ``sha`` (``ready`` or ``failed`` follows
        once; asking again only moves it forward when ``urgent``)."""
        if self._stopped:
            return
        with self._lock:
            state = self._state.get(sha)
            if state is None:
                self._state[sha] = "queued"
                (self._urgent if urgent else self._later).append(sha)
            elif state == "queued" and urgent:
                self._urgent.append(sha)  # the copy in the later queue is skipped then
            else:
                return
        self._start_workers()

    def request_all(self, shas: Iterable[str]) -> None:
        """``request`` for many pictures, not urgent, queued at once before any worker starts
        (asked one by one, 500 pictures found the workers already competing for the
        interpreter)."""
        if self._stopped:
            return
        with self._lock:
            for sha in shas:
                if sha not in self._state:
                    self._state[sha] = "queued"
                    self._later.append(sha)
        self._start_workers()

    def pending(self) -> int:
        """Pictures asked for whose thumbnail has not arrived (nor failed) yet."""
        with self._lock:
            return sum(1 for s in self._state.values() if s not in ("done", "failed"))

    def stop(self) -> None:
        """No more work: queued requests are dropped, reads from GitHub cancelled, and the
        threads finish the thumbnail in hand (before the loader may go)."""
        self._stopped = True
        with self._lock:
            self._first.clear()
            self._urgent.clear()
            self._later.clear()
            self._bytes.clear()
        self._to_fetch.clear()
        for task in list(self._fetching):
            task.cancel()
        self._drain.stop()
        self.pool.waitForDone()
        self._results.clear()

    # ------------------------------------------------------------------ the workers
    def _start_workers(self) -> None:
        if not self._drain.isActive():
            self._drain.start()
        with self._lock:
            wanted = min(
                self.pool.maxThreadCount() - self._running,
                len(self._first) + len(self._urgent) + len(self._later),
            )
            self._running += max(0, wanted)
        for _ in range(max(0, wanted)):
            self.pool.start(self._work)

    def _next(self) -> tuple[str, bytes | None] | None:
        """The next picture to work on (called under the lock), or None."""
        for queue in (self._first, self._urgent, self._later):
            while queue:
                sha = queue.popleft()
                if self._state.get(sha) == "queued":
                    self._state[sha] = "working"
                    return sha, self._bytes.pop(sha, None)
        return None

    def _work(self) -> None:
        while True:
            with self._lock:
                job = None if self._stopped else self._next()
                if job is None:
                    self._running -= 1
                    return
            sha, data = job
            try:
                kind, image, pixels = self._thumbnail(sha, data)
            except Exception:  # one bad picture must not end the others' work
                log.exception("thumbnail of %s failed", sha)
                kind, image, pixels = "failed", None, None
            self._results.append((sha, kind, image, pixels))

    def _thumbnail(
        self, sha: str, data: bytes | None
    ) -> tuple[str, QImage | None, PixelSize | None]:
        """In a worker thread: the disk thumbnail, else one made from the bytes (given, or in
        the blob cache), else "need" (the bytes must be read from GitHub)."""
        found = self.cache.load(sha)
        if found is not None:
            return "ready", found[0], found[1]
        if data is None:
            data = self.cached_bytes(sha)
        if data is None:
            return "need", None, None
        pixels = pixel_size(data)
        image = self.make(data, self.cache.px)
        if image is None:
            return "failed", None, pixels
        self.cache.store(sha, image, pixels)
        with self._lock:
            self.made += 1
        return "ready", image, pixels

    # ------------------------------------------------------------------ on the UI thread
    def _take_results(self) -> None:
        """The finished thumbnails, for a few milliseconds at most (the rest next time)."""
        end = time.perf_counter() + DRAIN_BUDGET_S
        while self._results and not self._stopped:
            self._done(*self._results.popleft())
            if time.perf_counter() > end:
                return
        with self._lock:
            idle = self._running == 0 and not self._results
        if idle and not self._to_fetch and not self._fetching:
            self._drain.stop()
            if self._read_since_trim:
                # A burst of reads is over. Each answer (megabytes of a picture) stayed in a
                # reference cycle of the HTTP client's until the collector came by: collect once
                # (some 50 ms, when nothing is being shown), then hand the free memory back.
                self._read_since_trim = 0
                gc.collect()
                self.pool.start(give_back_free_memory)

    def _done(self, sha: str, kind: str, image: Any, pixels: Any) -> None:
        if self._stopped:
            return
        if kind == "need":
            with self._lock:
                self._state[sha] = "fetching"
            self._to_fetch.append(sha)
            self._pump()
            return
        with self._lock:
            self._state[sha] = "done" if kind == "ready" else "failed"
        if kind == "ready":
            self.ready.emit(sha, image, pixels)
        else:
            self.failed.emit(sha)

    def _pump(self) -> None:
        while not self._stopped and self._to_fetch and len(self._fetching) < self.fetches:
            sha = self._to_fetch.popleft()
            task = self.run(self._read(sha))
            self._fetching.add(task)
            task.add_done_callback(self._fetch_done)

    def _fetch_done(self, task: asyncio.Future[Any]) -> None:
        self._fetching.discard(task)
        self._pump()

    async def _read(self, sha: str) -> None:
        try:
            data = await self.fetch(sha)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # one unreadable picture: a placeholder, never a notice
            log.warning("could not read picture %s: %r", sha, exc)
            with self._lock:
                self._state[sha] = "failed"
            self.failed.emit(sha)
            return
        if self._stopped:
            return
        with self._lock:
            self._state[sha] = "queued"
            self._bytes[sha] = data
            self._first.append(sha)
        self._read_since_trim += 1
        self._start_workers()
