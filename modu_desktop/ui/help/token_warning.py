"""A week before the GitHub token expires: say so, with the steps to make a new one.

GitHub names the moment in a header of every answer (``GitHubClient.token_expires_at``). The
warning is shown when the window opens and looked at again every hour, once a day at most.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QDateTime, QLocale, QTimer

from modu_desktop.core.account.token_expiry import ExpiryWarning, expiry_warning
from modu_desktop.i18n import tr

if TYPE_CHECKING:
    from modu_desktop.ui.help.window import HelpWindow

CHECK_EVERY_MS = 3600 * 1000


def warning_text(warning: ExpiryWarning) -> str:
    when = QLocale().toString(
        QDateTime.fromSecsSinceEpoch(int(warning.expires_at)).toLocalTime(),
        QLocale.FormatType.ShortFormat,
    )
    if warning.days_left == 0:
        head = tr("Your GitHub token expires today ({when}).", when=when)
    else:
        head = tr(
            "Your GitHub token expires in {days} days ({when}).",
            days=warning.days_left,
            when=when,
        )
    return (
        head
        + " "
        + tr(
            "After that you cannot save. To make a new one: File → Sign out, press “Create a "
            "token” on the sign-in screen, create it on GitHub and paste it."
        )
    )


class TokenExpiryWatch:
    def __init__(self, win: HelpWindow) -> None:
        self.win = win
        self.shown_day: str | None = None
        self.timer = QTimer(win.window())
        self.timer.setInterval(CHECK_EVERY_MS)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> ExpiryWarning | None:
        client = self.win.ctx.client
        warning = expiry_warning(
            getattr(client, "token_expires_at", None), self.win.ctx.server_now()
        )
        day = time.strftime("%Y-%m-%d")
        if warning is None or self.shown_day == day:
            return warning
        self.shown_day = day
        self.win.show_notice(warning_text(warning), "warning", "token")
        return warning
