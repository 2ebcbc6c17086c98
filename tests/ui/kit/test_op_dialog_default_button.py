"""Enter in a field of an operation's dialog presses that dialog's own button (올리고 넣기 in
그림 넣기), not the first button the dialog happens to hold (찾아보기, which opened the file
browser over the typed path)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from modu_desktop.ui.pictures.dialog import ImagePickerDialog
from modu_desktop.ui.pictures.uploader import ImageUploader


def test_enter_in_the_picture_dialog_uploads(qtbot: Any) -> None:
    dlg = ImagePickerDialog(ImageUploader(None))
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    assert [b for b in dlg.findChildren(QPushButton) if b.isDefault()] == [dlg.upload_button]
    started: list[bool] = []
    dlg.start = lambda: started.append(True)  # type: ignore[method-assign,assignment,return-value]
    dlg.path_edit.setFocus()
    qtbot.keyClick(dlg.path_edit, Qt.Key.Key_Return)
    assert started == [True]
