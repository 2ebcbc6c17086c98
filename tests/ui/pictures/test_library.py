"""pytest-qt: 그림 모음 in the window on a sandbox whose site has pictures used, unused, broken,
beside the documents and missing — the list and its filters, the chosen picture's pages and
descriptions (edited on a page nobody has open, on the open page, refused while someone else
edits), deleting (refused while used, asked otherwise), and picking one from 그림 넣기."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QMenu, QMessageBox

from modu_desktop import i18n
from modu_desktop.core.pictures.library import LibraryPicture, MissingPicture
from modu_desktop.ui.pictures.library_dialog import PictureLibraryDialog, UseRow
from modu_desktop.ui.pictures.library_model import Show
from tests.helpers.lang import in_lang
from tests.helpers.picture_site import (
    ADMISSION,
    BROKEN,
    CAMPUS,
    DIAGRAM,
    GONE,
    SPARE,
    WELCOME,
    choose,
    open_library,
    picture,
    picture_sandbox,
    text_of,
)


@pytest.fixture
def sandbox(tmp_path: Path, qapp: Any) -> Iterator[Any]:
    """The practice site with pictures (``tests/helpers/picture_site.py``)."""
    with picture_sandbox(tmp_path) as sb:
        yield sb


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


def test_opening_the_library_prunes_thumbnails_of_pictures_gone_long_ago(
    make_window: Any, ui: Any, qtbot: Any
) -> None:
    import os

    from modu_desktop.ui.pictures.thumbnails import ThumbnailCache, make_thumbnail

    win = make_window()
    cache = ThumbnailCache(win.ctx.paths.cache_dir / "thumbnails")
    image = make_thumbnail(picture(60, 40))
    assert image is not None
    gone, recent = "d" * 40, "e" * 40  # pictures the site no longer has
    for sha in (gone, recent):
        cache.store(sha, image, None)
    old = cache.path(gone).stat().st_mtime - 90 * 86400
    os.utime(cache.path(gone), (old, old))
    lib = open_library(win, ui, qtbot)
    qtbot.waitUntil(lambda: not cache.path(gone).exists(), timeout=15000)
    assert cache.path(recent).exists()  # a month's grace, within the bounds
    qtbot.waitUntil(lambda: lib.loader.pending() == 0, timeout=15000)
    campus = lib.model.library.find(CAMPUS)
    assert campus is not None and cache.path(campus.sha).exists()
    lib.reject()
