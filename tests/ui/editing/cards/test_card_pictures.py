"""A text box shows the document's pictures — the same files the preview shows, fetched from
the repository in the background — not a grey placeholder for each."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtGui import QImage, QTextDocument

from modu_desktop.ui.editing.cards.text_card import TextCard

LOGO = "/img/modu-logo.png"  # 16×16 in the practice repository


def _shown(card: TextCard, src: str) -> QImage | None:
    res = card.editor.document().resource(QTextDocument.ResourceType.ImageResource.value, QUrl(src))
    return res if isinstance(res, QImage) else None


def test_a_text_box_shows_the_repositorys_picture(make_window: Any, ui: Any, qtbot: Any) -> None:
    win = make_window()
    assert ui.run(win.open_document("sandbox-notes"))
    page = win.editor_pane.page_editor
    page.build_all()
    card = next(c for c in page.cards if isinstance(c, TextCard) and LOGO in c.source)
    qtbot.waitUntil(lambda: (img := _shown(card, LOGO)) is not None and img.width() == 16)
    height = card.editor.height()
    card.sizer.fit()
    assert card.editor.height() == height  # as tall as the text with the picture, no more
    # a second document with the same picture: at once, from the mirror
    assert ui.run(win.open_document("welcome"))
    assert ui.run(win.open_document("sandbox-notes"))
    page.build_all()
    card = next(c for c in page.cards if isinstance(c, TextCard) and LOGO in c.source)
    image = _shown(card, LOGO)
    assert image is not None and image.width() == 16
