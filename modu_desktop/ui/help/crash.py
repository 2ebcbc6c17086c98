"""An unexpected error: log it, keep the user's text, say so once, point to 문제 보고.

``install_crash_handler`` replaces ``sys.excepthook`` (errors in Qt slots and plain callbacks)
and the asyncio loop's exception handler (errors in tasks nobody awaited). Neither quits the
app: the text being edited is written to its draft first, then one dialog says what happened
(another error while it is open is only logged, so a loop of errors cannot bury the window in
dialogs).
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Callable
from types import TracebackType
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from modu_desktop.i18n import tr

log = logging.getLogger("modu_desktop.crash")

WindowGetter = Callable[[], Any]
_state: dict[str, Any] = {"dialog": None, "installed": None}


def keep_text(win: Any) -> bool:
    """Write the open document's text to its draft now; True if there was text to keep."""
    if win is None:
        return False
    kept = False
    with contextlib.suppress(Exception):
        win.note_edit()
        drafts = getattr(win, "drafts", None)
        if drafts is not None:
            kept = bool(drafts.flush()) or win.editor_pane.is_modified()
    return kept


def crash_dialog(win: QWidget | None, on_report: Callable[[], object] | None) -> QMessageBox:
    box = QMessageBox(win)
    box.setObjectName("crashDialog")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(tr("Something went wrong"))
    box.setText(tr("Something unexpected went wrong in Modu Desktop."))
    box.setInformativeText(
        tr(
            "Your text is kept on this computer. You can go on working; if something looks "
            "wrong, save and start the app again. Help → Report a problem makes a file you "
            "can send to the person who helps you."
        )
    )
    report = box.addButton(tr("Report a problem…"), QMessageBox.ButtonRole.ActionRole)
    report.setObjectName("crashReportButton")
    go_on = box.addButton(tr("Continue"), QMessageBox.ButtonRole.RejectRole)
    go_on.setObjectName("crashContinueButton")
    box.setDefaultButton(go_on)
    box.setEscapeButton(go_on)
    if on_report is not None:
        report.clicked.connect(lambda: on_report())
    else:
        report.hide()
    return box


def handle_unexpected(
    exc_type: type[BaseException],
    exc: BaseException,
    tb: TracebackType | None,
    get_window: WindowGetter,
) -> None:
    log.critical("unexpected error", exc_info=(exc_type, exc, tb))
    win = get_window()
    keep_text(win)
    shown = _state["dialog"]
    if shown is not None:
        with contextlib.suppress(RuntimeError):
            if shown.isVisible():
                return  # one dialog at a time; the log has the rest
    helper = getattr(win, "help_menu", None)
    on_report = helper.report_problem if helper is not None else None
    box = crash_dialog(win if isinstance(win, QWidget) else None, on_report)
    _state["dialog"] = box
    box.open()


def install_crash_handler(get_window: WindowGetter, loop: Any = None) -> Callable[[], None]:
    """Catch unexpected errors from now on; returns a function that puts the old hooks back."""
    previous = sys.excepthook

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            previous(exc_type, exc, tb)
            return
        try:
            handle_unexpected(exc_type, exc, tb, get_window)
        except Exception:  # the handler itself must never raise
            log.exception("the crash handler failed")

    def loop_handler(_loop: Any, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, Exception):
            hook(type(exc), exc, exc.__traceback__)
        else:
            log.error("event loop: %s", context.get("message"))

    sys.excepthook = hook
    old_loop_handler = None
    if loop is not None:
        old_loop_handler = loop.get_exception_handler()
        loop.set_exception_handler(loop_handler)

    def restore() -> None:
        sys.excepthook = previous
        if loop is not None:
            loop.set_exception_handler(old_loop_handler)

    return restore
