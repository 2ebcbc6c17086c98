"""The main window: document list, editor with preview, lock banner, status bar.

Protocol decisions live in the core (``LockManager``, ``DocumentStore``); this window sequences
them (open → lock → load → heartbeat → save → release) and shows what happened in plain words.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from modu_desktop.core.publish import document_page_url
from modu_desktop.i18n import fill, tr
from modu_desktop.ui import fast_lock
from modu_desktop.ui.asyncutil import ask, run_dialog, spawn
from modu_desktop.ui.banners import Banner
from modu_desktop.ui.busy import BusyOverlay
from modu_desktop.ui.conflict_dialog import ConflictChoice, ConflictDialog
from modu_desktop.ui.context import AppContext
from modu_desktop.ui.doc_list import DocListPanel, LockBadge, lock_badges, rows_from_snapshot
from modu_desktop.ui.editor import EditorPane
from modu_desktop.ui.lock_dialog import (
    LockChoice,
    LockHolderInfo,
    choose_lock_action,
    format_when,
    took_first_text,
)
from modu_desktop.ui.new_doc_dialog import NewDocDialog, suggest_doc_id

log = logging.getLogger(__name__)

MODE_EDIT = "edit"
MODE_READ_ONLY = "read_only"  # someone else holds the lock; we chose to look only
MODE_VIEWER = "viewer"  # viewer mode: never any writes


def err_text(exc: BaseException, lang: str) -> str:
    um = getattr(exc, "user_message", None)
    if callable(um):
        with contextlib.suppress(Exception):
            text = um(lang)
            if text:
                return str(text)
    if isinstance(exc, asyncio.TimeoutError | TimeoutError):
        return QCoreApplication.translate("MainWindow", "GitHub did not answer in time.")
    return str(exc) or type(exc).__name__


@dataclass
class OpenDoc:
    doc_id: str
    path: str
    base_sha: str
    mode: str
    title: str = ""
    held: Any = None  # core.locks.HeldLock while we hold the lock
    lost: bool = False
    lost_view: Any = None
    heartbeat: asyncio.Task[None] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    saving: bool = False
    drafts: Any = None  # ui.drafts_controller.DraftsController while the text can be edited

    @property
    def editable(self) -> bool:
        return self.mode == MODE_EDIT and not self.lost and self.held is not None


class MainWindow(QMainWindow):
    signOutRequested = Signal()
    finished = Signal()  # the window closed and every lock it held was released (or timed out)
    connectionRestored = Signal()  # GitHub answers again after a failure

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.doc: OpenDoc | None = None
        self._refreshing = False
        self._last_refresh = 0.0
        self._closing = False
        self._closed_ok = False
        self._deploy_task: asyncio.Task[None] | None = None
        self._busy_open = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._open_task: asyncio.Task[Any] | None = None
        self.setObjectName("mainWindow")
        self.resize(1280, 800)
        self._build_ui()
        self._build_actions()
        from modu_desktop.ui.ops_host import OpsHost
        from modu_desktop.ui.repo_images import RepoImageMirror

        self.images = RepoImageMirror(
            ctx.store,
            ctx.paths.cache_dir / "repo-files",
            spawn=self._spawn,
            on_ready=self._images_ready,
            doc_path=lambda: self.doc.path if self.doc is not None else None,
        )
        set_resolver = getattr(self.editor_pane.preview, "set_image_resolver", None)
        if callable(set_resolver):
            set_resolver(self.images.resolve)
        self._image_timer = QTimer(self)
        self._image_timer.setSingleShot(True)
        self._image_timer.setInterval(100)
        self._image_timer.timeout.connect(self._rerender_images)

        self.ops_host = OpsHost(self)
        self.ops_host.build_menu()
        from modu_desktop.ui.preview_wiring import attach_preview

        attach_preview(self)  # the repository's stylesheets for the preview; Save as PDF…
        self._update_title()
        self._update_actions()

        self._idle_timer = QTimer(self)
        self._idle_timer.setInterval(int(ctx.options.refresh_s * 1000))
        self._idle_timer.timeout.connect(self._idle_refresh)
        self._idle_timer.start()
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            app.applicationStateChanged.connect(self._app_state_changed)

    def _spawn(self, coro: Any, name: str | None = None) -> asyncio.Task[Any]:
        """A background task owned by this window: cancelled when the window shuts down."""
        task = spawn(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _cancel_tasks(self) -> None:
        me = asyncio.current_task()
        pending = [t for t in self._tasks if t is not me and not t.done()]
        for t in pending:
            t.cancel()
        for t in pending:
            with contextlib.suppress(BaseException):
                await t

    # ------------------------------------------------------------------ building
    def _build_ui(self) -> None:
        central = QWidget()
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)

        self.practice_banner = Banner("practiceBanner", "practice")
        self.practice_banner.set_text(
            self.tr("Practice mode — nothing you do here reaches the real site")
        )
        self.practice_banner.setVisible(self.ctx.practice)
        outer.addWidget(self.practice_banner)

        self.viewer_banner = Banner("viewerBanner", "info")
        if self.ctx.options.force_viewer:
            self.viewer_banner.set_text(
                self.tr("Viewer mode: you can read documents but not change them.")
            )
        else:
            self.viewer_banner.set_text(
                self.tr(
                    "Viewer mode: your account ({login}) can read this repository "
                    "but not change it, "
                    "so documents open read-only."
                ).format(login=self.ctx.login)
            )
        self.viewer_banner.setVisible(self.ctx.viewer)
        outer.addWidget(self.viewer_banner)

        self.notice = Banner("noticeBar", "info")
        close_notice = self.notice.add_button("noticeCloseButton", self.tr("Dismiss"))
        close_notice.clicked.connect(self.notice.hide)
        self.notice.hide()
        outer.addWidget(self.notice)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.doc_list = DocListPanel()
        self.doc_list.openRequested.connect(lambda d: self._spawn(self.open_document(d)))
        self.doc_list.refreshRequested.connect(lambda: self._spawn(self.refresh_list()))
        self.splitter.addWidget(self.doc_list)

        self.right = QStackedWidget()
        placeholder = QLabel(
            self.tr("Choose a document on the left and press Enter (or double-click) to open it.")
        )
        placeholder.setObjectName("placeholder")
        placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        placeholder.setWordWrap(True)
        self.right.addWidget(placeholder)

        area = QWidget()
        area_lay = QVBoxLayout(area)
        area_lay.setContentsMargins(4, 4, 4, 4)
        self.doc_header = QLabel("")
        self.doc_header.setObjectName("docHeader")
        area_lay.addWidget(self.doc_header)

        self.lock_banner = Banner("lockBanner", "error", buttons_below=True)
        b = self.lock_banner.add_button("copyTextButton", self.tr("&Copy my text"))
        b.clicked.connect(self.copy_text)
        b = self.lock_banner.add_button("saveAsNewButton", self.tr("Save as &new document"))
        b.clicked.connect(lambda: self._spawn(self.save_as_new_document()))
        b = self.lock_banner.add_button("compareButton", self.tr("Co&mpare with current version"))
        b.clicked.connect(lambda: self._spawn(self.compare_with_current()))
        self.lock_banner.hide()
        area_lay.addWidget(self.lock_banner)

        self.draft_banner = Banner("draftBanner", "warning", buttons_below=True)
        b = self.draft_banner.add_button("restoreDraftButton", self.tr("&Restore my text"))
        b.clicked.connect(lambda: self._spawn(self.restore_draft()))
        b = self.draft_banner.add_button("discardDraftButton", self.tr("Discard it"))
        b.clicked.connect(self.discard_offered_draft)
        self.draft_banner.hide()
        self.pending_drafts: list[Any] = []

        self.readonly_banner = Banner("readOnlyBanner", "info")
        self.readonly_banner.hide()
        area_lay.addWidget(self.readonly_banner)
        outer.insertWidget(3, self.draft_banner)

        self.editor_pane = EditorPane()
        self.editor_pane.textEdited.connect(self._update_title)
        self.editor_pane.textEdited.connect(self._note_edit)
        self.editor_pane.editor.document().modificationChanged.connect(
            lambda _m: self._update_title()
        )
        area_lay.addWidget(self.editor_pane, 1)
        self.right.addWidget(area)
        self.splitter.addWidget(self.right)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([470, 810])
        self.editor_pane.attach_window(  # issue 14: list toggle, view switch, sizes remembered
            self.splitter, self.doc_list, self.ctx.paths.config_dir / "layout.json"
        )
        self.editor_pane.saveRequested.connect(lambda: self._spawn(self.save()))  # issue 14
        self._list_busy = BusyOverlay(  # issue 14: progress where the user looks
            self.doc_list, lambda: self._refreshing, tr("Loading the document list…")
        )
        self._open_busy = BusyOverlay(self.right, lambda: self._busy_open, tr("Opening…"))
        outer.addWidget(self.splitter, 1)
        self.setCentralWidget(central)

        sb = self.statusBar()
        self.status_lock = QLabel("")
        self.status_lock.setObjectName("statusLock")
        self.status_lock.setAccessibleName(self.tr("Lock state"))
        self.status_deploy = QLabel("")
        self.status_deploy.setObjectName("statusDeploy")
        self.status_deploy.setAccessibleName(self.tr("Publishing state"))
        self.status_conn = QLabel("")
        self.status_conn.setObjectName("statusConnection")
        self.status_conn.setAccessibleName(self.tr("Connection"))
        who = QLabel(
            self.tr("{login} · {repo}").format(
                login=self.ctx.login, repo=self.ctx.settings.repo_full_name
            )
        )
        who.setObjectName("statusAccount")
        sb.addWidget(self.status_lock, 1)
        sb.addPermanentWidget(self.status_deploy)
        sb.addPermanentWidget(self.status_conn)
        sb.addPermanentWidget(who)
        self._set_connection(True)

    def _build_actions(self) -> None:
        mb = self.menuBar()
        m_file = mb.addMenu(self.tr("&File"))
        self.act_open = self._action(
            self.tr("&Open selected document"), "Ctrl+O", self._open_selected
        )
        self.act_save = self._action(
            self.tr("&Save"), QKeySequence.StandardKey.Save, lambda: self._spawn(self.save())
        )
        # Ctrl+S on a read-only document says why it cannot save (act_save is disabled then,
        # and only one of the two is ever enabled, so the shortcut is never ambiguous).
        self.act_explain_save = self._action(
            self.tr("&Save"), QKeySequence.StandardKey.Save, self.explain_cannot_save
        )
        self.act_explain_save.setEnabled(False)
        self.act_save_new = self._action(
            self.tr("Save as &new document…"),
            None,
            lambda: self._spawn(self.save_as_new_document()),
        )
        self.act_close = self._action(
            self.tr("&Close document"), "Ctrl+W", lambda: self._spawn(self.close_document())
        )
        self.act_refresh = self._action(
            self.tr("&Refresh list"), "F5", lambda: self._spawn(self.refresh_list())
        )
        self.act_signout = self._action(
            self.tr("Sign &out"), None, lambda: self._spawn(self.sign_out())
        )
        self.act_quit = self._action(self.tr("&Quit"), "Ctrl+Q", self.request_quit)
        for a in (
            self.act_open,
            self.act_save,
            self.act_save_new,
            self.act_close,
            self.act_refresh,
        ):
            m_file.addAction(a)
        m_file.addSeparator()
        if not self.ctx.practice:
            m_file.addAction(self.act_signout)
        m_file.addAction(self.act_quit)

        ed = self.editor_pane.editor
        m_edit = mb.addMenu(self.tr("&Edit"))
        self.act_undo = self._action(self.tr("&Undo"), QKeySequence.StandardKey.Undo, ed.undo)
        self.act_redo = self._action(self.tr("&Redo"), QKeySequence.StandardKey.Redo, ed.redo)
        ed.undoAvailable.connect(lambda ok: self.act_undo.setEnabled(ok and not ed.isReadOnly()))
        ed.redoAvailable.connect(lambda ok: self.act_redo.setEnabled(ok and not ed.isReadOnly()))
        self.act_undo.setEnabled(False)
        self.act_redo.setEnabled(False)
        fb = self.editor_pane.find_bar
        self.act_find = self._action(
            self.tr("&Find…"), QKeySequence.StandardKey.Find, lambda: fb.open_find(False)
        )
        self.act_replace = self._action(self.tr("R&eplace…"), "Ctrl+H", lambda: fb.open_find(True))
        self.act_find_next = self._action(self.tr("Find &next"), "F3", fb.find_next)
        self.act_find_prev = self._action(self.tr("Find &previous"), "Shift+F3", fb.find_previous)
        for a in (self.act_undo, self.act_redo):
            m_edit.addAction(a)
        m_edit.addSeparator()
        for a in (self.act_find, self.act_replace, self.act_find_next, self.act_find_prev):
            m_edit.addAction(a)
        m_edit.addSeparator()
        m_edit.addAction(self.editor_pane.insert_block_action)  # issue 14: 블록 넣기
        self.act_save.changed.connect(  # issue 14: the Save button follows the Save action
            lambda: self.editor_pane.save_button.setEnabled(self.act_save.isEnabled())
        )

        m_lang = mb.addMenu(self.tr("&Language"))
        m_lang.setObjectName("languageMenu")
        self.lang_actions: dict[str | None, QAction] = {}
        for code, label in (
            (None, self.tr("Follow the computer")),
            ("ko", "한국어"),
            ("en", "English"),
        ):
            a = QAction(label, self)
            a.setCheckable(True)
            a.setChecked(self.ctx.settings.language == code)
            a.triggered.connect(lambda _c=False, c=code: self.set_language(c))
            m_lang.addAction(a)
            self.lang_actions[code] = a

        m_go = mb.addMenu(self.tr("&Go"))
        m_go.addAction(
            self._action(self.tr("Document &list"), "Ctrl+L", self.doc_list.tree.setFocus)
        )
        m_go.addAction(
            self._action(self.tr("&Filter"), "Ctrl+K", self.doc_list.filter_edit.setFocus)
        )
        m_go.addAction(self._action(self.tr("&Editor"), "Ctrl+E", ed.setFocus))
        m_go.addAction(
            self._action(
                self.tr("&Page settings"), "Ctrl+T", self.editor_pane.form.title_edit.setFocus
            )
        )

    def set_language(self, code: str | None) -> None:
        """Remember the interface language (applies at the next start)."""
        from modu_desktop.core.settings import save_settings

        self.ctx.settings.language = code
        for c, a in self.lang_actions.items():
            a.setChecked(c == code)
        try:
            save_settings(self.ctx.settings, self.ctx.paths.settings_file)
        except OSError as exc:
            self.show_notice(str(exc), "error")
            return
        self.show_notice(self.tr("The language changes the next time Modu Desktop starts."), "info")

    def _action(self, text: str, shortcut: Any, slot: Any) -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        a.triggered.connect(lambda _checked=False: slot())
        self.addAction(a)
        return a

    # ------------------------------------------------------------------ small state helpers
    def _set_connection(
        self, ok: bool, message: str | None = None, *, offline: bool = False
    ) -> None:
        if ok:
            if self.status_conn.property("kind") == "error":
                self.connectionRestored.emit()
            self.status_conn.setText(self.tr("● Connected"))
            self.status_conn.setProperty("kind", "ok")
            self.status_conn.setToolTip(self.ctx.settings.api_url)
            self.resolve_notice("connection")  # what the outage said is no longer true
        else:
            self.status_conn.setText(
                self.tr("⚠ Not connected to GitHub") if offline else self.tr("⚠ Connection problem")
            )
            self.status_conn.setProperty("kind", "error")
            self.status_conn.setToolTip(message or "")
        self.status_conn.style().unpolish(self.status_conn)
        self.status_conn.style().polish(self.status_conn)

    def _set_lock_status(self, text: str, kind: str = "info") -> None:
        self.status_lock.setText(text)
        self.status_lock.setToolTip(text)  # the status bar may cut a long sentence off
        self.status_lock.setProperty("kind", kind)
        self.status_lock.style().unpolish(self.status_lock)
        self.status_lock.style().polish(self.status_lock)

    def show_notice(self, text: str, kind: str = "info", topic: str | None = None) -> None:
        """The one place for a message about an event; ``topic`` ("connection", "save",
        "upload") lets the success that resolves it clear it (``resolve_notice``)."""
        self.notice.show_message(text, kind, topic)

    def resolve_notice(self, *topics: str) -> None:
        self.notice.resolve(*topics)

    def _update_title(self) -> None:
        app = self.tr("Modu Desktop")
        if self.ctx.practice:
            app = self.tr("Modu Desktop (practice)")
        if self.doc is None:
            self.setWindowTitle(app)
            self.setWindowModified(False)
            return
        name = self.doc.title or self.doc.doc_id
        suffix = ""
        if self.doc.mode != MODE_EDIT:
            suffix = self.tr(" (read-only)")
        elif self.doc.lost:
            suffix = self.tr(" (lock lost)")
        self.setWindowTitle(f"{name}[*]{suffix} — {app}")
        self.setWindowModified(self.editor_pane.is_modified())

    def _update_actions(self) -> None:
        d = self.doc
        self.act_save.setEnabled(bool(d and d.editable))
        self.act_explain_save.setEnabled(bool(d and not d.editable))
        self._sync_own_lock_badge()
        self.act_close.setEnabled(d is not None)
        self.act_save_new.setEnabled(bool(d and not self.ctx.viewer))
        self.act_replace.setEnabled(bool(d and d.editable))
        host = getattr(self, "ops_host", None)
        if host is not None:
            host.update_actions()

    def _sync_own_lock_badge(self) -> None:
        """The list's "Editing" column follows our own open, close, take-over, loss and
        recovery at once, not at the next listing."""
        d = self.doc
        held = d.held if d is not None and not d.lost else None
        lost = None
        if d is not None and d.lost:
            view = d.lost_view
            lost = (d.doc_id, self._lock_badges([view]).get(d.doc_id) if view else None)
        self.doc_list.set_own_lock(
            d.doc_id if d is not None and held is not None else None,
            started_at=getattr(held, "started_at", None),
            lost=lost,
        )

    def explain_cannot_save(self) -> None:
        """Ctrl+S on a read-only document: say why, in the banner that shows its state."""
        d = self.doc
        if d is None or d.editable:
            return
        if d.lost:
            banner = self.lock_banner
        elif self.ctx.viewer:
            banner = self.viewer_banner
        else:
            banner = self.readonly_banner
        prefix = self.tr("This document cannot be saved here.")
        text = banner.label.text()
        if not text.startswith(prefix):
            banner.set_text(f"{prefix} {text}")
        banner.show()

    def _lock_badges(self, views: list[Any]) -> dict[str, LockBadge]:
        return lock_badges(views)

    # ------------------------------------------------------------------ list
    def _app_state_changed(self, state: Qt.ApplicationState) -> None:
        if (
            state == Qt.ApplicationState.ApplicationActive
            and time.monotonic() - self._last_refresh > 5
        ):
            self._spawn(self.refresh_list())

    def _idle_refresh(self) -> None:
        if not self._refreshing and not self._closing:
            self._spawn(self.refresh_list())

    async def refresh_list(self) -> bool:
        """Re-read the document list (one request when nothing changed)."""
        if self._refreshing or self._closing:
            return False
        self._refreshing = True
        first = not self.doc_list.rows
        if first:
            self.doc_list.set_loading(True)
        else:
            self.doc_list.refresh_button.setEnabled(False)
        try:
            snap = await self.ctx.store.refresh()
            locks = getattr(snap, "locks", {}) or {}
            views = await self.ctx.locks.list_locks(locks) if locks else []
        except Exception as exc:
            log.info("refresh failed: %s", exc)
            offline = _offline(exc)
            self.doc_list.set_loading(False)
            # An outage reads the same in the list as in the status bar.
            self.doc_list.set_error(
                self.tr("not connected to GitHub") if offline else err_text(exc, self.ctx.lang)
            )
            self._set_connection(False, err_text(exc, self.ctx.lang), offline=offline)
            return False
        finally:
            self._refreshing = False
            self._last_refresh = time.monotonic()
            if not self._closed_ok:
                self.doc_list.refresh_button.setEnabled(True)
        rows = rows_from_snapshot(snap, views)
        self.doc_list.set_loading(False)
        self.doc_list.set_rows(rows, self.ctx.server_now())
        self._set_connection(True)
        # Our lock changed on the server (stolen or released): check now, not at the next beat.
        doc = self.doc
        if doc is not None and doc.held is not None and not doc.lost:
            entry = locks.get(doc.doc_id)
            sha = getattr(entry, "sha", entry) if entry is not None else None
            if sha != doc.held.sha:
                doc.wake.set()
        return True

    def _open_selected(self) -> None:
        d = self.doc_list.selected_doc_id()
        if d:
            self._spawn(self.open_document(d))

    # ------------------------------------------------------------------ open
    async def open_document(self, doc_id: str) -> bool:
        """Open a document: lock it (asking when someone else has it), load it, show it."""
        if self._busy_open or self._closing:
            return False
        # Any name of the document (docId, path, or the front-matter id = the site address);
        # a document that is not in the tree gets no lock written for it.
        try:
            found = await self.ctx.store.resolve(doc_id)
        except Exception as exc:
            self._fail_open(doc_id, exc)
            return False
        if found is None:
            self.show_notice(
                self.tr("There is no document “{doc}” in the repository.").format(doc=doc_id),
                "error",
            )
            return False
        doc_id = found.doc_id
        if self.doc is not None and self.doc.doc_id == doc_id:
            self.editor_pane.editor.setFocus()
            return True
        self._busy_open = True
        self._open_task = asyncio.current_task()
        try:
            if self.doc is not None and not await self.close_document():
                return False
            return await self._open(doc_id)
        finally:
            self._busy_open = False
            self._open_task = None

    async def _open(self, doc_id: str) -> bool:
        from modu_desktop.core.locks import AcquireOutcome, AcquireResult, LockStatus

        lang = self.ctx.lang
        self.notice.hide()
        if self.ctx.viewer:
            return await self._load_and_show(doc_id, MODE_VIEWER, None)

        self._set_lock_status(
            fill(self.tr("Checking whether someone is editing “{doc}”…"), doc=self._label(doc_id))
        )
        held = None
        preloaded: Any = None
        fresh: Any = None  # a fresh lock read still under way (the dialog was shown from cache)
        stale_notice: str | None = None
        row = self.doc_list.row(doc_id)
        list_saw_no_lock = row is not None and row.lock is None
        for attempt in range(3):
            try:
                if attempt == 0 and list_saw_no_lock:
                    # The list saw no lock: write the lock and read the text in the same round
                    # trip. A lock created since is still safe: a PUT without sha cannot replace
                    # it, and acquire then reports who holds it.
                    res, preloaded = await self._acquire_and_load(doc_id)
                    if res.held is None:
                        # Not ours yet: a lock dialog may stay open for minutes, so the text
                        # read now would be stale by the time the user takes over. Read again.
                        preloaded = None
                else:
                    # Look first (reads only): a fresh foreign lock goes straight to the
                    # question, without a doomed write attempt. The list's cached lock asks at
                    # once while one fresh read checks it (issue 18, ui/fast_lock.py).
                    seen, fresh = (
                        fast_lock.cached_then_fresh(self.ctx, doc_id)
                        if attempt == 0
                        else (None, None)
                    )
                    if seen is None:
                        seen = await self.ctx.locks.inspect(doc_id)
                    if seen.status in (
                        LockStatus.HELD,
                        LockStatus.MINE_OTHER_SESSION,
                        LockStatus.MALFORMED,
                    ):
                        res = AcquireResult(AcquireOutcome.BLOCKED, doc_id, view=seen)
                    else:
                        res = await self.ctx.locks.acquire(doc_id, take_stale=True)
            except Exception as exc:
                self._fail_open(doc_id, exc)
                return False
            if res.outcome in (AcquireOutcome.ACQUIRED, AcquireOutcome.REUSED):
                held = res.held
                break
            if res.outcome is AcquireOutcome.TOOK_OVER:
                held = res.held
                v = res.view
                stale_notice = self.tr(
                    "{who} had left “{doc}” without a sign of life since {beat}, "
                    "so you have taken over "
                    "editing."
                ).format(
                    who=(v.holder if v else "?"),
                    doc=doc_id,
                    beat=format_when(v.last_heartbeat if v else None, self.ctx.server_now()),
                )
                break
            if res.outcome is AcquireOutcome.FAILED:
                self._fail_open(doc_id, res.error or RuntimeError(res.message))
                return False
            if res.outcome is AcquireOutcome.LOST_RACE:
                continue  # look again
            # BLOCKED: ask
            view = res.view
            assert view is not None

            def info_of(view: Any) -> LockHolderInfo:
                rec = view.record
                return LockHolderInfo(
                    doc_id=doc_id,
                    holder=(rec.claimed_by or None)
                    if rec is not None and rec.malformed
                    else view.holder,
                    started_at=view.started_at,
                    last_heartbeat=view.last_heartbeat,
                    now=view.server_now,
                    same_user=view.status is LockStatus.MINE_OTHER_SESSION,
                    malformed=view.status is LockStatus.MALFORMED,
                    title=r.title if (r := self.doc_list.row(doc_id)) is not None else None,
                )

            self._set_lock_status(
                fill(self.tr("“{doc}” is in use"), doc=self._label(doc_id)), "warning"
            )
            if fresh is not None:
                choice_or_none, view = await fast_lock.choose_with_fresh_check(
                    self, view, fresh, info_of
                )
                fresh = None
                if choice_or_none is None:
                    continue  # the lock changed while asking: look again
                choice = choice_or_none
            else:
                choice = await choose_lock_action(self, info_of(view))
            info = info_of(view)
            if choice is LockChoice.CANCEL:
                self._set_lock_status("")
                return False
            if choice is LockChoice.READ_ONLY:
                return await self._load_and_show(doc_id, MODE_READ_ONLY, None, holder_info=info)
            try:
                res2 = await self.ctx.locks.steal(view)
            except Exception as exc:
                self._fail_open(doc_id, exc)
                return False
            if res2.held is not None:
                held = res2.held
                break
            if res2.outcome is AcquireOutcome.FAILED:
                self._fail_open(doc_id, res2.error or RuntimeError(res2.message))
                return False
            # a different holder took it meanwhile (core.locks re-read it): say who, truthfully;
            # the loop then asks again about the new holder
            self.show_notice(took_first_text(self._label(doc_id), res2.view), "warning")
        if held is None:
            self.show_notice(
                self.tr(
                    "Could not start editing “{doc}”: others keep changing its lock. Try again."
                ).format(doc=self._label(doc_id)),
                "error",
            )
            self._set_lock_status("")
            return False
        ok = await self._load_and_show(doc_id, MODE_EDIT, held, preloaded=preloaded)
        if not ok:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    self.ctx.locks.release(held), self.ctx.options.release_timeout_s
                )
            return False
        if stale_notice:
            self.show_notice(stale_notice, "warning")
        del lang
        return True

    async def _acquire_and_load(self, doc_id: str) -> tuple[Any, Any]:
        """Acquire the lock and load the text concurrently; the text is None if loading failed
        (it is loaded again once the lock is ours)."""
        results: tuple[Any, Any] = await asyncio.gather(
            self.ctx.locks.acquire(doc_id, take_stale=True),
            self.ctx.store.load(doc_id),
            return_exceptions=True,
        )
        acquired, loaded = results
        if isinstance(acquired, BaseException):
            raise acquired
        return acquired, None if isinstance(loaded, BaseException) else loaded

    async def open_with_lock(self, doc_id: str, held: Any) -> bool:
        """Open a document whose lock we already hold (a document we just created)."""
        if self.doc is not None and not await self.close_document():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    self.ctx.locks.release(held), self.ctx.options.release_timeout_s
                )
            return False
        return await self._load_and_show(doc_id, MODE_EDIT, held)

    async def forget_open_document(self) -> None:
        """The open document is gone (deleted with its lock): close it without releasing."""
        doc = self.doc
        if doc is None:
            return
        doc.held = None
        if doc.heartbeat is not None and not doc.heartbeat.done():
            doc.heartbeat.cancel()
        self._draft_discard(doc)
        self._show_no_document()

    def _show_no_document(self) -> None:
        """No document is open any more: empty read-only editor, the list page, no banners."""
        self.doc = None
        self.lock_banner.hide()
        self.readonly_banner.hide()
        self.editor_pane.load_text("", read_only=True)
        self.right.setCurrentIndex(0)
        self._set_lock_status("")
        self._update_title()
        self._update_actions()

    def _label(self, doc_id: str) -> str:
        """The document's title for messages (its docId when the list does not know it)."""
        row = self.doc_list.row(doc_id)
        return row.title if row is not None and row.title else doc_id

    def _fail_open(self, doc_id: str, exc: BaseException) -> None:
        self._set_lock_status("")
        self.show_notice(
            fill(
                self.tr("Could not open “{doc}”: {msg}"),
                doc=doc_id,
                msg=err_text(exc, self.ctx.lang),
            ),
            "error",
        )

    async def _load_and_show(
        self,
        doc_id: str,
        mode: str,
        held: Any,
        holder_info: LockHolderInfo | None = None,
        *,
        preloaded: Any = None,
    ) -> bool:
        loaded = preloaded
        if loaded is None:
            try:
                loaded = await self.ctx.store.load(doc_id)
            except Exception as exc:
                self._fail_open(doc_id, exc)
                return False
        row = self.doc_list.row(doc_id)
        doc = OpenDoc(
            doc_id=doc_id,
            path=getattr(loaded, "path", f"docs/{doc_id}.md"),
            base_sha=loaded.sha,
            mode=mode,
            title=row.title if row else doc_id,
            held=held,
        )
        self.doc = doc
        self.lock_banner.hide()
        self.editor_pane.load_text(loaded.text, read_only=mode != MODE_EDIT)
        self.editor_pane.find_bar.hide()
        self.right.setCurrentIndex(1)
        self.doc_list.select(doc_id)
        self.doc_header.setText(f"<b>{_esc(doc.title)}</b> &nbsp; <span>{_esc(doc.path)}</span>")
        if mode == MODE_EDIT:
            doc.drafts = self._make_drafts(doc)
            self.readonly_banner.hide()
            self._set_lock_status(
                fill(self.tr("You are editing “{doc}”"), doc=self._label(doc_id)), "ok"
            )
            doc.heartbeat = self._spawn(self._heartbeat_loop(doc), name=f"heartbeat:{doc_id}")
            self.editor_pane.editor.setFocus()
        elif mode == MODE_READ_ONLY:
            who = holder_info.holder if holder_info and holder_info.holder else "?"
            self.readonly_banner.set_text(
                self.tr(
                    "Read-only: {who} is editing this document. You can read and copy, not change."
                ).format(who=who)
            )
            self.readonly_banner.show()
            self._set_lock_status(self.tr("Read-only"), "info")
            self.editor_pane.editor.setFocus()
        else:
            self.readonly_banner.hide()
            self._set_lock_status(self.tr("Viewer mode — read-only"), "info")
            self.editor_pane.editor.setFocus()
        self._update_title()
        self._update_actions()
        self._set_connection(True)
        return True

    # ------------------------------------------------------------------ pictures in the preview
    def _images_ready(self) -> None:
        if not self._closing:
            self._image_timer.start()  # coalesce several pictures into one re-render

    def _rerender_images(self) -> None:
        pv = self.editor_pane.preview
        set_resolver = getattr(pv, "set_image_resolver", None)
        if callable(set_resolver):
            set_resolver(self.images.resolve)  # forget the last HTML: pictures changed
        render_now = getattr(pv, "render_now", None)
        if callable(render_now) and self.doc is not None:
            render_now(self.editor_pane.text())

    # ------------------------------------------------------------------ drafts (issue 5)
    def _make_drafts(self, doc: OpenDoc) -> Any:
        """Journal edits to the user data dir within ~2 s (temp + fsync + rename, core.drafts,
        driven by ui.drafts_controller); a draft is removed only once its text is committed or
        the user discards it. Edits are fed by ``_note_edit`` (typing, not programmatic loads)."""
        try:
            from modu_desktop.core.drafts import DraftJournal, DraftKey, DraftStore
            from modu_desktop.ui.drafts_controller import DraftsController

            s = self.ctx.settings
            journal = DraftJournal(
                DraftStore(self.ctx.paths.drafts_dir),
                DraftKey(s.api_url, s.repo_full_name, s.branch, doc.doc_id),
                base_sha=doc.base_sha,
                doc_path=doc.path,
                session_id=self.ctx.session_id,
                title=doc.title,
            )
            return DraftsController(journal, parent=self)
        except Exception:
            log.warning("drafts unavailable", exc_info=True)
            return None

    def _note_edit(self) -> None:
        doc = self.doc
        if doc is not None and doc.drafts is not None and self.editor_pane.is_modified():
            doc.drafts.note_edit(self.editor_pane.text())

    def _draft_committed(self, doc: OpenDoc, text: str, sha: str) -> None:
        if doc.drafts is not None:
            with contextlib.suppress(Exception):
                doc.drafts.committed(text, sha)

    def _draft_discard(self, doc: OpenDoc) -> None:
        ctl = doc.drafts
        doc.drafts = None
        if ctl is not None:
            with contextlib.suppress(Exception):
                ctl.discard()

    def _draft_flush(self, doc: OpenDoc) -> None:
        ctl = doc.drafts
        doc.drafts = None
        if ctl is not None:
            with contextlib.suppress(Exception):
                ctl.flush()
            ctl.stop()

    async def recover_at_start(self) -> None:
        """After a crash or kill: resume (or release) the locks the dead session left, then offer
        its drafts back against the current server version (issue 5's recovery pieces)."""
        if self.ctx.viewer:
            return
        try:
            from modu_desktop.core.drafts import DraftStore
            from modu_desktop.ui.leftover_locks import LeftoverLocks, leftover_drafts, registry_for
            from modu_desktop.ui.recovery_dialog import assess, offer_recovery, orphan_drafts
        except ImportError:
            self.find_left_drafts()
            return
        s = self.ctx.settings
        drafts = DraftStore(self.ctx.paths.drafts_dir)
        resumed_keys: list[Any] = []
        try:
            report = await LeftoverLocks(
                registry_for(self.ctx.paths.data_dir),
                self.ctx.locks,
                api_host=s.api_url,
                repo=s.repo_full_name,
                branch=s.branch,
                drafts=drafts,
            ).run()
            for lo, held in report.resumed:
                if await self.open_with_lock(lo.doc_id, held) and lo.draft is not None:
                    self._put_back(lo.draft)
                    self.show_notice(
                        fill(
                            self.tr(
                                "“{doc}” was still open when the app stopped: your lock and your "
                                "unsaved text are back."
                            ),
                            doc=lo.draft.title or lo.doc_id,
                        ),
                        "info",
                    )
            resumed_keys = [d.key for d in leftover_drafts(report)]
        except Exception:
            log.warning("leftover locks not settled", exc_info=True)
        try:
            left = orphan_drafts(
                drafts,
                api_host=s.api_url,
                repo=s.repo_full_name,
                branch=s.branch,
                live_session_ids=[self.ctx.session_id],
                exclude=resumed_keys,
            )
            if not left:
                return
            items = await assess(left, self.ctx.store)
            await offer_recovery(
                self,
                items,
                drafts,
                restore=self._restore_from_recovery,
                save_as_new=self._save_new_from_recovery,
                can_write=not self.ctx.viewer,
            )
        except Exception:
            log.warning("draft recovery failed", exc_info=True)

    def _put_back(self, draft: Any) -> None:
        """Put a draft's text in the open editor (byte-identical), on the draft's base sha."""
        doc = self.doc
        if doc is None:
            return
        if doc.editable:
            if draft.base_sha:
                doc.base_sha = draft.base_sha
            self.editor_pane.replace_all_text(draft.text, modified=True)
            if doc.drafts is not None:
                doc.drafts.rebase(doc.base_sha)
                doc.drafts.note_edit(draft.text)
        else:
            self.editor_pane.replace_all_text(draft.text, modified=True)
        self._update_title()

    async def _restore_from_recovery(self, draft: Any, item: Any) -> bool:
        if not await self.open_document(draft.key.doc_id):
            return False
        if self.doc is None or self.doc.doc_id != draft.key.doc_id:
            return False
        self._put_back(draft)
        return True

    async def _save_new_from_recovery(self, draft: Any, item: Any) -> str | None:
        return await self._create_new_document(draft.key.doc_id, draft.text)

    def find_left_drafts(self) -> list[Any]:
        """Drafts of this repository written by another (ended) session: offer them back."""
        if self.ctx.viewer:
            return []
        try:
            from modu_desktop.core.drafts import DraftStore

            s = self.ctx.settings
            drafts = [
                d
                for d in DraftStore(self.ctx.paths.drafts_dir).list()
                if d.session_id != self.ctx.session_id
                and d.key.api_host == s.api_url.rstrip("/")
                and d.key.repo == s.repo_full_name
                and d.key.branch == s.branch
            ]
        except Exception:
            log.warning("could not read drafts", exc_info=True)
            return []
        self.pending_drafts = sorted(drafts, key=lambda d: d.saved_at)
        self._show_next_draft()
        return self.pending_drafts

    def _show_next_draft(self) -> None:
        if not self.pending_drafts:
            self.draft_banner.hide()
            return
        d = self.pending_drafts[0]
        self.draft_banner.set_text(
            self.tr(
                "Unsaved text of “{doc}” from {when} was kept when the app closed. "
                "Restore it to keep working on it, or discard it."
            ).format(doc=d.title or d.key.doc_id, when=format_when(d.saved_at))
        )
        self.draft_banner.show()

    async def restore_draft(self) -> bool:
        """Open the draft's document (with the usual lock questions) and put the text back.
        Its base sha is kept, so if the site changed meanwhile, saving shows the conflict screen."""
        if not self.pending_drafts:
            return False
        d = self.pending_drafts[0]
        if not await self.open_document(d.key.doc_id):
            return False
        doc = self.doc
        if doc is None or doc.doc_id != d.key.doc_id:
            return False
        self.pending_drafts.pop(0)
        self._put_back(d)
        self._show_next_draft()
        return True

    def discard_offered_draft(self) -> None:
        if not self.pending_drafts:
            return
        d = self.pending_drafts.pop(0)
        with contextlib.suppress(Exception):
            from modu_desktop.core.drafts import DraftStore

            DraftStore(self.ctx.paths.drafts_dir).discard(d.key, only_if_text=d.text)
        self._show_next_draft()

    # ------------------------------------------------------------------ heartbeat
    async def _heartbeat_loop(self, doc: OpenDoc) -> None:
        from modu_desktop.core.locks import HeartbeatOutcome

        interval = self.ctx.options.heartbeat_s
        while self.doc is doc and doc.held is not None and not doc.lost:
            with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                await asyncio.wait_for(doc.wake.wait(), timeout=interval)
            doc.wake.clear()
            if self.doc is not doc or doc.held is None or doc.lost:
                return
            try:
                res = await self.ctx.locks.heartbeat(doc.held)
            except Exception as exc:  # the manager reports errors; be safe anyway
                self._set_connection(False, err_text(exc, self.ctx.lang), offline=_offline(exc))
                continue
            if self.doc is not doc or doc.lost:
                return
            if res.outcome is HeartbeatOutcome.OK:
                self._set_connection(True)
                stamp = format_when(self.ctx.server_now(), self.ctx.server_now()).split(" ")[0]
                self._set_lock_status(
                    self.tr("You are editing “{doc}” · lock renewed at {time}").format(
                        doc=doc.title or doc.doc_id, time=stamp
                    ),
                    "ok",
                )
            elif res.outcome is HeartbeatOutcome.MISSED:
                left = res.expires_in_s or 0
                if left > 0:  # never "in 0 min": round up, at least one minute
                    msg = self.tr(
                        "Not connected to GitHub: your editing lock was not renewed ({n} tries). "
                        "If the connection is not back within {m} min, others may take over "
                        "editing. Keep this window open: your text is safe here."
                    ).format(n=res.misses, m=max(1, -int(-left // 60)))
                else:
                    msg = self.tr(
                        "Not connected to GitHub: your editing lock was not renewed ({n} tries) "
                        "and has expired, so others may take over editing now. Keep this window "
                        "open: your text is safe here."
                    ).format(n=res.misses)
                self._set_connection(
                    False,
                    err_text(res.error, self.ctx.lang) if res.error else msg,
                    offline=True,  # a missed beat is GitHub not answering: say it as above
                )
                self._set_lock_status(msg, "warning")
            else:
                self._lock_lost(doc, res.view, released=res.outcome is HeartbeatOutcome.RELEASED)
                return

    def _lock_lost(self, doc: OpenDoc, view: Any, *, released: bool) -> None:
        """The lock is gone: read-only now, banner with who/when, text untouched."""
        if doc.lost:
            return
        doc.lost = True
        doc.lost_view = view
        doc.held = None
        self.editor_pane.set_read_only(True)
        now = self.ctx.server_now()
        if released or view is None or view.record is None:
            text = self.tr(
                "Someone released your lock on this document, so it is read-only now. "
                "Your text is still here: copy it, save it as a new document, or compare it."
            )
        else:
            rec = view.record
            who = rec.claimed_by if rec.malformed and rec.claimed_by else view.holder
            if rec.editing_by.casefold() == self.ctx.login.casefold() and not rec.malformed:
                text = self.tr(
                    "You ({login}) took over editing in another window at {when}, so this "
                    "document is read-only here. Your text is still here: copy it, save it as "
                    "a new document, or compare it."
                ).format(login=rec.editing_by, when=format_when(rec.started_at, now))
            else:
                text = self.tr(
                    "{who} took over editing at {when}, so this document is read-only now. "
                    "Your text is still here: copy it, save it as a new document, or compare it."
                ).format(who=who, when=format_when(rec.started_at, now))
        self.lock_banner.set_text(text)
        self.lock_banner.show()
        self.editor_pane.editor.ensureCursorVisible()
        self._set_lock_status(self.tr("Lock lost — read-only"), "error")
        self._update_title()
        self._update_actions()

    # ------------------------------------------------------------------ save
    async def save(self) -> bool:
        from modu_desktop.core.locks import LockStatus

        doc = self.doc
        if doc is None or not doc.editable or doc.saving:
            return False
        doc.saving = True
        self.editor_pane.set_saving(True)  # issue 14
        try:
            self._set_lock_status(self.tr("Saving…"), "info")
            try:
                ver = await self.ctx.locks.verify(doc.held)
            except Exception as exc:
                self._save_failed(exc)
                return False
            if not ver.ok:
                if ver.retryable:  # GitHub could not be asked: say so as the outage is said
                    if doc.editable:
                        self._show_editing_status(doc)
                    self._set_connection(False, ver.reason, offline=True)
                    self.show_notice(
                        self.tr(
                            "Not saved: not connected to GitHub (the lock could not be checked). "
                            "Your text is still here; save again when the connection is back."
                        ),
                        "error",
                        topic="connection",
                    )
                    return False
                view = ver.view
                self._lock_lost(doc, view, released=view is None or view.status is LockStatus.FREE)
                self.show_notice(
                    self.tr("Not saved: you no longer hold the lock on this document."), "error"
                )
                return False
            text = self.editor_pane.text()
            return await self._commit(doc, text, doc.base_sha)
        finally:
            doc.saving = False
            self.editor_pane.set_saving(False)  # issue 14

    async def _commit(self, doc: OpenDoc, text: str, base_sha: str) -> bool:
        try:
            res = await self.ctx.store.save(doc.doc_id, text, base_sha, self.ctx.login)
        except Exception as exc:
            if type(exc).__name__ == "QueuedForSave":
                # Offline: the save waits on disk and goes out by itself (issue 5's queue).
                msg = err_text(exc, self.ctx.lang)
                self._show_editing_status(doc)  # the message goes to one place: the notice
                self._set_connection(False, msg, offline=True)
                self.show_notice(msg, "warning", topic="connection")
                return False
            self._save_failed(exc)
            return False
        if _is_conflict(res):
            return await self._resolve_conflict(doc, text, res)
        new_sha = getattr(res, "sha", None) or getattr(res, "content_sha", None) or base_sha
        commit = getattr(res, "commit_sha", None)
        doc.base_sha = new_sha
        self._draft_committed(doc, text, new_sha)
        if self.editor_pane.text() == text:
            self.editor_pane.set_modified(False)
        self._set_connection(True)
        self._set_lock_status(fill(self.tr("✔ Saved “{doc}”"), doc=doc.title or doc.doc_id), "ok")
        self.resolve_notice("save", "connection")  # an earlier "not saved" is resolved
        self._update_title()
        if commit:
            self._watch_deploy(str(commit))
        self._spawn(self.refresh_list())
        return True

    def _save_failed(self, exc: BaseException) -> None:
        """One message in one place (the notice); the status bar keeps the lock state."""
        msg = err_text(exc, self.ctx.lang)
        offline = _offline(exc)
        if self.doc is not None and self.doc.editable:
            self._show_editing_status(self.doc)
        if offline:
            self._set_connection(False, msg, offline=True)
        self.show_notice(
            self.tr("Not saved: {msg} Your text is still here.").format(msg=msg),
            "error",
            topic="connection" if offline else "save",
        )

    def _show_editing_status(self, doc: OpenDoc) -> None:
        self._set_lock_status(
            fill(self.tr("You are editing “{doc}”"), doc=doc.title or doc.doc_id), "ok"
        )

    async def _resolve_conflict(self, doc: OpenDoc, mine: str, conflict: Any) -> bool:
        theirs = getattr(conflict, "theirs", "")
        their_sha = getattr(conflict, "their_sha", None)
        who = None
        try:  # who saved it (best effort, one read)
            commits = await self.ctx.client.list_commits(path=doc.path, per_page=1)
            if commits:
                who = commits[0].author_login or commits[0].author_name
        except Exception:
            who = None
        dlg = ConflictDialog(
            doc.title or doc.doc_id, mine, theirs or "", theirs_by=who, parent=self
        )
        await run_dialog(dlg)
        choice = dlg.choice
        dlg.deleteLater()
        if choice is ConflictChoice.KEEP_MINE and their_sha:
            return await self._commit(doc, mine, their_sha)
        if choice is ConflictChoice.TAKE_THEIRS and their_sha is not None:
            doc.base_sha = their_sha
            self.editor_pane.replace_all_text(theirs, modified=False)
            self._draft_committed(doc, theirs, their_sha)
            self._set_lock_status(
                self.tr("Showing the current version of “{doc}”").format(
                    doc=doc.title or doc.doc_id
                ),
                "ok",
            )
            self._update_title()
            return True
        if choice is ConflictChoice.SAVE_AS_NEW:
            new_id = await self._create_new_document(doc.doc_id, mine)
            if new_id and their_sha is not None:
                doc.base_sha = their_sha
                self.editor_pane.replace_all_text(theirs, modified=False)
                self._draft_committed(doc, theirs, their_sha)
                self.show_notice(
                    fill(
                        self.tr(
                            "Your text was saved as “{new}”. This window now shows the current "
                            "“{doc}”."
                        ),
                        new=new_id,
                        doc=doc.doc_id,
                    ),
                    "info",
                )
                self._update_title()
            return new_id is not None
        self._set_lock_status(self.tr("Not saved (conflict): your text is still here."), "warning")
        return False

    # ------------------------------------------------------------------ deploy status
    def _watch_deploy(self, commit_sha: str) -> None:
        if self._deploy_task is not None and not self._deploy_task.done():
            self._deploy_task.cancel()
        self._deploy_task = self._spawn(self._deploy_loop(commit_sha), name="deploy-status")
        doc = self.doc  # issue 14: the one-line publishing state and "사이트에서 보기"
        url = None
        if doc is not None:
            url = document_page_url(
                self.ctx.settings.api_url,
                self.ctx.settings.owner,
                self.ctx.settings.name,
                doc.path,
                self.editor_pane.text(),
            )
        self.editor_pane.publish.start(commit_sha, url)

    async def _deploy_loop(self, commit_sha: str) -> None:
        from modu_desktop.core import errors
        from modu_desktop.core.deploy import DeployState, DeployTracker

        poll = self.ctx.options.deploy_poll_s
        tracker = DeployTracker(commit_sha)
        self._show_deploy(tracker.state)
        started = time.monotonic()
        while not self._closing and not tracker.state.final:
            try:
                runs = await self.ctx.client.workflow_runs(commit_sha)
                self.editor_pane.publish.observe(runs)  # issue 14
            except (errors.PermissionDenied, errors.NotFound):
                self._show_deploy(tracker.unavailable())
                self.editor_pane.publish.stop("no-access")  # issue 14
                return
            except Exception:
                runs = None
            self._show_deploy(tracker.observe(runs, time.monotonic() - started))
            if tracker.state is DeployState.UNKNOWN:
                self.editor_pane.publish.stop("no-run")  # issue 14
            if not tracker.state.final:
                await asyncio.sleep(poll)

    def _show_deploy(self, state: Any) -> None:
        """One wording per publishing state (core.deploy keeps the state from going back)."""
        from modu_desktop.core.deploy import DeployState

        texts = {
            DeployState.WAITING: (self.tr("Publishing: waiting"), "info"),
            DeployState.BUILDING: (self.tr("Publishing: building the site…"), "info"),
            DeployState.PUBLISHED: (self.tr("✔ Published"), "ok"),
            DeployState.FAILED: (self.tr("✖ Publishing failed"), "error"),
            DeployState.SKIPPED: (self.tr("Not published (skipped)"), "info"),
            DeployState.UNKNOWN: (self.tr("Publishing status unknown"), "info"),
        }
        text, kind = texts[state]
        label = self.status_deploy
        label.setText(text)
        label.setProperty("kind", kind)
        label.style().unpolish(label)
        label.style().polish(label)

    # ------------------------------------------------------------------ lost-lock actions
    def copy_text(self) -> None:
        QApplication.clipboard().setText(self.editor_pane.text())
        self.show_notice(self.tr("Your text is on the clipboard."), "info")

    async def compare_with_current(self) -> None:
        doc = self.doc
        if doc is None:
            return
        try:
            current = await self.ctx.store.load(doc.doc_id)
        except Exception as exc:
            self.show_notice(err_text(exc, self.ctx.lang), "error")
            return
        dlg = ConflictDialog(
            doc.title or doc.doc_id,
            self.editor_pane.text(),
            current.text,
            compare_only=True,
            parent=self,
        )
        await run_dialog(dlg)
        choice = dlg.choice
        dlg.deleteLater()
        if choice is ConflictChoice.SAVE_AS_NEW:
            await self.save_as_new_document()

    async def save_as_new_document(self) -> str | None:
        doc = self.doc
        if doc is None or self.ctx.viewer:
            return None
        new_id = await self._create_new_document(doc.doc_id, self.editor_pane.text())
        if new_id:
            if doc.lost or doc.mode != MODE_EDIT:
                self.editor_pane.set_modified(False)
            self.show_notice(
                fill(self.tr("Saved your text as the new document “{new}”."), new=new_id), "info"
            )
            self._update_title()
        return new_id

    async def _create_new_document(self, from_doc: str, text: str) -> str | None:
        from modu_desktop.ui import fmsync

        existing = set(self.doc_list.doc_ids())
        dlg = NewDocDialog(suggest_doc_id(from_doc, existing), existing, self)
        result = await run_dialog(dlg)
        new_id = dlg.doc_id()
        dlg.deleteLater()
        if result != 1:
            return None
        if fmsync.read_id(text) is not None:
            text = fmsync.write_field(text, "id", new_id.rsplit("/", 1)[-1])
        try:
            await create_document(self.ctx, new_id, text)
        except Exception as exc:
            self.show_notice(
                fill(
                    self.tr("Could not create “{new}”: {msg} Your text is still here."),
                    new=new_id,
                    msg=err_text(exc, self.ctx.lang),
                ),
                "error",
            )
            return None
        self._spawn(self.refresh_list())
        return new_id

    # ------------------------------------------------------------------ close / quit
    async def close_document(self, *, interactive: bool = True) -> bool:
        """Ask about unsaved changes (if interactive), stop the heartbeat, release the lock."""
        doc = self.doc
        if doc is None:
            return True
        if interactive and self.editor_pane.is_modified() and doc.mode == MODE_EDIT:
            if doc.editable:
                key = await ask(
                    self,
                    self.tr("Unsaved changes"),
                    self.tr("“{doc}” has changes that are not saved.").format(
                        doc=doc.title or doc.doc_id
                    ),
                    [
                        ("save", QMessageBox.ButtonRole.AcceptRole, self.tr("&Save")),
                        (
                            "discard",
                            QMessageBox.ButtonRole.DestructiveRole,
                            self.tr("&Discard changes"),
                        ),
                        ("cancel", QMessageBox.ButtonRole.RejectRole, self.tr("&Cancel")),
                    ],
                    object_name="unsavedDialog",
                    icon=QMessageBox.Icon.Warning,
                    default="save",
                )
                if key == "save":
                    if not await self.save():
                        return False
                elif key != "discard":
                    return False
            else:
                key = await ask(
                    self,
                    self.tr("Unsaved changes"),
                    self.tr(
                        "Your changes to “{doc}” are not saved and you no longer hold its lock."
                    ).format(doc=doc.title or doc.doc_id),
                    [
                        (
                            "saveNew",
                            QMessageBox.ButtonRole.AcceptRole,
                            self.tr("Save as &new document"),
                        ),
                        (
                            "discard",
                            QMessageBox.ButtonRole.DestructiveRole,
                            self.tr("&Discard changes"),
                        ),
                        ("cancel", QMessageBox.ButtonRole.RejectRole, self.tr("&Cancel")),
                    ],
                    object_name="unsavedDialog",
                    icon=QMessageBox.Icon.Warning,
                )
                if key == "saveNew":
                    if not await self.save_as_new_document():
                        return False
                elif key != "discard":
                    return False
        if self.editor_pane.is_modified() and not interactive:
            self._draft_flush(doc)  # quitting without questions: keep the text for next start
        else:
            self._draft_discard(doc)
        await self._release(doc)
        if self.doc is doc:
            self._show_no_document()
        return True

    async def _release(self, doc: OpenDoc) -> None:
        held = doc.held
        doc.held = None
        if doc.heartbeat is not None and not doc.heartbeat.done():
            doc.heartbeat.cancel()
            with contextlib.suppress(BaseException):
                await doc.heartbeat
        if held is None or self.ctx.viewer:
            return
        self._set_lock_status(
            self.tr("Releasing the lock on “{doc}”…").format(doc=doc.title or doc.doc_id)
        )
        try:
            await asyncio.wait_for(self.ctx.locks.release(held), self.ctx.options.release_timeout_s)
        except Exception as exc:
            log.warning("release of %s failed: %s", doc.doc_id, exc)

    async def shutdown(self, *, interactive: bool) -> bool:
        """Close the document (asking if interactive) and release every lock (bounded)."""
        if self._closed_ok:
            return True
        await self._settle_open()
        if self.doc is not None:
            ok = await self.close_document(interactive=interactive)
            if not ok:
                return False
        self._closing = True
        self._idle_timer.stop()
        self.ops_host.detach()
        await self._cancel_tasks()
        self._closed_ok = True
        return True

    async def _settle_open(self) -> None:
        """An open in progress must finish (or be cancelled by its own dialogs) before we quit:
        cancelling it mid-request could leave a lock acquired on GitHub that nobody releases."""
        task = self._open_task
        if task is None or task.done() or task is asyncio.current_task():
            return
        for dlg in self.findChildren(QDialog):
            if dlg.isVisible():
                dlg.reject()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(task), self.ctx.options.release_timeout_s)

    def request_quit(self, interactive: bool = True) -> None:
        """Quit menu, window close, SIGTERM/SIGINT, OS logout: same path."""
        spawn(self._quit(interactive))

    async def _quit(self, interactive: bool) -> None:
        if self._closing and not self._closed_ok:
            return
        if await self.shutdown(interactive=interactive):
            self.hide()
            self.finished.emit()

    async def sign_out(self) -> None:
        if await self.shutdown(interactive=True):
            if self.ctx.token_store is not None:
                self.ctx.token_store.clear()
            self.hide()
            self.signOutRequested.emit()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        if self._closed_ok:
            event.accept()
            return
        event.ignore()
        self.request_quit(True)


def _offline(exc: BaseException | None) -> bool:
    """GitHub could not be reached (as opposed to: it answered with an error)."""
    from modu_desktop.core import errors

    return isinstance(exc, errors.NetworkError | asyncio.TimeoutError | TimeoutError) or type(
        exc
    ).__name__ in ("QueuedForSave", "WriteUncertain")


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _is_conflict(res: Any) -> bool:
    return type(res).__name__ == "SaveConflict" or hasattr(res, "their_sha")


async def create_document(ctx: AppContext, doc_id: str, text: str) -> Any:
    """Create ``docs/{doc_id}.md`` with the web admin's commit message (adapter over the core)."""
    store = ctx.store
    for name in ("create", "create_document"):
        fn = getattr(store, name, None)
        if callable(fn):
            return await fn(doc_id, text, ctx.login)
    path = f"docs/{doc_id}.md"
    file = path.rsplit("/", 1)[-1]
    return await ctx.client.put_file(
        path, text.encode("utf-8"), f"feat(docs): create {file} by @{ctx.login}", sha=None
    )
