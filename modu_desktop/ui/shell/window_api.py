"""What the main window offers the parts that live beside it (menus, document operations, the
save queue, start-up recovery, the session's words). They are typed against this interface, not
against ``MainWindow``, so no part imports the window back."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt, SignalInstance
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMenuBar,
    QSplitter,
    QStackedWidget,
    QStatusBar,
    QWidget,
)

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.core.locks.model import HeldLock
    from modu_desktop.core.publish.status import PublishBoard
    from modu_desktop.ui.doclist.panel import DocListPanel
    from modu_desktop.ui.docops.repo_images import RepoImageMirror
    from modu_desktop.ui.editing.drafts_controller import DraftsController
    from modu_desktop.ui.editing.editor import EditorPane
    from modu_desktop.ui.kit.banners import Banner
    from modu_desktop.ui.kit.busy import BusyOverlay
    from modu_desktop.ui.kit.context import AppContext
    from modu_desktop.ui.kit.operation import Operations
    from modu_desktop.ui.publish.deploy_notice import FailedDeployNotice
    from modu_desktop.ui.publish.deploy_status import DeployStatus
    from modu_desktop.ui.shell.zoom import TextZoom


class WindowApi(Protocol):
    ctx: AppContext
    ops: Operations
    editor_pane: EditorPane
    doc_list: DocListPanel
    readonly_banner: Banner
    lock_banner: Banner
    connectionRestored: SignalInstance
    images: RepoImageMirror
    drafts: DraftsController | None
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
    text_zoom: TextZoom

    @property
    def doc(self) -> EditSession | None: ...

    # -- Qt (QMainWindow) ------------------------------------------------------------------
    def menuBar(self) -> QMenuBar: ...  # noqa: N802 - Qt API

    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt API

    def addAction(self, action: QAction) -> None: ...  # noqa: N802 - Qt API

    # -- showing things --------------------------------------------------------------------
    def show_notice(
        self, text: str | Callable[[], str], kind: str = "info", topic: str | None = None
    ) -> None: ...

    def resolve_notice(self, *topics: str) -> None: ...

    def set_lock_status(self, text: str, kind: str = "info") -> None: ...

    def lock_status(self) -> tuple[str, str]: ...

    def set_connection(
        self, ok: bool, message: str | None = None, *, offline: bool = False
    ) -> None: ...

    def show_lock_lost(self, text: str | Callable[[], str]) -> None: ...

    def label(self, doc_id: str) -> str: ...

    def queued_save_landed(
        self, doc_id: str, path: str, commit_sha: str | None, text: str
    ) -> None: ...

    def update_title(self) -> None: ...

    # -- documents ------------------------------------------------------------------------
    async def open_document(self, doc_id: str) -> bool: ...

    async def open_with_lock(self, doc_id: str, held: HeldLock) -> bool: ...

    async def forget_open_document(self) -> None: ...

    async def refresh_list(self) -> bool: ...

    async def create_new_document(self, from_doc: str, text: str) -> str | None: ...

    def open_selected(self) -> None: ...

    async def save(self) -> bool: ...

    async def save_as_new_document(self) -> str | None: ...

    async def close_document(self, *, interactive: bool = True) -> bool: ...

    async def sign_out(self) -> None: ...

    def request_quit(self, interactive: bool = True) -> None: ...

    def set_language(self, code: str | None) -> None: ...

    def explain_cannot_save(self) -> None: ...

    def focus_list(self) -> None: ...

    def focus_filter(self) -> None: ...

    def note_edit(self) -> None: ...


class PublishApi(WindowApi, Protocol):
    """What the publishing hooks (``ui/publish/wiring.py``) use."""

    deploy_notice: FailedDeployNotice
    deploy: DeployStatus
    board: PublishBoard
    status_deploy: QLabel

    def addDockWidget(self, area: Qt.DockWidgetArea, dock: QDockWidget) -> None: ...  # noqa: N802


class ShellApi(WindowApi, Protocol):
    """What ``window_parts`` builds on the window (its widgets) and connects to."""

    practice_banner: Banner
    viewer_banner: Banner
    notice: Banner
    splitter: QSplitter
    right: QStackedWidget
    doc_header: QLabel
    status_lock: QLabel
    status_deploy: QLabel
    status_conn: QLabel
    deploy_notice: FailedDeployNotice
    refreshing: bool
    busy_open: bool
    list_busy: BusyOverlay
    open_busy: BusyOverlay

    def setCentralWidget(self, widget: QWidget) -> None: ...  # noqa: N802 - Qt API

    def copy_text(self) -> None: ...

    async def compare_with_current(self) -> None: ...
