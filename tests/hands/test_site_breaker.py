"""The one who broke the site is told why, by hand: 김민지 (kim) writes a line the site cannot
build in 원문 편집 and saves it with 그래도 저장; her window lets the lock go for idleness before
the build fails, and still shows her the red panel — her page, its line, 고치기, 되돌리기 — and
the ✖ in the list, as soon as the build has failed. 이준호 (lee), on his own computer, saves
his page and is told that publishing waits for hers, by her name. kim quits and starts the app
again on a small screen: the red panel is there at once, above the list.

Each person has an X screen of their own, as two people have two computers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from modu_desktop.sandbox import Sandbox, SandboxUser
from tests.helpers.hands import Account, HandsApp, XScreen, running

pytestmark = pytest.mark.hands

DOC, TITLE = "03-strategy", "비전과 추진 전략"
LEE_DOC = "05-sandbox-notes"
BROKEN = "줄바꿈<br>다음 줄 {이름}"


@pytest.fixture(scope="module")
def people_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    sb = Sandbox(
        tmp_path_factory.mktemp("breaker") / "repo",
        users=[
            SandboxUser("kim", "tok-kim", name="김민지"),
            SandboxUser("lee", "tok-lee", name="이준호"),
        ],
        seed="sample",
        deploy_queue_seconds=3600.0,  # a build starts when the test says so
        deploy_run_seconds=0.5,
    ).start()
    try:
        yield sb
    finally:
        sb.stop()


def _shown(app: HandsApp, name: str) -> str:
    found = app.probe.widgets(name=name)
    return str(found[0]["text"]) if found else ""


def _list_row(app: HandsApp, title: str) -> list[str]:
    for row in app.probe.ask("rows", name="docList")["rows"]:
        if any(title in t for t in row["texts"]):
            return list(row["texts"])
    raise LookupError(title)


def _caret_line(app: HandsApp) -> int:
    box = app.probe.text(name="editor")
    return int(box["text"][: box["cursor"]].count("\n")) + 1


def _red_panel_for_kim(app: HandsApp, line: int) -> None:
    app.wait(lambda: app.probe.widgets(name="failedDeployNotice"), 60, "the red panel")
    title = _shown(app, "failedDeployTitle")
    assert title == "게시 실패: 사이트가 업데이트되지 않았습니다", title
    explain = _shown(app, "failedDeployExplain")
    assert f"내가 저장한 “{TITLE}” 문서의 {line}번째 줄 때문에" in explain, explain
    assert app.probe.widgets(name="fixPageButton", text="고치기")
    assert app.probe.widgets(name="restorePreviousButton", text="이전 버전으로 되돌리기")
    app.wait(lambda: any(f"✖ {TITLE}" in t for t in _list_row(app, TITLE)), 20, "the list's ✖")
    assert "확인 중" not in _shown(app, "statusDeploy")


def test_the_breaker_is_told_why_and_the_bystander_whose_page_it_is(
    screen: XScreen,
    other_screen: XScreen,
    x_screens: Callable[[int, int], XScreen],
    people_sandbox: Sandbox,
    tmp_path: Path,
) -> None:
    sb = people_sandbox
    kim_data = tmp_path / "kim"
    args = ("--open", DOC, "--idle-release-minutes", "0.05")  # the lock goes after 3 s
    with running(HandsApp(screen, sb.api_url, kim_data, Account("kim", "tok-kim"), *args)) as kim:
        kim.wait(lambda: kim.probe.document().get("open"), 60, "kim's page")
        kim.click(name="rawEditorToggle")
        kim.wait(lambda: kim.probe.document()["view"] == "raw", 10, "원문 편집")
        kim.click(name="editor")
        screen.key("ctrl+End")
        screen.type(f"\n\n{BROKEN}\n")
        kim.wait(lambda: BROKEN in kim.probe.document()["text"], 10, "the line typed")
        line = kim.probe.document()["text"].split("\n").index(BROKEN) + 1
        screen.key("ctrl+s")
        kim.click(name="saveAnywayButton")
        kim.click(name="confirmSaveAnywayButton")
        kim.wait(lambda: BROKEN in (sb.read_file(f"docs/{DOC}.md") or b"").decode(), 20, "saved")
        kim.wait(lambda: "입력이 없어서" in _shown(kim, "statusLock"), 30, "the lock let go")
        assert not any("나 (이 창)" in t for t in _list_row(kim, TITLE))  # as the status bar says
        sb.workflow.queue_seconds = 0.0  # the build runs now, and fails on kim's line
        _red_panel_for_kim(kim, line)
        screen.screenshot("breaker-red-panel-1600")

        lee_app = HandsApp(
            other_screen, sb.api_url, tmp_path / "lee", Account("lee", "tok-lee"), "--open", LEE_DOC
        )
        with running(lee_app) as lee:
            lee.wait(lambda: lee.probe.widgets(name="failedDeployNotice"), 60, "lee's panel")
            assert (
                _shown(lee, "failedDeployTitle") == "게시가 멈춰 있습니다: 내 글은 저장되었습니다"
            )
            assert "김민지(kim) 님이" in _shown(lee, "failedDeployExplain")
            assert not lee.probe.widgets(name="fixPageButton")  # nothing to undo his work
            other_screen.screenshot("bystander-amber-panel-1600")

        kim.click(name="fixPageButton")  # 고치기: the caret on the broken line
        kim.wait(lambda: _caret_line(kim) == line, 10, "the caret on the broken line")

    small = x_screens(800, 600)
    with running(HandsApp(small, sb.api_url, kim_data, Account("kim", "tok-kim"))) as again:
        _red_panel_for_kim(again, line)  # at once, above the list
        small.screenshot("breaker-red-panel-after-restart-800")
