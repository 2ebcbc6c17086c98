"""One line under the editor: how far the last save of this document has got on the site.

It renders the window's one state of the document (``core.publish.status.DocStatus``, worded by
``ui.publish.status_words``), the same the status bar and the failed-publish notice show:
"✔ 저장됨 → 게시하는 중…" while the editor shows what was saved, "마지막 저장 22:10 (3분 전):
✔ 게시됨" once the text has moved on, nothing for a document that cannot be saved here.
"사이트에서 보기" once the page is live.
"""

from __future__ import annotations

import contextlib
import re
import time

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from modu_desktop.core.publish.status import DocStatus, PublishPhase
from modu_desktop.i18n import tr
from modu_desktop.ui.publish.status_words import publishing_line

_TAGS = re.compile(r"<[^>]+>")


class PublishStatus(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("publishStatus")
        self.setAccessibleName(tr("Publishing state"))
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel("")
        self.label.setObjectName("publishStatusLine")
        self.label.setTextFormat(self.label.textFormat().RichText)
        self.label.setWordWrap(True)
        lay.addWidget(self.label, 1)
        self.view_button = QPushButton(tr("View on site"))
        self.view_button.setObjectName("viewOnSiteButton")
        self.view_button.setAccessibleName(tr("Open the published page in the browser"))
        # the line keeps its height and its width for the text whether or not the button is
        # there, so the page below it does not jump when the page goes live
        policy = self.view_button.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.view_button.setSizePolicy(policy)
        self.setMinimumHeight(self.view_button.sizeHint().height())
        self.view_button.hide()
        lay.addWidget(self.view_button)
        self.view_button.clicked.connect(self.open_page)
        self.status: DocStatus | None = None
        self.opened: list[str] = []
        self.hide()

    def show_status(self, status: DocStatus | None, now: float | None = None) -> None:
        """Show ``status`` (None: no document): the line, or nothing when there is none."""
        self.status = status
        line = publishing_line(status, time.time() if now is None else now) if status else ""
        self.label.setText(line)
        plain = _TAGS.sub("", line).replace("&gt;", ">").replace("&lt;", "<")
        self.label.setAccessibleDescription(plain.replace("&amp;", "&"))
        live = status is not None and status.publishing is PublishPhase.PUBLISHED
        self.view_button.setVisible(bool(line) and live and bool(status and status.page_url))
        self.setVisible(bool(line))

    def clear(self) -> None:
        self.show_status(None)

    @property
    def publishing(self) -> PublishPhase | None:
        return self.status.publishing if self.status is not None else None

    def text(self) -> str:
        """The line as read aloud (no markup)."""
        return self.label.accessibleDescription()

    def open_page(self) -> None:
        s = self.status
        if s is not None and s.page_url and s.publishing is PublishPhase.PUBLISHED:
            self.opened.append(s.page_url)
            with contextlib.suppress(Exception):
                QDesktopServices.openUrl(QUrl(s.page_url))
