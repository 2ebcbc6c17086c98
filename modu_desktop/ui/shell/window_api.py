"""What the shell's own builders (``window_parts``: the widgets, ``window_menus``: the actions and
menus) use of the main window. They wire every widget and action, so they see most of it; the
parts beside the window (publishing, document operations, the save queue, the preview, the
session's words) each receive the narrow interface they use, defined in their own room, and
hear of what changed through ``kit.changes``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QLabel,
    QMenu,
    QMenuBar,
    QSplitter,
    QStackedWidget,
    QStatusBar,
    QWidget,
)

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.ui.doclist.panel import DocListPanel
    from modu_desktop.ui.editing.editor import EditorPane
    from modu_desktop.ui.kit.banners import Banner
    from modu_desktop.ui.kit.busy import BusyOverlay
    from modu_desktop.ui.kit.context import AppContext
    from modu_desktop.ui.kit.operation import Operations
    from modu_desktop.ui.publish.deploy_notice import FailedDeployNotice
    from modu_desktop.ui.shell.zoom import TextZoom


class ShellApi(Protocol):
    ctx: AppContext
    ops: Operations
    text_zoom: TextZoom
    busy_open: bool
    # -- widgets (window_parts) --------------------------------------------------------------
    practice_banner: Banner
    viewer_banner: Banner
    notice: Banner
    lock_banner: Banner
    readonly_banner: Banner
    splitter: QSplitter
    doc_list: DocListPanel
    right: QStackedWidget
    doc_header: QLabel
    editor_pane: EditorPane
    deploy_notice: FailedDeployNotice
    status_lock: QLabel
    status_deploy: QLabel
    status_conn: QLabel
    status_account: QLabel
    list_busy: BusyOverlay
    open_busy: BusyOverlay
    # -- actions and menus (window_menus) ----------------------------------------------------
    document_menu: QMenu
    lang_actions: dict[str | None, QAction]
    act_open: QAction
    act_save: QAction
    act_save_new: QAction
    act_close: QAction
    act_refresh: QAction
    act_signout: QAction
    act_quit: QAction
    act_undo: QAction
    act_redo: QAction
    act_find: QAction
    act_replace: QAction
    act_explain_save: QAction
    act_zoom_in: QAction
    act_zoom_out: QAction
    act_zoom_reset: QAction

    @property
    def doc(self) -> EditSession | None: ...

    @property
    def refreshing(self) -> bool: ...

    # -- Qt (QMainWindow) ------------------------------------------------------------------
    def menuBar(self) -> QMenuBar: ...  # noqa: N802 - Qt API

    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt API

    def addAction(self, action: QAction) -> None: ...  # noqa: N802 - Qt API

    def setCentralWidget(self, widget: QWidget) -> None: ...  # noqa: N802 - Qt API

    # -- what the widgets and actions call ---------------------------------------------------
    def show_notice(
        self, text: str | Callable[[], str], kind: str = "info", topic: str | None = None
    ) -> None: ...

    def update_title(self) -> None: ...

    def note_edit(self) -> None: ...

    def open_selected(self) -> None: ...

    async def open_document(self, doc_id: str) -> bool: ...

    async def refresh_list(self, *, asked: bool = False) -> bool: ...

    async def save(self) -> bool: ...

    async def save_as_new_document(self) -> str | None: ...

    async def compare_with_current(self) -> None: ...

    def copy_text(self) -> None: ...

    def explain_cannot_save(self) -> None: ...

    async def close_document(self, *, interactive: bool = True) -> bool: ...

    async def sign_out(self) -> None: ...

    def request_quit(self, interactive: bool = True) -> None: ...

    def set_language(self, code: str | None) -> None: ...
