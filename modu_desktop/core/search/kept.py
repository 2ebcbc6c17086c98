"""The search index's pages kept on disk by blob sha (Qt-free): :class:`KeptPages`.

Reading a page for the search takes the site's parser several milliseconds; a thousand pages
are seconds of work after every start. What the index keeps of a page (each field's place, text
and card) depends only on the page's bytes and on how pages are read, so it is kept in a file
named by the blob sha, as the blob cache keeps the bytes: the next start reads those files back
instead of reading the pages again. A file that cannot be read, or was written by another
version of the reading (:data:`VERSION`), is ignored and the page read again. No fsync: it is a
cache, and a torn file fails to parse.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

from modu_desktop.core.atomic import write_cache_file
from modu_desktop.core.search.model import Place

__all__ = ["KeptPages", "VERSION"]

VERSION = 1
"""Raise when :func:`modu_desktop.core.search.reading.read_page` reads pages differently."""

_SHA = re.compile(r"^[0-9a-f]{40}$")

Kept = list[tuple[Place, str, int]]
"""Each field of a page: its place, its text and where its card starts."""


class KeptPages:
    """``get(sha)``, ``put(sha, fields)``, ``prune(keep)``; files at ``folder/ab/cdef….json``."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.dir = Path(folder)

    def _path(self, sha: str) -> Path | None:
        sha = sha.lower()
        return self.dir / sha[:2] / f"{sha[2:]}.json" if _SHA.match(sha) else None

    def get(self, sha: str) -> Kept | None:
        path = self._path(sha)
        if path is None:
            return None
        try:
            value = json.loads(path.read_bytes().decode("utf-8", "surrogatepass"))
            if value.get("version") != VERSION:
                return None
            return [(Place(**place), str(text), int(card)) for place, text, card in value["fields"]]
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None

    def put(self, sha: str, fields: Iterable[tuple[Place, str, int]]) -> None:
        path = self._path(sha)
        if path is None:
            return
        value = {
            "version": VERSION,
            "fields": [[place.as_json(), text, card] for place, text, card in fields],
        }
        data = json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
        write_cache_file(path, data)

    def prune(self, keep: Iterable[str]) -> int:
        """Remove every kept page whose sha is not in ``keep``; the number removed."""
        wanted = {k.lower() for k in keep}
        removed = 0
        if not self.dir.is_dir():
            return 0
        for sub in self.dir.iterdir():
            if not sub.is_dir() or len(sub.name) != 2:
                continue
            for f in sub.iterdir():
                if f.suffix == ".json" and sub.name + f.stem not in wanted:
                    with contextlib.suppress(OSError):
                        f.unlink()
                        removed += 1
        return removed
