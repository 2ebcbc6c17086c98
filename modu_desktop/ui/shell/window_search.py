"""The window's search of every page: the document list's search mode (``ui/search``) put
beside the list (``ui/doclist/modes.py``), kept in step with each list refresh, Edit → 모든
문서에서 찾기 (Ctrl+Shift+F), and a place found opened in the page's cards at its field
(``ui/editing/show_hit.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QMenuBar

from modu_desktop.core.documents.snapshots import list_file
from modu_desktop.core.edit_session import EditSession
from modu_desktop.core.search.kept import KeptPages
from modu_desktop.core.search.model import SearchOptions
from modu_desktop.i18n import tr
from modu_desktop.ui.doclist.modes import ListModes
from modu_desktop.ui.doclist.panel import DocListPanel
from modu_desktop.ui.editing.editor import EditorPane
from modu_desktop.ui.editing.show_hit import show_hit
from modu_desktop.ui.kit.changes import ChangeBus
from modu_desktop.ui.kit.context import AppContext
from modu_desktop.ui.kit.operation import Operations
from modu_desktop.ui.kit.shortcuts import bind
from modu_desktop.ui.publish.landed_pages import WindowPages
from modu_desktop.ui.search.mode import SearchMode
from modu_desktop.ui.search.panel import SearchPanel
from modu_desktop.ui.search.replacing import ReplaceRequest, open_replace_review
from modu_desktop.ui.search.results import Found
from modu_desktop.ui.shell.narrow import NarrowLayout


class SearchWindow(Protocol):
    """What the search uses of the window."""

    ctx: AppContext
    ops: Operations
    doc_list: DocListPanel
    editor_pane: EditorPane
    narrow: NarrowLayout
    act_find: QAction
    changes: ChangeBus

    @property
    def doc(self) -> EditSession | None: ...

    async def open_document(self, doc_id: str) -> bool: ...

    def menuBar(self) -> QMenuBar: ...  # noqa: N802 - Qt API

    def addAction(self, action: QAction) -> None: ...  # noqa: N802 - Qt API


def kept_folder(ctx: AppContext) -> Path:
    """Where the search keeps what it read of this repository's pages between runs (one folder
    per repository and branch, keyed as the last list is)."""
    st = ctx.settings
    listing = list_file(
        ctx.paths.cache_dir, st.api_url, st.repo_full_name, st.branch, practice=ctx.practice
    )
    return ctx.paths.cache_dir / "search" / listing.path.stem.removeprefix("list-")


class WindowSearch:
    """See the module docstring: ``modes`` (the list's two tabs), ``panel`` and ``mode``."""

    def __init__(self, win: SearchWindow) -> None:
        self.win = win
        ctx = win.ctx
        self.panel = SearchPanel()
        self.modes = ListModes(win.doc_list, self.panel)
        self.mode = SearchMode(
            self.panel,
            ctx.store.cache.get,
            lambda coro: win.ops.run(coro, name="search"),
            self.open_found,
            kept=KeptPages(kept_folder(ctx)),
            review=None if ctx.viewer else self.review,
        )
        win.doc_list.listed.connect(self.follow_list)
        self.modes.searchShown.connect(self.panel.focus_query)
        self.modes.searchFor.connect(self.search_for)
        self.action = QAction(tr("Find on every &page…"), win.menuBar())
        self.action.setObjectName("searchPagesAction")
        bind(self.action, "searchPages")
        self.action.triggered.connect(lambda _checked=False: self.start())
        win.addAction(self.action)
        self._put_in_edit_menu(win)
        if win.doc_list.rows and not win.doc_list.checking:
            self.follow_list()  # the window's first listing came before this part

    def _put_in_edit_menu(self, win: SearchWindow) -> None:
        """After Find previous, with the window's other finding."""
        menu = next(
            (m for m in win.menuBar().findChildren(QMenu) if win.act_find in m.actions()), None
        )
        if menu is None:
            return
        actions = menu.actions()
        after = [a for a in actions if a.property("shortcutName") == "findPrevious"]
        index = actions.index(after[0]) + 1 if after else len(actions)
        before: QAction | None = actions[index] if index < len(actions) else None
        menu.insertAction(before, self.action)  # type: ignore[arg-type]

    def follow_list(self) -> None:
        """A fresh list: the index reads what changed, in the background."""
        snap = self.win.ctx.store.snapshot
        if snap is None:
            return
        titles = {r.doc_id: r.title for r in self.win.doc_list.rows if r.title}
        self.mode.follow(snap.docs, titles)

    def start(self) -> None:
        """Ctrl+Shift+F: the list shown (a narrow window tucks it away), its search mode, the
        keyboard in the search box."""
        if not self.win.doc_list.isVisible():
            self.win.editor_pane.set_list_shown(True)
        self.modes.show_search()
        self.panel.focus_query()

    def search_for(self, text: str) -> None:
        self.start()
        self.panel.set_query(text)

    async def review(self, request: ReplaceRequest) -> None:
        """모두 바꾸기…: the review, then one commit; what landed reaches the open page and the
        list (which the search follows)."""
        win = self.win
        await open_replace_review(self.panel, request, win.ctx.workspace, WindowPages(win))

    async def open_found(self, found: Found, query: str, options: SearchOptions) -> bool:
        """Open the page of ``found`` (just go there when it is open) in its cards, at the
        field, the words marked."""
        win = self.win
        if not await win.open_document(found.hit.doc_id):
            return False
        if win.doc is None or win.doc.doc_id != found.hit.doc_id:
            return False
        win.narrow.document_opened()  # a narrow window gives the page the room
        return show_hit(
            win.editor_pane,
            found.hit,
            query,
            options,
            in_card=found.in_card,
            in_field=found.in_field,
            in_page=found.in_page,
        )
