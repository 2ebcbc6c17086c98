"""``--open welcome`` (the front-matter id, also the site address) opens
01-welcome; a name that is no document writes nothing, not even a lock."""

from __future__ import annotations

from typing import Any

from tests.helpers.sandbox import lock_json, writes


def test_open_by_front_matter_id(make_window: Any, sandbox: Any, ui: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document("welcome"))
    assert win.doc is not None and win.doc.doc_id == "01-welcome" and win.doc.editable
    assert lock_json(sandbox, "01-welcome")["editingBy"] == "editor1"
    assert lock_json(sandbox, "welcome") is None


def test_startup_open_by_front_matter_id(make_window: Any, sandbox: Any, ui: Any) -> None:
    from modu_desktop.ui.shell.app_run import startup

    win = make_window()
    ui.run(startup(win, "strategy", None))
    assert win.doc is not None and win.doc.doc_id == "03-strategy"


def test_open_of_a_missing_document_writes_no_lock(make_window: Any, sandbox: Any, ui: Any) -> None:
    win = make_window()
    before = writes(sandbox)
    assert ui.run(win.open_document("no-such-page")) is False
    assert writes(sandbox) == before
    assert lock_json(sandbox, "no-such-page") is None
    assert win.doc is None
    assert win.notice.isVisible() and "no-such-page" in win.notice.label.text()
