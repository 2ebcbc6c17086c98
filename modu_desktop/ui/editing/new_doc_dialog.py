"""Ask for the file name of a new document (used by "save mine as a new document")."""

from __future__ import annotations

import re

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.i18n import tr
from modu_desktop.ui.editing.preedit import commit_preedit

_SAFE = re.compile(r"^[^\\:*?\"<>|\x00-\x1f]+$")


def suggest_doc_id(doc_id: str, existing: set[str]) -> str:
    base = f"{doc_id}-copy"
    cand = base
    n = 2
    while cand in existing:
        cand = f"{base}-{n}"
        n += 1
    return cand


class NewDocDialog(QDialog):
    def __init__(self, suggestion: str, existing: set[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("newDocDialog")
        self.setWindowTitle(tr("Save as a new document"))
        self.existing = existing
        lay = QVBoxLayout(self)
        lay.addWidget(
            QLabel(tr("Your text will be saved as a new document. The original is not changed."))
        )
        form = QFormLayout()
        self.id_edit = QLineEdit(suggestion)
        self.id_edit.setObjectName("newDocIdEdit")
        self.id_edit.setAccessibleName(tr("New file name (without .md)"))
        label = QLabel(tr("&File name:"))
        label.setBuddy(self.id_edit)
        form.addRow(label, self.id_edit)
        lay.addLayout(form)
        self.error = QLabel("")
        self.error.setObjectName("newDocError")
        self.error.setProperty("kind", "error")
        lay.addWidget(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setObjectName("newDocOkButton")
        ok.setText(tr("Save"))
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setText(tr("Cancel"))
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.id_edit.selectAll()

    def doc_id(self) -> str:
        return self.id_edit.text().strip().removesuffix(".md").strip("/")

    def _accept(self) -> None:
        commit_preedit()  # a syllable still being composed belongs to the name
        d = self.doc_id()
        if not d or not _SAFE.match(d) or any(seg in ("", ".", "..") for seg in d.split("/")):
            self.error.setText(tr("Use letters, numbers and dashes, for example 09-new-page."))
            return
        if d in self.existing:
            self.error.setText(tr("A document with this name already exists."))
            return
        self.accept()
