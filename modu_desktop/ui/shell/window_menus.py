"""The main window's menus (File, Edit, View, Language, Go, and the Document menu that the
document operations, the preview and the history fill; Help comes from its room). Shortcuts
come from ``ui/kit/shortcuts.py``, one table fitting each platform."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction

from modu_desktop.core.account.settings import save_settings
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.shortcuts import bind

if TYPE_CHECKING:
    from modu_desktop.ui.shell.window_api import ShellApi


def action(win: ShellApi, text: str, shortcut: str | None, slot: Callable[[], object]) -> QAction:
    """A window action; ``shortcut`` names its keys in ``shortcuts.TABLE`` (None: none)."""
    a = QAction(text, win.menuBar())
    if shortcut is not None:
        bind(a, shortcut)
        a.setObjectName(shortcut + "Action")
    a.triggered.connect(lambda _checked=False: slot())
    win.addAction(a)
    return a


def build_menus(win: ShellApi) -> None:
    """Create the window's actions (``win.act_*``) and menus (``win.document_menu`` empty, for
    the parts that fill it)."""
    _file_menu(win)
    _edit_menu(win)
    _view_menus(win)
    _go_menu(win)
    win.document_menu = win.menuBar().addMenu(tr("&Document"))
    win.document_menu.setObjectName("documentMenu")


def _file_menu(win: ShellApi) -> None:
    run = win.ops.run
    m_file = win.menuBar().addMenu(tr("&File"))
    win.act_open = action(win, tr("&Open selected document"), "open", win.open_selected)
    win.act_save = action(win, tr("&Save"), "save", lambda: run(win.save(), name="save"))
    # Ctrl+S on a read-only document says why it cannot save (act_save is disabled then, and
    # only one of the two is ever enabled, so the shortcut is never ambiguous).
    win.act_explain_save = action(win, tr("&Save"), "save", win.explain_cannot_save)
    win.act_explain_save.setObjectName("explainSaveAction")
    win.act_explain_save.setEnabled(False)
    win.act_save_new = action(
        win, tr("Save as &new document…"), None, lambda: run(win.save_as_new_document())
    )
    win.act_close = action(win, tr("&Close document"), "close", lambda: run(win.close_document()))
    win.act_refresh = action(
        win, tr("&Refresh list"), "refresh", lambda: run(win.refresh_list(asked=True))
    )
    win.act_signout = action(win, tr("Sign &out"), None, lambda: run(win.sign_out()))
    win.act_quit = action(win, tr("&Quit"), "quit", win.request_quit)
    for a in (win.act_open, win.act_save, win.act_save_new, win.act_close, win.act_refresh):
        m_file.addAction(a)
    m_file.addSeparator()
    if not win.ctx.practice:
        m_file.addAction(win.act_signout)
    m_file.addAction(win.act_quit)


def _edit_menu(win: ShellApi) -> None:
    ed = win.editor_pane.editor
    m_edit = win.menuBar().addMenu(tr("&Edit"))
    win.act_undo = action(win, tr("&Undo"), "undo", ed.undo)
    win.act_redo = action(win, tr("&Redo"), "redo", ed.redo)
    ed.undoAvailable.connect(lambda ok: win.act_undo.setEnabled(ok and not ed.isReadOnly()))
    ed.redoAvailable.connect(lambda ok: win.act_redo.setEnabled(ok and not ed.isReadOnly()))
    win.act_undo.setEnabled(False)
    win.act_redo.setEnabled(False)
    fb = win.editor_pane.find_bar
    win.act_find = action(win, tr("&Find…"), "find", lambda: fb.open_find(False))
    win.act_replace = action(win, tr("R&eplace…"), "replace", lambda: fb.open_find(True))
    act_next = action(win, tr("Find &next"), "findNext", fb.find_next)
    act_prev = action(win, tr("Find &previous"), "findPrevious", fb.find_previous)
    for a in (win.act_undo, win.act_redo):
        m_edit.addAction(a)
    m_edit.addSeparator()
    for a in (win.act_find, win.act_replace, act_next, act_prev):
        m_edit.addAction(a)
    m_edit.addSeparator()
    m_edit.addAction(win.editor_pane.insert_block_action)  # 블록 넣기
    win.act_save.changed.connect(  # the editor's Save button follows the Save action
        lambda: win.editor_pane.save_button.setEnabled(win.act_save.isEnabled())
    )


def _view_menus(win: ShellApi) -> None:
    """View (text size) and Language."""
    mb = win.menuBar()
    m_view = mb.addMenu(tr("&View"))
    m_view.setObjectName("viewMenu")
    zoom = win.text_zoom
    win.act_zoom_in = action(win, tr("&Bigger text"), "zoomIn", zoom.bigger)
    win.act_zoom_out = action(win, tr("&Smaller text"), "zoomOut", zoom.smaller)
    win.act_zoom_reset = action(win, tr("&Original size"), "zoomReset", zoom.reset)
    for a in (win.act_zoom_in, win.act_zoom_out, win.act_zoom_reset):
        m_view.addAction(a)

    m_lang = mb.addMenu(tr("&Language"))
    m_lang.setObjectName("languageMenu")
    win.lang_actions = {}
    for code, label in ((None, tr("Follow the computer")), ("ko", "한국어"), ("en", "English")):
        a = QAction(label, win.menuBar())
        a.setCheckable(True)
        a.setChecked(win.ctx.settings.language == code)
        a.triggered.connect(lambda _c=False, c=code: win.set_language(c))
        m_lang.addAction(a)
        win.lang_actions[code] = a


def _go_menu(win: ShellApi) -> None:
    m_go = win.menuBar().addMenu(tr("&Go"))
    m_go.addAction(action(win, tr("Document &list"), "goList", lambda: _focus_list(win)))
    m_go.addAction(action(win, tr("&Filter"), "goFilter", lambda: _focus_filter(win)))
    m_go.addAction(action(win, tr("&Editor"), "goEditor", win.editor_pane.focus_editor))
    m_go.addAction(
        action(
            win, tr("&Page settings"), "goPageSettings", win.editor_pane.form.title_edit.setFocus
        )
    )


def remember_language(win: ShellApi, code: str | None) -> None:
    """Keep the chosen interface language in the settings (it applies at the next start)."""
    win.ctx.settings.language = code
    for c, a in win.lang_actions.items():
        a.setChecked(c == code)
    try:
        save_settings(win.ctx.settings, win.ctx.paths.settings_file)
    except OSError as exc:
        win.show_notice(str(exc), "error")
        return
    win.show_notice(tr("The language changes the next time Modu Desktop starts."), "info")


def _focus_list(win: ShellApi) -> None:
    """Go → Document list: shown first if it was tucked away."""
    if not win.doc_list.isVisible():
        win.editor_pane.set_list_shown(True)
    win.doc_list.show_list_page()
    win.doc_list.tree.setFocus()


def _focus_filter(win: ShellApi) -> None:
    if not win.doc_list.isVisible():
        win.editor_pane.set_list_shown(True)
    win.doc_list.show_list_page()
    win.doc_list.filter_edit.setFocus()
    win.doc_list.filter_edit.selectAll()
