"""Screenshots of the authoring features (issue 14) in Korean at 800 and 1600 px wide.

    uv run python scripts/authoring_screenshots.py OUT_DIR

Writes ``signin-{w}.png``, ``signin-browser-{w}.png`` (a client id shipped by IT),
``block-picker-{w}.png``, ``block-form-{w}.png`` and ``after-save-{w}.png`` for w = 800 and
1600, against a throw-away sandbox. Works offscreen.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from screenshots import Scenes, save, save_with_dialog, wait_for  # noqa: E402

import modu_desktop.ui  # noqa: E402,F401

WIDTHS = (800, 1600)


async def shots(scenes: Scenes, out: Path) -> None:
    from PySide6.QtGui import QTextCursor

    from modu_desktop.core import blockmodel
    from modu_desktop.core.auth import TokenStore
    from modu_desktop.core.deploy import DeployState
    from modu_desktop.core.settings import Settings
    from modu_desktop.ui.shell.context import make_client
    from modu_desktop.ui.signin.signin import SignInWidget

    for width in WIDTHS:
        height = 720 if width == 800 else 960
        s = SignInWidget(Settings(), TokenStore("api.github.com", use_env=False), make_client)
        s.resize(width, height)
        s.show()
        await asyncio.sleep(0.1)
        save(s, out / f"signin-{width}.png")
        s.close()
        s.deleteLater()
        it_file = scenes.tmp / "modu-desktop.json"  # what IT ships beside the installer
        it_file.write_text('{"oauth_client_id": "Ov23liEXAMPLE"}', encoding="utf-8")
        s = SignInWidget(
            Settings(),
            TokenStore("api.github.com", use_env=False),
            make_client,
            deployment_paths=[it_file],
        )
        s.resize(width, height)
        s.show()
        await asyncio.sleep(0.1)
        save(s, out / f"signin-browser-{width}.png")
        s.close()
        s.deleteLater()

        win = await scenes.window("ko", "editor1", "tok-editor1", practice=True, deploy_poll_s=0.5)
        win.resize(width, height)
        await win.open_document("99-template")
        await asyncio.sleep(0.3)
        pane = win.editor_pane
        if width == 800:
            pane.set_list_shown(False)
        await asyncio.sleep(0.3)
        text = pane.text()
        cards = next(sp for sp in blockmodel.block_spans(text) if sp.name == "cards")
        cur = pane.editor.textCursor()
        cur.setPosition(pane.editor.document().findBlockByNumber(cards.start + 6).position())
        pane.editor.setTextCursor(cur)
        pane.editor.centerCursor()
        pane._sync_block_form()
        pane.block_form.tables["items"].table.setCurrentCell(0, 0)
        await asyncio.sleep(0.4)
        save(win, out / f"block-form-{width}.png")

        pane.open_block_picker()
        picker = await wait_for(lambda p=pane: p.picker)
        picker.resize(min(640, width - 40), min(680, height - 60))
        picker.select("timeline")
        await asyncio.sleep(0.2)
        save_with_dialog(win, picker, out / f"block-picker-{width}.png")
        picker.reject()

        pane.editor.moveCursor(QTextCursor.MoveOperation.End)
        pane.editor.insertPlainText("\n새로 덧붙인 문단입니다.\n")
        await win.save()
        await wait_for(lambda p=pane: p.publish.state is DeployState.PUBLISHED, timeout=30)
        await asyncio.sleep(0.3)
        save(win, out / f"after-save-{width}.png")
        await scenes.close_all()


async def amain(out: Path) -> int:
    from PySide6.QtWidgets import QApplication

    from modu_desktop import i18n
    from modu_desktop.sandbox import Sandbox, SandboxUser
    from modu_desktop.ui.shell.i18n import install_translators, load_style

    app = QApplication.instance()
    load_style(app)
    install_translators(app, "ko")
    i18n.set_language("ko")
    with tempfile.TemporaryDirectory(prefix="modu-shots-") as tmpdir:
        tmp = Path(tmpdir)
        sb = Sandbox(tmp / "repo", users=[SandboxUser("editor1", "tok-editor1")], seed="sample")
        sb.start()
        scenes = Scenes(sb, out, tmp)
        try:
            await shots(scenes, out)
        finally:
            await scenes.close_all()
            for c in scenes.clients:
                await c.aclose()
            sb.stop()
    return 0


def main(argv: list[str]) -> int:
    import qasync
    from PySide6.QtWidgets import QApplication

    out = Path(argv[0]) if argv else Path("shots")
    out.mkdir(parents=True, exist_ok=True)
    app: Any = QApplication.instance() or QApplication(["screenshots"])
    app.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        rc = loop.run_until_complete(amain(out))
    from modu_desktop.ui.shell.app import _teardown_qt

    _teardown_qt(app)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
