"""The new-document form, the "New document" dialog and the import dialog.

* :class:`NewDocForm` — id, title, menu label, position (or none), theme, layout, "start from the
  template"; shows the file name it will create and marks the field at fault.
* :class:`NewDocumentDialog` — the form + Create: runs ``DocOps.create(keep_lock=True)``; on
  failure the reason is shown next to the field and every value stays; on success
  ``result_op.held`` is the new document's lock (the editor that opens it must heartbeat and
  release it).
* :class:`ImportDialog` — a list of dropped/chosen ``.md`` files, each with its pre-filled form
  (editable), notes and conflicts; Import creates the conflict-free ones one by one with
  progress; failures stay in the list with their reason.

Wiring (main window): ``res = await new_document(ops, parent)``; if ``res`` and
``res.ok``: refresh the list and open ``res.doc_id`` in the editor *with* ``res.held`` (do not
acquire again; start its heartbeat). For import: ``await import_files(ops, paths,
parent)`` from a drop of ``.md`` files on the document list (or a menu "Import…"), then
refresh the list. (This is a full new-document dialog; the existing ``ui/new_doc_dialog.py`` is
the UI engineer's "save as a new document" name prompt and is left alone.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.brochure.themes import (
    DEFAULT_LAYOUT,
    DEFAULT_THEME,
    LAYOUT_KEYS,
    LAYOUTS,
    THEME_KEYS,
    THEMES,
)
from modu_desktop.core.docops.importer import ImportCandidate, check_candidates, read_candidates
from modu_desktop.core.docops.newdoc import next_free_position
from modu_desktop.core.docops.ops import (
    MAX_POSITION,
    DocOps,
    NewDocRequest,
    OpResult,
    suggest_id,
    validate_new_id,
)
from modu_desktop.i18n import tr
from modu_desktop.ui.editing.page_settings import layout_swatch, theme_swatch
from modu_desktop.ui.kit.asyncutil import run_dialog
from modu_desktop.ui.kit.fit import fit_to_screen
from modu_desktop.ui.kit.op_dialog import OpDialog
from modu_desktop.ui.kit.operation import error_text

_FIELDS = ("doc_id", "title", "nav_label", "position", "theme", "layout")


class NewDocForm(QWidget):
    """The new-document fields. ``request()`` reads them; ``set_request()`` fills them."""

    def __init__(self, parent: QWidget | None = None, *, show_template: bool = True) -> None:
        super().__init__(parent)
        self.setObjectName("opsNewDocForm")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        form = QFormLayout()
        outer.addLayout(form)
        self._fields()
        self._form_rows(form, show_template)
        self.advanced_button = QToolButton()
        self.advanced_button.setObjectName("opsAdvancedButton")
        self.advanced_button.setText(tr("Advanced ▸"))
        self.advanced_button.setCheckable(True)
        self.advanced_button.setAutoRaise(True)
        outer.addWidget(self.advanced_button)
        outer.addWidget(self._advanced_box())
        self.advanced_button.toggled.connect(self._toggle_advanced)
        outer.addWidget(self.error)
        self.base_text: str | None = None
        self._id_follows_title = True
        self.id_edit.textEdited.connect(self._id_edited)
        self.title_edit.textChanged.connect(self._title_changed)
        for sig in (self.id_edit.textChanged, self.title_edit.textChanged):
            sig.connect(self._update_file)
        self.has_position.toggled.connect(self._update_file)
        self.position.valueChanged.connect(self._update_file)
        self.set_request(NewDocRequest("", ""))

    def _fields(self) -> None:
        self.id_edit = QLineEdit()
        self.id_edit.setObjectName("opsIdEdit")
        self.id_edit.setPlaceholderText("bootcamp-2026")
        self.title_edit = QLineEdit()
        self.title_edit.setObjectName("opsTitleEdit")
        self.title_edit.setPlaceholderText(tr("e.g. 2026 AI bootcamp"))
        self.nav_edit = QLineEdit()
        self.nav_edit.setObjectName("opsNavLabelEdit")
        self.nav_edit.setPlaceholderText(self.t("(optional) short label for the menu"))
        # One label for the order row: the check box itself ("Order:" ☐ → the number).
        self.has_position = QCheckBox(self.t("Order:"))
        self.has_position.setObjectName("opsHasPosition")
        self.has_position.setAccessibleName(tr("Set the order in the menu"))
        self.position = QSpinBox()
        self.position.setObjectName("opsPositionSpin")
        self.position.setRange(0, MAX_POSITION)
        self.position.setEnabled(False)
        self.position.setAccessibleName(tr("Order in the menu"))
        self.has_position.toggled.connect(self.position.setEnabled)
        self.theme = QComboBox()
        self.theme.setObjectName("opsThemeCombo")
        for theme in THEMES:
            self.theme.addItem(theme_swatch(theme.key), theme.label, theme.key)
        self.layout_combo = QComboBox()
        self.layout_combo.setObjectName("opsLayoutCombo")
        for layout in LAYOUTS:
            self.layout_combo.addItem(
                layout_swatch(layout.key), f"{layout.label} ({layout.width_px}px)", layout.key
            )
        self.template = QCheckBox(
            self.t("Start from the template (hero, cards, timeline, quote, call to action)")
        )
        self.template.setObjectName("opsTemplateCheck")
        self.file_label = QLabel("")
        self.file_label.setObjectName("opsFileLabel")
        self.file_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error = QLabel("")
        self.error.setObjectName("opsFieldError")
        self.error.setProperty("kind", "error")
        self.error.setWordWrap(True)
        self.error.hide()

    def _form_rows(self, form: QFormLayout, show_template: bool) -> None:
        # Title first; the id follows it (Hangul allowed) until someone edits the id.
        rows: list[tuple[str, QWidget]] = [
            (self.t("&Title:"), self.title_edit),
            (self.t("&Menu label:"), self.nav_edit),
        ]
        for label, w in rows:
            lab = QLabel(label)
            lab.setBuddy(w)
            form.addRow(lab, w)
        form.addRow(self.has_position, self.position)
        rows = [(self.t("T&heme:"), self.theme), (self.t("&Layout:"), self.layout_combo)]
        for label, w in rows:
            lab = QLabel(label)
            lab.setBuddy(w)
            form.addRow(lab, w)
        if show_template:
            form.addRow(self.template)
        form.addRow(self.t("File:"), self.file_label)

    def _advanced_box(self) -> QGroupBox:
        """The id (the page address and file name), folded away: it follows the title."""
        self.advanced = QGroupBox()
        self.advanced.setObjectName("opsAdvancedBox")
        adv = QFormLayout(self.advanced)
        id_label = QLabel(self.t("&Id:"))
        id_label.setBuddy(self.id_edit)
        adv.addRow(id_label, self.id_edit)
        id_hint = QLabel(
            tr(
                "The page address and file name come from the id. It follows the title "
                "until you change it here."
            )
        )
        id_hint.setWordWrap(True)
        id_hint.setObjectName("opsIdHint")
        adv.addRow(id_hint)
        self.advanced.hide()
        return self.advanced

    def _toggle_advanced(self, on: bool) -> None:
        self.advanced.setVisible(on)
        self.advanced_button.setText(tr("Advanced ▾") if on else tr("Advanced ▸"))

    def show_advanced(self) -> None:
        self.advanced_button.setChecked(True)

    def _id_edited(self, text: str) -> None:
        # an empty id goes back to following the title
        self._id_follows_title = not text.strip()
        if self._id_follows_title:
            self._title_changed(self.title_edit.text())

    def _title_changed(self, title: str) -> None:
        if self._id_follows_title:
            derived = suggest_id(title)
            if self.id_edit.text() != derived:
                self.id_edit.setText(derived)

    def t(self, text: str) -> str:
        return tr(text)

    def widget_for(self, field: str | None) -> QWidget | None:
        return {
            "doc_id": self.id_edit,
            "title": self.title_edit,
            "nav_label": self.nav_edit,
            "position": self.position,
            "theme": self.theme,
            "layout": self.layout_combo,
        }.get(field or "")

    def request(self) -> NewDocRequest:
        return NewDocRequest(
            doc_id=self.id_edit.text().strip(),
            title=self.title_edit.text().strip(),
            position=self.position.value() if self.has_position.isChecked() else None,
            nav_label=self.nav_edit.text().strip() or None,
            theme=self.theme.currentData() or DEFAULT_THEME,
            layout=self.layout_combo.currentData() or DEFAULT_LAYOUT,
            template=self.template.isChecked(),
            base_text=self.base_text,
            draft=self.base_text
            is None,  # a new page waits for 게시하기; an import keeps its file's
        )

    def set_request(self, req: NewDocRequest) -> None:
        self.base_text = req.base_text
        self._id_follows_title = not req.doc_id or req.doc_id == suggest_id(req.title)
        self.title_edit.setText(req.title)
        self.id_edit.setText(req.doc_id)
        self.nav_edit.setText(req.nav_label or "")
        self.has_position.setChecked(req.position is not None)
        self.position.setValue(req.position or 0)
        self.theme.setCurrentIndex(
            max(0, self.theme.findData(req.theme if req.theme in THEME_KEYS else DEFAULT_THEME))
        )
        layout = req.layout if req.layout in LAYOUT_KEYS else DEFAULT_LAYOUT
        self.layout_combo.setCurrentIndex(max(0, self.layout_combo.findData(layout)))
        self.template.setChecked(req.template)
        self.template.setEnabled(req.base_text is None)
        self.clear_error()
        self._update_file()

    def show_error(self, field: str | None, text: str) -> None:
        self.clear_error(keep_text=True)
        self.error.setText(text)
        self.error.setVisible(bool(text))
        w = self.widget_for(field)
        if w is self.id_edit:
            self.show_advanced()  # the id is under 고급: open it to show what is wrong
        if w is not None:
            w.setProperty("invalid", True)
            w.style().unpolish(w)
            w.style().polish(w)
            w.setFocus()

    def clear_error(self, *, keep_text: bool = False) -> None:
        if not keep_text:
            self.error.setText("")
            self.error.hide()
        for f in _FIELDS:
            w = self.widget_for(f)
            if w is not None and w.property("invalid"):
                w.setProperty("invalid", False)
                w.style().unpolish(w)
                w.style().polish(w)

    def _update_file(self) -> None:
        req = self.request()
        if req.doc_id and validate_new_id(req.doc_id) is None:
            self.file_label.setText(req.path)
        else:
            self.file_label.setText("—")


class NewDocumentDialog(OpDialog):
    """New document: the form + Create. Stays open with the reason (and the values) on failure."""

    def __init__(
        self,
        ops: DocOps,
        parent: QWidget | None = None,
        *,
        initial: NewDocRequest | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("opsNewDocDialog")
        self.ops = ops
        self.setWindowTitle(self.t("New document"))
        self.setAccessibleName(self.t("New document"))
        lay = QVBoxLayout(self)
        self.form = NewDocForm()
        if initial is None:  # a new page goes last in the menu, and can be moved from there
            snap = ops.store.snapshot
            initial = NewDocRequest("", "", next_free_position(snap.docs if snap else []))
        self.form.set_request(initial)
        lay.addWidget(self.form)
        note = QLabel(
            self.t(
                "The new page is not published: it shows on the site once you press "
                "“Publish” on it."
            )
        )
        note.setObjectName("opsNewDocUnpublishedNote")
        note.setWordWrap(True)
        lay.addWidget(note)
        self.add_status_widgets(lay)
        self.create_button, self.cancel_button = self.add_op_buttons(
            lay, "&Create", "opsCreateButton"
        )
        self.inputs = [self.form, self.create_button, self.cancel_button]

    def start(self) -> asyncio.Task[Any]:
        req = self.form.request()
        self.form.clear_error()
        return self.run_op(
            lambda: self.ops.create(req, keep_lock=True),
            self.t("Creating “{title}”…").format(title=req.title or "…"),
        )

    def on_result(self, res: OpResult) -> None:
        if res.ok:
            self.show_outcome(res)
            return
        text = res.user_message()
        self.show_status(text, "error")
        self.form.show_error(res.input_field, text if res.input_field else "")
        if res.request is not None:  # the values as sent (normalised) — never lost
            held_base = self.form.base_text
            self.form.set_request(res.request)
            self.form.base_text = held_base
            self.form.show_error(res.input_field, text if res.input_field else "")


async def new_document(
    ops: DocOps,
    parent: QWidget | None = None,
    *,
    initial: NewDocRequest | None = None,
) -> OpResult | None:
    """Show the dialog; the created document's result (with ``held``), or None if cancelled."""
    dlg = NewDocumentDialog(ops, parent, initial=initial)
    await run_dialog(dlg)
    res: OpResult | None = dlg.result_op if dlg.result_op is not None and dlg.result_op.ok else None
    dlg.deleteLater()
    return res


# --------------------------------------------------------------------------------------------
# Import


class ImportDialog(OpDialog):
    """Files to import, each with its pre-filled form, notes and conflicts."""

    ROLE = Qt.ItemDataRole.UserRole

    def __init__(
        self,
        ops: DocOps,
        paths: Sequence[str | Path] = (),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("opsImportDialog")
        self.ops = ops
        self.candidates: list[ImportCandidate] = []
        self.results: dict[str, OpResult] = {}  # source → result of the last import
        self.setWindowTitle(self.t("Import documents"))
        self.setAccessibleName(self.t("Import documents"))
        self.setAcceptDrops(True)
        lay = QVBoxLayout(self)
        hint = QLabel(
            self.t(
                "Drop .md files here or add them. Each file's front matter fills in "
                "its form; fix any conflict before importing."
            )
        )
        hint.setWordWrap(True)
        lay.addWidget(hint)
        split = QSplitter()
        self.list = QListWidget()
        self.list.setObjectName("opsImportList")
        self.list.currentRowChanged.connect(self._show_current)
        split.addWidget(self.list)
        right = QWidget()
        rlay = QVBoxLayout(right)
        rlay.setContentsMargins(0, 0, 0, 0)
        self.form = NewDocForm(show_template=False)
        rlay.addWidget(self.form)
        self.notes = QLabel("")
        self.notes.setObjectName("opsImportNotes")
        self.notes.setWordWrap(True)
        rlay.addWidget(self.notes)
        self.apply_button = QPushButton(self.t("&Apply changes"))
        self.apply_button.setObjectName("opsApplyButton")
        self.apply_button.clicked.connect(self.apply_form)
        rlay.addWidget(self.apply_button)
        rlay.addStretch(1)
        split.addWidget(right)
        lay.addWidget(split, 1)
        self.count = QProgressBar()
        self.count.setObjectName("opsImportCount")
        self.count.hide()
        lay.addWidget(self.count)
        self.add_status_widgets(lay)
        self.add_button = QPushButton(self.t("Add &files…"))
        self.add_button.setObjectName("opsAddFilesButton")
        self.add_button.clicked.connect(self._choose_files)
        self.import_button, self.close_button = self.add_op_buttons(
            lay,
            "&Import",
            "opsImportButton",
            cancel_text="Close",
            before=((self.add_button, QDialogButtonBox.ButtonRole.ActionRole),),
        )
        self.inputs = [
            self.list,
            self.form,
            self.apply_button,
            self.add_button,
            self.import_button,
            self.close_button,
        ]
        fit_to_screen(self, 760, 460)
        if paths:
            self.add_paths(paths)

    # ------------------------------------------------------------------ files

    def add_paths(self, paths: Sequence[str | Path]) -> None:
        known = {c.source for c in self.candidates}
        new = [c for c in read_candidates([p for p in paths if str(p) not in known])]
        self.candidates.extend(new)
        self._refill()
        if self.list.currentRow() < 0 and self.candidates:
            self.list.setCurrentRow(0)
        self.run_job(self.recheck(), name="import.recheck")

    def _choose_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self, self.t("Import documents"), "", self.t("Markdown (*.md *.markdown)")
        )
        if files:
            self.add_paths(files)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        md = event.mimeData()
        if md.hasUrls() and any(
            u.toLocalFile().lower().endswith((".md", ".markdown")) for u in md.urls()
        ):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            self.add_paths(paths)
            event.acceptProposedAction()

    # ------------------------------------------------------------------ list and form

    def _label(self, c: ImportCandidate) -> str:
        name = Path(c.source).name
        done = self.results.get(c.source)
        if done is not None and done.ok:
            title = c.request.title if c.request is not None else ""
            return self.t("✔ {name} → “{title}”").format(name=name, title=title)
        if c.request is None or c.conflict is not None:
            return self.t("⚠ {name}").format(name=name)
        return self.t("{name} → “{title}”").format(name=name, title=c.request.title)

    def _refill(self) -> None:
        row = self.list.currentRow()
        self.list.blockSignals(True)
        self.list.clear()
        for i, c in enumerate(self.candidates):
            item = QListWidgetItem(self._label(c))
            item.setData(self.ROLE, i)
            tip = c.conflict() if c.conflict else ""
            item.setToolTip(tip)
            self.list.addItem(item)
        self.list.blockSignals(False)
        if 0 <= row < self.list.count():
            self.list.setCurrentRow(row)
        self._show_current(self.list.currentRow())

    def _show_current(self, row: int) -> None:
        if not 0 <= row < len(self.candidates):
            self.form.setEnabled(False)
            self.notes.setText("")
            return
        c = self.candidates[row]
        done = self.results.get(c.source)
        self.form.setEnabled(c.request is not None and not (done and done.ok) and not self.busy)
        if c.request is not None:
            self.form.set_request(c.request)
        lines = [n() for n in c.notes]
        if done is not None:
            lines.append(done.user_message())
        if c.conflict is not None:
            self.form.show_error(c.conflict_field, c.conflict())
        self.notes.setText("\n".join(lines))

    def apply_form(self) -> None:
        """Take the edited form into the current candidate and check it again."""
        row = self.list.currentRow()
        if not 0 <= row < len(self.candidates) or self.candidates[row].request is None:
            return
        self.candidates[row] = self.candidates[row].with_request(self.form.request())
        self.run_job(self.recheck(), name="import.recheck")

    async def recheck(self) -> None:
        try:
            snap = self.ops.store.snapshot or await self.ops.store.refresh()
        except Exception as exc:
            self.show_status(error_text(exc), "error")
            return
        pending = [
            c
            for c in self.candidates
            if not (self.results.get(c.source) and self.results[c.source].ok)
        ]
        checked = {c.source: c for c in check_candidates(pending, snap)}
        self.candidates = [checked.get(c.source, c) for c in self.candidates]
        self._refill()
        bad = sum(1 for c in pending if not checked[c.source].ok)
        if pending:
            self.show_status(
                self.t("{n} file(s) ready to import").format(n=len(pending) - bad)
                + ("; " + self.t("{n} with a conflict").format(n=bad) if bad else ""),
                "error" if bad else "info",
            )

    # ------------------------------------------------------------------ import

    def start(self) -> asyncio.Task[Any]:
        row = self.list.currentRow()
        if (
            0 <= row < len(self.candidates)
            and self.candidates[row].request is not None
            and not (self.results.get(self.candidates[row].source))
        ):
            # The form may hold unapplied edits: take them.
            self.candidates[row] = self.candidates[row].with_request(self.form.request())
        return self.run_op(self._import_all, self.t("Importing…"))

    async def _import_all(self) -> dict[str, OpResult]:
        snap = await self.ops.store.refresh()
        todo = [
            c
            for c in check_candidates(
                [
                    c
                    for c in self.candidates
                    if not (self.results.get(c.source) and self.results[c.source].ok)
                ],
                snap,
            )
        ]
        by_source = {c.source: c for c in todo}
        self.candidates = [by_source.get(c.source, c) for c in self.candidates]
        ready = [c for c in todo if c.ok]
        self.count.setRange(0, max(1, len(ready)))
        self.count.setValue(0)
        self.count.setVisible(bool(ready))
        out: dict[str, OpResult] = {}
        for i, c in enumerate(ready):
            assert c.request is not None
            self.show_status(
                self.t("Creating “{title}” ({i} of {n})…").format(
                    title=c.request.title, i=i + 1, n=len(ready)
                ),
                "info",
            )
            res = await self.ops.create(c.request, keep_lock=False)
            out[c.source] = res
            self.results[c.source] = res
            self.count.setValue(i + 1)
        return out

    def on_result(self, res: dict[str, OpResult]) -> None:
        self.count.hide()
        created = sum(1 for r in res.values() if r.ok)
        failed = [r for r in res.values() if not r.ok]
        left = sum(
            1
            for c in self.candidates
            if not (self.results.get(c.source) and self.results[c.source].ok)
        )
        self._refill()
        if failed or left:
            text = (
                self.t("Imported {n} document(s).").format(n=created)
                + " "
                + self.t("{n} file(s) not imported; select them to see why.").format(n=left)
            )
            self.show_status(text, "error")
        else:
            self.show_status(self.t("Imported {n} document(s).").format(n=created), "ok")
            self.accept()


async def import_files(
    ops: DocOps,
    paths: Sequence[str | Path] = (),
    parent: QWidget | None = None,
) -> dict[str, OpResult]:
    """Show the import dialog; the results of everything imported (source → result)."""
    dlg = ImportDialog(ops, paths, parent)
    await run_dialog(dlg)
    results = dict(dlg.results)
    dlg.deleteLater()
    return results
