"""A photo over the size limit: offered "자동으로 줄여서 올리기", made smaller with Qt's own image
classes (longest side 2000 px, JPEG ~85), uploaded, alt text from the original file name."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QUrl
from PySide6.QtGui import QImage, QImageWriter
from PySide6.QtWidgets import QPlainTextEdit

from modu_desktop import i18n
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.pictures.uploads import MAX_BYTES
from modu_desktop.ui.pictures.dialog import ImagePickerDialog
from modu_desktop.ui.pictures.editor_drop import EditorImageHelper
from modu_desktop.ui.pictures.uploader import ImageUploader, shrink_picture


@pytest.fixture(scope="module")
def photo_30mb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real 30 MB JPEG (3200 × 2400 of noise at quality 100: no photo compresses worse)."""
    from PySide6.QtWidgets import QApplication

    _app = QApplication.instance() or QApplication([])
    w, h = 3200, 2400
    img = QImage(os.urandom(w * h * 3), w, h, w * 3, QImage.Format.Format_RGB888)
    path = tmp_path_factory.mktemp("photos") / "졸업식_사진-2026.jpg"
    writer = QImageWriter(str(path), b"jpeg")
    writer.setQuality(100)
    assert writer.write(img), writer.errorString()
    assert path.stat().st_size > 30 * 1024 * 1024 > MAX_BYTES
    return path


@pytest.fixture
def client(sandbox: Any, ui: Any) -> Iterator[GitHubClient]:
    c = GitHubClient(sandbox.api_url, "tok-editor1", RepoRef("pnuai", "PNU-Modu", "main"))
    yield c
    with contextlib.suppress(Exception):
        ui.run(c.aclose(), timeout=5000)


def _uploaded(sandbox: Any, markdown: str) -> bytes:
    name = markdown.rsplit("/", 1)[1].rstrip(")")
    data = sandbox.read_file(f"static/img/uploads/{name}")
    assert data is not None
    return data


def test_shrink_picture_makes_a_2000_px_jpeg(photo_30mb: Path) -> None:
    data = shrink_picture(photo_30mb)
    assert data[:3] == b"\xff\xd8\xff" and len(data) <= MAX_BYTES
    img = QImage()
    assert img.loadFromData(data)
    assert (img.width(), img.height()) == (2000, 1500)


def test_shrink_keeps_small_sides_and_flattens_transparency(tmp_path: Path) -> None:
    img = QImage(300, 200, QImage.Format.Format_ARGB32)
    img.fill(0)  # fully transparent
    p = tmp_path / "logo.png"
    img.save(str(p))
    out = QImage()
    assert out.loadFromData(shrink_picture(p))
    assert (out.width(), out.height()) == (300, 200)
    assert out.pixelColor(10, 10).lightness() > 245  # on white, not black


def test_picker_offers_auto_shrink_for_a_30mb_photo(
    photo_30mb: Path, client: GitHubClient, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    i18n.set_language("ko")
    up = ImageUploader(client)
    dlg = ImagePickerDialog(up, path=str(photo_30mb))
    qtbot.addWidget(dlg)
    dlg.show()
    assert dlg.alt_edit.text() == "졸업식 사진 2026"  # the original file name
    before = len(sandbox.commits())
    ui.wait_task(dlg.start())
    assert len(sandbox.commits()) == before  # refused before any request
    button = dlg.findChild(type(dlg.upload_button), "autoShrinkButton")
    assert button is not None and button.isVisible()
    assert button.text() == "자동으로 줄여서 올리기"
    assert "MB" in dlg.status.text() and "2000" in dlg.status.text()
    task = dlg.start_shrunk()
    ui.wait_task(task, timeout=60000)
    md = dlg.markdown
    assert md == "![졸업식 사진 2026](/img/uploads/졸업식_사진-2026.jpg)"  # its own name
    data = _uploaded(sandbox, md)
    img = QImage()
    assert img.loadFromData(data) and max(img.width(), img.height()) == 2000
    assert len(data) <= MAX_BYTES


def test_dropped_30mb_photo_is_offered_and_shrunk(
    photo_30mb: Path, client: GitHubClient, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    i18n.set_language("ko")
    editor = QPlainTextEdit()
    qtbot.addWidget(editor)
    editor.setPlainText("앞\n")
    editor.show()
    helper = EditorImageHelper(ImageUploader(client), editor)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(photo_30mb))])
    task = helper.handle_mime(mime, 2)
    box = ui.dialog("shrinkQuestion", timeout=20000)
    assert "2000×1500" in box.informativeText() and "3200×2400" in box.informativeText()
    assert box.findChild(type(box.defaultButton()), "originalButton") is None  # over 10 MB
    ui.click(box, "autoShrinkButton")
    results = ui.wait_task(task, timeout=60000)
    assert results and results[0].ok
    assert "![졸업식 사진 2026](/img/uploads/졸업식_사진-2026.jpg)" in editor.toPlainText()
    assert _uploaded(sandbox, results[0].markdown)[:3] == b"\xff\xd8\xff"


def _photo(path: Path, w: int, h: int, noise: bool) -> Path:
    if noise:
        img = QImage(os.urandom(w * h * 3), w, h, w * 3, QImage.Format.Format_RGB888)
    else:
        img = QImage(w, h, QImage.Format.Format_RGB32)
        img.fill(0x3366AA)
    writer = QImageWriter(str(path), b"jpeg")
    writer.setQuality(95)
    assert writer.write(img), writer.errorString()
    return path


def test_big_but_allowed_photos_are_offered_smaller_with_sizes_before_and_after(
    client: GitHubClient, sandbox: Any, ui: Any, qtbot: Any, tmp_path: Path
) -> None:
    """Over 2,000 px (however light) or over 1 MB (however small): offered; the original
    stays possible; a photo the site can use as it is goes straight up."""
    i18n.set_language("ko")
    wide = _photo(tmp_path / "wide.jpg", 4000, 3000, noise=False)  # light but 4000 px
    heavy = _photo(tmp_path / "heavy.jpg", 1200, 900, noise=True)  # small but > 1 MB
    fine = _photo(tmp_path / "fine.jpg", 800, 600, noise=False)
    assert wide.stat().st_size < 1024 * 1024 < heavy.stat().st_size < MAX_BYTES
    up = ImageUploader(client)
    offer = ui.run(up.shrink_offer(wide))
    assert offer is not None and offer.before_px == (4000, 3000) and offer.after_px == (2000, 1500)
    assert offer.original_allowed and "4000×3000" in offer.describe()
    heavy_offer = ui.run(up.shrink_offer(heavy))
    assert heavy_offer is not None and len(heavy_offer.data) < heavy.stat().st_size
    assert "MB" in heavy_offer.describe() and "KB" in heavy_offer.describe()
    assert ui.run(up.shrink_offer(fine)) is None

    dlg = ImagePickerDialog(up, path=str(heavy))
    qtbot.addWidget(dlg)
    dlg.show()
    before = len(sandbox.commits())
    ui.wait_task(dlg.start())
    assert len(sandbox.commits()) == before  # asked first, nothing sent
    assert dlg.shrink_button.isVisible() and dlg.original_button.isVisible()
    assert "1200×900" in dlg.status.text()
    ui.wait_task(dlg.start_original())
    assert dlg.markdown is not None
    assert _uploaded(sandbox, dlg.markdown) == heavy.read_bytes()  # the original, untouched

    straight = ImagePickerDialog(up, path=str(fine))
    qtbot.addWidget(straight)
    straight.show()
    ui.wait_task(straight.start())
    assert straight.markdown is not None and not straight.shrink_button.isVisible()
