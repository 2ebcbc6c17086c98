"""`scripts/screenshots.py`: the scene list, the arguments, real pictures in both languages."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "screenshots.py"
EVERY_SCENE = {
    "signin",
    "signin-browser",
    "list",
    "editor",
    "block-form",
    "block-picker",
    "after-save",
    "lock-dialog",
    "steal-confirm",
    "stolen-banner",
    "stolen-ctrl-s",
    "conflict",
    "history",
    "unpublished",
    "recovery",
    "outage",
    "after-outage",
    "publish-failed-mine",
    "publish-failed-other",
    "help-menu",
    "report",
    "bigger-text",
    "list-narrow",
    "page-editor",
    "page-editor-top",
    "publish-check",
    "search",
    "search-opened",
    "picture-library",
    "picture-library-pick",
}


def _run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_list_names_every_scene_once() -> None:
    done = _run("--list")
    assert done.returncode == 0, done.stderr
    names = [line.split()[0] for line in done.stdout.splitlines() if line.strip()]
    assert len(names) == len(set(names))
    assert set(names) == EVERY_SCENE


@pytest.mark.parametrize(
    "args",
    [("--scene", "nope"), ("--lang", "fr"), ("--width", "wide"), ("--width", "100")],
)
def test_bad_arguments_are_refused(args: tuple[str, ...], tmp_path: Path) -> None:
    done = _run(*args, "--out", str(tmp_path))
    assert done.returncode == 2
    assert list(tmp_path.iterdir()) == []


def _colours(path: Path) -> int:
    from PySide6.QtGui import QImage

    img = QImage(str(path))
    assert not img.isNull(), path
    step_x, step_y = max(1, img.width() // 60), max(1, img.height() // 60)
    return len(
        {
            img.pixel(x, y)
            for x in range(0, img.width(), step_x)
            for y in range(0, img.height(), step_y)
        }
    )


@pytest.mark.timeout(300)
def test_two_scenes_draw_their_pictures_in_each_language(tmp_path: Path) -> None:
    done = _run(
        "--scene", "signin", "--scene", "lock-dialog", "--lang", "ko,en", "--width", "800",
        "--out", str(tmp_path), timeout=280,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [
        "en-800-lock-dialog.png",
        "en-800-signin.png",
        "ko-800-lock-dialog.png",
        "ko-800-signin.png",
    ]
    for name in files:
        assert _colours(tmp_path / name) > 8, name  # a drawn screen, not a blank one
    from PySide6.QtGui import QImage

    ko, en = (QImage(str(tmp_path / f"{lang}-800-signin.png")) for lang in ("ko", "en"))
    assert ko.width() == en.width() == 800
    assert ko != en  # the words differ: the language was applied
