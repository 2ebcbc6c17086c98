"""Every keyboard shortcut of the window, in one table, fitting each platform.

Where Qt has a standard key (``QKeySequence.StandardKey``) the shortcut is that key: Qt gives
each platform its own binding (Find next is F3 on Windows and ⌘G on macOS, Refresh F5 and ⌘R).
Where Qt has none on a platform, the fallback is chosen so that it does not collide with the
platform's own keys: Replace is Ctrl+H on Windows but ⌥⌘F on macOS, where ⌘H hides the app.
Literal shortcuts are written with "Ctrl", which Qt turns into ⌘ on macOS.

``WINDOWS`` and ``MACOS`` in each entry are what the 단축키 page shows for those platforms; they
copy Qt's own key-binding table (``qplatformtheme.cpp``) for the standard keys, and this
computer's column is read from the live actions.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence

SK = QKeySequence.StandardKey
_F1_TO_F12 = re.compile(r"F([1-9]|1[0-2])")
_MODIFIERS = ("Ctrl+", "Alt+", "Shift+", "Meta+")  # Qt's portable names


@dataclass(frozen=True)
class Keys:
    standard: SK | None  # Qt's standard key, when it has one
    fallback: tuple[str, ...]  # portable text, used where the standard key is unbound
    windows: str  # shown for Windows
    macos: str  # shown for macOS (Qt's "Ctrl" is ⌘ there)
    extra: tuple[str, ...] = ()  # more keys on every platform (Ctrl+= beside Ctrl++)


TABLE: dict[str, Keys] = {
    "open": Keys(SK.Open, (), "Ctrl+O", "⌘O"),
    "save": Keys(SK.Save, (), "Ctrl+S", "⌘S"),
    "close": Keys(SK.Close, (), "Ctrl+F4, Ctrl+W", "⌘W"),
    "refresh": Keys(SK.Refresh, (), "F5", "⌘R"),
    "quit": Keys(SK.Quit, ("Ctrl+Q",), "Ctrl+Q", "⌘Q"),
    "new": Keys(SK.New, (), "Ctrl+N", "⌘N"),
    "undo": Keys(SK.Undo, (), "Ctrl+Z", "⌘Z"),
    "redo": Keys(SK.Redo, (), "Ctrl+Y, Ctrl+Shift+Z", "⇧⌘Z"),
    "find": Keys(SK.Find, (), "Ctrl+F", "⌘F"),
    "replace": Keys(SK.Replace, ("Ctrl+Alt+F",), "Ctrl+H", "⌥⌘F"),
    "findNext": Keys(SK.FindNext, ("F3",), "F3, Ctrl+G", "⌘G"),
    "findPrevious": Keys(SK.FindPrevious, ("Shift+F3",), "Shift+F3, Ctrl+Shift+G", "⇧⌘G"),
    "searchPages": Keys(None, ("Ctrl+Shift+F",), "Ctrl+Shift+F", "⇧⌘F"),
    "insertBlock": Keys(None, ("Ctrl+Shift+B",), "Ctrl+Shift+B", "⇧⌘B"),
    "rawView": Keys(None, ("Ctrl+Shift+E",), "Ctrl+Shift+E", "⇧⌘E"),
    "insertPicture": Keys(None, ("Ctrl+Shift+I",), "Ctrl+Shift+I", "⇧⌘I"),
    "goList": Keys(None, ("Ctrl+L",), "Ctrl+L", "⌘L"),
    # not Ctrl+K: in a text box that is 링크, as in every word processor
    "goFilter": Keys(None, ("Ctrl+Shift+L",), "Ctrl+Shift+L", "⇧⌘L"),
    "goEditor": Keys(None, ("Ctrl+E",), "Ctrl+E", "⌘E"),
    "goPageSettings": Keys(None, ("Ctrl+T",), "Ctrl+T", "⌘T"),
    "moveUp": Keys(None, ("Alt+Shift+Up",), "Alt+Shift+↑", "⌥⇧↑"),
    "moveDown": Keys(None, ("Alt+Shift+Down",), "Alt+Shift+↓", "⌥⇧↓"),
    "print": Keys(SK.Print, (), "Ctrl+P", "⌘P"),
    "zoomIn": Keys(SK.ZoomIn, (), "Ctrl++, Ctrl+=", "⌘+, ⌘=", extra=("Ctrl+=",)),
    "zoomOut": Keys(SK.ZoomOut, (), "Ctrl+-", "⌘-"),
    "zoomReset": Keys(None, ("Ctrl+0",), "Ctrl+0", "⌘0"),
    "help": Keys(SK.HelpContents, ("F1",), "F1", "⌘?"),
}


@dataclass(frozen=True)
class PageKeys:
    """A key of the page editor (it works in the card that has the keyboard): what it does,
    its portable text (``Ctrl`` is ⌘ and ``Alt`` ⌥ on macOS) and how each platform shows it."""

    what_en: str
    keys: str
    windows: str
    macos: str


PAGE_EDITOR: dict[str, PageKeys] = {
    "bold": PageKeys("Bold (in a text box)", "Ctrl+B", "Ctrl+B", "⌘B"),
    "italic": PageKeys("Italic (in a text box)", "Ctrl+I", "Ctrl+I", "⌘I"),
    "strike": PageKeys("Strikethrough (in a text box)", "Ctrl+Shift+X", "Ctrl+Shift+X", "⇧⌘X"),
    "link": PageKeys("Link (in a text box)", "Ctrl+K", "Ctrl+K", "⌘K"),
    "lineBreak": PageKeys("Line break (in a text box)", "Shift+Return", "Shift+Enter", "⇧↩"),
    "indent": PageKeys("Indent a list item", "Ctrl+]", "Ctrl+]", "⌘]"),
    "outdent": PageKeys("Outdent a list item", "Ctrl+[", "Ctrl+[", "⌘["),
    "leave": PageKeys("Next / previous card (in a table: cell)", "Tab", "Tab, Shift+Tab", "⇥, ⇧⇥"),
    "textBelow": PageKeys("Text box below this card", "Alt+Shift+T", "Alt+Shift+T", "⌥⇧T"),
    "cardUp": PageKeys("Move the card up", "Alt+Shift+Up", "Alt+Shift+↑", "⌥⇧↑"),
    "cardDown": PageKeys("Move the card down", "Alt+Shift+Down", "Alt+Shift+↓", "⌥⇧↓"),
    "cardRemove": PageKeys("Remove the card", "Alt+Shift+Del", "Alt+Shift+Del", "⌥⇧⌦"),
    "itemAdd": PageKeys("New item below (in a block's item)", "Return", "Enter", "↩"),
    "itemUp": PageKeys("Move the item up", "Alt+Up", "Alt+↑", "⌥↑"),
    "itemDown": PageKeys("Move the item down", "Alt+Down", "Alt+↓", "⌥↓"),
    "itemRemove": PageKeys("Remove the item", "Alt+Del", "Alt+Del", "⌥⌦"),
}
"""The page editor's own keys: one table for the cards, their tooltips and the 단축키 page."""


def page_keys_text(name: str) -> str:
    """A page editor key as this computer shows it ("Ctrl+B", "⌘B")."""
    keys = PAGE_EDITOR[name]
    if this_platform() == "macos":
        return keys.macos
    return keys.windows


def sequences(name: str) -> list[QKeySequence]:
    """The keys of ``name`` on this computer (the standard key's bindings, else the fallback)."""
    keys = TABLE[name]
    found: list[QKeySequence] = []
    if keys.standard is not None:
        found = [k for k in QKeySequence.keyBindings(keys.standard) if not k.isEmpty()]
    if not found:
        found = [QKeySequence(text) for text in keys.fallback]
    for text in keys.extra:
        extra = QKeySequence(text)
        if all(extra != k for k in found):
            found.append(extra)
    return found


def bind(action: QAction, name: str) -> QAction:
    """Give ``action`` the shortcut ``name`` of the table (and remember which it is)."""
    action.setShortcuts(sequences(name))
    action.setProperty("shortcutName", name)
    return action


def _on_the_keyboard(key: QKeySequence) -> bool:
    """A combination with Ctrl, Alt, Shift or ⌘, or F1–F12: not one of the special keys Qt
    binds as well ("New", "Save", "Zoom In", a Sun keyboard's F14 for Undo), whose names —
    translated, "저장", "확대" — would read like a second shortcut."""
    if key.count() != 1:
        return False
    text = key.toString(QKeySequence.SequenceFormat.PortableText)
    return bool(_F1_TO_F12.fullmatch(text)) or text.startswith(_MODIFIERS)


def _readable(keys: list[QKeySequence]) -> str:
    """Keys as this computer shows them (⌘ on macOS), without the keyboards' special keys."""
    texts = [
        k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys if _on_the_keyboard(k)
    ]
    return ", ".join([t for t in texts if t][:2])


def native_text(action: QAction) -> str:
    """The action's keys as this computer shows them."""
    return _readable(action.shortcuts())


def keys_text(name: str) -> str:
    """The keys of ``name`` on this computer, for a tooltip ("Save (Ctrl+S)", "저장 (⌘S)")."""
    return _readable(sequences(name))


def this_platform() -> str:
    if sys.platform == "darwin":
        return "macos"
    return "windows" if sys.platform.startswith("win") else "other"
