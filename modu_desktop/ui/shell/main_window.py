"""The main window: document list, editor with preview, banners, status bar.

The window renders; it does not sequence the protocol. Opening, locking, the heartbeat, saving,
conflicts, the queue and the release belong to the open document's
:class:`~modu_desktop.core.edit_session.EditSession`; this window is that session's view
(:meth:`ask_take_over`, :meth:`ask_conflict`, :meth:`report`), and ``session_words`` turns the
session's events into sentences. Background jobs run through :class:`Operations`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QMainWindow,
    QWidget,
)

from modu_desktop.core.edit_session import (
    Conflict,
    ConflictDecision,
    EditSession,
    LockHolder,
    LockResumed,
    Mode,
    Opened,
    OpenFailed,
    Queued,
    Saved,
    SessionEvent,
    TakeOver,
    TheirsTaken,
)
from modu_desktop.core.locks.model import HeldLock
from modu_desktop.core.pageedit.readable import readable_text
from modu_desktop.core.publish.status import PublishBoard
from modu_desktop.i18n import tr
from modu_desktop.ui.doclist.badges import sync_own_lock
from modu_desktop.ui.docops.ops_host import OpsHost
from modu_desktop.ui.editing.doc_dialogs import (
    ask_unsaved,
    compare,
    decide_conflict,
)
from modu_desktop.ui.editing.drafts_controller import DraftsController, drafts_for
from modu_desktop.ui.editing.session_words import (
    SessionWords,
    saved_as_new_text,
    took_over_text,
)
from modu_desktop.ui.help.menu import HelpMenu
from modu_desktop.ui.kit.banners import show_state
from modu_desktop.ui.kit.changes import ChangeBus, Changes, Landed
from modu_desktop.ui.kit.clipboard import put_text
from modu_desktop.ui.kit.context import AppContext
from modu_desktop.ui.kit.names import WindowNames
from modu_desktop.ui.kit.operation import Operations, error_text
from modu_desktop.ui.kit.preedit import commit_preedit
from modu_desktop.ui.locks.lock_dialog import ask_take_over, open_lock_dialog
from modu_desktop.ui.preview.wiring import attach_preview
from modu_desktop.ui.publish.deploy_status import DeployStatus
from modu_desktop.ui.publish.unpublished import UnpublishedBar
from modu_desktop.ui.publish.wiring import Publishing
from modu_desktop.ui.recovery.nothing_lost import NothingLost
from modu_desktop.ui.recovery.startup_recovery import recover_at_start
from modu_desktop.ui.shell.following import Following
from modu_desktop.ui.shell.list_refresh import ListRefresh
from modu_desktop.ui.shell.narrow import NarrowLayout, size_first_window
from modu_desktop.ui.shell.quitting import Quitting
from modu_desktop.ui.shell.regaining import Regaining
from modu_desktop.ui.shell.window_menus import build_menus, remember_language
from modu_desktop.ui.shell.window_parts import (
    WindowWidgets,
    account_text,
    build_central,
    build_status_bar,
    explain_cannot_save,
    preview_images,
)
from modu_desktop.ui.shell.window_search import WindowSearch
from modu_desktop.ui.shell.zoom import TextZoom

log = logging.getLogger(__name__)
CLOCK_MS = 30_000  # how often texts that say "how long ago" are told again


class MainWindow(WindowWidgets, QMainWindow):
    signOutRequested = Signal()
    finished = Signal()  # the window closed and every lock it held was released (or timed out)
    connectionRestored = Signal()  # GitHub answers again after a failure

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.session: EditSession | None = None
        self.drafts: DraftsController | None = None
        self.ops = Operations(lambda text: self.show_notice(text, "error"))
        self.following = Following(self)
        self.changes = ChangeBus()  # what an operation changed, for every part that shows it
        self.changes.subscribe(self.following.changed)
        self.words = SessionWords(self)
        self.quitting = Quitting(self, self)
        self._checking = False  # the check before a save is running
        self.busy_open = False
        self.setObjectName("mainWindow")
        size_first_window(self)
        self.board = PublishBoard(ctx.login)  # each document's state: what every widget shows
        build_central(self)
        self.list_refresh = ListRefresh(
            self, stopped=lambda: self.quitting.closing, closed=lambda: self.quitting.closed
        )
        # 게시 안 됨 + 게시하기 under the title
        self.unpublished = UnpublishedBar.attach(self, self.doc_header)
        build_status_bar(self)
        self.set_connection(True)
        self.text_zoom = TextZoom(ctx.settings, ctx.paths.settings_file, self)
        build_menus(self)
        self.publishing = Publishing(self, self)
        self.deploy = DeployStatus(
            self.board,
            ctx.client,
            self.ops,
            poll_s=ctx.options.deploy_poll_s,
            stopped=lambda: self.quitting.closing,
            explain=self.publishing.explain,
            server_now=ctx.server_now,
        )
        self.editor_pane.phaseChanged.connect(self.following.sync_phase)
        self._clock = QTimer(self)  # relative times ("방금", "3분 전") move on
        self._clock.setInterval(CLOCK_MS)
        self._clock.timeout.connect(self.refresh_times)
        self._clock.start()
        self.images = preview_images(self, self, lambda: self.quitting.closing)
        self.ops_host = OpsHost(self, self)
        self.ops_host.build_menu()
        self.document_menu.addAction(self.publishing.history_action)
        attach_preview(self)  # the repository's stylesheets for the preview; Save as PDF…
        self.nothing_lost = NothingLost(self, self)
        # 편집 권한 가져오기, and 지금 편집하기 when notify-when-free says a page is free
        self.regaining = Regaining(self, self, freed=self.nothing_lost.notifier.notified)
        self.help_menu = HelpMenu(self)  # last: Help is the menu bar's last menu
        self.help_menu.token.check()
        self.narrow = NarrowLayout(self)  # below ~1000 px the list steps aside for a document
        self.search = WindowSearch(self)  # the list's search of every page (Ctrl+Shift+F)
        self.update_title()
        self.changes.publish(Changes(open_doc=True))
        self.names = WindowNames(
            ctx.people,
            ctx.client,
            self.ops,
            closing=lambda: self.quitting.closing,
            said_again=self._names_learnt,
        )

    @property
    def doc(self) -> EditSession | None:
        """The open document's session (None when nothing is open)."""
        return self.session

    @property
    def refreshing(self) -> bool:
        return self.list_refresh.refreshing

    # ------------------------------------------------------------------ small state helpers
    def set_language(self, code: str | None) -> None:
        """Remember the interface language (applies at the next start)."""
        remember_language(self, code)

    def set_connection(
        self, ok: bool, message: str | None = None, *, offline: bool = False
    ) -> None:
        if ok and self.status_conn.property("kind") == "error":
            self.connectionRestored.emit()
        self.status_conn.setToolTip(self.ctx.settings.api_url if ok else message or "")
        text = tr("● Connected") if ok else tr("⚠ Connection problem")
        if not ok and offline:
            text = tr("⚠ Not connected to GitHub")
        show_state(self.status_conn, text, "ok" if ok else "error")
        if ok:
            self.resolve_notice("connection")  # what the outage said is no longer true

    def set_lock_status(self, text: str, kind: str = "info") -> None:
        show_state(self.status_lock, text, kind)  # a long one ends in "…", whole on hover

    def lock_status(self) -> tuple[str, str]:
        return self.status_lock.text(), str(self.status_lock.property("kind") or "info")

    def show_notice(
        self, text: str | Callable[[], str], kind: str = "info", topic: str | None = None
    ) -> None:
        """The one place for a message about an event; ``topic`` ("connection", "save",
        "upload", "document": about the open document) lets the success that resolves it
        clear it (``resolve_notice``). A callable text is asked again as time goes by."""
        self.notice.show_message(text, kind, topic)

    def resolve_notice(self, *topics: str) -> None:
        self.notice.resolve(*topics)

    def explain_cannot_save(self) -> None:
        explain_cannot_save(self)

    def label(self, doc_id: str) -> str:
        """The document's title for messages (its docId when the list does not know it)."""
        row = self.doc_list.row(doc_id)
        if row is not None and row.title:
            return row.title
        return self.ops_host.created_titles.get(doc_id) or self.ctx.store.title_of(doc_id)

    def learn_names(self, logins: Iterable[str | None]) -> None:
        self.names.learn(logins)  # the screens name those people again once the names are in

    def _names_learnt(self) -> None:
        self.refresh_times()
        self.status_account.setText(account_text(self))

    def update_title(self) -> None:
        app = tr("Modu Desktop (practice)") if self.ctx.practice else tr("Modu Desktop")
        s = self.session
        if s is None:
            self.setWindowTitle(app)
            self.setWindowModified(False)
            return
        suffix = ""
        if s.mode is not Mode.EDIT:
            suffix = tr(" (read-only)")
        elif s.lost:
            suffix = tr(" (lock lost)")
        self.setWindowTitle(f"{s.title or s.doc_id}[*]{suffix} — {app}")
        self.setWindowModified(self.editor_pane.is_modified())

    def refresh_times(self) -> None:
        """Every text that says how long ago something happened is told again with the time
        now (banners, the lock question, the list's badges, publishing)."""
        now = self.ctx.server_now()
        for banner in (self.notice, self.lock_banner, self.readonly_banner, self.viewer_banner):
            banner.refresh_text()
        if (dlg := open_lock_dialog(self)) is not None:
            dlg.refresh_times()
        self.doc_list.set_now(now)
        self.publishing.render()

    def update_actions(self) -> None:
        s = self.session
        self.act_save.setEnabled(bool(s and s.editable))
        self.act_explain_save.setEnabled(bool(s and not s.editable))
        sync_own_lock(self.doc_list, s)
        self.act_close.setEnabled(s is not None)
        self.act_save_new.setEnabled(bool(s and not self.ctx.viewer))
        self.act_replace.setEnabled(bool(s and s.editable))

    # ------------------------------------------------------------------ list
    async def refresh_list(self, *, asked: bool = False) -> bool:
        """Re-read the document list (one request when nothing changed); ``asked``: by the
        person, so the site's builds are read again too."""
        return await self.list_refresh.refresh(asked=asked)

    def open_selected(self) -> None:
        d = self.doc_list.selected_doc_id()
        if d:
            self.ops.run(self.open_document(d))

    # ------------------------------------------------------------------ the session's view
    async def ask_take_over(self, holder: LockHolder) -> TakeOver:
        self.set_lock_status(tr("“{doc}” is in use", doc=self.label(holder.doc_id)), "warning")
        self.learn_names([holder.holder])
        notify = None if self.ctx.viewer else self.nothing_lost.watch
        choice = await ask_take_over(self, holder, notify_free=notify)
        if choice is TakeOver.CANCEL:
            self.set_lock_status("")
        return choice

    def update_take_over(self, holder: LockHolder) -> None:
        if (dlg := open_lock_dialog(self)) is not None:
            dlg.update_info(holder)  # the buttons and the focus stay where they are

    def withdraw_take_over(self) -> None:
        if (dlg := open_lock_dialog(self)) is not None:
            dlg.reject()

    async def ask_conflict(self, conflict: Conflict) -> ConflictDecision:
        title = self.session.title if self.session is not None else conflict.doc_id
        await self.ctx.people.learn(self.ctx.client, [conflict.by])  # who saved, by name
        decision, new_id = await decide_conflict(self, title, conflict, self.create_new_document)
        if new_id is not None:
            self.show_notice(
                tr(
                    "Your text was saved as “{new}”. This window now shows the current “{doc}”.",
                    new=self.label(new_id),
                    doc=title,
                ),
                "info",
            )
        return decision

    def report(self, event: SessionEvent) -> None:
        self.learn_names([getattr(event, "by", None)])  # who took the lock, by name
        s = self.session
        ours = s is not None and getattr(event, "doc_id", None) == s.doc_id
        if isinstance(event, TheirsTaken) and ours:
            self.editor_pane.replace_all_text(event.text, modified=False)
            if self.drafts is not None:
                self.drafts.committed(event.text, event.sha)
        self.words.show(event)
        if ours and isinstance(event, Queued):
            self.following.queued_text = event.text
        elif ours and isinstance(event, Saved | TheirsTaken):
            self.following.queued_text = None
        landed = None
        if isinstance(event, Saved) and ours and s is not None:
            landed = Landed(event.doc_id, s.path, event.sha, event.text, event.commit_sha)
        saved = isinstance(event, Saved)
        self.changes.publish(Changes(doc_list=saved, open_doc=True, landed=landed))
        if isinstance(event, LockResumed) and ours:
            self.regaining.editing_again()
        self.update_title()
        self.following.sync_phase()

    # ------------------------------------------------------------------ open
    async def open_document(self, doc_id: str) -> bool:
        """Open a document: lock it (asking when someone else has it), load it, show it."""
        if self.busy_open or self.quitting.closing:
            return False
        commit_preedit()  # the open document's last syllable, before it is compared or kept
        # Any name of the document (docId, path, or the front-matter id = the site address);
        # a document that is not in the tree gets no lock written for it.
        try:
            found = await self.ctx.store.resolve(doc_id)
        except Exception as exc:
            self.report(OpenFailed(doc_id, "error", exc))
            return False
        if found is None:
            text = tr("There is no document “{doc}” in the repository.", doc=doc_id)
            self.show_notice(text, "error")
            return False
        doc_id = found.doc_id
        if self.session is not None and self.session.doc_id == doc_id:
            self.editor_pane.focus_editor()
            return True
        self.busy_open = True
        self.quitting.open_task = asyncio.current_task()  # type: ignore[assignment]
        try:
            if self.session is not None and not await self.close_document():
                return False
            self.notice.hide()
            if not self.ctx.viewer:
                self.set_lock_status(
                    tr("Checking whether someone is editing “{doc}”…", doc=self.label(doc_id))
                )
            row = self.doc_list.row(doc_id)
            opened = await EditSession.open(
                self.ctx.workspace,
                self,
                doc_id,
                title=row.title if row is not None else None,
                list_saw_no_lock=row is not None and row.lock is None,
                viewer=self.ctx.viewer,
                release_timeout_s=self.ctx.options.release_timeout_s,
            )
            if opened is None:
                return False
            self._show(*opened)
            return True
        finally:
            self.busy_open = False
            self.quitting.open_task = None

    async def open_with_lock(self, doc_id: str, held: HeldLock) -> bool:
        """Open a document whose lock we already hold (just created, or resumed)."""
        commit_preedit()
        if self.session is not None and not await self.close_document():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    self.ctx.locks.release(held), self.ctx.options.release_timeout_s
                )
            return False
        row = self.doc_list.row(doc_id)
        opened = await EditSession.adopt(
            self.ctx.workspace,
            self,
            doc_id,
            held,
            title=row.title if row is not None else None,
            release_timeout_s=self.ctx.options.release_timeout_s,
        )
        if opened is None:
            return False
        self._show(*opened)
        return True

    def _show(self, session: EditSession, opened: Opened) -> None:
        self.session = session
        loaded, mode = opened.loaded, opened.mode
        self.lock_banner.hide()
        self.editor_pane.open_page(loaded.text, read_only=mode is not Mode.EDIT)
        self.right.setCurrentIndex(1)
        self.doc_list.select(session.doc_id)
        self.doc_header.setText(f"<b>{_esc(session.title)}</b>")  # the title, not the file
        if mode is Mode.EDIT:
            self.drafts = drafts_for(self.ctx.workspace, session, self)  # journal edits
        self.words.opened(session.doc_id, opened)
        self.editor_pane.focus_editor()
        self.narrow.document_opened()
        self.update_title()
        self.changes.publish(Changes(open_doc=True))
        self.set_connection(True)
        self.following.sync_phase()
        if opened.took_over is not None:
            holder = opened.took_over
            title = session.title or self.label(session.doc_id)
            self.show_notice(
                lambda: took_over_text(holder, self.ctx.server_now(), title),
                "warning",
                "document",
            )

    async def forget_open_document(self) -> None:
        """The open document is gone (deleted with its lock): close it without releasing."""
        if self.session is None:
            return
        self.session.forget()
        self._draft_discard()
        self._show_no_document()

    def _show_no_document(self) -> None:
        """No document is open any more: empty read-only editor, the list page, no banners
        (a notice about that document goes with it)."""
        if self.session is not None:
            self.board.set_phase(self.session.doc_id, None)
        self.resolve_notice("document", "recovered")
        self.following.queued_text = None
        self.session = None
        self.lock_banner.hide()
        self.readonly_banner.hide()
        self.editor_pane.load_text("", read_only=True)
        self.right.setCurrentIndex(0)
        if self.narrow.tucked:  # no document: the list is the window's content again
            self.narrow.tucked = False
            self.editor_pane.set_list_shown(True, remember=False)
        self.set_lock_status("")
        self.update_title()
        self.changes.publish(Changes(open_doc=True))

    def show_lock_lost(self, text: str | Callable[[], str]) -> None:
        """The lock is gone: read-only now, banner with who/when, text untouched."""
        self.editor_pane.set_read_only(True)
        self.lock_banner.set_text(text)
        self.lock_banner.show()
        self.editor_pane.editor.ensureCursorVisible()

    # ------------------------------------------------------------------ drafts
    def note_edit(self) -> None:
        s = self.session
        if s is not None and s.note_typing():
            # The lock was let go after a long pause: take it back (or ask) as typing resumes.
            self.set_lock_status(tr("Taking the editing lock on “{doc}” back…", doc=s.title))
            self.ops.run(s.resume())
        if self.drafts is not None and self.session is not None and self.editor_pane.is_modified():
            self.drafts.note_edit(self.editor_pane.text())

    def _draft_discard(self) -> None:
        ctl, self.drafts = self.drafts, None
        if ctl is not None:
            ctl.discard()

    def _draft_flush(self) -> None:
        ctl, self.drafts = self.drafts, None
        if ctl is not None:
            ctl.flush()
            ctl.stop()

    async def recover_at_start(self) -> None:
        """Leftover locks and drafts of a crashed session come back; then the save queue starts
        (a resumed document learns the queued commit's sha instead of its draft's old base)."""
        try:
            await recover_at_start(self, self)
        finally:
            self.nothing_lost.start_queue()

    # ------------------------------------------------------------------ save
    async def save(self) -> bool:
        commit_preedit()  # Ctrl+S while a syllable is being composed saves it too
        s = self.session
        if s is None or not s.editable or s.saving or self._checking:
            return False
        self._checking = True
        self.editor_pane.set_checking(True)
        try:
            text = await self.publishing.check(s, self.editor_pane.text())
        finally:
            self._checking = False
            self.editor_pane.set_checking(False)
        if text is None or self.session is not s:
            return False
        self.set_lock_status(tr("Saving…"), "info")
        self.editor_pane.set_saving(True)
        try:
            result = await s.save(text)
        finally:
            self.editor_pane.set_saving(False)
        return isinstance(result, Saved | TheirsTaken)

    # ------------------------------------------------------------------ lost-lock actions
    def copy_text(self) -> None:
        """The words as the cards read them for pasting anywhere, the page's Markdown beside
        them for a program that takes it."""
        text = self.editor_pane.text()
        put_text(readable_text(text), text)
        self.show_notice(tr("Your text is on the clipboard."), "info")

    async def compare_with_current(self) -> None:
        s = self.session
        if s is None:
            return
        try:
            current = await self.ctx.store.load(s.doc_id)
        except Exception as exc:
            self.show_notice(error_text(exc), "error")
            return
        if await compare(self, s.title, self.editor_pane.text(), current.text):
            await self.save_as_new_document()

    async def save_as_new_document(self) -> str | None:
        s = self.session
        if s is None or self.ctx.viewer:
            return None
        new_id = await self.create_new_document(s.doc_id, self.editor_pane.text())
        if new_id:
            if s.lost or s.mode is not Mode.EDIT:
                self.editor_pane.set_modified(False)
            self.show_notice(saved_as_new_text(self.label(new_id)), "info")
            self.update_title()
        return new_id

    async def create_new_document(self, from_doc: str, text: str) -> str | None:
        """Save ``text`` as a new page, not published (``OpsHost.create_from_text``)."""
        return await self.ops_host.create_from_text(from_doc, text)

    # ------------------------------------------------------------------ close / quit
    async def _ask_unsaved(self, s: EditSession) -> bool:
        """The unsaved-changes question; False = stay (cancelled, or the save failed)."""
        key = await ask_unsaved(self, s.title or s.doc_id, editable=s.editable)
        if key == "save":
            return await self.save()
        if key == "saveNew":
            return await self.save_as_new_document() is not None
        return key == "discard"

    async def close_document(self, *, interactive: bool = True) -> bool:
        """Ask about unsaved changes (if interactive), stop the heartbeat, release the lock."""
        commit_preedit()  # closing: the last syllable is part of what is asked about or kept
        s = self.session
        if s is None:
            return True
        modified = self.editor_pane.is_modified()
        if interactive and modified and s.mode is Mode.EDIT and not await self._ask_unsaved(s):
            return False
        if modified and not interactive:
            self._draft_flush()  # quitting without questions: keep the text for next start
        else:
            self._draft_discard()
        if s.held is not None:
            self.set_lock_status(tr("Releasing the lock on “{doc}”…", doc=s.title or s.doc_id))
        await s.close()
        if self.session is s:
            self._show_no_document()
        return True

    async def shutdown(self, *, interactive: bool) -> bool:
        """Close the document (asking if interactive) and release every lock (bounded)."""
        return await self.quitting.shutdown(interactive=interactive)

    def request_quit(self, interactive: bool = True) -> None:
        """Quit menu, window close, SIGTERM/SIGINT, OS logout: same path."""
        self.quitting.request_quit(interactive)

    async def sign_out(self) -> None:
        await self.quitting.sign_out()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        if self.quitting.closed:
            event.accept()
            return
        event.ignore()
        self.request_quit(True)


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
