"""pytest-qt: the ops dialogs (new document, delete, import, reorder) on the sandbox."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from modu_desktop.core.brochure import frontmatter
from modu_desktop.core.docops.ops import DocOps, NewDocRequest, OpCode
from modu_desktop.core.documents.store import DocumentStore
from modu_desktop.core.github.client import GitHubClient, RepoRef
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.locks.model import LockStatus
from modu_desktop.core.locks.wire import lock_path
from modu_desktop.ui.docops.ops_delete import DeleteDialog, delete_document
from modu_desktop.ui.docops.ops_import import (
    ImportDialog,
    NewDocumentDialog,
    import_files,
    new_document,
)
from modu_desktop.ui.docops.ops_reorder import ReorderController
from tests.helpers.lang import in_lang, speaking

REPO = RepoRef("pnuai", "PNU-Modu", "main")
PNG = (
    Path(__file__).resolve().parents[3]
    / "modu_desktop/sandbox/repo/seed_data/static/img/modu-logo.png"
).read_bytes()


class Env:
    def __init__(self, ui: Any, sandbox: Any, tmp: Path) -> None:
        self.ui, self.sandbox, self.tmp = ui, sandbox, tmp
        self.clients: list[GitHubClient] = []

    def ops(self, login: str = "editor1", session: str = "ui-s1") -> DocOps:
        gh = GitHubClient(self.sandbox.api_url, f"tok-{login}", REPO)
        self.clients.append(gh)
        store = DocumentStore(gh, self.tmp / f"blobs-{login}-{session}")
        return DocOps(store, LockManager(gh, login, session, gh.clock, install_id="h"), login)

    def lock_as(self, login: str, doc_id: str) -> None:
        other = self.ops(login, "other-session")
        res = self.ui.run(other.locks.acquire(doc_id))
        assert res.held is not None

    def messages(self, n: int) -> list[str]:
        return [c["message"].strip() for c in self.sandbox.commits()[:n]]


@pytest.fixture
def env(ui: Any, sandbox: Any, tmp_path: Path) -> Iterator[Env]:
    e = Env(ui, sandbox, tmp_path)
    yield e
    for c in e.clients:
        with contextlib.suppress(Exception):
            ui.run(c.aclose(), timeout=5000)


def wait_status(qtbot: Any, dlg: Any) -> str:
    qtbot.waitUntil(
        lambda: bool(not dlg.busy and dlg.status.isVisible() and dlg.status.text()), timeout=15000
    )
    return str(dlg.status.text())


# ------------------------------------------------------------------------------ new document


def test_new_document_dialog_creates_and_keeps_the_lock(env: Env, ui: Any, qtbot: Any) -> None:
    ops = env.ops()
    task = ui.start(new_document(ops))
    dlg = ui.dialog("opsNewDocDialog")
    assert isinstance(dlg, NewDocumentDialog)
    f = dlg.form
    qtbot.keyClicks(f.id_edit, "bootcamp")
    f.title_edit.setText("부트캠프")  # keyClicks is ASCII-only
    f.has_position.setChecked(True)
    f.position.setValue(6)
    f.theme.setCurrentIndex(f.theme.findData("ocean-cyan"))  # shown by its Korean name
    f.layout_combo.setCurrentIndex(f.layout_combo.findData("slim"))
    f.template.setChecked(True)
    assert f.file_label.text() == "docs/06-bootcamp.md"
    ui.click(dlg, "opsCreateButton")
    res = ui.wait_task(task)
    assert res is not None and res.ok and res.held is not None
    fm = frontmatter.parse(env.sandbox.read_file("docs/06-bootcamp.md").decode())
    assert fm.get("theme") == "ocean-cyan" and fm.get("layout") == "slim"
    assert ":::hero" in fm.body
    assert env.messages(2) == [
        "feat(docs): create 06-bootcamp.md by @editor1",
        "system: acquire lock for 06-bootcamp by @editor1 [skip ci]",
    ]
    view = ui.run(ops.locks.inspect("06-bootcamp"))
    assert view.status is LockStatus.MINE_THIS_SESSION
    ui.run(ops.locks.release(res.held))


def test_new_document_refusals_keep_the_input(env: Env, ui: Any, qtbot: Any) -> None:
    ops = env.ops()
    env.lock_as("editor2", "07-news")
    dlg = NewDocumentDialog(ops)
    qtbot.addWidget(dlg)
    dlg.show()
    f = dlg.form
    # Duplicate id (01-welcome.md has id: welcome).
    f.set_request(NewDocRequest("welcome", "제목", nav_label="메뉴"))
    before = len(env.sandbox.commits())
    ui.wait_task(dlg.start())
    assert dlg.isVisible() and "already used" in dlg.status.text()
    assert f.error.isVisible() and f.id_edit.property("invalid") is True
    assert (f.id_edit.text(), f.title_edit.text(), f.nav_edit.text()) == ("welcome", "제목", "메뉴")
    # Foreign lock on the new docId.
    f.set_request(NewDocRequest("news", "소식", position=7))
    ui.wait_task(dlg.start())
    assert "@editor2" in dlg.status.text() and f.title_edit.text() == "소식"
    # Invalid id.
    f.id_edit.setText("a b")
    ui.wait_task(dlg.start())
    assert "a-b" in dlg.status.text()
    assert len(env.sandbox.commits()) == before
    assert dlg.create_button.isEnabled()
    ui.click(dlg, "opsCancelButton")
    assert not dlg.isVisible() and dlg.result_op is not None and not dlg.result_op.ok


def test_new_document_korean_messages(env: Env, ui: Any, qtbot: Any) -> None:
    with speaking("ko"):
        dlg = NewDocumentDialog(env.ops(), initial=NewDocRequest("welcome", "x"))
        qtbot.addWidget(dlg)
        dlg.show()
        assert dlg.windowTitle() == "새 문서" and dlg.create_button.text() == "만들기(&C)"
        ui.wait_task(dlg.start())
        assert "이미" in dlg.status.text()


def test_every_dialog_text_has_korean() -> None:
    import ast

    import modu_desktop.ui.docops.ops_delete as od
    from modu_desktop.i18n import catalogue

    korean = catalogue()
    root = Path(od.__file__).parent
    missing = []
    for name in ("ops_delete.py", "ops_import.py", "ops_reorder.py"):
        for n in ast.walk(ast.parse((root / name).read_text("utf-8"))):
            if (
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and n.func.attr == "t"
                and n.args
                and isinstance(n.args[0], ast.Constant)
                and n.args[0].value not in korean
            ):
                missing.append((name, n.args[0].value))
    assert not missing
    assert "self.tr(" not in "".join(
        (root / n).read_text("utf-8") for n in ("ops_delete.py", "ops_import.py", "ops_reorder.py")
    )


# ------------------------------------------------------------------------------ delete


def _summary(ui: Any, ops: DocOps, doc_id: str) -> Any:
    snap = ui.run(ops.store.refresh())
    d = snap.doc(doc_id)
    assert d is not None
    return d


def test_delete_dialog_names_the_document_and_deletes(env: Env, ui: Any, qtbot: Any) -> None:
    ops = env.ops()
    doc = _summary(ui, ops, "05-sandbox-notes")
    task = ui.start(delete_document(ops, doc))
    dlg = ui.dialog("opsDeleteDialog")
    assert "“자유 연습장”" in dlg.head.text() and ".md" not in dlg.head.text()
    assert dlg.cancel_button.isDefault() and not dlg.delete_button.isDefault()
    ui.click(dlg, "opsDeleteButton")
    res = ui.wait_task(task)
    assert res is not None and res.code is OpCode.DELETED
    assert env.sandbox.read_file("docs/05-sandbox-notes.md") is None
    assert env.sandbox.read_file(lock_path("05-sandbox-notes")) is None
    assert "docs(delete): remove 05-sandbox-notes.md by @editor1" in env.messages(3)


def test_delete_dialog_cancel_and_foreign_lock(env: Env, ui: Any, qtbot: Any) -> None:
    ops = env.ops()
    doc = _summary(ui, ops, "03-strategy")
    task = ui.start(delete_document(ops, doc))
    dlg = ui.dialog("opsDeleteDialog")
    ui.click(dlg, "opsCancelButton")
    assert ui.wait_task(task) is None
    env.lock_as("editor2", "03-strategy")
    before = len(env.sandbox.commits())
    dlg2 = DeleteDialog(ops, doc)
    qtbot.addWidget(dlg2)
    dlg2.show()
    ui.click(dlg2, "opsDeleteButton")
    text = wait_status(qtbot, dlg2)
    assert "@editor2" in text and dlg2.isVisible() and dlg2.delete_button.isEnabled()
    assert dlg2.status.property("kind") == "error"
    assert len(env.sandbox.commits()) == before
    assert env.sandbox.read_file("docs/03-strategy.md") is not None


def test_delete_dialog_refuses_a_changed_file(env: Env, ui: Any, qtbot: Any) -> None:
    ops = env.ops()
    doc = _summary(ui, ops, "02-programs")
    other = env.ops("editor2", "x")
    loaded = ui.run(other.store.load("02-programs"))
    ui.run(other.store.save(loaded, loaded.text + "x\n", loaded.sha, "editor2"))
    dlg = DeleteDialog(ops, doc)
    qtbot.addWidget(dlg)
    dlg.show()
    ui.wait_task(dlg.start())
    assert "changed" in dlg.status.text() and dlg.isVisible()
    assert env.sandbox.read_file("docs/02-programs.md") is not None


# ------------------------------------------------------------------------------ import


def test_import_dialog_prefills_shows_conflicts_and_imports(
    env: Env, ui: Any, qtbot: Any, tmp_path: Path
) -> None:
    a = tmp_path / "12-news.md"
    a.write_text(
        "---\ntitle: 새 소식\nnav_label: 소식\ntheme: teal-green\n---\n\n본문\n", encoding="utf-8"
    )
    b = tmp_path / "welcome.md"
    b.write_text("---\nid: welcome\ntitle: dup\n---\nx\n", encoding="utf-8")
    ops = env.ops()
    task = ui.start(import_files(ops, [a, b]))
    dlg = ui.dialog("opsImportDialog")
    assert isinstance(dlg, ImportDialog)
    qtbot.waitUntil(lambda: "conflict" in dlg.status.text(), timeout=10000)
    assert dlg.list.count() == 2
    assert dlg.list.item(0).text() == "12-news.md → “새 소식”"  # the person's file → the page
    assert dlg.list.item(1).text().startswith("⚠")
    dlg.list.setCurrentRow(0)
    f = dlg.form
    assert (
        f.id_edit.text(),
        f.title_edit.text(),
        f.nav_edit.text(),
        f.position.value(),
        f.theme.currentData(),
    ) == ("news", "새 소식", "소식", 12, "teal-green")
    dlg.list.setCurrentRow(1)
    assert "already used" in f.error.text()
    # First import: one created, the conflict stays in the list with its reason.
    ui.wait_task(dlg.start())
    assert dlg.isVisible() and "not imported" in dlg.status.text()
    assert env.sandbox.read_file("docs/12-news.md") is not None
    assert dlg.list.item(0).text().startswith("✔")
    # Fix the conflict in the form, apply, import again: all done, dialog closes.
    dlg.list.setCurrentRow(1)
    f.id_edit.setText("welcome-2")
    dlg.apply_form()
    qtbot.waitUntil(lambda: not dlg.list.item(1).text().startswith("⚠"), timeout=10000)
    ui.click(dlg, "opsImportButton")
    results = ui.wait_task(task)
    assert set(Path(s).name for s in results) == {"12-news.md", "welcome.md"}
    assert all(r.ok for r in results.values())
    text = env.sandbox.read_file("docs/welcome-2.md").decode()
    assert "id: welcome-2" in text and text.endswith("\nx\n")
    assert "feat(docs): create welcome-2.md by @editor1" in env.messages(3)


def test_import_dialog_accepts_dropped_files(env: Env, ui: Any, qtbot: Any, tmp_path: Path) -> None:
    f = tmp_path / "faq.md"
    f.write_text("# FAQ\n", encoding="utf-8")
    dlg = ImportDialog(env.ops(), [])
    qtbot.addWidget(dlg)
    dlg.show()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(f))])
    ev = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    dlg.dropEvent(ev)
    assert dlg.list.count() == 1 and "faq.md → “" in dlg.list.item(0).text()


# ------------------------------------------------------------------------------ reorder


def test_reorder_controller_moves_one_place_at_a_time(env: Env, ui: Any) -> None:
    ops = env.ops()
    ctl = ReorderController(ops)
    busy: list[bool] = []
    ctl.busy.connect(busy.append)
    done: list[Any] = []
    ctl.finished.connect(done.append)
    res = ui.run(ctl.move("02-programs", "down"))
    assert res.ok and "Swapped" in res.user_message() and busy == [True, False]
    assert done == [res]
    assert env.messages(2) == [
        "chore(docs): swap order position of 03-strategy.md to 2 by @editor1",
        "chore(docs): swap order position of 02-programs.md to 3 by @editor1",
    ]
    for _ in range(2):  # 02-programs (now 3) → first
        assert ui.run(ctl.move("02-programs", "up")).ok
    fm = frontmatter.parse(env.sandbox.read_file("docs/02-programs.md").decode())
    assert fm.get_int("sidebar_position") == 1
    # Further up is refused with the reason.
    res = ui.run(ctl.move("02-programs", "up"))
    assert not res.ok and "already first" in res.user_message() and len(done) == 4


def test_reorder_refused_on_foreign_lock(env: Env, ui: Any) -> None:
    ops = env.ops()
    env.lock_as("editor2", "04-admission")
    ctl = ReorderController(ops)
    assert ui.run(ctl.move("02-programs", "down")).ok  # passes 03
    res = ui.run(ctl.move("02-programs", "down"))  # then 04 is locked
    assert res.code is OpCode.LOCKED and "@editor2" in res.message
    fm = frontmatter.parse(env.sandbox.read_file("docs/04-admission.md").decode())
    assert fm.get_int("sidebar_position") == 4


def test_reorder_second_write_conflict_is_rolled_back(env: Env, ui: Any) -> None:
    ops = env.ops()
    other = env.ops("editor2", "x")
    real_save = ops.store.save
    before = env.sandbox.read_file("docs/02-programs.md")

    async def save(
        doc: Any, text: str, base_sha: str, login: str, message: str | None = None
    ) -> Any:
        if getattr(doc, "path", "") == "docs/03-strategy.md" and message and "swap" in message:
            loaded = await other.store.load("03-strategy")
            await other.store.save(loaded, loaded.text + "y\n", loaded.sha, "editor2")
        return await real_save(doc, text, base_sha, login, message)

    ops.store.save = save  # type: ignore[method-assign]  # a fault in this one object
    ctl = ReorderController(ops)
    res = ui.run(ctl.move("02-programs", "down"))
    assert res.code is OpCode.ROLLED_BACK
    assert "되돌렸" in in_lang("ko", res.user_message)
    assert env.sandbox.read_file("docs/02-programs.md") == before
