"""정보: the version, where the files are, the licence."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from modu_desktop import APP_NAME, __version__
from modu_desktop.i18n import tr

if TYPE_CHECKING:
    from modu_desktop.ui.help.window import HelpWindow


def about_box(win: HelpWindow) -> QMessageBox:
    from PySide6 import __version__ as pyside_version

    ctx = win.ctx
    box = QMessageBox(win.window())
    box.setObjectName("aboutDialog")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setWindowTitle(tr("About Modu Desktop"))
    box.setIcon(QMessageBox.Icon.Information)
    box.setText(f"<b>{escape(APP_NAME)} {escape(__version__)}</b>")
    rows = [
        (tr("Repository"), f"{ctx.settings.repo_full_name} ({ctx.settings.branch})"),
        (tr("Signed in as"), ctx.login),
        (tr("Drafts and settings"), str(ctx.paths.data_dir)),
        (tr("Log files"), str(ctx.paths.logs)),
        ("Qt", f"PySide6 {pyside_version}"),
        (tr("Licence"), "MIT"),
    ]
    box.setInformativeText(
        "<br>".join(f"{escape(k)}: {escape(v)}" for k, v in rows)
        + "<br><br>"
        + escape(tr("An editor for the PNU-Modu brochure site."))
    )
    box.addButton(QMessageBox.StandardButton.Close)
    return box
