"""페이지 설정 in a narrow pane: the theme and layout choices are never cut to "공공 블루 (챕";
the layout goes under the theme instead, and back beside it when there is room."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QComboBox

from modu_desktop import i18n
from modu_desktop.core.brochure.themes import LAYOUTS, THEMES
from modu_desktop.ui.editing.page_settings import FrontMatterForm


@pytest.fixture(autouse=True)
def _korean() -> Any:
    i18n.set_language("ko")
    yield
    i18n.set_language("ko")


def _whole(box: QComboBox) -> bool:
    """The chosen name fits the box (its icon, arrow and frame beside it)."""
    text = box.fontMetrics().horizontalAdvance(box.currentText())
    return box.width() >= text + box.iconSize().width() + 30


@pytest.mark.parametrize("width", [480, 560, 1400])
def test_the_choices_are_shown_whole_at_any_width(qtbot: Any, width: int) -> None:
    form = FrontMatterForm()
    qtbot.addWidget(form)
    form.resize(width, 200)
    form.show()
    qtbot.waitExposed(form)
    longest_theme = max(THEMES, key=lambda t: len(t.label)).key
    longest_layout = max(LAYOUTS, key=lambda la: len(la.label)).key
    form.set_values({"theme": longest_theme, "layout": longest_layout})
    qtbot.waitUntil(lambda: form.layout_box.isVisible())
    assert _whole(form.theme_box), (width, form.theme_box.width(), form.theme_box.currentText())
    assert _whole(form.layout_box), (width, form.layout_box.width())
    beside = form.layout_box.y() == form.theme_box.y()
    assert beside == (width >= 1400)
    tips = {form.theme_box.itemData(i, 3) for i in range(1, form.theme_box.count())}
    assert tips == {t.label for t in THEMES}  # the whole name, never the site's key
