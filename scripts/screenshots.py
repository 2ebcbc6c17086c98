"""Screenshots of the app in Korean and English, against a throw-away sandbox.

    uv run python scripts/screenshots.py OUT_DIR [--lang ko|en|both]

Writes, per language: signin, list, editor (99-template with preview), locked-dialog,
steal-confirm, stolen-banner, conflict — as ``{lang}-{name}.png``. Works offscreen.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import modu_desktop.ui  # noqa: E402,F401  (pins None/True/False, see its docstring)


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


def save(widget: Any, path: Path) -> None:
    widget.repaint()
    if not widget.grab().save(str(path), "PNG"):
        raise RuntimeError(f"could not write {path}")
    print("wrote", path)


def save_with_dialog(window: Any, dialog: Any, path: Path) -> None:
    """The window dimmed, with the dialog drawn centred on top (offscreen has no compositor)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor, QPainter

    base = window.grab()
    dlg = dialog.grab()
    painter = QPainter(base)
    painter.fillRect(base.rect(), QColor(0, 0, 0, 90))
    x = (base.width() - dlg.width()) // 2
    y = (base.height() - dlg.height()) // 3
    painter.fillRect(x - 1, y - 1, dlg.width() + 2, dlg.height() + 2, QColor("#555"))
    painter.drawPixmap(QPoint(x, y), dlg)
    painter.end()
    base.save(str(path), "PNG")
    print("wrote", path)


class Scenes:
    def __init__(self, sandbox: Any, out: Path, tmp: Path) -> None:
        self.sandbox = sandbox
        self.out = out
        self.tmp = tmp
        self.windows: list[Any] = []
        self.clients: list[Any] = []

    def client(self, token: str) -> Any:
        from modu_desktop.core.github import GitHubClient, RepoRef

        c = GitHubClient(self.sandbox.api_url, token, RepoRef("pnuai", "PNU-Modu", "main"))
        self.clients.append(c)
        return c

    async def window(self, lang: str, login: str, token: str, **opts: Any) -> Any:
        from modu_desktop.core.auth import check_token
        from modu_desktop.core.paths import app_paths
        from modu_desktop.core.settings import Settings
        from modu_desktop.ui.shell.context import AppContext, AppOptions
        from modu_desktop.ui.shell.main_window import MainWindow

        client = self.client(token)
        res = await check_token(client)
        ctx = AppContext(
            settings=Settings(api_url=self.sandbox.api_url),
            paths=app_paths(self.tmp / f"{lang}-{login}-{len(self.windows)}").ensure(),
            options=AppOptions(lang=lang, **opts),
            client=client,
            login=res.login or login,
            can_push=res.can_push,
        ).build()
        win = MainWindow(ctx)
        win.resize(1280, 800)
        win.show()
        self.windows.append(win)
        await win.refresh_list()
        return win

    async def close_all(self) -> None:
        for w in self.windows:
            await w.shutdown(interactive=False)
            w._closed_ok = True
            w.close()
            w.deleteLater()
        self.windows.clear()

    def peer(self, login: str, token: str) -> Any:
        from modu_desktop.core.locks import LockManager

        c = self.client(token)
        return LockManager(c, login, f"shots-{login}", c.clock, heartbeat_s=1)

    async def run(self, lang: str) -> None:
        from modu_desktop.core.auth import TokenStore
        from modu_desktop.core.settings import Settings
        from modu_desktop.ui.shell.context import make_client
        from modu_desktop.ui.signin.signin import SignInWidget

        o = self.out
        # 1. sign-in (on a machine without a keyring it says the token is kept for this session)
        s = SignInWidget(
            Settings(), TokenStore("api.github.com", use_env=False), make_client, lang=lang
        )
        s.resize(760, 640)
        s.show()
        await asyncio.sleep(0.1)
        save(s, o / f"{lang}-signin.png")
        s.close()
        s.deleteLater()

        # 2. list, with someone else's lock badge, in practice mode
        other = self.peer("editor2", "tok-editor2")
        held = (await other.acquire("03-strategy")).held
        win = await self.window(lang, "editor1", "tok-editor1", practice=True)
        await asyncio.sleep(0.2)
        save(win, o / f"{lang}-list.png")

        # 3. editor + preview of 99-template
        await win.open_document("99-template")
        await asyncio.sleep(0.5)
        save(win, o / f"{lang}-editor.png")
        await win.close_document(interactive=False)

        # 4. locked dialog, then the steal confirmation
        task = asyncio.ensure_future(win.open_document("03-strategy"))
        dlg = await wait_for(lambda: visible("lockDialog"))
        await asyncio.sleep(0.1)
        save_with_dialog(win, dlg, o / f"{lang}-locked-dialog.png")
        dlg.steal_button.click()
        confirm = await wait_for(lambda: visible("stealConfirmDialog"))
        await asyncio.sleep(0.1)
        save_with_dialog(win, confirm, o / f"{lang}-steal-confirm.png")
        confirm.reject()
        dlg = await wait_for(lambda: visible("lockDialog"))
        dlg.cancel_button.click()
        await task
        if held is not None:
            await other.release(held)
        await self.close_all()

        # 5. stolen: a victim window with a short heartbeat loses its lock to a peer
        victim = await self.window(lang, "editor1", "tok-editor1", heartbeat_s=0.5)
        await victim.open_document("02-programs")
        ed = victim.editor_pane.editor
        from PySide6.QtGui import QTextCursor

        ed.moveCursor(QTextCursor.MoveOperation.End)
        ed.insertPlainText("\n\n저장하지 않은 새 문단 — unsaved paragraph\n")
        thief = self.peer("editor2", "tok-editor2")
        view = await thief.inspect("02-programs")
        stolen = await thief.steal(view)
        await wait_for(lambda: victim.lock_banner.isVisible())
        await asyncio.sleep(0.2)
        save(victim, o / f"{lang}-stolen-banner.png")
        await self.close_all()
        if stolen.held is not None:
            await thief.release(stolen.held)

        # 6. save conflict, side by side
        win = await self.window(lang, "editor1", "tok-editor1")
        await win.open_document("05-sandbox-notes")
        win.editor_pane.editor.moveCursor(QTextCursor.MoveOperation.End)
        win.editor_pane.editor.insertPlainText("\n내가 고친 문장입니다.\n")
        from modu_desktop.core.documents import DocumentStore

        store = DocumentStore(self.client("tok-editor2"), self.tmp / f"peer-cache-{lang}")
        loaded = await store.load("05-sandbox-notes")
        await store.save(
            "05-sandbox-notes",
            loaded.text + "\n다른 사람이 고친 문장입니다.\n",
            loaded.sha,
            "editor2",
        )
        task = asyncio.ensure_future(win.save())
        dlg = await wait_for(lambda: visible("conflictDialog"))
        dlg.resize(1100, 640)
        await asyncio.sleep(0.2)
        save(dlg, o / f"{lang}-conflict.png")
        dlg.take_theirs_button.click()
        await task
        await self.close_all()


async def amain(out: Path, langs: list[str]) -> int:
    from PySide6.QtWidgets import QApplication

    from modu_desktop.sandbox import Sandbox, SandboxUser
    from modu_desktop.ui.shell.i18n import install_translators, load_style

    app = QApplication.instance()
    load_style(app)
    with tempfile.TemporaryDirectory(prefix="modu-shots-") as tmpdir:
        tmp = Path(tmpdir)
        sb = Sandbox(
            tmp / "repo",
            users=[SandboxUser("editor1", "tok-editor1"), SandboxUser("editor2", "tok-editor2")],
            seed="sample",
        )
        sb.start()
        scenes = Scenes(sb, out, tmp)
        try:
            for lang in langs:
                install_translators(app, lang)
                await scenes.run(lang)
        finally:
            await scenes.close_all()
            for c in scenes.clients:
                await c.aclose()
            sb.stop()
    return 0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("out", type=Path)
    p.add_argument("--lang", choices=("ko", "en", "both"), default="both")
    a = p.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    import qasync
    from PySide6.QtWidgets import QApplication

    from modu_desktop.ui.preview.engine import prepare_application

    prepare_application()  # WebEngine: shared GL contexts, before the QApplication
    app = QApplication.instance() or QApplication(["screenshots"])
    app.setQuitOnLastWindowClosed(False)  # type: ignore[union-attr,attr-defined]
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    langs = ["ko", "en"] if a.lang == "both" else [a.lang]
    with loop:
        rc = loop.run_until_complete(amain(a.out, langs))
    from modu_desktop.ui.shell.app import _teardown_qt

    _teardown_qt(app)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
