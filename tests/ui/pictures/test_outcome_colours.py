"""The picture's rename and shrink dialogs colour their outcome as the replace review and 기록's
undo do (``ui/kit/change_outcome.py``): green when every page changed, amber when the change
landed with a page left out (someone else edits it; it is named), red only when nothing
changed. The dialogs run over a stand-in for the library's core side that answers with the
outcome given, so each outcome is shown exactly as the dialog receives it."""

from __future__ import annotations

from typing import Any

import pytest

from modu_desktop.core.changes.outcome import (
    ChangeOutcome,
    ChangeState,
    ChangeSummary,
    PageDone,
    PageNote,
    PageReason,
)
from modu_desktop.core.pictures.library import LibraryPicture, PictureLibrary
from modu_desktop.core.pictures.pixels import PixelSize
from modu_desktop.ui.pictures.rename_dialog import RenamePictureDialog
from modu_desktop.ui.pictures.shrink_dialog import ShrinkPictureDialog
from tests.helpers.picture_site import photo

NOW = 1_750_000_000.0
OLD = "static/img/uploads/campus.jpg"
NEW = "static/img/uploads/campus-2026.jpg"
WELCOME = PageDone("docs/01-welcome.md", "환영합니다", "b1", None, "01-welcome")
HELD = PageNote(
    "docs/04-admission.md",
    "모집 안내와 현황",
    PageReason.HELD,
    doc_id="04-admission",
    holder="kim",
    since=NOW - 300,
    last_seen=NOW - 10,
)


def outcome(kind: str, state: ChangeState, *, left_out: bool) -> ChangeOutcome:
    summary = ChangeSummary(kind, OLD, NEW if kind == "rename" else "", width=800)
    landed = state is ChangeState.COMMITTED
    return ChangeOutcome(
        summary,
        state,
        committed=(WELCOME,) if landed else (),
        left_out=(HELD,) if left_out else (),
        commit_sha="c0ffee" if landed else None,
    )


class Source:
    """The library's core side as the two dialogs use it, answering with ``answer``."""

    def __init__(self, answer: ChangeOutcome) -> None:
        self.answer = answer

    def server_now(self) -> float:
        return NOW

    def rename_target(self, _library: Any, _picture: Any, typed: str) -> str:
        return typed + ".jpg"

    def rename_refusal(self, _library: Any) -> None:
        return None

    async def rename_blockers(self, _picture: Any) -> tuple[PageNote, ...]:
        return ()

    async def rename(self, _old: str, _new: str) -> ChangeOutcome:
        return self.answer

    async def picture_bytes(self, _picture: Any) -> bytes:
        return photo(2400, 1600)

    async def shrink(self, _picture: Any, _data: bytes, _width: int) -> ChangeOutcome:
        return self.answer


PICTURE = LibraryPicture(OLD, "a1", 3_000_000, PixelSize(2400, 1600))

CASES = [
    pytest.param(ChangeState.COMMITTED, False, "ok", id="every page changed: green"),
    pytest.param(ChangeState.COMMITTED, True, "warning", id="saved, a page left out: amber"),
    pytest.param(ChangeState.NOTHING, True, "error", id="nothing changed: red"),
]


@pytest.mark.parametrize(("state", "left_out", "kind"), CASES)
def test_the_rename_colours_its_outcome_by_what_changed(
    ui: Any, qtbot: Any, state: ChangeState, left_out: bool, kind: str
) -> None:
    answer = outcome("rename", state, left_out=left_out)
    source: Any = Source(answer)
    dlg = RenamePictureDialog(source, PictureLibrary((PICTURE,)), PICTURE)
    qtbot.addWidget(dlg)
    ui.run(dlg.load())
    dlg.name.setText("campus-2026")
    assert dlg.action.isEnabled()
    ui.wait_task(dlg.start())
    assert dlg.status.property("kind") == kind
    assert ("“모집 안내와 현황”" in dlg.status.text()) is left_out  # the page left out, named
    assert (dlg.outcome is answer) is (state is ChangeState.COMMITTED)


@pytest.mark.parametrize(("state", "left_out", "kind"), CASES)
def test_the_shrink_colours_its_outcome_by_what_changed(
    ui: Any, qtbot: Any, state: ChangeState, left_out: bool, kind: str
) -> None:
    answer = outcome("shrink", state, left_out=left_out)
    source: Any = Source(answer)
    dlg = ShrinkPictureDialog(source, PICTURE, PICTURE.pixels)
    qtbot.addWidget(dlg)
    assert ui.run(dlg.load()) is not None  # the smaller copy is made
    assert dlg.action.isEnabled()
    ui.wait_task(dlg.start())
    assert dlg.status.property("kind") == kind
    assert ("“모집 안내와 현황”" in dlg.status.text()) is left_out
    assert (dlg.outcome is answer) is (state is ChangeState.COMMITTED)
