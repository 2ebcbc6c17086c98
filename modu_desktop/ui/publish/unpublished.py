"""게시 안 됨: the bar above the editor while the open page is not published, with 게시하기.

A new page and a "새 문서로 저장" copy are saved with ``draft: true`` (``core.docops
.unpublished``): the site's build leaves them out. While the open page's *saved* text says so
(the editor's text whenever it has no unsaved changes), this bar says it in words and offers
게시하기, which takes the ``draft`` line out and saves — one save, through the same check and
lock as any other; the page shows on the site after the next build.

    bar = UnpublishedBar.attach(window, header)   # placed under the page's title
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QLabel, QPlainTextEdit

from modu_desktop.core.brochure.unpublished import is_unpublished, published
from modu_desktop.core.publish.status import PublishBoard
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.banners import Banner
from modu_desktop.ui.publish.publish_check_panel import replace_editor_text

if TYPE_CHECKING:
    from modu_desktop.core.edit_session import EditSession
    from modu_desktop.ui.kit.operation import Operations


class RawEditorHolder(Protocol):
    @property
    def editor(self) -> QPlainTextEdit: ...


class UnpublishedWindow(Protocol):
    """What the bar uses of the window: the open page, its text, saving it."""

    ops: Operations
    board: PublishBoard

    @property
    def editor_pane(self) -> RawEditorHolder: ...

    @property
    def doc(self) -> EditSession | None: ...

    def label(self, doc_id: str) -> str: ...

    def show_notice(self, text: str, kind: str = "info", topic: str | None = None) -> None: ...

    async def save(self) -> bool: ...


class UnpublishedBar(QObject):
    def __init__(self, win: UnpublishedWindow, banner: Banner) -> None:
        super().__init__(banner)
        self.win = win
        self.banner = banner
        self.saved_unpublished = False  # what the last saved (unmodified) text says
        self.publish_button = banner.add_button("publishButton", tr("P&ublish"))
        self.publish_button.setAccessibleName(tr("Publish this page"))
        self.publish_button.setToolTip(
            tr("Takes the page out of hiding and saves: the site shows it after its next build.")
        )
        self.publish_button.clicked.connect(lambda: win.ops.run(self.publish(), name="publish"))
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.update)
        document = win.editor_pane.editor.document()
        document.contentsChanged.connect(self._timer.start)
        document.modificationChanged.connect(lambda _m: self._timer.start())
        banner.hide()

    @classmethod
    def attach(cls, win: UnpublishedWindow, header: QLabel) -> UnpublishedBar:
        """The bar, placed right under the page's title (``header``)."""
        banner = Banner("unpublishedBanner", "warning")
        parent = header.parentWidget()
        layout = parent.layout() if parent is not None else None
        if layout is not None:
            index = layout.indexOf(header)
            layout.insertWidget(index + 1, banner)  # type: ignore[attr-defined]
        return cls(win, banner)

    def update(self) -> None:
        """Follow the open page: shown while its saved text is not published."""
        s = self.win.doc
        editor = self.win.editor_pane.editor
        if s is None:
            self.saved_unpublished = False
        elif not editor.document().isModified():
            self.saved_unpublished = is_unpublished(_front(editor.toPlainText()))
            # the publishing line must not call it published either
            self.win.board.set_unpublished(s.doc_id, self.saved_unpublished)
        self.banner.setVisible(self.saved_unpublished)
        if not self.saved_unpublished:
            return
        said = tr("This page does not show on the site yet. Press “Publish” when it is ready.")
        state = tr("Not published")
        self.banner.set_text(f"<b>{html.escape(state)}</b> · {html.escape(said)}")
        self.banner.setAccessibleName(f"{state}. {said}")
        self.publish_button.setEnabled(bool(s is not None and s.editable and not s.saving))

    async def publish(self) -> bool:
        """Take the ``draft`` line out and save (with any other change not saved yet)."""
        s = self.win.doc
        if s is None or not s.editable or s.saving:
            return False
        editor = self.win.editor_pane.editor
        text = editor.toPlainText()
        ready = published(text)
        if ready != text:
            replace_editor_text(editor, ready)  # one undo step, as typed
        if not await self.win.save():
            return False
        title = s.title or self.win.label(s.doc_id)
        self.win.show_notice(
            tr(
                "“{doc}” is published: it shows on the site once the site is built again, "
                "in a minute or two.",
                doc=title,
            ),
            "info",
        )
        return True


def _front(text: str) -> str:
    """The front matter part of ``text`` (enough to tell; the body may be long)."""
    if not text.lstrip("\ufeff").startswith("---"):
        return ""
    end = text.find("\n---", 3)
    return text[: end + 5] if end >= 0 else text[:4000]
