""" "새 문서로 저장": the copy's title, its place in the menu and its address, proposed so that
the copy is told apart from the original (``core.docops.newdoc.suggest_copy``), and a word that
the copy is not published until someone presses 게시하기."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.docops.newdoc import MAX_POSITION, CopySuggestion, validate_new_id
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.preedit import commit_preedit


class NewDocDialog(QDialog):
    """``taken_ids``: the addresses (Docusaurus ids) already used, compared ignoring case."""

    def __init__(
        self, suggestion: CopySuggestion, taken_ids: set[str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("newDocDialog")
        self.setWindowTitle(tr("Save as a new document"))
        self.taken = {t.casefold() for t in taken_ids}
        lay = QVBoxLayout(self)
        intro = QLabel(
            tr("Your text will be saved as a new document. The original is not changed.")
        )
        intro.setWordWrap(True)
        lay.addWidget(intro)
        form = QFormLayout()
        self.title_edit = QLineEdit(suggestion.title)
        self.title_edit.setObjectName("newDocTitleEdit")
        self.title_edit.setAccessibleName(tr("Title of the new page"))
        title_label = QLabel(tr("&Title:"))
        title_label.setBuddy(self.title_edit)
        form.addRow(title_label, self.title_edit)
        self.position = QSpinBox()
        self.position.setObjectName("newDocPositionSpin")
        self.position.setRange(0, MAX_POSITION)
        self.position.setValue(suggestion.position)
        self.position.setAccessibleName(tr("Place in the menu"))
        position_label = QLabel(tr("&Place in the menu:"))
        position_label.setBuddy(self.position)
        form.addRow(position_label, self.position)
        self.id_edit = QLineEdit(suggestion.doc_id)
        self.id_edit.setObjectName("newDocIdEdit")
        self.id_edit.setAccessibleName(tr("Page address"))
        id_label = QLabel(tr("Page &address:"))
        id_label.setBuddy(self.id_edit)
        form.addRow(id_label, self.id_edit)
        lay.addLayout(form)
        note = QLabel(
            tr(
                "The new page is not published: it shows on the site once you press "
                "“Publish” on it."
            )
        )
        note.setObjectName("newDocUnpublishedNote")
        note.setWordWrap(True)
        lay.addWidget(note)
        self.error = QLabel("")
        self.error.setObjectName("newDocError")
        self.error.setProperty("kind", "error")
        self.error.setWordWrap(True)
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
        self.title_edit.selectAll()

    def doc_id(self) -> str:
        return self.id_edit.text().strip()

    def chosen(self) -> CopySuggestion:
        return CopySuggestion(self.title_edit.text().strip(), self.position.value(), self.doc_id())

    def _accept(self) -> None:
        commit_preedit()  # a syllable still being composed belongs to the title or address
        if not self.title_edit.text().strip():
            self.error.setText(tr("Enter a title."))
            self.title_edit.setFocus()
            return
        problem = validate_new_id(self.doc_id())
        if problem is not None:
            self.error.setText(problem())
            self.id_edit.setFocus()
            return
        if self.doc_id().casefold() in self.taken:
            self.error.setText(tr("Another page already has this address; choose another."))
            self.id_edit.setFocus()
            return
        self.accept()
