"""Text on the clipboard in two formats, and a process that put it there ends cleanly: a data
object made in Python and still held by Qt's clipboard when Python ends crashed the process
on its way out (exit status 139 on the offscreen platform)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from typing import Any

from PySide6.QtWidgets import QApplication

from modu_desktop.ui.kit.clipboard import MARKDOWN, put_text
from tests.helpers.paths import CHECKOUT


def test_words_and_markdown_are_both_on_the_clipboard(qapp: Any) -> None:
    markdown = "---\ntitle: 행사 안내\n---\n\n**5월**에 시작합니다.\n"
    put_text("행사 안내\n\n5월에 시작합니다.\n", markdown)
    data = QApplication.clipboard().mimeData()
    assert data.text() == "행사 안내\n\n5월에 시작합니다.\n"
    assert bytes(data.data(MARKDOWN).data()).decode("utf-8") == markdown


def test_a_process_that_copied_ends_without_crashing() -> None:
    script = textwrap.dedent(
        """
        import sys
        from PySide6.QtWidgets import QApplication
        from modu_desktop.ui.kit.clipboard import put_text
        app = QApplication(sys.argv)
        put_text("첫째", "# 첫째")
        put_text("둘째", "# 둘째")
        print(QApplication.clipboard().text())
        """
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=CHECKOUT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.strip() == "둘째"
