"""Every admin CLI write when its first write loses the race for the branch (GitHub's 409 "is at
X but expected Y"): the command still succeeds (exit 0), as it would have without the race."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.cli import main
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.locks.wire import lock_path
from tests.helpers.cli import cli_args, lock_as

PNG = (
    Path(__file__).resolve().parents[2]
    / "modu_desktop/sandbox/repo/seed_data/static/img/modu-logo.png"
).read_bytes()


def test_docs_new(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    sb.lose_next_write("docs/100-race-new.md")  # after the sample's last page (99)
    assert main(cli_args(sb, "docs", "new", "--id", "race-new", "--title", "경주")) == 0, (
        capsys.readouterr().err
    )
    assert sb.read_file("docs/100-race-new.md") is not None
    assert sb.read_file(lock_path("100-race-new")) is None


def test_docs_delete(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    sb.lose_next_write("docs/05-sandbox-notes.md")
    assert main(cli_args(sb, "docs", "delete", "05-sandbox-notes")) == 0, capsys.readouterr().err
    assert sb.read_file("docs/05-sandbox-notes.md") is None


def test_docs_move(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    sb.lose_next_write("docs/03-strategy.md")
    assert main(cli_args(sb, "docs", "move", "03-strategy", "up")) == 0, capsys.readouterr().err
    assert "Swapped “비전과 추진 전략” and" in capsys.readouterr().out


def test_docs_import(
    cli_env: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sb = cli_env
    faq = tmp_path / "faq.md"
    faq.write_text("---\ntitle: FAQ\n---\nQ\n", encoding="utf-8")
    sb.lose_next_write("docs/faq.md")
    assert main(cli_args(sb, "docs", "import", str(faq))) == 0, capsys.readouterr()
    assert sb.read_file("docs/faq.md") is not None


def test_docs_restore(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    path = "docs/03-strategy.md"
    assert main(cli_args(sb, "docs", "history", "03-strategy", "--json")) == 0
    seed = json.loads(capsys.readouterr().out)[0]["shortSha"]
    original = sb.read_file(path)

    async def edit() -> None:
        async with GitHubClient(sb.api_url, "tok-editor2", RepoRef("pnuai", "PNU-Modu")) as c:
            _, entry = await c.entry_at(path)
            assert entry is not None
            await c.put_file(path, original + b"\nedit\n", "docs(edit): update", sha=entry.sha)

    asyncio.run(edit())
    sb.lose_next_write(path)
    assert main(cli_args(sb, "docs", "restore", "03-strategy", seed)) == 0, capsys.readouterr().err
    assert sb.read_file(path) == original
    assert sb.read_file(lock_path("03-strategy")) is None


def test_locks_release(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """Was: "The lock … changed while releasing it; nothing was deleted" (it had not)."""
    sb = cli_env
    lock_as(sb, "editor2", "01-welcome")
    sb.lose_next_write(lock_path("01-welcome"))
    assert main(cli_args(sb, "locks", "release", "01-welcome", "--force")) == 0, (
        capsys.readouterr().err
    )
    assert sb.read_file(lock_path("01-welcome")) is None


def test_images_add(cli_env: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The picture keeps the name it was given: a lost race is not "that name exists"."""
    sb = cli_env
    png = tmp_path / "campus photo.png"
    png.write_bytes(PNG + b"not on the site yet")
    sb.lose_next_write("static/img/uploads/")
    assert main(cli_args(sb, "images", "add", str(png))) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.strip().endswith("/img/uploads/campus-photo.png)")
    assert sb.read_file("static/img/uploads/campus-photo.png") == png.read_bytes()
