"""A failed publish names the page that broke it, to everyone, and clears everywhere.

Two staff members on one repository, in Korean: kim saves a page that breaks the site's build
(with "그래도 저장"); lee then saves a correct page. Both builds fail because of kim's page. kim
is told it is her page, at which line, and gets 고치기 and 이전 버전으로 되돌리기 for it; lee is
told his text is saved and publishing waits for kim's page — with no button that would undo his
own work. Every widget (the notice, the status bar, the line under the editor, the list) says
the same. kim fixes the line; the next build succeeds; both windows stop showing a failure.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPushButton

from modu_desktop.i18n import set_language
from modu_desktop.sandbox import SandboxUser

KIM_DOC, KIM_TITLE = "03-strategy", "비전과 추진 전략"
LEE_DOC, LEE_TITLE = "05-sandbox-notes", "자유 연습장"
BROKEN_LINE = "줄바꿈<br>다음 줄"


def _append(win: Any, text: str) -> None:
    ed = win.editor_pane.editor
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText(text)


def _visible_buttons(win: Any) -> list[str]:
    return [b.objectName() for b in win.findChildren(QPushButton) if b.isVisible()]


def _window_says(win: Any) -> str:
    """Everything the window shows about publishing, as one text."""
    parts = [
        win.status_deploy.text(),
        win.editor_pane.publish.text(),
        win.deploy_notice.title.text() if win.deploy_notice.isVisible() else "",
        win.deploy_notice.explain.text() if win.deploy_notice.isVisible() else "",
    ]
    return " | ".join(parts)


def _title_in_list(win: Any, doc_id: str) -> str:
    model = win.doc_list.model
    row = model.view_row_of(doc_id)
    assert row is not None
    return str(model.data(model.index(row, 1)))


def test_a_failed_publish_names_the_page_and_its_saver_and_clears_everywhere(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    set_language("ko")
    sandbox.users += [SandboxUser("kim", "tok-kim"), SandboxUser("lee", "tok-lee")]
    sandbox.workflow.queue_seconds, sandbox.workflow.run_seconds = 0.0, 0.2
    kim = make_window("kim", "tok-kim", lang="ko", deploy_poll_s=0.1)
    lee = make_window("lee", "tok-lee", lang="ko", deploy_poll_s=0.1)

    # kim saves a page that breaks the build, past the check's warning
    assert ui.run(kim.open_document(KIM_DOC))
    _append(kim, f"\n\n{BROKEN_LINE}\n")
    line = kim.editor_pane.text().split("\n").index(BROKEN_LINE) + 1
    task = ui.start(kim.save())
    check = ui.dialog("publishCheckDialog")
    ui.click(check, "saveAnywayButton")
    ui.click(check, "confirmSaveAnywayButton")
    assert ui.wait_task(task) is True

    # lee saves a correct page
    assert ui.run(lee.open_document(LEE_DOC))
    lee_text_before = sandbox.read_file(f"docs/{LEE_DOC}.md")
    _append(lee, "\n이 문장은 올바르게 저장됩니다.\n")
    assert ui.run(lee.save()) is True
    lee_saved = sandbox.read_file(f"docs/{LEE_DOC}.md")
    assert lee_saved != lee_text_before

    # both builds fail; each window is told the truth
    qtbot.waitUntil(lambda: kim.deploy_notice.isVisible(), timeout=20000)
    qtbot.waitUntil(lambda: lee.deploy_notice.isVisible(), timeout=20000)

    k = kim.deploy_notice
    assert k.title.text() == "게시 실패: 사이트가 업데이트되지 않았습니다"
    assert f"내가 저장한 “{KIM_TITLE}” 문서의 {line}번째 줄 때문에" in k.explain.text()
    assert k.fix_button.isVisible() and k.restore_button.isVisible()
    assert "✖ 게시 실패" in kim.status_deploy.text()
    assert "✖ 게시 실패" in kim.editor_pane.publish.text()
    assert _title_in_list(kim, KIM_DOC) == f"✖ {KIM_TITLE}"

    n = lee.deploy_notice
    assert n.title.text() == "게시가 멈춰 있습니다: 내 글은 저장되었습니다"
    assert n.explain.text().startswith("내 글은 저장되었습니다.")
    assert "kim 님이" in n.explain.text() and f"저장한 “{KIM_TITLE}” 문서" in n.explain.text()
    assert LEE_TITLE not in n.explain.text()  # lee's page is not blamed
    shown = _visible_buttons(lee)
    assert "restorePreviousButton" not in shown and "fixPageButton" not in shown
    assert "confirmRestoreButton" not in shown
    assert "‖ 게시 멈춤" in lee.status_deploy.text()
    assert "‖ 게시 멈춤" in lee.editor_pane.publish.text()  # the strip agrees
    assert "✖" not in lee.status_deploy.text() + lee.editor_pane.publish.text()
    assert _title_in_list(lee, KIM_DOC) == f"✖ {KIM_TITLE}"
    assert _title_in_list(lee, LEE_DOC) == LEE_TITLE
    assert sandbox.read_file(f"docs/{LEE_DOC}.md") == lee_saved  # nothing undid lee's work

    # kim: 고치기 puts the cursor on the broken line; she fixes it and saves
    kim.editor_pane.editor.moveCursor(QTextCursor.MoveOperation.Start)
    qtbot.mouseClick(k.fix_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: kim.editor_pane.editor.textCursor().blockNumber() + 1 == line, timeout=5000
    )
    fixed = kim.editor_pane.text().replace(BROKEN_LINE, "줄바꿈<br />다음 줄")
    kim.editor_pane.replace_all_text(fixed, modified=True)
    assert ui.run(kim.save()) is True  # the check finds nothing: no dialog

    # the fixing build succeeds: every failure state clears, in both windows
    for win in (kim, lee):
        qtbot.waitUntil(lambda w=win: not w.deploy_notice.isVisible(), timeout=20000)
        qtbot.waitUntil(lambda w=win: "✔ 게시됨" in w.status_deploy.text(), timeout=20000)
        assert "✔ 게시됨" in win.editor_pane.publish.text()
        says = _window_says(win)
        assert "실패" not in says and "멈춤" not in says, says
        assert _title_in_list(win, KIM_DOC) == KIM_TITLE


def test_restore_opens_the_breaking_page_and_restores_only_that_page(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    """kim has moved on to another document; 이전 버전으로 되돌리기 still acts on the page that
    broke the build (opened first), never on the one on screen."""
    set_language("ko")
    sandbox.users.append(SandboxUser("kim", "tok-kim"))
    sandbox.workflow.queue_seconds, sandbox.workflow.run_seconds = 0.0, 0.2
    kim = make_window("kim", "tok-kim", lang="ko", deploy_poll_s=0.1)
    before = sandbox.read_file(f"docs/{KIM_DOC}.md")
    assert ui.run(kim.open_document(KIM_DOC))
    _append(kim, f"\n\n{BROKEN_LINE}\n")
    task = ui.start(kim.save())
    check = ui.dialog("publishCheckDialog")
    ui.click(check, "saveAnywayButton")
    ui.click(check, "confirmSaveAnywayButton")
    assert ui.wait_task(task) is True
    assert ui.run(kim.open_document(LEE_DOC))  # on to another page
    other = sandbox.read_file(f"docs/{LEE_DOC}.md")
    notice = kim.deploy_notice
    qtbot.waitUntil(notice.isVisible, timeout=20000)
    assert notice.restore_button.isEnabled()
    qtbot.mouseClick(notice.restore_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(notice.confirm_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: sandbox.read_file(f"docs/{KIM_DOC}.md") == before, timeout=15000)
    qtbot.waitUntil(lambda: kim.editor_pane.text() == before.decode("utf-8"), timeout=5000)
    assert kim.doc is not None and kim.doc.doc_id == KIM_DOC  # the page it restored is shown
    assert not kim.editor_pane.is_modified()
    assert sandbox.read_file(f"docs/{LEE_DOC}.md") == other  # the other page is untouched
    qtbot.waitUntil(lambda: not notice.isVisible(), timeout=20000)  # the site builds again
    assert "✔ 게시됨" in kim.status_deploy.text()
