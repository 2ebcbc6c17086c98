"""The practice site with pictures, for the picture library's widget tests: one picture used on
two pages (Markdown on one, HTML on the other), an unused photo, bytes no reader takes, one
beside the documents, a page naming a picture the site lacks, and a photo wider than the site
needs (``WIDE``)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QIODevice, QPointF
from PySide6.QtGui import QColor, QImage, QLinearGradient, QPainter

CAMPUS = "static/img/uploads/campus.png"
SPARE = "static/img/uploads/spare.jpg"
BROKEN = "static/img/uploads/broken.png"
DIAGRAM = "docs/img/diagram.png"
WIDE = "static/img/uploads/wide-photo.jpg"  # 2400×1600: wider than the site needs
GONE = "static/img/gone.png"
WELCOME = "docs/01-welcome.md"
ADMISSION = "docs/04-admission.md"


def picture(width: int, height: int, fmt: str = "PNG", color: str = "#3b7dd8") -> bytes:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(color))
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, fmt)  # type: ignore[call-overload]
    return bytes(buf.data().data())


def photo(width: int, height: int) -> bytes:
    """A JPEG at quality 95 with a gradient (a flat colour would be no heavier made smaller)."""
    image = QImage(width, height, QImage.Format.Format_RGB32)
    painter = QPainter(image)
    gradient = QLinearGradient(QPointF(0, 0), QPointF(width, height))
    gradient.setColorAt(0, QColor("#1d4e89"))
    gradient.setColorAt(0.5, QColor("#f2c14e"))
    gradient.setColorAt(1, QColor("#6a994e"))
    painter.fillRect(image.rect(), gradient)
    painter.end()
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, "JPEG", 95)  # type: ignore[call-overload]
    return bytes(buf.data().data())


def seed_pictures(seed: Path, *, wide: bool = False) -> None:
    """A copy of the practice site in ``seed`` given the pictures above (``WIDE`` only when
    asked)."""
    from modu_desktop.sandbox.repo.seed import SAMPLE_DIR

    shutil.copytree(SAMPLE_DIR, seed)
    uploads = seed / "static/img/uploads"
    uploads.mkdir(parents=True)
    (uploads / "campus.png").write_bytes(picture(640, 480))
    (uploads / "spare.jpg").write_bytes(picture(300, 200, "JPEG", "#d84b3b"))
    (uploads / "broken.png").write_bytes(b"not a picture at all")
    if wide:
        (uploads / "wide-photo.jpg").write_bytes(photo(2400, 1600))
    (seed / "docs/img").mkdir()
    (seed / "docs/img/diagram.png").write_bytes(picture(200, 100, color="#2e9e5b"))
    welcome = seed / WELCOME
    welcome.write_text(
        welcome.read_text("utf-8") + "\n![캠퍼스 전경](/img/uploads/campus.png)\n", "utf-8"
    )
    admission = seed / ADMISSION
    admission.write_text(
        admission.read_text("utf-8")
        + '\n<img src="/img/uploads/campus.png" alt="본관">\n\n![사라진 그림](/img/gone.png)\n',
        "utf-8",
    )


@contextmanager
def picture_sandbox(tmp_path: Path, *, wide: bool = False) -> Iterator[Any]:
    """A started sandbox on that site, with editor1, editor2 and a viewer."""
    from modu_desktop.sandbox import Sandbox, SandboxUser

    seed = tmp_path / "seed"
    seed_pictures(seed, wide=wide)
    sb = Sandbox(
        tmp_path / "sandbox-repo",
        users=[
            SandboxUser("editor1", "tok-editor1", push=True),
            SandboxUser("editor2", "tok-editor2", push=True),
            SandboxUser("viewer", "tok-viewer", push=False),
        ],
        seed=seed,
    )
    sb.start()
    try:
        yield sb
    finally:
        sb.stop()


def open_library(win: Any, ui: Any, qtbot: Any) -> Any:
    """그림 모음 opened by its button under the list, once its list is in."""
    from PySide6.QtWidgets import QAbstractButton

    win.findChild(QAbstractButton, "pictureLibraryButton").click()
    dlg = ui.dialog("pictureLibrary")
    qtbot.waitUntil(lambda: dlg.loaded, timeout=10000)
    return dlg


def choose(dlg: Any, path: str) -> None:
    row = dlg.model.row_of(path)
    assert row is not None, path
    dlg.view.setCurrentIndex(dlg.model.index(row, 0))


def text_of(sb: Any, path: str) -> str:
    data = sb.read_file(path)
    assert data is not None
    return bytes(data).decode("utf-8")
