"""게시 안 됨 in the list and above the editor, and 게시하기: one save that takes the draft line out
(with whatever else was typed), after which the page is published and the marks go."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap, QTextCursor

from modu_desktop import i18n
from modu_desktop.core.docops.newdoc import NewDocRequest
from tests.helpers.qt import settle

DOC = "06-camp"


@pytest.fixture(autouse=True)
def _korean() -> Iterator[None]:
    i18n.set_language("ko")
    yield
    i18n.set_language("en")


def test_an_unpublished_page_says_so_and_publish_saves_it_once(
    make_window: Any, sandbox: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window(lang="ko")
    made = ui.run(win.ops_host.ops.create(NewDocRequest("camp", "여름 캠프", 6), keep_lock=False))
    assert made.ok and made.doc_id == DOC
    assert ui.run(win.refresh_list())
    row = win.doc_list.row(DOC)
    assert row is not None and row.unpublished
    model = win.doc_list.model
    assert isinstance(model.cell(row, 1, int(Qt.ItemDataRole.DecorationRole.value)), QPixmap)
    said = model.cell(row, 1, int(Qt.ItemDataRole.AccessibleTextRole.value))
    assert said == "여름 캠프, 게시 안 됨"
    assert model.set_needle("게시 안") and [r.doc_id for r in model.shown()] == [DOC]
    model.set_needle("")

    assert ui.run(win.open_document(DOC))
    assert win.doc_list.row(DOC).unpublished  # still marked with our lock badge on it
    bar = win.unpublished
    qtbot.waitUntil(bar.banner.isVisible, timeout=5000)
    assert bar.banner.label.text() == (
        "<b>게시 안 됨</b> · 이 페이지는 아직 사이트에 나타나지 않습니다. "
        "준비가 되면 ‘게시하기’를 누르세요."
    )
    assert bar.publish_button.isEnabled() and bar.publish_button.text() == "게시하기(&U)"
    assert win.doc_header.text() == "<b>여름 캠프</b>"  # the title; no file name

    # Typing does not make it published: the bar follows the saved text.
    editor = win.editor_pane.editor
    editor.moveCursor(QTextCursor.MoveOperation.End)
    editor.insertPlainText("\n캠프 일정은 곧 알려 드립니다.\n")
    settle()
    assert bar.banner.isVisible()
    commits_before = len(sandbox.commits(path=f"docs/{DOC}.md"))

    assert ui.run(bar.publish())
    saved = sandbox.read_file(f"docs/{DOC}.md").decode("utf-8")
    assert "draft" not in saved and "캠프 일정은 곧 알려 드립니다." in saved
    assert len(sandbox.commits(path=f"docs/{DOC}.md")) == commits_before + 1  # one save
    qtbot.waitUntil(lambda: not bar.banner.isVisible(), timeout=5000)
    assert "“여름 캠프”를 게시했습니다" in win.notice.label.text()
    qtbot.waitUntil(lambda: not win.doc_list.row(DOC).unpublished, timeout=10000)
    editor.document().undo()  # one step back brings the draft line back, as typed
    assert "draft: true" in win.editor_pane.text()


def test_a_good_build_never_calls_an_unpublished_page_published() -> None:
    from modu_desktop.core.publish.status import DocStatus, EditPhase, PublishPhase
    from modu_desktop.ui.publish.status_words import publishing_line, status_bar_words

    hidden = DocStatus("06-camp", EditPhase.CLEAN, PublishPhase.PUBLISHED, unpublished=True)
    shown = DocStatus("06-camp", EditPhase.CLEAN, PublishPhase.PUBLISHED)
    assert status_bar_words(hidden, None) == ("✔ 사이트 갱신됨 · 이 페이지는 게시 안 됨", "ok")
    assert status_bar_words(shown, None) == ("✔ 게시됨", "ok")
    assert "게시 안 됨" in publishing_line(hidden, 0.0) and "게시됨<" not in publishing_line(
        hidden, 0.0
    )
