"""The editor's toolbar: collapse the document list, Save with a plain saved/unsaved state,
블록 넣기, 원문 편집, the view switch (editor / preview / both) and 머리말 보기 (the raw front
matter). The pane connects them; this module only makes them."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QWidget,
)

from modu_desktop.i18n import tr
from modu_desktop.ui.kit.shortcuts import keys_text, sequences


@dataclass(frozen=True)
class Toolbar:
    row: QHBoxLayout
    toggle_list: QToolButton
    save: QPushButton
    save_state: QLabel
    insert_block: QPushButton
    raw_toggle: QToolButton
    views: dict[str, QToolButton]  # "editor", "preview", "both"
    view_group: QButtonGroup
    show_front_matter: QToolButton


def build_toolbar(owner: QWidget) -> Toolbar:
    row = QHBoxLayout()
    row.setSpacing(4)
    toggle_list = QToolButton()
    toggle_list.setObjectName("toggleListButton")
    toggle_list.setText(tr("☰ List"))
    toggle_list.setCheckable(True)
    toggle_list.setChecked(True)
    toggle_list.setToolTip(tr("Show or hide the document list"))
    toggle_list.setAccessibleName(tr("Show or hide the document list"))
    row.addWidget(toggle_list)
    save = QPushButton(tr("Save"))
    save.setObjectName("saveButton")
    save.setAccessibleName(tr("Save the document"))
    save.setToolTip(tr("Save ({keys})", keys=keys_text("save")))
    row.addWidget(save)
    save_state = _save_state_label(owner)
    row.addWidget(save_state, 1)
    insert_block = QPushButton(tr("Insert block"))
    insert_block.setObjectName("insertBlockButton")
    insert_block.setAccessibleName(tr("Insert a brochure block"))
    insert_block.setToolTip(tr("Insert a brochure block ({keys})", keys=keys_text("insertBlock")))
    row.addWidget(insert_block)
    raw_toggle = _raw_toggle()
    row.addWidget(raw_toggle)
    view_group = QButtonGroup(owner)
    views = _view_buttons(view_group)
    for b in views.values():
        row.addWidget(b)
    show_front_matter = QToolButton()
    show_front_matter.setObjectName("showFrontMatterButton")
    show_front_matter.setText(tr("Header lines"))
    show_front_matter.setCheckable(True)
    show_front_matter.setToolTip(tr("Show the page settings as text (the --- lines at the top)"))
    show_front_matter.setAccessibleName(tr("Show the raw page settings"))
    row.addWidget(show_front_matter)
    return Toolbar(
        row,
        toggle_list,
        save,
        save_state,
        insert_block,
        raw_toggle,
        views,
        view_group,
        show_front_matter,
    )


def _save_state_label(owner: QWidget) -> QLabel:
    label = QLabel("")
    label.setObjectName("saveState")
    label.setAccessibleName(tr("Saved or not"))
    # the label takes the toolbar's free room, whatever its text: the buttons after it never
    # move when "✔ 저장됨" becomes "저장하기 전에 확인하는 중…" (in a full toolbar at 800 px they
    # were pushed about as the state changed)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    label.setMinimumWidth(owner.fontMetrics().horizontalAdvance("✔ 저장됨 "))
    return label


def _raw_toggle() -> QToolButton:
    button = QToolButton()
    button.setObjectName("rawEditorToggle")
    button.setText(tr("Edit original text"))
    button.setCheckable(True)
    button.setShortcut(sequences("rawView")[0])
    button.setProperty("shortcutName", "rawView")  # listed on the 단축키 page
    button.setToolTip(
        tr("Edit the page as Markdown text (for advanced users); press again for the cards")
        + f" ({keys_text('rawView')})"
    )
    button.setAccessibleName(tr("Edit original text"))
    return button


def _view_buttons(group: QButtonGroup) -> dict[str, QToolButton]:
    views: dict[str, QToolButton] = {}
    for key, text, name in (
        ("editor", tr("Edit"), "viewEditorButton"),
        ("preview", tr("Preview"), "viewPreviewButton"),
        ("both", tr("Both"), "viewBothButton"),
    ):
        b = QToolButton()
        b.setObjectName(name)
        b.setText(text)
        b.setCheckable(True)
        b.setAccessibleName(tr("View: {name}", name=text))
        group.addButton(b)
        views[key] = b
    views["both"].setChecked(True)
    return views
