"""One event → one message in one place, and success clears what it
resolves (a picture refused then uploaded; an outage and its end)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QMimeData, QUrl
from PySide6.QtGui import QTextCursor

DOC = "02-programs"
PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
    b"\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84"
    b"\x00\x00\x00\x00IEND\xaeB`\x82"
)


def _big(tmp_path: Path, kind: str = "jpg") -> Path:
    """A 30 MB picture; a GIF cannot be made smaller for the user (it may be animated), so
    it is refused outright instead of being offered the automatic downscale."""
    big = tmp_path / f"big.{kind}"
    with big.open("wb") as fh:
        fh.write(b"GIF89a" if kind == "gif" else b"\xff\xd8\xff\xe0")
        fh.truncate(30 * 1024 * 1024)
    return big


def _places(win: Any, needle: str) -> list[str]:
    """Where a text containing ``needle`` is shown in the window."""
    out = []
    if win.notice.isVisible() and needle in win.notice.label.text():
        out.append("notice")
    if needle in win.status_lock.text():
        out.append("status bar")
    if win.lock_banner.isVisible() and needle in win.lock_banner.label.text():
        out.append("lock banner")
    return out


def _mime(path: Path) -> QMimeData:
    m = QMimeData()
    m.setUrls([QUrl.fromLocalFile(str(path))])
    return m


def test_a_refused_picture_is_reported_once_and_cleared_by_a_later_upload(
    make_window: Any, ui: Any, tmp_path: Path
) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    helper = win.ops_host.image_helper
    ui.run(helper._upload_and_insert(_mime(_big(tmp_path, "gif")), 0))  # dropped on the editor
    assert _places(win, "30.0 MB") == ["notice"]
    assert "Uploading" not in win.status_lock.text()  # the progress text is gone too
    png = tmp_path / "ok.png"
    png.write_bytes(PNG)
    ui.run(helper._upload_and_insert(_mime(png), 0))
    assert not win.notice.isVisible()  # the success resolved the refusal
    assert _places(win, "Uploaded") == ["status bar"]


def test_a_refusal_in_the_picker_dialog_is_shown_only_there(
    make_window: Any, ui: Any, tmp_path: Path
) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    big = _big(tmp_path)
    task = ui.start(win.ops_host.insert_picture())
    dlg = ui.dialog("opsImageDialog")
    dlg.path_edit.setText(str(big))
    ui.wait_task(dlg.start())
    assert "30.0 MB" in dlg.status.text()
    assert _places(win, "30.0 MB") == []  # not repeated behind the dialog
    dlg.reject()
    assert ui.wait_task(task) is None
    assert _places(win, "30.0 MB") == []


def test_an_outage_reads_the_same_everywhere_and_its_end_clears_it(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    from modu_desktop.core.github.client import RetryPolicy

    win = make_window()
    win.ctx.client.retry = RetryPolicy(max_attempts=1, max_total=0.2)
    ui.run(win.recover_at_start())  # the window's save queue runs (as after the app's start)
    assert ui.run(win.open_document(DOC))
    win.editor_pane.editor.moveCursor(QTextCursor.MoveOperation.End)
    win.editor_pane.editor.insertPlainText("\n끊긴 동안 쓴 문장\n")
    sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    assert ui.run(win.save()) is False
    assert ui.run(win.refresh_list()) is False
    phrase = "Not connected to GitHub"
    assert phrase.lower() in win.doc_list.status.text().lower()
    assert phrase in win.status_conn.text()
    assert win.notice.isVisible() and phrase.lower() in win.notice.label.text().lower()
    assert "Not saved" not in win.status_lock.text()  # said once, in the notice
    sandbox.faults.update(failure_rate=0.0)
    assert ui.run(win.refresh_list()) is True
    assert win.status_conn.property("kind") == "ok"
    # What the outage said is no longer shown. (The waiting save goes out as soon as GitHub
    # answers; it may already have landed and said so meanwhile.)
    assert not (win.notice.isVisible() and phrase.lower() in win.notice.label.text().lower())
    assert phrase.lower() not in win.doc_list.status.text().lower()
    # the text was kept on this computer (arch: every editing window has the save queue) and
    # goes out as soon as GitHub answers again
    nl = win.nothing_lost
    qtbot.waitUntil(lambda: nl.queue.pending_count() == 0, timeout=10000)
    assert "끊긴 동안 쓴 문장" in sandbox.read_file(f"docs/{DOC}.md").decode()
    qtbot.waitUntil(lambda: "waiting for the connection" in win.notice.label.text(), timeout=10000)
    assert win.notice.isVisible()
    win.editor_pane.editor.insertPlainText("다시 연결된 뒤\n")
    assert ui.run(win.save()) is True


def test_a_save_error_is_said_once(make_window: Any, ui: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document(DOC))
    from modu_desktop.core.edit_session import NotSaved

    win.report(NotSaved(DOC, "error", RuntimeError("disk full")))
    assert _places(win, "disk full") == ["notice"]


def test_when_the_connection_is_back_the_waiting_save_goes_out_and_the_notice_goes(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    from modu_desktop.core.saving.queue import Backoff
    from tests.helpers.ui_windows import window_with_running_queue

    win, nl = window_with_running_queue(make_window, ui)
    nl.queue.spool.backoff = Backoff(base_s=600.0, cap_s=600.0, jitter=0.0)  # no retry by itself
    try:
        assert ui.run(win.open_document(DOC))
        win.editor_pane.editor.moveCursor(QTextCursor.MoveOperation.End)
        win.editor_pane.editor.insertPlainText("\n끊긴 동안 저장한 문장\n")
        sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
        assert ui.run(win.save()) is False
        assert nl.queue.pending_count() == 1
        assert "Not connected to GitHub" in win.notice.label.text()
        # the queue has tried once and now waits its (long) backoff, not sending
        qtbot.waitUntil(
            lambda: any(
                i.attempts >= 1 and i.state == "pending" for i in nl.queue.spool.pending_items()
            ),
            timeout=10000,
        )
        sandbox.faults.update(failure_rate=0.0)
        assert ui.run(win.refresh_list())  # GitHub answers again
        assert "Not connected" not in win.notice.label.text() or not win.notice.isVisible()
        qtbot.waitUntil(lambda: nl.queue.pending_count() == 0, timeout=10000)
        qtbot.waitUntil(lambda: not win.editor_pane.is_modified(), timeout=5000)
        assert "끊긴 동안 저장한 문장" in sandbox.read_file(f"docs/{DOC}.md").decode()
    finally:
        ui.run(nl.aclose())
