"""그림 모음: every picture of the site, where each is used, its description; and picking one.

The list (``library_model.PictureListModel`` in a ``QListView`` in icon mode) shows the library
as soon as it is built from the last listing — off the UI thread, with no request when the
pages' texts are cached — and the thumbnails fill in as the loader makes them (the ones on
screen first). Beside it, the chosen picture: its size, the pages that use it (a click opens the
page), each place with its description, editable and saved on its own; the pictures pages name
that the site lacks are a filter of the same list. 그림 지우기 is refused while a page uses the
picture (the pages are named) and asks first otherwise, 취소 being the default.

Picking (``choose_picture``, from 그림 넣기): the same list without the changing buttons; the
chosen picture and the description to give it come back to the caller, which writes the
picture's address for the page (the picture rule).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelectionModel, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.brochure.catalog import field_label, spec_for
from modu_desktop.core.pageedit.places import card_place
from modu_desktop.core.pictures.alt_text import AltChange, describable
from modu_desktop.core.pictures.library import (
    LibraryPicture,
    MissingPicture,
    PictureLibrary,
    Reference,
)
from modu_desktop.core.pictures.uploads import default_alt
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.asyncutil import ask, run_dialog
from modu_desktop.ui.kit.fit import MARGIN, fit_to_screen
from modu_desktop.ui.kit.operation import operations_for
from modu_desktop.ui.pictures.library_model import ROW_ROLE, PictureListModel, Row, Show
from modu_desktop.ui.pictures.thumbnails import THUMB_PX

if TYPE_CHECKING:
    from modu_desktop.ui.pictures.library_source import LibrarySource

DETAIL_WIDTH = 320
# A page's name that opens it: read as a link, not as a button among buttons.
_LINK_STYLE = (
    "QPushButton { color: palette(link); text-decoration: underline; border: none;"
    " text-align: left; padding: 0; }"
)


def _fit_to_window(dialog: QDialog, width: int, height: int) -> None:
    """Sized like the other dialogs, against the main window even when opened from a dialog
    (picking, from 그림 넣기): the list needs the room."""
    top = dialog.parentWidget()
    while top is not None and top.parentWidget() is not None:
        top = top.parentWidget()
    if top is None or not top.isVisible():
        fit_to_screen(dialog, width, height)
        return
    dialog.resize(
        max(200, min(width, top.width() - MARGIN)), max(150, min(height, top.height() - MARGIN))
    )


def place_words(text: str | None, ref: Reference) -> str:
    """Where on its page a picture is, as the cards show the page: the page settings, a block
    by its name (item and field), or a text box by its heading."""
    use = ref.use
    if use.kind == "front-matter":
        return tr("Page settings")
    if text is None:
        return tr("line {line}", line=use.line + 1)
    place = card_place(text, use.start)
    if place.kind == "block":
        try:
            name = spec_for(place.block).name
        except KeyError:
            name = place.block
        where = tr("the block “{name}”", name=name)
        if place.item:
            where += " · " + tr("item {n}", n=place.item)
        if use.field:
            where += " · " + field_label(use.field)
        return where
    if place.kind == "raw":
        return tr("Original text card")
    if place.heading:
        return tr("Text box under “{heading}”", heading=place.heading)
    return tr("Text box")


class UseRow(QFrame):
    """One place a page uses the picture: the page (a click opens it), where on it, and its
    description — editable when the place has one and the library may write."""

    openRequested = Signal(str)  # doc_id
    saveRequested = Signal(object, str)  # this row, the new description

    def __init__(self, ref: Reference, index: int, where: str, *, editable: bool) -> None:
        super().__init__()
        self.setObjectName("pictureUse")
        self.ref = ref
        self.index = index  # which of the picture's places on that page
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 4, 6, 4)
        head = QHBoxLayout()
        page = QPushButton(f"‘{ref.page.title}’ ›")
        page.setObjectName("pictureUsePage")
        page.setFlat(True)
        page.setStyleSheet(_LINK_STYLE)
        page.setAutoDefault(False)
        page.setCursor(Qt.CursorShape.PointingHandCursor)
        page.setToolTip(tr("Open “{title}”", title=ref.page.title))
        page.setAccessibleName(tr("Open “{title}”", title=ref.page.title))
        page.clicked.connect(lambda _c=False: self.openRequested.emit(ref.page.doc_id))
        head.addWidget(page)
        head.addStretch(1)
        lay.addLayout(head)
        place = QLabel(where)
        place.setObjectName("pictureUsePlace")
        place.setWordWrap(True)
        place.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(place)
        self.alt_edit: QLineEdit | None = None
        self.save_button: QPushButton | None = None
        if not describable(ref.use):
            note = QLabel(tr("A picture in a block or the page settings has no description."))
            note.setObjectName("pictureUseNoAlt")
            note.setWordWrap(True)
            lay.addWidget(note)
            return
        if not editable:  # picking, or a viewer: the description is read, not edited
            shown = QLabel(tr("Description: {alt}", alt=ref.use.alt or tr("(none)")))
            shown.setObjectName("pictureUseAlt")
            shown.setWordWrap(True)
            shown.setTextFormat(Qt.TextFormat.PlainText)
            lay.addWidget(shown)
            return
        row = QHBoxLayout()
        self.alt_edit = QLineEdit(ref.use.alt or "")
        self.alt_edit.setObjectName("pictureAltEdit")
        self.alt_edit.setPlaceholderText(tr("What the picture shows (for screen readers)"))
        self.alt_edit.setAccessibleName(tr("Description on “{title}”", title=ref.page.title))
        row.addWidget(self.alt_edit, 1)
        self.save_button = QPushButton(tr("Save description"))
        self.save_button.setObjectName("pictureAltSave")
        self.save_button.setAutoDefault(False)
        self.save_button.setEnabled(False)
        edit, button = self.alt_edit, self.save_button
        edit.textChanged.connect(
            lambda text: button.setEnabled(text.strip() != (ref.use.alt or "").strip())
        )
        button.clicked.connect(lambda _c=False: self.saveRequested.emit(self, edit.text()))
        edit.returnPressed.connect(button.click)
        row.addWidget(self.save_button)
        lay.addLayout(row)

    def set_busy(self, busy: bool) -> None:
        for w in (self.alt_edit, self.save_button):
            if w is not None:
                w.setEnabled(not busy)


class PictureDetail(QWidget):
    """The chosen picture (see the module docstring); rebuilt for each choice."""

    openRequested = Signal(str)
    altSaveRequested = Signal(object, str)  # a UseRow, the new description
    deleteRequested = Signal(object)  # the LibraryPicture

    def __init__(self, *, picking: bool, can_write: bool, can_change_many: bool) -> None:
        super().__init__()
        self.setObjectName("pictureDetail")
        self.picking = picking
        self.can_write = can_write and not picking
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 4)
        self.thumb = QLabel()
        self.thumb.setObjectName("pictureDetailThumb")
        self.thumb.setFixedHeight(THUMB_PX + 4)
        self.thumb.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        lay.addWidget(self.thumb)
        self.name = QLabel()
        self.name.setObjectName("pictureDetailName")
        self.name.setWordWrap(True)
        self.name.setTextFormat(Qt.TextFormat.PlainText)
        font = self.name.font()
        font.setBold(True)
        self.name.setFont(font)
        lay.addWidget(self.name)
        self.facts = QLabel()
        self.facts.setObjectName("pictureDetailFacts")
        self.facts.setWordWrap(True)
        self.facts.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.facts)
        self.uses_head = QLabel()
        self.uses_head.setObjectName("pictureUsesHead")
        self.uses_head.setWordWrap(True)
        lay.addWidget(self.uses_head)
        self.uses = QVBoxLayout()
        self.uses.setSpacing(4)
        lay.addLayout(self.uses)
        self.use_rows: list[UseRow] = []
        self.insert_alt = QLineEdit()
        self.insert_alt.setObjectName("pictureInsertAlt")
        self.insert_alt.setPlaceholderText(tr("What the picture shows (for screen readers)"))
        self.insert_alt.setAccessibleName(tr("Description of the picture to insert"))
        self.insert_alt_label = QLabel(tr("&Description:"))
        self.insert_alt_label.setBuddy(self.insert_alt)
        lay.addWidget(self.insert_alt_label)
        lay.addWidget(self.insert_alt)
        self.insert_alt_label.setVisible(picking)
        self.insert_alt.setVisible(picking)
        actions = QHBoxLayout()
        self.delete_button = QPushButton(tr("Delete the picture…"))
        self.delete_button.setObjectName("pictureDeleteButton")
        self.delete_button.setAutoDefault(False)
        self.delete_button.clicked.connect(self._delete_clicked)
        # Renaming and shrinking rewrite many pages in one commit: offered once the core can.
        self.rename_button = QPushButton(tr("Rename…"))
        self.rename_button.setObjectName("pictureRenameButton")
        self.shrink_button = QPushButton(tr("Make smaller…"))
        self.shrink_button.setObjectName("pictureShrinkButton")
        for b in (self.rename_button, self.shrink_button, self.delete_button):
            b.setAutoDefault(False)
            actions.addWidget(b)
        actions.addStretch(1)
        self.many_files = can_change_many and self.can_write
        lay.addLayout(actions)
        lay.addStretch(1)
        self.row: Row | None = None
        self.show_row(None, None, None)

    def show_row(self, row: Row | None, model: PictureListModel | None, source: Any) -> None:
        self.row = row
        for old in self.use_rows:
            old.setParent(None)
            old.deleteLater()
        self.use_rows = []
        picture = row if isinstance(row, LibraryPicture) else None
        self.delete_button.setVisible(picture is not None and self.can_write)
        self.rename_button.setVisible(picture is not None and self.many_files)
        self.shrink_button.setVisible(picture is not None and self.many_files)
        self.insert_alt.setEnabled(picture is not None)
        if row is None or model is None:
            self.thumb.clear()
            self.name.setText(tr("Choose a picture on the left."))
            self.facts.setText("")
            self.uses_head.setText("")
            return
        self.name.setText(row.path.rsplit("/", 1)[-1])
        self.set_thumbnail(model)
        if isinstance(row, MissingPicture):
            self.facts.setText(
                tr(
                    "This picture is not on the site, yet the pages below show it: they show "
                    "a broken picture, or the site cannot be built. Upload the picture or take "
                    "it out of those pages."
                )
            )
        else:
            self.facts.setText(self.facts_text(row, model))
        self._show_uses(row, source)
        if picture is not None and self.picking:
            self.insert_alt.setText(_first_alt(picture))

    def facts_text(self, picture: LibraryPicture, model: PictureListModel) -> str:
        """Sizes, use count, and the same bytes under other names."""
        lines = [model.facts(picture)]
        same = model.library.pictures
        twins = [p.name for p in same if p.sha == picture.sha and p.path != picture.path]
        if twins:
            names = ", ".join(twins)
            lines.append(tr("The same picture is also on the site as {names}.", names=names))
        return "\n".join(lines)

    def set_thumbnail(self, model: PictureListModel) -> None:
        if self.row is not None:
            self.thumb.setPixmap(model.icon(self.row))

    def _show_uses(self, row: Row, source: Any) -> None:
        refs = row.references
        if isinstance(row, MissingPicture):
            head = tr("Pages that show it ({n}):", n=len(row.pages))
        elif refs:
            head = tr("Used on {n} page(s):", n=len(row.pages))
        else:
            head = tr("No page uses this picture.")
        self.uses_head.setText(head)
        texts: dict[str, str | None] = {}
        seen: dict[str, int] = {}
        for ref in refs:
            doc_id = ref.page.doc_id
            if doc_id not in texts:
                texts[doc_id] = source.page_text(doc_id) if source is not None else None
            index = seen.get(doc_id, 0)
            seen[doc_id] = index + 1
            editable = self.can_write and isinstance(row, LibraryPicture)
            use = UseRow(ref, index, place_words(texts[doc_id], ref), editable=editable)
            use.openRequested.connect(self.openRequested)
            use.saveRequested.connect(self.altSaveRequested)
            self.uses.addWidget(use)
            self.use_rows.append(use)

    def _delete_clicked(self) -> None:
        if isinstance(self.row, LibraryPicture):
            self.deleteRequested.emit(self.row)


def _first_alt(picture: LibraryPicture) -> str:
    """The description a picture already has somewhere, else one made from its name."""
    for ref in picture.references:
        if ref.use.alt and ref.use.alt.strip():
            return ref.use.alt.strip()
    return default_alt(picture.name)


class PictureLibraryDialog(QDialog):
    """그림 모음, or picking a picture (see the module docstring)."""

    def __init__(
        self,
        source: LibrarySource,
        parent: QWidget | None = None,
        *,
        picking: bool = False,
    ) -> None:
        super().__init__(parent)
        self.source = source
        self.picking = picking
        self.chosen: tuple[str, str] | None = None  # picking: (path, description)
        self.loaded = False
        self.closed = False  # a write that ends after the library closed touches no widget
        self._loads: set[asyncio.Task[Any]] = set()
        self.setObjectName("pictureLibraryPicker" if picking else "pictureLibrary")
        title = tr("Choose a picture on the site") if picking else tr("Picture library")
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self.loader = source.thumbnails(self)
        self.model = PictureListModel(self, wanted=self._wanted)
        self.loader.ready.connect(self._thumbnail_ready)
        self.loader.failed.connect(self._thumbnail_failed)
        lay = QVBoxLayout(self)
        lay.addLayout(self._top_row())
        self.count = QLabel(tr("Reading the list of pictures…"))
        self.count.setObjectName("pictureCount")
        self.count.setWordWrap(True)
        lay.addWidget(self.count)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setChildrenCollapsible(False)
        split.addWidget(self._list_view())
        self.detail = PictureDetail(
            picking=picking, can_write=source.can_write, can_change_many=source.can_change_many
        )
        self.detail.openRequested.connect(self._open_page)
        self.detail.altSaveRequested.connect(self._save_alt)
        self.detail.deleteRequested.connect(self._delete)
        scroll = QScrollArea()
        scroll.setObjectName("pictureDetailScroll")
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.detail)
        scroll.setMinimumWidth(240)
        split.addWidget(scroll)
        split.setStretchFactor(0, 1)
        split.setSizes([10_000, DETAIL_WIDTH])
        lay.addWidget(split, 1)
        self.status = QLabel("")
        self.status.setObjectName("pictureLibraryStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status.hide()
        lay.addWidget(self.status)
        lay.addWidget(self._buttons())
        _fit_to_window(self, 1100, 720)
        self.search.setFocus()
        self.reload()

    # ------------------------------------------------------------------ building
    def _top_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        label = QLabel(tr("F&ind:"))
        self.search = QLineEdit()
        self.search.setObjectName("pictureSearch")
        self.search.setPlaceholderText(tr("Picture name"))
        self.search.setAccessibleName(tr("Find pictures by name"))
        self.search.setClearButtonEnabled(True)
        label.setBuddy(self.search)
        self.search.textChanged.connect(self._filter_changed)
        self.show_box = QComboBox()
        self.show_box.setObjectName("pictureShow")
        self.show_box.setAccessibleName(tr("Which pictures"))
        self.show_box.addItem(tr("All pictures"), Show.ALL)
        self.show_box.addItem(tr("Pictures no page uses"), Show.UNUSED)
        if not self.picking:
            self.show_box.addItem(tr("Pictures pages show that are missing"), Show.MISSING)
        self.show_box.currentIndexChanged.connect(self._filter_changed)
        row.addWidget(label)
        row.addWidget(self.search, 1)
        row.addWidget(self.show_box)
        return row

    def _list_view(self) -> QListView:
        view = QListView()
        view.setObjectName("pictureList")
        view.setAccessibleName(tr("Picture list"))
        view.setViewMode(QListView.ViewMode.IconMode)
        view.setResizeMode(QListView.ResizeMode.Adjust)
        view.setMovement(QListView.Movement.Static)
        view.setUniformItemSizes(True)  # no per-item measuring: 500+ pictures stay smooth
        view.setWordWrap(False)
        view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a long name keeps its end
        view.setIconSize(QSize(THUMB_PX, THUMB_PX))
        metrics = view.fontMetrics()
        width = max(THUMB_PX, metrics.horizontalAdvance("3000×2250 · 2.2 MB")) + 16
        cell = QSize(width, THUMB_PX + 3 * metrics.lineSpacing() + 10)
        self.model.item_size = cell
        view.setGridSize(cell + QSize(8, 8))
        view.setSpacing(4)
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.setMinimumWidth(THUMB_PX + 80)
        view.setModel(self.model)
        view.selectionModel().currentChanged.connect(lambda *_a: self._current_changed())
        view.activated.connect(lambda _i: self._activated())
        self.view = view
        return view

    def _buttons(self) -> QDialogButtonBox:
        box = QDialogButtonBox()
        if self.picking:
            self.insert_button = QPushButton(tr("Insert this picture"))
            self.insert_button.setObjectName("pictureInsertButton")
            self.insert_button.setDefault(True)
            self.insert_button.setEnabled(False)
            self.insert_button.clicked.connect(self._insert)
            box.addButton(self.insert_button, QDialogButtonBox.ButtonRole.AcceptRole)
            cancel = QPushButton(tr("Cancel"))
            cancel.setObjectName("pictureCancelButton")
            cancel.clicked.connect(self.reject)
            box.addButton(cancel, QDialogButtonBox.ButtonRole.RejectRole)
        else:
            close = QPushButton(tr("Close"))
            close.setObjectName("pictureCloseButton")
            close.setAutoDefault(False)
            close.clicked.connect(self.reject)
            box.addButton(close, QDialogButtonBox.ButtonRole.RejectRole)
        return box

    # ------------------------------------------------------------------ contents
    def _wanted(self, sha: str) -> None:
        """The view draws this picture: its thumbnail before the others'."""
        self.loader.request(sha, urgent=True)

    def _run(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        return operations_for(self).run(
            coro, name=name, report=lambda text: self.show_status(text, "error")
        )

    def reload(self, keep: str | None = None) -> asyncio.Task[Any]:
        """Build the library again from the last listing; ``keep``: the picture to show."""

        async def load() -> None:
            library = await self.source.load()
            if not self.closed:
                self.set_library(library, keep)

        task = self._run(load(), "picture-library.load")
        self._loads.add(task)
        task.add_done_callback(self._loads.discard)
        return task

    def set_library(self, library: PictureLibrary, keep: str | None = None) -> None:
        current = self.current()
        keep = keep or (current.path if current is not None else None)
        self.model.set_library(library)
        self.loaded = True
        self._count_text()
        self.loader.request_all(p.sha for p in library.pictures)  # after what is on screen
        self._select(keep)

    def _count_text(self) -> None:
        lib = self.model.library
        parts = [tr("{n} picture(s)", n=len(lib.pictures))]
        if lib.unused:
            parts.append(tr("{n} used by no page", n=len(lib.unused)))
        if lib.missing and not self.picking:
            parts.append(tr("{n} missing", n=len(lib.missing)))
        shown = self.model.rowCount()
        text = " · ".join(parts)
        if shown != (len(lib.missing) if self.model.show is Show.MISSING else len(lib.pictures)):
            text += "  —  " + tr("{n} shown", n=shown)
        self.count.setText(text)

    def _filter_changed(self) -> None:
        current = self.current()
        self.model.set_needle(self.search.text())
        show = self.show_box.currentData()
        self.model.set_show(show if isinstance(show, Show) else Show.ALL)
        self._count_text()
        self._select(current.path if current is not None else None)

    def _select(self, path: str | None) -> None:
        row = self.model.row_of(path) if path else None
        if row is None and self.model.rowCount():
            row = 0
        if row is None:
            self.view.selectionModel().clear()
            self._current_changed()
            return
        index = self.model.index(row, 0)
        self.view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
        )
        self.view.scrollTo(index)
        self._current_changed()

    def current(self) -> Row | None:
        index = self.view.currentIndex()
        row = index.data(ROW_ROLE) if index.isValid() else None
        return row if isinstance(row, LibraryPicture | MissingPicture) else None

    def _current_changed(self) -> None:
        row = self.current()
        self.detail.show_row(row, self.model, self.source)
        if self.picking:
            self.insert_button.setEnabled(isinstance(row, LibraryPicture))

    def _thumbnail_ready(self, sha: str, image: Any, pixels: Any) -> None:
        self.model.set_thumbnail(sha, image, pixels)
        row = self.detail.row
        if isinstance(row, LibraryPicture) and row.sha == sha:
            self.detail.set_thumbnail(self.model)
            self.detail.facts.setText(self.detail.facts_text(row, self.model))

    def _thumbnail_failed(self, sha: str) -> None:
        self.model.set_failed(sha)
        row = self.detail.row
        if isinstance(row, LibraryPicture) and row.sha == sha:
            self.detail.set_thumbnail(self.model)

    def show_status(self, text: str, kind: str = "info") -> None:
        self.status.setProperty("kind", kind)
        self.status.setText(text)
        self.status.setVisible(bool(text))
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)

    # ------------------------------------------------------------------ actions
    def _activated(self) -> None:
        if self.picking:
            self._insert()

    def _insert(self) -> None:
        row = self.current()
        if not isinstance(row, LibraryPicture):
            return
        alt = self.detail.insert_alt.text().strip() or default_alt(row.name)
        self.chosen = (row.path, alt)
        self.accept()

    def _open_page(self, doc_id: str) -> None:
        self._run(self.source.show_page(doc_id), "picture-library.open")

    def _save_alt(self, use: UseRow, alt: str) -> asyncio.Task[Any]:
        ref, picture = use.ref, self.detail.row
        assert isinstance(picture, LibraryPicture)
        page = ref.page
        change = AltChange(
            page.doc_id, page.title, page.path, picture.path, use.index, ref.use.alt, alt
        )
        use.set_busy(True)
        self.show_status(tr("Saving the description on “{title}”…", title=ref.page.title))

        async def save() -> None:
            try:
                res = await self.source.save_alt(change)
            finally:
                with contextlib.suppress(RuntimeError):  # the row went with a newer list
                    use.set_busy(False)
            if self.closed:
                return
            self.show_status(res.user_message(), "ok" if res.ok else "error")
            if res.ok:
                self.reload(picture.path)

        return self._run(save(), "picture-library.alt")

    def _delete(self, picture: LibraryPicture) -> asyncio.Task[Any]:
        return self._run(self.delete(picture), "picture-library.delete")

    async def delete(self, picture: LibraryPicture) -> bool:
        """Delete ``picture`` after asking (취소 is the default); refused while used."""
        refusal = self.source.refusal(self.model.library, picture.path)
        if refusal is not None:
            self.show_status(refusal(), "error")
            return False
        choice = await ask(
            self,
            tr("Delete the picture"),
            tr("Delete {name} from the site?", name=picture.name),
            [
                ("deletePicture", QMessageBox.ButtonRole.DestructiveRole, tr("Delete")),
                ("cancel", QMessageBox.ButtonRole.RejectRole, tr("Cancel")),
            ],
            object_name="deletePictureQuestion",
            icon=QMessageBox.Icon.Warning,
            informative=tr("No page uses it; deleted, it is gone from the site."),
            default="cancel",
        )
        if choice != "deletePicture" or self.closed:
            return False
        self.show_status(tr("Deleting {name}…", name=picture.name))
        res = await self.source.delete(picture.path)
        if not self.closed:
            self.show_status(res.user_message(), "ok" if res.ok else "error")
            self.reload()
        return bool(res.ok)

    def done(self, result: int) -> None:
        """Closed: reading stops (a save or a deletion under way ends on its own), and the
        threads end before the dialog may go."""
        self.closed = True
        for task in list(self._loads):
            task.cancel()
        self.loader.stop()
        super().done(result)


async def choose_picture(
    source: LibrarySource, parent: QWidget | None = None
) -> tuple[str, str] | None:
    """The library for picking: (the chosen picture's path, its description), or None."""
    dlg = PictureLibraryDialog(source, parent, picking=True)
    await run_dialog(dlg)
    chosen = dlg.chosen
    dlg.deleteLater()
    return chosen
