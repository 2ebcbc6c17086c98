"""New document: the title first, the id derived from it (Hangul allowed) and editable under
고급, theme and layout by their Korean names, no label shown twice."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QAbstractButton, QFormLayout, QLabel

from modu_desktop import i18n
from modu_desktop.core.docops.ops import NewDocRequest, validate_new_id
from modu_desktop.ui.docops.ops_import import NewDocForm


def _form(qtbot: Any) -> NewDocForm:
    i18n.set_language("ko")
    f = NewDocForm()
    qtbot.addWidget(f)
    f.show()
    return f


def test_title_comes_first_and_the_id_follows_it(qtbot: Any) -> None:
    f = _form(qtbot)
    outer = f.layout()
    first = outer.itemAt(0) if outer is not None else None
    lay = first.layout() if first is not None else None
    assert isinstance(lay, QFormLayout)
    title_row = lay.itemAt(0, QFormLayout.ItemRole.FieldRole)
    assert title_row is not None and title_row.widget() is f.title_edit
    f.title_edit.setText("2026 AI 부트캠프 안내")
    assert f.id_edit.text() == "2026-AI-부트캠프-안내"
    assert validate_new_id(f.id_edit.text()) is None
    assert f.request().doc_id == "2026-AI-부트캠프-안내"
    assert "2026-AI-부트캠프-안내.md" in f.file_label.text()  # shown without opening 고급
    assert not f.id_edit.isVisible()


def test_id_is_editable_under_advanced_and_then_stops_following(qtbot: Any) -> None:
    f = _form(qtbot)
    f.title_edit.setText("입학 안내")
    qtbot.mouseClick(
        f.advanced_button, __import__("PySide6.QtCore").QtCore.Qt.MouseButton.LeftButton
    )
    assert f.advanced.isVisible() and f.id_edit.isVisible()
    assert f.advanced_button.text().startswith("고급")
    f.id_edit.clear()
    qtbot.keyClicks(f.id_edit, "admission")
    f.title_edit.setText("입학 안내 2027")
    assert f.id_edit.text() == "admission"  # the hand-made id stays
    f.id_edit.clear()
    f.id_edit.textEdited.emit("")  # emptied: follows the title again
    assert f.id_edit.text() == "입학-안내-2027"


def test_a_bad_id_opens_advanced_to_show_it(qtbot: Any) -> None:
    f = _form(qtbot)
    f.set_request(NewDocRequest("a b", "제목"))
    assert not f.advanced.isVisible()
    f.show_error("doc_id", "id에는 공백을 쓸 수 없습니다")
    assert f.advanced.isVisible() and f.id_edit.property("invalid") is True


def test_no_label_twice_and_korean_theme_names(qtbot: Any) -> None:
    f = _form(qtbot)
    f.show_advanced()
    texts = []
    for w in f.findChildren(QLabel) + f.findChildren(QAbstractButton):
        if w.isVisible() and w.text().strip():
            texts.append(w.text().replace("&", "").rstrip(":").strip())
    texts = [t for t in texts if t not in ("—",)]
    assert len(texts) == len(set(texts)), texts
    themes = [f.theme.itemText(i) for i in range(f.theme.count())]
    assert "공공 블루 (챕터 1~2)" in themes and "public-blue" not in themes
    assert not f.theme.itemIcon(0).isNull()
    f.theme.setCurrentIndex(f.theme.findData("royal-purple"))
    f.layout_combo.setCurrentIndex(f.layout_combo.findData("poster"))
    req = f.request()
    assert (req.theme, req.layout) == ("royal-purple", "poster")
    assert f.layout_combo.currentText() == "A3 포스터 (1560px)"
