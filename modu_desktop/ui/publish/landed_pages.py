"""The page open in a window, as a change of many pages sees it (a replacement across pages,
a picture's rename, an undo — at once or after waiting in the queue).

``WindowPages(win)`` answers the review's ``OpenPages``: the open page is left out while its
text is not saved (``unsaved``), and once a change landed (``landed``) an open page of it shows
its new text as one undo step and builds on the new version (the session's base, the draft),
like a restore that landed; a page typed in meanwhile keeps its text, and its next save meets
the new version as a normal conflict. The list is read again (a title may have changed).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Protocol

from PySide6.QtWidgets import QPlainTextEdit

from modu_desktop.core.changes.outcome import PageDone
from modu_desktop.ui.kit.changes import ChangeBus, Changes, Landed
from modu_desktop.ui.publish.publish_check_panel import replace_editor_text

__all__ = ["WindowPages"]


class _Editor(Protocol):
    @property
    def editor(self) -> QPlainTextEdit: ...

    def is_modified(self) -> bool: ...


class _Session(Protocol):
    @property
    def doc_id(self) -> str: ...

    @property
    def path(self) -> str: ...


class PagesWindow(Protocol):
    """What the open pages are read from: the window's session and editor, and its changes
    broadcast (which rebases the session and its draft, follows the build, reads the list)."""

    changes: ChangeBus

    @property
    def doc(self) -> Any: ...

    @property
    def editor_pane(self) -> Any: ...


class WindowPages:
    """The open page of ``win`` for a change of many pages (see the module docstring)."""

    def __init__(self, win: PagesWindow) -> None:
        self.win = win

    def unsaved(self) -> Collection[str]:
        session: _Session | None = self.win.doc
        pane: _Editor = self.win.editor_pane
        return {session.doc_id} if session is not None and pane.is_modified() else set()

    def landed(self, pages: Sequence[PageDone], commit_sha: str | None) -> None:
        """Each page of the change landed at its blob: the open one, untouched since, shows its
        new text as one undo step; then the window builds on every version as on a save."""
        session: _Session | None = self.win.doc
        pane: _Editor = self.win.editor_pane
        for page in pages:
            if page.doc_id is None:  # a picture, not a page
                continue
            is_open = session is not None and page.path == session.path
            if is_open and page.text is not None:
                if pane.is_modified():  # typed meanwhile: that text stays; its save meets this
                    continue
                replace_editor_text(pane.editor, page.text)
            self.win.changes.publish(
                Changes(landed=Landed(page.doc_id, page.path, page.blob_sha, page.text, commit_sha))
            )
        self.win.changes.publish(Changes(doc_list=True))
