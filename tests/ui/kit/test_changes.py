"""What an operation changed reaches every part that shows it (``kit/changes.py``), and the
window follows a version that landed on GitHub (``shell/following.py``)."""

from __future__ import annotations

import time
from typing import Any

from modu_desktop.core.saving.drafts import Draft, DraftKey
from modu_desktop.ui.kit.changes import ChangeBus, Changes, Landed


def test_subscribers_hear_each_change_in_the_order_they_subscribed() -> None:
    bus = ChangeBus()
    heard: list[tuple[str, Changes]] = []
    bus.subscribe(lambda c: heard.append(("first", c)))
    bus.subscribe(lambda c: heard.append(("second", c)))
    change = Changes(doc_list=True)
    bus.publish(change)
    bus.publish(Changes(open_doc=True))
    assert [who for who, _ in heard] == ["first", "second", "first", "second"]
    assert heard[0][1] is change and heard[2][1].open_doc and not heard[2][1].doc_list


def test_a_landed_version_of_the_open_document_becomes_its_base(make_window: Any, ui: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document("02-programs"))
    win.editor_pane.editor.insertPlainText("새 문장 ")
    text = win.editor_pane.text()
    assert win.editor_pane.is_modified()
    landed = Landed("02-programs", win.doc.path, "a" * 40, text)
    win.changes.publish(Changes(landed=landed))
    assert win.doc.base_sha == "a" * 40
    assert not win.editor_pane.is_modified()  # the editor shows exactly what is on GitHub now


def test_a_landed_version_of_a_closed_document_takes_only_its_own_draft(
    make_window: Any, ui: Any
) -> None:
    win = make_window()
    ws = win.ctx.workspace
    t = ws.target
    assert ws.drafts is not None

    def draft(doc_id: str, text: str) -> DraftKey:
        key = DraftKey(t.api_host, t.repo, t.branch, doc_id)
        ws.drafts.save(Draft(key, text, "b" * 40, f"docs/{doc_id}.md", time.time(), "gone"))
        return key

    same = draft("03-strategy", "the text that went out")
    other = draft("04-people", "edited again after the save")
    win.changes.publish(
        Changes(
            landed=Landed("03-strategy", "docs/03-strategy.md", "c" * 40, "the text that went out")
        )
    )
    win.changes.publish(
        Changes(landed=Landed("04-people", "docs/04-people.md", "d" * 40, "the text that went out"))
    )
    assert ws.drafts.load(same) is None
    assert ws.drafts.load(other) is not None  # newer edits than the version that landed
