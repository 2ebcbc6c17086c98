"""The preview's own zoom (on screen, Ctrl+wheel, remembered) and a narrow pane that shows the
page scaled down instead of squeezing it until words break."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QWidget

from modu_desktop.core.account.settings import load_settings
from modu_desktop.ui.preview.pane import MIN_PAGE_PX, PreviewPane

TEXT = "---\ntitle: 확대\n---\n\n" + "사이트에 보일 모습을 미리 만들겠습니다. " * 40 + "\n"


def _pane(qtbot: Any, width: int) -> PreviewPane:
    pane = PreviewPane()
    qtbot.addWidget(pane)
    pane.resize(width, 700)
    pane.show()
    with qtbot.waitSignal(pane.rendered, timeout=30000):
        pane.render_now(TEXT)
    return pane


def _js(qtbot: Any, pane: PreviewPane, script: str) -> Any:
    box: list[Any] = []
    pane.run_js(script, box.append)
    qtbot.waitUntil(lambda: bool(box), timeout=10000)
    return box[0]


def test_a_narrow_pane_scales_the_page_instead_of_squeezing_it(qtbot: Any) -> None:
    pane = _pane(qtbot, 230)
    qtbot.waitUntil(lambda: (_js(qtbot, pane, "window.innerWidth") or 0) >= MIN_PAGE_PX - 2)
    assert pane.zoom_bar.isVisible() and "100%" in pane.zoom_bar.label.text()
    assert pane.zoom_bar.toolTip()  # says the page is made smaller to fit
    pane.resize(1000, 700)
    qtbot.waitUntil(lambda: abs((_js(qtbot, pane, "window.innerWidth") or 0) - 1000) < 30)
    assert not pane.zoom_bar.toolTip()


def test_zoom_is_shown_stepped_and_ctrl_wheel_is_ours(qtbot: Any) -> None:
    pane = _pane(qtbot, 1000)
    seen: list[float] = []
    pane.zoomChanged.connect(seen.append)
    qtbot.mouseClick(pane.zoom_bar.in_button, Qt.MouseButton.LeftButton)
    assert seen == [1.1] and pane.zoom_bar.label.text() == "110%"
    assert pane.zoom_bar.label.accessibleName() == "Preview 110%"
    qtbot.waitUntil(lambda: abs((_js(qtbot, pane, "window.innerWidth") or 0) - 1000 / 1.1) < 30)
    target: QWidget = next((w for w in pane.view.findChildren(QWidget) if w.isVisible()), pane.view)
    pos = QPointF(target.width() / 2, target.height() / 2)
    wheel = QWheelEvent(
        pos,
        target.mapToGlobal(pos),
        QPoint(0, 0),
        QPoint(0, 120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.ControlModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(target, wheel)
    assert seen[-1] == 1.25 and "125%" in pane.zoom_bar.label.text()
    qtbot.mouseClick(pane.zoom_bar.label, Qt.MouseButton.LeftButton)
    assert pane.user_zoom() == 1.0 and seen[-1] == 1.0


def test_the_preview_zoom_is_remembered(make_window: Any, ui: Any, qtbot: Any) -> None:
    win = make_window(data="zoom")
    preview = win.editor_pane.preview
    assert ui.run(win.open_document("01-welcome"))
    preview.set_user_zoom(1.5)
    assert load_settings(win.ctx.paths.settings_file).preview_zoom == 1.5
    # the next start reads the settings file; its window starts at that zoom
    again = make_window(data="zoom-next")
    from modu_desktop.ui.preview.wiring import attach_preview

    again.ctx.settings = load_settings(win.ctx.paths.settings_file)
    attach_preview(again)
    assert again.editor_pane.preview.user_zoom() == 1.5
