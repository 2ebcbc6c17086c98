"""Korean input is safe: a syllable still being composed is committed before it would be lost.

An input method shows the syllable being typed (its *preedit*, "한" while the next key may
still change it) in the widget without putting it in the text: ``toPlainText()`` does not have
it. Saving with Ctrl+S, switching documents, replacing, confirming a form or closing at that
moment read the text without it — the last syllable was lost. Only the focus widget composes,
so :class:`PreeditTracker` watches the input-method events of whichever widget has the focus
(it moves its event filter along with the focus: no filter on every event of the app), and
:func:`commit_preedit`
commits what is pending first: it asks the platform's input method to commit, and where a
preedit is still pending (an input method that commits later, or none at all) it commits that
text itself, as the input method would, and resets the input method so it does not commit it
a second time.
"""

from __future__ import annotations

import contextlib
import weakref

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QGuiApplication, QInputMethodEvent
from PySide6.QtWidgets import QApplication, QWidget


class PreeditTracker(QObject):
    """The preedit each widget shows now (weakly: a widget that goes away is forgotten)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pending: weakref.WeakKeyDictionary[QObject, str] = weakref.WeakKeyDictionary()
        self.watched: weakref.WeakSet[QWidget] = weakref.WeakSet()

    def watch(self, widget: QWidget | None) -> None:
        """Follow ``widget``'s input-method events (the one with the focus)."""
        if widget is None or widget in self.watched:
            return
        if widget.testAttribute(Qt.WidgetAttribute.WA_InputMethodEnabled):
            widget.installEventFilter(self)
            self.watched.add(widget)

    def focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if old is not None and old in self.watched and not self.pending.get(old):
            with contextlib.suppress(RuntimeError):
                old.removeEventFilter(self)
            self.watched.discard(old)
        self.watch(new)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.InputMethod and isinstance(event, QInputMethodEvent):
            with contextlib.suppress(TypeError):
                text = event.preeditString()
                if text:
                    self.pending[obj] = text
                else:
                    self.pending.pop(obj, None)
        return False

    def commit(self) -> int:
        """Commit every pending preedit; returns how many were committed here."""
        im = QGuiApplication.inputMethod()
        if self.pending:
            im.commit()  # the platform's input method, where there is one
            QCoreApplication.processEvents()
        done = 0
        for widget, text in list(self.pending.items()):
            if not text:
                continue
            event = QInputMethodEvent("", [])
            event.setCommitString(text)
            with contextlib.suppress(RuntimeError):  # the widget is being destroyed
                QCoreApplication.sendEvent(widget, event)
                done += 1
            self.pending.pop(widget, None)
        if done:
            im.reset()  # the input method forgets what was committed for it
        return done


_tracker: dict[str, PreeditTracker] = {}


def install_preedit_tracker() -> PreeditTracker:
    """Follow the focus through the whole application (once)."""
    tracker = _tracker.get("app")
    app = QApplication.instance()
    if tracker is None and isinstance(app, QApplication):
        tracker = PreeditTracker(app)
        app.focusChanged.connect(tracker.focus_changed)
        tracker.watch(app.focusWidget())
        _tracker["app"] = tracker
    assert tracker is not None
    return tracker


def commit_preedit() -> int:
    """Commit any syllable still being composed, anywhere in the app (see the module)."""
    tracker = _tracker.get("app")
    return tracker.commit() if tracker is not None else 0
