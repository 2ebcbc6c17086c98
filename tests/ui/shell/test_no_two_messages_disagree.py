"""No two messages disagree, and none stays after it stopped being true: the list's editing
column follows the session the status bar speaks of (the lock let go for idleness, a take-over
noticed between heartbeats), "your unsaved text is back" goes once that text is saved, and a
status-bar sentence too long for an 800 px window ends in "…" with the whole of it on hover."""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtGui import QTextCursor

from modu_desktop.i18n import set_language

DOC = "02-programs"


def _type(win: Any, text: str) -> None:
    ed = win.editor_pane.editor
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText(text)


def _editing_column(win: Any) -> str:
    model = win.doc_list.model
    row = model.view_row_of(DOC)
    assert row is not None
    return str(model.data(model.index(row, model.COLUMNS - 1)) or "")


def test_the_list_does_not_say_mine_once_the_lock_was_let_go(
    make_window: Any, ui: Any, qtbot: Any
) -> None:
    set_language("ko")
    win = make_window(lang="ko", heartbeat_s=0.1, idle_release_s=0.5)
    assert ui.run(win.open_document(DOC))
    assert _editing_column(win) == "나 (이 창)"
    qtbot.waitUntil(lambda: "입력이 없어서" in win.status_lock.text(), timeout=20_000)
    assert _editing_column(win) == ""
    assert ui.run(win.refresh_list())  # a listing read meanwhile says the same
    assert _editing_column(win) == ""


def test_a_take_over_reaches_the_list_and_the_banner_together_before_the_next_heartbeat(
    make_window: Any, peer: Any, ui: Any, qtbot: Any
) -> None:
    set_language("ko")
    win = make_window(lang="ko", heartbeat_s=3600.0, look_s=0.1)  # no heartbeat in this test
    assert ui.run(win.open_document(DOC))
    p = peer()
    assert ui.run(p.locks.steal(ui.run(p.locks.inspect(DOC)))).held is not None
    qtbot.waitUntil(win.lock_banner.isVisible, timeout=10_000)
    assert _editing_column(win).startswith("editor2 · ")
    assert "편집 권한 잃음" in win.status_lock.text()


def test_the_recovered_text_notice_goes_once_that_text_is_saved(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    from modu_desktop.core.locks.leftover import registry_for
    from modu_desktop.core.saving.drafts import DraftStore

    set_language("ko")
    dead = make_window(lang="ko", data="shared")
    assert ui.run(dead.open_document(DOC))
    _type(dead, "\n멈추기 직전에 쓴 글\n")
    typed = dead.editor_pane.text()
    store = DraftStore(dead.ctx.paths.drafts_dir)
    qtbot.waitUntil(lambda: any(d.text == typed for d in store.list()), timeout=5000)
    session = dead.doc
    assert session is not None and dead.drafts is not None
    session.forget()  # the app stops: nothing released
    dead.drafts.stop()
    dead.session = None
    registry = registry_for(dead.ctx.paths.data_dir)
    for rec in registry.records(dead.ctx.session_id):
        registry.add(dataclasses.replace(rec, proc_start="a-process-that-ended"))
    fresh = make_window(lang="ko", data="shared")
    ui.run(fresh.recover_at_start(), timeout=20000)
    assert fresh.notice.isVisible() and "되찾았습니다" in fresh.notice.label.text()
    assert ui.run(fresh.save())
    assert fresh.notice.isHidden()  # it was true until the text was saved


def test_a_long_status_sentence_ends_in_an_ellipsis_and_is_whole_on_hover(
    make_window: Any, ui: Any, qtbot: Any
) -> None:
    set_language("ko")
    win = make_window(lang="ko")
    win.resize(800, 600)
    assert ui.run(win.open_document(DOC))
    sentence = (
        "20분 동안 입력이 없어서 “프로그램 안내” 편집 권한을 내려놓았습니다. 지금은 다른 "
        "사람도 편집할 수 있습니다. 쓰던 글은 그대로 있으니 다시 입력하면 이어서 편집할 수 "
        "있습니다."
    )
    win.set_lock_status(sentence, "info")
    label = win.status_lock
    qtbot.waitUntil(lambda: label.shown_text() != sentence, timeout=5000)
    assert label.shown_text().endswith("…")
    assert label.text() == sentence and label.toolTip() == sentence
    assert label.width() < label.fontMetrics().horizontalAdvance(sentence)
    win.resize(1600, 1000)
    qtbot.waitUntil(lambda: label.shown_text() == sentence, timeout=5000)  # room: all of it
