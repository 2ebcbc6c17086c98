"""The Help menu on a signed-in window: guide, shortcuts, problem report, new version, About;
the crash dialog; the token-expiry warning."""

from __future__ import annotations

import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtWidgets import QMenu, QPushButton

from modu_desktop import __version__, i18n
from modu_desktop.core.support.logfile import LOG_NAME
from modu_desktop.sandbox import SandboxUser

TOKEN = "ghp_" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8"


@pytest.fixture
def korean() -> Any:
    i18n.set_language("ko")
    yield
    i18n.set_language("en")


def test_help_is_the_last_menu_with_its_five_items(make_window: Any, korean: Any) -> None:
    win = make_window()
    menus = [a.menu() for a in win.menuBar().actions() if isinstance(a.menu(), QMenu)]
    titles = [m.title() for m in menus]
    assert titles[-1] == "도움말(&H)"
    assert "보기(&V)" in titles
    items = [a.text() for a in menus[-1].actions() if not a.isSeparator()]
    assert items == [
        "사용 안내(&U)",
        "단축키(&K)",
        "문제 보고(&R)…",
        "새 버전 확인(&N)…",
        "정보(&A)",
    ]


def test_guide_speaks_korean_and_covers_practice_mode(
    make_window: Any, korean: Any, ui: Any
) -> None:
    win = make_window()
    win.help_menu.guide_action.trigger()
    dlg = ui.dialog("guideDialog")
    text = dlg.browser.toPlainText()
    assert "연습 모드" in text and "문제 보고" in text and "글자 크게" in text
    assert dlg.width() <= win.width() and dlg.height() <= win.height()
    dlg.reject()


def test_shortcuts_page_lists_every_shortcut_per_platform(make_window: Any, ui: Any) -> None:
    from PySide6.QtGui import QAction

    from modu_desktop.ui.help.shortcuts_page import shortcut_rows
    from modu_desktop.ui.kit.shortcuts import TABLE

    win = make_window()
    named = {
        a.property("shortcutName")
        for a in win.findChildren(QAction)
        if a.shortcuts() and a.property("shortcutName")
    }
    unnamed = [
        a.text()
        for a in win.findChildren(QAction)
        if a.shortcuts() and not a.property("shortcutName")
    ]
    assert not unnamed  # every shortcut comes from the one table
    rows = {r[0]: r for r in shortcut_rows(win)}
    raw = win.editor_pane.raw_toggle  # a button with a key of its own
    assert raw.property("shortcutName") not in named
    assert len(rows) == len(named) + 1
    assert rows["Edit original text"][1:] == ("Ctrl+Shift+E", "Ctrl+Shift+E", "⇧⌘E")
    replace = rows["Replace"]
    assert replace[2] == "Ctrl+H" and replace[3] == "⌥⌘F"  # never ⌘H: that hides the app
    assert rows["Find next"][3] == "⌘G" and rows["Refresh list"][3] == "⌘R"
    assert win.act_replace.shortcuts() and "Ctrl+H" in replace[1]  # this computer: live keys
    assert set(TABLE) >= named
    win.help_menu.shortcuts_action.trigger()
    dlg = ui.dialog("shortcutsDialog")
    shown = [dlg.table.item(r, 0).text() for r in range(dlg.table.rowCount())]
    assert shown[: len(rows)] == list(rows)
    # the page editor's own keys follow, under their heading
    assert shown[len(rows)] == "On the page (in a card)"
    assert {"Bold (in a text box)", "Link (in a text box)", "Move the card up"} <= set(shown)
    dlg.reject()


def test_no_window_key_means_something_else_in_a_text_box(make_window: Any) -> None:
    """Ctrl+K was Go → Filter and, in a text box, Link: one key, two meanings."""
    from PySide6.QtGui import QAction, QKeySequence

    from modu_desktop.ui.kit.shortcuts import PAGE_EDITOR

    win = make_window()
    window_keys = {
        k.toString(QKeySequence.SequenceFormat.PortableText)
        for a in win.findChildren(QAction)
        for k in a.shortcuts()
    }
    in_a_text_box = {"bold", "italic", "strike", "link", "indent", "outdent", "lineBreak"}
    clashes = {name for name in in_a_text_box if PAGE_EDITOR[name].keys in window_keys}
    assert not clashes
    assert "Ctrl+Shift+L" in window_keys  # Go → Filter


def test_guide_describes_the_card_page_editor(make_window: Any, korean: Any, ui: Any) -> None:
    win = make_window()
    win.help_menu.guide_action.trigger()
    dlg = ui.dialog("guideDialog")
    text = dlg.browser.toPlainText()
    for words in ("카드", "글 상자", "큰 제목", "＋", "그림", "원문 편집", "페이지 설정"):
        assert words in text, words
    assert "가운데" not in text  # the old raw editor "in the middle"
    dlg.reject()


def test_this_computers_keys_are_keys_on_the_keyboard(make_window: Any) -> None:
    """Qt also binds keyboards' special keys (New, Save, Zoom In, a Sun keyboard's F14 for
    Undo); shown beside the shortcut they read like a second shortcut ("Ctrl+S, 저장")."""
    import re

    from modu_desktop.ui.help.shortcuts_page import shortcut_rows
    from modu_desktop.ui.kit.shortcuts import keys_text

    win = make_window()
    for label, here, _windows, _macos in shortcut_rows(win):
        for key in here.split(", "):
            assert "+" in key or re.fullmatch(r"F([1-9]|1[0-2])", key), (label, here)
    assert keys_text("new").split(", ")[0] in ("Ctrl+N", "⌘N")
    assert "New" not in keys_text("new")
    assert len(keys_text("zoomIn").split(", ")) == 2  # Ctrl++ and Ctrl+=, no "Zoom In"


@pytest.mark.timeout(180)
def test_problem_report_has_no_token_and_no_home_folder(
    make_window: Any, ui: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from modu_desktop.ui.help import report

    opened: list[Path] = []

    def open_folder(folder: Path) -> bool:
        opened.append(folder)
        return True

    monkeypatch.setattr(report, "open_folder", open_folder)
    win = make_window()
    logs = win.ctx.paths.logs
    logs.mkdir(parents=True, exist_ok=True)
    home = str(Path.home())
    (logs / LOG_NAME).write_text(
        f"INFO x: request with Authorization: Bearer {TOKEN}\n"
        f"INFO x: token in the open {TOKEN}\n"
        f"INFO x: draft in {home}/Documents/kim/draft.md\n"
        "INFO x: the sandbox token tok-editor1 in a message\n",
        "utf-8",
    )
    win.help_menu.report_action.trigger()
    done = ui.dialog("reportDoneDialog", timeout=120_000)
    path = win.help_menu.last_report
    assert path is not None and path.parent == win.ctx.paths.reports
    assert opened == [win.ctx.paths.reports]  # the folder is opened for the user
    assert path.name in done.text()
    with zipfile.ZipFile(path) as z:
        blob = "\n".join(z.read(n).decode("utf-8") for n in z.namelist())
        names = z.namelist()
    assert f"logs/{LOG_NAME}" in names and "self-test.txt" in names
    assert TOKEN not in blob and "tok-editor1" not in blob  # the signed-in token, by value
    assert home not in blob and "~/Documents/kim/draft.md" in blob
    assert f"Modu Desktop: {__version__}" in blob
    assert "qt:" in blob and "lock:" in blob  # the real self-test ran
    done.reject()


def _release(sandbox: Any, tag: str) -> None:
    with httpx.Client(
        base_url=sandbox.api_url, headers={"Authorization": "Bearer tok-editor1"}
    ) as c:
        assert c.post("/repos/pnuai/PNU-Modu/releases", json={"tag_name": tag}).status_code == 201


def test_new_version_check_says_what_it_found(make_window: Any, ui: Any, sandbox: Any) -> None:
    win = make_window()
    win.ctx.settings.extra.update(releases_api_url=sandbox.api_url, releases_repo="pnuai/PNU-Modu")
    win.help_menu.check_updates()
    box = ui.dialog("updateDialog")
    assert "newest version" in box.text()  # no release yet: nothing newer
    box.reject()
    _release(sandbox, "v99.0.0")
    win.help_menu.check_updates()
    box = ui.dialog("updateDialog")
    ui.qtbot.waitUntil(lambda: "99.0.0" in box.text())
    assert box.findChild(QPushButton, "openDownloadButton") is not None
    check = box.checkBox()
    check.setChecked(False)  # the setting that turns the start-up check off
    assert win.ctx.settings.check_updates is False
    assert '"check_updates": false' in win.ctx.paths.settings_file.read_text("utf-8")
    box.reject()
    assert not win.help_menu.updates.start_background(0)  # off now


def test_background_check_is_quiet_unless_newer(
    make_window: Any, ui: Any, sandbox: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MODU_NO_UPDATE_CHECK", raising=False)
    win = make_window()
    win.ctx.settings.extra.update(releases_api_url=sandbox.api_url, releases_repo="pnuai/PNU-Modu")
    _release(sandbox, "v99.1.0")
    assert win.help_menu.updates.start_background(0)
    ui.qtbot.waitUntil(lambda: win.help_menu.updates.last is not None, timeout=10_000)
    assert "99.1.0" in win.notice.label.text() and win.notice.isVisible()
    assert ui.no_dialog("updateDialog")


@pytest.mark.expect_log("unexpected error")
def test_crash_keeps_the_text_and_points_to_the_report(make_window: Any, ui: Any) -> None:
    from modu_desktop.core.saving.drafts import DraftStore
    from modu_desktop.ui.help.crash import install_crash_handler

    win = make_window()
    assert ui.run(win.open_document("01-welcome"))
    win.editor_pane.editor.insertPlainText("잃으면 안 되는 문장")
    restore = install_crash_handler(lambda: win)
    try:
        try:
            raise RuntimeError("a bug")
        except RuntimeError as exc:
            sys.excepthook(type(exc), exc, exc.__traceback__)
        box = ui.dialog("crashDialog")
        drafts = DraftStore(win.ctx.paths.drafts_dir).list()
        assert any("잃으면 안 되는 문장" in d.text for d in drafts)
        assert box.defaultButton().objectName() == "crashContinueButton"
        sys.excepthook(RuntimeError, RuntimeError("again"), None)  # still one dialog
        from PySide6.QtWidgets import QApplication

        shown = [w for w in QApplication.topLevelWidgets() if w.objectName() == "crashDialog"]
        assert len([w for w in shown if w.isVisible()]) == 1
        box.reject()
    finally:
        restore()


def test_token_expiry_is_announced_a_week_ahead(make_window: Any, sandbox: Any) -> None:
    sandbox.users.append(SandboxUser("kim", "tok-kim", expires_at=time.time() + 3 * 86400 + 60))
    win = make_window("kim", "tok-kim")
    text = win.notice.label.text()
    assert win.notice.isVisible() and "expires in 3 days" in text and "Sign out" in text
    lee = make_window("editor2", "tok-editor2")
    assert "expires" not in lee.notice.label.text()
