"""The review before a replacement across pages, in the window (pytest-qt, offscreen): every
hit read as the cards read it with its tick box, Enter that never changes anything, the
explicit button that counts the pages, one commit, the open page showing its new text and
building on it, a page with unsaved text left out and named, a change that waits for the
connection and lands later, and 기록 undoing the whole change as one."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialog, QDockWidget

from modu_desktop import i18n
from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.changes.outcome import ChangeState
from modu_desktop.core.search.index import SearchIndex
from modu_desktop.ui.publish.landed_pages import WindowPages
from modu_desktop.ui.search.replace_review import ReplaceReviewDialog
from tests.helpers.many_pages import YEAR_PAGES, add_pages, text_of
from tests.helpers.ui_windows import window_with_running_queue

GUIDE = "docs/10-guide.md"
NEW_GUIDE = YEAR_PAGES[GUIDE].replace("2025", "2026")


def _review(win: Any, ui: Any) -> ReplaceReviewDialog:
    ws = win.ctx.workspace
    index = SearchIndex(ws.store.cache.get)
    index.update(ws.store.snapshot.docs)
    dlg = ReplaceReviewDialog(
        ws, index, "2025학년도", "2026학년도", parent=win, open_pages=WindowPages(win)
    )
    ui.run(dlg.load())
    dlg.show()
    return dlg


def _page(dlg: ReplaceReviewDialog, title: str) -> Any:
    return next(p for p in dlg.pages if p.page.title == title)


def _tick(qtbot: Any, box: Any) -> None:
    """A click on a tick box's square, as a person clicks it."""
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))


def _replace_commits(sb: Any) -> list[str]:
    return [c["message"] for c in sb.commits() if "replace “2025학년도”" in c["message"]]


def test_hits_are_ticked_one_by_one_and_one_commit_changes_the_chosen_pages(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    add_pages(sandbox, YEAR_PAGES)
    win = make_window(lang="ko")
    i18n.set_language("ko")
    assert ui.run(win.open_document("10-guide"))
    dlg = _review(win, ui)
    assert len(dlg.pages) == 3 and dlg.action.text() == "3개 문서 바꾸기"
    # Enter never changes many pages: the explicit button is not the default one.
    assert dlg.cancel.isDefault() and not dlg.action.isDefault() and not dlg.action.autoDefault()
    calendar = _page(dlg, "학사 일정")
    first = calendar.findChildren(type(calendar.box), "replaceHitBox")[0]
    text = calendar.findChildren(type(dlg.summary), "replaceHitText")[0].text()
    assert '<s style="color: #b3261e">2025학년도</s>' in text and ">2026학년도</b>" in text
    assert "1학기" in text and "**" not in text  # the sentence as the card reads it
    _tick(qtbot, first)
    assert calendar.box.checkState() == Qt.CheckState.PartiallyChecked
    scholarship = _page(dlg, "장학금")
    _tick(qtbot, scholarship.box)  # the page: all its hits
    assert not any(b.isChecked() for b in scholarship.hits.values())
    assert dlg.action.text() == "2개 문서 바꾸기"
    qtbot.mouseClick(dlg.action, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.outcome is not None, timeout=15000)
    assert dlg.outcome is not None and dlg.outcome.state is ChangeState.COMMITTED
    status = dlg.status.text()
    assert status == "2개 문서에서 ‘2025학년도’ → ‘2026학년도’: 한 번에 저장했습니다."
    assert dlg.cancel.text() == "닫기" and not dlg.action.isVisible()
    assert len(_replace_commits(sandbox)) == 1
    assert text_of(sandbox, "docs/11-scholarship.md") == YEAR_PAGES["docs/11-scholarship.md"]
    assert text_of(sandbox, "docs/12-calendar.md") == YEAR_PAGES["docs/12-calendar.md"].replace(
        "2025학년도 2학기", "2026학년도 2학기"
    )
    # The page open here shows its new text and builds on the new version.
    assert text_of(sandbox, GUIDE) == NEW_GUIDE
    assert win.editor_pane.text() == NEW_GUIDE and not win.editor_pane.is_modified()
    assert win.doc.base_sha == git_blob_sha(NEW_GUIDE.encode())


def test_enter_cancels_and_sends_nothing(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    add_pages(sandbox, YEAR_PAGES)
    before = sandbox.commits()[0]["sha"]
    win = make_window(lang="ko")
    i18n.set_language("ko")
    dlg = _review(win, ui)
    qtbot.keyClick(dlg, Qt.Key.Key_Return)
    assert not dlg.isVisible() and dlg.result() == QDialog.DialogCode.Rejected
    assert sandbox.commits()[0]["sha"] == before and dlg.outcome is None


def test_a_page_open_here_with_unsaved_text_is_left_out_and_named(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    add_pages(sandbox, YEAR_PAGES)
    win = make_window(lang="ko")
    i18n.set_language("ko")
    assert ui.run(win.open_document("12-calendar"))
    win.editor_pane.editor.appendPlainText("- 방학")
    assert win.editor_pane.is_modified()
    dlg = _review(win, ui)
    lines = [w.text() for w in dlg.findChildren(type(dlg.summary), "replaceLeftOut")]
    assert lines == [
        "“학사 일정” 문서를 이 프로그램에서 고치고 있고 아직 저장하지 않았습니다. "
        "먼저 저장하거나 닫아 주세요."
    ]
    assert dlg.action.text() == "2개 문서 바꾸기"
    qtbot.mouseClick(dlg.action, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.outcome is not None, timeout=15000)
    assert "다음 1개 문서는 바꾸지 않았습니다" in dlg.status.text()
    assert dlg.status.property("kind") == "warning"  # saved, one page left: a note, not red
    assert "“학사 일정”" in dlg.status.text()
    assert text_of(sandbox, "docs/12-calendar.md") == YEAR_PAGES["docs/12-calendar.md"]
    assert "- 방학" in win.editor_pane.text()  # the unsaved text stays


def test_a_change_that_cannot_reach_github_waits_as_one_item_and_lands_later(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    add_pages(sandbox, YEAR_PAGES)
    win, nothing_lost = window_with_running_queue(make_window, ui)
    assert ui.run(win.open_document("10-guide"))
    dlg = _review(win, ui)
    sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    qtbot.mouseClick(dlg.action, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.outcome is not None, timeout=15000)
    assert dlg.outcome is not None and dlg.outcome.state is ChangeState.QUEUED
    assert "GitHub cannot be reached right now." in dlg.status.text()
    assert nothing_lost.queue.pending_count() == 1 and nothing_lost.status.isVisible()
    assert not _replace_commits(sandbox)
    sandbox.faults.update(failure_rate=0.0)
    nothing_lost.queue.retry_now()
    qtbot.waitUntil(lambda: bool(_replace_commits(sandbox)), timeout=15000)
    qtbot.waitUntil(lambda: win.editor_pane.text() == NEW_GUIDE, timeout=10000)
    assert win.doc.base_sha == git_blob_sha(NEW_GUIDE.encode())
    qtbot.waitUntil(lambda: "saved as one change" in win.notice.label.text(), timeout=5000)
    assert len(_replace_commits(sandbox)) == 1 and nothing_lost.queue.pending_count() == 0


def test_history_undoes_the_whole_change_as_one(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    add_pages(sandbox, YEAR_PAGES)
    win = make_window(lang="ko")
    i18n.set_language("ko")
    assert ui.run(win.open_document("10-guide"))
    dlg = _review(win, ui)
    qtbot.mouseClick(dlg.action, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.outcome is not None, timeout=15000)
    dlg.close()
    win.publishing.history_action.trigger()
    qtbot.waitUntil(lambda: win.findChild(QDockWidget, "historyDock") is not None, timeout=5000)
    panel = win.publishing.history_panel
    qtbot.waitUntil(lambda: len(panel.versions) >= 2, timeout=10000)
    panel.list.setCurrentRow(0)  # the replacement
    qtbot.waitUntil(lambda: panel.undo_row.isVisible(), timeout=10000)
    assert "3개 문서에서 ‘2025학년도’ → ‘2026학년도’" in panel.undo_text.text()
    assert "3개 문서에서 ‘2025학년도’ → ‘2026학년도’" in panel.list.item(0).text()
    qtbot.mouseClick(panel.undo_button, Qt.MouseButton.LeftButton)
    assert panel.undo_confirm.isVisible() and not panel.undo_button.isVisible()
    qtbot.mouseClick(panel.undo_confirm, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: text_of(sandbox, GUIDE) == YEAR_PAGES[GUIDE], timeout=15000)
    top = sandbox.commits()[0]["message"].splitlines()[0]
    assert top == "docs(edit): undo replace “2025학년도” → “2026학년도” in 3 pages by @editor1"
    qtbot.waitUntil(lambda: win.editor_pane.text() == YEAR_PAGES[GUIDE], timeout=10000)
    assert all(text_of(sandbox, p) == t for p, t in YEAR_PAGES.items())
    qtbot.waitUntil(lambda: panel.list.count() >= 3, timeout=10000)
    assert panel.list.item(0).text().count("되돌림: 3개 문서에서") == 1
