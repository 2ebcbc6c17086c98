"""Delete a document: a confirmation that names it, progress, and a visible result.

Also home of :class:`OpDialog`, the small base the ops dialogs share (busy state with a progress
bar, a result line, inputs disabled while working and re-enabled — with their values — after a
failure).

Wiring (main window): ``await delete_document(ops, summary, parent, lang=ctx.lang,
held=open_doc.held_or_None)``; on ``result.ok`` close the editor tab if it showed that document
(without releasing: the lock file is already gone) and refresh the list.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.documents import DocSummary
from modu_desktop.core.locks import HeldLock
from modu_desktop.core.ops import DocOps, OpCode, OpResult
from modu_desktop.ui.asyncutil import run_dialog, spawn

# The ops dialogs' own texts in Korean (English is the key). Kept here rather than in the Qt
# catalogue so these dialogs are complete in both languages on their own; ``ui_text`` is used
# instead of ``self.tr`` for that reason.
# Long Korean pairs read better one under the other: keep the formatter out.
# fmt: off
_KO: dict[str, str] = {
    "Delete document": "문서 삭제",
    "The page disappears from the site at the next publish. The repository history keeps it, "
    "so an administrator can bring it back.":
        "다음 게시 때 사이트에서 이 페이지가 사라집니다. 저장소 기록에는 남아 있어 관리자가 "
        "되살릴 수 있습니다.",
    "&Delete": "삭제(&D)",
    "Delete": "삭제",
    "Cancel": "취소",
    "Delete “{title}” ({file})?": "“{title}”({file}) 문서를 삭제할까요?",
    "Deleting {file}…": "{file} 삭제 중…",
    "Insert picture": "그림 넣기",
    "&Browse…": "찾아보기(&B)…",
    "&File:": "파일(&F):",
    "What the picture shows (for screen readers)": "그림이 보여 주는 내용(화면 낭독기용)",
    "&Description:": "설명(&D):",
    "&Upload and insert": "올리고 넣기(&U)",
    "Pictures (*.png *.jpg *.jpeg *.gif *.webp *.svg)":
        "그림 (*.png *.jpg *.jpeg *.gif *.webp *.svg)",
    "Choose a picture first.": "먼저 그림을 골라 주세요.",
    "PNG, JPEG, GIF, WebP or SVG, up to {mb} MB. You can also drop a file here.":
        "PNG, JPEG, GIF, WebP, SVG 그림을 {mb}MB까지 올릴 수 있습니다. 여기에 파일을 끌어다 "
        "놓아도 됩니다.",
    "Uploading {name}…": "{name} 올리는 중…",
    "(optional) short label for the menu": "(선택) 메뉴에 보일 짧은 이름",
    "Position": "순서",
    "Start from the template (hero, cards, timeline, quote, call to action)":
        "템플릿으로 시작(히어로, 카드, 타임라인, 인용, 행동 유도)",
    "File:": "파일:",
    "New document": "새 문서",
    "&Create": "만들기(&C)",
    "Import documents": "문서 가져오기",
    "Drop .md files here or add them. Each file's front matter fills in its form; fix any "
    "conflict before importing.":
        ".md 파일을 여기에 끌어다 놓거나 추가하세요. 각 파일의 페이지 설정(front matter)으로 "
        "양식이 채워집니다. 가져오기 전에 충돌을 해결해 주세요.",
    "&Apply changes": "변경 적용(&A)",
    "Add &files…": "파일 추가(&F)…",
    "&Import": "가져오기(&I)",
    "Close": "닫기",
    "Markdown (*.md *.markdown)": "마크다운 (*.md *.markdown)",
    "Importing…": "가져오는 중…",
    "&Id:": "페이지 주소(&I):",
    "&Title:": "제목(&T):",
    "&Menu label:": "메뉴 이름(&M):",
    "Order:": "순서:",
    "T&heme:": "색상 테마(&H):",
    "&Layout:": "레이아웃(&L):",
    "{name} → {path}": "{name} → {path}",
    "Creating {path}…": "{path} 만드는 중…",
    "✔ {name} → {path}": "✔ {name} → {path}",
    "⚠ {name}": "⚠ {name}",
    "Creating {path} ({i} of {n})…": "{path} 만드는 중({n}개 중 {i}번째)…",
    "{n} file(s) not imported; select them to see why.":
        "{n}개 파일은 가져오지 못했습니다. 파일을 골라 이유를 확인하세요.",
    "Imported {n} document(s).": "문서 {n}개를 가져왔습니다.",
    "{n} file(s) ready to import": "가져올 준비가 된 파일 {n}개",
    "{n} with a conflict": "충돌 {n}개",
    "Move up in the sidebar": "메뉴에서 위로 옮기기",
    "Move up": "위로",
    "Move down in the sidebar": "메뉴에서 아래로 옮기기",
    "Move down": "아래로",
    "Select a document first.": "먼저 문서를 골라 주세요.",
}
# fmt: on


def ui_text(lang: str, text: str) -> str:
    """``text`` (English) in ``lang`` ("ko" or "en")."""
    return _KO.get(text, text) if lang == "ko" else text


class OpDialog(QDialog):
    """Base: ``run_op(factory)`` shows progress, disables ``self.inputs``, awaits the operation
    and shows its message. Emits ``op_finished(result)``."""

    op_finished = Signal(object)

    def __init__(self, parent: QWidget | None = None, *, lang: str = "en") -> None:
        super().__init__(parent)
        self.lang = lang
        self.result_op: Any = None
        self.busy = False
        self.inputs: list[QWidget] = []
        self.progress = QProgressBar()
        self.progress.setObjectName("opsProgress")
        self.progress.setRange(0, 0)  # busy indicator
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.status = QLabel("")
        self.status.setObjectName("opsResultLabel")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status.hide()
        self._task: asyncio.Task[Any] | None = None

    def t(self, text: str) -> str:
        return ui_text(self.lang, text)

    def add_status_widgets(self, layout: QVBoxLayout) -> None:
        layout.addWidget(self.progress)
        layout.addWidget(self.status)

    def add_op_buttons(
        self,
        layout: QVBoxLayout,
        action_text: str,
        action_name: str,
        *,
        role: QDialogButtonBox.ButtonRole = QDialogButtonBox.ButtonRole.AcceptRole,
        default: bool = True,
        cancel_text: str = "Cancel",
        before: tuple[tuple[QPushButton, QDialogButtonBox.ButtonRole], ...] = (),
    ) -> tuple[QPushButton, QPushButton]:
        """The button row as ``self.buttons``: the operation's button (runs ``self.start``) and
        the cancel button (``opsCancelButton``, runs ``reject``), after any ``before`` buttons;
        added to ``layout``. Returns (action, cancel)."""
        self.buttons = QDialogButtonBox()
        action = QPushButton(self.t(action_text))
        action.setObjectName(action_name)
        if default:
            action.setDefault(True)
        cancel = QPushButton(self.t(cancel_text))
        cancel.setObjectName("opsCancelButton")
        for button, button_role in before:
            self.buttons.addButton(button, button_role)
        self.buttons.addButton(action, role)
        self.buttons.addButton(cancel, QDialogButtonBox.ButtonRole.RejectRole)
        action.clicked.connect(self.start)
        cancel.clicked.connect(self.reject)
        layout.addWidget(self.buttons)
        return action, cancel

    def start(self) -> asyncio.Task[Any]:
        """Run the dialog's operation (each dialog defines it, usually through ``run_op``)."""
        raise NotImplementedError

    def set_busy(self, busy: bool, text: str = "") -> None:
        self.busy = busy
        self.progress.setVisible(busy)
        for w in self.inputs:
            w.setEnabled(not busy)
        if busy:
            self.show_status(text, "info")

    def show_status(self, text: str, kind: str = "info") -> None:
        self.status.setProperty("kind", kind)
        self.status.setText(text)
        self.status.setVisible(bool(text))
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)
        if text and self.isVisible():
            # Grow (never shrink) to show the whole message: a long reason must not be cut off.
            lay = self.layout()
            need = (
                lay.totalHeightForWidth(self.width())
                if lay is not None and lay.hasHeightForWidth()
                else self.sizeHint().height()
            )
            if need > self.height():
                self.resize(self.width(), need)

    def run_op(self, factory: Callable[[], Awaitable[Any]], busy_text: str) -> asyncio.Task[Any]:
        """Start the operation (one at a time). The task's result is the operation's result."""
        if self._task is not None and not self._task.done():
            return self._task
        self.set_busy(True, busy_text)

        async def go() -> Any:
            try:
                res = await factory()
            except Exception as exc:  # unexpected: show it, keep the dialog and the input
                self.set_busy(False)
                um = getattr(exc, "user_message", None)
                self.show_status(str(um(self.lang)) if callable(um) else str(exc), "error")
                raise
            self.set_busy(False)
            self.result_op = res
            self.on_result(res)
            self.op_finished.emit(res)
            return res

        self._task = spawn(go(), name=f"{type(self).__name__}.run_op")
        return self._task

    def on_result(self, res: Any) -> None:
        """Default: close on success, otherwise show the reason and stay open."""
        text = res.user_message(self.lang) if hasattr(res, "user_message") else str(res)
        if getattr(res, "ok", False):
            self.show_status(text, "ok")
            self.accept()
        else:
            self.show_status(text, "error")

    def reject(self) -> None:
        if self.busy:  # never abandon a write half-way; the result is shown when it ends
            return
        super().reject()


class DeleteDialog(OpDialog):
    """“Delete ‘{title}’ ({file})?” with Delete / Cancel."""

    def __init__(
        self,
        ops: DocOps,
        doc: DocSummary,
        parent: QWidget | None = None,
        *,
        lang: str = "en",
        held: HeldLock | None = None,
    ) -> None:
        super().__init__(parent, lang=lang)
        self.setObjectName("opsDeleteDialog")
        self.ops, self.doc, self.held = ops, doc, held
        self.setWindowTitle(self.t("Delete document"))
        self.setAccessibleName(self.t("Delete document"))
        lay = QVBoxLayout(self)
        self.head = QLabel(
            self.t("Delete “{title}” ({file})?").format(title=doc.title, file=doc.file_name)
        )
        self.head.setObjectName("opsDeleteHead")
        self.head.setWordWrap(True)
        font = self.head.font()
        font.setBold(True)
        self.head.setFont(font)
        lay.addWidget(self.head)
        body = QLabel(
            self.t(
                "The page disappears from the site at the next publish. The repository history "
                "keeps it, so an administrator can bring it back."
            )
        )
        body.setWordWrap(True)
        lay.addWidget(body)
        self.add_status_widgets(lay)
        self.delete_button, self.cancel_button = self.add_op_buttons(
            lay,
            "&Delete",
            "opsDeleteButton",
            role=QDialogButtonBox.ButtonRole.DestructiveRole,
            default=False,
        )
        self.delete_button.setAccessibleName(self.t("Delete"))
        self.delete_button.setAutoDefault(False)  # a stray Enter must not delete
        self.inputs = [self.delete_button, self.cancel_button]

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        self.cancel_button.setDefault(True)
        self.cancel_button.setFocus()

    def start(self) -> asyncio.Task[Any]:
        return self.run_op(
            lambda: self.ops.delete(self.doc.doc_id, expected_sha=self.doc.sha, held=self.held),
            self.t("Deleting {file}…").format(file=self.doc.file_name),
        )

    def on_result(self, res: OpResult) -> None:
        if res.ok or res.code is OpCode.NOT_FOUND:
            # Gone either way: nothing left to retry.
            super().on_result(res)
            if not res.ok:
                self.delete_button.setEnabled(False)
            return
        super().on_result(res)


async def delete_document(
    ops: DocOps,
    doc: DocSummary,
    parent: QWidget | None = None,
    *,
    lang: str = "en",
    held: HeldLock | None = None,
) -> OpResult | None:
    """Ask, delete, show the result. None if the user cancelled before deleting."""
    dlg = DeleteDialog(ops, doc, parent, lang=lang, held=held)
    await run_dialog(dlg)
    res: OpResult | None = dlg.result_op
    dlg.deleteLater()
    return res
