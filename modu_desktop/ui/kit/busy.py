"""Progress where the user is looking: an overlay on a pane while it waits for the network.

``BusyOverlay(pane, is_busy, text)`` watches ``is_busy()`` (a cheap flag of the window, e.g.
"the list is refreshing", "a document is opening") and, once it has been true for more than
300 ms, covers ``pane`` with a light veil, a moving bar and ``text``. Quick answers show nothing.
While a modal dialog asks the user something (the lock question while a document opens), the
app is waiting for the user, not the network: no veil, and the 300 ms start again after it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QProgressBar, QVBoxLayout, QWidget

DELAY_S = 0.3


class BusyOverlay(QWidget):
    def __init__(
        self,
        pane: QWidget,
        is_busy: Callable[[], bool],
        text: str,
        *,
        poll_ms: int = 50,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(pane)
        self.setObjectName("busyOverlay")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet("#busyOverlay { background: rgba(255, 255, 255, 200); }")
        self.pane = pane
        self.is_busy = is_busy
        lay = QVBoxLayout(self)
        lay.addStretch(1)
        self.label = QLabel(text)
        self.label.setObjectName("busyText")
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setWordWrap(True)
        lay.addWidget(self.label)
        self.bar = QProgressBar()
        self.bar.setObjectName("busyBar")
        self.bar.setRange(0, 0)  # moving, no percentage
        self.bar.setTextVisible(False)
        self.bar.setMaximumWidth(260)
        self.bar.setAccessibleName(text)
        lay.addWidget(self.bar, 0, Qt.AlignmentFlag.AlignHCenter)
        lay.addStretch(1)
        self.hide()
        self._since: float | None = None
        self._clock = clock  # how long it has been busy is measured on this
        self.shown_count = 0
        pane.installEventFilter(self)
        self._timer = QTimer(self)
        self._timer.setInterval(poll_ms)
        self._timer.timeout.connect(self._tick)
        self._timer.start()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if obj is self.pane and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.pane.rect())
        return False

    def _tick(self) -> None:
        try:
            busy = bool(self.is_busy())
        except Exception:
            busy = False
        now = self._clock()
        if busy and QApplication.activeModalWidget() is not None:
            busy = False  # a question is open: the wait is the user's
        if not busy:
            self._since = None
            if self.isVisible():
                self.hide()
            return
        if self._since is None:
            self._since = now
        if now - self._since >= DELAY_S and not self.isVisible():
            self.setGeometry(self.pane.rect())
            self.raise_()
            self.show()
            self.shown_count += 1
