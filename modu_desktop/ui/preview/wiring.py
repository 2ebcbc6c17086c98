"""The window's hooks for the preview: the repository's own look, and Document → PDF로 저장.

``attach_preview(window)`` is the one call ``MainWindow`` makes (after its menus exist): it lets
the preview read the site style of the branch being edited (git database, cached) and adds
"Save as PDF…" to the Document menu.
"""

from __future__ import annotations

import contextlib
import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMenu, QStatusBar, QWidget

from modu_desktop.core.account.settings import save_settings
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.shortcuts import bind
from modu_desktop.ui.preview.pane import PreviewPane

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.ui.kit.context import AppContext
    from modu_desktop.ui.kit.operation import Operations

log = logging.getLogger(__name__)


class PreviewHolder(Protocol):
    """The editor, which holds the preview (or a placeholder when it is not installed)."""

    @property
    def preview(self) -> QWidget: ...


class PreviewWindow(Protocol):
    """What the preview's hooks use of the window."""

    ctx: AppContext
    ops: Operations
    document_menu: QMenu

    @property
    def editor_pane(self) -> PreviewHolder: ...

    @property
    def doc(self) -> EditSession | None: ...

    def window(self) -> QWidget: ...

    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt API

    def addAction(self, action: QAction) -> None: ...  # noqa: N802 - Qt API


def attach_preview(win: PreviewWindow) -> None:
    preview = win.editor_pane.preview
    set_source = getattr(preview, "set_site_source", None)
    if callable(set_source):
        set_source(win.ctx.store, lambda coro: win.ops.run(coro))
    notice = getattr(preview, "notice", None)
    if notice is not None:
        notice.connect(lambda text: win.statusBar().showMessage(text, 8000))
    if hasattr(preview, "export_pdf"):
        install_pdf_action(win)
    zoom_changed = getattr(preview, "zoomChanged", None)
    if zoom_changed is not None and hasattr(preview, "set_user_zoom"):
        # The preview's own zoom, as the user left it last time.
        preview.set_user_zoom(win.ctx.settings.preview_zoom, announce=False)
        zoom_changed.connect(lambda zoom: remember_preview_zoom(win, zoom))


def remember_preview_zoom(win: PreviewWindow, zoom: float) -> None:
    win.ctx.settings.preview_zoom = zoom
    with contextlib.suppress(OSError):
        save_settings(win.ctx.settings, win.ctx.paths.settings_file)


def install_pdf_action(win: PreviewWindow) -> QAction:
    menu = win.document_menu
    action = QAction(tr("Save as PDF…"), menu)
    action.setObjectName("savePdfAction")
    bind(action, "print")
    action.triggered.connect(lambda _checked=False: save_pdf(win))
    menu.addSeparator()
    menu.addAction(action)
    win.addAction(action)
    return action


def save_pdf(win: PreviewWindow, path: str | Path | None = None, paper: str | None = None) -> None:
    """Ask where (unless ``path``), then export the open document with the site's print rules."""
    doc, pane = win.doc, win.editor_pane.preview
    if doc is None or not isinstance(pane, PreviewPane):
        return
    if path is None:
        # named after the page, as people call it (characters no file system takes go)
        name = re.sub(r'[\\/:*?"<>|\x00-\x1f]+', " ", doc.title or "").strip() or doc.doc_id
        default = str(Path.home() / f"{name}.pdf")
        chosen, _ = QFileDialog.getSaveFileName(
            win.window(), tr("Save as PDF…"), default, "PDF (*.pdf)"
        )
        if not chosen:
            return
        path = chosen
    target = Path(path)

    def done(ok: bool) -> None:
        key = "Saved the PDF “{file}”." if ok else "Could not save the PDF “{file}”."
        win.statusBar().showMessage(tr(key, file=target.name), 8000)

    pane.export_pdf(target, paper=paper, done=done)
