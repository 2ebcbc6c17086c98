"""pytest-qt: 그림 모음's 줄이기 on a sandbox — offered for a photo wider than the site needs,
saying why; before → after shown; the smaller copy committed at the same path, the original
still in the history; a small picture not offered; made in its own format, with Qt."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from modu_desktop import i18n
from modu_desktop.core.changes.outcome import ChangeState
from modu_desktop.core.pictures.pixels import pixel_size
from modu_desktop.ui.pictures.shrink_dialog import ShrinkPictureDialog, make_smaller
from tests.helpers.picture_site import (
    CAMPUS,
    WIDE,
    choose,
    open_library,
    photo,
    picture,
    picture_sandbox,
)


@pytest.fixture
def sandbox(tmp_path: Path, qapp: Any) -> Iterator[Any]:
    with picture_sandbox(tmp_path, wide=True) as sb:
        yield sb


def test_a_wide_photo_is_made_smaller_at_the_same_path_and_the_original_kept(
    make_window: Any, ui: Any, qtbot: Any, sandbox: Any
) -> None:
    original = sandbox.read_file(WIDE)
    win = make_window()
    lib = open_library(win, ui, qtbot)
    choose(lib, WIDE)
    qtbot.waitUntil(lambda: lib.detail.shrink_button.isVisibleTo(lib), timeout=15000)
    assert "2400×1600 pixels" in lib.detail.too_large.text()
    qtbot.mouseClick(lib.detail.shrink_button, Qt.MouseButton.LeftButton)
    dlg = ui.dialog("shrinkPictureDialog")
    assert isinstance(dlg, ShrinkPictureDialog)
    assert dlg.cancel.isDefault() and not dlg.action.isDefault()
    assert dlg.side.currentData() == 2000  # the site's limit comes first
    qtbot.waitUntil(lambda: dlg.action.isEnabled(), timeout=15000)
    assert dlg.result_line.text().startswith("Now 2400×1600 · ")
    assert "→ smaller 2000×1333 · " in dlg.result_line.text()
    commits = len(sandbox.commits())
    qtbot.mouseClick(dlg.action, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.outcome is not None, timeout=15000)
    assert dlg.outcome is not None and dlg.outcome.state is ChangeState.COMMITTED
    smaller = sandbox.read_file(WIDE)
    assert smaller is not None and original is not None and len(smaller) < len(original)
    size = pixel_size(smaller)
    assert size is not None and (size.width, size.height) == (2000, 1333)
    assert smaller[:3] == b"\xff\xd8\xff"  # still a JPEG
    assert len(sandbox.commits()) == commits + 1
    top = sandbox.commits()[0]
    assert top["message"].startswith("docs(edit): shrink picture wide-photo.jpg to 2000 px")
    assert sandbox.read_file(WIDE, ref=top["parents"][0]) == original  # in the history
    dlg.cancel.click()
    qtbot.waitUntil(lambda: not lib.detail.shrink_button.isVisibleTo(lib), timeout=15000)
    lib.reject()


def test_a_small_picture_is_not_offered(make_window: Any, ui: Any, qtbot: Any) -> None:
    win = make_window()
    lib = open_library(win, ui, qtbot)
    choose(lib, CAMPUS)
    qtbot.waitUntil(lambda: lib.loader.pending() == 0, timeout=15000)
    choose(lib, WIDE)
    choose(lib, CAMPUS)  # its pixel size known now
    assert lib.detail.rename_button.isVisibleTo(lib)
    assert not lib.detail.shrink_button.isVisibleTo(lib)
    assert not lib.detail.too_large.isVisibleTo(lib)
    lib.reject()


def test_the_shrink_speaks_korean(make_window: Any, ui: Any, qtbot: Any) -> None:
    i18n.set_language("ko")
    win = make_window(lang="ko")
    lib = open_library(win, ui, qtbot)
    choose(lib, WIDE)
    qtbot.waitUntil(lambda: lib.detail.shrink_button.isVisibleTo(lib), timeout=15000)
    assert lib.detail.too_large.text().startswith("사이트에 필요한 것보다 큰 그림입니다.")
    assert "가로 2400 × 세로 1600픽셀" in lib.detail.too_large.text()
    lib.reject()


def test_made_smaller_in_its_own_format() -> None:
    jpeg = make_smaller(photo(2400, 1600), 1200)
    assert jpeg is not None and (jpeg.width, jpeg.height) == (1200, 800)
    assert jpeg.data[:3] == b"\xff\xd8\xff"
    png = make_smaller(picture(900, 3000), 2000)  # portrait: the longest side is the height
    assert png is not None and (png.width, png.height) == (600, 2000)
    image = QImage()
    assert image.loadFromData(png.data, "PNG")  # type: ignore[call-overload]
    assert make_smaller(b"not a picture at all", 800) is None
