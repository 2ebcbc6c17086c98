"""그림 넣기: choose a picture (or drop one on the dialog), edit its description, upload; on
success ``markdown`` holds the text to insert, on failure the choice and the description stay.
A photo larger than the site needs is offered smaller; a picture already on the site is
offered instead of a second upload. 사이트에 있는 그림에서 고르기 (when the window gives a way
to choose, the picture library) inserts a picture that is there, written for the open page."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.pictures.uploads import (
    ImageUpload,
    default_alt,
    picture_markdown,
)
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.asyncutil import run_dialog
from modu_desktop.ui.kit.op_dialog import OpDialog
from modu_desktop.ui.pictures.uploader import ImageUploader, ShrinkOffer, is_shrinkable_refusal

# Picks a picture already on the site: (its repository path, its description), or None.
ChooseExisting = Callable[[QWidget], Awaitable[tuple[str, str] | None]]


class ImagePickerDialog(OpDialog):
    """Choose a picture, set its alt text, upload; ``markdown`` is the text to insert."""

    def __init__(
        self,
        uploader: ImageUploader,
        parent: QWidget | None = None,
        *,
        path: str = "",
        choose_existing: ChooseExisting | None = None,
    ) -> None:
        super().__init__(parent)
        self.choose_existing = choose_existing
        self.setObjectName("opsImageDialog")
        self.uploader = uploader
        self.markdown: str | None = None
        self.setWindowTitle(self.t("Insert picture"))
        self.setAccessibleName(self.t("Insert picture"))
        self.setAcceptDrops(True)
        lay = QVBoxLayout(self)
        hint = QLabel(
            self.t(
                "PNG, JPEG, GIF, WebP or SVG, up to {mb} MB. You can also drop a file here."
            ).format(mb=uploader.max_bytes // (1024 * 1024))
        )
        hint.setWordWrap(True)
        lay.addWidget(hint)
        lay.addLayout(self._existing_row())
        form = QFormLayout()
        row = QHBoxLayout()
        self.path_edit = QLineEdit(path)
        self.path_edit.setObjectName("opsImagePathEdit")
        browse = QPushButton(self.t("&Browse…"))
        browse.setObjectName("opsBrowseButton")
        browse.clicked.connect(self._browse)
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        # A label made from text gets the field as its buddy only when the field is a widget:
        # for a row of widgets the "&" would show as it is, so the label is made here.
        file_label = QLabel(self.t("&File:"))
        file_label.setObjectName("opsImageFileLabel")
        file_label.setBuddy(self.path_edit)
        form.addRow(file_label, row)
        self.alt_edit = QLineEdit(default_alt(path) if path else "")
        self.alt_edit.setObjectName("opsAltEdit")
        self.alt_edit.setPlaceholderText(self.t("What the picture shows (for screen readers)"))
        form.addRow(self.t("&Description:"), self.alt_edit)
        lay.addLayout(form)
        self.add_status_widgets(lay)
        lay.addLayout(self._offer_row())
        self.offer: ShrinkOffer | None = None  # the smaller copy offered for this file
        self.reused: ImageUpload | None = None  # the same picture, already on the site
        self.upload_button, self.cancel_button = self.add_op_buttons(
            lay, "&Upload and insert", "opsUploadButton"
        )
        self.inputs = [
            self.existing_button,
            self.path_edit,
            browse,
            self.alt_edit,
            self.upload_button,
            self.cancel_button,
        ]
        self.path_edit.textChanged.connect(self._path_changed)

    def _offer_row(self) -> QHBoxLayout:
        """What an upload may offer instead: a smaller copy, the original, the same picture
        already on the site (hidden until offered)."""
        self.shrink_button = QPushButton(tr("Make it smaller and upload"))
        self.shrink_button.setObjectName("autoShrinkButton")
        self.shrink_button.setAccessibleName(
            tr("Make the photo smaller (2000 px, JPEG) and upload it")
        )
        self.shrink_button.hide()
        self.shrink_button.clicked.connect(self.start_shrunk)
        self.original_button = QPushButton(tr("Upload it as it is"))
        self.original_button.setObjectName("uploadOriginalButton")
        self.original_button.hide()
        self.original_button.clicked.connect(self.start_original)
        row = QHBoxLayout()
        row.addWidget(self.shrink_button)
        row.addWidget(self.original_button)
        self.reuse_button = QPushButton(tr("Insert the picture that is on the site"))
        self.reuse_button.setObjectName("reusePictureButton")
        self.reuse_button.hide()
        self.reuse_button.clicked.connect(self.take_reused)
        row.addWidget(self.reuse_button)
        row.addStretch(1)
        return row

    def _existing_row(self) -> QHBoxLayout:
        """사이트에 있는 그림에서 고르기, when the window gives a way to choose."""
        self.existing_button = QPushButton(tr("Choose from the pictures on the site…"))
        self.existing_button.setObjectName("pickFromSiteButton")
        self.existing_button.setAutoDefault(False)
        self.existing_button.setToolTip(
            tr("Use a picture that is already on the site instead of uploading one")
        )
        self.existing_button.clicked.connect(self.pick_existing)
        self.existing_button.setVisible(self.choose_existing is not None)
        row = QHBoxLayout()
        row.addWidget(self.existing_button)
        row.addStretch(1)
        return row

    def pick_existing(self) -> asyncio.Task[Any]:
        """The picture library for picking; the chosen picture is inserted, written the way the
        open page reaches it."""

        async def choose() -> None:
            if self.choose_existing is None:
                return
            chosen = await self.choose_existing(self)
            if chosen is None:
                return
            path, alt = chosen
            self.markdown = picture_markdown(path, alt, self.uploader.page() or "docs/page.md")
            self.accept()

        return self.run_job(choose(), name="image-dialog.choose-existing")

    def take_reused(self) -> None:
        """Insert the picture that is already on the site, as offered."""
        if self.reused is None:
            return
        self.markdown = self.reused.markdown
        self.accept()

    def _path_changed(self, text: str) -> None:
        self.reuse_button.hide()
        self.reused = None
        self.shrink_button.hide()
        self.original_button.hide()
        self.offer = None
        if not self.alt_edit.isModified():
            self.alt_edit.setText(default_alt(text) if text else "")

    def _browse(self) -> None:
        f, _ = QFileDialog.getOpenFileName(
            self,
            self.t("Insert picture"),
            "",
            self.t("Pictures (*.png *.jpg *.jpeg *.gif *.webp *.svg)"),
        )
        if f:
            self.path_edit.setText(f)

    def dragEnterEvent(self, event: Any) -> None:  # noqa: N802 (Qt API)
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: Any) -> None:  # noqa: N802 (Qt API)
        urls = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if urls:
            self.path_edit.setText(urls[0])
            event.acceptProposedAction()

    def start(self) -> asyncio.Task[Any]:
        path = self.path_edit.text().strip()
        alt = self.alt_edit.text()
        if not path:
            self.show_status(self.t("Choose a picture first."), "error")

            async def nothing() -> None:
                return None

            return self.run_job(nothing(), name="image-upload.nothing")
        return self.run_op(
            lambda: self._upload_or_offer(path, alt),
            self.t("Uploading {name}…").format(name=Path(path).name),
        )

    async def _upload_or_offer(self, path: str, alt: str) -> ImageUpload | None:
        """Upload, unless the photo is larger than the site needs: then None, and the offer
        (before, after, two buttons) is shown instead."""
        self.offer = await self.uploader.shrink_offer(path)
        if self.offer is not None:
            return None
        return await self.uploader.upload_file(path, alt)

    def start_shrunk(self) -> asyncio.Task[Any]:
        path = self.path_edit.text().strip()
        alt = self.alt_edit.text().strip() or default_alt(path)
        self.shrink_button.hide()
        self.original_button.hide()
        offer = self.offer
        if offer is not None and str(offer.path) == str(Path(path)):
            return self.run_op(
                lambda: self.uploader.upload_bytes(offer.data, offer.upload_name, alt),
                tr("Uploading the smaller copy of {name}…", name=offer.path.name),
            )
        return self.run_op(
            lambda: self.uploader.upload_file_shrunk(path, alt),
            tr("Making {name} smaller and uploading it…", name=Path(path).name),
        )

    def start_original(self) -> asyncio.Task[Any]:
        path = self.path_edit.text().strip()
        alt = self.alt_edit.text()
        self.shrink_button.hide()
        self.original_button.hide()
        return self.run_op(
            lambda: self.uploader.upload_file(path, alt),
            self.t("Uploading {name}…").format(name=Path(path).name),
        )

    def on_result(self, res: ImageUpload | None) -> None:
        if res is None and self.offer is not None:  # larger than the site needs: ask
            self.show_status(
                tr("{name} is larger than the site needs.", name=self.offer.path.name)
                + " "
                + self.offer.describe(),
                "warning",
            )
            self.shrink_button.show()
            self.original_button.setVisible(self.offer.original_allowed)
            self.shrink_button.setDefault(True)
            self.shrink_button.setFocus()
            return
        if res is None:
            return
        if res.ok and res.reused:  # nothing uploaded: offer the picture that is there
            self.reused = res
            self.show_status(
                tr(
                    "The same picture is already on the site ({name}). Insert that one?",
                    name=res.name or "",
                ),
                "info",
            )
            self.reuse_button.show()
            self.reuse_button.setDefault(True)
            self.reuse_button.setFocus()
            return
        if res.ok:
            self.markdown = res.markdown
        self.show_outcome(res)
        if is_shrinkable_refusal(res, self.uploader.max_bytes):
            size = res.check.size if res.check is not None else 0
            self.show_status(
                tr(
                    "{name} is {size}; pictures can be at most {mb} MB. The app can make it "
                    "smaller for you (longest side 2000 px, JPEG) and upload that.",
                    name=Path(self.path_edit.text().strip()).name,
                    size=f"{size / (1024 * 1024):.1f} MB",
                    mb=self.uploader.max_bytes // (1024 * 1024),
                ),
                "warning",
            )
            self.shrink_button.show()
            self.shrink_button.setDefault(True)
            self.shrink_button.setFocus()


async def pick_and_upload(
    uploader: ImageUploader,
    parent: QWidget | None = None,
    *,
    path: str = "",
    choose_existing: ChooseExisting | None = None,
) -> str | None:
    """The picker dialog; the Markdown to insert, or None if cancelled."""
    dlg = ImagePickerDialog(uploader, parent, path=path, choose_existing=choose_existing)
    await run_dialog(dlg)
    md = dlg.markdown
    dlg.deleteLater()
    return md
