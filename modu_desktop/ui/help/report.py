"""문제 보고: one click makes the report zip (``core/support/report.py``) and opens its folder.

The self-test runs as its own process in a worker thread and the zip is written there too, so
the window keeps answering meanwhile (a few seconds).
"""

from __future__ import annotations

import asyncio
import platform
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QWidget

from modu_desktop import __version__, i18n
from modu_desktop.core.github.types import known_secrets
from modu_desktop.core.support.report import run_self_test, write_report
from modu_desktop.i18n import tr

if TYPE_CHECKING:
    from modu_desktop.ui.help.window import HelpWindow


def open_folder(folder: Path) -> bool:
    """Show ``folder`` in the computer's file manager (Explorer, Finder)."""
    return bool(QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))))


def about_facts(win: HelpWindow) -> dict[str, str]:
    """What a helper needs to know about this installation (no secret in it)."""
    from PySide6 import __version__ as pyside_version

    ctx = win.ctx
    s = ctx.settings
    return {
        "Modu Desktop": __version__,
        "Python": sys.version.split()[0],
        "PySide6 (Qt)": pyside_version,
        "system": platform.platform(),
        "frozen": str(bool(getattr(sys, "frozen", False))),
        "language": i18n.language(),
        "text size": f"{s.text_scale:g}",
        "preview zoom": f"{s.preview_zoom:g}",
        "API": s.api_url,
        "repository": f"{s.repo_full_name} ({s.branch})",
        "signed in as": ctx.login,
        "practice mode": str(ctx.practice),
        "viewer": str(ctx.viewer),
        "data folder": str(ctx.paths.data_dir),
        "log folder": str(ctx.paths.logs),
    }


async def make_report(win: HelpWindow) -> Path:
    """Run the self-test, write the zip into the reports folder, return its path."""
    loop = asyncio.get_running_loop()
    lang = i18n.language()
    self_test = await loop.run_in_executor(None, lambda: run_self_test(lang))
    about = about_facts(win)
    paths = win.ctx.paths
    return await loop.run_in_executor(
        None,
        lambda: write_report(
            paths.reports,
            log_dir=paths.logs,
            self_test=self_test,
            about=about,
            secrets=known_secrets(),
        ),
    )


def report_done_box(parent: QWidget | None, path: Path) -> QMessageBox:
    box = QMessageBox(parent)
    box.setObjectName("reportDoneDialog")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setIcon(QMessageBox.Icon.Information)
    box.setWindowTitle(tr("Report a problem"))
    box.setText(tr("The report file is ready: {name}", name=path.name))
    box.setInformativeText(
        tr(
            "It is in the folder {folder}, which is now open. Send this file to the person "
            "who helps you (attach it to an e-mail). It holds the app's recent log and "
            "self-test, but no token and no personal folder names.",
            folder=str(path.parent),
        )
    )
    again = box.addButton(tr("Open the folder"), QMessageBox.ButtonRole.ActionRole)
    again.setObjectName("openReportFolderButton")
    again.clicked.connect(lambda: open_folder(path.parent))
    close = box.addButton(tr("Close"), QMessageBox.ButtonRole.RejectRole)
    close.setObjectName("closeReportButton")
    box.setDefaultButton(close)
    box.setEscapeButton(close)
    return box
