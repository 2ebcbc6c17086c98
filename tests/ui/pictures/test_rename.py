"""pytest-qt: 그림 모음's 이름 바꾸기 / 옮기기 on a sandbox — the picture and every page naming it
change in one commit (renamed in its folder, or moved beside the pages), the name it will
really get shown while typing, a taken name refused, a page someone else edits (or open here
with unsaved text) stopping it before and at the click with the page named and nothing
changed, the open page following the rename, offline as one waiting item, and the library
read again when the window's list changes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from modu_desktop import i18n
from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.changes.outcome import ChangeState
from modu_desktop.ui.pictures.rename_dialog import RenamePictureDialog
from tests.helpers.picture_site import (
    ADMISSION,
    BROKEN,
    CAMPUS,
    WELCOME,
    choose,
    open_library,
    picture,
    picture_sandbox,
    text_of,
)
from tests.helpers.ui_windows import window_with_running_queue

NEW = "static/img/uploads/캠퍼스-전경-2026.png"


@pytest.fixture
def sandbox(tmp_path: Path, qapp: Any) -> Iterator[Any]:
    with picture_sandbox(tmp_path) as sb:
        yield sb


def open_rename(win: Any, ui: Any, qtbot: Any, path: str = CAMPUS) -> tuple[Any, Any]:
    lib = open_library(win, ui, qtbot)
    choose(lib, path)
    assert lib.detail.rename_button.isVisibleTo(lib)
    qtbot.mouseClick(lib.detail.rename_button, Qt.MouseButton.LeftButton)
    dlg = ui.dialog("renamePictureDialog")
    assert isinstance(dlg, RenamePictureDialog)
    qtbot.waitUntil(lambda: dlg.loaded, timeout=10000)
    return lib, dlg


def rename_commits(sb: Any) -> list[str]:
    return [c["message"] for c in sb.commits() if "rename picture" in c["message"]]


def test_a_rename_rewrites_every_page_in_one_commit(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    win = make_window()
    lib, dlg = open_rename(win, ui, qtbot)
    commits = len(sandbox.commits())
    assert dlg.cancel.isDefault() and not dlg.action.isDefault()  # Enter renames nothing
    pages = [dlg.page_list.item(i).text() for i in range(dlg.page_list.count())]
    assert pages == ["‘모두 연습 브로슈어에 오신 것을 환영합니다’", "‘모집 안내와 현황’"]
    assert not dlg.action.isEnabled()  # its own name: nothing to do yet
    dlg.name.setText("캠퍼스 전경 2026")
    assert dlg.target == NEW
    assert "캠퍼스-전경-2026.png" in dlg.result_line.text()
    assert "become “-”" in dlg.result_line.text()  # why the name reads differently
    assert dlg.action.text() == "Rename — fixes 2 page(s)" and dlg.action.isEnabled()
    qtbot.mouseClick(dlg.action, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.outcome is not None, timeout=15000)
    assert dlg.outcome.state is ChangeState.COMMITTED
    assert "saved as one change" in dlg.status.text()
    assert len(sandbox.commits()) == commits + 1 and len(rename_commits(sandbox)) == 1
    assert sandbox.read_file(CAMPUS) is None and sandbox.read_file(NEW) == picture(640, 480)
    assert "![캠퍼스 전경](/img/uploads/캠퍼스-전경-2026.png)" in text_of(sandbox, WELCOME)
    assert '<img src="/img/uploads/캠퍼스-전경-2026.png" alt="본관">' in text_of(sandbox, ADMISSION)
    dlg.cancel.click()  # 닫기
    qtbot.waitUntil(lambda: lib.model.row_of(NEW) is not None, timeout=15000)
    assert lib.model.row_of(CAMPUS) is None
    qtbot.waitUntil(lambda: lib.detail.name.text() == "캠퍼스-전경-2026.png", timeout=5000)
    lib.reject()


def test_moving_beside_the_pages_writes_each_address_the_way_the_page_reaches_it(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    win = make_window()
    lib, dlg = open_rename(win, ui, qtbot)
    dlg.folder.setCurrentIndex(dlg.folder.findData("docs/img"))
    assert dlg.folder.currentText() == "Beside the pages › img"
    assert dlg.target == "docs/img/campus.png"
    assert dlg.action.text() == "Move — fixes 2 page(s)"
    qtbot.mouseClick(dlg.action, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.outcome is not None, timeout=15000)
    assert sandbox.read_file("docs/img/campus.png") == picture(640, 480)
    assert "![캠퍼스 전경](img/campus.png)" in text_of(sandbox, WELCOME)
    assert '<img src="img/campus.png" alt="본관">' in text_of(sandbox, ADMISSION)
    dlg.cancel.click()
    lib.reject()


def test_a_taken_name_is_refused_before_anything_is_sent(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    win = make_window()
    lib, dlg = open_rename(win, ui, qtbot)
    commits = len(sandbox.commits())
    dlg.name.setText("Broken")  # broken.png is there (case ignored)
    assert dlg.target is None and not dlg.action.isEnabled()
    assert dlg.result_line.text() == "There is already a file named broken.png."
    assert dlg.result_line.property("kind") == "error"
    dlg.name.setText("")
    assert not dlg.action.isEnabled()
    dlg.reject()
    assert len(sandbox.commits()) == commits and sandbox.read_file(BROKEN) is not None
    lib.reject()


def test_a_page_someone_edits_stops_it_and_is_named(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any, peer: Any
) -> None:
    other = peer()
    assert ui.run(other.locks.acquire("04-admission")).held is not None
    win = make_window()
    assert ui.run(win.refresh_list())  # the list sees the lock
    lib, dlg = open_rename(win, ui, qtbot)
    dlg.name.setText("campus-2026")
    assert dlg.blocked.isVisible() and not dlg.action.isEnabled()
    assert "editor2" in dlg.blocked.text() and "“모집 안내와 현황”" in dlg.blocked.text()
    assert "Try again once it is free." in dlg.blocked.text()
    dlg.reject()
    assert sandbox.read_file(CAMPUS) is not None and not rename_commits(sandbox)
    lib.reject()


def test_a_lock_taken_after_the_dialog_opened_stops_it_at_the_click(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any, peer: Any
) -> None:
    win = make_window()
    lib, dlg = open_rename(win, ui, qtbot)
    dlg.name.setText("campus-2026")
    assert dlg.action.isEnabled()
    other = peer()
    assert ui.run(other.locks.acquire("01-welcome")).held is not None
    before = text_of(sandbox, WELCOME)
    qtbot.mouseClick(dlg.action, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.blocked.isVisible(), timeout=15000)
    assert dlg.outcome is None and "Nothing was changed" in dlg.blocked.text()
    assert "“모두 연습 브로슈어에 오신 것을 환영합니다”" in dlg.blocked.text()
    assert not dlg.action.isEnabled()
    assert text_of(sandbox, WELCOME) == before and sandbox.read_file(CAMPUS) is not None
    assert not rename_commits(sandbox)
    dlg.reject()
    lib.reject()


def test_the_open_page_follows_the_rename(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document("01-welcome"))
    lib, dlg = open_rename(win, ui, qtbot)
    dlg.name.setText("캠퍼스 전경 2026")
    qtbot.mouseClick(dlg.action, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.outcome is not None, timeout=15000)
    new_text = text_of(sandbox, WELCOME)
    qtbot.waitUntil(lambda: win.editor_pane.text() == new_text, timeout=10000)
    assert "/img/uploads/캠퍼스-전경-2026.png" in win.editor_pane.text()
    assert not win.editor_pane.is_modified() and win.doc.editable
    assert win.doc.base_sha == git_blob_sha(new_text.encode())  # the next save builds on it
    dlg.cancel.click()
    lib.reject()


def test_the_open_page_with_unsaved_text_stops_it(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    i18n.set_language("ko")
    win = make_window(lang="ko")
    assert ui.run(win.open_document("04-admission"))
    win.editor_pane.insert_markdown("새 문단")
    assert win.editor_pane.is_modified()
    lib, dlg = open_rename(win, ui, qtbot)
    dlg.name.setText("campus-2026")
    assert not dlg.action.isEnabled()
    assert "“모집 안내와 현황” 문서를 이 프로그램에서 고치고 있고" in dlg.blocked.text()
    assert dlg.action.text() == "이름 바꾸기 — 문서 2개 고침"
    assert dlg.windowTitle() == "그림 이름 바꾸기 / 옮기기"
    dlg.reject()
    assert "새 문단" in win.editor_pane.text() and sandbox.read_file(CAMPUS) is not None
    lib.reject()


def test_offline_the_rename_waits_as_one_item_and_lands_later(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    win, nothing_lost = window_with_running_queue(make_window, ui)
    lib, dlg = open_rename(win, ui, qtbot)
    qtbot.waitUntil(lambda: lib.loader.pending() == 0, timeout=15000)  # thumbnails in first
    dlg.name.setText("campus-2026")
    sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    qtbot.mouseClick(dlg.action, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.outcome is not None, timeout=15000)
    assert dlg.outcome.state is ChangeState.QUEUED
    assert "GitHub cannot be reached right now." in dlg.status.text()
    assert nothing_lost.queue.pending_count() == 1 and not rename_commits(sandbox)
    dlg.cancel.click()
    sandbox.faults.update(failure_rate=0.0)
    nothing_lost.queue.retry_now()
    qtbot.waitUntil(lambda: bool(rename_commits(sandbox)), timeout=15000)
    assert sandbox.read_file("static/img/uploads/campus-2026.png") == picture(640, 480)
    assert "(/img/uploads/campus-2026.png)" in text_of(sandbox, WELCOME)
    qtbot.waitUntil(lambda: lib.model.row_of(CAMPUS) is None, timeout=15000)
    lib.reject()


def test_the_library_follows_the_window_list(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any, peer: Any
) -> None:
    win = make_window()
    lib = open_library(win, ui, qtbot)
    other = peer()
    added = "static/img/uploads/new-banner.png"
    ui.run(other.client.put_file(added, picture(90, 30), "upload(image): add new-banner.png"))
    assert lib.model.row_of(added) is None
    assert ui.run(win.refresh_list())  # what the window's timer does
    qtbot.waitUntil(lambda: lib.model.row_of(added) is not None, timeout=15000)
    lib.reject()
