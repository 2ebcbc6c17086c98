"""Screenshots of the app's screens, scene by scene, against a throw-away sandbox (offscreen).

    uv run python scripts/screenshots.py --list
    uv run python scripts/screenshots.py [--scene NAME ...] [--width 800,1600] [--lang ko,en]
                                         [--height H] [--out DIR]

Each scene draws one picture, ``DIR/{lang}-{width}-{scene}.png``, for every language and width
asked (default: every scene, 800 and 1600 px wide, Korean and English). The window is as tall
as ``height_for(width)``, or ``--height``. ``--list`` prints the scenes and what each shows.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LANGS = ("ko", "en")
DOC_LOCKED = "03-strategy"  # editor2 holds it in the lock scenes
DOC_STOLEN = "02-programs"
DOC_CONFLICT = "05-sandbox-notes"
DOC_TEMPLATE = "99-template"


def height_for(width: int) -> int:
    """600 px at 800 wide (the smallest screen the app is made for: 800×600), 960 at 1600
    (3:5 above 1000)."""
    return 600 if width <= 800 else max(600, width * 3 // 5)


async def wait_for(pred: Callable[[], Any], timeout: float = 15.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = pred()
        if v:
            return v
        await asyncio.sleep(0.05)
    raise TimeoutError("condition not reached")


def visible(object_name: str) -> Any:
    from PySide6.QtWidgets import QApplication

    for w in QApplication.topLevelWidgets():
        if w.objectName() == object_name and w.isVisible():
            return w
    return None


@dataclass(frozen=True)
class Shot:
    """One picture: a scene in one language at one width."""

    scene: str
    lang: str
    width: int
    out: Path
    tall: int | None = None  # --height: the window's height instead of height_for(width)

    @property
    def height(self) -> int:
        return self.tall or height_for(self.width)

    @property
    def path(self) -> Path:
        return self.out / f"{self.lang}-{self.width}-{self.scene}.png"

    def save(self, widget: Any) -> None:
        widget.repaint()
        if not widget.grab().save(str(self.path), "PNG"):
            raise RuntimeError(f"could not write {self.path}")
        print("wrote", self.path, flush=True)

    def save_over(self, window: Any, dialog: Any) -> None:
        """The window dimmed, the dialog drawn on top (offscreen has no compositor)."""
        from PySide6.QtCore import QPoint
        from PySide6.QtGui import QColor, QPainter

        base = window.grab()
        dlg = dialog.grab()
        painter = QPainter(base)
        painter.fillRect(base.rect(), QColor(0, 0, 0, 90))
        x = max(0, (base.width() - dlg.width()) // 2)
        y = max(0, (base.height() - dlg.height()) // 3)
        painter.fillRect(x - 1, y - 1, dlg.width() + 2, dlg.height() + 2, QColor("#555"))
        painter.drawPixmap(QPoint(x, y), dlg)
        painter.end()
        if not base.save(str(self.path), "PNG"):
            raise RuntimeError(f"could not write {self.path}")
        print("wrote", self.path, flush=True)


class Studio:
    """The sandbox, and the windows, clients and peers the scenes open on it."""

    def __init__(self, sandbox: Any, tmp: Path) -> None:
        self.sandbox = sandbox
        self.tmp = tmp
        self.windows: list[Any] = []
        self.clients: list[Any] = []
        self._n = 0

    def fresh_dir(self, name: str) -> Path:
        self._n += 1
        return self.tmp / f"{name}-{self._n}"

    def client(self, token: str) -> Any:
        from modu_desktop.core.github.client import GitHubClient, RepoRef

        c = GitHubClient(self.sandbox.api_url, token, RepoRef("pnuai", "PNU-Modu", "main"))
        self.clients.append(c)
        return c

    def peer(self, login: str, token: str) -> Any:
        """Another editor's lock manager (the web admin or a second app)."""
        from modu_desktop.core.locks.manager import LockManager

        c = self.client(token)
        return LockManager(c, login, f"shots-{login}", c.clock, heartbeat_s=1)

    async def window(self, shot: Shot, login: str, token: str, **opts: Any) -> Any:
        from PySide6.QtCore import Qt

        from modu_desktop.core.account.auth import check_token
        from modu_desktop.core.account.paths import app_paths
        from modu_desktop.core.account.settings import Settings
        from modu_desktop.ui.kit.context import AppContext, AppOptions
        from modu_desktop.ui.shell.main_window import MainWindow

        client = self.client(token)
        res = await check_token(client)
        ctx = AppContext(
            settings=Settings(api_url=self.sandbox.api_url),
            paths=app_paths(self.fresh_dir(f"{shot.lang}-{login}")).ensure(),
            options=AppOptions(lang=shot.lang, **opts),
            client=client,
            login=res.login or login,
            can_push=res.can_push,
        ).build()
        win = MainWindow(ctx)
        # the first window is maximised on a screen smaller than it (Qt's offscreen screen is
        # 800×800): the shot's own size instead
        win.setWindowState(Qt.WindowState.WindowNoState)
        win.resize(shot.width, shot.height)
        win.show()
        self.windows.append(win)
        await win.refresh_list()
        return win

    async def close_all(self) -> None:
        for w in self.windows:
            await w.shutdown(interactive=False)
            w.quitting.closed = True
            w.close()
            w.deleteLater()
        self.windows.clear()

    async def aclose(self) -> None:
        await self.close_all()
        for c in self.clients:
            await c.aclose()
        self.clients.clear()


SceneFn = Callable[[Studio, Shot], Awaitable[None]]


@dataclass(frozen=True)
class Scene:
    name: str
    about: str
    draw: SceneFn


SCENES: dict[str, Scene] = {}


def scene(name: str, about: str) -> Callable[[SceneFn], SceneFn]:
    def register(fn: SceneFn) -> SceneFn:
        SCENES[name] = Scene(name, about, fn)
        return fn

    return register


# -- signing in --------------------------------------------------------------------------------


def _signin_widget(shot: Shot, **kw: Any) -> Any:
    from modu_desktop.core.account.auth import TokenStore
    from modu_desktop.core.account.settings import Settings
    from modu_desktop.ui.kit.context import make_client
    from modu_desktop.ui.signin.signin import SignInWidget

    s = SignInWidget(Settings(), TokenStore("api.github.com", use_env=False), make_client, **kw)
    s.resize(shot.width, shot.height)
    s.show()
    return s


@scene("signin", "sign-in with a pasted token (no keyring here: kept for this session)")
async def signin(st: Studio, shot: Shot) -> None:
    s = _signin_widget(shot)
    try:
        await asyncio.sleep(0.1)
        shot.save(s)
    finally:
        s.close()
        s.deleteLater()


@scene("signin-browser", "sign-in through the browser (a client id shipped by IT)")
async def signin_browser(st: Studio, shot: Shot) -> None:
    it_file = st.fresh_dir("it") / "modu-desktop.json"  # what IT ships beside the installer
    it_file.parent.mkdir(parents=True)
    it_file.write_text('{"oauth_client_id": "Ov23liEXAMPLE"}', encoding="utf-8")
    s = _signin_widget(shot, deployment_paths=[it_file])
    try:
        await asyncio.sleep(0.1)
        shot.save(s)
    finally:
        s.close()
        s.deleteLater()


# -- the list and the editor -------------------------------------------------------------------


@scene("list", "the document list in practice mode, one document locked by someone else")
async def doc_list(st: Studio, shot: Shot) -> None:
    other = st.peer("editor2", "tok-editor2")
    held = (await other.acquire(DOC_LOCKED)).held
    try:
        win = await st.window(shot, "editor1", "tok-editor1", practice=True)
        await asyncio.sleep(0.2)
        shot.save(win)
    finally:
        if held is not None:
            await other.release(held)


@scene("editor", "the handbook (99-template) open, with its preview")
async def editor(st: Studio, shot: Shot) -> None:
    win = await st.window(shot, "editor1", "tok-editor1", practice=True)
    await win.open_document(DOC_TEMPLATE)
    await asyncio.sleep(0.5)
    shot.save(win)


async def _template_on_cards(st: Studio, shot: Shot) -> Any:
    """The handbook open, the cursor inside its cards block, the block form on its first item."""
    from modu_desktop.core.brochure import block_model as blockmodel

    win = await st.window(shot, "editor1", "tok-editor1", practice=True, deploy_poll_s=0.5)
    await win.open_document(DOC_TEMPLATE)
    await asyncio.sleep(0.3)
    pane = win.editor_pane
    pane.set_raw_view(True)  # 원문 편집: the Markdown editor and its block form
    if shot.width < 1000:
        pane.set_list_shown(False)
    await asyncio.sleep(0.3)
    cards = next(sp for sp in blockmodel.block_spans(pane.text()) if sp.name == "cards")
    cur = pane.editor.textCursor()
    cur.setPosition(pane.editor.document().findBlockByNumber(cards.start + 6).position())
    pane.editor.setTextCursor(cur)
    pane.editor.centerCursor()
    pane._sync_block_form()
    pane.block_form.tables["items"].table.setCurrentCell(0, 0)
    await asyncio.sleep(0.4)
    return win


@scene(
    "page-editor",
    "the page editor (default view): a page as cards — blocks with their forms, a text box",
)
async def page_editor(st: Studio, shot: Shot) -> None:
    from PySide6.QtGui import QTextCursor
    from PySide6.QtWidgets import QWidget

    from modu_desktop.ui.editing.cards.text_card import TextCard

    win = await st.window(shot, "editor1", "tok-editor1", practice=True)
    await win.open_document("01-welcome")
    pane = win.editor_pane
    if shot.width < 1000:
        pane.set_list_shown(False)
    pane.set_view("editor")
    page = pane.page_editor
    page.build_all()
    await asyncio.sleep(0.4)
    text = next(c for c in page.cards if isinstance(c, TextCard))
    # the keyboard in the text box, on its list, a word made bold with Ctrl+B
    ed = text.editor
    ed.setFocus()
    cur = ed.textCursor()
    cur.movePosition(QTextCursor.MoveOperation.End)
    cur.movePosition(QTextCursor.MoveOperation.StartOfBlock)
    cur.movePosition(QTextCursor.MoveOperation.EndOfWord, QTextCursor.MoveMode.KeepAnchor)
    ed.setTextCursor(cur)
    text.toggle_mark("bold")
    # from a block of items (the figures, or the cards when narrow) to the quote below the text
    if shot.width >= 1200:  # the figures' items, the cards block, the text box, the quote
        kpi = page.cards[1]
        items = kpi.findChild(QWidget, "blockItems_items")
        top = kpi.y() + items.mapTo(kpi, items.rect().topLeft()).y() - 30
    else:  # the cards block's last items, the text box, the quote's name
        top = text.y() + text.height() + 100 - page.viewport().height()
    page.verticalScrollBar().setValue(top)
    await asyncio.sleep(0.6)
    shot.save(win)


@scene("page-editor-top", "the page editor at the top of a page: the banner and the figures")
async def page_editor_top(st: Studio, shot: Shot) -> None:
    win = await st.window(shot, "editor1", "tok-editor1", practice=True)
    await win.open_document("01-welcome")
    pane = win.editor_pane
    if shot.width < 1000:
        pane.set_list_shown(False)
    pane.set_view("editor")
    await asyncio.sleep(0.6)
    shot.save(win)


@scene("block-form", "the block form beside the text: a cards block, its first item chosen")
async def block_form(st: Studio, shot: Shot) -> None:
    win = await _template_on_cards(st, shot)
    shot.save(win)


@scene("block-picker", "Insert block: the picker with its pictures, timeline chosen")
async def block_picker(st: Studio, shot: Shot) -> None:
    win = await _template_on_cards(st, shot)
    pane = win.editor_pane
    pane.open_block_picker()
    picker = await wait_for(lambda: pane.picker)
    picker.resize(min(640, shot.width - 40), min(680, shot.height - 60))
    picker.select("timeline")
    await asyncio.sleep(0.2)
    shot.save_over(win, picker)
    picker.reject()


@scene("after-save", "after a save: the site built and published (the deploy status)")
async def after_save(st: Studio, shot: Shot) -> None:
    from PySide6.QtGui import QTextCursor

    from modu_desktop.core.publish.status import Publishing

    win = await _template_on_cards(st, shot)
    pane = win.editor_pane
    pane.editor.moveCursor(QTextCursor.MoveOperation.End)
    pane.editor.insertPlainText("\n새로 덧붙인 문단입니다.\n")
    await win.save()
    await wait_for(lambda: pane.publish.publishing is Publishing.PUBLISHED, timeout=30)
    await asyncio.sleep(0.3)
    shot.save(win)


# -- locks ---------------------------------------------------------------------------------------


async def _open_locked(st: Studio, shot: Shot, then: Callable[[Any, Any], Awaitable[None]]) -> None:
    """Open a document editor2 holds; ``then(window, lock_dialog)``; cancel and let go."""
    other = st.peer("editor2", "tok-editor2")
    held = (await other.acquire(DOC_LOCKED)).held
    try:
        win = await st.window(shot, "editor1", "tok-editor1")
        task = asyncio.ensure_future(win.open_document(DOC_LOCKED))
        dlg = await wait_for(lambda: visible("lockDialog"))
        await asyncio.sleep(0.1)
        await then(win, dlg)
        dlg = await wait_for(lambda: visible("lockDialog"))
        dlg.cancel_button.click()
        await task
    finally:
        if held is not None:
            await other.release(held)


@scene("lock-dialog", "opening a document someone else is editing: the lock question")
async def lock_dialog(st: Studio, shot: Shot) -> None:
    async def shoot(win: Any, dlg: Any) -> None:
        shot.save_over(win, dlg)

    await _open_locked(st, shot, shoot)


@scene("steal-confirm", "Take over the lock: the confirmation")
async def steal_confirm(st: Studio, shot: Shot) -> None:
    async def shoot(win: Any, dlg: Any) -> None:
        dlg.steal_button.click()
        confirm = await wait_for(lambda: visible("stealConfirmDialog"))
        await asyncio.sleep(0.1)
        shot.save_over(win, confirm)
        confirm.reject()

    await _open_locked(st, shot, shoot)


async def _stolen(st: Studio, shot: Shot, then: Callable[[Any], Awaitable[None]]) -> None:
    """A window with unsaved text loses its lock to editor2; ``then(window)``."""
    from PySide6.QtGui import QTextCursor

    victim = await st.window(shot, "editor1", "tok-editor1", heartbeat_s=0.5)
    await victim.open_document(DOC_STOLEN)
    ed = victim.editor_pane.editor
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText("\n\n저장하지 않은 새 문단\n")
    thief = st.peer("editor2", "tok-editor2")
    stolen = await thief.steal(await thief.inspect(DOC_STOLEN))
    try:
        await wait_for(victim.lock_banner.isVisible)
        await asyncio.sleep(0.3)
        await then(victim)
    finally:
        await st.close_all()
        if stolen.held is not None:
            await thief.release(stolen.held)


@scene("stolen-banner", "the lock taken over while editing: the banner, the text kept")
async def stolen_banner(st: Studio, shot: Shot) -> None:
    async def shoot(win: Any) -> None:
        shot.save(win)

    await _stolen(st, shot, shoot)


@scene("stolen-ctrl-s", "Ctrl+S after the lock was taken over: why it cannot save")
async def stolen_ctrl_s(st: Studio, shot: Shot) -> None:
    async def shoot(win: Any) -> None:
        win.explain_cannot_save()
        await asyncio.sleep(0.1)
        shot.save(win)

    await _stolen(st, shot, shoot)


# -- conflicts, recovery, outages ----------------------------------------------------------------


@scene("conflict", "a save after someone else's: the two texts side by side")
async def conflict(st: Studio, shot: Shot) -> None:
    from PySide6.QtGui import QTextCursor

    from modu_desktop.core.documents.store import DocumentStore

    win = await st.window(shot, "editor1", "tok-editor1")
    await win.open_document(DOC_CONFLICT)
    win.editor_pane.editor.moveCursor(QTextCursor.MoveOperation.End)
    win.editor_pane.editor.insertPlainText("\n내가 고친 문장입니다.\n")
    store = DocumentStore(st.client("tok-editor2"), st.fresh_dir("peer-cache"))
    loaded = await store.load(DOC_CONFLICT)
    await store.save(
        DOC_CONFLICT, loaded.text + "\n다른 사람이 고친 문장입니다.\n", loaded.sha, "editor2"
    )
    task = asyncio.ensure_future(win.save())
    dlg = await wait_for(lambda: visible("conflictDialog"))
    dlg.resize(min(shot.width, 1100), min(640, shot.height - 80))
    await asyncio.sleep(0.2)
    shot.save(dlg)
    dlg.cancel_button.click()
    await task


@scene("history", "기록: the versions (who and when) and one beside the text now, two columns")
async def history(st: Studio, shot: Shot) -> None:
    from PySide6.QtGui import QTextCursor

    from modu_desktop.core.documents.store import DocumentStore

    store = DocumentStore(st.client("tok-editor2"), st.fresh_dir("peer-cache"))
    loaded = await store.load(DOC_CONFLICT)
    if "모집 인원은 30명입니다." not in loaded.text:  # once, whatever the width
        changed = loaded.text.replace("\n\n", "\n\n모집 인원은 30명입니다.\n\n", 1)
        await store.save(DOC_CONFLICT, changed, loaded.sha, "editor2")
    win = await st.window(shot, "editor1", "tok-editor1")
    await win.open_document(DOC_CONFLICT)
    ed = win.editor_pane.editor
    ed.moveCursor(QTextCursor.MoveOperation.End)
    ed.insertPlainText("\n내가 새로 덧붙인 문장입니다.\n")
    await win.publishing.open_history()
    panel = win.publishing.history_panel
    await wait_for(lambda: panel.rows)
    await asyncio.sleep(0.3)
    shot.save(win)


@scene("unpublished", "a new page not published yet: 게시 안 됨 in the list and 게시하기 above it")
async def unpublished(st: Studio, shot: Shot) -> None:
    from modu_desktop.core.docops.newdoc import NewDocRequest

    win = await st.window(shot, "editor1", "tok-editor1", practice=True)
    doc = "06-summer-camp"
    if win.doc_list.row(doc) is None:  # once, whatever the width and language
        made = await win.ops_host.ops.create(
            NewDocRequest("summer-camp", "여름 캠프 안내", 6, template=True), keep_lock=False
        )
        assert made.ok, made.message
        await win.refresh_list()
    await win.open_document(doc)
    await wait_for(win.unpublished.banner.isVisible)
    await asyncio.sleep(0.5)
    shot.save(win)


# -- pictures -------------------------------------------------------------------------------------

# Pictures the practice site gets for the library scenes: photos (JPEG) and charts (PNG), named
# the way staff name them.
LIBRARY_PICTURES = (
    ("campus/정문.jpg", 1600, 1200),
    ("campus/도서관-야경.jpg", 2048, 1536),
    ("events/2025-입학식.jpg", 3000, 2250),
    ("events/졸업식-단체-사진.jpg", 1280, 960),
    ("labs/ai-실습실.jpg", 1024, 768),
    ("charts/모집-현황.png", 800, 533),
    ("charts/취업률.png", 640, 426),
    ("uploads/세미나.jpg", 1600, 1200),
    ("uploads/운영위원회.png", 400, 266),
)


async def _library_site(st: Studio) -> None:
    """The practice site with more pictures (once, whatever the width and language)."""
    import random

    from bench.pictures import drawing, encode, photo

    first = f"static/img/{LIBRARY_PICTURES[0][0]}"
    if st.sandbox.read_file(first) is not None:
        return
    rng = random.Random(5)
    client = st.client("tok-editor1")
    for name, w, h in LIBRARY_PICTURES:
        if name.endswith(".png"):
            data = encode(drawing(rng, w, h), "PNG")
        else:
            data = encode(photo(rng, w, h), "JPEG", 85)
        await client.put_file(f"static/img/{name}", data, f"upload(image): add {name}")


async def _open_library(st: Studio, shot: Shot, win: Any, name: str) -> Any:
    dlg = await wait_for(lambda: visible(name))
    await wait_for(lambda: dlg.loaded and dlg.loader.pending() == 0, timeout=60)
    row = dlg.model.row_of("static/img/sample-photo.png")
    dlg.view.setCurrentIndex(dlg.model.index(row, 0))
    await asyncio.sleep(0.3)
    return dlg


@scene("picture-library", "그림 모음: every picture, its size, the pages using it, descriptions")
async def picture_library(st: Studio, shot: Shot) -> None:
    await _library_site(st)
    win = await st.window(shot, "editor1", "tok-editor1", practice=True)
    win.ops_host.library.open()
    dlg = await _open_library(st, shot, win, "pictureLibrary")
    shot.save_over(win, dlg)
    dlg.reject()


@scene("picture-library-pick", "그림 넣기 → 사이트에 있는 그림에서 고르기: the library for picking")
async def picture_library_pick(st: Studio, shot: Shot) -> None:
    await _library_site(st)
    win = await st.window(shot, "editor1", "tok-editor1", practice=True)
    await win.open_document("01-welcome")
    task = asyncio.ensure_future(win.ops_host.insert_picture())
    picker = await wait_for(lambda: visible("opsImageDialog"))
    picker.existing_button.click()
    dlg = await _open_library(st, shot, win, "pictureLibraryPicker")
    shot.save_over(win, dlg)
    dlg.reject()
    picker = await wait_for(lambda: visible("opsImageDialog"))
    picker.reject()
    await task


@scene("recovery", "texts kept from a run that ended badly: the recovery dialog")
async def recovery(st: Studio, shot: Shot) -> None:
    from modu_desktop.core.saving.drafts import Draft, DraftKey, DraftStore
    from modu_desktop.ui.recovery.recovery_dialog import RecoveryDialog, assess

    win = await st.window(shot, "editor1", "tok-editor1")
    repo = "pnuai/PNU-Modu"
    base = await win.ctx.store.load("01-welcome")
    kept = Draft(
        DraftKey(st.sandbox.api_url, repo, "main", "01-welcome"),
        base.text + "\n복구할 문단입니다.\n",
        base.sha,
        "docs/01-welcome.md",
        1.0,
        "dead",
        title="모두 연습 브로슈어에 오신 것을 환영합니다",
    )
    changed = Draft(
        DraftKey(st.sandbox.api_url, repo, "main", "04-admission"),
        "바뀐 글",
        "0" * 40,
        "docs/04-admission.md",
        2.0,
        "dead",
        title="모집 안내와 현황",
    )
    items = await assess([kept, changed], win.ctx.store)
    rd = RecoveryDialog(items, DraftStore(st.fresh_dir("drafts")), win, can_write=True)
    rd.resize(min(shot.width, 980), 560)
    rd.show()
    try:
        await asyncio.sleep(0.2)
        shot.save(rd)
    finally:
        rd.reject()
        rd.deleteLater()


async def _outage(st: Studio, shot: Shot, then: Callable[[Any], Awaitable[None]]) -> None:
    """The connection drops (every request reset) after an edit and a save; ``then(window)``."""
    from PySide6.QtGui import QTextCursor

    win = await st.window(shot, "editor1", "tok-editor1", heartbeat_s=0.5)
    win.nothing_lost.start_queue()  # the window's own save queue
    await win.open_document(DOC_STOLEN)
    win.editor_pane.editor.moveCursor(QTextCursor.MoveOperation.End)
    win.editor_pane.editor.insertPlainText("\n연결이 끊긴 동안 쓴 문장\n")
    st.sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
    try:
        await asyncio.sleep(1.5)
        await win.save()
        await win.refresh_list()
        await asyncio.sleep(1.0)
        await then(win)
    finally:
        st.sandbox.faults.update(failure_rate=0.0)


@scene("outage", "no connection: the save waits in the queue, the list says so")
async def outage(st: Studio, shot: Shot) -> None:
    async def shoot(win: Any) -> None:
        shot.save(win)

    await _outage(st, shot, shoot)


@scene("after-outage", "the connection back: the queued save sent, the list fresh")
async def after_outage(st: Studio, shot: Shot) -> None:
    async def shoot(win: Any) -> None:
        st.sandbox.faults.update(failure_rate=0.0)
        await asyncio.sleep(0.5)
        await win.refresh_list()
        await asyncio.sleep(4)
        shot.save(win)

    await _outage(st, shot, shoot)


# -- publishing ----------------------------------------------------------------------------------


DOC_BYSTANDER = "05-sandbox-notes"
BREAKING = "행사 안내<br>자세한 내용은 아래를 보세요."


def _append(win: Any, text: str) -> None:
    from PySide6.QtGui import QTextCursor

    win.editor_pane.editor.moveCursor(QTextCursor.MoveOperation.End)
    win.editor_pane.editor.insertPlainText(text)


async def _failed_publish(st: Studio, shot: Shot, shoot_kim: bool) -> None:
    """kim saves a page that breaks the build (past the check's warning), lee then saves a
    correct page; both builds fail because of kim's page. One of the two windows is shot; kim
    then fixes her page, so the practice site builds again for the next scenes."""
    from PySide6.QtWidgets import QPushButton

    wf = st.sandbox.workflow
    timing = wf.queue_seconds, wf.run_seconds
    wf.queue_seconds, wf.run_seconds = 0.0, 0.3
    try:
        kim = await st.window(shot, "kim", "tok-kim", deploy_poll_s=0.2)
        lee = await st.window(shot, "lee", "tok-lee", deploy_poll_s=0.2)
        await kim.open_document(DOC_LOCKED)
        _append(kim, f"\n\n{BREAKING}\n")
        saving = asyncio.ensure_future(kim.save())
        check = await wait_for(lambda: visible("publishCheckDialog"))
        for name in ("saveAnywayButton", "confirmSaveAnywayButton"):
            check.findChild(QPushButton, name).click()
            await asyncio.sleep(0.1)
        await saving
        await lee.open_document(DOC_BYSTANDER)
        _append(lee, "\n다음 주 회의는 화요일 오후 3시입니다.\n")
        await lee.save()
        await wait_for(lambda: kim.deploy_notice.isVisible(), timeout=30)
        await wait_for(lambda: lee.deploy_notice.isVisible(), timeout=30)
        win = kim if shoot_kim else lee
        (lee if shoot_kim else kim).hide()
        win.raise_()
        await asyncio.sleep(0.4)
        shot.save(win)
        fixed = kim.editor_pane.text().replace(BREAKING, BREAKING.replace("<br>", "<br />"))
        kim.editor_pane.replace_all_text(fixed, modified=True)
        await kim.save()
        await wait_for(lambda: not kim.deploy_notice.isVisible(), timeout=30)
    finally:
        wf.queue_seconds, wf.run_seconds = timing


@scene(
    "publish-check", "the check before a save, on the cards: each place told by its card and words"
)
async def publish_check(st: Studio, shot: Shot) -> None:
    win = await st.window(shot, "editor1", "tok-editor1")
    await win.open_document(DOC_BYSTANDER)
    _append(
        win,
        "\n\n## 행사 안내\n\n자세한 내용은 {담당자}에게 문의하세요.\n\n"
        ":::cards\ntitle: 오시는 길\n\n- title: 본관\n  desc: 1층 안내 데스크<br>왼쪽\n:::\n",
    )
    saving = asyncio.ensure_future(win.save())
    check = await wait_for(lambda: visible("publishCheckDialog"))
    await asyncio.sleep(0.2)
    shot.save_over(win, check)
    check.reject()
    await saving


@scene("publish-failed-mine", "a build failed because of my page: which line, fix or restore")
async def publish_failed_mine(st: Studio, shot: Shot) -> None:
    await _failed_publish(st, shot, shoot_kim=True)


@scene("publish-failed-other", "a build failed because of someone else's page: my text is saved")
async def publish_failed_other(st: Studio, shot: Shot) -> None:
    await _failed_publish(st, shot, shoot_kim=False)


# -- help, text size, the narrow list --------------------------------------------------------------


def _save_with_popup(shot: Shot, window: Any, popup: Any) -> None:
    """The window with an open menu drawn where it opened (offscreen has no compositor)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QPainter

    base = window.grab()
    painter = QPainter(base)
    at = window.mapFromGlobal(popup.mapToGlobal(QPoint(0, 0)))
    painter.drawPixmap(at, popup.grab())
    painter.end()
    if not base.save(str(shot.path), "PNG"):
        raise RuntimeError(f"could not write {shot.path}")
    print("wrote", shot.path, flush=True)


@scene("help-menu", "the Help menu open: guide, shortcuts, report a problem, new version, about")
async def help_menu(st: Studio, shot: Shot) -> None:
    win = await st.window(shot, "editor1", "tok-editor1", practice=True)
    await win.open_document(DOC_TEMPLATE)
    await asyncio.sleep(1.0)  # the preview's fonts
    menu = win.help_menu.menu
    bar = win.menuBar()
    geo = bar.actionGeometry(menu.menuAction())
    menu.popup(bar.mapToGlobal(geo.bottomLeft()))
    await asyncio.sleep(0.2)
    _save_with_popup(shot, win, menu)
    menu.hide()


@scene("report", "Report a problem: the report file made, its folder opened, what to do with it")
async def report(st: Studio, shot: Shot) -> None:
    from modu_desktop.ui.help import report as report_ui

    opened: list[Any] = []
    report_ui.open_folder = opened.append  # type: ignore[assignment]  # no file manager here
    win = await st.window(shot, "editor1", "tok-editor1", practice=True)
    await win.open_document(DOC_TEMPLATE)
    task = win.help_menu.report_problem()
    await task
    box = await wait_for(lambda: visible("reportDoneDialog"), timeout=120)
    await asyncio.sleep(0.2)
    shot.save_over(win, box)
    box.reject()


@scene(
    "bigger-text", "View → Bigger text twice (Ctrl+= twice): the interface and the editor at 125%"
)
async def bigger_text(st: Studio, shot: Shot) -> None:
    win = await st.window(shot, "editor1", "tok-editor1", practice=True)
    await win.open_document(DOC_TEMPLATE)
    try:
        win.act_zoom_in.trigger()
        win.act_zoom_in.trigger()
        await asyncio.sleep(0.6)
        shot.save(win)
    finally:
        win.text_zoom.reset()


async def _twin_title(st: Studio) -> None:
    """A second page with the welcome page's title, in a folder: the list must tell them apart."""
    from modu_desktop.core.documents.store import DocumentStore

    store = DocumentStore(st.client("tok-editor2"), st.fresh_dir("twin-cache"))
    if st.sandbox.read_file("docs/archive/01-welcome.md") is not None:
        return
    first = await store.load("01-welcome")
    text = first.text.replace("sidebar_position: 1", "sidebar_position: 7")
    await store.client.put_file("docs/archive/01-welcome.md", text.encode(), "docs: archive copy")


@scene(
    "list-narrow",
    "the document list beside an open page (☰ at 800 px): titles in full, twins told apart",
)
async def list_narrow(st: Studio, shot: Shot) -> None:
    await _twin_title(st)
    other = st.peer("editor2", "tok-editor2")
    held = (await other.acquire(DOC_LOCKED)).held
    try:
        win = await st.window(shot, "editor1", "tok-editor1", practice=True)
        await win.open_document("02-programs")
        await asyncio.sleep(0.3)
        if not win.doc_list.isVisible():  # tucked away at 800 px: what ☰ brings back
            win.editor_pane.toggle_list_button.click()
        win.doc_list.select("02-programs")
        await asyncio.sleep(0.5)
        shot.save(win)
    finally:
        if held is not None:
            await other.release(held)


@scene(
    "search",
    "the list's search of every page (Ctrl+Shift+F): places grouped by page, the words marked",
)
async def search_pages(st: Studio, shot: Shot) -> None:
    win = await st.window(shot, "editor1", "tok-editor1", practice=True)
    mode = win.search.mode
    await wait_for(lambda: mode.ready and not mode.reading)
    win.search.start()
    win.search.panel.query_edit.setText("과정")  # the practice brochure is Korean
    win.search.panel.search_now()
    await wait_for(lambda: mode.results is not None)
    await asyncio.sleep(0.3)
    shot.save(win)


@scene(
    "search-opened",
    "a place found, opened: the page in its cards at that field, the words marked",
)
async def search_opened(st: Studio, shot: Shot) -> None:
    from modu_desktop.ui.search.results import FOUND_ROLE

    win = await st.window(shot, "editor1", "tok-editor1", practice=True)
    mode = win.search.mode
    await wait_for(lambda: mode.ready and not mode.reading)
    win.search.start()
    win.search.panel.query_edit.setText("심화 과정")
    win.search.panel.search_now()
    await wait_for(lambda: mode.results is not None)
    items = win.search.panel.results.hit_items()
    target = next(
        (it for it in items if "datatable" not in repr(it.data(0, FOUND_ROLE).hit.place)),
        items[0],
    )
    win.search.panel.results.setCurrentItem(target)
    found = mode.results
    await win.search.open_found(target.data(0, FOUND_ROLE), found.query, found.options)
    await asyncio.sleep(0.6)
    shot.save(win)


# -- running -------------------------------------------------------------------------------------


async def amain(
    names: list[str], widths: list[int], langs: list[str], out: Path, height: int | None = None
) -> int:
    from PySide6.QtWidgets import QApplication

    from modu_desktop.sandbox import Sandbox, SandboxUser
    from modu_desktop.ui.shell.i18n import install_translators, load_style

    app = QApplication.instance()
    load_style(app)
    failed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="modu-shots-") as tmpdir:
        tmp = Path(tmpdir)
        sb = Sandbox(
            tmp / "repo",
            users=[
                SandboxUser("editor1", "tok-editor1"),
                SandboxUser("editor2", "tok-editor2"),
                SandboxUser("kim", "tok-kim"),
                SandboxUser("lee", "tok-lee"),
            ],
            seed="sample",
        )
        sb.start()
        st = Studio(sb, tmp)
        try:
            for lang in langs:
                install_translators(app, lang)
                for width in widths:
                    for name in names:
                        shot = Shot(name, lang, width, out, height)
                        try:
                            await SCENES[name].draw(st, shot)
                        except Exception:
                            traceback.print_exc()
                            failed.append(shot.path.name)
                        finally:
                            await st.close_all()
        finally:
            await st.aclose()
            sb.stop()
    if failed:
        print("failed:", " ".join(failed), file=sys.stderr)
    return 1 if failed else 0


def _csv(kind: Callable[[str], Any]) -> Callable[[str], list[Any]]:
    def parse(value: str) -> list[Any]:
        try:
            return [kind(v.strip()) for v in value.split(",") if v.strip()]
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from exc

    return parse


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--list", action="store_true", help="print the scenes and leave")
    p.add_argument("--scene", action="append", default=[], metavar="NAME", help="repeatable")
    p.add_argument("--width", type=_csv(int), default=[800, 1600], metavar="W[,W…]")
    p.add_argument("--lang", type=_csv(str), default=list(LANGS), metavar="ko|en|ko,en")
    p.add_argument("--height", type=int, default=None, metavar="H", help="the window's height")
    p.add_argument("--out", type=Path, default=Path("screenshots"), metavar="DIR")
    a = p.parse_args(argv)
    unknown = [n for n in a.scene if n not in SCENES]
    if unknown:
        p.error(f"unknown scene(s): {', '.join(unknown)} (see --list)")
    bad_langs = [x for x in a.lang if x not in LANGS]
    if bad_langs or not a.lang:
        p.error(f"--lang: expected ko, en or ko,en, got {','.join(a.lang)}")
    if not a.width or any(w < 400 for w in a.width):
        p.error("--width: one or more widths of at least 400 px")
    if a.height is not None and a.height < 400:
        p.error("--height: at least 400 px")
    return a


def main(argv: list[str]) -> int:
    a = parse_args(argv)
    if a.list:
        for s in SCENES.values():
            print(f"{s.name:15} {s.about}")
        return 0
    names = list(dict.fromkeys(a.scene)) or list(SCENES)
    a.out.mkdir(parents=True, exist_ok=True)
    import qasync
    from PySide6.QtWidgets import QApplication

    from modu_desktop.ui.shell.qt_setup import prepare_application

    prepare_application()  # WebEngine: shared GL contexts, before the QApplication
    app: Any = QApplication.instance() or QApplication(["screenshots"])
    app.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        rc = loop.run_until_complete(amain(names, a.width, a.lang, a.out, a.height))
    from modu_desktop.ui.shell.app import _teardown_qt

    _teardown_qt(app)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
