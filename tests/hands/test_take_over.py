"""A take-over seen from both sides, by hand, and 지금 편집하기. 김민지 (kim) is typing in a page;
이준호 (lee), on his own computer, opens it: the question names her as people call her, and he
takes editing over. kim's window says so within seconds (lee named the same way), her text
stays on screen, and she asks to be told when the page is free. lee closes it: kim's notice
says the page is free and offers 지금 편집하기 — one click, and she is editing again with the
sentence she had not saved. On a small screen, a page opened read-only offers 편집 권한 가져오기,
which asks the question asked at opening."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from modu_desktop.sandbox import Sandbox, SandboxUser
from tests.helpers.hands import Account, HandsApp, XScreen, running

pytestmark = pytest.mark.hands

DOC, TITLE = "02-programs", "교육 프로그램과 추진 일정"
MINE = " 김이 쓰다 만 문장"


@pytest.fixture(scope="module")
def people_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    sb = Sandbox(
        tmp_path_factory.mktemp("take-over") / "repo",
        users=[
            SandboxUser("kim", "tok-kim", name="김민지"),
            SandboxUser("lee", "tok-lee", name="이준호"),
        ],
        seed="sample",
        deploy_queue_seconds=3600.0,
    ).start()
    try:
        yield sb
    finally:
        sb.stop()


def _text(app: HandsApp, name: str) -> str:
    found = app.probe.widgets(name=name)
    return str(found[0]["text"]) if found else ""


def test_taken_over_then_edit_now_brings_the_unsaved_text_back(
    screen: XScreen, other_screen: XScreen, people_sandbox: Sandbox, tmp_path: Path
) -> None:
    sb = people_sandbox
    kim_app = HandsApp(
        screen, sb.api_url, tmp_path / "kim", Account("kim", "tok-kim"), "--open", DOC
    )
    with running(kim_app) as kim:
        kim.wait(lambda: kim.probe.document().get("open"), 60, "kim's page")
        kim.click(name="rawEditorToggle")
        kim.wait(lambda: kim.probe.document()["view"] == "raw", 10, "원문 편집")
        kim.click(name="editor")
        screen.key("ctrl+End")
        screen.type(MINE)
        kim.wait(lambda: MINE in kim.probe.document()["text"], 10, "kim's sentence")

        lee_app = HandsApp(
            other_screen, sb.api_url, tmp_path / "lee", Account("lee", "tok-lee"), "--open", DOC
        )
        with running(lee_app) as lee:
            head = lee.wait(lambda: _text(lee, "lockDialogHeadline"), 60, "the lock question")
            assert "김민지(kim) 님이" in head, head
            other_screen.screenshot("lock-question-names-kim-1600")
            lee.click(name="stealButton")
            lee.click(name="confirmStealButton")
            lee.wait(lambda: lee.probe.document().get("read_only") is False, 30, "lee editing")

            banner = kim.wait(
                lambda: (
                    "이준호(lee) 님이" in _text(kim, "lockBannerText")
                    and _text(kim, "lockBannerText")
                ),
                30,
                "kim told, by name",
            )
            assert "읽기 전용" in banner, banner
            assert kim.probe.document()["read_only"] and MINE in kim.probe.document()["text"]
            assert kim.probe.widgets(name="takeEditingButton", text="편집 권한 가져오기")
            row = next(
                r["texts"]
                for r in kim.probe.ask("rows", name="docList")["rows"]
                if TITLE in r["texts"]
            )
            assert any(t.startswith("이준호(lee) · ") for t in row), row  # the list agrees
            screen.screenshot("taken-over-banner-1600")
            kim.click(name="lostNotifyFreeButton")
            kim.wait(lambda: "알려 드립니다" in _text(kim, "noticeBarText"), 10, "the promise")
        # lee has quit: his lock is released

        notice = kim.wait(
            lambda: (
                "편집할 수 있습니다" in _text(kim, "noticeBarText") and _text(kim, "noticeBarText")
            ),
            40,
            "the page is free",
        )
        assert TITLE in notice
        kim.wait(lambda: kim.probe.widgets(name="editNowButton", text="지금 편집하기"), 10, "offer")
        screen.screenshot("edit-now-notice-1600")
        kim.click(name="editNowButton")
        kim.wait(lambda: kim.probe.document()["read_only"] is False, 30, "kim editing again")
        assert MINE in kim.probe.document()["text"]
        assert not kim.probe.widgets(name="lockBanner")
        kim.click(name="editor")
        screen.key("ctrl+End")
        screen.type("을 마저 씁니다.")
        kim.wait(lambda: MINE + "을 마저 씁니다." in kim.probe.document()["text"], 10, "typing")


def test_a_read_only_page_offers_to_take_editing_on_a_small_screen(
    x_screens: Callable[[int, int], XScreen],
    other_screen: XScreen,
    people_sandbox: Sandbox,
    tmp_path: Path,
) -> None:
    sb = people_sandbox
    small = x_screens(800, 600)
    lee_app = HandsApp(
        other_screen, sb.api_url, tmp_path / "lee", Account("lee", "tok-lee"), "--open", DOC
    )
    with running(lee_app) as lee:
        lee.wait(lambda: lee.probe.document().get("read_only") is False, 60, "lee editing")
        kim_app = HandsApp(
            small, sb.api_url, tmp_path / "kim", Account("kim", "tok-kim"), "--open", DOC
        )
        with running(kim_app) as kim:
            kim.wait(lambda: _text(kim, "lockDialogHeadline"), 60, "the lock question")
            kim.click(name="readOnlyButton")
            kim.wait(
                lambda: "이준호(lee) 님이" in _text(kim, "readOnlyBannerText"), 30, "read-only"
            )
            take = kim.wait(
                lambda: kim.probe.widgets(name="takeEditingButton", text="편집 권한 가져오기"),
                10,
                "편집 권한 가져오기",
            )
            small.screenshot("read-only-banner-take-editing-800")
            small.click_rect(take[0]["rect"])
            head = kim.wait(lambda: _text(kim, "lockDialogHeadline"), 20, "the same question")
            assert "이준호(lee) 님이" in head
            small.screenshot("take-editing-question-800")
            kim.click(name="cancelButton")
            kim.wait(lambda: not kim.probe.widgets(name="lockDialog"), 10, "the question gone")
            assert kim.probe.document()["read_only"]  # left to lee: nothing changed
