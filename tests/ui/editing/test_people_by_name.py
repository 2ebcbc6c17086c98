"""People are named as they go by, with the login beside it, on the screens that name who
saved: the conflict screen ("while you were editing, 이준호(lee) saved a newer version") and the
history (each version's author), and in the status bar (who is signed in)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QLabel

from modu_desktop.i18n import set_language
from modu_desktop.sandbox import SandboxUser
from tests.helpers.hands import put_page

DOC = "02-programs"


def _people(sandbox: Any) -> None:
    set_language("ko")
    sandbox.users += [
        SandboxUser("kim", "tok-kim", name="김민지"),
        SandboxUser("lee", "tok-lee", name="이준호"),
    ]


def test_the_conflict_screen_and_the_history_name_who_saved(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    _people(sandbox)
    kim = make_window("kim", "tok-kim", lang="ko")
    assert kim.status_account.text() == "김민지(kim) · pnuai/PNU-Modu"
    assert ui.run(kim.open_document(DOC))
    text = sandbox.read_file(f"docs/{DOC}.md").decode("utf-8")
    put_page(sandbox, f"docs/{DOC}.md", text + "\n이준호가 먼저 저장한 문장.\n", token="tok-lee")
    ed = kim.editor_pane.editor
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText("\n김민지가 쓴 문장.\n")
    task = ui.start(kim.save())
    dialog = ui.dialog("conflictDialog")
    head = dialog.findChild(QLabel, "conflictHeadline").text()
    assert "이준호(lee) 님이 새 버전을 저장했습니다" in head, head
    ui.click(dialog, "takeTheirsButton")
    ui.wait_task(task)
    ui.run(kim.publishing.open_history())
    panel = kim.publishing.history_panel
    assert panel is not None
    labels = [panel.list.item(i).text() for i in range(panel.list.count())]
    assert any("이준호(lee)" in label for label in labels), labels
