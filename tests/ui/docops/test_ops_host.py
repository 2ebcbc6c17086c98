"""The main window hosts the document operations (new, delete, move) with the open document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers.sandbox import lock_json

pytest.importorskip("modu_desktop.ui.docops.ops_import")
pytest.importorskip("modu_desktop.ui.docops.ops_delete")
pytest.importorskip("modu_desktop.ui.docops.ops_reorder")


def test_new_document_opens_with_its_lock(make_window: Any, sandbox: Any, ui: Any) -> None:
    win = make_window()
    assert win.ops_host.available and "newDocumentAction" in win.ops_host.actions
    task = ui.start(win.ops_host.new_document())
    dlg = ui.dialog("opsNewDocDialog")
    dlg.form.id_edit.setText("new-page")
    dlg.form.title_edit.setText("새 페이지")
    ui.click(dlg, "opsCreateButton")
    doc_id = ui.wait_task(task, timeout=20000)
    assert doc_id and win.doc is not None and win.doc.doc_id == doc_id
    assert win.doc.editable and not win.editor_pane.editor.isReadOnly()
    assert lock_json(sandbox, doc_id)["editingBy"] == "editor1"
    assert doc_id in win.doc_list.doc_ids()
    assert ui.run(win.close_document(interactive=False))
    assert lock_json(sandbox, doc_id) is None


def test_delete_the_open_document(make_window: Any, sandbox: Any, ui: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document("05-sandbox-notes"))
    task = ui.start(win.ops_host.delete())
    dlg = ui.dialog("opsDeleteDialog")
    ui.click(dlg, "opsDeleteButton")
    assert ui.wait_task(task, timeout=20000) is True
    assert win.doc is None
    assert sandbox.read_file("docs/05-sandbox-notes.md") is None
    assert lock_json(sandbox, "05-sandbox-notes") is None
    assert "05-sandbox-notes" not in win.doc_list.doc_ids()


def test_move_keeps_the_open_document_saveable(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document("02-programs"))
    win.editor_pane.editor.insertPlainText("편집 중 ")
    done: list[Any] = []
    win.ops_host.reorder.finished.connect(done.append)
    win.ops_host.move("up")
    qtbot.waitUntil(lambda: bool(done), timeout=20000)
    assert done[0].ok, done[0].message
    assert "sidebar_position: 1" in win.editor_pane.text()
    assert ui.run(win.save())  # no conflict: built on the moved version
    saved = sandbox.read_file("docs/02-programs.md").decode("utf-8")
    assert "편집 중 " in saved and "sidebar_position: 1" in saved


def test_the_window_offers_a_picture_already_on_the_site(
    make_window: Any, sandbox: Any, ui: Any, tmp_path: Path
) -> None:
    """The window's uploader knows the listing and the open page: the practice logo dropped
    again is the picture that is there, written from the open page, and nothing is uploaded."""
    win = make_window()
    assert ui.run(win.open_document("05-sandbox-notes"))
    uploader = win.ops_host.uploader
    assert "static/img/modu-logo.png" in {e.path for e in uploader.listing()}
    logo = sandbox.read_file("static/img/modu-logo.png")
    copy = tmp_path / "로고 복사본.png"
    copy.write_bytes(logo)
    before = len(sandbox.commits())
    res = ui.run(uploader.upload_file(copy))
    assert res.ok and res.reused and res.markdown == "![로고 복사본](/img/modu-logo.png)"
    assert len(sandbox.commits()) == before
    assert ui.run(win.close_document(interactive=False))


def test_a_new_page_goes_last_in_the_menu_and_moves_up_at_once(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    """The new-page form proposes the place after the last page; the page made there moves
    up with ▲ under the list at once, never “give it a position first”."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QToolButton

    from modu_desktop.core.brochure import frontmatter

    win = make_window()
    task = ui.start(win.ops_host.new_document())
    dlg = ui.dialog("opsNewDocDialog")
    assert dlg.form.has_position.isChecked() and dlg.form.position.value() == 100
    dlg.form.title_edit.setText("새 안내")
    dlg.form.id_edit.setText("new-notice")
    ui.click(dlg, "opsCreateButton")
    doc_id = ui.wait_task(task, timeout=20000)
    assert doc_id == "100-new-notice"
    assert win.doc_list.doc_ids()[-1] == doc_id  # last in the list
    done: list[Any] = []
    win.ops_host.reorder.finished.connect(done.append)
    up = win.doc_list.findChild(QToolButton, "opsMoveUpButton")
    assert up is not None and up.isVisible() and up.text() == "▲"
    qtbot.mouseClick(up, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(done), timeout=20000)
    assert done[0].ok, done[0].message
    text = sandbox.read_file("docs/100-new-notice.md").decode("utf-8")
    assert frontmatter.parse(text).get_int("sidebar_position") == 99
    qtbot.waitUntil(lambda: win.doc_list.doc_ids()[-2:] == [doc_id, "99-template"], timeout=20000)
    assert "sidebar_position: 99" in win.editor_pane.text()  # the open page follows
    assert not win.editor_pane.is_modified()  # nothing typed: nothing waits to be saved
