"""The publish widgets: the check before a save, the failed-deploy notice, the history panel
(on the sandbox), and Korean screenshots of each at 800 and 1600 px."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QPushButton

from modu_desktop import i18n
from modu_desktop.core.documents.history import (
    DocHistory,
    RestoreRefused,
    restore_version,
    version_before,
)
from modu_desktop.core.documents.store import DocumentStore, SaveConflict, SaveResult
from modu_desktop.core.github.blobcache import BlobCache
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.publish.blame import BrokenPage, broken_pages
from modu_desktop.core.publish.check import check_text
from modu_desktop.core.publish.failure import DeployFailure, deploy_failure
from modu_desktop.core.publish.status import SiteStop
from modu_desktop.core.text import Text
from modu_desktop.ui.kit.operation import Operations
from modu_desktop.ui.publish.deploy_notice import FailedDeployNotice
from modu_desktop.ui.publish.history_panel import HistoryPanel, when
from modu_desktop.ui.publish.publish_check_panel import (
    CheckChoice,
    PublishCheckDialog,
    replace_editor_text,
)
from tests.helpers.qt import settle

FM = "---\nid: sample\ntitle: 예시 문서\n---\n\n"
TEXT = (
    FM
    + "## 안내\n\n본문 첫 줄<br>둘째 줄입니다. 담당자는 {이름} 님입니다.\n\n"
    + "<!-- 나중에 고칠 것 -->\n\n:::herro\ntitle: 오타 블록\n:::\n"
)
REPO = RepoRef("pnuai", "PNU-Modu", "main")
SHOTS = os.environ.get("MODU_SHOTS_DIR")


@pytest.fixture(autouse=True)
def _korean() -> Any:
    i18n.set_language("ko")
    yield


def _shots(widget: Any, qtbot: Any, tmp_path: Path, name: str, height: int) -> None:
    for width in (800, 1600):
        widget.resize(width, height)
        widget.show()
        settle()
        folder = Path(SHOTS) if SHOTS else tmp_path
        out = folder / f"{name}-{width}.png"
        assert widget.grab().save(str(out), "PNG")
        assert out.stat().st_size > 5000


def _buttons(widget: Any, name: str) -> list[QPushButton]:
    return [b for b in widget.findChildren(QPushButton, name) if b.isVisibleTo(widget)]


# ----- the check before a save ---------------------------------------------------------------


def test_the_check_lists_each_problem_and_fixes_them_one_by_one(qtbot: Any, tmp_path: Path) -> None:
    result = check_text(TEXT)
    dlg = PublishCheckDialog(None, TEXT, result, title="예시 문서")
    qtbot.addWidget(dlg)
    dlg.show()
    assert dlg.panel.summary.text() == "문제 3개 때문에 사이트가 업데이트되지 않습니다."
    assert "다른 문서도" in dlg.panel.detail.text() or "모든" in dlg.panel.detail.text()
    messages = [
        m.text() for m in dlg.findChildren(type(dlg.panel.summary), "publishFindingMessage")
    ]
    assert "“<br>” 대신 “<br />”라고 써야 사이트가 만들어집니다." in messages
    assert any("블록을 쓰려던 것인가요?" in m for m in messages)
    assert dlg.save_fixed_button.isHidden() and dlg.anyway_button.isVisibleTo(dlg)
    _shots(dlg, qtbot, tmp_path, "publish-check", 560)

    fixes = _buttons(dlg.panel, "publishFindingFix")
    assert len(fixes) == 4  # <br>, {이름}, the comment, and the block name
    qtbot.mouseClick(fixes[0], Qt.MouseButton.LeftButton)  # the first breaker: <br>
    assert "<br />" in dlg.text and len(dlg.check_result.build_breakers) == 2
    assert dlg.save_fixed_button.isVisibleTo(dlg)

    qtbot.mouseClick(dlg.fix_all_button, Qt.MouseButton.LeftButton)
    assert not dlg.check_result.findings
    assert dlg.panel.summary.text() == "이 문서로 사이트를 문제없이 만들 수 있습니다."
    # fixed the way a person would: the plain word, the hidden note taken out
    assert "담당자는 이름 님입니다.\n\n:::hero\n" in dlg.text
    assert "{" not in dlg.text and "나중에 고칠 것" not in dlg.text
    assert not dlg.anyway_button.isVisibleTo(dlg)
    qtbot.mouseClick(dlg.save_fixed_button, Qt.MouseButton.LeftButton)
    assert dlg.choice is CheckChoice.SAVE_FIXED
    assert not check_text(dlg.text).findings


def test_save_anyway_needs_a_second_explicit_click_and_saves_the_text_as_typed(qtbot: Any) -> None:
    dlg = PublishCheckDialog(None, TEXT, check_text(TEXT))
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.mouseClick(dlg.anyway_button, Qt.MouseButton.LeftButton)
    assert dlg.isVisible() and dlg.warning.isVisible()
    assert "사이트가 업데이트되지 않습니다" in dlg.warning_text.text()
    qtbot.mouseClick(dlg.confirm_button, Qt.MouseButton.LeftButton)
    assert dlg.choice is CheckChoice.SAVE_ANYWAY and dlg.text == TEXT


@pytest.mark.parametrize("key", [Qt.Key.Key_Escape, Qt.Key.Key_Return])
def test_enter_and_esc_go_back_to_editing_and_change_nothing(qtbot: Any, key: Qt.Key) -> None:
    dlg = PublishCheckDialog(None, TEXT, check_text(TEXT))
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.mouseClick(_buttons(dlg.panel, "publishFindingFix")[0], Qt.MouseButton.LeftButton)
    dlg.back_button.setFocus()
    qtbot.keyClick(dlg, key)
    assert not dlg.isVisible()
    assert dlg.choice is CheckChoice.BACK


def test_the_fixed_text_goes_into_the_editor_as_one_undoable_step(qtbot: Any) -> None:
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    edit.setPlainText(TEXT)
    dlg = PublishCheckDialog(None, TEXT, check_text(TEXT))
    qtbot.addWidget(dlg)
    dlg.apply_all()
    replace_editor_text(edit, dlg.text)
    assert edit.toPlainText() == dlg.text
    edit.undo()
    assert edit.toPlainText() == TEXT


# ----- the failed-deploy notice --------------------------------------------------------------


def _stop(saved_by: str = "kim") -> SiteStop:
    failure = DeployFailure(
        7,
        "https://github.com/pnuai/PNU-Modu/actions/runs/7",
        "Build website",
        (
            "[ERROR] Client bundle compiled with errors therefore further build is impossible.",
            '╰─▶   × Error: MDX compilation failed for file "/home/runner/work/PNU-Modu/'
            'PNU-Modu/docs/03-strategy.md"',
            "        │ Cause: “<br>” must be written “<br />” or the site cannot be built.",
            "Process completed with exit code 1.",
        ),
    )
    page = BrokenPage(
        "docs/03-strategy.md",
        "03-strategy",
        "비전과 추진 전략",
        6,
        4,
        "“<br>” must be written “<br />” or the site cannot be built.",
        saved_by=saved_by,
        saved_at=NOW - 180,
        commit_sha="c" * 40,
    )
    return SiteStop(7, failure.run_url, (page,), failure)


NOW = 1_800_000_000.0


def test_the_breaker_is_told_which_line_and_may_fix_or_restore_after_confirming(
    qtbot: Any, tmp_path: Path
) -> None:
    notice = FailedDeployNotice()
    qtbot.addWidget(notice)
    stop = _stop()
    saved_text = FM + "줄바꿈<br>다음 줄\n"
    notice.show_stop(
        stop, login="kim", now=NOW, page=stop.pages[0], problems=check_text(saved_text).findings
    )
    assert "6번째 줄, 4번째 칸: “<br>” 대신 “<br />”라고 써야" in notice.problems.text()
    assert notice.title.text() == "게시 실패: 사이트가 업데이트되지 않았습니다"
    explain = notice.explain.text()
    assert "내가 저장한 “비전과 추진 전략” 문서의 6번째 줄 때문에" in explain
    assert "(3분 전)" in explain
    assert "MDX compilation failed" in notice.log.toPlainText() and not notice.log.isVisible()
    assert notice.fix_button.text() == "고치기" and notice.fix_button.isVisible()
    assert notice.restore_button.text() == "이전 버전으로 되돌리기"
    _shots(notice, qtbot, tmp_path, "failed-deploy", 300)
    asked: list[int] = []
    notice.restoreRequested.connect(lambda: asked.append(1))
    qtbot.mouseClick(notice.restore_button, Qt.MouseButton.LeftButton)
    assert not asked and notice.confirm.isVisible()
    assert "“비전과 추진 전략” 문서를" in notice.confirm_text.text()
    qtbot.mouseClick(notice.confirm_button, Qt.MouseButton.LeftButton)
    assert asked == [1]
    notice.restore_started()
    assert not notice.restore_button.isEnabled()
    notice.restore_done(True)
    assert "다시" in notice.status.text()


def test_a_bystander_is_told_the_text_is_saved_and_gets_no_undo(qtbot: Any) -> None:
    notice = FailedDeployNotice()
    qtbot.addWidget(notice)
    notice.show_stop(_stop(), login="lee", now=NOW)
    assert notice.title.text() == "게시가 멈춰 있습니다: 내 글은 저장되었습니다"
    explain = notice.explain.text()
    assert explain.startswith("내 글은 저장되었습니다.")
    assert "kim 님이" in explain and "(3분 전)에 저장한 “비전과 추진 전략” 문서" in explain
    assert not notice.restore_button.isVisibleTo(notice)
    assert not notice.fix_button.isVisibleTo(notice)
    assert notice.run_button.isVisibleTo(notice)


async def _wait_run(gh: GitHubClient, commit: str) -> Any:
    import asyncio

    for _ in range(300):
        runs = await gh.workflow_runs(commit)
        if runs and runs[0].status == "completed":
            return runs[0]
        await asyncio.sleep(0.02)
    raise AssertionError("no completed run")


def test_a_failed_sandbox_deploy_is_shown_and_restored_in_one_action(
    sandbox: Any, ui: Any, qtbot: Any, tmp_path: Path
) -> None:
    sandbox.workflow.queue_seconds, sandbox.workflow.run_seconds = 0.0, 0.05
    gh = GitHubClient(sandbox.api_url, "tok-editor1", REPO)
    store = DocumentStore(gh, BlobCache(tmp_path / "blobs"))
    doc = ui.run(store.load("03-strategy"))
    broken = doc.text + "\n\n줄바꿈<br>다음 줄\n"
    saved = ui.run(store.save(doc, broken, doc.sha, "editor1"))
    assert isinstance(saved, SaveResult) and saved.commit_sha
    broken_commit = saved.commit_sha
    run = ui.run(_wait_run(gh, broken_commit))
    assert run.conclusion == "failure"
    failure = ui.run(deploy_failure(gh, run))
    ui.run(store.refresh())
    history = DocHistory(gh, store)
    docs = store.snapshot.docs if store.snapshot is not None else ()
    pages = ui.run(broken_pages(failure, docs=docs, history=history, at=run.head_sha))
    assert [(p.doc_id, p.title, p.saved_by) for p in pages] == [
        ("03-strategy", "비전과 추진 전략", "editor1")
    ]

    notice = FailedDeployNotice()
    qtbot.addWidget(notice)
    notice.show_stop(SiteStop(run.id, run.html_url, pages, failure), login="editor1", now=NOW)
    notice.show_stop(
        SiteStop(run.id, run.html_url, pages, failure), login="editor1", now=NOW, page=pages[0]
    )
    assert "docs/03-strategy.md" in notice.log.toPlainText()
    results: list[Any] = []
    errors: list[str] = []
    ops = Operations(errors.append)  # the window's job runner, as the host uses it

    async def restore() -> SaveResult | SaveConflict | RestoreRefused:  # the host's job
        notice.restore_started()
        found = await version_before(history, broken_commit, doc.path)
        assert found is not None
        version, text = found

        async def lock_ok() -> Text | None:
            return None

        res = await restore_version(
            store, doc.path, version, text, saved.sha, "editor1", lock_ok=lock_ok
        )
        notice.restore_done(isinstance(res, SaveResult))
        return res

    notice.restoreRequested.connect(
        lambda: ops.run(restore(), name="restore", on_done=results.append)
    )
    qtbot.mouseClick(notice.restore_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(notice.confirm_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(results or errors), timeout=10000)
    assert errors == [] and not ops.tasks
    (res,) = results
    assert isinstance(res, SaveResult) and res.commit_sha
    assert sandbox.read_file(doc.path).decode("utf-8") == doc.text
    assert sandbox.commits()[0]["message"].startswith("docs(edit): restore 03-strategy.md to ")
    assert ui.run(_wait_run(gh, res.commit_sha)).conclusion == "success"
    ui.run(gh.aclose())


# ----- the history panel ---------------------------------------------------------------------


def test_history_panel_lists_diffs_and_restores_a_version(
    sandbox: Any, ui: Any, qtbot: Any, tmp_path: Path
) -> None:
    gh = GitHubClient(sandbox.api_url, "tok-editor1", REPO)
    store = DocumentStore(gh, BlobCache(tmp_path / "blobs"))
    doc = ui.run(store.load("03-strategy"))
    assert "label: Ethics" in doc.text
    edited = doc.text.replace("label: Ethics", "label: 윤리", 1) + "\n새로 넣은 문단입니다.\n"
    saved = ui.run(store.save(doc, edited, doc.sha, "editor1"))
    assert isinstance(saved, SaveResult)

    panel = HistoryPanel()
    qtbot.addWidget(panel)
    history = DocHistory(gh, store)
    ui.run(panel.load(history, doc.path, edited, title="전략"))
    assert panel.heading.text() == "“전략” 기록"
    assert panel.list.count() == 2
    first = panel.list.item(0).text()
    assert "(가장 최근 버전)" in first and "오늘 " in first
    assert "글을 고쳤습니다" in first and "editor1" in first
    assert not re.search(r"\b[0-9a-f]{7,40}\b", first) and "03-strategy" not in first
    qtbot.waitUntil(lambda: panel.selected is not None, timeout=10000)  # the older one
    assert panel.diff_title.text().startswith("왼쪽은 ")
    title = panel.diff_title.text()
    assert "오늘 " in title and "오른쪽은 지금 글입니다" in title
    # the two versions as the cards read them: a field by its label, no Markdown syntax
    changed = [(a, b) for row, a, b in panel.rows if row.kind == "changed"]
    assert [(a.text, b.text) for a, b in changed if a and b] == [("이름: Ethics", "이름: 윤리")]
    assert any(
        row.kind == "added" and b and b.text == "새로 넣은 문단입니다." for row, _a, b in panel.rows
    )
    shown = panel.diff.toPlainText()
    assert "지금 글" in shown and "이름: 윤리" in shown and "이름: Ethics" in shown
    for code in ("label:", ":::", "---", "theme:"):
        assert code not in shown, code
    panel.raw_toggle.setChecked(True)  # 원문 보기: the original texts, line against line
    raw = [(r.old, r.new) for r in panel.raw_rows if r.kind == "changed"]
    assert raw == [("  label: Ethics", "  label: 윤리")]
    assert "label: 윤리" in panel.diff.toPlainText()
    panel.raw_toggle.setChecked(False)
    assert panel.restore_button.isEnabled()
    _shots(panel, qtbot, tmp_path, "history", 520)

    got: list[tuple[Any, str]] = []
    panel.restoreRequested.connect(lambda v, t: got.append((v, t)))
    qtbot.mouseClick(panel.restore_button, Qt.MouseButton.LeftButton)
    assert not got and panel.confirm.isVisible()
    qtbot.mouseClick(panel.confirm_button, Qt.MouseButton.LeftButton)
    ((version, text),) = got
    assert text == doc.text

    async def lock_ok() -> Text | None:
        return None

    res = ui.run(
        restore_version(store, doc.path, version, text, saved.sha, "editor1", lock_ok=lock_ok)
    )
    assert isinstance(res, SaveResult)
    ui.run(panel.load(history, doc.path, text, title="전략"))
    assert panel.list.count() == 3
    newest = panel.list.item(0).text()
    assert f"{when(version)} 버전으로 되돌렸습니다" in newest and version.short_sha not in newest
    ui.run(gh.aclose())


# ----- the wiring helper ---------------------------------------------------------------------


def test_check_before_save_passes_a_clean_text_and_fixes_a_breaking_one(
    ui: Any, qtbot: Any
) -> None:
    from modu_desktop.ui.publish.publish_check_panel import check_before_save

    clean = FM + "본문 <br /> 입니다.\n"
    assert ui.run(check_before_save(None, clean, path="docs/a.md", repo_paths=None)) == clean

    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    edit.setPlainText(TEXT)
    task = ui.start(check_before_save(None, TEXT, path="docs/a.md", repo_paths=None, editor=edit))
    dlg = ui.dialog("publishCheckDialog")
    qtbot.mouseClick(dlg.fix_all_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dlg.save_fixed_button, Qt.MouseButton.LeftButton)
    saved = ui.wait_task(task)
    assert saved == edit.toPlainText() and not check_text(saved).breaks_build
    edit.undo()
    assert edit.toPlainText() == TEXT  # one undoable step


def test_a_new_surprise_is_asked_about_once_and_saves_as_written_by_default(
    ui: Any, qtbot: Any
) -> None:
    from modu_desktop.ui.publish.publish_check_panel import check_before_save

    before = FM + "안내입니다.\n"
    text = before + "\n인원은 10~20명, 기간은 3~5일입니다.\n"
    task = ui.start(check_before_save(None, text, path="docs/a.md", repo_paths=None, before=before))
    dlg = ui.dialog("publishCheckDialog")
    assert dlg.panel.summary.text().startswith("사이트는 문제없이 만들어지지만, 1곳이")
    (place,) = [w.text() for w in dlg.panel.findChildren(QLabel, "publishFindingPlace")]
    assert place.startswith("다르게 보일 수 있음")
    assert dlg.anyway_button.text() == "쓴 그대로 저장" and dlg.anyway_button.isDefault()
    qtbot.keyClick(dlg, Qt.Key.Key_Return)  # the default keeps the text as written
    assert ui.wait_task(task) == text
    # saved once with the surprise kept: the next save does not ask again
    assert ui.run(check_before_save(None, text, path="docs/a.md", repo_paths=None, before=text))


def test_show_goes_back_to_editing_at_the_problem(ui: Any, qtbot: Any) -> None:
    from modu_desktop.ui.publish.publish_check_panel import check_before_save

    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    edit.setPlainText(TEXT)
    task = ui.start(check_before_save(None, TEXT, path="docs/a.md", repo_paths=None, editor=edit))
    dlg = ui.dialog("publishCheckDialog")
    qtbot.mouseClick(_buttons(dlg.panel, "publishFindingShow")[0], Qt.MouseButton.LeftButton)
    assert ui.wait_task(task) is None
    cursor = edit.textCursor()
    assert (cursor.blockNumber() + 1, cursor.positionInBlock() + 1) == (8, 7)  # the <br>
    assert edit.toPlainText() == TEXT
