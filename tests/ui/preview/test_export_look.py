"""The exported page (``export-html``) is drawn exactly as the preview draws the document: the
same font faces load (family, weight, character slice) and the page lays out to the same
height, in the engine the preview uses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.preview import build_page, render_document, style_from_checkout
from modu_desktop.core.preview.export import local_picture_resolver, standalone_page
from tests.helpers.nodetools import SITE_FIXTURE

DOCS = Path(__file__).resolve().parents[2] / "fixtures" / "pnu-modu" / "docs"

# Once the fonts asked for so far are in: the page's height and its loaded faces, as JSON in
# window.__drawn (runJavaScript does not wait for a promise).
_LOADED = (
    "window.__drawn = ''; document.body.offsetHeight; document.fonts.ready.then(function () {"
    " window.__drawn = JSON.stringify({height: document.documentElement.scrollHeight,"
    " faces: Array.from(document.fonts).filter(function (f) { return f.status === 'loaded'; })"
    ".map(function (f) { return [f.family.replace(/[\"']/g, ''), f.weight, f.unicodeRange]; })"
    ".sort()}); }); 1"
)


def _drawn(qtbot: Any, html: str) -> dict[str, Any]:
    """Height and loaded font faces of ``html`` in a preview page (900 px wide)."""
    from PySide6.QtWebEngineWidgets import QWebEngineView

    from modu_desktop.ui.preview.engine import new_page, preview_profile

    view = QWebEngineView()
    qtbot.addWidget(view)
    page = new_page(view)
    view.setPage(page)
    view.resize(900, 900)
    view.show()
    with qtbot.waitSignal(page.loadFinished, timeout=30000):
        page.load(preview_profile().pages.put(html))
    seen: list[dict[str, Any]] = []

    def js(script: str) -> Any:
        box: list[Any] = []
        page.runJavaScript(script, 0, box.append)
        qtbot.waitUntil(lambda: bool(box), timeout=30000)
        return box[0]

    def settled() -> bool:
        js(_LOADED)
        qtbot.waitUntil(lambda: bool(js("window.__drawn")), timeout=30000)
        seen.append(json.loads(js("window.__drawn")))
        return len(seen) >= 2 and seen[-1] == seen[-2]  # nothing more loads

    qtbot.waitUntil(settled, timeout=60000)
    return seen[-1]


@pytest.mark.parametrize("doc", ["05-part-5", "08-part-8"])  # GmarketSans; system fonts in blocks
def test_the_exported_page_is_drawn_in_the_preview_s_fonts(qtbot: Any, doc: str) -> None:
    text = (DOCS / f"{doc}.md").read_text("utf-8")
    style = style_from_checkout(SITE_FIXTURE)
    resolver = local_picture_resolver(DOCS, SITE_FIXTURE / "static")
    preview = build_page(render_document(text, style=style, image_resolver=resolver), style)
    exported = standalone_page(text, style=style, image_resolver=resolver)
    ours, theirs = _drawn(qtbot, preview), _drawn(qtbot, exported)
    assert ours["faces"] and theirs == ours
