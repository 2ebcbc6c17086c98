"""그림 넣기 when nothing better is given: a picture by its address on the site and what it
shows, for a text card (the window offers its picture library instead)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QWidget

from modu_desktop.core.pageedit.model import InlinePicture
from modu_desktop.i18n import tr


class PictureDialog(QDialog):
    """A picture by its address on the site (``/img/…``) and a description."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pictureDialog")
        self.setWindowTitle(tr("Insert a picture"))
        form = QFormLayout(self)
        self.src = QLineEdit()
        self.src.setObjectName("pictureAddress")
        self.src.setPlaceholderText("/img/…")
        self.src.setAccessibleName(tr("Picture address"))
        self.alt = QLineEdit()
        self.alt.setObjectName("pictureDescription")
        self.alt.setAccessibleName(tr("What the picture shows"))
        form.addRow(tr("Picture address"), self.src)
        form.addRow(tr("What the picture shows"), self.alt)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def picture(self) -> InlinePicture | None:
        src = self.src.text().strip()
        return InlinePicture(src, self.alt.text().strip()) if src else None
