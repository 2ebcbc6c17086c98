"""Which page stopped the site's build, and who saved it last (Qt-free).

    pages = await broken_pages(failure, docs=store.snapshot.docs, history=history, at=head_sha)
    page.title, page.line, page.saved_by, page.saved_at, page.commit_sha

The build log names the file (``core.publish.failure.broken_files``); the document list gives its
title; the commits API, as of the failed build's commit, says who changed it last and when. That
last change is what "restore the previous version" undoes: it is the breaking one, whoever saved
after it elsewhere in the repository.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from modu_desktop.core.publish.site import doc_slug

_BY = re.compile(r"\bby @([A-Za-z0-9-]+)")


@dataclass(frozen=True, slots=True)
class BrokenPage:
    """A page the build could not make. ``doc_id``/``title`` are None for a file that is not in
    the document list; ``saved_by`` (a login), ``saved_at`` (Unix seconds) and ``commit_sha``
    describe the last change of the file before the failed build (None when unreadable)."""

    path: str
    doc_id: str | None
    title: str | None
    line: int | None
    column: int | None
    cause: str
    saved_by: str | None = None
    saved_at: float | None = None
    commit_sha: str | None = None

    @property
    def label(self) -> str:
        """How people call the page: its title (the file name only when it has none)."""
        return self.title or self.doc_id or posixpath.basename(self.path)

    def saved_by_login(self, login: str) -> bool:
        return bool(self.saved_by) and str(self.saved_by).casefold() == login.casefold()


def _parse_time(iso: str | None) -> float | None:
    if not iso:
        return None
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _path_of(file: Any, docs: Sequence[Any]) -> str | None:
    """The repository path a logged file (or page address) names, among the documents."""
    path = file.repo_path([d.path for d in docs])
    if path is not None:
        return str(path)
    route = getattr(file, "route", None)
    if route:
        tail = route.rstrip("/")
        for d in docs:
            slug = doc_slug(d.path, {"id": d.front_id} if d.front_id else None)
            if tail.endswith("/docs/" + slug):
                return str(d.path)
    logged = (file.path or "").replace("\\", "/")
    if "/docs/" in logged:  # a page the list does not know yet: still say which file
        return "docs/" + logged.rsplit("/docs/", 1)[1]
    return None


async def broken_pages(
    failure: Any, *, docs: Sequence[Any], history: Any, at: str | None
) -> tuple[BrokenPage, ...]:
    """The pages ``failure`` (a ``DeployFailure``) names, with title and last change as of
    commit ``at`` (the failed build's). A page whose history cannot be read keeps its name."""
    pages: list[BrokenPage] = []
    for file in getattr(failure, "files", ()):
        path = _path_of(file, docs)
        if path is None or any(p.path == path for p in pages):
            continue
        doc = next((d for d in docs if d.path == path), None)
        saved_by = saved_at = commit = None
        try:
            last = await history.versions(path, limit=1, at=at)
        except Exception:
            last = []
        if last:
            v = last[0]
            found = _BY.search(v.message or "")
            saved_by = v.author_login or (found.group(1) if found else None) or v.author_name
            saved_at = _parse_time(v.date)
            commit = v.sha
        pages.append(
            BrokenPage(
                path=path,
                doc_id=doc.doc_id if doc is not None else None,
                title=doc.title if doc is not None and doc.title else None,
                line=file.line,
                column=file.column,
                cause=file.cause,
                saved_by=saved_by,
                saved_at=saved_at,
                commit_sha=commit,
            )
        )
    return tuple(pages)
