"""``docs check`` (local files), ``docs history`` and ``docs restore`` (against the sandbox)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.cli import main
from modu_desktop.core.locks.wire import lock_path
from tests.helpers.cli import cli_args, lock_as

SITE_DOCS = Path(__file__).resolve().parents[1] / "fixtures" / "pnu-modu-site" / "docs"
BAD = "---\nid: x\ntitle: 전략: 2025\n---\n\n본문 <br> 입니다. {name}\n\n:::herro\ntitle: a\n:::\n"


def test_check_is_clean_on_the_real_documents(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in SITE_DOCS.glob("*.md"))
    assert main(["docs", "check", *files]) == 0
    # One warning, and a true one: the live page of 07-part-7 shows "선배창업자 1 멘토링"
    # (the block drops ":1" of "1:1"); nothing stops the site.
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith(str(SITE_DOCS / "07-part-7.md") + ":99:") and "warning:" in line


def test_check_prints_file_line_col_message_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.md"
    bad.write_text(BAD, "utf-8")
    assert main(["docs", "check", str(bad)]) == 1
    lines = capsys.readouterr().out.splitlines()
    positions = [re.match(r"^(.*):(\d+):(\d+) ", ln) for ln in lines]
    assert [m.groups()[1:] if m else None for m in positions] == [
        ("3", "10"),
        ("6", "4"),
        ("6", "14"),
        ("8", "4"),
    ]
    assert all(ln.startswith(f"{bad}:") for ln in lines)
    assert "“<br />”" in lines[1]
    assert lines[3].split(" ", 1)[1].startswith("warning: ")


def test_warnings_alone_exit_0_unless_strict(tmp_path: Path) -> None:
    doc = tmp_path / "warn.md"
    doc.write_text("---\nid: x\ntitle: a\n---\n\n:::herro\ntitle: a\n:::\n", "utf-8")
    assert main(["docs", "check", str(doc)]) == 0
    assert main(["docs", "check", "--strict", str(doc)]) == 1


def test_check_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.md"
    bad.write_text(BAD, "utf-8")
    assert main(["docs", "check", "--json", str(bad)]) == 1
    (report,) = json.loads(capsys.readouterr().out)
    assert report["file"] == str(bad) and report["breaksBuild"] is True
    codes = [f["code"] for f in report["findings"]]
    assert codes == ["fm-yaml", "mdx-void-tag", "mdx-undefined-name", "block-unknown"]
    void = report["findings"][1]
    assert void["fix"] == {
        "start": void["end"] - 1,
        "end": void["end"],
        "replacement": " />",
        "original": ">",
    }


def test_check_finds_missing_pictures_in_the_repository_it_is_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "static" / "img").mkdir(parents=True)
    (tmp_path / "static" / "img" / "a.png").write_bytes(b"png")
    doc = tmp_path / "docs" / "01-x.md"
    doc.write_text("---\nid: x\ntitle: a\n---\n\n![a](/img/a.png)\n![b](/img/b.png)\n", "utf-8")
    assert main(["docs", "check", str(doc)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith(f"{doc}:7:6 ") and "/img/b.png" in out[0]


def test_check_of_an_unreadable_file_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["docs", "check", str(tmp_path / "missing.md")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_history_and_restore(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    sb = cli_env
    assert main(cli_args(sb, "docs", "history", "03-strategy", "--json")) == 0
    (seed,) = json.loads(capsys.readouterr().out)
    original = sb.read_file("docs/03-strategy.md")

    # Someone edits; then we restore the seed version.
    lock_as(sb, "editor2", "03-strategy")
    assert main(cli_args(sb, "docs", "restore", "03-strategy", seed["shortSha"])) == 1
    assert "Nothing was restored. @editor2 is editing “03-strategy”" in capsys.readouterr().err

    import asyncio

    from modu_desktop.core.github.client import GitHubClient, RepoRef

    async def edit() -> None:
        async with GitHubClient(sb.api_url, "tok-editor2", RepoRef("pnuai", "PNU-Modu")) as c:
            meta = await c.get_contents("docs/03-strategy.md")
            await c.put_file(
                "docs/03-strategy.md",
                original + b"\nedit\n",
                "docs(edit): update 03-strategy.md by @editor2",
                sha=meta.sha,
            )
            await c.delete_file(
                lock_path("03-strategy"),
                (await c.get_contents(lock_path("03-strategy"))).sha,
                "system: release lock for 03-strategy [skip ci]",
            )

    asyncio.run(edit())
    assert main(cli_args(sb, "docs", "history", "03-strategy")) == 0
    text = capsys.readouterr().out
    assert "2 version(s) of “비전과 추진 전략”" in text and "(docs/03-strategy.md)" in text
    assert "@editor2" in text

    assert main(cli_args(sb, "docs", "restore", "03-strategy", seed["shortSha"])) == 0
    restored = capsys.readouterr().out
    assert f"Restored “비전과 추진 전략” to {seed['shortSha']}. (docs/03-strategy.md" in restored
    assert sb.read_file("docs/03-strategy.md") == original
    msgs = [c["message"] for c in sb.commits()[:3]]
    assert f"docs(edit): restore 03-strategy.md to {seed['shortSha']} by @editor1" in msgs
    assert not sb.read_file(lock_path("03-strategy"))  # our lock was released again

    assert main(cli_args(sb, "docs", "restore", "03-strategy", "deadbeef")) == 1
    assert "is not a version of" in capsys.readouterr().err
