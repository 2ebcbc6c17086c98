"""The review before a replacement across pages: page by page and hit by hit, each with a tick
box, read as the cards read them, then ONE commit (``core/search/apply.py``,
``core/changes/send.py``).

    dialog = ReplaceReviewDialog(ws, index, "2025학년도", "2026학년도", options, parent,
                                 open_pages=WindowPages(win))
    await dialog.load()                       # plans; the dialog is filled
    outcome = await review_and_replace(ws, index, "2025학년도", "2026학년도", options, parent,
                                       open_pages=WindowPages(win))   # shows it, waits

Each hit is the sentence as its card shows it (no Markdown marks), the old words struck
through and the new ones marked, under its place ("통계 카드 › 항목 2 › 값"); a hit that cannot
be replaced where it is says why and has no tick box. Pages that someone else is editing, or
that are open here with text not saved yet, are listed apart, with who and since when; they
are not changed. Enter never changes many pages by accident: the default button is 취소, and
the one that changes is explicit ("17개 문서 바꾸기", its count following the ticks). While the
change is sent the dialog shows its progress; then it says what became of it, naming each
page by its title (changed, left out and why, or waiting on this computer for the connection).
A page open here without unsaved text shows its new text and builds on the new commit
(``OpenPages.landed``); a page with unsaved text was left out.

``open_pages`` is what the dialog needs of the window (:class:`OpenPages`); the window's own
is ``ui/publish/landed_pages.WindowPages``. The dialog imports nothing of the window.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Collection, Sequence
from typing import Any, Protocol

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.changes.outcome import ChangeOutcome, ChangeState, PageDone
from modu_desktop.core.changes.send import send_change
from modu_desktop.core.search import words as search_words
from modu_desktop.core.search.apply import plan_across_pages, prepare_replace
from modu_desktop.core.search.index import SearchIndex
from modu_desktop.core.search.model import (
    HitKey,
    PagePlan,
    PlannedHit,
    ReplacePlan,
    SearchOptions,
    hit_key,
)
from modu_desktop.core.workspace import Workspace
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.asyncutil import run_dialog
from modu_desktop.ui.kit.change_outcome import landed, outcome_report
from modu_desktop.ui.kit.fit import fit_to_screen
from modu_desktop.ui.kit.op_dialog import OpDialog

__all__ = ["OpenPages", "ReplaceReviewDialog", "hit_html", "review_and_replace"]

_AROUND = 40  # characters of the sentence shown on each side of the words
_OLD = "color: #b3261e"
_NEW = "background-color: #d7f0dc; color: #0d5c1e"


class OpenPages(Protocol):
    """The pages open in the window: which have text not saved yet (doc ids; they are left
    out), and what to do when the change landed (the open page shows its new text and builds
    on its new version)."""

    def unsaved(self) -> Collection[str]: ...

    def landed(self, pages: Sequence[PageDone], commit_sha: str | None) -> None: ...


def hit_html(planned: PlannedHit, replacement: str) -> str:
    """One hit as rich text: its place, then the sentence with the old words struck through
    and the new ones marked (or why it cannot be replaced)."""
    hit = planned.hit
    text = hit.text.replace("\n", " ")
    left, right = max(0, hit.start - _AROUND), min(len(text), hit.end + _AROUND)
    before = ("…" if left else "") + text[left : hit.start]
    after = text[hit.end : right] + ("…" if right < len(text) else "")
    place = html.escape(search_words.place(hit.place)())
    old = f'<s style="{_OLD}">{html.escape(hit.words)}</s>'
    new = f' <b style="{_NEW}">{html.escape(replacement)}</b>' if planned.refused is None else ""
    sentence = f"{html.escape(before)}{old}{new}{html.escape(after)}"
    out = f'<span style="color: #5f6368">{place}</span><br>{sentence}'
    if planned.refused is not None:
        why = html.escape(search_words.refusal(planned.refused)())
        out += f'<br><i style="color: #5f6368">{why}</i>'
    return out


def _label(text: str, name: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    return label


class _PageBox(QFrame):
    """One page: its title with a tick box for all its hits, then each hit."""

    changed = Signal()

    def __init__(self, page: PagePlan, replacement: str) -> None:
        super().__init__()
        self.setObjectName("replacePage")
        self.page = page
        self.hits: dict[HitKey, QCheckBox] = {}
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 6, 4, 6)
        self.box = QCheckBox(tr("{title} — {n} place(s)", title=page.title, n=len(page.hits)))
        self.box.setObjectName("replacePageBox")
        self.box.setTristate(False)
        font = self.box.font()
        font.setBold(True)
        self.box.setFont(font)
        self.box.clicked.connect(self._page_clicked)
        lay.addWidget(self.box)
        for planned in page.hits:
            lay.addWidget(self._row(planned, replacement))
        self._sync()

    def _row(self, planned: PlannedHit, replacement: str) -> QWidget:
        row = QWidget()
        h = QHBoxLayout(row)
        h.setContentsMargins(22, 0, 0, 0)
        label = _label(hit_html(planned, replacement), "replaceHitText")
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        box = QCheckBox()
        box.setObjectName("replaceHitBox")
        where = search_words.place(planned.hit.place)()
        box.setAccessibleName(f"{where}: {planned.hit.words} → {replacement}")
        if planned.refused is None:
            box.setChecked(planned.chosen)
            box.toggled.connect(self._sync)
            self.hits[hit_key(planned.hit)] = box
        else:
            box.setEnabled(False)
        h.addWidget(box, 0, Qt.AlignmentFlag.AlignTop)
        h.addWidget(label, 1)
        return row

    def _page_clicked(self, checked: bool) -> None:
        for box in self.hits.values():
            box.blockSignals(True)
            box.setChecked(checked)
            box.blockSignals(False)
        self._sync()

    def _sync(self) -> None:
        ticked = sum(1 for b in self.hits.values() if b.isChecked())
        self.box.setEnabled(bool(self.hits))
        state = Qt.CheckState.Unchecked
        if ticked == len(self.hits) and ticked:
            state = Qt.CheckState.Checked
        elif ticked:
            state = Qt.CheckState.PartiallyChecked
        self.box.blockSignals(True)
        self.box.setCheckState(state)
        self.box.blockSignals(False)
        self.changed.emit()

    def chosen(self) -> set[HitKey]:
        return {key for key, box in self.hits.items() if box.isChecked()}


class ReplaceReviewDialog(OpDialog):
    """Review, then one commit (see the module docstring). ``replaced(ChangeOutcome)`` is
    emitted when the change was sent (committed or waiting in the queue)."""

    replaced = Signal(object)

    def __init__(
        self,
        workspace: Workspace,
        index: SearchIndex,
        query: str,
        replacement: str,
        options: SearchOptions | None = None,
        parent: QWidget | None = None,
        *,
        open_pages: OpenPages | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("replaceReviewDialog")
        self.setWindowTitle(tr("Replace on every page"))
        self.ws, self.index = workspace, index
        self.query, self.replacement = query, replacement
        self.options = options or SearchOptions()
        self.open_pages = open_pages
        self.plan: ReplacePlan | None = None
        self.pages: list[_PageBox] = []
        self.outcome: ChangeOutcome | None = None
        lay = QVBoxLayout(self)
        self.heading = _label(f"‘{query}’ → ‘{replacement}’", "replaceHeading")
        font = self.heading.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.heading.setFont(font)
        self.heading.setWordWrap(True)
        lay.addWidget(self.heading)
        self.summary = _label(tr("Reading the pages…"), "replaceSummary")
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        self.hits_area = QScrollArea()
        self.hits_area.setObjectName("replaceHits")
        self.hits_area.setWidgetResizable(True)
        self.list = QWidget()
        self.list_layout = QVBoxLayout(self.list)
        self.list_layout.addStretch(1)
        self.hits_area.setWidget(self.list)
        lay.addWidget(self.hits_area, 1)
        self.add_status_widgets(lay)
        self.action, self.cancel = self.add_op_buttons(
            lay, tr("Change {n} page(s)", n=0), "replaceButton", default=False
        )
        self.action.setAutoDefault(False)
        self.action.setEnabled(False)
        self.cancel.setDefault(True)  # Enter cancels: changing many pages is a click
        self.inputs = [self.hits_area]
        fit_to_screen(self, 760, 560)

    # ----- the plan ---------------------------------------------------------------------

    async def load(self) -> ReplacePlan:
        """Plan the replacement over the pages that have the words, and show it."""
        snap = self.ws.store.snapshot
        locks = snap.locks if snap is not None else {}
        unsaved = self.open_pages.unsaved() if self.open_pages is not None else ()
        plan = await plan_across_pages(
            self.index,
            self.ws.locks,
            locks,
            self.query,
            self.replacement,
            self.options,
            unsaved=unsaved,
        )
        self._show_plan(plan)
        return plan

    def _show_plan(self, plan: ReplacePlan) -> None:
        self.plan = plan
        left = {p.doc_id for p in plan.left_out}
        at = self.list_layout.count() - 1  # before the stretch
        for page in plan.pages:
            if page.doc_id in left and not any(h.chosen and not h.refused for h in page.hits):
                continue
            box = _PageBox(page, self.replacement)
            box.changed.connect(self._count)
            self.pages.append(box)
            self.list_layout.insertWidget(at, box)
            at += 1
        if plan.left_out:
            heading = _label(tr("Not changed"), "replaceLeftOutHeading")
            heading.setFont(self.heading.font())
            self.list_layout.insertWidget(at, heading)
            for n, out in enumerate(plan.left_out, 1):
                line = _label(search_words.left_out(out)(), "replaceLeftOut")
                line.setWordWrap(True)
                self.list_layout.insertWidget(at + n, line)
        hits = sum(len(p.hits) for p in plan.pages)
        self.summary.setText(
            tr(
                "{hits} place(s) on {pages} page(s). Untick a place to leave it as it is; every "
                "ticked place changes in one save.",
                hits=hits,
                pages=len(plan.pages),
            )
            if plan.pages
            else tr("No page has “{text}”.", text=self.query)
        )
        self._count()

    def chosen(self) -> set[HitKey]:
        return set().union(*(p.chosen() for p in self.pages)) if self.pages else set()

    def _count(self) -> None:
        n = sum(1 for p in self.pages if p.chosen())
        self.action.setText(tr("Change {n} page(s)", n=n))
        self.action.setAccessibleName(self.action.text())
        self.action.setEnabled(n > 0 and self.outcome is None)

    # ----- the change -------------------------------------------------------------------

    def start(self) -> asyncio.Task[Any]:
        chosen = self.chosen()
        return self.run_op(lambda: self._replace(chosen), tr("Changing the pages in one save…"))

    async def _replace(self, chosen: set[HitKey]) -> ChangeOutcome:
        snap = self.ws.store.snapshot
        unsaved = self.open_pages.unsaved() if self.open_pages is not None else ()
        plan = await plan_across_pages(
            self.index,
            self.ws.locks,
            snap.locks if snap is not None else {},
            self.query,
            self.replacement,
            self.options,
            chosen=chosen,
            unsaved=unsaved,
        )
        paths = None
        if snap is not None:
            paths = {d.path for d in snap.docs} | {e.path for e in snap.images}
        prepared = prepare_replace(plan, repo_paths=paths)
        ws = self.ws
        return await send_change(
            ws.client,
            prepared,
            ws.editor,
            spool=ws.spool,
            read_blob=ws.store.read_blob,
            on_queued=ws.saves.on_queued,
        )

    def on_result(self, res: Any) -> None:
        outcome: ChangeOutcome = res
        self.outcome = outcome
        if outcome.state is ChangeState.COMMITTED and self.open_pages is not None:
            self.open_pages.landed(outcome.committed, outcome.commit_sha)
        self.show_status(*outcome_report(outcome, self.ws.server_now()))
        self.action.hide()
        self.hits_area.setEnabled(False)
        self.cancel.setText(tr("Close"))
        self.cancel.setDefault(True)
        if landed(outcome):
            self.replaced.emit(outcome)


async def review_and_replace(
    workspace: Workspace,
    index: SearchIndex,
    query: str,
    replacement: str,
    options: SearchOptions | None = None,
    parent: QWidget | None = None,
    *,
    open_pages: OpenPages | None = None,
) -> ChangeOutcome | None:
    """Show the review (window-modal) and wait until it is closed: the outcome when the pages
    were changed (or the change waits in the queue), None when nothing was sent."""
    dialog = ReplaceReviewDialog(
        workspace, index, query, replacement, options, parent, open_pages=open_pages
    )
    try:
        await dialog.load()
        await run_dialog(dialog)
        return dialog.outcome
    finally:
        dialog.deleteLater()
