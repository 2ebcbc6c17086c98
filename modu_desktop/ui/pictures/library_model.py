"""The picture library's list: one row per picture (or per missing picture), filtered in place.

``PictureListModel`` is a flat ``QAbstractListModel`` for a ``QListView`` in icon mode (uniform
item sizes: 500 pictures or 5,000 scroll and filter without measuring each). A row's thumbnail
is asked for when the view first draws it (``wanted(sha)``: what the person sees is made first)
and filled in as it arrives (:meth:`PictureListModel.set_thumbnail`); until then, and for a
picture no reader takes, a drawn placeholder stands in. The filter (``set_needle``,
``set_show``) is one pass over the library and one reset.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen, QPixmap

from modu_desktop.core.pictures.library import LibraryPicture, MissingPicture, PictureLibrary
from modu_desktop.core.pictures.pixels import PixelSize
from modu_desktop.core.pictures.uploads import size_text
from modu_desktop.i18n import tr
from modu_desktop.ui.pictures.thumbnails import THUMB_PX

Row = LibraryPicture | MissingPicture
_Index = QModelIndex | QPersistentModelIndex

ROW_ROLE = Qt.ItemDataRole.UserRole + 1  # the row's LibraryPicture or MissingPicture


class Show(enum.Enum):
    ALL = "all"
    UNUSED = "unused"  # pictures no page uses
    MISSING = "missing"  # pictures pages name that the site does not have


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


def placeholder(kind: str, px: int = THUMB_PX) -> QPixmap:
    """A drawn stand-in: "loading" (a light frame), "broken" (cannot be drawn), "missing"
    (the site does not have it)."""
    pm = QPixmap(px, px)
    pm.fill(QColor(0, 0, 0, 0))
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    fill = {"loading": "#eef0f3", "broken": "#f3e9e9", "missing": "#fdf1dc"}[kind]
    p.setBrush(QColor(fill))
    p.setPen(QPen(QColor("#c9ced6"), 1))
    p.drawRoundedRect(QRect(1, 1, px - 2, px - 2), 8, 8)
    if kind != "loading":
        font = QFont()
        font.setPixelSize(px // 3)
        p.setFont(font)
        p.setPen(QColor("#b3261e" if kind == "broken" else "#9a6700"))
        mark = "✕" if kind == "broken" else "?"
        p.drawText(QRect(0, 0, px, px), Qt.AlignmentFlag.AlignCenter, mark)
    p.end()
    return pm


class PictureListModel(QAbstractListModel):
    """The library's pictures as list rows (see the module docstring)."""

    def __init__(self, parent: Any = None, *, wanted: Callable[[str], None] | None = None) -> None:
        super().__init__(parent)
        self.wanted = wanted  # asked once per picture the view draws without its thumbnail
        self.library = PictureLibrary(())
        self.needle = ""
        self.show = Show.ALL
        self._rows: list[Row] = []
        self._rows_of: dict[str, list[int]] = {}  # blob sha → shown rows (equal bytes share it)
        self._thumbs: dict[str, QPixmap] = {}
        self._pixels: dict[str, PixelSize] = {}  # sizes learnt with the thumbnails
        self._broken: set[str] = set()
        self._asked: set[str] = set()
        self._placeholders = {k: placeholder(k) for k in ("loading", "broken", "missing")}
        # every item's size (with uniform item sizes the view measures one item for all: the
        # first picture's name would otherwise decide how much of every name shows)
        self.item_size: QSize | None = None

    # ------------------------------------------------------------------ contents
    def set_library(self, library: PictureLibrary) -> None:
        self.library = library
        self._refilter()

    def set_needle(self, needle: str) -> None:
        if needle != self.needle:
            self.needle = needle
            self._refilter()

    def set_show(self, show: Show) -> None:
        if show is not self.show:
            self.show = show
            self._refilter()

    def _refilter(self) -> None:
        self.beginResetModel()
        if self.show is Show.MISSING:
            wanted = _fold(self.needle.strip())
            rows: list[Row] = [m for m in self.library.missing if wanted in _fold(m.path)]
        else:
            found = self.library.search(self.needle)
            rows = [p for p in found if not p.used] if self.show is Show.UNUSED else list(found)
        self._rows = rows
        self._rows_of = {}
        for i, r in enumerate(rows):
            if isinstance(r, LibraryPicture):
                self._rows_of.setdefault(r.sha, []).append(i)
        self.endResetModel()

    def rows(self) -> list[Row]:
        return list(self._rows)

    def row_of(self, path: str) -> int | None:
        return next((i for i, r in enumerate(self._rows) if r.path == path), None)

    def at(self, row: int) -> Row | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    # ------------------------------------------------------------------ thumbnails
    def thumbnail(self, sha: str) -> QPixmap | None:
        return self._thumbs.get(sha)

    def pixels(self, picture: LibraryPicture) -> PixelSize | None:
        return picture.pixels or self._pixels.get(picture.sha)

    def is_broken(self, sha: str) -> bool:
        return sha in self._broken

    def set_thumbnail(self, sha: str, image: QImage, pixels: PixelSize | None) -> None:
        self._thumbs[sha] = QPixmap.fromImage(image)
        if pixels is not None:
            self._pixels[sha] = pixels
        self._changed(sha)

    def set_failed(self, sha: str) -> None:
        self._broken.add(sha)
        self._changed(sha)

    def _changed(self, sha: str) -> None:
        for row in self._rows_of.get(sha, ()):
            index = self.index(row, 0)
            self.dataChanged.emit(index, index)

    # ------------------------------------------------------------------ Qt
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt API
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt API
        # One column; defined so it may be asked without a parent, as of a table's model.
        return 0 if parent.isValid() else 1

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        r = self.at(index.row()) if index.isValid() else None
        if r is None:
            return None
        if role == ROW_ROLE:
            return r
        if role == Qt.ItemDataRole.SizeHintRole:
            return self.item_size
        if role == Qt.ItemDataRole.DecorationRole:
            return self.icon(r, ask=True)
        if role == Qt.ItemDataRole.DisplayRole:  # three short lines under the thumbnail
            return "\n".join((_name(r.path), *self.fact_lines(r)))
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            return self.describe(r)
        return None

    def icon(self, r: Row, *, ask: bool = False) -> QPixmap:
        """The row's thumbnail, or its placeholder; ``ask``: a thumbnail not there yet is asked
        for (once)."""
        if isinstance(r, MissingPicture):
            return self._placeholders["missing"]
        thumb = self._thumbs.get(r.sha)
        if thumb is not None:
            return thumb
        if r.sha in self._broken:
            return self._placeholders["broken"]
        if ask and self.wanted is not None and r.sha not in self._asked:
            self._asked.add(r.sha)
            self.wanted(r.sha)
        return self._placeholders["loading"]

    def fact_lines(self, r: Row) -> tuple[str, str]:
        """What a picture is (pixel size, file size) and where it is used (how many pages, or
        none); for a missing picture, that it is missing and how many pages name it."""
        if isinstance(r, MissingPicture):
            return tr("missing"), tr("{n} page(s)", n=len(r.pages))
        sizes = []
        px = self.pixels(r)
        if px is not None:
            sizes.append(f"{px.width}×{px.height}")
        if r.size is not None:
            sizes.append(size_text(r.size))
        used = tr("{n} page(s)", n=len(r.pages)) if r.used else tr("not used")
        return " · ".join(sizes), used

    def facts(self, r: Row) -> str:
        """The same in one line: "640×480 · 820 KB · 2 pages"."""
        return " · ".join(part for part in self.fact_lines(r) if part)

    def describe(self, r: Row) -> str:
        """The row in one sentence (the tooltip, and what a screen reader says)."""
        if isinstance(r, MissingPicture):
            return tr(
                "{name} is not on the site; used on {pages}",
                name=_name(r.path),
                pages=", ".join(f"‘{p.title}’" for p in r.pages),
            )
        if not r.used:
            return tr("{name}: {facts}; no page uses it", name=r.name, facts=self.facts(r))
        return tr(
            "{name}: {facts}; used on {pages}",
            name=r.name,
            facts=self.facts(r),
            pages=", ".join(f"‘{p.title}’" for p in r.pages),
        )


def _name(path: str) -> str:
    return path.rsplit("/", 1)[-1]
