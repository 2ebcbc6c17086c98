"""그림 이름 바꾸기 / 옮기기: a picture's new name and folder, the pages it rewrites, the pages
that stop it, then ONE commit (``library_source.LibrarySource.rename`` over
``core/changes/pictures.rename_picture``).

    dialog = RenamePictureDialog(source, library, picture, parent)
    await dialog.load()            # which pages stop it now
    outcome = await rename_and_wait(source, library, picture, parent)

The new name is typed without its extension (the picture keeps its own) and the folder chosen
from the site's picture folders (under ``static/``) or beside the pages (``docs/``). While it is
typed, the dialog shows the name it will really get — the upload rule's safe name
(``core/pictures/names.safe_stem``: spaces and signs become ``-``, lower case, Hangul kept;
``core/changes/pictures.rename_target``) — or why it cannot (the name is taken). Below, the
pages whose picture address is rewritten in the same save, by their titles, and the pages that
stop it now, each with why: someone else edits it (who, since when), or it is open here with
text not saved yet. A rename is all or nothing, so one such page means nothing can be done,
and the person is told which page to wait for. Enter never renames by accident: the default
button is 취소; the other says what it does ("이름 바꾸기 — 문서 3개 고침"). Then the
outcome, pages named by their titles.
"""

from __future__ import annotations

import asyncio
import posixpath
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.changes import words as change_words
from modu_desktop.core.changes.outcome import ChangeOutcome, PageNote
from modu_desktop.core.changes.pictures import Refusal, RenameRefused
from modu_desktop.core.documents.naming import DOCS_DIR
from modu_desktop.core.pictures.library import LibraryPicture, PictureLibrary
from modu_desktop.core.pictures.rule import STATIC_DIR
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.asyncutil import run_dialog_while_loading
from modu_desktop.ui.kit.change_outcome import landed, outcome_report
from modu_desktop.ui.kit.fit import fit_to_screen
from modu_desktop.ui.kit.op_dialog import OpDialog

if TYPE_CHECKING:
    from modu_desktop.ui.pictures.library_source import LibrarySource, NotSent

__all__ = ["RenamePictureDialog", "folder_words", "rename_and_wait"]

SITE_PICTURES = f"{STATIC_DIR}/img"  # where the site keeps its pictures (addresses /img/…)
LIST_ROWS = 6  # pages shown before the list scrolls


def folder_words(folder: str) -> str:
    """A folder as people read it: "사이트 그림 › img › uploads", "문서 옆 › img"."""
    top, _, rest = folder.partition("/")
    parts = " › ".join(p for p in rest.split("/") if p)
    if top == DOCS_DIR:
        return tr("Beside the pages › {folder}", folder=parts) if parts else tr("Beside the pages")
    return tr("Site pictures › {folder}", folder=parts) if parts else tr("Site pictures")


def picture_folders(library: PictureLibrary, own: str) -> list[str]:
    """The folders a picture may go to: every folder that holds pictures, the site's picture
    folder and the pages' folder, the picture's own first."""
    found = {posixpath.dirname(p.path) for p in library.pictures}
    found |= {SITE_PICTURES, DOCS_DIR, own}
    usable = {f for f in found if f.split("/")[0] in (STATIC_DIR, DOCS_DIR)}
    return [own, *sorted(usable - {own})]


class RenamePictureDialog(OpDialog):
    """The rename of one picture (see the module docstring). ``renamed(ChangeOutcome)`` is
    emitted once it was sent (committed, or waiting in the save queue)."""

    renamed = Signal(object)

    def __init__(
        self,
        source: LibrarySource,
        library: PictureLibrary,
        picture: LibraryPicture,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("renamePictureDialog")
        self.setWindowTitle(tr("Rename or move a picture"))
        self.source, self.library, self.picture = source, library, picture
        self.outcome: ChangeOutcome | None = None
        self.target: str | None = None  # the path it would get, when it may
        self.blockers: tuple[PageNote, ...] = ()
        self.loaded = False
        self.own_folder = posixpath.dirname(picture.path)
        self.ext = posixpath.splitext(picture.path)[1].lower()
        lay = QVBoxLayout(self)
        head = QLabel(
            tr("Now: {name} · {folder}", name=picture.name, folder=folder_words(self.own_folder))
        )
        head.setObjectName("renameNow")
        head.setWordWrap(True)
        head.setTextFormat(Qt.TextFormat.PlainText)
        font = head.font()
        font.setBold(True)
        head.setFont(font)
        lay.addWidget(head)
        lay.addLayout(self._form())
        self.result_line = self._label("renameResult")
        lay.addWidget(self.result_line)
        self.pages_head = self._label("renamePagesHead")
        lay.addWidget(self.pages_head)
        self.page_list = QListWidget()
        self.page_list.setObjectName("renamePageList")
        self.page_list.setAccessibleName(tr("Pages whose picture address changes"))
        self.page_list.addItems([f"‘{p.title}’" for p in picture.pages])
        self.page_list.setVisible(bool(picture.pages))
        if picture.pages:  # as tall as its pages, up to a few; more scroll
            rows = min(len(picture.pages), LIST_ROWS)
            frame = 2 * self.page_list.frameWidth() + 4
            self.page_list.setMaximumHeight(rows * self.page_list.sizeHintForRow(0) + frame)
        lay.addWidget(self.page_list)
        self.blocked = self._label("renameBlockers")
        self.blocked.setProperty("kind", "error")
        self.blocked.hide()
        lay.addWidget(self.blocked)
        lay.addStretch(1)
        self.add_status_widgets(lay)
        self.action, self.cancel = self.add_op_buttons(
            lay, tr("Rename"), "renameButton", default=False
        )
        self.action.setAutoDefault(False)
        self.action.setEnabled(False)
        self.cancel.setDefault(True)  # Enter cancels: renaming rewrites pages
        self.inputs = [self.name, self.folder]
        n = len(picture.pages)
        self.pages_head.setText(
            tr("The picture's address is changed on these {n} page(s) in the same save:", n=n)
            if n
            else tr("No page uses this picture: only its name changes.")
        )
        fit_to_screen(self, 620, 420)
        self.name.setFocus()
        self.name.selectAll()
        self._update()

    def _label(self, name: str) -> QLabel:
        label = QLabel("")
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        return label

    def _form(self) -> QFormLayout:
        form = QFormLayout()
        row = QHBoxLayout()
        self.name = QLineEdit(posixpath.splitext(self.picture.name)[0])
        self.name.setObjectName("renameName")
        self.name.setAccessibleName(tr("New name of the picture"))
        self.name.textChanged.connect(lambda _t: self._update())
        row.addWidget(self.name, 1)
        ext = QLabel(self.ext)
        ext.setObjectName("renameExtension")
        row.addWidget(ext)
        name_label = QLabel(tr("New &name:"))
        name_label.setBuddy(self.name)
        form.addRow(name_label, row)
        self.folder = QComboBox()
        self.folder.setObjectName("renameFolder")
        self.folder.setAccessibleName(tr("Folder of the picture"))
        for folder in picture_folders(self.library, self.own_folder):
            self.folder.addItem(folder_words(folder), folder)
        self.folder.currentIndexChanged.connect(lambda _i: self._update())
        folder_label = QLabel(tr("&Folder:"))
        folder_label.setBuddy(self.folder)
        form.addRow(folder_label, self.folder)
        return form

    # ----- while typing -----------------------------------------------------------------

    def _typed(self) -> str:
        # a separator typed in the name would make a folder nobody chose
        return self.name.text().strip().replace("/", "-").replace("\\", "-")

    def _update(self) -> None:
        typed, folder = self._typed(), str(self.folder.currentData())
        moving = folder != self.own_folder
        self.target = None
        if not typed:
            self._result(tr("Type the new name."), "info")
        else:
            found = self.source.rename_target(self.library, self.picture, f"{folder}/{typed}")
            if isinstance(found, RenameRefused) and found.reason is Refusal.SAME:
                self._result(tr("This is its name now; type the new name."), "info")
            elif isinstance(found, RenameRefused):
                self._result(found.text(), "error")
            else:
                self.target = found
                self._result(self._target_words(found, typed), "ok")
        n = len(self.picture.pages)
        if moving:
            text = tr("Move — fixes {n} page(s)", n=n) if n else tr("Move")
        else:
            text = tr("Rename — fixes {n} page(s)", n=n) if n else tr("Rename")
        self.action.setText(text)
        self.action.setAccessibleName(text)
        self._enable()

    def _target_words(self, path: str, typed: str) -> str:
        name, folder = posixpath.basename(path), posixpath.dirname(path)
        text = tr("New: {name} · {folder}", name=name, folder=folder_words(folder))
        stem = posixpath.splitext(name)[0]
        given = typed[: -len(self.ext)] if typed.lower().endswith(self.ext) else typed
        if stem != given:
            text += "\n" + tr(
                "Spaces and signs a web address cannot hold become “-”, capital letters small."
            )
        return text

    def _result(self, text: str, kind: str) -> None:
        self.result_line.setText(text)
        self.result_line.setProperty("kind", kind)
        self.result_line.style().unpolish(self.result_line)
        self.result_line.style().polish(self.result_line)

    def _enable(self) -> None:
        self.action.setEnabled(
            self.loaded
            and self.target is not None
            and not self.blockers
            and self.outcome is None
            and not self.busy
        )

    # ----- what stops it ----------------------------------------------------------------

    async def load(self) -> tuple[PageNote, ...]:
        """Which pages stop the rename now (the listing's locks, the open page)."""
        refusal = self.source.rename_refusal(self.library)
        if refusal is not None:
            self.show_status(refusal(), "error")
            self.loaded = True
            self.blockers = ()
            self.action.setEnabled(False)
            return ()
        self.show_blockers(await self.source.rename_blockers(self.picture))
        self.loaded = True
        self._enable()
        return self.blockers

    def show_blockers(self, blockers: tuple[PageNote, ...], head: str | None = None) -> None:
        self.blockers = blockers
        if not blockers:
            self.blocked.hide()
            return
        now = self.source.server_now()
        lines = [
            head
            or tr(
                "It cannot be done now: the picture and every page that shows it change "
                "together, so it has to wait for these pages:"
            )
        ]
        lines += [f"• {change_words.blocker(note, now)()}" for note in blockers]
        self.blocked.setText("\n".join(lines))
        self.blocked.show()

    # ----- the change -------------------------------------------------------------------

    def start(self) -> asyncio.Task[Any]:
        target = self.target
        assert target is not None
        return self.run_op(
            lambda: self.source.rename(self.picture.path, target),
            tr("Renaming the picture and fixing its pages in one save…"),
        )

    def set_busy(self, busy: bool, text: str = "") -> None:
        super().set_busy(busy, text)
        self._enable()

    def on_result(self, res: Any) -> None:
        from modu_desktop.ui.pictures.library_source import NotSent

        if isinstance(res, NotSent):
            self._not_sent(res)
            return
        outcome: ChangeOutcome = res
        self.show_status(*outcome_report(outcome, self.source.server_now()))
        if not landed(outcome):
            return
        self.outcome = outcome
        self.action.hide()
        for w in self.inputs:
            w.setEnabled(False)
        self.cancel.setText(tr("Close"))
        self.cancel.setDefault(True)
        self.renamed.emit(outcome)

    def _not_sent(self, res: NotSent) -> None:
        if res.blockers:
            self.show_status("", "info")
            self.show_blockers(res.blockers, res.text())
        else:
            self.show_status(res.text(), "error")
        self._enable()


async def rename_and_wait(
    source: LibrarySource,
    library: PictureLibrary,
    picture: LibraryPicture,
    parent: QWidget | None = None,
) -> ChangeOutcome | None:
    """Show the rename (window-modal) and wait until it is closed: the outcome when it was
    sent (committed or waiting in the queue), None when nothing was."""
    dialog = RenamePictureDialog(source, library, picture, parent)
    await run_dialog_while_loading(dialog, dialog.load)
    return dialog.outcome
