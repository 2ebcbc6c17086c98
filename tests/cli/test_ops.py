"""Admin CLI ops commands (docs new/delete/move/import) against the sandbox."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.cli import commands as cli
from modu_desktop.cli.commands import build_parser, main
from modu_desktop.core.brochure import frontmatter
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.locks.manager import LockManager
from tests.helpers.cli import cli_args, lock_as

REPO = RepoRef("pnuai", "PNU-Modu", "main")


def msgs(sb: Any, n: int) -> list[str]:
    return [c["message"].strip() for c in sb.commits()[:n]]


def test_parser_has_the_commands_and_cli_keeps_its_own() -> None:
    p = build_parser()
    ns = p.parse_args(["docs", "move", "01-welcome", "up"])
    assert ns.direction == "up" and callable(ns.run)
    ns = p.parse_args(["docs", "list"])
    assert ns.run is cli._docs_list
    assert p.parse_args(["images", "add", "x.png"]).file == "x.png"


def test_docs_new(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    code = main(
        cli_args(
            sb,
            "docs",
            "new",
            "--id",
            "bootcamp",
            "--title",
            "부트캠프",
            "--position",
            "6",
            "--theme",
            "ocean-cyan",
            "--layout",
            "slim",
            "--nav-label",
            "캠프",
            "--template",
        )
    )
    assert code == 0
    out = capsys.readouterr().out
    # the page by its title, then what the admin types next: the file and the commit
    assert out.startswith(
        "Created “부트캠프”; it is not published yet. (docs/06-bootcamp.md, commit "
    )
    fm = frontmatter.parse(sb.read_file("docs/06-bootcamp.md").decode())
    assert fm.get("draft") == "true"  # not published by default, like the app's new pages
    assert (
        fm.get("id"),
        fm.get("title"),
        fm.get_int("sidebar_position"),
        fm.get("nav_label"),
        fm.get("theme"),
        fm.get("layout"),
    ) == ("bootcamp", "부트캠프", 6, "캠프", "ocean-cyan", "slim")
    assert ":::hero" in fm.body
    assert msgs(sb, 3) == [
        "system: release lock for 06-bootcamp [skip ci]",
        "feat(docs): create 06-bootcamp.md by @editor1",
        "system: acquire lock for 06-bootcamp by @editor1 [skip ci]",
    ]
    # without --position a new page goes after the last one (the sample's is 99), and moves
    assert main(cli_args(sb, "docs", "new", "--id", "faq", "--title", "FAQ", "--json")) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["path"] == "docs/100-faq.md" and data["code"] == "created"
    assert (
        frontmatter.parse(sb.read_file("docs/100-faq.md").decode()).get_int("sidebar_position")
        == 100
    )
    assert main(cli_args(sb, "docs", "move", "100-faq", "up")) == 0
    assert "Swapped “FAQ”" in capsys.readouterr().out
    assert main(cli_args(sb, "docs", "new", "--id", "now", "--title", "바로", "--publish")) == 0
    assert capsys.readouterr().out.startswith("Created “바로”. (docs/101-now.md, commit ")
    assert "draft" not in sb.read_file("docs/101-now.md").decode()


def test_docs_publish_takes_the_draft_line_out_in_one_save(
    cli_env: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    sb = cli_env
    assert (
        main(cli_args(sb, "docs", "new", "--id", "camp", "--title", "캠프", "--position", "8")) == 0
    )
    before = sb.read_file("docs/08-camp.md").decode()
    assert "\ndraft: true\n" in before
    assert main(cli_args(sb, "docs", "list", "--json")) == 0
    listed = {d["docId"]: d for d in json.loads(capsys.readouterr().out.split("\n", 1)[1])}
    assert listed["08-camp"]["published"] is False and listed["01-welcome"]["published"]

    async def as_editor2(step: str, held: Any = None) -> Any:
        async with GitHubClient(sb.api_url, "tok-editor2", REPO) as c:
            await c.get_user()
            mgr = LockManager(c, "editor2", "s-test", c.clock, install_id="h")
            if step == "acquire":
                return (await mgr.acquire("08-camp")).held
            return await mgr.release(held)

    held = asyncio.run(as_editor2("acquire"))
    assert main(cli_args(sb, "docs", "publish", "08-camp")) == 1  # someone edits it
    assert "@editor2 is editing “캠프”" in capsys.readouterr().err
    asyncio.run(as_editor2("release", held))
    assert main(cli_args(sb, "docs", "publish", "08-camp")) == 0
    out = capsys.readouterr().out
    assert out.startswith("Published “캠프”: the site shows it after its next build. (docs/08-camp")
    after = sb.read_file("docs/08-camp.md").decode()
    assert after == before.replace("draft: true\n", "")  # one line out, nothing else
    assert msgs(sb, 3)[1] == "docs(edit): update 08-camp.md by @editor1"
    assert main(cli_args(sb, "docs", "publish", "08-camp")) == 1  # nothing left to publish
    assert "already published" in capsys.readouterr().err


def test_docs_new_refusals_and_usage(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    assert main(cli_args(sb, "docs", "new", "--id", "welcome", "--title", "dup")) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "already used" in err and err.count("\n") == 1
    assert main(cli_args(sb, "docs", "new", "--id", "a/b", "--title", "x")) == 2
    assert main(cli_args(sb, "docs", "new", "--id", "ok", "--title", "x", "--theme", "neon")) == 2
    assert main(cli_args(sb, "docs", "new", "--title", "x")) == 2
    assert main(cli_args(sb, "docs", "new", "--id", "ok", "--title", "x", "--position", "x")) == 2
    lock_as(sb, "editor2", "07-news")
    assert main(cli_args(sb, "docs", "new", "--id", "news", "--title", "x", "--position", "7")) == 1
    assert "@editor2" in capsys.readouterr().err


def test_docs_delete(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    lock_as(sb, "editor2", "03-strategy")
    assert main(cli_args(sb, "docs", "delete", "03-strategy")) == 1
    assert "@editor2 is editing “비전과 추진 전략”" in capsys.readouterr().err
    assert sb.read_file("docs/03-strategy.md") is not None
    assert main(cli_args(sb, "docs", "delete", "05-sandbox-notes")) == 0
    assert "Deleted “자유 연습장”. (docs/05-sandbox-notes.md, commit " in capsys.readouterr().out
    assert sb.read_file("docs/05-sandbox-notes.md") is None
    assert "docs(delete): remove 05-sandbox-notes.md by @editor1" in msgs(sb, 3)
    assert main(cli_args(sb, "docs", "delete", "05-sandbox-notes")) == 1
    assert main(cli_args(sb, "docs", "delete", "../x")) == 2


def test_docs_move(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    assert main(cli_args(sb, "docs", "move", "03-strategy", "up")) == 0
    assert "Swapped “비전과 추진 전략” and “교육 프로그램과 추진 일정”" in capsys.readouterr().out
    assert msgs(sb, 2) == [
        "chore(docs): swap order position of 02-programs.md to 3 by @editor1",
        "chore(docs): swap order position of 03-strategy.md to 2 by @editor1",
    ]
    assert main(cli_args(sb, "docs", "move", "01-welcome", "up")) == 1
    assert "already first" in capsys.readouterr().err
    assert main(cli_args(sb, "docs", "move", "01-welcome", "left")) == 2


def test_docs_import(cli_env: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    a = tmp_path / "12-news.md"
    a.write_text("# 새 소식\n\n본문\n", encoding="utf-8")
    b = tmp_path / "welcome.md"
    b.write_text("---\nid: welcome\ntitle: dup\n---\n", encoding="utf-8")
    assert main(cli_args(sb, "docs", "import", str(a), str(b), "--dry-run")) == 1
    cap = capsys.readouterr()
    assert "-> docs/12-news.md" in cap.out and "CONFLICT" in cap.out
    assert "1 of 2" in cap.err
    assert sb.read_file("docs/12-news.md") is None
    assert main(cli_args(sb, "docs", "import", str(a), str(b))) == 1
    cap = capsys.readouterr()
    assert "ok   " in cap.out and "FAIL" in cap.out
    assert sb.read_file("docs/12-news.md") is not None
    assert main(cli_args(sb, "docs", "import", str(tmp_path / "c.md"))) == 1  # unreadable
    capsys.readouterr()
    c = tmp_path / "faq.md"
    c.write_text("---\ntitle: FAQ\n---\nQ\n", encoding="utf-8")
    assert main(cli_args(sb, "docs", "import", str(c))) == 0
    assert "feat(docs): create faq.md by @editor1" in msgs(sb, 3)


def test_viewer_gets_one_line_failure(
    cli_env: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MODU_TOKEN", "tok-viewer")
    assert main(cli_args(cli_env, "docs", "new", "--id", "x1", "--title", "x")) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "tok-viewer" not in err


def test_wired_into_the_admin_cli(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """cli.py registers these commands itself: ``modu-desktop docs move …`` works there."""
    sb = cli_env
    assert cli.main(cli_args(sb, "docs", "move", "02-programs", "down")) == 0
    assert "Swapped “교육 프로그램과 추진 일정”" in capsys.readouterr().out
    assert cli.main(cli_args(sb, "images", "add")) == 2


def test_lang_ko_words_the_cli_in_korean(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    lock_as(sb, "editor2", "03-strategy")
    assert main(["--lang", "ko", *cli_args(sb, "docs", "delete", "03-strategy")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: 삭제하지 않았습니다: @editor2 님이 “비전과 추진 전략” 문서를 ")
    assert "마지막 접속: " in err and err.rstrip().endswith("(docs/03-strategy.md)")
    assert main(cli_args(sb, "docs", "delete", "03-strategy")) == 1  # English again by default
    assert "@editor2 is editing “비전과 추진 전략” since " in capsys.readouterr().err
