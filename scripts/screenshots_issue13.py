"""Issue 13 scenes in Korean at 800 and 1600 px wide: lock dialog, stolen banner (and Ctrl+S on
it), conflict dialog, recovery dialog, an outage and its end.

    uv run python scripts/screenshots_issue13.py OUT_DIR

Uses the helpers of ``scripts/screenshots.py``; works offscreen.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from screenshots import Scenes, save, save_with_dialog, visible, wait_for  # type: ignore  # noqa: E402

import modu_desktop.ui  # noqa: E402,F401  (pins None/True/False, see its docstring)

OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("screenshots-issue13")


async def scenes(sc: Scenes, lang: str) -> None:
    from PySide6.QtGui import QTextCursor

    o = OUT
    for width in (800, 1600):
        h = 800 if width == 1600 else 640
        # lock dialog
        other = sc.peer("editor2", "tok-editor2")
        held = (await other.acquire("03-strategy")).held
        win = await sc.window(lang, "editor1", "tok-editor1")
        win.resize(width, h)
        task = asyncio.ensure_future(win.open_document("03-strategy"))
        dlg = await wait_for(lambda: visible("lockDialog"))
        await asyncio.sleep(0.1)
        save_with_dialog(win, dlg, o / f"{lang}-{width}-lock-dialog.png")
        dlg.cancel_button.click()
        await task
        await other.release(held)
        await sc.close_all()
        # stolen banner
        victim = await sc.window(lang, "editor1", "tok-editor1", heartbeat_s=0.5)
        victim.resize(width, h)
        await victim.open_document("02-programs")
        ed = victim.editor_pane.editor
        ed.moveCursor(QTextCursor.MoveOperation.End)
        ed.insertPlainText("\n\n저장하지 않은 새 문단\n")
        thief = sc.peer("editor2", "tok-editor2")
        stolen = await thief.steal(await thief.inspect("02-programs"))
        await wait_for(victim.lock_banner.isVisible)
        await asyncio.sleep(0.3)
        save(victim, o / f"{lang}-{width}-stolen-banner.png")
        victim.explain_cannot_save()
        await asyncio.sleep(0.1)
        save(victim, o / f"{lang}-{width}-stolen-ctrl-s.png")
        await sc.close_all()
        await thief.release(stolen.held)
        # conflict
        win = await sc.window(lang, "editor1", "tok-editor1")
        win.resize(width, h)
        await win.open_document("05-sandbox-notes")
        win.editor_pane.editor.moveCursor(QTextCursor.MoveOperation.End)
        win.editor_pane.editor.insertPlainText("\n내가 고친 문장입니다.\n")
        from modu_desktop.core.documents import DocumentStore

        store = DocumentStore(sc.client("tok-editor2"), sc.tmp / f"peer-cache-{lang}-{width}")
        loaded = await store.load("05-sandbox-notes")
        await store.save(
            "05-sandbox-notes",
            loaded.text + "\n다른 사람이 고친 문장입니다.\n",
            loaded.sha,
            "editor2",
        )
        task = asyncio.ensure_future(win.save())
        dlg = await wait_for(lambda: visible("conflictDialog"))
        dlg.resize(min(width, 1100), 560)
        await asyncio.sleep(0.2)
        save(dlg, o / f"{lang}-{width}-conflict.png")
        dlg.cancel_button.click()
        await task
        await sc.close_all()
        # recovery dialog
        from modu_desktop.core.drafts import Draft, DraftKey
        from modu_desktop.ui.recovery.recovery_dialog import RecoveryDialog, assess

        win = await sc.window(lang, "editor1", "tok-editor1")
        key = DraftKey(sc.sandbox.api_url, "pnuai/PNU-Modu", "main", "01-welcome")
        base = await win.ctx.store.load("01-welcome")
        d = Draft(
            key,
            base.text + "\n복구할 문단입니다.\n",
            base.sha,
            "docs/01-welcome.md",
            1.0,
            "dead",
            title="모두 연습 브로슈어에 오신 것을 환영합니다",
        )
        key2 = DraftKey(sc.sandbox.api_url, "pnuai/PNU-Modu", "main", "04-admission")
        d2 = Draft(
            key2, "바뀐 글", "0" * 40, "docs/04-admission.md", 2.0, "dead", title="모집 안내와 현황"
        )
        items = await assess([d, d2], win.ctx.store)
        from modu_desktop.core.drafts import DraftStore

        rd = RecoveryDialog(items, DraftStore(sc.tmp / f"drafts-{width}"), win, can_write=True)
        rd.resize(min(width, 980), 560)
        rd.show()
        await asyncio.sleep(0.2)
        save(rd, o / f"{lang}-{width}-recovery.png")
        rd.reject()
        rd.deleteLater()
        await sc.close_all()
        # outage
        win = await sc.window(lang, "editor1", "tok-editor1", heartbeat_s=0.5)
        win.resize(width, h)
        win.nothing_lost.start_queue()  # the window's own save queue
        await win.open_document("02-programs")
        win.editor_pane.editor.moveCursor(QTextCursor.MoveOperation.End)
        win.editor_pane.editor.insertPlainText("\n연결이 끊긴 동안 쓴 문장\n")
        sc.sandbox.faults.update(failure_rate=1.0, failure_kinds=("reset",))
        await asyncio.sleep(1.5)
        await win.save()
        await win.refresh_list()
        await asyncio.sleep(1.0)
        save(win, o / f"{lang}-{width}-outage.png")
        sc.sandbox.faults.update(failure_rate=0.0)
        await asyncio.sleep(0.5)
        await win.refresh_list()
        await asyncio.sleep(4)
        save(win, o / f"{lang}-{width}-after-outage.png")
        await sc.close_all()


async def amain() -> int:
    from PySide6.QtWidgets import QApplication

    from modu_desktop.sandbox import Sandbox, SandboxUser
    from modu_desktop.ui.shell.i18n import install_translators, load_style

    app = QApplication.instance()
    load_style(app)
    with tempfile.TemporaryDirectory(prefix="modu-shots13-") as tmpdir:
        tmp = Path(tmpdir)
        sb = Sandbox(
            tmp / "repo",
            users=[SandboxUser("editor1", "tok-editor1"), SandboxUser("editor2", "tok-editor2")],
            seed="sample",
        )
        sb.start()
        sc = Scenes(sb, OUT, tmp)
        try:
            install_translators(app, "ko")
            await scenes(sc, "ko")
        finally:
            await sc.close_all()
            for c in sc.clients:
                await c.aclose()
            sb.stop()
    return 0


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    import qasync
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(["shots"])
    app.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        rc = loop.run_until_complete(amain())
    from modu_desktop.ui.shell.app import _teardown_qt

    _teardown_qt(app)
    return rc


if __name__ == "__main__":
    sys.exit(main())
