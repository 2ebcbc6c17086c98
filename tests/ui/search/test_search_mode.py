"""The document list's search of every page, in the real window on the sandbox: Ctrl+Shift+F,
results grouped by page title and drawn as the cards show them, a counter that says what the
list shows, the two choices, and a place found opened in the cards at its field."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QLineEdit, QMenu, QTextEdit

from modu_desktop.i18n import tr
from modu_desktop.ui.editing.card_find import ALL_MARK, CURRENT_MARK
from modu_desktop.ui.editing.cards.block_card import BlockCard
from modu_desktop.ui.editing.cards.text_card import TextCard
from modu_desktop.ui.search.panel import MIN_WIDTH, SearchPanel
from modu_desktop.ui.search.results import FOUND_ROLE, SNIPPET_ROLE, Found
from tests.helpers.lang import speaking
from tests.helpers.qt import settle
from tests.helpers.search_pages import ADMISSION, PLAIN

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def win(make_window: Any, ui: Any, qtbot: Any) -> Any:
    """A window whose list has the search test pages besides the practice brochure, and
    whose search index has read them all."""
    window = make_window()
    client = window.ctx.client
    ui.run(client.put_file("docs/20-admission-2025.md", ADMISSION.encode(), "add a page"))
    ui.run(client.put_file("docs/21-guide.md", PLAIN.encode(), "add a page"))
    assert ui.run(window.refresh_list())
    mode = window.search.mode
    qtbot.waitUntil(lambda: mode.ready and not mode.reading, timeout=10000)
    assert {"20-admission-2025", "21-guide"} <= {d.doc_id for d in mode.index.docs}
    return window


def _search(win: Any, qtbot: Any, text: str) -> Any:
    panel = win.search.panel
    win.search.start()
    panel.query_edit.setText(text)
    panel.search_now()
    qtbot.waitUntil(lambda: win.search.mode.results is not None)
    return win.search.mode.results


def _heads(panel: Any) -> list[str]:
    return [it.text(0) for it in panel.results.page_items()]


def test_ctrl_shift_f_opens_the_search_mode_with_the_keyboard_in_its_box(
    win: Any, qtbot: Any
) -> None:
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    win.doc_list.tree.setFocus()
    assert not win.search.modes.searching
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_F, CTRL_SHIFT)
    qtbot.waitUntil(lambda: win.search.modes.searching)
    assert win.doc_list.pages.currentWidget() is win.search.panel
    qtbot.waitUntil(lambda: QApplication.focusWidget() is win.search.panel.query_edit)
    # the Edit menu names it with its keys
    assert win.search.action.shortcut().toString() == "Ctrl+Shift+F"
    edit_menu = next(m for m in win.menuBar().findChildren(QMenu) if win.act_find in m.actions())
    assert win.search.action in edit_menu.actions()


def test_results_are_grouped_by_page_title_with_each_place_as_the_cards_show_it(
    win: Any, qtbot: Any
) -> None:
    with speaking("ko"):
        found = _search(win, qtbot, "2025학년도")
        panel = win.search.panel
        titles = [p.title for p in found.pages]
        assert titles == ["2025학년도 입학 안내", "학생 안내"]  # the list's titles, in its order
        heads = _heads(panel)
        assert heads[0] == f"2025학년도 입학 안내 ({len(found.pages[0].hits)}곳)"
        hits = panel.results.hit_items()
        assert len(hits) == found.total
        places = [it.data(0, SNIPPET_ROLE)[0] for it in hits]
        assert "페이지 설정 › 제목" in places  # the front matter too
        assert any(p.startswith("‘2025학년도 일정’") or "글 상자" in p for p in places)
        # the sentence without its marks, the words apart to be marked
        bold = next(
            it.data(0, SNIPPET_ROLE)
            for it in hits
            if it.data(0, FOUND_ROLE).hit.text.startswith("2025학년도 모집은")
        )
        assert bold[1:3] == ("", "2025학년도")
        assert bold[3].startswith(" 모집은 홈페이지에서 확인 & 신청. 두 번째 줄")
        assert "**" not in "".join(it.text(0) for it in hits)
        # the counter says what the list shows
        assert panel.status.text() == f"2개 문서에서 {found.total}곳"


def test_nothing_found_says_so_and_the_list_is_empty(win: Any, qtbot: Any) -> None:
    with speaking("ko"):
        found = _search(win, qtbot, "어디에도없는낱말")
        panel = win.search.panel
        assert found.total == 0
        assert panel.results.topLevelItemCount() == 0
        assert panel.status.text() == "찾은 곳이 없습니다."
        assert not panel.replace_button.isEnabled()


def test_match_case_only_changes_latin_letters(win: Any, qtbot: Any) -> None:
    panel = win.search.panel
    found = _search(win, qtbot, "Student")
    assert _words_on(found, "21-guide") == ["Student", "STUDENT"]
    panel.case_box.setChecked(True)  # searches again at once
    qtbot.waitUntil(lambda: win.search.mode.results.options.case_sensitive)
    exact = win.search.mode.results
    assert _words_on(exact, "21-guide") == ["Student"]
    shown = {it.data(0, SNIPPET_ROLE)[2] for it in panel.results.hit_items()}
    assert shown == {"Student"} and exact.total < found.total
    panel.case_box.setChecked(False)
    korean = _search(win, qtbot, "학생")
    panel.case_box.setChecked(True)
    qtbot.waitUntil(lambda: win.search.mode.results.options.case_sensitive)
    assert win.search.mode.results.total == korean.total > 0  # Hangul has no case


def test_whole_words_only_keeps_particles_and_drops_parts_of_words(win: Any, qtbot: Any) -> None:
    panel = win.search.panel
    everywhere = _search(win, qtbot, "학년도")
    assert everywhere.total > 0
    panel.word_box.setChecked(True)
    qtbot.waitUntil(lambda: win.search.mode.results.options.whole_word)
    assert win.search.mode.results.total == 0  # always glued to 2025
    assert tr("Without “Match case” or “Whole words only” more may be found.") in (
        panel.status.text()
    )
    whole = _search(win, qtbot, "2025학년도")
    words = [it.data(0, SNIPPET_ROLE) for it in panel.results.hit_items()]
    assert any(after.startswith("의") for _p, _b, _w, after in words)  # "2025학년도의"
    assert whole.options.whole_word


def test_the_filter_count_never_says_more_than_the_list_shows(win: Any, qtbot: Any) -> None:
    with speaking("ko"):
        doc_list = win.doc_list
        total = len(doc_list.rows)
        doc_list.filter_edit.setText("Student")  # in no title or file name
        assert doc_list.model.rowCount() == 0
        assert doc_list.status.text() == (
            f"제목이나 파일 이름에 “Student”가 들어간 문서가 없습니다 (전체 문서 {total}개)."
        )
        offer = win.search.modes.look_inside
        assert offer.isVisible() and "Student" in offer.text()
        doc_list.filter_edit.setText("안내")
        shown = doc_list.model.rowCount()
        assert 0 < shown < total
        assert doc_list.status.text() == f"문서 {total}개 중 {shown}개"
        assert not offer.isVisible()
        doc_list.filter_edit.setText("Student")
        offer.click()  # the same words, looked for in the pages
        qtbot.waitUntil(lambda: win.search.mode.results is not None)
        assert win.search.modes.searching
        assert win.search.panel.query_edit.text() == "Student"
        assert _words_on(win.search.mode.results, "21-guide") == ["Student", "STUDENT"]
        doc_list.filter_edit.clear()
        assert doc_list.status.text() == f"문서 {total}개"


def test_the_counter_waits_for_the_pages_before_it_says_anything_is_missing(
    make_window: Any, qtbot: Any
) -> None:
    window = make_window()
    mode = window.search.mode
    qtbot.waitUntil(lambda: mode.ready and not mode.reading, timeout=10000)
    mode.ready = False  # as before the first reading ended
    mode._reading_progress(3, 8)
    window.search.panel.query_edit.setText("기초 과정")
    window.search.panel.search_now()
    assert mode.results is None
    assert window.search.panel.status.text() == tr(
        "Reading the pages… {done} of {total}", done=3, total=8
    )
    assert window.search.panel.progress.isVisibleTo(window.search.panel)


def test_a_saved_change_is_found_after_the_list_refresh(win: Any, ui: Any, qtbot: Any) -> None:
    assert _search(win, qtbot, "새로넣은낱말").total == 0
    page = win.ctx.store.snapshot.doc("21-guide")
    text = PLAIN + "\n새로넣은낱말 한 줄.\n"
    ui.run(win.ctx.client.put_file(page.path, text.encode(), "edit", sha=page.sha))
    assert ui.run(win.refresh_list())
    qtbot.waitUntil(lambda: win.search.mode.results.total == 1, timeout=10000)
    assert _heads(win.search.panel) == [tr("{title} ({n} place(s))", title="학생 안내", n=1)]


def _words_on(found: Any, doc_id: str) -> list[str]:
    return [h.words for p in found.pages if p.doc_id == doc_id for h in p.hits]


def _choose(win: Any, qtbot: Any, pick: Any) -> Found:
    item = next(it for it in win.search.panel.results.hit_items() if pick(it.data(0, FOUND_ROLE)))
    rect = win.search.panel.results.visualItemRect(item)
    qtbot.mouseClick(
        win.search.panel.results.viewport(), Qt.MouseButton.LeftButton, pos=rect.center()
    )
    found: Found = item.data(0, FOUND_ROLE)
    return found


def test_clicking_a_place_opens_the_page_in_its_cards_at_the_field_with_the_words_marked(
    win: Any, qtbot: Any
) -> None:
    win.editor_pane.set_raw_view(True)  # even when the raw view was last used
    _search(win, qtbot, "기초 과정")
    found = _choose(
        win, qtbot, lambda f: f.hit.doc_id == "20-admission-2025" and f.hit.place.section
    )
    qtbot.waitUntil(lambda: win.doc is not None and win.doc.doc_id == "20-admission-2025")
    pane = win.editor_pane
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QLineEdit))
    assert not pane.raw_view  # the card view, not 원문 편집
    field = QApplication.focusWidget()
    assert isinstance(field, QLineEdit)
    assert field.text() == "기초 과정" and field.selectedText() == "기초 과정"
    card: Any = field.parent()
    while not isinstance(card, BlockCard):
        card = card.parent()
    assert card.model.kind == "split"
    assert found.hit.place.section == "left"
    assert field.property("fieldPath") == "left/0/label"
    page = pane.page_editor
    qtbot.waitUntil(lambda: _in_view(page, field))


def test_a_place_in_a_text_box_is_marked_and_scrolled_into_view(win: Any, qtbot: Any) -> None:
    _search(win, qtbot, "2025")
    found = _choose(
        win,
        qtbot,
        lambda f: f.hit.doc_id == "20-admission-2025" and f.hit.text.startswith("인용"),
    )
    qtbot.waitUntil(lambda: win.doc is not None and win.doc.doc_id == "20-admission-2025")
    page = win.editor_pane.page_editor
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QTextEdit))
    field = QApplication.focusWidget()
    assert isinstance(field, QTextEdit)
    assert isinstance(field.parent(), TextCard)
    cursor = field.textCursor()
    assert cursor.selectedText() == "2025"
    # the words of the quote, not the first 2025 of the text box
    assert cursor.block().text().startswith("인용 2025"), cursor.block().text()
    assert found.in_card > 0
    # marked as 찾기 marks in the cards: every 2025 of the box, this one stronger
    marks = {
        (m.cursor.selectionStart(), m.format.background().color().name())
        for m in field.extraSelections()
    }
    assert (cursor.selectionStart(), CURRENT_MARK.name()) in marks
    assert any(colour == ALL_MARK.name() for _at, colour in marks)
    qtbot.waitUntil(lambda: _in_view(page, field, cursor))
    # Find next (F3) goes on from here, in the cards
    bar = win.editor_pane.find_bar
    assert bar.find_edit.text() == "2025"
    assert bar.find_next()
    here = bar.cards.current
    assert here is not None
    assert here.field is not field or here.start > cursor.selectionStart()


def test_an_open_page_is_not_opened_again_and_the_place_in_the_settings_is_selected(
    win: Any, ui: Any, qtbot: Any
) -> None:
    assert ui.run(win.open_document("20-admission-2025"))
    session = win.doc
    _search(win, qtbot, "2025학년도")
    _choose(win, qtbot, lambda f: f.hit.place.card == "settings")
    title = win.editor_pane.form.title_edit
    qtbot.waitUntil(lambda: title.selectedText() == "2025학년도")
    assert win.doc is session  # the same session: nothing was closed or opened again
    assert QApplication.focusWidget() is title


def test_replace_all_opens_the_review_and_the_results_follow_the_one_commit(
    win: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    from modu_desktop.core.changes.outcome import ChangeState

    panel = win.search.panel
    before = _search(win, qtbot, "2025학년도")
    assert not panel.replace_button.isEnabled() or before.total
    panel.replace_edit.setText("2026학년도")
    assert panel.replace_button.isEnabled()
    commits = len(sandbox.commits())
    panel.replace_button.click()
    review = ui.dialog("replaceReviewDialog")
    qtbot.waitUntil(lambda: review.action.isEnabled(), timeout=15000)
    assert {p.page.title for p in review.pages} == {"2025학년도 입학 안내", "학생 안내"}
    qtbot.mouseClick(review.action, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: review.outcome is not None, timeout=15000)
    assert review.outcome.state is ChangeState.COMMITTED
    assert len(sandbox.commits()) == commits + 1  # every page in one commit
    review.cancel.click()  # 닫기
    # the list is read again, the index follows it, the search is asked again
    mode = win.search.mode
    qtbot.waitUntil(lambda: mode.results.total < before.total, timeout=15000)
    now = {p.doc_id for p in _search(win, qtbot, "2026학년도").pages}
    assert {"20-admission-2025", "21-guide"} <= now


def test_an_empty_search_cannot_be_replaced(win: Any, qtbot: Any) -> None:
    panel = win.search.panel
    _search(win, qtbot, "어디에도없는낱말")
    panel.replace_edit.setText("새 낱말")
    assert not panel.replace_button.isEnabled()


def test_a_viewer_has_no_replace_row(make_window: Any, qtbot: Any) -> None:
    window = make_window("viewer", "tok-viewer")
    assert not window.search.panel.replace_row.isVisibleTo(window.search.panel)


def test_the_replace_row_puts_its_button_under_the_box_in_a_narrow_list(qtbot: Any) -> None:
    with speaking("ko"):
        panel = SearchPanel()
    qtbot.addWidget(panel)
    panel.show()
    row, label, button = panel.replace_row, panel.replace_label, panel.replace_button
    for width, one_line in ((600, True), (MIN_WIDTH, False), (600, True)):
        panel.resize(width, 400)
        settle()
        assert row.one_line is one_line, width
        assert (button.y() == label.y()) is one_line  # on the label's line, or under it
        for part in (label, button):  # every word of both shows
            assert part.width() >= part.sizeHint().width(), (width, part.text())
            assert part.geometry().right() <= row.width() - 1


def _in_view(page: Any, field: Any, cursor: Any = None) -> bool:
    """Whether the field (the words, given their cursor) is inside the page's visible area."""
    viewport = page.viewport()
    if cursor is not None:
        rect = field.cursorRect(cursor)
        at = field.viewport().mapTo(viewport, rect.center())
    else:
        at = field.mapTo(viewport, field.rect().center())
    return bool(viewport.rect().contains(at))


def test_the_keyboard_goes_from_the_box_to_the_places_and_back_to_the_list(
    win: Any, qtbot: Any
) -> None:
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    panel = win.search.panel
    found = _search(win, qtbot, "기초 과정")
    panel.focus_query()
    qtbot.keyClick(panel.query_edit, Qt.Key.Key_Down)  # ↓: the first place found
    assert panel.results.hasFocus()
    first = panel.results.currentItem().data(0, FOUND_ROLE)
    assert first.hit == found.pages[0].hits[0]
    qtbot.keyClick(panel.results, Qt.Key.Key_Return)  # Enter opens it
    qtbot.waitUntil(lambda: win.doc is not None and win.doc.doc_id == first.hit.doc_id)
    qtbot.waitUntil(lambda: "기초 과정" in _selected_text(QApplication.focusWidget()))
    go_filter = win.findChild(QAction, "goFilterAction")
    go_filter.trigger()  # Go → 찾기 (the list's filter): the list comes back to the front
    assert not win.search.modes.searching
    assert win.doc_list.pages.currentWidget() is win.doc_list.list_page
    assert QApplication.focusWidget() is win.doc_list.filter_edit


def _selected_text(widget: Any) -> str:
    if isinstance(widget, QLineEdit):
        return str(widget.selectedText())
    if isinstance(widget, QTextEdit):
        return str(widget.textCursor().selectedText())
    return ""


def test_what_the_search_read_is_kept_per_repository_and_pruned_to_the_listed_pages(
    make_window: Any, qtbot: Any
) -> None:
    from modu_desktop.core.search.kept import KeptPages
    from modu_desktop.ui.shell.window_search import kept_folder

    first = make_window(data="kept")
    mode = first.search.mode
    qtbot.waitUntil(lambda: mode.ready and not mode.reading, timeout=10000)
    folder = kept_folder(first.ctx)
    kept = KeptPages(folder)
    listed = [d.sha for d in first.ctx.store.snapshot.docs]
    assert all(kept.get(sha) is not None for sha in listed)
    assert folder.parent.name == "search" and folder.name  # one folder per repository
    stray = "0" * 40  # a page no listing has any more
    kept.put(stray, kept.get(listed[0]) or [])
    first.search.mode.ready = False  # as at the next start
    first.search.mode.follow(first.ctx.store.snapshot.docs)
    qtbot.waitUntil(lambda: mode.ready and not mode.reading, timeout=10000)
    assert kept.get(stray) is None
    assert all(kept.get(sha) is not None for sha in listed)
