"""What the Help menu and what it opens use of the window: the signed-in context, a place for
dialogs, the menu bar, the notice. Typed here, so the help room never imports the window."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenuBar, QWidget

if TYPE_CHECKING:
    from modu_desktop.ui.kit.context import AppContext
    from modu_desktop.ui.kit.operation import Operations


class HelpWindow(Protocol):
    ctx: AppContext
    ops: Operations

    def window(self) -> QWidget: ...  # dialogs open over it

    def menuBar(self) -> QMenuBar: ...  # noqa: N802 - Qt API

    def addAction(self, action: QAction) -> None: ...  # noqa: N802 - Qt API

    def show_notice(self, text: str, kind: str = "info", topic: str | None = None) -> None: ...

    def resolve_notice(self, *topics: str) -> None: ...
