"""The one who broke the site is told, on every path: the red panel (the page, its line, 고치기,
되돌리기) and the list's ✖, whether the window saved the page and kept it open, let its lock go
for idleness before the build failed, was closed and opened again, or was refreshed by hand
after the page was saved elsewhere (the web admin, another computer)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QTextCursor

from modu_desktop.i18n import set_language
from modu_desktop.sandbox import SandboxUser
from tests.helpers.hands import put_page

DOC, TITLE = "03-strategy", "비전과 추진 전략"
BROKEN_LINE = "줄바꿈<br>다음 줄 {이름}"


def _kim(sandbox: Any) -> None:
    set_language("ko")
    sandbox.users += [
        SandboxUser("kim", "tok-kim", name="김민지"),
        SandboxUser("lee", "tok-lee", name="이준호"),
    ]
    sandbox.workflow.queue_seconds, sandbox.workflow.run_seconds = 0.0, 0.2


def _break_it(win: Any, ui: Any) -> int:
    """kim adds a line the site cannot build and saves it with 그래도 저장; its line number."""
    assert ui.run(win.open_document(DOC))
    ed = win.editor_pane.editor
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText(f"\n\n{BROKEN_LINE}\n")
    line = win.editor_pane.text().split("\n").index(BROKEN_LINE) + 1
    task = ui.start(win.save())
    check = ui.dialog("publishCheckDialog")
    ui.click(check, "saveAnywayButton")
    ui.click(check, "confirmSaveAnywayButton")
    assert ui.wait_task(task) is True
    return line


def _title_in_list(win: Any) -> str:
    model = win.doc_list.model
    row = model.view_row_of(DOC)
    assert row is not None
    return str(model.data(model.index(row, 1)))


def _told_it_is_hers(win: Any, qtbot: Any, line: int) -> None:
    notice = win.deploy_notice
    qtbot.waitUntil(notice.isVisible, timeout=20_000)
    assert notice.property("kind") == "error"
    assert notice.title.text() == "게시 실패: 사이트가 업데이트되지 않았습니다"
    assert f"내가 저장한 “{TITLE}” 문서의 {line}번째 줄 때문에" in notice.explain.text()
    assert not notice.fix_button.isHidden() and not notice.restore_button.isHidden()
    qtbot.waitUntil(lambda: _title_in_list(win) == f"✖ {TITLE}", timeout=5_000)
    assert "확인 중" not in win.status_deploy.text()


def test_the_breaker_is_told_after_her_lock_went_for_idleness(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    _kim(sandbox)
    sandbox.workflow.queue_seconds = 3600.0  # the build waits until the lock is let go
    kim = make_window(
        "kim", "tok-kim", lang="ko", deploy_poll_s=0.1, heartbeat_s=0.2, idle_release_s=0.5
    )
    line = _break_it(kim, ui)
    qtbot.waitUntil(lambda: "입력이 없어서" in kim.status_lock.text(), timeout=20_000)
    assert not kim.deploy_notice.isVisible()
    sandbox.workflow.queue_seconds = 0.0  # now the build runs, and fails
    _told_it_is_hers(kim, qtbot, line)


def test_the_breaker_is_told_when_she_opens_the_app_again(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    _kim(sandbox)
    first = make_window("kim", "tok-kim", lang="ko", deploy_poll_s=0.1, data="kim")
    line = _break_it(first, ui)
    qtbot.waitUntil(first.deploy_notice.isVisible, timeout=20_000)
    assert ui.run(first.shutdown(interactive=False), timeout=20_000)
    again = make_window("kim", "tok-kim", lang="ko", deploy_poll_s=0.1, data="kim")
    assert again.doc is None  # nothing open: the panel is above the list
    _told_it_is_hers(again, qtbot, line)
    lee = make_window("lee", "tok-lee", lang="ko", deploy_poll_s=0.1)
    qtbot.waitUntil(lee.deploy_notice.isVisible, timeout=20_000)
    assert lee.deploy_notice.property("kind") == "warning"  # not hers: no 고치기, no 되돌리기
    assert "김민지(kim) 님이" in lee.deploy_notice.explain.text()
    assert lee.deploy_notice.fix_button.isHidden()


def test_the_breaker_is_told_when_she_refreshes_after_saving_elsewhere(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    _kim(sandbox)
    kim = make_window("kim", "tok-kim", lang="ko", deploy_poll_s=0.1)
    before = sandbox.read_file(f"docs/{DOC}.md").decode("utf-8")
    broken = before.rstrip("\n") + f"\n\n{BROKEN_LINE}\n"
    put_page(sandbox, f"docs/{DOC}.md", broken, token="tok-kim")  # from the web admin
    line = broken.split("\n").index(BROKEN_LINE) + 1
    qtbot.waitUntil(lambda: _failed_build(sandbox), timeout=20_000)
    assert ui.run(kim.refresh_list(asked=True))
    _told_it_is_hers(kim, qtbot, line)


def _failed_build(sandbox: Any) -> bool:
    from tests.helpers.sandbox import REPO_PATH, client_for

    with client_for(sandbox, "tok-kim") as client:
        runs = client.get(f"{REPO_PATH}/actions/runs").json()["workflow_runs"]
    return any(r["conclusion"] == "failure" for r in runs)
