"""``docs replace`` and ``images rename`` on the same core as the window: one commit, pages
someone else is editing left out and listed (exit 1), a dry run that sends nothing, JSON with
codes and both languages; ``--lang ko`` before the command reaches the admin CLI, and its own
lines speak Korean."""

from __future__ import annotations

import json
from typing import Any

import pytest

from modu_desktop.__main__ import command_word
from modu_desktop.__main__ import main as entry_main
from modu_desktop.cli import main
from tests.helpers.cli import cli_args, lock_as
from tests.helpers.many_pages import YEAR_PAGES, add_pages, text_of

SUBJECT = "docs(edit): replace “2025학년도” → “2026학년도” in {n} pages by @editor1"


def _replace_commits(sb: Any) -> list[str]:
    return [c["message"] for c in sb.commits() if "replace “2025학년도”" in c["message"]]


def test_replace_changes_every_page_in_one_commit(
    cli_env: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    sb = cli_env
    add_pages(sb, YEAR_PAGES)
    assert main(["--lang", "ko", *cli_args(sb, "docs", "replace", "2025학년도", "2026학년도")]) == 0
    out = capsys.readouterr().out
    assert "학사 일정 (docs/12-calendar.md)\n" in out  # each page by its title, its file after
    assert "[2025학년도] 1학기 → [2026학년도] 1학기" in out
    assert "3개 문서에서 ‘2025학년도’ → ‘2026학년도’: 한 번에 저장했습니다. (commit " in out
    (message,) = _replace_commits(sb)
    assert message.splitlines()[0] == SUBJECT.format(n=3)
    assert text_of(sb, "docs/11-scholarship.md") == YEAR_PAGES["docs/11-scholarship.md"].replace(
        "2025", "2026"
    )


def test_a_page_someone_is_editing_is_left_out_listed_and_exit_1(
    cli_env: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    sb = cli_env
    add_pages(sb, YEAR_PAGES)
    lock_as(sb, "editor2", "10-guide")
    assert main(cli_args(sb, "docs", "replace", "2025학년도", "2026학년도", "--json")) == 1
    body = json.loads(capsys.readouterr().out)
    assert body["state"] == "committed" and body["commit"]
    assert sorted(p["title"] for p in body["changed"]) == ["장학금", "학사 일정"]
    (left,) = body["leftOut"]
    assert (left["docId"], left["reason"], left["holder"]) == ("10-guide", "held", "editor2")
    assert "입학 안내" in left["messageKo"] and "editor2" in left["message"]
    assert text_of(sb, "docs/10-guide.md") == YEAR_PAGES["docs/10-guide.md"]
    (message,) = _replace_commits(sb)
    assert message.splitlines()[0] == SUBJECT.format(n=2)


def test_dry_run_and_pages_send_nothing_or_only_those(
    cli_env: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    sb = cli_env
    add_pages(sb, YEAR_PAGES)
    before = sb.commits()[0]["sha"]
    args = ("docs", "replace", "2025학년도", "2026학년도", "--page", "12-calendar")
    assert main(cli_args(sb, *args, "--dry-run")) == 0
    out = capsys.readouterr().out
    assert "Would change 1 page(s) in one commit; nothing was sent." in out
    assert "입학 안내" not in out and sb.commits()[0]["sha"] == before
    assert main(cli_args(sb, *args)) == 0
    capsys.readouterr()
    (message,) = _replace_commits(sb)
    assert message.splitlines()[0] == SUBJECT.format(n=1).replace("1 pages", "1 page")
    assert text_of(sb, "docs/10-guide.md") == YEAR_PAGES["docs/10-guide.md"]
    assert main(cli_args(sb, "docs", "replace", "없는말", "x")) == 1
    assert capsys.readouterr().err == "error: No page has “없는말”.\n"
    assert main(cli_args(sb, "docs", "replace", "a", "b", "--page", "no-such-page")) == 1
    assert "There is no page no-such-page." in capsys.readouterr().err


def test_images_rename_moves_the_picture_and_its_references_in_one_commit(
    cli_env: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    sb = cli_env
    old = "static/img/sample-photo.png"
    assert main(["--lang", "ko", *cli_args(sb, "images", "rename", old, "Campus Photo")]) == 0
    out = capsys.readouterr().out
    assert "그림 이름 sample-photo.png → campus-photo.png (1개 문서): 한 번에 저장했습니다." in out
    assert "  모집 안내와 현황 (docs/04-admission.md)\n" in out
    assert sb.read_file(old) is None and sb.read_file("static/img/campus-photo.png")
    assert "](/img/campus-photo.png)" in (text_of(sb, "docs/04-admission.md") or "")
    # a name that is taken, and a picture that is not there: refused, nothing sent
    before = sb.commits()[0]["sha"]
    taken = cli_args(sb, "images", "rename", "static/img/campus-photo.png", "modu-logo.png")
    assert main(taken) == 1
    assert capsys.readouterr().err == "error: There is already a file named modu-logo.png.\n"
    assert main(cli_args(sb, "images", "rename", old, "x.png")) == 1
    assert "There is no picture static/img/sample-photo.png." in capsys.readouterr().err
    assert sb.commits()[0]["sha"] == before


def test_images_rename_stops_whole_when_a_page_naming_it_is_being_edited(
    cli_env: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    sb = cli_env
    lock_as(sb, "editor2", "04-admission")
    old = "static/img/sample-photo.png"
    assert main(cli_args(sb, "images", "rename", old, "campus.png", "--json")) == 1
    body = json.loads(capsys.readouterr().out)
    assert body["state"] == "stopped" and body["commit"] is None
    (left,) = body["leftOut"]
    assert left["holder"] == "editor2" and left["title"] == "모집 안내와 현황"
    assert sb.read_file(old) is not None


def test_lang_before_the_command_reaches_the_admin_cli(
    cli_env: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert command_word(["--lang", "ko", "docs", "list"]) == "docs"
    assert command_word(["--lang=ko", "locks", "list"]) == "locks"
    assert command_word(["--lang", "ko"]) is None
    assert entry_main(["--lang", "ko", *cli_args(cli_env, "docs", "list")]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1].startswith("문서 6개")  # the summary in Korean
    assert entry_main(cli_args(cli_env, "docs", "list", "--lang", "ko")) == 0  # after it too
    assert capsys.readouterr().out.rstrip().splitlines()[-1].startswith("문서 6개")


def test_restore_speaks_korean_and_names_the_page(
    cli_env: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    sb = cli_env
    assert main(["--lang", "ko", *cli_args(sb, "docs", "restore", "01-welcome", "xyz")]) == 1
    assert capsys.readouterr().err == "error: SHA는 7자 이상의 16진수여야 합니다.\n"
    assert main(["--lang", "ko", *cli_args(sb, "docs", "restore", "01-welcome", "abcdef0")]) == 1
    err = capsys.readouterr().err
    assert "“모두 연습 브로슈어에 오신 것을 환영합니다”" in err and "abcdef0" in err
