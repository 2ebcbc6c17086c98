"""단축키: every shortcut of the window, as this computer has it and as Windows and macOS do."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.i18n import tr
from modu_desktop.ui.kit.fit import fit_to_screen
from modu_desktop.ui.kit.shortcuts import (
    PAGE_EDITOR,
    TABLE,
    keys_text,
    native_text,
    page_keys_text,
)


def shortcut_rows(window: QWidget) -> list[tuple[str, str, str, str]]:
    """(what it does, this computer, Windows, macOS) for every action of ``window`` that has
    a shortcut from the table, in menu order, each shortcut once."""
    rows: list[tuple[str, str, str, str]] = []
    seen: set[str] = set()
    # the menus' actions, then the buttons with a key of their own (원문 편집)
    holders: list[QAction | QAbstractButton] = [
        *window.findChildren(QAction),
        *window.findChildren(QAbstractButton),
    ]
    for holder in holders:
        name = holder.property("shortcutName")
        if not isinstance(name, str) or name in seen or name not in TABLE:
            continue
        seen.add(name)
        label = holder.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        label = label.rstrip("…").strip()
        keys = TABLE[name]
        here = native_text(holder) if isinstance(holder, QAction) else keys_text(name)
        rows.append((label, here, keys.windows, keys.macos))
    return rows


def page_editor_rows() -> list[tuple[str, str, str, str]]:
    """(what it does, this computer, Windows, macOS) for the keys of the page editor's cards."""
    return [
        (tr(keys.what_en), page_keys_text(name), keys.windows, keys.macos)
        for name, keys in PAGE_EDITOR.items()
    ]


class ShortcutsDialog(QDialog):
    def __init__(self, window: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle(tr("Keyboard shortcuts"))
        lay = QVBoxLayout(self)
        note = QLabel(
            tr(
                "On a Mac, ⌘ is the Command key, ⌥ Option and ⇧ Shift. “This computer” shows "
                "the keys that work here."
            )
        )
        note.setWordWrap(True)
        lay.addWidget(note)
        rows = shortcut_rows(window)
        cards = page_editor_rows()
        self.table = QTableWidget(len(rows) + 1 + len(cards), 4)
        self.table.setObjectName("shortcutsTable")
        self.table.setHorizontalHeaderLabels(
            [tr("What it does"), tr("This computer"), "Windows", "macOS"]
        )
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                self.table.setItem(r, c, QTableWidgetItem(text))
        # the page editor's own keys, under a heading of their own (they work in a card)
        head = QTableWidgetItem(tr("On the page (in a card)"))
        font = head.font()
        font.setBold(True)
        head.setFont(font)
        self.table.setItem(len(rows), 0, head)
        self.table.setSpan(len(rows), 0, 1, 4)
        for r, row in enumerate(cards, start=len(rows) + 1):
            for c, text in enumerate(row):
                self.table.setItem(r, c, QTableWidgetItem(text))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in (1, 2, 3):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        lay.addWidget(self.table, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        fit_to_screen(self, 720, 600)
