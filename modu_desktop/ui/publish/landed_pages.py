"""The page open in a window, as a change of many pages sees it (a replacement across pages,
a picture's rename, an undo — at once or after waiting in the queue).

``WindowPages(win)`` answers the review's ``OpenPages``: the open page is left out while its
text is not saved (``unsaved``), and once a change landed (``landed``) an open page of it shows
its new text as one undo step and builds on the new version (the session's base, the draft),
like a restore that landed; a page typed in meanwhile keeps its text, and its next save meets
the new version as a normal conflict. The list is read again (a title may have changed).
"""

from __future__ import annotations

from collections.abc import Collection, Coroutine, Sequence
from typing import Any, Protocol

from PySide6.QtWidgets import QPlainTextEdit

from modu_desktop.core.changes.outcome import PageDone
from modu_desktop.ui.publish.publish_check_panel import replace_editor_text

__all__ = ["WindowPages"]


class _Session(Protocol):
    @property
    def doc_id(self) -> str: ...

    @property
    def path(self) -> str: ...

    def rebase(self, sha: str) -> None: ...


class _Editor(Protocol):
    @property
    def editor(self) -> QPlainTextEdit: ...

    def is_modified(self) -> bool: ...

    def set_modified(self, modified: bool) -> None: ...


class _Drafts(Protocol):
    def committed(self, text: str, sha: str) -> None: ...


class _Jobs(Protocol):
    def run(self, coro: Coroutine[Any, Any, Any], **kw: Any) -> Any: ...


class PagesWindow(Protocol):
    """What the open pages are read from: the window's session, editor, drafts and jobs."""

    @property
    def doc(self) -> Any: ...

    @property
    def editor_pane(self) -> Any: ...

    @property
    def drafts(self) -> Any: ...

    @property
    def ops(self) -> Any: ...

    async def refresh_list(self) -> bool: ...


class WindowPages:
    """The open page of ``win`` for a change of many pages (see the module docstring)."""

    def __init__(self, win: PagesWindow) -> None:
        self.win = win

    def unsaved(self) -> Collection[str]:
        session: _Session | None = self.win.doc
        pane: _Editor = self.win.editor_pane
        return {session.doc_id} if session is not None and pane.is_modified() else set()

    def landed(self, pages: Sequence[PageDone], commit_sha: str | None) -> None:
        session: _Session | None = self.win.doc
        pane: _Editor = self.win.editor_pane
        for page in pages:
            if session is None or page.text is None or page.path != session.path:
                continue
            if pane.is_modified():  # typed meanwhile: that text stays; its save meets this one
                continue
            replace_editor_text(pane.editor, page.text)
            session.rebase(page.blob_sha)
            drafts: _Drafts | None = self.win.drafts
            if drafts is not None:
                drafts.committed(page.text, page.blob_sha)
            pane.set_modified(False)
        jobs: _Jobs = self.win.ops
        jobs.run(self.win.refresh_list(), name="list-after-change")
