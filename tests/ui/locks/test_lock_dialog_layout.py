"""The lock question in Korean shows every button whole: the 800 px screenshots showed
"편집 가능해지면 알려 주기" cut short (Qt chose a dialog narrower than its row of buttons)."""

from __future__ import annotations

import time
from typing import Any

from modu_desktop.core.edit_session import LockHolder
from modu_desktop.i18n import set_language
from modu_desktop.ui.locks.lock_dialog import LockDialog


def test_every_button_of_the_lock_question_is_shown_whole(qtbot: Any) -> None:
    set_language("ko")
    now = time.time()
    info = LockHolder("03-strategy", "editor2", now - 600, now - 30, now, title="비전과 추진 전략")
    dlg = LockDialog(info, None, notify_free=lambda *_a: None)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    assert dlg.notify_button is not None and "알려 주기" in dlg.notify_button.text()
    for b in (dlg.read_only_button, dlg.steal_button, dlg.notify_button, dlg.cancel_button):
        assert b.width() >= b.sizeHint().width(), (b.objectName(), b.width(), b.sizeHint())
        assert dlg.rect().contains(b.geometry()), b.objectName()
    assert dlg.width() >= 460
