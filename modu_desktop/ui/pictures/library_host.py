"""How the window reaches the picture library.

* :class:`LibraryWindowPages` — ``library_source.LibraryPages`` for the main window: a
  description on the open page is changed in its editor and saved the normal way (the check
  before a save, the lock checked, the conflict question); a page with unsaved typing is
  changed in the editor and saved with it.
* :class:`PictureLibraryEntry` — 그림 모음 in the Document menu and beside the document list,
  one library window at a time; ``choose`` opens it for picking (from 그림 넣기).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QPushButton, QWidget

from modu_desktop.core.pictures.alt_text import AltChange, AltCode, AltResult, change_alt
from modu_desktop.core.text import Text
from modu_desktop.i18n import tr
from modu_desktop.ui.pictures.library_dialog import PictureLibraryDialog, choose_picture
from modu_desktop.ui.pictures.library_source import LibrarySource, OpenPage

if TYPE_CHECKING:
    from modu_desktop.ui.kit.context import AppContext
    from modu_desktop.ui.kit.operation import Operations


class OpenSession(Protocol):
    """The open document, as far as the library asks about it."""

    doc_id: str
    path: str
    title: str

    @property
    def editable(self) -> bool: ...


class OpenEditor(Protocol):
    """The open document's editor, as far as the library changes it."""

    def text(self) -> str: ...

    def is_modified(self) -> bool: ...

    def replace_all_text(self, text: str, *, modified: bool) -> None: ...


class LibraryWindow(Protocol):
    """What :class:`LibraryWindowPages` and :class:`PictureLibraryEntry` use of the main window."""

    ctx: AppContext
    ops: Operations
    editor_pane: OpenEditor

    @property
    def doc(self) -> OpenSession | None: ...

    def label(self, doc_id: str) -> str: ...

    def addAction(self, action: QAction) -> None: ...  # noqa: N802 - Qt API

    async def open_document(self, doc_id: str) -> bool: ...

    async def refresh_list(self) -> bool: ...

    async def save(self) -> bool: ...


class LibraryWindowPages:
    """:class:`LibraryPages` for the main window (see the module docstring)."""

    def __init__(self, win: LibraryWindow) -> None:
        self.win = win

    def open_page(self) -> OpenPage | None:
        s = self.win.doc
        if s is None:
            return None
        pane = self.win.editor_pane
        return OpenPage(
            s.doc_id,
            s.title or self.win.label(s.doc_id),
            s.path,
            pane.text(),
            bool(s.editable),
            bool(pane.is_modified()),
        )

    async def change_open_page(self, change: AltChange) -> AltResult:
        page = self.open_page()
        if page is None or page.doc_id != change.doc_id:
            return AltResult(AltCode.CHANGED, Text("The page is no longer open."))
        if not page.editable:
            return AltResult(
                AltCode.LOCKED,
                Text(
                    "“{title}” is open read-only in this window, so its description cannot be "
                    "changed now.",
                    title=page.title,
                ),
            )
        res = change_alt(page.text, change)
        if res.code is not AltCode.SAVED or res.new_text is None:
            return res
        self.win.editor_pane.replace_all_text(res.new_text, modified=True)
        if page.modified:  # the person's own typing is saved when they choose to
            return AltResult(
                AltCode.SAVED,
                Text(
                    "Changed the description in “{title}”; it reaches the site with your next "
                    "save.",
                    title=page.title,
                ),
                res.new_text,
            )
        if not await self.win.save():
            return AltResult(
                AltCode.FAILED,
                Text(
                    "Changed the description in “{title}”, but it is not saved yet; see the "
                    "window.",
                    title=page.title,
                ),
                res.new_text,
            )
        return res

    async def show_page(self, doc_id: str) -> None:
        await self.win.open_document(doc_id)

    async def refresh(self) -> None:
        await self.win.refresh_list()


class PictureLibraryEntry(QObject):
    """그림 모음: the menu action, the button beside the list, and the one library window."""

    def __init__(self, win: LibraryWindow, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.win = win
        ctx = win.ctx
        self.source = LibrarySource(
            ctx.store,
            ctx.client,
            ctx.locks,
            ctx.login,
            ctx.paths.cache_dir,
            pages=LibraryWindowPages(win),
            can_write=not ctx.viewer,
            run=lambda coro: win.ops.run(coro, name="picture-library"),
        )
        self.dialog: QWidget | None = None
        self.action = QAction(tr("Picture &library…"), self)
        self.action.setObjectName("pictureLibraryAction")
        self.action.setToolTip(
            tr("Every picture of the site: where each is used, and its description")
        )
        self.action.triggered.connect(lambda _c=False: self.open())
        win.addAction(self.action)

    def add_to(self, menu: QMenu) -> None:
        menu.addAction(self.action)

    def button(self) -> QPushButton:
        """A button for the window's tool row (the list's)."""
        b = QPushButton(tr("Pictures"))
        b.setObjectName("pictureLibraryButton")
        b.setToolTip(self.action.toolTip())
        b.setAccessibleName(tr("Open the picture library"))
        b.clicked.connect(lambda _c=False: self.open())
        return b

    def open(self) -> QWidget:
        """Show the library (the one already open comes to the front)."""
        dlg = self.dialog
        if dlg is None:
            window = self.win if isinstance(self.win, QWidget) else None
            dlg = PictureLibraryDialog(self.source, window)
            dlg.finished.connect(lambda _r: self._closed())
            self.dialog = dlg
        dlg.show()
        dlg.raise_()
        dlg.activateWindow()
        return dlg

    def _closed(self) -> None:
        dlg, self.dialog = self.dialog, None
        if dlg is not None:
            dlg.deleteLater()

    async def choose(self, parent: QWidget | None) -> tuple[str, str] | None:
        """The library for picking: (the picture's path, its description), or None."""
        return await choose_picture(self.source, parent)
