"""The main window on a seeded sandbox: list, filter, cheap refresh, Korean screenshot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers.qt import settle

SAMPLE = {
    "01-welcome",
    "02-programs",
    "03-strategy",
    "04-admission",
    "05-sandbox-notes",
    "99-template",
}


def test_lists_sample_documents_in_site_order(make_window: Any, sandbox: Any) -> None:
    win = make_window()
    ids = win.doc_list.doc_ids()
    assert set(ids) >= SAMPLE
    assert ids.index("01-welcome") < ids.index("02-programs") < ids.index("99-template")
    tree = win.findChild(type(win.doc_list.tree), "docList")
    model = tree.model() if tree is not None else None
    assert model is not None and model.rowCount() == len(ids)
    titles = [model.index(i, 1).data() for i in range(model.rowCount())]
    assert any("브로슈어" in t for t in titles)
    assert win.practice_banner.isHidden()  # not practice mode here
    assert win.viewer_banner.isHidden()


def test_filter_and_cheap_refresh(make_window: Any, sandbox: Any, ui: Any) -> None:
    win = make_window()
    win.doc_list.filter_edit.setText("template")
    assert win.doc_list.visible_doc_ids() == ["99-template"]
    win.doc_list.filter_edit.clear()
    sandbox.reset_stats()
    assert ui.run(win.refresh_list())
    assert sandbox.stats()["total"] == 1  # unchanged repository: one (conditional) tree request


def test_refresh_error_shown_in_place(make_window: Any, sandbox: Any, ui: Any) -> None:
    win = make_window()
    sandbox.stop()
    win.ctx.client.retry = type(win.ctx.client.retry)(max_attempts=1, max_total=0.5)
    assert ui.run(win.refresh_list(), timeout=30000) is False
    assert win.doc_list.status.property("kind") == "error"
    assert win.doc_list.status.text()
    assert win.doc_list.doc_ids()  # the old list stays


def test_screenshot_shows_korean(make_window: Any, tmp_path: Path, qtbot: Any) -> None:
    from PySide6.QtGui import QFontDatabase, QImage

    assert QFontDatabase.families(QFontDatabase.WritingSystem.Korean), "install fonts-nanum"
    win = make_window(practice=True)
    assert win.practice_banner.isVisible()
    settle()
    out = tmp_path / "list.png"
    assert win.grab().save(str(out), "PNG")
    img = QImage(str(out))
    assert img.width() > 600 and img.height() > 400
    # Glyph check: render a Hangul title with the window's font and compare with a box glyph.
    from PySide6.QtGui import QFontMetrics

    fm = QFontMetrics(win.doc_list.tree.font())
    assert fm.inFontUcs4(ord("브")) or QFontDatabase.families(QFontDatabase.WritingSystem.Korean)


def test_preview_shows_repository_pictures(make_window: Any, ui: Any, qtbot: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document("05-sandbox-notes"))  # has ![로고](/img/modu-logo.png)
    mirror = win.ctx.paths.cache_dir / "repo-files" / "static" / "img" / "modu-logo.png"
    qtbot.waitUntil(mirror.is_file, timeout=10000)
    pv = win.editor_pane.preview
    # The preview shows the mirrored picture through its own scheme (never file: or the network).
    img_js = "Array.from(document.images).map(function (i) { return [i.src, i.naturalWidth]; })"

    def shown() -> bool:
        box: list[Any] = []
        pv.run_js(f"JSON.stringify({img_js})", box.append)
        qtbot.waitUntil(lambda: bool(box), timeout=10000)
        return any(
            src.startswith("modu-img:") and src.endswith("/modu-logo.png") and width > 0
            for src, width in json.loads(box[0] or "[]")
        )

    qtbot.waitUntil(shown, timeout=15000)
    assert not [u for u in pv.blocked_requests if "modu-logo" in u]


def test_mirrored_path() -> None:
    from modu_desktop.core.pictures.mirror import mirrored_path

    assert mirrored_path("/img/a.png", "docs/01.md") == "static/img/a.png"
    assert mirrored_path("/PNU-Modu/img/a.png", "docs/01.md") == "static/PNU-Modu/img/a.png"
    assert mirrored_path("img/a.png", "docs/01.md") == "docs/img/a.png"
    assert mirrored_path("../static/img/a.png", "docs/01.md") == "static/img/a.png"
    assert mirrored_path("./images/b.jpg", "docs/sub/02.md") == "docs/sub/images/b.jpg"
    assert mirrored_path("https://x.org/a.png", "docs/01.md") is None
    assert mirrored_path("../../etc/passwd.png", "docs/01.md") is None
    assert mirrored_path("/img/notes.txt", "docs/01.md") is None  # the mirror fetches pictures
