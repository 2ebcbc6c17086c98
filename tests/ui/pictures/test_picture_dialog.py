"""pytest-qt: the 그림 dialog and pictures dropped or pasted into the editor, on the sandbox."""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QUrl
from PySide6.QtGui import QGuiApplication, QImage, QKeySequence
from PySide6.QtWidgets import QApplication, QLabel, QPlainTextEdit

from modu_desktop.core.atomic import git_blob_sha
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.github.types import TreeEntry
from modu_desktop.i18n import catalogue
from modu_desktop.ui.pictures.dialog import ImagePickerDialog, pick_and_upload
from modu_desktop.ui.pictures.editor_drop import EditorImageHelper
from modu_desktop.ui.pictures.uploader import ImageUploader
from tests.helpers.lang import speaking
from tests.helpers.paths import CHECKOUT

REPO = RepoRef("pnuai", "PNU-Modu", "main")
PNG = (CHECKOUT / "modu_desktop/sandbox/repo/seed_data/static/img/modu-logo.png").read_bytes()
ROOM = CHECKOUT / "modu_desktop/ui/pictures"


class Env:
    def __init__(self, ui: Any, sandbox: Any) -> None:
        self.ui, self.sandbox = ui, sandbox
        self.clients: list[GitHubClient] = []

    def client(self) -> GitHubClient:
        gh = GitHubClient(self.sandbox.api_url, "tok-editor1", REPO)
        self.clients.append(gh)
        return gh

    def messages(self, n: int) -> list[str]:
        return [c["message"].strip() for c in self.sandbox.commits()[:n]]


@pytest.fixture
def env(ui: Any, sandbox: Any) -> Iterator[Env]:
    e = Env(ui, sandbox)
    yield e
    for c in e.clients:
        with contextlib.suppress(Exception):
            ui.run(c.aclose(), timeout=5000)


def test_picker_uploads_and_returns_markdown(env: Env, ui: Any, qtbot: Any, tmp_path: Path) -> None:
    png = tmp_path / "campus_photo.png"
    png.write_bytes(PNG)
    up = ImageUploader(env.client())
    task = ui.start(pick_and_upload(up, path=str(png)))
    dlg = ui.dialog("opsImageDialog")
    assert dlg.alt_edit.text() == "campus photo"
    ui.click(dlg, "opsUploadButton")
    md = ui.wait_task(task)
    assert md == "![campus photo](/img/uploads/campus_photo.png)"
    name = "campus_photo.png"
    assert env.sandbox.read_file(f"static/img/uploads/{name}") == PNG
    assert env.messages(1) == [f"upload(image): add {name} via Admin Studio"]
    assert f"/img/uploads/{name}" in up.recent


def test_picker_refusals_keep_the_choice(env: Env, ui: Any, qtbot: Any, tmp_path: Path) -> None:
    exe = tmp_path / "setup.exe"
    exe.write_bytes(b"MZ" + b"\0" * 100)
    big = tmp_path / "big.jpg"
    with big.open("wb") as fh:
        fh.write(b"\xff\xd8\xff\xe0")
        fh.truncate(30 * 1024 * 1024)
    up = ImageUploader(env.client())
    dlg = ImagePickerDialog(up, path=str(exe))
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.alt_edit.setText("my alt")
    dlg.alt_edit.setModified(True)
    before = len(env.sandbox.commits())
    ui.wait_task(dlg.start())
    assert "Windows program" in dlg.status.text() and dlg.isVisible()
    dlg.path_edit.setText(str(big))
    ui.wait_task(dlg.start())
    assert "30.0 MB" in dlg.status.text() and dlg.alt_edit.text() == "my alt"
    assert dlg.upload_button.isEnabled() and dlg.markdown is None
    assert len(env.sandbox.commits()) == before


def test_drop_and_paste_into_the_editor(env: Env, ui: Any, qtbot: Any, tmp_path: Path) -> None:
    editor = QPlainTextEdit()
    qtbot.addWidget(editor)
    editor.setPlainText("before after")
    editor.show()
    up = ImageUploader(env.client())
    helper = EditorImageHelper(up, editor)
    results: list[Any] = []
    up.finished.connect(results.append)
    png = tmp_path / "logo.png"
    png.write_bytes(PNG)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(png))])
    task = helper.handle_mime(mime, len("before "))
    # Typing while the upload runs is kept and the picture lands where the drop was.
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    editor.insertPlainText("!")
    ui.wait_task(task)
    text = editor.toPlainText()
    assert text == "before ![logo](/img/uploads/logo.png)after!"
    # A dropped .exe inserts nothing and reports why.
    exe = tmp_path / "setup.exe"
    exe.write_bytes(b"MZ" + b"\0" * 100)
    mime2 = QMimeData()
    mime2.setUrls([QUrl.fromLocalFile(str(exe))])
    ui.wait_task(helper.handle_mime(mime2, 0))
    assert editor.toPlainText() == text and "Windows program" in results[-1].message
    # Paste of image data (e.g. a screenshot) via Ctrl+V.
    img = QImage(4, 4, QImage.Format.Format_RGB32)
    img.fill(0x3366FF)
    QGuiApplication.clipboard().setImage(img)
    editor.moveCursor(editor.textCursor().MoveOperation.Start)
    editor.setFocus()
    n_before = len(helper.tasks)
    qtbot.keySequence(editor, QKeySequence.StandardKey.Paste)
    qtbot.waitUntil(lambda: len(helper.tasks) > n_before, timeout=5000)
    ui.wait_task(helper.tasks[-1])
    assert editor.toPlainText().startswith("![](/img/uploads/pasted.png)")
    QApplication.clipboard().clear()


def test_a_picture_already_on_the_site_is_offered_instead(
    env: Env, ui: Any, qtbot: Any, tmp_path: Path
) -> None:
    copy = tmp_path / "내 로고.png"
    copy.write_bytes(PNG)  # the bytes of static/img/modu-logo.png
    listing = [TreeEntry("static/img/modu-logo.png", git_blob_sha(PNG))]
    up = ImageUploader(env.client(), listing=lambda: listing, page=lambda: "docs/05-notes.md")
    before = len(env.sandbox.commits())
    with speaking("ko"):
        task = ui.start(pick_and_upload(up, path=str(copy)))
        dlg = ui.dialog("opsImageDialog")
        ui.click(dlg, "opsUploadButton")
        qtbot.waitUntil(lambda: dlg.reuse_button.isVisible(), timeout=15000)
        assert "같은 그림이 이미 사이트에 있습니다(modu-logo.png)" in dlg.status.text()
        assert dlg.reuse_button.text() == "사이트에 있는 그림 넣기"
        assert dlg.isVisible() and dlg.markdown is None  # offered, not yet taken
        ui.click(dlg, "reusePictureButton")
        md = ui.wait_task(task)
    assert md == "![내 로고](/img/modu-logo.png)"
    assert len(env.sandbox.commits()) == before  # nothing uploaded


def test_the_file_label_shows_its_shortcut_not_an_ampersand(env: Env, qtbot: Any) -> None:
    with speaking("ko"):
        dlg = ImagePickerDialog(ImageUploader(env.client()))
    qtbot.addWidget(dlg)
    label = dlg.findChild(QLabel, "opsImageFileLabel")
    assert label is not None and label.buddy() is dlg.path_edit  # "&" marks the shortcut


def test_every_dialog_text_has_korean() -> None:
    korean = catalogue()
    missing = []
    for path in ROOM.glob("*.py"):
        for n in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute | ast.Name)
                and getattr(n.func, "attr", getattr(n.func, "id", "")) in ("t", "tr")
                and n.args
                and isinstance(n.args[0], ast.Constant)
                and n.args[0].value not in korean
            ):
                missing.append((path.name, n.args[0].value))
    assert not missing
