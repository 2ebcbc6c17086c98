"""Issue 5 glue for the app: the save queue, single instance and notify-when-free, attached to a
``MainWindow`` from outside so that ``app.py`` needs only three short calls:

* ``main()``, once the data directory is known and before any window::

      from modu_desktop.ui.nothing_lost import instance_gate
      gate_rc = instance_gate(paths.data_dir, args.open_doc)
      if gate_rc is not None:
          return gate_rc            # another instance took the request; exit 0

* ``_async_main()``, right after ``win = MainWindow(ctx)``: ``nl = attach(win)``;
* after the window finished, before ``await ctx.aclose()``: ``await nl.aclose()``.

What :func:`attach` does:

* **Save queue** - ``ctx.store`` becomes a :class:`QueueingStore`: a save that cannot reach
  GitHub (offline, timeout, 5xx, rate limit) is written to the on-disk spool instead of failing;
  while a save of that document waits, later saves join the queue (newest text wins). The lock
  check before a save is skipped when GitHub is unreachable (the queued write still carries its
  base sha, so it can never overwrite someone else's change). The status bar shows "waiting to
  save (N)" with "Retry now"; a failed item (conflict, or too many failures) opens the conflict
  screen with its text intact. When a queued save lands, the open editor is told (new base sha,
  draft removed).
* **Single instance** - requests from later instances (``--open DOC``) bring this window to the
  front and open the document here (no second lock session).
* **Notify when free** - the read-only banner gets "Notify me when it is free"; a system
  notification (or the in-app notice) says when the lock is released or goes stale.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer

from modu_desktop.core import documents
from modu_desktop.core.drafts import DraftKey, DraftStore
from modu_desktop.core.spool import Backoff, SpoolItem
from modu_desktop.i18n import fill
from modu_desktop.ui.asyncutil import spawn
from modu_desktop.ui.i18n import translate_or
from modu_desktop.ui.notify_free import REASON_STALE, FreeNotifier
from modu_desktop.ui.save_queue import (
    SaveQueue,
    SaveQueueStatus,
    is_queueable_error,
    resolve_failed,
)
from modu_desktop.ui.single_instance import (  # the gate lives there: it runs before first paint
    SingleInstance,
    bring_to_front,
    current_instance,
    instance_gate,
)

log = logging.getLogger(__name__)

QUEUE_START_FALLBACK_S = 30.0
DONE_KEEP_S = 7 * 86400.0


def _t(en: str, ko: str) -> str:
    return translate_or("NothingLost", en, ko)


# -- single instance ----------------------------------------------------------------------------


# -- practice mode: a stable address ----------------------------------------------------------

PRACTICE_PORT_FILE = "practice-port"


def practice_port(data_dir: str | Path) -> int:
    """The port the practice sandbox used last time (0 = any). Drafts, queued saves and lock
    records are keyed by the API address, so practice mode must keep it across restarts or a
    crash's work would never be recognised at the next start."""
    try:
        value = int((Path(data_dir) / PRACTICE_PORT_FILE).read_text("ascii").strip())
    except (OSError, ValueError):
        return 0
    return value if 1024 <= value <= 65535 else 0


def remember_practice_port(data_dir: str | Path, port: int) -> None:
    from modu_desktop.core.atomic import write_atomic

    with contextlib.suppress(OSError):
        write_atomic(Path(data_dir) / PRACTICE_PORT_FILE, f"{int(port)}\n".encode("ascii"))


# -- the save queue as a document store -----------------------------------------------------------


class QueuedForSave(Exception):
    """The save is in the on-disk queue (the window shows this as its "not saved" reason)."""

    def __init__(self, item: SpoolItem, cause: BaseException | None = None) -> None:
        super().__init__(f"queued as {item.id}")
        self.item = item
        self.cause = cause

    def user_message(self, lang: str = "ko") -> str:
        if lang == "ko":
            return (
                "GitHub에 연결되지 않음: 저장할 글을 이 컴퓨터에 보관해 두었습니다. "
                "연결되면 자동으로 저장됩니다(저장 대기 중)."
            )
        return (
            "Not connected to GitHub: the save is kept on this computer and will be sent "
            "by itself when the connection returns (waiting to save)."
        )


class QueueingStore:
    """Wraps a DocumentStore: ``save`` falls back to the queue; everything else is delegated."""

    def __init__(self, inner: Any, queue: SaveQueue, *, api_host: str, repo: str, branch: str):
        self._inner = inner
        self.queue = queue
        self.api_host = api_host.rstrip("/")
        self.repo = repo
        self.branch = branch

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    @property
    def inner(self) -> Any:
        return self._inner

    @staticmethod
    def path_of(doc: Any) -> str:
        path = getattr(doc, "path", None)
        if isinstance(path, str):
            return path
        text = str(doc)
        if text.startswith(documents.DOCS_DIR + "/") and text.endswith(".md"):
            return text
        return documents.path_for_doc_id(text)

    def _enqueue(
        self, path: str, text: str, base_sha: str | None, login: str, message: str | None
    ) -> SpoolItem:
        return self.queue.enqueue(
            api_host=self.api_host,
            repo=self.repo,
            branch=self.branch,
            path=path,
            doc_id=documents.doc_id_for_path(path) or path,
            text=text,
            base_sha=base_sha,
            message=message or documents.update_message(path, login),
            login=login,
        )

    def rebased(self, path: str, base_sha: str) -> str:
        """A base that one of our own queued saves replaced (the editor may not have heard that
        it landed) becomes that save's commit, like the spool's ``rebase_on_done``: the editor's
        text descends from the queued text, and our own commit must not come back as a conflict."""
        target = (self.api_host, self.repo, self.branch, path)
        try:
            done = [i for i in self.queue.spool.done_items() if i.target == target]
        except OSError:
            return base_sha
        for item in reversed(done):  # newest first
            chain = [item.base_sha, *item.accept_shas, item.blob_sha()]
            if item.result_sha and base_sha != item.result_sha and base_sha in chain:
                return item.result_sha
        return base_sha

    async def save(
        self, doc: Any, text: str, base_sha: str, login: str, message: str | None = None
    ) -> Any:
        path = self.path_of(doc)
        if self.queue.pending_for(self.api_host, self.repo, self.branch, path) is not None:
            # An earlier save of this document is still waiting: this one joins it (newest text
            # wins) instead of racing it.
            raise QueuedForSave(self._enqueue(path, text, base_sha, login, message))
        base_sha = self.rebased(path, base_sha)
        try:
            return await self._inner.save(doc, text, base_sha, login, message)
        except Exception as exc:
            if not is_queueable_error(exc):
                raise
            item = self._enqueue(path, text, base_sha, login, message)
            log.info("save of %s queued (%s)", path, exc)
            raise QueuedForSave(item, exc) from exc


# -- attaching to the window ---------------------------------------------------------------------


class NothingLost(QObject):
    """Owns the queue, its status widget, the notifier and the single-instance hookup."""

    def __init__(self, win: Any, instance: SingleInstance | None = None) -> None:
        super().__init__(win)
        self.win = win
        ctx = win.ctx
        self.ctx = ctx
        s = ctx.settings
        self.api_host = str(s.api_url).rstrip("/")
        self.repo = str(s.repo_full_name)
        self.branch = str(s.branch)
        self.instance = instance
        self.queue = SaveQueue.for_client(
            ctx.paths.spool_dir,
            ctx.client,
            parent=self,
            backoff=Backoff(base_s=3.0, cap_s=300.0),
        )
        with contextlib.suppress(OSError):  # committed saves are kept a week (see rebased())
            self.queue.spool.prune_done(DONE_KEEP_S)
        self.inner_store = ctx.store
        self.status = SaveQueueStatus()
        self.notifier = FreeNotifier(
            self.inner_store, ctx.locks, banner=self._notice_free, parent=self
        )
        self._closed = False
        if not ctx.viewer:
            ctx.store = QueueingStore(
                self.inner_store,
                self.queue,
                api_host=self.api_host,
                repo=self.repo,
                branch=self.branch,
            )
            if hasattr(ctx.locks, "queue_saves_offline"):
                ctx.locks.queue_saves_offline = True
            with contextlib.suppress(Exception):
                win.statusBar().addPermanentWidget(self.status)
            self.status.bind(self.queue)
            self.status.showFailedRequested.connect(lambda: spawn(self.show_failed()))
            self.queue.itemCommitted.connect(self._committed)
            restored = getattr(win, "connectionRestored", None)
            if restored is not None:  # the connection is back: send what waits now
                restored.connect(self._connection_restored)
            self.queue.itemFailed.connect(self._failed)
            self._start_queue_after_recovery()
        banner = getattr(win, "readonly_banner", None)
        if banner is not None and hasattr(banner, "add_button"):
            self.notify_button = banner.add_button(
                "notifyFreeButton",
                _t("Notify me when it is free", "편집 가능해지면 알려 주기"),
            )
            self.notify_button.clicked.connect(self.watch_open_document)
        lost = getattr(win, "lock_banner", None)  # after losing the lock, the same offer
        if lost is not None and hasattr(lost, "add_button") and not ctx.viewer:
            self.lost_notify_button = lost.add_button(
                "lostNotifyFreeButton",
                _t("Notify me when it is free", "편집 가능해지면 알려 주기"),
            )
            self.lost_notify_button.clicked.connect(self.watch_open_document)
        self.notifier.openRequested.connect(self._open_from_notification)
        if not ctx.viewer:
            from modu_desktop.ui import lock_dialog

            lock_dialog.notify_free_handler = self.watch

        if instance is not None and instance.listen():
            instance.openRequested.connect(self._open_requested)
            instance.activateRequested.connect(lambda: bring_to_front(self.win))

    # -- queue -------------------------------------------------------------------------------

    def _start_queue_after_recovery(self) -> None:
        """Saves left in the queue by a crashed session go out once the window has put that
        session's documents back (``recover_at_start``), so a document resumed with its draft
        learns the queued commit's sha instead of keeping the draft's old base. A timer starts
        the queue anyway if that step never comes (e.g. a window built without it)."""
        win = self.win
        recover = getattr(win, "recover_at_start", None)
        if recover is None or not callable(recover):
            self.queue.start()
            return

        async def recover_then_start() -> None:
            try:
                await recover()
            finally:
                if not self._closed:
                    self.queue.start()

        win.recover_at_start = recover_then_start  # instance attribute: this window only
        QTimer.singleShot(int(QUEUE_START_FALLBACK_S * 1000), self._fallback_start)

    def _fallback_start(self) -> None:
        if not self._closed and not self.queue.running:
            self.queue.start()

    def _committed(self, item: SpoolItem) -> None:
        win = self.win
        doc = getattr(win, "doc", None)
        sha = item.result_sha
        if sha is None:
            return
        if doc is not None and getattr(doc, "path", None) == item.path:
            doc.base_sha = sha
            with contextlib.suppress(Exception):
                win._draft_committed(doc, item.text, sha)
            with contextlib.suppress(Exception):
                if win.editor_pane.text() == item.text:
                    win.editor_pane.set_modified(False)
                win._update_title()
        else:
            with contextlib.suppress(OSError):
                DraftStore(self.ctx.paths.drafts_dir).discard(
                    DraftKey(self.api_host, self.repo, self.branch, item.doc_id),
                    only_if_text=item.text,
                )
        with contextlib.suppress(Exception):
            win.show_notice(
                fill(
                    _t(
                        "Saved “{doc}”: it was waiting for the connection.",
                        "연결을 기다리던 “{doc}”{doc:을} 저장했습니다.",
                    ),
                    doc=item.doc_id,
                ),
                "info",
            )

    def _connection_restored(self) -> None:
        if not self._closed and self.queue.pending_count():
            self.queue.retry_now()

    def _failed(self, item: SpoolItem) -> None:
        with contextlib.suppress(Exception):
            self.win.show_notice(
                fill(
                    _t(
                        "“{doc}” could not be saved ({why}). Your text is kept: "
                        "open “not saved” in the status bar.",
                        "“{doc}”{doc:을} 저장하지 못했습니다({why}). 글은 남아 있습니다. "
                        "상태 표시줄의 “저장 못 함”을 눌러 확인하세요.",
                    ),
                    doc=item.doc_id,
                    why=item.failure or item.last_error or "?",
                ),
                "error",
            )

    async def show_failed(self) -> None:
        for item in self.queue.failed_items():
            await resolve_failed(
                self.win,
                self.queue,
                item,
                self.inner_store,
                save_as_new=self.win._create_new_document,
            )

    # -- notify when free --------------------------------------------------------------------

    def watch_open_document(self) -> None:
        doc = getattr(self.win, "doc", None)
        if doc is not None:
            self.watch(doc.doc_id)

    def watch(self, doc_id: str) -> None:
        """Start watching ``doc_id`` (from the lock dialog or the read-only banner)."""
        if self._closed:
            return
        self.notifier.watch(doc_id)
        with contextlib.suppress(Exception):
            self.win.show_notice(
                _t(
                    "You will be told when “{doc}” is free.",
                    "“{doc}” 문서를 편집할 수 있게 되면 알려 드립니다.",
                ).format(doc=doc_id),
                "info",
            )

    def _notice_free(self, text: str) -> None:
        with contextlib.suppress(Exception):
            self.win.show_notice(text, "info")

    def _open_from_notification(self, doc_id: str) -> None:
        bring_to_front(self.win)
        spawn(self.win.open_document(doc_id))

    # -- single instance ---------------------------------------------------------------------

    def _open_requested(self, doc_id: str) -> None:
        bring_to_front(self.win)
        spawn(self._open_and_log(doc_id))

    async def _open_and_log(self, doc_id: str) -> None:
        doc = getattr(self.win, "doc", None)
        already = doc is not None and doc.doc_id == doc_id
        ok = await self.win.open_document(doc_id)
        if self.instance is not None:
            state = "focused (already open)" if already else ("opened" if ok else "not opened")
            self.instance.write_log(f"front {doc_id}: {state}")

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.instance is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self.instance.openRequested.disconnect(self._open_requested)
            with contextlib.suppress(RuntimeError, TypeError):
                self.instance.activateRequested.disconnect()
        from modu_desktop.ui import lock_dialog

        if lock_dialog.notify_free_handler == self.watch:
            lock_dialog.notify_free_handler = None
        await self.queue.stop()
        await self.notifier.stop()
        # The instance lock stays held until the process exits (sign-out opens a new window).


def attach(win: Any) -> NothingLost:
    """Attach the save queue, notify-when-free and single-instance handling to ``win``."""
    return NothingLost(win, current_instance())


__all__ = [
    "NothingLost",
    "QueuedForSave",
    "QueueingStore",
    "REASON_STALE",
    "attach",
    "current_instance",
    "instance_gate",
    "practice_port",
    "remember_practice_port",
]
