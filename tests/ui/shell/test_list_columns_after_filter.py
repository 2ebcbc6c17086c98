"""A listing that comes while the filter hides every row (the list refreshes by itself) must not
shrink the file and editing columns to their headings for good: once the filter is cleared,
they fit their contents again ("01-…" was all that was left of each file name)."""

from __future__ import annotations

from typing import Any


def test_columns_fit_again_after_a_listing_under_an_empty_filter(
    make_window: Any, ui: Any, qtbot: Any
) -> None:
    win = make_window()
    panel = win.doc_list
    win.resize(1600, 1000)
    qtbot.waitUntil(lambda: not panel.model.compact)
    file_col = panel.COL_FILE
    before = panel.tree.columnWidth(file_col)
    panel.filter_edit.setText("참여 학과")  # matches nothing
    assert panel.model.rowCount() == 0
    assert ui.run(win.refresh_list())  # a listing meanwhile
    panel.filter_edit.setText("")
    assert panel.model.rowCount() > 0
    assert panel.tree.columnWidth(file_col) == before
