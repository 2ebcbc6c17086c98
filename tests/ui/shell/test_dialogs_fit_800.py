"""Every dialog fits an 800×600 window, in Korean (the longer language here): its size, its
minimum size, and every button it shows inside it (the conflict dialog used to be 1000 px wide,
hiding 취소); and none shows a mnemonic's “&” or the site's code words."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from PySide6 import QtGui
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

from modu_desktop import i18n
from tests.helpers.qt import settle

W, H = 800, 600


@pytest.fixture
def window(make_window: Any, qtbot: Any) -> Any:
    i18n.set_language("ko")
    win = make_window()
    win.resize(W, H)
    qtbot.waitUntil(lambda: win.width() == W and win.height() == H, timeout=3000)
    yield win
    i18n.set_language("en")


def _conflict(win: Any, ui: Any) -> QWidget:
    from modu_desktop.ui.editing.conflict_dialog import ConflictDialog

    mine = "내가 고친 문장입니다.\n" * 40
    return ConflictDialog(
        "비전과 추진 전략", mine, mine + "다른 사람 문장\n", theirs_by="editor2", parent=win
    )


def _compare(win: Any, ui: Any) -> QWidget:
    from modu_desktop.ui.editing.conflict_dialog import ConflictDialog

    return ConflictDialog("비전과 추진 전략", "가\n", "나\n", compare_only=True, parent=win)


def _recovery(win: Any, ui: Any) -> QWidget:
    from modu_desktop.core.saving.drafts import Draft, DraftKey, DraftStore
    from modu_desktop.ui.recovery.recovery_dialog import RecoveryDialog, assess

    base = ui.run(win.ctx.store.load("01-welcome"))
    key = DraftKey(win.ctx.settings.api_url, "pnuai/PNU-Modu", "main", "01-welcome")
    draft = Draft(
        key,
        base.text + "\n복구할 문단\n",
        base.sha,
        "docs/01-welcome.md",
        1.0,
        "dead",
        title="모두 연습 브로슈어에 오신 것을 환영합니다",
    )
    items = ui.run(assess([draft], win.ctx.store))
    return RecoveryDialog(items, DraftStore(win.ctx.paths.drafts_dir), win, can_write=True)


def _picker(win: Any, ui: Any) -> QWidget:
    from modu_desktop.ui.editing.block_picker import BlockPicker

    return BlockPicker(win)


def _new_doc(win: Any, ui: Any) -> QWidget:
    from modu_desktop.core.docops.newdoc import CopySuggestion
    from modu_desktop.ui.editing.new_doc_dialog import NewDocDialog

    suggestion = CopySuggestion("교육 프로그램과 추진 일정 (사본)", 6, "programs-copy")
    return NewDocDialog(suggestion, {"programs"}, win)


def _publish_check(win: Any, ui: Any) -> QWidget:
    from modu_desktop.core.publish.check import check_text
    from modu_desktop.ui.publish.publish_check_panel import PublishCheckDialog

    text = "---\ntitle: 점검\n---\n\n<div>닫히지 않은 태그\n\n:::cards\n- title: 카드\n"
    return PublishCheckDialog(win, text, check_text(text), title="점검")


def _lock(win: Any, ui: Any) -> QWidget:
    from modu_desktop.core.edit_session import LockHolder
    from modu_desktop.ui.locks.lock_dialog import LockDialog

    now = time.time()
    info = LockHolder("03-strategy", "editor2", now - 3600, now - 60, now, title="비전과 추진 전략")
    return LockDialog(info, win, notify_free=lambda *_a: None)


def _delete(win: Any, ui: Any) -> QWidget:
    from modu_desktop.ui.docops.ops_delete import DeleteDialog

    doc = next(d for d in ui.run(win.ctx.store.refresh()).docs if d.doc_id == "03-strategy")
    return DeleteDialog(win.ops_host.ops, doc, win)


def _new_document(win: Any, ui: Any) -> QWidget:
    from modu_desktop.ui.docops.ops_import import NewDocumentDialog

    return NewDocumentDialog(win.ops_host.ops, win)


def _import(win: Any, ui: Any) -> QWidget:
    from modu_desktop.ui.docops.ops_import import ImportDialog

    return ImportDialog(win.ops_host.ops, [], win)


def _picture(win: Any, ui: Any) -> QWidget:
    from modu_desktop.ui.pictures.dialog import ImagePickerDialog

    return ImagePickerDialog(win.ops_host.uploader, win)


def _library(win: Any, ui: Any) -> QWidget:
    from modu_desktop.ui.pictures.library_dialog import PictureLibraryDialog

    dlg = PictureLibraryDialog(win.ops_host.library.source, win)
    ui.qtbot.waitUntil(lambda: dlg.loaded and bool(dlg.detail.use_rows))  # a picture and its pages
    return dlg


def _library_picking(win: Any, ui: Any) -> QWidget:
    from modu_desktop.ui.pictures.library_dialog import PictureLibraryDialog

    dlg = PictureLibraryDialog(win.ops_host.library.source, win, picking=True)
    ui.qtbot.waitUntil(lambda: dlg.loaded and bool(dlg.detail.use_rows))
    return dlg


def _guide(win: Any, ui: Any) -> QWidget:
    from modu_desktop.ui.help.guide import GuideDialog

    return GuideDialog(win)


def _keys(win: Any, ui: Any) -> QWidget:
    from modu_desktop.ui.help.shortcuts_page import ShortcutsDialog

    return ShortcutsDialog(win)


def _about(win: Any, ui: Any) -> QWidget:
    from modu_desktop.ui.help.about import about_box

    return about_box(win)


DIALOGS: dict[str, Callable[[Any, Any], QWidget]] = {
    "conflict": _conflict,
    "compare": _compare,
    "recovery": _recovery,
    "block picker": _picker,
    "save as new": _new_doc,
    "publish check": _publish_check,
    "lock": _lock,
    "delete": _delete,
    "new document": _new_document,
    "import": _import,
    "picture": _picture,
    "picture library": _library,
    "picture library, picking": _library_picking,
    "guide": _guide,
    "shortcuts": _keys,
    "about": _about,
}


@pytest.mark.parametrize("name", list(DIALOGS))
def test_dialog_fits_an_800_by_600_window(name: str, window: Any, ui: Any, qtbot: Any) -> None:
    dlg = DIALOGS[name](window, ui)
    dlg.show()
    settle()
    hint = dlg.minimumSizeHint()
    assert hint.width() <= W and hint.height() <= H, (name, hint)
    assert dlg.width() <= W and dlg.height() <= H, (name, dlg.size())
    inside = dlg.rect()
    for button in dlg.findChildren(QAbstractButton):
        if not button.isVisibleTo(dlg) or button.window() is not dlg:
            continue
        parent = button.parentWidget()
        assert parent is not None
        box = button.geometry().translated(parent.mapTo(dlg, button.pos()) - button.pos())
        assert inside.contains(box), (name, button.text(), box, inside)
    dlg.close()
    dlg.deleteLater()


_CODE_WORDS = re.compile(
    r":::|\*\*|\[!|\[~|\bsidebar_position\b|\b(?:true|false|elevated|outlined)\b"
    r"|\b(?:left|center|right)\s*\|"
)


@pytest.mark.parametrize("name", list(DIALOGS))
def test_dialog_shows_no_mnemonic_ampersand_or_code_words(
    name: str, window: Any, ui: Any, qtbot: Any
) -> None:
    """A label's “&” marks its key only when the label has a field to take the keyboard to;
    without one it shows as it is (“파일(&F):”). And no dialog shows the site's code: block
    syntax, marks, front-matter keys, switch or choice ids."""
    dlg = DIALOGS[name](window, ui)
    dlg.show()
    settle()
    shown: list[str] = []
    for label in dlg.findChildren(QLabel):
        if not label.isVisibleTo(dlg):
            continue
        text = label.text()
        rich = label.textFormat() == Qt.TextFormat.RichText or (
            label.textFormat() == Qt.TextFormat.AutoText and QtGui.Qt.mightBeRichText(text)
        )
        single = re.sub("&&", "", text)
        if not rich and "&" in single:
            assert label.buddy() is not None, (name, text)
        shown.append(label.text())
    for button in dlg.findChildren(QAbstractButton):
        if button.isVisibleTo(dlg):
            shown.append(button.text())
    found = [t for t in shown if _CODE_WORDS.search(t)]
    # the check before a save points at what was written by hand (“:::”, “<br>”) on purpose
    assert not found or name == "publish check", (name, found)
    dlg.close()
    dlg.deleteLater()
