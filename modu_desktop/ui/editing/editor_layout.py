"""The editor's layout, remembered in a small JSON file: the view (editor / preview / both),
the splitter sizes (the list beside the editor, the text beside the preview, the text over the
block form), whether the list is shown, and the raw view. A narrow window's own sizes are for
now, never for the next start."""

from __future__ import annotations

import contextlib
import json
import logging
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject, QTimer, SignalInstance
from PySide6.QtWidgets import QSplitter, QToolButton, QWidget

from modu_desktop.i18n import tr

log = logging.getLogger(__name__)

SAVE_AFTER_MS = 400  # the layout is written once the user stops dragging


class SizedForm(Protocol):
    form_sized: bool  # the text/form split was sized once (then it is the user's)


class LaidOut(Protocol):
    """What the layout reads and sets of the editor pane."""

    VIEWS: tuple[str, ...]
    splitter: QSplitter  # the text beside the preview
    left_splitter: QSplitter  # the text over the block form
    toggle_list_button: QToolButton
    listToggled: SignalInstance
    view: str
    raw_view: bool
    narrow: bool  # the window is narrow now: its list width is not the user's
    fitted_sizes: list[int] | None  # the sizes a narrow window chose

    @property
    def preview(self) -> QWidget: ...

    def set_view(self, view: str) -> None: ...

    def set_raw_view(self, raw: bool) -> None: ...

    @property
    def blocks(self) -> SizedForm: ...


class EditorLayout(QObject):
    def __init__(self, pane: LaidOut, parent: QObject) -> None:
        super().__init__(parent)
        self.pane = pane
        self.remember_list = True
        self.list_wanted = True  # the user's choice (a narrow window may hide it for now)
        self.path: Path | None = None
        self.outer: QSplitter | None = None  # the list beside the editor
        self.doc_list: QWidget | None = None
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(SAVE_AFTER_MS)
        self.timer.timeout.connect(self.save)
        for sp in (pane.splitter, pane.left_splitter):
            sp.splitterMoved.connect(lambda *_a: self.timer.start())
        pane.toggle_list_button.toggled.connect(self.toggle_list)

    def save_soon(self) -> None:
        self.timer.start()

    def attach_window(self, outer: QSplitter, doc_list: QWidget, layout_path: Path) -> None:
        """Let the toolbar collapse ``doc_list`` and remember every splitter in ``layout_path``."""
        self.outer = outer
        self.doc_list = doc_list
        self.path = layout_path
        outer.splitterMoved.connect(lambda *_a: self.timer.start())
        self.restore()

    def toggle_list(self, shown: bool) -> None:
        if self.doc_list is not None:
            self.doc_list.setVisible(shown)
        self.pane.toggle_list_button.setText(tr("☰ List") if shown else tr("☰ Show list"))
        self.pane.listToggled.emit(shown)
        if self.remember_list:
            self.list_wanted = shown
            self.timer.start()

    def set_list_shown(self, shown: bool, *, remember: bool = True) -> None:
        """Show or hide the document list; ``remember=False``: only for now (a narrow window
        tucks it away), not the user's choice for the next start."""
        self.remember_list = remember
        try:
            self.pane.toggle_list_button.setChecked(shown)
            self.toggle_list(shown)
        finally:
            self.remember_list = True

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = {
            "view": self.pane.view,
            "editor": self.pane.splitter.sizes(),
            "form": self.pane.left_splitter.sizes(),
            "list_shown": self.list_wanted,
        }
        old: dict[str, Any] = {}
        if self.path is not None:
            with contextlib.suppress(Exception):
                read = json.loads(self.path.read_text("utf-8"))
                old = read if isinstance(read, dict) else {}
        fitted = self.pane.splitter.sizes() == self.pane.fitted_sizes or (
            self.pane.view == "both" and self.pane.preview.isHidden()
        )
        if self.pane.narrow and fitted:
            # a narrow window sized the cards and the preview for now, not for the next start
            state.pop("editor")
            if isinstance(old.get("editor"), list):
                state["editor"] = old["editor"]
        if (
            self.outer is not None
            and self.doc_list is not None
            and self.doc_list.isVisible()
            and not self.pane.narrow
        ):
            state["outer"] = self.outer.sizes()
        elif isinstance(old.get("outer"), list):
            state["outer"] = old["outer"]
        return state

    def save(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.state()), encoding="utf-8")
            tmp.replace(self.path)
        except OSError:
            log.info("could not remember the window layout", exc_info=True)

    def restore(self) -> None:
        if self.path is None:
            return
        try:
            state = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return
        if not isinstance(state, dict):
            return

        def sizes(v: Any) -> list[int] | None:
            if isinstance(v, list) and v and all(isinstance(x, int) and x >= 0 for x in v):
                return v
            return None

        if (s := sizes(state.get("editor"))) and len(s) == 2:
            self.pane.splitter.setSizes(s)
        if (s := sizes(state.get("form"))) and len(s) == 2 and all(s):
            self.pane.left_splitter.setSizes(s)
            self.pane.blocks.form_sized = True
        if self.outer is not None and (s := sizes(state.get("outer"))) and len(s) == 2:
            self.outer.setSizes(s)
        if state.get("view") in self.pane.VIEWS:
            self.pane.set_view(str(state["view"]))
        if state.get("list_shown") is False:
            self.set_list_shown(False)
