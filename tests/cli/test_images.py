"""``modu-desktop images list|add|delete`` against the sandbox, on core/pictures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.cli.commands import main
from tests.helpers.cli import cli_args
from tests.helpers.paths import CHECKOUT

SEED = CHECKOUT / "modu_desktop/sandbox/repo/seed_data"
PNG = (SEED / "static/img/modu-logo.png").read_bytes()


def msgs(sb: Any, n: int) -> list[str]:
    return [c["message"].strip() for c in sb.commits()[:n]]


def test_images_add(cli_env: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    png = tmp_path / "Campus Photo.PNG"
    png.write_bytes(PNG + b"new bytes")
    assert main(cli_args(sb, "images", "add", str(png))) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.strip() == "![Campus Photo](/img/uploads/campus-photo.png)"
    assert sb.read_file("static/img/uploads/campus-photo.png") == PNG + b"new bytes"
    assert msgs(sb, 1) == ["upload(image): add campus-photo.png via Admin Studio"]
    # The same name again, other bytes: the next free name in the folder.
    png.write_bytes(PNG + b"other bytes")
    assert main(cli_args(sb, "images", "add", str(png), "--json")) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["name"] == "campus-photo-2.png" and out["reused"] is False
    exe = tmp_path / "setup.exe"
    exe.write_bytes(b"MZ" + b"\0" * 100)
    assert main(cli_args(sb, "images", "add", str(exe))) == 1
    assert "Windows program" in capsys.readouterr().err
    big = tmp_path / "big.jpg"
    with big.open("wb") as fh:
        fh.write(b"\xff\xd8\xff\xe0")
        fh.truncate(30 * 1024 * 1024)
    assert main(cli_args(sb, "images", "add", str(big))) == 1
    assert "30.0 MB" in capsys.readouterr().err
    assert main(cli_args(sb, "images", "add")) == 2


def test_images_add_offers_the_picture_already_on_the_site(
    cli_env: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sb = cli_env
    copy = tmp_path / "logo copy.png"
    copy.write_bytes(PNG)  # the bytes of static/img/modu-logo.png
    before = msgs(sb, 1)
    assert main(cli_args(sb, "images", "add", str(copy))) == 0
    cap = capsys.readouterr()
    assert cap.out.strip() == "![logo copy](/img/modu-logo.png)"
    assert "already on the site as modu-logo.png" in cap.err
    assert msgs(sb, 1) == before  # nothing uploaded


def test_images_list(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    assert main(cli_args(sb, "images", "list", "--json")) == 0, capsys.readouterr().err
    out = json.loads(capsys.readouterr().out)
    by_path = {p["path"]: p for p in out["pictures"]}
    assert set(by_path) == {"static/img/modu-logo.png", "static/img/sample-photo.png"}
    logo = by_path["static/img/modu-logo.png"]
    assert logo["bytes"] == len(PNG) and logo["width"] > 0 and logo["height"] > 0
    assert [p["docId"] for p in logo["pages"]] == ["05-sandbox-notes"]
    assert logo["uses"][0]["address"] == "/img/modu-logo.png"
    assert out["unused"] == [] and out["missing"] == []
    # The table speaks of pages by their titles.
    assert main(cli_args(sb, "images", "list")) == 0
    text = capsys.readouterr().out
    title = json.dumps(logo["pages"][0]["title"], ensure_ascii=False).strip('"')
    assert "static/img/modu-logo.png" in text and f"‘{title}’" in text
    assert "2 pictures on pnuai/PNU-Modu@main; 0 used by no page." in text
    assert main(["--lang", "ko", *cli_args(sb, "images", "list")]) == 0
    assert "그림 2개, 그중 어느 문서에도 쓰이지 않는 그림 0개" in capsys.readouterr().out


def test_images_delete_refuses_a_picture_in_use(
    cli_env: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sb = cli_env
    assert main(cli_args(sb, "images", "delete", "static/img/modu-logo.png")) == 1
    err = capsys.readouterr().err
    assert "modu-logo.png cannot be deleted: it is still used on ‘" in err
    assert sb.read_file("static/img/modu-logo.png") == PNG
    spare = tmp_path / "spare.png"
    spare.write_bytes(PNG + b"spare")
    assert main(cli_args(sb, "images", "add", str(spare))) == 0
    capsys.readouterr()
    assert main(cli_args(sb, "images", "delete", "static/img/uploads/spare.png")) == 0
    assert capsys.readouterr().out.startswith("Deleted spare.png. (commit ")
    assert sb.read_file("static/img/uploads/spare.png") is None
    assert msgs(sb, 1) == ["delete(image): remove spare.png"]
