"""The Help menu: 사용 안내, 단축키, 문제 보고, 새 버전 확인, 정보."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QAction

from modu_desktop.i18n import tr
from modu_desktop.ui.help import report
from modu_desktop.ui.help.about import about_box
from modu_desktop.ui.help.guide import GuideDialog
from modu_desktop.ui.help.shortcuts_page import ShortcutsDialog
from modu_desktop.ui.help.token_warning import TokenExpiryWatch
from modu_desktop.ui.help.updates import UpdateChecker
from modu_desktop.ui.kit.shortcuts import bind

if TYPE_CHECKING:
    from modu_desktop.ui.help.window import HelpWindow

log = logging.getLogger(__name__)


class HelpMenu:
    """Built last, so it is the last menu of the bar (where every platform puts Help)."""

    def __init__(self, win: HelpWindow) -> None:
        self.win = win
        self.updates = UpdateChecker(win)
        self.token = TokenExpiryWatch(win)
        self.reporting = False
        self.last_report: Any = None
        self.dialog: Any = None
        menu = win.menuBar().addMenu(tr("&Help"))
        menu.setObjectName("helpMenu")
        self.menu = menu

        def add(key: str, text: str, slot: Any, shortcut: str | None = None) -> QAction:
            a = QAction(text, menu)
            a.setObjectName(key)
            if shortcut is not None:
                bind(a, shortcut)
            a.triggered.connect(lambda _c=False: slot())
            win.addAction(a)
            menu.addAction(a)
            return a

        self.guide_action = add("guideAction", tr("&Using Modu Desktop"), self.show_guide, "help")
        self.shortcuts_action = add("shortcutsAction", tr("&Keyboard shortcuts"), self.show_keys)
        menu.addSeparator()
        self.report_action = add("reportAction", tr("&Report a problem…"), self.report_problem)
        self.update_action = add(
            "updateAction", tr("Check for a &new version…"), self.check_updates
        )
        menu.addSeparator()
        self.about_action = add("aboutAction", tr("&About Modu Desktop"), self.show_about)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)

    def _show(self, dialog: Any) -> Any:
        self.dialog = dialog
        dialog.open()
        return dialog

    def show_guide(self) -> Any:
        return self._show(GuideDialog(self.win.window()))

    def show_keys(self) -> Any:
        return self._show(ShortcutsDialog(self.win.window()))

    def show_about(self) -> Any:
        return self._show(about_box(self.win))

    def check_updates(self) -> Any:
        return self.win.ops.run(self.updates.check(interactive=True), busy=self.update_action)

    def report_problem(self) -> Any:
        """Make the report (a few seconds), open its folder, say where it is."""
        if self.reporting:
            return None
        return self.win.ops.run(self._report(), name="report", busy=self.report_action)

    async def _report(self) -> Any:
        self.reporting = True
        self.win.show_notice(
            tr("Making the report file (with a self-test; a few seconds)…"), "info", "report"
        )
        try:
            path = await report.make_report(self.win)
        finally:
            self.reporting = False
        self.win.resolve_notice("report")
        self.last_report = path
        log.info("problem report written: %s", path.name)
        report.open_folder(path.parent)
        self._show(report.report_done_box(self.win.window(), path))
        return path
