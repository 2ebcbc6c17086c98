"""Small asyncio helpers for widgets: fire-and-forget tasks that are kept alive and logged,
and awaiting a dialog without a nested ``exec()`` (which would block tests and qasync)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

log = logging.getLogger(__name__)
T = TypeVar("T")

_tasks: set[asyncio.Task[Any]] = set()


def spawn(coro: Coroutine[Any, Any, T], *, name: str | None = None) -> asyncio.Task[T]:
    """Run a coroutine in the background; keep a reference; log (and re-raise to the excepthook
    via the task's exception) anything it raises except cancellation. Not for the app's widgets:
    they run jobs through ``ui/shell/operation.Operations`` (``operations_for(widget)``)."""
    task = asyncio.ensure_future(coro)
    if name:
        task.set_name(name)
    _tasks.add(task)

    def done(t: asyncio.Task[Any]) -> None:
        _tasks.discard(t)
        if t.cancelled():
            return
        exc = t.exception()
        if exc is not None:
            log.error("background task %s failed", t.get_name(), exc_info=exc)
            import sys

            sys.excepthook(type(exc), exc, exc.__traceback__)

    task.add_done_callback(done)
    return task


def pending_tasks() -> set[asyncio.Task[Any]]:
    return set(_tasks)


async def run_dialog(dialog: QDialog) -> int:
    """Show a dialog window-modally and wait for its result without blocking the event loop."""
    loop = asyncio.get_event_loop()
    fut: asyncio.Future[int] = loop.create_future()

    def finished(result: int) -> None:
        if not fut.done():
            fut.set_result(result)

    dialog.finished.connect(finished)
    dialog.open()
    try:
        return await fut
    finally:
        with contextlib.suppress(RuntimeError, TypeError):
            dialog.finished.disconnect(finished)


async def ask(
    parent: QWidget | None,
    title: str,
    text: str,
    buttons: list[tuple[str, QMessageBox.ButtonRole, str]],
    *,
    object_name: str = "questionDialog",
    icon: QMessageBox.Icon = QMessageBox.Icon.Question,
    informative: str | None = None,
    default: str | None = None,
) -> str | None:
    """A message box with named buttons; returns the chosen button's key (None if closed).

    ``buttons`` = [(key, role, label)]; each button gets objectName ``{key}Button``.
    """
    box = QMessageBox(parent)
    box.setObjectName(object_name)
    box.setWindowTitle(title)
    box.setIcon(icon)
    box.setText(text)
    if informative:
        box.setInformativeText(informative)
    keys: dict[Any, str] = {}
    for key, role, label in buttons:
        b = box.addButton(label, role)
        b.setObjectName(f"{key}Button")
        b.setAccessibleName(label.replace("&", ""))
        keys[b] = key
        if default == key:
            box.setDefaultButton(b)
    await run_dialog(box)
    clicked = box.clickedButton()
    box.deleteLater()
    return keys.get(clicked)
