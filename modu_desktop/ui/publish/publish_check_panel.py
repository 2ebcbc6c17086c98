"""Before a save: what in the text would stop the site from updating, and how to fix it.

``PublishCheckDialog(parent, text, result)`` works on a copy of the text: each "고치기" applies
that finding's fix to the copy and checks again; "모두 고치기" applies every fix. The user
decides how to go on (``dialog.choice``):

- ``SAVE_FIXED`` — save ``dialog.text`` (the fixed copy);
- ``SAVE_ANYWAY`` — save ``dialog.text`` as it stands (with any fixes made), after a second,
  explicit confirmation that the site will not update until the problem is fixed;
- ``BACK`` — back to editing, nothing saved (also Esc and closing the window; the default
  button is this one, so Enter never saves a page that breaks the site).

Whichever way it closes, what the writer fixed (``dialog.text`` differs from
``dialog.original``) belongs in the editor: :func:`check_before_save` puts it there as one undo
step. Places are told by line and column in 원문 편집 and as the cards show them otherwise
(:func:`place_in_cards`).

``PublishCheckPanel`` is the list itself (one row per finding: place, sentence, fix button),
usable on its own (e.g. docked under the editor), with ``fixRequested(Finding)`` and
``jumpRequested(line, column)`` signals. ``replace_editor_text(edit, text)`` puts the fixed text
into a QPlainTextEdit as one undoable step.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
from collections.abc import Callable
from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.brochure.catalog import field_label, spec_for
from modu_desktop.core.pageedit.places import card_place
from modu_desktop.core.publish.check import (
    CheckResult,
    Finding,
    Severity,
    StaleEdit,
    check_text,
    new_surprises,
)
from modu_desktop.core.publish.check.messages import fix_explanation, summary
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.editor_text import raw_text
from modu_desktop.ui.kit.fit import fit_to_screen

_STYLE = """
QFrame#publishCheckSummary[kind="error"] { background: #fdecea; border: 1px solid #e0a19b;
  border-radius: 6px; }
QFrame#publishCheckSummary[kind="warning"] { background: #fff6e0; border: 1px solid #e5c77d;
  border-radius: 6px; }
QFrame#publishCheckSummary[kind="ok"] { background: #e9f6ec; border: 1px solid #9fd1aa;
  border-radius: 6px; }
QFrame#publishFinding { border-bottom: 1px solid #e4e4e4; }
QLabel#publishFindingPlace { color: #555; }
QLabel#publishFindingPlace[severity="breaks-build"] { color: #b3261e; font-weight: bold; }
QLabel#publishFindingPlace[severity="page-wrong"] { color: #8a5a00; font-weight: bold; }
QLabel#publishFindingPlace[severity="may-surprise"] { color: #5a4a00; font-weight: bold; }
QLabel#publishCheckDocTitle { font-weight: bold; }
QFrame#saveAnywayWarning { background: #fdecea; border: 2px solid #b3261e; border-radius: 6px; }
"""


class CheckChoice(enum.Enum):
    SAVE_FIXED = "save_fixed"
    SAVE_ANYWAY = "save_anyway"
    BACK = "back"


class PublishCheckPanel(QWidget):
    """The findings of one check, one row each."""

    fixRequested = Signal(object)  # Finding
    jumpRequested = Signal(int, int)  # line, column

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("publishCheckPanel")
        self.setStyleSheet(_STYLE)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.summary_box = QFrame()
        self.summary_box.setObjectName("publishCheckSummary")
        box = QVBoxLayout(self.summary_box)
        self.summary = QLabel("")
        self.summary.setObjectName("publishCheckSummaryText")
        self.summary.setWordWrap(True)
        f = self.summary.font()
        f.setBold(True)
        f.setPointSizeF(f.pointSizeF() * 1.1)
        self.summary.setFont(f)
        self.detail = QLabel("")
        self.detail.setObjectName("publishCheckSummaryDetail")
        self.detail.setWordWrap(True)
        box.addWidget(self.summary)
        box.addWidget(self.detail)
        outer.addWidget(self.summary_box)
        self.rows_host = QWidget()
        self.rows = QVBoxLayout(self.rows_host)
        self.rows.setContentsMargins(0, 0, 0, 0)
        self.rows.setSpacing(0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.rows_host)
        outer.addWidget(scroll, 1)
        self.fix_buttons: list[QPushButton] = []
        self.result = CheckResult(())
        self.text = ""
        # None: places as line and column (원문 편집); else the words for a place in the cards
        self.place_words: Callable[[str, Finding], str] | None = None

    def set_result(self, result: CheckResult, text: str = "") -> None:
        """Show ``result``, the check of ``text`` (whose places the rows name)."""
        self.check_result = result
        self.text = text
        breakers = len(result.build_breakers)
        others = len(result.findings) - breakers
        kind = "error" if breakers else ("warning" if others else "ok")
        self.summary_box.setProperty("kind", kind)
        self.summary_box.style().unpolish(self.summary_box)
        self.summary_box.style().polish(self.summary_box)
        self.summary.setText(summary(breakers, others))
        if breakers:
            self.detail.setText(
                tr(
                    "If you save it like this, the site keeps showing the old pages — for "
                    "every document — until this is fixed."
                )
            )
        elif others and all(f.severity is Severity.MAY_SURPRISE for f in result.findings):
            self.summary.setText(
                tr(
                    "The site will build; {n} thing(s) may look different from what you see here.",
                    n=others,
                )
            )
            self.detail.setText(
                tr("You can save; check whether the site should show these parts as it will.")
            )
        elif others:
            self.detail.setText(tr("You can save; these parts will look different on the site."))
        else:
            self.detail.setText("")
        while self.rows.count():
            item = self.rows.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.deleteLater()
        self.fix_buttons = []
        ordered = sorted(result.findings, key=lambda x: (not x.breaks_build, x.offset))
        for finding in ordered:
            self.rows.addWidget(self._row(finding))
        self.rows.addStretch(1)

    def _row(self, finding: Finding) -> QWidget:
        row = QFrame()
        row.setObjectName("publishFinding")
        h = QHBoxLayout(row)
        h.setContentsMargins(6, 6, 6, 6)
        texts = QVBoxLayout()
        if self.place_words is not None:
            where = self.place_words(self.text, finding)
        else:
            where = tr("line {line}, column {column}", line=finding.line, column=finding.column)
        head = QLabel(_place_word(finding) + "  ·  " + where)
        head.setObjectName("publishFindingPlace")
        head.setWordWrap(True)
        head.setTextFormat(Qt.TextFormat.PlainText)
        head.setProperty("severity", finding.severity.value)
        msg = QLabel(finding.message)
        msg.setObjectName("publishFindingMessage")
        msg.setWordWrap(True)
        msg.setTextFormat(Qt.TextFormat.PlainText)
        texts.addWidget(head)
        texts.addWidget(msg)
        h.addLayout(texts, 1)
        go = QPushButton(tr("Show"))
        go.setObjectName("publishFindingShow")
        go.setAutoDefault(False)
        go.setAccessibleName(
            tr("Show line {line}", line=finding.line)
            if self.place_words is None
            else tr("Show: {place}", place=where)
        )
        go.clicked.connect(lambda: self.jumpRequested.emit(finding.line, finding.column))
        h.addWidget(go)
        if finding.fix is not None:
            fix = QPushButton(finding.fix_label)
            fix.setObjectName("publishFindingFix")
            fix.setAutoDefault(False)
            fix.setToolTip(fix_explanation(finding))
            fix.setAccessibleDescription(fix_explanation(finding))
            fix.clicked.connect(lambda: self.fixRequested.emit(finding))
            h.addWidget(fix)
            self.fix_buttons.append(fix)
        return row


def place_in_cards(text: str, finding: Finding) -> str:
    """Where ``finding`` is, as a staff member finds it on the cards: the card (a text box by
    its heading, a block by its name and item, the page settings) and a short quote of the
    words there — "‘행사 안내’ 글 상자: “{담당자}에게 문의”"."""
    place = card_place(text, finding.offset)
    if place.kind == "front_matter":
        where = tr("Page settings")
    elif place.kind == "block":
        try:
            name = spec_for(place.block).name
        except KeyError:
            name = place.block
        where = tr("the block “{name}”", name=name)
        if place.item:
            where += " · " + tr("item {n}", n=place.item)
    elif place.kind == "raw":
        where = tr("Original text card")
    elif place.heading:
        where = tr("Text box under “{heading}”", heading=place.heading)
    else:
        where = tr("Text box")
    if place.key and place.kind == "block":
        where += " · " + field_label(place.key)
    if place.quote:
        where = tr("{place}: “{quote}”", place=where, quote=place.quote)
    return where


def _place_word(finding: Finding) -> str:
    if finding.breaks_build:
        return tr("Stops the site")
    if finding.severity is Severity.MAY_SURPRISE:
        return tr("May look different")
    return tr("Shows differently")


class PublishCheckDialog(QDialog):
    """The check before a save, on a copy of the text (see the module docstring)."""

    def __init__(
        self,
        parent: QWidget | None,
        text: str,
        result: CheckResult,
        *,
        path: str = "docs/document.md",
        repo_paths: set[str] | None = None,
        title: str = "",
        in_cards: bool = False,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("publishCheckDialog")
        self.setWindowTitle(tr("Before saving: check for the site"))
        self.setStyleSheet(_STYLE)
        self.original = text
        self.text = text
        self.path = path
        self.repo_paths = repo_paths
        self.choice = CheckChoice.BACK
        v = QVBoxLayout(self)
        if title:
            name = QLabel(tr("“{doc}”", doc=title))
            name.setObjectName("publishCheckDocTitle")
            v.addWidget(name)
        self.panel = PublishCheckPanel(self)
        self.panel.place_words = place_in_cards if in_cards else None
        self.panel.fixRequested.connect(self.apply_fix)
        self.panel.jumpRequested.connect(self._jump)
        self.jump_to: tuple[int, int] | None = None
        v.addWidget(self.panel, 1)
        self.warning = QFrame()
        self.warning.setObjectName("saveAnywayWarning")
        wl = QVBoxLayout(self.warning)
        self.warning_text = QLabel(
            tr(
                "The site will not update: the deploy fails and nothing is published, this "
                "page or any other, until the problem is fixed. Your text is saved as it is."
            )
        )
        self.warning_text.setObjectName("saveAnywayWarningText")
        self.warning_text.setWordWrap(True)
        wl.addWidget(self.warning_text)
        wb = QHBoxLayout()
        wb.addStretch(1)
        self.confirm_button = QPushButton(tr("Save anyway, the site will not update"))
        self.confirm_button.setObjectName("confirmSaveAnywayButton")
        self.confirm_button.setAutoDefault(False)
        self.confirm_button.clicked.connect(self._save_anyway)
        wb.addWidget(self.confirm_button)
        wl.addLayout(wb)
        self.warning.hide()
        v.addWidget(self.warning)
        buttons = QHBoxLayout()
        self.fix_all_button = QPushButton(tr("Fix all"))
        self.fix_all_button.setObjectName("fixAllButton")
        self.fix_all_button.setAutoDefault(False)
        self.fix_all_button.clicked.connect(self.apply_all)
        buttons.addWidget(self.fix_all_button)
        buttons.addStretch(1)
        self.back_button = QPushButton(tr("Back to editing"))
        self.back_button.setObjectName("backToEditingButton")
        self.back_button.clicked.connect(self.reject)
        self.anyway_button = QPushButton(tr("Save anyway…"))
        self.anyway_button.setObjectName("saveAnywayButton")
        self.anyway_button.setAutoDefault(False)
        self.anyway_button.clicked.connect(self._ask_anyway)
        self.save_fixed_button = QPushButton(tr("Save the fixed text"))
        self.save_fixed_button.setObjectName("saveFixedButton")
        self.save_fixed_button.setAutoDefault(False)
        self.save_fixed_button.clicked.connect(self._save_fixed)
        for b in (self.back_button, self.anyway_button, self.save_fixed_button):
            buttons.addWidget(b)
        v.addLayout(buttons)
        self.back_button.setDefault(True)
        fit_to_screen(self, 760, 520)
        self._show(result)

    def _show(self, result: CheckResult) -> None:
        self.check_result = result
        self.panel.set_result(result, self.text)
        fixable = bool(result.fixable)
        self.fix_all_button.setEnabled(fixable)
        changed = self.text != self.original
        self.save_fixed_button.setVisible(changed)
        self.save_fixed_button.setEnabled(changed)
        # "Save anyway" is for a page that still breaks the site (asked twice); a page that
        # only may look different saves as written in one click, and that is the default.
        self.anyway_button.setVisible(bool(result.findings))
        if result.breaks_build:
            self.anyway_button.setText(tr("Save anyway…"))
        else:
            self.anyway_button.setText(tr("Save as written"))
            self.warning.hide()
            self.anyway_button.setDefault(not changed)
        if changed and not result.breaks_build:
            self.save_fixed_button.setDefault(True)

    def recheck(self) -> None:
        self._show(check_text(self.text, path=self.path, repo_paths=self.repo_paths))

    def apply_fix(self, finding: Finding) -> None:
        if finding.fix is None:
            return
        with contextlib.suppress(StaleEdit):  # the list was out of date: check again below
            self.text = finding.fix.apply(self.text)
        self.recheck()

    def apply_all(self) -> None:
        from modu_desktop.core.publish.check import apply_all_fixes

        for _ in range(4):  # a fix can uncover another (e.g. nested braces)
            if not self.check_result.fixable:
                break
            self.text = apply_all_fixes(self.text, self.check_result)
            self.recheck()

    def _jump(self, line: int, column: int) -> None:
        """ "보기": back to editing at that place (the host moves the cursor to ``jump_to``, a
        place in the fixed text, which the host puts into the editor first)."""
        self.jump_to = (line, column)
        self.reject()

    def _ask_anyway(self) -> None:
        if not self.check_result.breaks_build:
            self._save_anyway()  # nothing breaks: the writer keeps what they wrote
            return
        self.warning.show()
        self.confirm_button.setFocus()

    def _save_anyway(self) -> None:
        self.choice = CheckChoice.SAVE_ANYWAY  # with the fixes made so far: they were chosen
        self.accept()

    def _save_fixed(self) -> None:
        self.choice = CheckChoice.SAVE_FIXED
        self.accept()

    def reject(self) -> None:
        self.choice = CheckChoice.BACK
        super().reject()


def replace_editor_text(edit: QPlainTextEdit, text: str) -> None:
    """Put ``text`` into the editor as one undoable step (Ctrl+Z brings the text before back),
    replacing only the part between the common beginning and end, so the view stays put. The
    editor's document holds no BOM and ends lines with ``\n`` (the pane gives the document's
    own BOM and line endings back when it is saved), so ``text`` goes in that way."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    old = raw_text(edit.document())
    if old == text:
        return
    start = 0
    limit = min(len(old), len(text))
    while start < limit and old[start] == text[start]:
        start += 1
    end_old, end_new = len(old), len(text)
    while end_old > start and end_new > start and old[end_old - 1] == text[end_new - 1]:
        end_old -= 1
        end_new -= 1
    cursor = QTextCursor(edit.document())
    cursor.beginEditBlock()
    cursor.setPosition(_utf16(old, start))
    cursor.setPosition(_utf16(old, end_old), QTextCursor.MoveMode.KeepAnchor)
    cursor.insertText(text[start:end_new])
    cursor.endEditBlock()


def _utf16(text: str, index: int) -> int:
    """A QTextDocument position (UTF-16 units) for a Python string index."""
    return index + sum(1 for ch in text[:index] if ord(ch) > 0xFFFF)


# Rounds of checking again when the editor changed while the check ran (typing goes on meanwhile).
_RECHECKS = 10


def _check_for_save(
    text: str, path: str, repo_paths: set[str] | None, before: str | None
) -> tuple[CheckResult, bool]:
    """The check and whether to ask the writer (something breaks the site, or a surprise that
    ``before`` did not have). Runs on a worker thread: it reads the whole document."""
    result = check_text(text, path=path, repo_paths=repo_paths)
    ask = result.breaks_build or bool(new_surprises(text, result, before, path))
    return result, ask


async def check_before_save(
    parent: QWidget | None,
    text: str,
    *,
    path: str,
    repo_paths: set[str] | None,
    title: str = "",
    editor: QPlainTextEdit | None = None,
    before: str | None = None,
    show_place: Callable[[int, int], None] | None = None,
    current: Callable[[], str] | None = None,
    in_cards: bool = False,
) -> str | None:
    """The check before a save. Returns the text to save (the text as typed when it does not
    break the site, the fixed copy, or — after the explicit warning — the text as it stands),
    or None to go back to editing (with ``editor``, the cursor is put where "보기" pointed).
    ``before``: the text as last saved; the check is shown for a page that breaks the site,
    or for places that may look different and were not in ``before``. ``current`` gives the
    editor's text as it will be saved (its BOM and line endings; by default the editor's
    characters); ``in_cards``: the places are told as the cards show them, not by line.

    The check runs off the UI thread, so the window stays responsive and the writer may go on
    typing; with ``editor``, text typed meanwhile is checked too before anything is saved, and
    a fixed copy never replaces text the check did not see. What the writer fixed in the
    dialog goes into the editor as one undo step whichever way the dialog closes."""
    from modu_desktop.ui.kit.asyncutil import run_dialog

    read: Callable[[], str] | None = current
    if read is None and editor is not None:
        # not toPlainText(): it turns no-break spaces into spaces
        read = partial(raw_text, editor.document())
    loop = asyncio.get_running_loop()
    if read is not None:
        text = read()
    for _ in range(_RECHECKS):
        result, ask = await loop.run_in_executor(
            None, _check_for_save, text, path, repo_paths, before
        )
        if read is None or read() == text:
            break
        text = read()  # typed while the check ran: check what is there now
    else:
        if ask:
            return None  # the writer never stopped typing: nothing is saved or replaced
    if not ask:
        return text
    dlg = PublishCheckDialog(
        parent, text, result, path=path, repo_paths=repo_paths, title=title, in_cards=in_cards
    )
    await run_dialog(dlg)
    dlg.deleteLater()
    if editor is None or read is None:
        if dlg.choice is not CheckChoice.BACK:
            return dlg.text
        if show_place is not None and dlg.jump_to is not None:
            show_place(*dlg.jump_to)
        return None
    if dlg.text != dlg.original and not _put_fixes(editor, read, dlg.original, dlg.text):
        return None  # the editor changed meanwhile: its text stays, nothing is saved
    if dlg.choice is not CheckChoice.BACK:
        return read()
    if dlg.jump_to is not None:
        if show_place is not None:
            show_place(*dlg.jump_to)  # the pane shows it in the view it is in
        else:
            put_cursor(editor, *dlg.jump_to)
    return None


def _put_fixes(editor: QPlainTextEdit, read: Callable[[], str], checked: str, fixed: str) -> bool:
    """The fixes made in the dialog (``checked`` → ``fixed``) into the editor, one undo step.
    False, leaving the editor alone, when its text is no longer the text that was checked (the
    fixed copy would replace what changed) or it cannot be written any more."""
    if editor.isReadOnly() or read() != checked:
        return False
    replace_editor_text(editor, fixed)
    return True


def put_cursor(editor: QPlainTextEdit, line: int, column: int = 1) -> bool:
    """Put the cursor at ``line``/``column`` (1-based) in view and focus the editor."""
    block = editor.document().findBlockByNumber(line - 1)
    if not block.isValid():
        return False
    cursor = QTextCursor(block)
    cursor.movePosition(
        QTextCursor.MoveOperation.Right,
        QTextCursor.MoveMode.MoveAnchor,
        max(0, min(column - 1, block.length() - 1)),
    )
    editor.setTextCursor(cursor)
    editor.centerCursor()
    editor.setFocus()
    return True
