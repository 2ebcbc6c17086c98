"""Text on the clipboard in two formats: words to paste anywhere (text/plain) and the page's
Markdown beside them (text/markdown) for a program that takes it.

The clipboard keeps the data object it is given. One made in Python has a wrapper that must be
gone before Python is: where Qt's clipboard outlives the interpreter (the offscreen platform's is
a static object) its deletion would call into a Python that has already ended, and the process
crashes on its way out. So before Python ends the words are handed back to Qt as plain text
(the Markdown goes with the app, as it does when the app quits on most desktops).
"""

from __future__ import annotations

import atexit

from PySide6.QtCore import QByteArray, QMimeData
from PySide6.QtWidgets import QApplication

MARKDOWN = "text/markdown"
_ours: list[QMimeData] = []  # the data object the clipboard holds now, if we made it


def put_text(words: str, markdown: str) -> None:
    """``words`` as the clipboard's text, ``markdown`` as its Markdown."""
    data = QMimeData()
    data.setText(words)
    data.setData(MARKDOWN, QByteArray(markdown.encode("utf-8")))
    if not _ours:
        atexit.register(_hand_back)
    _ours[:] = [data]
    QApplication.clipboard().setMimeData(data)


def _hand_back() -> None:
    """Before Python ends: the clipboard's words as Qt's own text, our data object let go."""
    app = QApplication.instance()
    if app is None or not _ours:
        return
    clipboard = QApplication.clipboard()
    if clipboard.mimeData() is _ours[0]:
        clipboard.setText(_ours[0].text())
    _ours.clear()
