"""A read-only window into the running app for the tests that use real hands (``tests/hands``).

Those tests drive the app only through the X server (mouse clicks at screen positions, keys,
typed text); to know *where* to click and *what* came of it, they ask this probe. It is off
unless ``MODU_HANDS_PROBE`` names a local socket path, and then it answers one JSON object per
line with one JSON object per line, on the Qt thread:

- ``{"q": "ping"}`` → the process id;
- ``{"q": "windows"}`` → the visible top-level windows (class, object name, title, frame and
  inner rectangles on the screen, modal, active);
- ``{"q": "screen"}`` → the screen's geometry and available area (without panels);
- ``{"q": "find", …widget query}`` → the matching widgets with their screen rectangles and
  the size each would take (``hint``: a widget given less shows its words cut off) and the
  state its colour shows (``kind``: ok, warning, error…);
- ``{"q": "focus"}`` → the widget with the keyboard focus and its ancestry;
- ``{"q": "text", …widget query}`` → a text widget's text, cursor, selection and, for rich
  text, its blocks and fragments with their formats;
- ``{"q": "text_rect", …widget query, "find": s, "offset": n}`` → the screen rectangle of a
  place in a text widget's text (``n`` characters after the first ``s``; ``"end": true`` for
  the place after it);
- ``{"q": "menus"}`` → the open menus and their entries with screen rectangles;
- ``{"q": "rows", …widget query}`` → a list's, table's or tree's rows as shown: their texts,
  screen rectangles (the row's and each cell's) and depth (a tree's rows under another one: 1
  and more);
- ``{"q": "document"}`` → the open document's text and which view shows it (cards or raw).

A widget query: ``name`` (object name), ``accessible`` (accessible name), ``text`` (a button's
or label's text), ``contains`` (text the widget's text contains), ``cls`` (a Qt or Python class
the widget inherits), ``inside`` (another query: only widgets inside the first widget it
finds), ``index`` (which match, from 0), ``hidden`` (true: hidden widgets too).

It never acts: nothing here clicks, focuses, types or calls a method that changes the app —
the test acts only through X, like a person.
"""

from __future__ import annotations

import json
import logging
import os
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPoint, QRect
from PySide6.QtGui import QGuiApplication, QTextCharFormat, QTextCursor, QTextDocument, QTextFormat
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QStackedWidget,
    QTextEdit,
    QWidget,
)

log = logging.getLogger(__name__)

ENV = "MODU_HANDS_PROBE"
MAX_LINE = 1 << 20
_USER = int(QTextFormat.Property.UserProperty)
_running: list[HandsProbe] = []


def start_from_environment(parent: QObject) -> HandsProbe | None:
    """The probe, listening, when ``MODU_HANDS_PROBE`` names a socket path; else None."""
    path = os.environ.get(ENV)
    if not path:
        return None
    probe = HandsProbe(path, parent)
    if not probe.listening:
        return None
    _running.append(probe)  # it lives as long as the app
    return probe


class HandsProbe(QObject):
    def __init__(self, path: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        QLocalServer.removeServer(path)
        self.listening = self.server.listen(path)
        if not self.listening:
            log.warning("hands probe: cannot listen at %s", path)
        self.server.newConnection.connect(self._connected)
        self._buffers: dict[int, bytes] = {}

    def _connected(self) -> None:
        while (sock := self.server.nextPendingConnection()) is not None:
            self._buffers[id(sock)] = b""
            sock.readyRead.connect(lambda s=sock: self._read(s))
            sock.disconnected.connect(lambda s=sock: self._gone(s))

    def _gone(self, sock: QLocalSocket) -> None:
        self._buffers.pop(id(sock), None)
        sock.deleteLater()

    def _read(self, sock: QLocalSocket) -> None:
        buf = self._buffers.get(id(sock), b"") + bytes(sock.readAll().data())
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            sock.write(json.dumps(self.answer(line), ensure_ascii=False).encode() + b"\n")
        sock.flush()
        self._buffers[id(sock)] = buf[-MAX_LINE:]

    def answer(self, line: bytes) -> dict[str, Any]:
        try:
            request = json.loads(line)
            handler = QUERIES.get(str(request.get("q")))
            if handler is None:
                return {"ok": False, "error": f"unknown query {request.get('q')!r}"}
            return {"ok": True, **handler(request)}
        except Exception as exc:  # a bad question must never take the app down
            return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}


# ---------------------------------------------------------------------- describing widgets


def _rect(r: QRect) -> list[int]:
    return [r.x(), r.y(), r.width(), r.height()]


def _global_rect(w: QWidget) -> list[int]:
    top_left = w.mapToGlobal(QPoint(0, 0))
    return [top_left.x(), top_left.y(), w.width(), w.height()]


def _text_of(w: QWidget) -> str:
    if isinstance(w, QAbstractButton | QLabel | QLineEdit):
        return str(w.text())
    if isinstance(w, QTextEdit | QPlainTextEdit):
        return str(w.toPlainText())
    if w.isWindow():
        return str(w.windowTitle())
    return ""


def _describe(w: QWidget) -> dict[str, Any]:
    text = _text_of(w)
    kind = w.property("kind")  # the state the app's style sheet colours: ok, warning, error…
    return {
        "cls": type(w).__name__,
        "name": w.objectName(),
        "accessible": w.accessibleName(),
        "text": text[:500],
        "rect": _global_rect(w),
        "hint": [w.sizeHint().width(), w.sizeHint().height()],  # narrower than this: cut off
        "visible": w.isVisible(),
        "enabled": w.isEnabled(),
        "focus": w.hasFocus(),
        "checked": w.isChecked() if isinstance(w, QAbstractButton) else None,
        "window": w.window().objectName(),
        "kind": kind if isinstance(kind, str) else None,
    }


def _matches(w: QWidget, spec: dict[str, Any]) -> bool:
    if not spec.get("hidden") and not w.isVisible():
        return False
    if "name" in spec and w.objectName() != spec["name"]:
        return False
    if "accessible" in spec and w.accessibleName() != spec["accessible"]:
        return False
    if "text" in spec and _text_of(w) != spec["text"]:
        return False
    if "contains" in spec and spec["contains"] not in _text_of(w):
        return False
    return "cls" not in spec or w.inherits(spec["cls"]) or _python_class_is(w, spec["cls"])


def _python_class_is(w: QWidget, name: str) -> bool:
    return any(k.__name__ == name for k in type(w).__mro__)


def _roots() -> list[QWidget]:
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return []
    return [w for w in app.topLevelWidgets() if w.isVisible()]


def find_widgets(spec: dict[str, Any]) -> list[QWidget]:
    roots = _roots()
    if "inside" in spec:
        outer = find_widgets(dict(spec["inside"]))
        roots = outer[:1]
        candidates = [c for r in roots for c in r.findChildren(QWidget)]
    else:
        candidates = [c for r in roots for c in (r, *r.findChildren(QWidget))]
    found = [w for w in candidates if _matches(w, spec)]
    if "index" in spec:
        i = int(spec["index"])
        return found[i : i + 1] if -len(found) <= i < len(found) else []
    return found


def _one(spec: dict[str, Any]) -> QWidget:
    found = find_widgets(spec)
    if not found:
        raise LookupError(f"no widget for {spec}")
    return found[0]


# ---------------------------------------------------------------------- the queries


def _ping(_r: dict[str, Any]) -> dict[str, Any]:
    return {"pid": os.getpid()}


def _windows(_r: dict[str, Any]) -> dict[str, Any]:
    app = QApplication.instance()
    active = app.activeWindow() if isinstance(app, QApplication) else None
    return {
        "windows": [
            {
                "cls": type(w).__name__,
                "name": w.objectName(),
                "title": w.windowTitle(),
                "frame": _rect(w.frameGeometry()),
                "rect": _global_rect(w),
                "modal": w.isModal(),
                "active": w is active,
            }
            for w in _roots()
        ]
    }


def _screen(_r: dict[str, Any]) -> dict[str, Any]:
    screen = QGuiApplication.primaryScreen()
    return {
        "geometry": _rect(screen.geometry()),
        "available": _rect(screen.availableGeometry()),
        "ratio": screen.devicePixelRatio(),
    }


def _find(r: dict[str, Any]) -> dict[str, Any]:
    return {"widgets": [_describe(w) for w in find_widgets(r)]}


def _focus(_r: dict[str, Any]) -> dict[str, Any]:
    w = QApplication.focusWidget()
    ancestry = []
    at = w.parentWidget() if w is not None else None
    while at is not None:
        ancestry.append({"cls": type(at).__name__, "name": at.objectName()})
        at = at.parentWidget()
    app = QApplication.instance()
    active = app.activeWindow() if isinstance(app, QApplication) else None
    return {
        "widget": _describe(w) if w is not None else None,
        "ancestry": ancestry,
        "active_window": active.objectName() if active is not None else None,
        "active_title": active.windowTitle() if active is not None else None,
    }


def _user_props(fmt: QTextFormat) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in fmt.properties().items():
        if int(key) >= _USER and isinstance(value, bool | int | float | str):
            out[str(int(key))] = value
    return out


def _char(fmt: QTextCharFormat) -> dict[str, Any]:
    return {
        "href": fmt.anchorHref() if fmt.isAnchor() else None,
        "image": fmt.toImageFormat().name() if fmt.isImageFormat() else None,
        "props": _user_props(fmt),
    }


def _blocks(doc: QTextDocument) -> list[dict[str, Any]]:
    out = []
    block = doc.begin()
    while block.isValid():
        bfmt = block.blockFormat()
        table = QTextCursor(block).currentTable()
        cell = table.cellAt(block.position()) if table is not None else None
        qlist = block.textList()
        fragments = []
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            it += 1
            fragments.append({"text": frag.text(), **_char(frag.charFormat())})
        out.append(
            {
                "text": block.text(),
                "position": block.position(),
                "heading": bfmt.headingLevel(),
                "list": int(qlist.format().style().value) if qlist is not None else None,
                "quote": bfmt.intProperty(int(QTextFormat.Property.BlockQuoteLevel)),
                "cell": [cell.row(), cell.column()] if cell is not None else None,
                "fragments": fragments,
            }
        )
        block = block.next()
    return out


def _text(r: dict[str, Any]) -> dict[str, Any]:
    w = _one(r)
    out: dict[str, Any] = {"widget": _describe(w), "text": _text_of(w)}
    if isinstance(w, QLineEdit):
        out.update(cursor=w.cursorPosition(), selected=w.selectedText())
    if isinstance(w, QTextEdit | QPlainTextEdit):
        cur = w.textCursor()
        out.update(
            cursor=cur.position(),
            anchor=cur.anchor(),
            before=cur.block().text()[: cur.positionInBlock()],
            selected=cur.selectedText(),
            read_only=w.isReadOnly(),
            marked=[
                {"start": s.cursor.selectionStart(), "text": s.cursor.selectedText()}
                for s in w.extraSelections()
                if s.cursor.hasSelection()
            ],
        )
        if isinstance(w, QTextEdit):
            out["blocks"] = _blocks(w.document())
            out["typing"] = _char(w.currentCharFormat())
    return out


def _text_rect(r: dict[str, Any]) -> dict[str, Any]:
    w = _one(r)
    if not isinstance(w, QTextEdit | QPlainTextEdit):
        raise TypeError(f"{type(w).__name__} holds no text document")
    doc = w.document()
    needle = str(r.get("find", ""))
    at = 0
    if needle:
        found = doc.find(needle)
        if found.isNull():
            raise LookupError(f"{needle!r} is not in the text")
        at = found.selectionEnd() if r.get("end") else found.selectionStart()
    at = max(0, min(at + int(r.get("offset", 0)), doc.characterCount() - 1))
    cur = QTextCursor(doc)
    cur.setPosition(at)
    rect = w.cursorRect(cur)
    top_left = w.viewport().mapToGlobal(rect.topLeft())
    return {"rect": [top_left.x(), top_left.y(), max(1, rect.width()), rect.height()]}


def _menus(_r: dict[str, Any]) -> dict[str, Any]:
    menus = []
    for w in _roots():
        if not isinstance(w, QMenu):
            continue
        items = []
        for action in w.actions():
            if action.isSeparator() or not action.isVisible():
                continue
            geo = w.actionGeometry(action)
            top_left = w.mapToGlobal(geo.topLeft())
            items.append(
                {
                    "text": action.text(),
                    "name": action.objectName(),
                    "enabled": action.isEnabled(),
                    "rect": [top_left.x(), top_left.y(), geo.width(), geo.height()],
                }
            )
        menus.append({"name": w.objectName(), "rect": _global_rect(w), "items": items})
    return {"menus": menus}


def _rows(r: dict[str, Any]) -> dict[str, Any]:
    view = _one(r)
    if not isinstance(view, QAbstractItemView) or view.model() is None:
        raise TypeError(f"{type(view).__name__} shows no rows")
    model = view.model()
    rows: list[dict[str, Any]] = []

    def walk(parent: QModelIndex, depth: int) -> None:
        # a list's model keeps its one column private
        columns = 1 if isinstance(model, QAbstractListModel) else model.columnCount(parent)
        for row in range(model.rowCount(parent)):
            first = model.index(row, 0, parent)
            cells = []
            for c in range(columns):
                box = view.visualRect(model.index(row, c, parent))
                if _column_hidden(view, c):
                    box.setWidth(0)
                at = view.viewport().mapToGlobal(box.topLeft())
                cells.append([at.x(), at.y(), box.width(), box.height()])
            # a narrow list hides columns: the first shown cell has the row's place
            shown = [c for c in cells if c[2] > 0 and c[3] > 0]
            if shown:
                texts = [str(model.index(row, c, parent).data() or "") for c in range(columns)]
                rows.append(
                    {
                        "row": row,
                        "depth": depth,
                        "texts": texts,
                        "rect": shown[0],
                        "cells": cells,
                    }
                )
            if model.rowCount(first) > 0:  # a tree's rows under this one
                walk(first, depth + 1)

    walk(QModelIndex(), 0)
    return {"rows": rows}


def _column_hidden(view: QAbstractItemView, column: int) -> bool:
    hidden = getattr(view, "isColumnHidden", None)
    return bool(hidden(column)) if callable(hidden) else False


def _document(_r: dict[str, Any]) -> dict[str, Any]:
    window = next((w for w in _roots() if w.objectName() == "mainWindow"), None)
    if window is None:
        return {"open": False}
    editor = window.findChild(QPlainTextEdit, "editor")
    views = window.findChild(QStackedWidget, "editorViews")
    if editor is None or views is None:
        return {"open": False}
    return {
        "open": True,
        "text": editor.toPlainText(),
        "view": "raw" if views.currentIndex() == 1 else "cards",
        "read_only": editor.isReadOnly(),
        "title": window.windowTitle(),
    }


QUERIES = {
    "ping": _ping,
    "windows": _windows,
    "screen": _screen,
    "find": _find,
    "focus": _focus,
    "text": _text,
    "text_rect": _text_rect,
    "menus": _menus,
    "rows": _rows,
    "document": _document,
}
