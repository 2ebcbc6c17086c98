"""새 버전 확인: once in the background after start-up (unless turned off), and on request.

The background check waits until the window has settled, asks GitHub once (``core/support/
updates.py``) and says something only when there is a newer version. ``MODU_NO_UPDATE_CHECK``
in the environment turns the background check off as well (the tests set it: they never reach
beyond 127.0.0.1).
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QCheckBox, QMessageBox

from modu_desktop import __version__
from modu_desktop.core.account.settings import save_settings
from modu_desktop.core.support.updates import (
    RELEASES_API_URL,
    RELEASES_REPO,
    UpdateCheck,
    check_for_update,
)
from modu_desktop.i18n import tr

if TYPE_CHECKING:
    from modu_desktop.ui.help.window import HelpWindow

NO_CHECK_ENV = "MODU_NO_UPDATE_CHECK"
BACKGROUND_DELAY_MS = 20_000


def release_source(settings: Any) -> tuple[str, str]:
    """(API URL, OWNER/NAME) of the app's releases; IT may point elsewhere in the settings."""
    extra = getattr(settings, "extra", {}) or {}
    api = extra.get("releases_api_url") if isinstance(extra.get("releases_api_url"), str) else None
    repo = extra.get("releases_repo") if isinstance(extra.get("releases_repo"), str) else None
    return api or RELEASES_API_URL, repo or RELEASES_REPO


class UpdateChecker:
    def __init__(self, win: HelpWindow) -> None:
        self.win = win
        self.last: UpdateCheck | None = None
        self._timer: QTimer | None = None

    def start_background(self, delay_ms: int = BACKGROUND_DELAY_MS) -> bool:
        """Check once, later, without a word unless there is a newer version."""
        if not self.win.ctx.settings.check_updates or os.environ.get(NO_CHECK_ENV):
            return False
        self._timer = QTimer(self.win.window())
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(
            lambda: self.win.ops.run(self.check(interactive=False), name="update-check")
        )
        self._timer.start(delay_ms)
        return True

    async def check(self, *, interactive: bool) -> UpdateCheck:
        api_url, repo = release_source(self.win.ctx.settings)
        result = await check_for_update(
            api_url=api_url, repo=repo, current=__version__, client=self.win.ctx.client
        )
        self.last = result
        if interactive:
            self.show_result(result)
        elif result.newer and result.latest is not None:
            self.win.show_notice(
                tr(
                    "Modu Desktop {version} is out (this is {current}). Help → Check for a new "
                    "version opens its download page.",
                    version=result.latest.tag.lstrip("v"),
                    current=__version__,
                ),
                "info",
                "update",
            )
        return result

    def show_result(self, result: UpdateCheck) -> QMessageBox:
        box = QMessageBox(self.win.window())
        box.setObjectName("updateDialog")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setWindowTitle(tr("Check for a new version"))
        download = None
        if result.error is not None:
            box.setIcon(QMessageBox.Icon.Warning)
            box.setText(tr("Could not check for a new version. Is the computer online?"))
        elif result.newer and result.latest is not None:
            box.setIcon(QMessageBox.Icon.Information)
            box.setText(
                tr(
                    "Modu Desktop {version} is out (this is {current}).",
                    version=result.latest.tag.lstrip("v"),
                    current=__version__,
                )
            )
            box.setInformativeText(
                tr("Download the installer from its page and run it; your drafts are kept.")
            )
            if result.latest.url:
                download = box.addButton(
                    tr("Open the download page"), QMessageBox.ButtonRole.AcceptRole
                )
                download.setObjectName("openDownloadButton")
                url = result.latest.url
                download.clicked.connect(lambda: QDesktopServices.openUrl(QUrl(url)))
        else:
            box.setIcon(QMessageBox.Icon.Information)
            box.setText(tr("This is the newest version ({current}).", current=__version__))
        close = box.addButton(tr("Close"), QMessageBox.ButtonRole.RejectRole)
        close.setObjectName("closeUpdateButton")
        box.setDefaultButton(close)
        box.setEscapeButton(close)
        auto = QCheckBox(tr("Check for a new version when the app starts"), box)
        auto.setObjectName("checkUpdatesBox")
        auto.setChecked(self.win.ctx.settings.check_updates)
        auto.toggled.connect(self.remember_choice)
        box.setCheckBox(auto)
        box.open()
        return box

    def remember_choice(self, on: bool) -> None:
        ctx = self.win.ctx
        ctx.settings.check_updates = bool(on)
        with contextlib.suppress(OSError):
            save_settings(ctx.settings, ctx.paths.settings_file)
