"""Pictures of the repository on disk, for the preview and the PDF: a local mirror.

The preview's resolver must answer synchronously with a ``file:`` URL, so the first time a
picture is asked for it answers "not yet", fetches it in the background through the git database
(tree entry → blob by sha, never the Contents API), writes it under the cache dir, and asks the
preview to render again. An address names the file the site build takes
(:func:`~modu_desktop.core.pictures.rule.locate_picture`: ``/img/x.png`` →
``static/img/x.png``, ``img/x.png`` → the document's folder, ``@site/…``). Nothing outside the
mirror and nothing remote is ever served. :func:`fill_folder` writes every picture one page
shows into a folder at once (the PDF export, which cannot wait for a second render).
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from modu_desktop.core.pictures.found import pictures_needed
from modu_desktop.core.pictures.rule import PICTURE_SUFFIXES, repo_picture_path

log = logging.getLogger(__name__)


def mirrored_path(src: str, doc_path: str | None) -> str | None:
    """The repository file the preview shows for a picture address in the document at
    ``doc_path`` (where the site build takes it from), or None: remote, outside the repository,
    or not a picture file (the mirror fetches nothing else)."""
    path = repo_picture_path(src, doc_path or "docs/x.md")
    if path is None or not path.lower().endswith(PICTURE_SUFFIXES):
        return None
    return path


class RepoImageMirror:
    def __init__(
        self,
        store: Any,
        root: Path,
        *,
        spawn: Callable[[Any], Any],
        on_ready: Callable[[], None],
        doc_path: Callable[[], str | None],
    ) -> None:
        self.store = store
        self.root = root.resolve()
        self._spawn = spawn
        self._on_ready = on_ready
        self._doc_path = doc_path
        self._requested: set[str] = set()
        self.missing: set[str] = set()

    def local_file(self, rel: str) -> Path | None:
        p = (self.root / rel).resolve()
        if self.root not in p.parents:
            return None
        return p

    def resolve(self, src: str) -> str | None:
        rel = mirrored_path(src, self._doc_path())
        if rel is None:
            return None
        p = self.local_file(rel)
        if p is None:
            return None
        if p.is_file():
            return p.as_uri()
        if rel not in self._requested:
            self._requested.add(rel)
            self._spawn(self._fetch(rel))
        return None

    async def _fetch(self, rel: str) -> None:
        try:
            entry = await self.store.current_entry(rel)
            if entry is None:
                self.missing.add(rel)
                return
            data = await self.store.read_blob(entry.sha)
        except Exception as exc:
            log.info("picture %s not fetched: %s", rel, exc)
            self._requested.discard(rel)  # try again at the next render
            return
        p = self.local_file(rel)
        if p is None:
            return
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=".img-", suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, p)
        except OSError as exc:
            log.warning("picture cache write failed for %s: %s", rel, exc)
            with contextlib.suppress(OSError, UnboundLocalError):
                os.unlink(tmp)
            return
        self._on_ready()

    def remember(self, site_path: str, data: bytes) -> None:
        """A picture we just uploaded (``site_path``: its address in the document): show it
        before the next pull."""
        rel = mirrored_path(site_path, self._doc_path())
        p = self.local_file(rel) if rel else None
        if p is None:
            return
        with contextlib.suppress(OSError):
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
            self._on_ready()


async def fill_folder(store: Any, folder: Path, text: str, doc_path: str) -> list[str]:
    """Write the repository pictures the page ``doc_path`` shows into ``folder`` (at their
    repository paths), read through the git database; the paths written. A picture the
    repository does not have is left out (the page shows its placeholder)."""
    root = folder.resolve()
    written = []
    for rel in sorted(pictures_needed(text, doc_path)):
        if not rel.lower().endswith(PICTURE_SUFFIXES):
            continue
        target = (root / rel).resolve()
        if root not in target.parents:
            continue
        entry = await store.current_entry(rel)
        if entry is None:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(await store.read_blob(entry.sha))
        written.append(rel)
    return written
