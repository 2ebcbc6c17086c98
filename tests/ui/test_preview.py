"""PreviewPane: debounce, scroll keeping, local-only resources, screenshot."""

from __future__ import annotations

import base64
import time
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QColor, QImage, QTextDocument

from modu_desktop.core.render import REMOTE_IMAGE_PLACEHOLDER
from modu_desktop.ui.preview import DEBOUNCE_MS, PreviewPane
from tests.conftest import FIXTURES

TEMPLATE = FIXTURES / "docs" / "99-template.md"
IMAGE = int(QTextDocument.ResourceType.ImageResource)


def _pane(qtbot: object) -> PreviewPane:
    pane = PreviewPane()
    qtbot.addWidget(pane)  # type: ignore[attr-defined]
    pane.resize(900, 1200)
    return pane


def _png(path: Path, color: str = "#ff0000") -> Path:
    img = QImage(40, 20, QImage.Format.Format_RGB32)
    img.fill(QColor(color))
    assert img.save(str(path))
    return path


def _png_bytes() -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    img = QImage(4, 4, QImage.Format.Format_RGB32)
    img.fill(QColor("#123456"))
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")  # type: ignore[call-overload]
    buf.close()
    return bytes(data.data())


def test_widget_contract(qtbot: object) -> None:
    pane = _pane(qtbot)
    assert pane.objectName() == "preview"
    assert not pane.openLinks() and not pane.openExternalLinks()
    assert pane.isReadOnly()
    assert pane.accessibleName()
    assert pane.debounce_interval() == DEBOUNCE_MS == 150


def test_debounce_renders_once_after_typing_stops(qtbot: object) -> None:
    pane = _pane(qtbot)
    renders: list[float] = []
    pane.rendered.connect(lambda: renders.append(time.monotonic()))
    last_call = 0.0
    for i in range(6):
        pane.schedule_render(f"# 제목 {i}\n\n본문 {i}")
        last_call = time.monotonic()
        qtbot.wait(30)  # type: ignore[attr-defined]
        if time.monotonic() - last_call < 0.14:  # a loaded machine may oversleep
            assert renders == [], "rendered while still typing"
    qtbot.waitUntil(lambda: len(renders) >= 1, timeout=2000)  # type: ignore[attr-defined]
    elapsed = renders[-1] - last_call
    assert 0.14 <= elapsed < 1.0, elapsed
    qtbot.wait(300)  # type: ignore[attr-defined]
    assert renders[-1] - last_call == elapsed  # nothing rendered afterwards
    assert "제목 5" in pane.toPlainText() and "제목 4" not in pane.toPlainText()


def test_many_quick_calls_render_once(qtbot: object) -> None:
    pane = _pane(qtbot)
    for i in range(50):
        pane.schedule_render(f"# {i}")
    assert pane.render_count == 0 and pane.is_render_pending()
    qtbot.waitUntil(lambda: pane.render_count == 1, timeout=2000)  # type: ignore[attr-defined]
    qtbot.wait(250)  # type: ignore[attr-defined]
    assert pane.render_count == 1 and "49" in pane.toPlainText()


def test_render_now_is_immediate_and_cancels_pending(qtbot: object) -> None:
    pane = _pane(qtbot)
    pane.schedule_render("# 예약")
    assert pane.is_render_pending()
    pane.render_now("# 바로")
    assert not pane.is_render_pending()
    assert pane.render_count == 1 and "바로" in pane.toPlainText()
    qtbot.wait(250)  # type: ignore[attr-defined]
    assert pane.render_count == 1 and "예약" not in pane.toPlainText()


def test_identical_output_skips_qt_relayout(qtbot: object) -> None:
    pane = _pane(qtbot)
    pane.render_now("# 제목\n\n본문\n")
    revision = pane.document().revision()
    pane.render_now("# 제목\n\n\n본문\n\n\n")  # extra blank lines: same HTML
    assert pane.document().revision() == revision
    pane.render_now("# 제목\n\n다른 본문\n")
    assert pane.document().revision() != revision
    assert pane.render_count == 3


def test_load_resource_refuses_remote(qtbot: object, tmp_path: Path) -> None:
    pane = _pane(qtbot)
    for url in (
        "http://example.com/a.png",
        "https://example.com/a.png",
        "ftp://example.com/a.png",
        "//example.com/a.png",
        "img/relative.png",
        "qrc:/something.png",
    ):
        assert pane.loadResource(IMAGE, QUrl(url)) is None, url
    assert any(u.startswith("http://") for u in pane.refused_urls)
    local = _png(tmp_path / "a.png")
    image = pane.loadResource(IMAGE, QUrl.fromLocalFile(str(local)))
    assert isinstance(image, QImage) and not image.isNull()
    data = base64.b64encode(local.read_bytes()).decode()
    image2 = pane.loadResource(IMAGE, QUrl(f"data:image/png;base64,{data}"))
    assert isinstance(image2, QImage) and image2.width() == 40
    # Style sheets or other resource types are never loaded, even from local files.
    css = tmp_path / "x.css"
    css.write_text("body{}")
    stylesheet = int(QTextDocument.ResourceType.StyleSheetResource)
    assert pane.loadResource(stylesheet, QUrl.fromLocalFile(str(css))) is None


def test_remote_image_is_never_requested(qtbot: object) -> None:
    pane = _pane(qtbot)
    requested: list[str] = []
    original = pane.loadResource

    def spy(kind: int, url: QUrl | str) -> object:
        requested.append(url.toString() if isinstance(url, QUrl) else url)
        return original(kind, url)

    pane.loadResource = spy  # type: ignore[method-assign,assignment]
    pixel = base64.b64encode(_png_bytes()).decode()
    pane.render_now(
        f"![점](data:image/png;base64,{pixel})\n\n"
        "![로고](https://cdn.example.com/logo.png)\n\n"
        '<img src="http://cdn.example.com/raw.png">\n\n'
        '<div style="background-image: url(http://cdn.example.com/bg.png)">x</div>\n'
    )
    pane.grab()  # paint: forces any image loading
    assert any(u.startswith("data:image/png") for u in requested), "spy not consulted"
    assert not [u for u in requested if "example.com" in u]
    assert pane.refused_urls == []
    assert REMOTE_IMAGE_PLACEHOLDER in pane.toPlainText()


def test_local_image_through_resolver(qtbot: object, tmp_path: Path) -> None:
    png = _png(tmp_path / "logo.png", "#00ff00")
    asked: list[str] = []

    def resolver(src: str) -> str | None:
        asked.append(src)
        return QUrl.fromLocalFile(str(png)).toString() if src == "/img/logo.png" else None

    pane = PreviewPane(image_resolver=resolver)
    qtbot.addWidget(pane)  # type: ignore[attr-defined]
    pane.render_now("![로고](/img/logo.png)\n")
    pane.grab()
    assert asked == ["/img/logo.png"]
    res = pane.document().resource(IMAGE, QUrl.fromLocalFile(str(png)))
    assert res is not None


def test_scroll_position_kept_proportionally(qtbot: object) -> None:
    pane = _pane(qtbot)
    pane.show()
    text = TEMPLATE.read_text(encoding="utf-8")
    pane.render_now(text)
    bar = pane.verticalScrollBar()
    assert bar.maximum() > 2000
    bar.setValue(bar.maximum() // 2)
    pane.render_now(text + "\n\n추가 문단\n")
    ratio = bar.value() / bar.maximum()
    assert 0.45 <= ratio <= 0.55, ratio
    bar.setValue(0)
    pane.render_now(text)
    assert bar.value() == 0


def test_theme_override(qtbot: object) -> None:
    pane = _pane(qtbot)
    pane.render_now("---\ntheme: teal-green\n---\n# 제목\n")
    html_teal = pane.document().toHtml()
    pane.set_theme("burgundy-gold")
    html_burgundy = pane.document().toHtml()
    assert html_teal != html_burgundy
    assert pane.render_count == 2


def test_screenshot_of_template(qtbot: object, tmp_path: Path) -> None:
    pane = _pane(qtbot)
    pane.show()
    pane.render_now(TEMPLATE.read_text(encoding="utf-8"))
    out = tmp_path / "preview-template.png"
    assert pane.grab().save(str(out))
    img = QImage(str(out))
    assert img.width() >= 900 and img.height() >= 1200
    # The hero band is drawn in the theme's hero colour near the top.
    colors = {img.pixelColor(x, 60).name() for x in range(100, 800, 50)}
    assert "#123a8a" in colors
