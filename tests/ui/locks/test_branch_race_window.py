"""The window on a busy branch: 40 % of its lock writes lose the race for the branch (GitHub's
409 "is at X but expected Y") for a simulated minute of 2-second heartbeats, on a compressed
clock (10×: heartbeat 0.2 s, the sandbox's rate-limit minute 6 s). The window keeps its lock,
never goes read-only and never shows a dialog; then a raced save lands with no question.
Progress is counted in heartbeats, never in elapsed time."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication, QDialog

from modu_desktop.core.edit_session import HeartbeatMissed, LockLost, LockRenewed, SessionEvent
from modu_desktop.core.github.writes import RaceRetry
from tests.helpers.sandbox import lock_json

DOC = "02-programs"
PATH = f"docs/{DOC}.md"
SPEED = 10.0  # simulated seconds per real second
BEAT_S = 2.0  # the simulated heartbeat
MINUTE_OF_BEATS = int(60 / BEAT_S)


def _visible_dialogs() -> list[str]:
    return [
        w.objectName() or type(w).__name__
        for w in QApplication.topLevelWidgets()
        if isinstance(w, QDialog) and w.isVisible()
    ]


def test_a_minute_of_raced_lock_writes_keeps_the_lock_and_asks_nothing(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    sandbox.faults.update(
        race_rate=0.4, race_paths=(".locks/",), rng_seed=22, rate_time_scale=SPEED
    )
    win = make_window(heartbeat_s=BEAT_S / SPEED)
    # The client's pauses after a lost race, on the same compressed clock.
    win.ctx.client.race = RaceRetry(base_delay=0.3 / SPEED, max_delay=2.4 / SPEED, max_total=0.6)
    events: list[SessionEvent] = []
    report = win.report

    def recording(event: SessionEvent) -> None:
        events.append(event)
        report(event)

    win.report = recording  # type: ignore[method-assign]
    assert ui.run(win.open_document(DOC))
    session = win.doc
    assert session is not None
    seen: dict[str, Any] = {"dialogs": [], "read_only": False, "not_editable": False}

    def a_minute_passed() -> bool:
        seen["dialogs"] += _visible_dialogs()
        seen["read_only"] |= win.editor_pane.editor.isReadOnly()
        seen["not_editable"] |= not session.editable
        beats = [e for e in events if isinstance(e, LockRenewed | HeartbeatMissed)]
        return len(beats) >= MINUTE_OF_BEATS

    qtbot.waitUntil(a_minute_passed, timeout=120_000)
    assert sandbox.stats()["branch_moved"] >= MINUTE_OF_BEATS // 4  # the race really happened
    assert seen == {"dialogs": [], "read_only": False, "not_editable": False}
    assert not [e for e in events if isinstance(e, LockLost)]
    renewed = [e for e in events if isinstance(e, LockRenewed)]
    assert len(renewed) >= MINUTE_OF_BEATS * 0.9  # a rare beat may miss (and is retried soon)
    assert win.lock_banner.isHidden() and win.readonly_banner.isHidden()
    lock = lock_json(sandbox, DOC)
    assert lock is not None and lock["editingBy"] == "editor1"
    assert lock["sessionId"] == win.ctx.session_id

    # A raced save lands with no question.
    sandbox.faults.race_rate = 0.0
    sandbox.lose_next_write(PATH)
    win.editor_pane.editor.moveCursor(QTextCursor.MoveOperation.End)
    win.editor_pane.editor.insertPlainText("\n경주 뒤의 저장\n")
    assert ui.run(win.save()) is True
    assert _visible_dialogs() == []
    assert "경주 뒤의 저장" in sandbox.read_file(PATH).decode()
    assert not win.editor_pane.is_modified()
