"""Awaiting a dialog without a nested ``exec()`` (which would block tests and qasync). Background
jobs run through ``ui/shell/operation.Operations``."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtWidgets import QDialog, QMessageBox, QWidget


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


async def run_dialog_while_loading(dialog: QDialog, load: Callable[[], Awaitable[object]]) -> None:
    """Show ``dialog`` window-modally while ``load()`` fills it in, wait until it is closed,
    then let Qt delete it."""
    try:
        shown = asyncio.ensure_future(run_dialog(dialog))
        await load()
        await shown
    finally:
        with contextlib.suppress(RuntimeError):  # gone already with the window it was over
            dialog.deleteLater()


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
