"""The dialogs' jobs go through the window's one operations helper (ui/kit/operation.py): an
unexpected error in a dialog's operation is worded once (``error_text``) and shown once, in the
dialog, which is usable again; the job is in the window's registry, so closing the window while
it runs cancels it without a crash."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QPushButton

from modu_desktop.core.documents.history import DocHistory
from modu_desktop.core.github import errors
from modu_desktop.ui.docops.ops_delete import DeleteDialog
from modu_desktop.ui.docops.ops_import import ImportDialog, NewDocumentDialog
from modu_desktop.ui.kit.operation import error_text, operations_for
from modu_desktop.ui.pictures.dialog import ImagePickerDialog
from modu_desktop.ui.publish.history_panel import HistoryPanel
from tests.helpers.lang import in_lang

DOC = "03-strategy"
PNG = (
    Path(__file__).resolve().parents[3]
    / "modu_desktop/sandbox/repo/seed_data/static/img/modu-logo.png"
)
BOOM = errors.ServerError(502, "bad gateway")


def _failures(caplog: Any) -> list[Any]:
    return [
        r
        for r in caplog.records
        if r.name == "modu_desktop.ui.kit.operation" and r.levelno >= logging.ERROR
    ]


class Failing:
    """An async stand-in that raises ``BOOM`` the first ``times`` calls, then calls ``real``."""

    def __init__(self, real: Any, times: int = 1) -> None:
        self.real, self.times, self.calls = real, times, 0

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls <= self.times:
            raise BOOM
        return await self.real(*args, **kwargs)


class Hanging:
    """An async stand-in that waits until cancelled (the window closes meanwhile)."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.cancelled = False

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise


def _done(task: asyncio.Task[Any] | None) -> bool:
    return task is not None and task.done()


def _dialogs(win: Any, tmp_path: Path, which: str) -> tuple[Any, str, Any, str]:
    """(the dialog over ``win``, its action button, the object whose method fails, its name)."""
    ops = win.ops_host.ops
    if which == "delete":
        summary = win.ctx.store.snapshot.doc(DOC)
        return DeleteDialog(ops, summary, win), "opsDeleteButton", ops, "delete"
    if which == "new":
        new = NewDocumentDialog(ops, win)
        new.form.id_edit.setText("bootcamp")
        new.form.title_edit.setText("부트캠프")
        return new, "opsCreateButton", ops, "create"
    if which == "import":
        md = tmp_path / "news.md"
        md.write_text("---\ntitle: 소식\n---\n\n본문\n", encoding="utf-8")
        # "create" fails; the window refreshes the store itself
        return ImportDialog(ops, [str(md)], win), "opsImportButton", ops, "create"
    assert which == "picture"
    picker = ImagePickerDialog(win.ops_host.uploader, win, path=str(PNG))
    return picker, "opsUploadButton", win.ops_host.uploader, "upload_file"


@pytest.mark.parametrize("which", ["delete", "new", "import", "picture"])
def test_an_error_in_a_dialog_reaches_the_user_once_and_the_dialog_stays_usable(
    make_window: Any, ui: Any, qtbot: Any, tmp_path: Path, caplog: Any, which: str
) -> None:
    win = make_window()
    dlg, button_name, owner, method = _dialogs(win, tmp_path, which)
    qtbot.waitUntil(  # the import dialog's first check of its files
        lambda: not [t for t in win.ops.tasks if t.get_name() == "import.recheck"], timeout=10000
    )
    dlg.show()
    failing = Failing(getattr(owner, method))
    setattr(owner, method, failing)
    button = dlg.findChild(QPushButton, button_name)
    ui.click(dlg, button_name)
    task = dlg._task
    assert task in win.ops.tasks  # the window's job: its shutdown would cancel it
    # the task's done callbacks (which word the error) run just after it is done
    qtbot.waitUntil(lambda: task.done() and not dlg.busy, timeout=10000)
    expected = in_lang("en", lambda: error_text(BOOM))
    qtbot.waitUntil(lambda: dlg.status.text() == expected, timeout=10000)
    assert dlg.status.isVisible() and dlg.status.text() == expected  # in the dialog
    assert dlg.status.property("kind") == "error"
    assert not (win.notice.isVisible() and expected in win.notice.text())  # once, not twice
    assert len(_failures(caplog)) == 1
    assert dlg.isVisible() and not dlg.busy and button.isEnabled()  # usable again
    assert all(w.isEnabled() for w in dlg.inputs)
    ui.click(dlg, button_name)  # and it runs again
    qtbot.waitUntil(lambda: failing.calls == 2, timeout=10000)
    qtbot.waitUntil(lambda: not dlg.busy, timeout=15000)
    assert len(_failures(caplog)) == 1
    dlg.close()
    dlg.deleteLater()


def test_closing_the_window_while_a_dialog_works_cancels_it(
    make_window: Any, ui: Any, qtbot: Any, tmp_path: Path
) -> None:
    win = make_window()
    dlg, button_name, owner, method = _dialogs(win, tmp_path, "delete")
    dlg.show()
    hanging = Hanging()
    setattr(owner, method, hanging)
    ui.click(dlg, button_name)
    ui.run(hanging.started.wait())
    task = dlg._task
    assert dlg.busy and task in win.ops.tasks
    assert ui.run(win.shutdown(interactive=False))
    assert task.cancelled() and hanging.cancelled and not dlg.busy
    assert DOC in {d.doc_id for d in win.ctx.store.snapshot.docs}  # nothing half-deleted


def test_a_failed_move_is_said_once_and_the_moves_come_back(
    make_window: Any, ui: Any, qtbot: Any, caplog: Any
) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    host = win.ops_host
    failing = Failing(host.ops.move)
    host.ops.move = failing
    host.actions["moveUpAction"].trigger()
    boom = in_lang("en", lambda: error_text(BOOM))
    qtbot.waitUntil(lambda: boom in win.notice.label.text(), timeout=10000)
    qtbot.waitUntil(lambda: not host.reorder.running, timeout=10000)
    assert len(_failures(caplog)) == 1
    assert host.actions["moveUpAction"].isEnabled() and host.actions["moveDownAction"].isEnabled()
    host.actions["moveDownAction"].trigger()  # usable again
    qtbot.waitUntil(lambda: "Swapped" in win.notice.label.text(), timeout=15000)
    assert failing.calls == 2 and len(_failures(caplog)) == 1


def test_history_panel_reads_through_the_window_and_closing_cancels(
    make_window: Any, ui: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    win = make_window()
    panel = HistoryPanel(win)
    history = DocHistory(win.ctx.client, win.ctx.store)
    path = f"docs/{DOC}.md"
    text = ui.run(win.ctx.store.load(DOC)).text
    # one more version, so there are two to pick from
    ui.run(win.ctx.store.save(DOC, text + "\n둘째 판\n", ui.run(win.ctx.store.load(DOC)).sha, "e"))
    ui.run(panel.load(history, path, text + "\n셋째\n", title="전략"))
    assert len(panel.versions) >= 2
    qtbot.waitUntil(lambda: _done(panel._task), timeout=10000)
    failing = Failing(history.text_at)
    monkeypatch.setattr(history, "text_at", failing)
    panel.list.setCurrentRow(0)
    qtbot.waitUntil(lambda: "could not be read" in panel.diff_title.text(), timeout=10000)
    assert _done(panel._task)  # shown once, in the panel
    panel.list.setCurrentRow(1)  # usable again
    qtbot.waitUntil(lambda: _done(panel._task) and panel.selected is not None, timeout=10000)
    hanging = Hanging()
    monkeypatch.setattr(history, "text_at", hanging)
    panel.list.setCurrentRow(0)
    ui.run(hanging.started.wait())
    task = panel._task
    assert task is not None and task in win.ops.tasks
    assert ui.run(win.shutdown(interactive=False))
    assert task.cancelled() and hanging.cancelled


def test_sign_in_error_is_shown_once_and_the_button_comes_back(
    sandbox: Any, ui: Any, qtbot: Any, memory_keyring: dict, monkeypatch: Any, caplog: Any
) -> None:
    from modu_desktop.core.account.auth import TokenStore
    from modu_desktop.core.account.settings import Settings
    from modu_desktop.ui.signin.signin import SignInWidget

    monkeypatch.delenv("MODU_TOKEN", raising=False)

    def broken_factory(*_args: Any) -> Any:
        raise BOOM  # after "checking…" began

    w = SignInWidget(Settings(api_url=sandbox.api_url), TokenStore("127.0.0.1"), broken_factory)
    qtbot.addWidget(w)
    w.show()
    w.token_edit.setText("tok-editor1")
    w.start_check()
    task = w._task
    assert task in operations_for(w).tasks  # no window yet: the shared registry
    qtbot.waitUntil(lambda: task.done() and w.message.property("kind") == "error", timeout=10000)
    assert (
        w.message.text() == in_lang("en", lambda: error_text(BOOM))
        and w.message.property("kind") == "error"
    )
    assert w.sign_in_button.isEnabled() and w.token_edit.isEnabled()  # usable again
    assert len(_failures(caplog)) == 1


def test_no_widget_bypasses_the_operations_helper() -> None:
    """There is no fire-and-forget spawner (a task no window knows about, whose error goes to
    the excepthook) and no module imports one: widgets run their jobs through ``Operations``."""
    import ast

    from modu_desktop.ui.kit import asyncutil

    assert not hasattr(asyncutil, "spawn") and not hasattr(asyncutil, "pending_tasks")

    package = Path(__file__).resolve().parents[3] / "modu_desktop"
    offenders = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.ImportFrom)
                and (node.module or "").endswith("asyncutil")
                and any(alias.name == "spawn" for alias in node.names)
            ):
                offenders.append(str(path.relative_to(package)))
    assert offenders == []
