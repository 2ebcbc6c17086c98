"""The list's "Editing" column follows this window's own opens, closes,
take-overs, losses and recoveries at once, without waiting for the next listing (F5)."""

from __future__ import annotations

from typing import Any

A, B = "02-programs", "03-strategy"
THIS_WINDOW = "You (this window)"


def _badge(win: Any, doc_id: str) -> str:
    for it in win.doc_list._items():
        if it.data(0, 256) == doc_id:  # Qt.ItemDataRole.UserRole
            return str(it.text(win.doc_list.COL_LOCK))
    raise AssertionError(f"{doc_id} not listed")


def _no_refresh(win: Any) -> list[int]:
    """Count listings, and make sure none happens behind the test's back."""
    calls: list[int] = []

    async def refresh() -> bool:
        calls.append(1)
        return True

    win.refresh_list = refresh
    win.list_refresh.stop()
    return calls


def test_open_switch_and_close_update_the_column_at_once(make_window: Any, ui: Any) -> None:
    win = make_window()
    listings = _no_refresh(win)
    assert ui.run(win.open_document(A))
    assert _badge(win, A) == THIS_WINDOW
    assert ui.run(win.open_document(B))
    assert _badge(win, A) == ""  # released when we switched
    assert _badge(win, B) == THIS_WINDOW
    assert ui.run(win.close_document(interactive=False))
    assert _badge(win, B) == ""
    assert listings == []  # all of it without a new listing


def test_take_over_shows_us_at_once(make_window: Any, peer: Any, ui: Any) -> None:
    p = peer("editor2", "tok-editor2")
    assert ui.run(p.locks.acquire(A)).held is not None
    win = make_window()
    assert "editor2" in _badge(win, A)
    _no_refresh(win)
    task = ui.start(win.open_document(A))
    ui.click(ui.dialog("lockDialog"), "stealButton")
    ui.click(ui.dialog("stealConfirmDialog"), "confirmStealButton")
    assert ui.wait_task(task) is True
    assert _badge(win, A) == THIS_WINDOW


def test_losing_the_lock_shows_the_new_holder_at_once(
    make_window: Any, peer: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window(heartbeat_s=1)
    _no_refresh(win)
    assert ui.run(win.open_document(A))
    p = peer("editor2", "tok-editor2")
    assert ui.run(p.locks.steal(ui.run(p.locks.inspect(A)))).held is not None
    qtbot.waitUntil(lambda: win.lock_banner.isVisible(), timeout=10000)
    assert "editor2" in _badge(win, A) and THIS_WINDOW not in _badge(win, A)


def test_a_recovered_lock_is_this_window_not_elsewhere(
    make_window: Any, peer: Any, ui: Any
) -> None:
    # The crashed session's lock (our login, another session id) is what the first listing saw.
    dead = peer("editor1", "tok-editor1", session_id="crashed-session")
    assert ui.run(dead.locks.acquire(A)).held is not None
    win = make_window()
    assert "elsewhere" in _badge(win, A)
    _no_refresh(win)
    # Recovery takes the lock back for this window and opens the document with it.
    res = ui.run(win.ctx.locks.steal(ui.run(win.ctx.locks.inspect(A))))
    assert res.held is not None
    assert ui.run(win.open_with_lock(A, res.held))
    assert _badge(win, A) == THIS_WINDOW
