"""pytest-qt: 그림 모음 in the window on a sandbox whose site has pictures used, unused, broken,
beside the documents and missing — the list and its filters, the chosen picture's pages and
descriptions (edited on a page nobody has open, on the open page, refused while someone else
edits), deleting (refused while used, asked otherwise), and picking one from 그림 넣기."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QBuffer, QIODevice, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QAbstractButton, QLabel, QMenu, QMessageBox

from modu_desktop import i18n
from modu_desktop.core.pictures.library import LibraryPicture, MissingPicture
from modu_desktop.sandbox.repo.seed import SAMPLE_DIR
from modu_desktop.ui.pictures.library_dialog import PictureLibraryDialog, UseRow
from modu_desktop.ui.pictures.library_model import Show
from tests.helpers.lang import in_lang

CAMPUS = "static/img/uploads/campus.png"
SPARE = "static/img/uploads/spare.jpg"
BROKEN = "static/img/uploads/broken.png"
DIAGRAM = "docs/img/diagram.png"
GONE = "static/img/gone.png"
WELCOME = "docs/01-welcome.md"
ADMISSION = "docs/04-admission.md"


def picture(width: int, height: int, fmt: str = "PNG", color: str = "#3b7dd8") -> bytes:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(color))
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, fmt)  # type: ignore[call-overload]
    return bytes(buf.data().data())


@pytest.fixture
def sandbox(tmp_path: Path, qapp: Any) -> Iterator[Any]:
    """The practice site with pictures: one used on two pages, an unused photo, bytes no reader
    takes, one beside the documents, and a page naming a picture the site lacks."""
    from modu_desktop.sandbox import Sandbox, SandboxUser

    seed = tmp_path / "seed"
    shutil.copytree(SAMPLE_DIR, seed)
    uploads = seed / "static/img/uploads"
    uploads.mkdir(parents=True)
    (uploads / "campus.png").write_bytes(picture(640, 480))
    (uploads / "spare.jpg").write_bytes(picture(300, 200, "JPEG", "#d84b3b"))
    (uploads / "broken.png").write_bytes(b"not a picture at all")
    (seed / "docs/img").mkdir()
    (seed / "docs/img/diagram.png").write_bytes(picture(200, 100, color="#2e9e5b"))
    welcome = seed / WELCOME
    welcome.write_text(
        welcome.read_text("utf-8") + "\n![캠퍼스 전경](/img/uploads/campus.png)\n", "utf-8"
    )
    admission = seed / ADMISSION
    admission.write_text(
        admission.read_text("utf-8")
        + '\n<img src="/img/uploads/campus.png" alt="본관">\n\n![사라진 그림](/img/gone.png)\n',
        "utf-8",
    )
    sb = Sandbox(
        tmp_path / "sandbox-repo",
        users=[
            SandboxUser("editor1", "tok-editor1", push=True),
            SandboxUser("editor2", "tok-editor2", push=True),
            SandboxUser("viewer", "tok-viewer", push=False),
        ],
        seed=seed,
    )
    sb.start()
    try:
        yield sb
    finally:
        sb.stop()


def open_library(win: Any, ui: Any, qtbot: Any) -> PictureLibraryDialog:
    win.findChild(QAbstractButton, "pictureLibraryButton").click()
    dlg = ui.dialog("pictureLibrary")
    qtbot.waitUntil(lambda: dlg.loaded, timeout=10000)
    return dlg


def choose(dlg: PictureLibraryDialog, path: str) -> None:
    row = dlg.model.row_of(path)
    assert row is not None, path
    dlg.view.setCurrentIndex(dlg.model.index(row, 0))


def text_of(sb: Any, path: str) -> str:
    data = sb.read_file(path)
    assert data is not None
    return bytes(data).decode("utf-8")


def test_every_picture_with_its_thumbnail_sizes_and_pages(
    make_window: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    menu = win.menuBar().findChild(QMenu, "documentMenu")
    assert "pictureLibraryAction" in [a.objectName() for a in menu.actions()]
    dlg = open_library(win, ui, qtbot)
    names = [r.path for r in dlg.model.rows()]
    assert names == sorted(
        [CAMPUS, SPARE, BROKEN, DIAGRAM, "static/img/modu-logo.png", "static/img/sample-photo.png"]
    )
    assert "6 picture(s)" in dlg.count.text() and "1 missing" in dlg.count.text()
    # the thumbnails fill in; the one no reader takes gets a placeholder, and nothing breaks
    qtbot.waitUntil(lambda: dlg.loader.pending() == 0, timeout=15000)
    campus, broken = dlg.model.library.find(CAMPUS), dlg.model.library.find(BROKEN)
    assert isinstance(campus, LibraryPicture) and isinstance(broken, LibraryPicture)
    assert dlg.model.thumbnail(campus.sha) is not None
    assert dlg.model.is_broken(broken.sha)
    assert dlg.model.facts(campus).startswith("640×480 · ")
    assert dlg.model.facts(campus).endswith("2 page(s)")
    choose(dlg, CAMPUS)
    detail = dlg.detail
    assert detail.name.text() == "campus.png"
    rows = detail.use_rows
    assert [r.ref.page.title for r in rows] == [
        "모두 연습 브로슈어에 오신 것을 환영합니다",
        "모집 안내와 현황",
    ]
    assert [r.alt_edit.text() for r in rows if r.alt_edit is not None] == ["캠퍼스 전경", "본관"]
    # a click on a page opens it in the window
    page_button = rows[1].findChild(QAbstractButton, "pictureUsePage")
    qtbot.mouseClick(page_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.doc is not None and win.doc.doc_id == "04-admission", timeout=10000)
    dlg.reject()


def test_search_and_filters(make_window: Any, ui: Any, qtbot: Any) -> None:
    win = make_window()
    dlg = open_library(win, ui, qtbot)
    dlg.search.setText("CAMP")  # case ignored
    assert [r.path for r in dlg.model.rows()] == [CAMPUS]
    assert "1 shown" in dlg.count.text()
    dlg.search.setText("")
    dlg.show_box.setCurrentIndex(dlg.show_box.findData(Show.UNUSED))
    assert [r.path for r in dlg.model.rows()] == [DIAGRAM, BROKEN, SPARE]
    dlg.show_box.setCurrentIndex(dlg.show_box.findData(Show.MISSING))
    rows = dlg.model.rows()
    assert [r.path for r in rows] == [GONE] and isinstance(rows[0], MissingPicture)
    assert dlg.detail.name.text() == "gone.png"
    assert [r.ref.page.doc_id for r in dlg.detail.use_rows] == ["04-admission"]
    assert not dlg.detail.delete_button.isVisibleTo(dlg)
    assert "not on the site" in dlg.model.describe(rows[0])
    dlg.reject()


def _use(dlg: PictureLibraryDialog, doc_id: str) -> UseRow:
    return next(r for r in dlg.detail.use_rows if r.ref.page.doc_id == doc_id)


def _alt_shown(dlg: PictureLibraryDialog, doc_id: str) -> str | None:
    edit = _use(dlg, doc_id).alt_edit
    return edit.text() if edit is not None else None


def _save_alt(dlg: PictureLibraryDialog, qtbot: Any, doc_id: str, alt: str) -> None:
    use = _use(dlg, doc_id)
    assert use.alt_edit is not None and use.save_button is not None
    use.alt_edit.setText(alt)
    assert use.save_button.isEnabled()
    qtbot.mouseClick(use.save_button, Qt.MouseButton.LeftButton)


def test_a_description_is_saved_on_a_page_nobody_has_open(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    win = make_window()
    dlg = open_library(win, ui, qtbot)
    choose(dlg, CAMPUS)
    _save_alt(dlg, qtbot, "04-admission", '부산대 "본관"')
    qtbot.waitUntil(lambda: dlg.status.property("kind") == "ok", timeout=15000)
    assert '<img src="/img/uploads/campus.png" alt="부산대 &quot;본관&quot;">' in text_of(
        sandbox, ADMISSION
    )
    assert sandbox.read_file(".locks/04-admission.json") is None  # the lock went
    # the library shows the page as it is now
    qtbot.waitUntil(lambda: _alt_shown(dlg, "04-admission") == '부산대 "본관"')
    dlg.reject()


def test_a_description_on_the_open_page_goes_through_its_save(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document("01-welcome"))
    dlg = open_library(win, ui, qtbot)
    choose(dlg, CAMPUS)
    _save_alt(dlg, qtbot, "01-welcome", "정문에서 본 캠퍼스")
    qtbot.waitUntil(lambda: dlg.status.property("kind") == "ok", timeout=15000)
    assert "![정문에서 본 캠퍼스](/img/uploads/campus.png)" in win.editor_pane.text()
    assert "![정문에서 본 캠퍼스](/img/uploads/campus.png)" in text_of(sandbox, WELCOME)
    assert not win.editor_pane.is_modified() and win.doc.editable  # saved, still editing
    dlg.reject()


def test_a_description_on_a_page_someone_edits_is_refused(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any, peer: Any
) -> None:
    other = peer()
    assert ui.run(other.locks.acquire("04-admission")).held is not None
    win = make_window()
    dlg = open_library(win, ui, qtbot)
    choose(dlg, CAMPUS)
    before = text_of(sandbox, ADMISSION)
    _save_alt(dlg, qtbot, "04-admission", "새 설명")
    qtbot.waitUntil(lambda: dlg.status.property("kind") == "error", timeout=15000)
    assert "editor2" in dlg.status.text() and "모집 안내와 현황" in dlg.status.text()
    assert text_of(sandbox, ADMISSION) == before
    dlg.reject()


def test_deleting_is_refused_while_used_and_asked_otherwise(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    win = make_window()
    dlg = open_library(win, ui, qtbot)
    commits = len(sandbox.commits())
    choose(dlg, CAMPUS)
    qtbot.mouseClick(dlg.detail.delete_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.status.property("kind") == "error", timeout=5000)
    assert "campus.png cannot be deleted" in dlg.status.text()
    assert "‘모집 안내와 현황’" in dlg.status.text()
    assert ui.no_dialog("deletePictureQuestion") and len(sandbox.commits()) == commits
    choose(dlg, SPARE)
    qtbot.mouseClick(dlg.detail.delete_button, Qt.MouseButton.LeftButton)
    box = ui.dialog("deletePictureQuestion")
    assert isinstance(box, QMessageBox)
    assert box.defaultButton().objectName() == "cancelButton"  # Enter keeps the picture
    box.defaultButton().click()
    qtbot.waitUntil(lambda: ui.no_dialog("deletePictureQuestion"))
    assert sandbox.read_file(SPARE) is not None and len(sandbox.commits()) == commits
    qtbot.mouseClick(dlg.detail.delete_button, Qt.MouseButton.LeftButton)
    ui.click(ui.dialog("deletePictureQuestion"), "deletePictureButton")
    qtbot.waitUntil(lambda: sandbox.read_file(SPARE) is None, timeout=15000)
    qtbot.waitUntil(lambda: dlg.model.row_of(SPARE) is None, timeout=15000)
    assert dlg.status.text() == "Deleted spare.jpg."
    dlg.reject()


def test_a_picture_typed_into_the_open_page_is_not_deleted(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document("01-welcome"))
    win.editor_pane.insert_markdown("![예비](/img/uploads/spare.jpg)")
    dlg = open_library(win, ui, qtbot)
    choose(dlg, SPARE)
    qtbot.mouseClick(dlg.detail.delete_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.status.property("kind") == "error", timeout=5000)
    assert "open in this window" in dlg.status.text()
    assert sandbox.read_file(SPARE) is not None
    dlg.reject()


def test_picking_inserts_the_address_the_page_reaches(
    make_window: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document("01-welcome"))
    win.editor_pane.set_raw_view(True)
    task = ui.start(win.ops_host.insert_picture())
    picker = ui.dialog("opsImageDialog")
    ui.click(picker, "pickFromSiteButton")
    lib = ui.dialog("pictureLibraryPicker")
    qtbot.waitUntil(lambda: lib.loaded, timeout=10000)
    assert lib.show_box.findData(Show.MISSING) == -1  # nothing missing to pick
    assert not lib.detail.delete_button.isVisibleTo(lib)
    choose(lib, DIAGRAM)
    assert lib.detail.insert_alt.text() == "diagram"  # no description anywhere: from the name
    lib.detail.insert_alt.setText("흐름도")
    ui.click(lib, "pictureInsertButton")
    md = ui.wait_task(task)
    assert md == "![흐름도](img/diagram.png)"  # beside the documents: relative to the page
    assert md in win.editor_pane.text()


def test_the_library_speaks_korean(make_window: Any, ui: Any, qtbot: Any) -> None:
    i18n.set_language("ko")
    try:
        win = make_window()
        dlg = open_library(win, ui, qtbot)
        assert dlg.windowTitle() == "그림 모음"
        assert dlg.count.text().startswith("그림 6개")
        choose(dlg, CAMPUS)
        assert dlg.detail.uses_head.text() == "쓰는 문서 2개:"
        campus = dlg.model.library.find(CAMPUS)
        assert campus is not None and "문서 2개" in dlg.model.facts(campus)
        dlg.reject()
    finally:
        i18n.set_language("en")
    assert in_lang("ko", lambda: i18n.tr("Picture &library…")) == "그림 모음(&L)…"


def test_a_viewer_looks_but_changes_nothing(make_window: Any, ui: Any, qtbot: Any) -> None:
    win = make_window("viewer", "tok-viewer")
    dlg = open_library(win, ui, qtbot)
    choose(dlg, CAMPUS)
    assert not dlg.detail.delete_button.isVisibleTo(dlg)
    assert all(r.save_button is None and r.alt_edit is None for r in dlg.detail.use_rows)
    labels = [r.findChild(QLabel, "pictureUseAlt") for r in dlg.detail.use_rows]
    shown = [label.text() if label is not None else None for label in labels]
    assert shown == ["Description: 캠퍼스 전경", "Description: 본관"]
    dlg.reject()
