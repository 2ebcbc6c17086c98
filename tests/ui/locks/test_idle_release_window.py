"""The window lets an idle document's lock go and takes it back at the next keystroke: the
editor stays editable with its text, the status bar says so in plain Korean, nothing typed is
lost. Waits are for conditions, never timed."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication, QDialog

from modu_desktop import i18n
from tests.helpers.sandbox import lock_json

DOC = "02-programs"


def test_idle_window_lets_the_lock_go_and_the_next_keystroke_takes_it_back(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    i18n.set_language("ko")
    win = make_window(lang="ko", heartbeat_s=0.1, idle_release_s=0.5)
    assert ui.run(win.open_document(DOC))
    editor = win.editor_pane.editor
    editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor, " typed")
    typed = win.editor_pane.text()

    qtbot.waitUntil(lambda: "입력이 없어서" in win.status_lock.text(), timeout=20_000)
    assert lock_json(sandbox, DOC) is None  # released: others may edit now
    status = win.status_lock.text()
    assert "입력이 없어서" in status and "다시 입력하면 이어서 편집할 수 있습니다" in status
    assert "(를)" not in status and "(을)" not in status
    assert not editor.isReadOnly() and win.editor_pane.text() == typed  # text and editor stay
    assert win.lock_banner.isHidden() and win.readonly_banner.isHidden()
    drafts = win.drafts
    assert drafts is not None  # the draft stays, and holds the text
    qtbot.waitUntil(lambda: not drafts.dirty, timeout=20_000)
    draft = drafts.store.load(drafts.key)
    assert draft is not None and draft.text == typed

    qtbot.keyClicks(editor, "!")  # the next keystroke
    qtbot.waitUntil(lambda: (lock_json(sandbox, DOC) or {}).get("editingBy") == "editor1")
    qtbot.waitUntil(
        lambda: "편집하고 있습니다" in win.status_lock.text() or "편집 중" in win.status_lock.text()
    )
    assert win.editor_pane.text() == typed + "!"
    assert not [
        w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible()
    ]
