"""The document list as model/view: site order, filter, selection, lock badges, and a
list from the last run that is checked before any of its rows opens a document."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from modu_desktop.i18n import set_language
from modu_desktop.ui.doclist.panel import DocListModel, DocListPanel, DocRow, LockBadge


def _rows(n: int) -> list[DocRow]:
    return [
        DocRow(f"d{i:05d}", f"docs/{i:05d}-doc.md", f"문서 {i}", n - i if i % 3 else None)
        for i in range(n)
    ]


def test_rows_in_site_order_with_badges_and_filter(qtbot: Any) -> None:
    panel = DocListPanel()
    qtbot.addWidget(panel)
    lock = LockBadge("editor2", 100.0, 100.0, stale=False, mine=False)
    panel.set_rows(
        [
            DocRow("b", "docs/b.md", "Bee", None),
            DocRow("a", "docs/a.md", "Ant", 2, lock),
            DocRow("c", "docs/c.md", "Cat", 1),
        ],
        now=160.0,
    )
    assert panel.doc_ids() == ["c", "a", "b"]  # position, missing last
    assert panel.visible_doc_ids() == ["c", "a", "b"]
    model = panel.tree.model()
    assert model.index(1, 3).data() and "editor2" in model.index(1, 3).data()
    assert "editor2" in model.index(1, 3).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(1, 3).data(Qt.ItemDataRole.ForegroundRole) is not None
    assert model.index(0, 0).data() == "1" and model.index(2, 0).data() == ""
    panel.filter_edit.setText("  BEE ")
    assert panel.visible_doc_ids() == ["b"]
    panel.filter_edit.setText("docs")  # the folder is not part of the file column
    assert panel.visible_doc_ids() == []
    panel.filter_edit.setText(".md")
    assert panel.visible_doc_ids() == ["c", "a", "b"]
    # New rows keep the filter and the selection.
    panel.filter_edit.setText("a")
    panel.select("a")
    assert panel.selected_doc_id() == "a"
    panel.set_rows([DocRow("a", "docs/a.md", "Ant", 2), DocRow("z", "docs/z.md", "Zebra", 3)], 0)
    assert panel.visible_doc_ids() == ["a", "z"]
    assert panel.selected_doc_id() == "a" and panel.row("a") is not None
    assert panel.row("c") is None


def test_enter_and_the_open_button_request_the_selected_document(qtbot: Any) -> None:
    panel = DocListPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.set_rows(_rows(5), 0)
    asked: list[str] = []
    panel.openRequested.connect(asked.append)
    assert not panel.open_button.isEnabled()
    panel.select("d00002")
    assert panel.open_button.isEnabled()
    panel.open_button.click()
    panel.tree.setFocus()
    qtbot.keyClick(panel.tree, Qt.Key.Key_Return)
    assert asked == ["d00002", "d00002"]
    panel.filter_edit.setText("문서 4")
    qtbot.keyClick(panel.filter_edit, Qt.Key.Key_Return)  # Enter in the filter: first match
    assert panel.selected_doc_id() == "d00004"


def test_a_list_from_last_time_opens_nothing_until_it_is_checked(qtbot: Any) -> None:
    set_language("ko")
    panel = DocListPanel()
    qtbot.addWidget(panel)
    asked: list[str] = []
    panel.openRequested.connect(asked.append)
    panel.set_rows(_rows(3), 0, checking=True)
    assert panel.checking and "확인 중" in panel.status.text()
    assert panel.tree.model().index(0, 1).data(Qt.ItemDataRole.ForegroundRole) is not None
    panel.select("d00001")
    panel.open_button.click()
    assert asked == []  # never from a stale row
    assert "엽니다" in panel.status.text()
    panel.set_rows(_rows(3), 0)  # the fresh list confirms it
    assert asked == ["d00001"] and not panel.checking
    # Gone from the fresh list: said, not opened.
    panel.set_rows(_rows(3), 0, checking=True)
    panel.select("d00002")
    panel.open_button.click()
    panel.set_rows(_rows(2), 0)
    assert asked == ["d00001"]
    assert "목록에 없습니다" in panel.status.text()
    # A failed check drops the request: nothing opens later by surprise.
    panel.set_rows(_rows(3), 0, checking=True)
    panel.select("d00000")
    panel.open_button.click()
    panel.set_error("offline")
    panel.set_rows(_rows(3), 0)
    assert asked == ["d00001"]


def test_ten_thousand_documents_list_and_filter_touching_only_the_rows_on_screen(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Listing or filtering 10,000 documents asks the model for the rows on screen only, adds no
    widget per row, and resets the model once; what a per-row widget or a pass per row in Qt
    (a QTreeWidget took ~150 ms to list 10,000) would break. The time is the benchmark's
    (``python -m bench.probe listfilter 10000``, target 16 ms a keystroke)."""
    asked: list[int] = []
    real = DocListModel.data

    def counting(self: DocListModel, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        asked.append(index.row())
        return real(self, index, role)

    monkeypatch.setattr(DocListModel, "data", counting)
    panel = DocListPanel()
    qtbot.addWidget(panel)
    panel.resize(600, 800)
    panel.show()
    panel.set_rows(_rows(10), 0)
    panel.repaint()
    widgets = len(panel.findChildren(QWidget))
    resets: list[bool] = []
    panel.model.modelReset.connect(lambda: resets.append(True))
    asked.clear()
    panel.set_rows(_rows(10_000), 0)
    panel.repaint()
    assert len(panel.doc_ids()) == 10_000
    assert len(resets) == 1 and len(panel.findChildren(QWidget)) == widgets
    assert 0 < len(set(asked)) < 200, len(set(asked))
    folded = panel.model.haystacks()
    for text in ("9", "99", "999", "9999", ""):
        asked.clear()
        resets.clear()
        panel.filter_edit.setText(text)
        panel.repaint()
        assert len(resets) == 1 and len(set(asked)) < 200, (text, len(set(asked)))
    assert len(panel.visible_doc_ids()) == 10_000
    assert panel.model.haystacks() is folded  # the rows are folded once per listing


def test_own_lock_shows_at_once_and_a_listing_corrects_it(qtbot: Any) -> None:
    """set_own_lock (the "Editing" column) on the model/view list: this window's lock and a
    lock just lost show without a new listing; the next listing is the truth again."""
    panel = DocListPanel()
    qtbot.addWidget(panel)
    panel.set_rows([DocRow("a", "docs/a.md", "A", 1), DocRow("b", "docs/b.md", "B", 2)], 100.0)

    def badge(doc: str) -> str:
        item = next(it for it in panel._items() if it.data(0, Qt.ItemDataRole.UserRole) == doc)
        return item.text(panel.COL_LOCK)

    panel.set_own_lock("a", started_at=90.0)
    assert badge("a") == "You (this window)" and badge("b") == ""
    panel.set_own_lock("b")
    assert badge("a") == "" and badge("b") == "You (this window)"
    thief = LockBadge("editor2", 95.0, 99.0, stale=False, mine=False)
    panel.set_own_lock(None, lost=("b", thief))
    assert "editor2" in badge("b")
    panel.set_rows([DocRow("a", "docs/a.md", "A", 1), DocRow("b", "docs/b.md", "B", 2)], 101.0)
    assert badge("b") == ""  # the listing says free now; the loss was told once


def test_a_narrow_list_hides_the_file_column(qtbot: Any) -> None:
    panel = DocListPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.set_rows(_rows(3), 0)
    panel.resize(300, 400)
    qtbot.waitUntil(lambda: panel.tree.isColumnHidden(panel.COL_FILE), timeout=10000)
    panel.resize(600, 400)
    qtbot.waitUntil(lambda: not panel.tree.isColumnHidden(panel.COL_FILE), timeout=10000)


def test_the_selection_survives_keystrokes_that_still_show_it(qtbot: Any) -> None:
    """The model filters itself with a reset, which drops the view's selection: the panel puts
    it back while the row matches, and every row stays reachable while filtered."""
    panel = DocListPanel()
    qtbot.addWidget(panel)
    panel.resize(500, 300)
    panel.show()
    panel.set_rows(_rows(500), 0)
    panel.select("d00412")
    for text in ("4", "41", "412"):
        panel.filter_edit.setText(text)
        assert panel.selected_doc_id() == "d00412", text
        assert "d00412" in panel.visible_doc_ids()
    row = panel.tree.selectionModel().selectedRows()[0]
    assert panel.tree.visualRect(row).intersects(panel.tree.viewport().rect())  # kept in view
    assert panel.tree.model().index(row.row(), 1).data() == "문서 412"
    assert len(panel._items()) == 500 and panel.row("d00001") is not None
    panel.filter_edit.setText("413")
    assert panel.selected_doc_id() is None and panel.visible_doc_ids() == ["d00413"]
    panel.filter_edit.setText("  413 ")  # the same filter: nothing reset, nothing moved
    assert panel.visible_doc_ids() == ["d00413"]
