"""Pictures of the repository for the preview: a local mirror filled on demand.

The preview's resolver must answer synchronously with a ``file:`` URL, so the first time a
picture is asked for it answers "not yet", fetches it in the background through the git database
(tree entry → blob by sha, never the Contents API), writes it under the cache dir, and asks the
preview to render again. Site paths map like the site does: ``/img/x.png`` and
``{baseUrl}img/x.png`` → ``static/img/x.png``; ``../static/img/x.png``; and paths relative to
the document (``./images/a.png`` → ``docs/…/images/a.png``). Nothing outside the mirror and
nothing remote is ever served.
"""

from __future__ import annotations

import contextlib
import logging
import os
import posixpath
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

log = logging.getLogger(__name__)

IMAGE_EXTS = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".bmp", ".ico")


def repo_path_for(src: str, doc_path: str | None, base_url: str = "/") -> str | None:
    """The repository path a Markdown image source points at, or None if it is not local."""
    path = unquote(src.split("#", 1)[0].split("?", 1)[0].strip())
    if not path or "://" in path or path.startswith(("//", "data:")) or ":" in path.split("/")[0]:
        return None
    base = base_url if base_url.endswith("/") else base_url + "/"
    if path.startswith(base) and base != "/":
        rel = "static/" + path[len(base) :]
    elif path.startswith("/"):
        rel = "static/" + path.lstrip("/")
    elif path.startswith("img/"):
        rel = "static/" + path
    else:
        folder = posixpath.dirname(doc_path or "docs/x.md")
        rel = posixpath.join(folder, path)
    rel = posixpath.normpath(rel)
    if rel.startswith("..") or rel.startswith("/") or not rel.lower().endswith(IMAGE_EXTS):
        return None
    return rel


class RepoImageMirror:
    def __init__(
        self,
        store: Any,
        root: Path,
        *,
        spawn: Callable[[Any], Any],
        on_ready: Callable[[], None],
        doc_path: Callable[[], str | None],
        base_url: str = "/",
    ) -> None:
        self.store = store
        self.root = root.resolve()
        self._spawn = spawn
        self._on_ready = on_ready
        self._doc_path = doc_path
        self.base_url = base_url
        self._requested: set[str] = set()
        self.missing: set[str] = set()

    def local_file(self, rel: str) -> Path | None:
        p = (self.root / rel).resolve()
        if self.root not in p.parents:
            return None
        return p

    def resolve(self, src: str) -> str | None:
        rel = repo_path_for(src, self._doc_path(), self.base_url)
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
        """A picture we just uploaded: show it before the next pull."""
        rel = repo_path_for(site_path, self._doc_path(), self.base_url)
        p = self.local_file(rel) if rel else None
        if p is None:
            return
        with contextlib.suppress(OSError):
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
            self._on_ready()
