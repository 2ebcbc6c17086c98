"""The search mode's widgets (``searchPanel``): the words to find and two choices, a line that
says what was found (or how far the reading of the pages has got), the results grouped by page,
and the row that replaces the words on every page.

The panel only shows; :class:`~modu_desktop.ui.search.mode.SearchMode` searches and opens.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.search.model import SearchOptions
from modu_desktop.i18n import tr
from modu_desktop.ui.kit.flow_layout import FlowLayout
from modu_desktop.ui.kit.preedit import install_preedit_tracker
from modu_desktop.ui.search.results import ResultsTree

TYPING_PAUSE_MS = 150  # a search starts once typing pauses this long (Enter: at once)
MIN_WIDTH = 160
REPLACE_EDIT_MIN = 120  # room for the new words before the button steps under the box


class SearchPanel(QWidget):
    """See the module docstring. ``searchChanged`` asks for a search with the words and
    choices as they are now; ``replaceRequested`` for the replace review."""

    searchChanged = Signal()
    replaceRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("searchPanel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)

        top = QHBoxLayout()
        self.query_label = QLabel(tr("&Find:"))
        self.query_edit = QLineEdit()
        self.query_edit.setObjectName("searchPagesEdit")
        self.query_edit.setAccessibleName(tr("Words to find on every page"))
        self.query_edit.setPlaceholderText(tr("Words to find on every page"))
        self.query_edit.setClearButtonEnabled(True)
        self.query_label.setBuddy(self.query_edit)
        top.addWidget(self.query_label)
        top.addWidget(self.query_edit, 1)
        lay.addLayout(top)

        choices = FlowLayout(spacing=12)  # the two choices wrap in a narrow list
        self.case_box = QCheckBox(tr("Match ca&se"))
        self.case_box.setObjectName("searchCaseBox")
        self.case_box.setToolTip(tr("Capital and small letters must match (Korean has none)"))
        self.word_box = QCheckBox(tr("W&hole words only"))
        self.word_box.setObjectName("searchWholeWordBox")
        self.word_box.setToolTip(
            tr("Only where the words stand alone; a particle such as 은, 를 or 의 may follow")
        )
        choices.addWidget(self.case_box)
        choices.addWidget(self.word_box)
        lay.addLayout(choices)

        self.status = QLabel("")
        self.status.setObjectName("searchStatus")
        self.status.setWordWrap(True)
        self.status.setAccessibleName(tr("What the search found"))
        lay.addWidget(self.status)
        self.progress = QProgressBar()
        self.progress.setObjectName("searchProgress")
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(6)
        self.progress.hide()
        lay.addWidget(self.progress)

        self.results = ResultsTree()
        lay.addWidget(self.results, 1)

        lay.addWidget(self._replace_row())
        # as narrow as the list it stands in for (the window fits 800 px); wider, it all shows
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(MIN_WIDTH)

        self._connect()

    def _replace_row(self) -> QWidget:
        """바꿀 낱말 and 모두 바꾸기…"""
        self.replace_label = QLabel(tr("New &words:"))
        self.replace_edit = QLineEdit()
        self.replace_edit.setObjectName("searchReplaceEdit")
        self.replace_edit.setAccessibleName(tr("New words for every place found"))
        self.replace_edit.setPlaceholderText(tr("The words that go in their place"))
        self.replace_label.setBuddy(self.replace_edit)
        self.replace_button = QPushButton(tr("Replace a&ll…"))
        self.replace_button.setObjectName("searchReplaceButton")
        self.replace_button.setToolTip(
            tr("Shows every page and place first; nothing changes until you confirm")
        )
        self.replace_button.setEnabled(False)
        self.replace_row = _ReplaceRow(self.replace_label, self.replace_edit, self.replace_button)
        return self.replace_row

    def _connect(self) -> None:
        self._typing = QTimer(self)
        self._typing.setSingleShot(True)
        self._typing.setInterval(TYPING_PAUSE_MS)
        self._typing.timeout.connect(self.searchChanged)
        self.query_edit.textChanged.connect(lambda _t: self._typing.start())
        self.query_edit.returnPressed.connect(self.search_now)
        self.query_edit.installEventFilter(self)
        self.case_box.toggled.connect(lambda _on: self.search_now())
        self.word_box.toggled.connect(lambda _on: self.search_now())
        self.replace_button.clicked.connect(self.replaceRequested)
        self.replace_edit.returnPressed.connect(self._replace_from_enter)
        for edit in (self.query_edit, self.replace_edit):
            install_preedit_tracker().watch(edit)  # Korean input: see preedit.py

    # ------------------------------------------------------------------ what is asked
    def query(self) -> str:
        return self.query_edit.text()

    def options(self) -> SearchOptions:
        return SearchOptions(
            case_sensitive=self.case_box.isChecked(), whole_word=self.word_box.isChecked()
        )

    def search_now(self) -> None:
        self._typing.stop()
        self.searchChanged.emit()

    def set_query(self, text: str) -> None:
        """Put ``text`` in the search box (searched at once)."""
        self.query_edit.setText(text)
        self.search_now()

    def focus_query(self) -> None:
        self.query_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.query_edit.selectAll()

    def set_replace_shown(self, shown: bool) -> None:
        """Replacing is for those who may change pages (not in viewer mode)."""
        self.replace_row.setVisible(shown)

    def _replace_from_enter(self) -> None:
        if self.replace_button.isEnabled():
            self.replaceRequested.emit()

    # ------------------------------------------------------------------ what is shown
    def set_status(self, text: str, kind: str = "info") -> None:
        self.status.setText(text)
        self.status.setProperty("kind", kind)
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)

    def set_progress(self, done: int, total: int) -> None:
        """How far the reading of the pages has got (hidden when it is done)."""
        if total <= 0 or done >= total:
            self.progress.hide()
            return
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress.show()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        # ↓ in the search box goes down to the first place found
        if (
            obj is self.query_edit
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Down
            and self.results.hit_items()
        ):
            self.results.select_first()
            return True
        return super().eventFilter(obj, event)


class _ReplaceRow(QWidget):
    """바꿀 낱말, its box and 모두 바꾸기… on one line where the list has room for all three;
    in a narrow list (a page and its 기록 beside it) the button goes under the box, so no word
    of the label or the button is cut off."""

    def __init__(self, label: QLabel, edit: QLineEdit, button: QPushButton) -> None:
        super().__init__()
        self._label, self._edit, self._button = label, edit, button
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.addWidget(label, 0, 0)
        self._grid.addWidget(edit, 0, 1)
        self._grid.setColumnStretch(1, 1)
        self.one_line: bool | None = None
        self._place(one_line=True)

    def _one_line_width(self) -> int:
        gap = max(0, self._grid.horizontalSpacing())
        return (
            self._label.sizeHint().width()
            + max(REPLACE_EDIT_MIN, self._edit.minimumSizeHint().width())
            + self._button.sizeHint().width()
            + 2 * gap
        )

    def _place(self, *, one_line: bool) -> None:
        if one_line == self.one_line:
            return
        self.one_line = one_line
        self._grid.removeWidget(self._button)
        if one_line:
            self._grid.addWidget(self._button, 0, 2)
        else:
            self._grid.addWidget(self._button, 1, 0, 1, 2, Qt.AlignmentFlag.AlignRight)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._place(one_line=self.width() >= self._one_line_width())
