"""Draw the “블록 넣기” picker's pictures with the preview itself (Qt WebEngine, our built-in
site style), one PNG per catalogue entry, into ``resources/blocks/``.

    uv run python scripts/block_pictures.py [--out resources/blocks]

The picker ships these files instead of drawing at run time: WebEngine paints a page in steps
(seconds per picture in software rendering), which a dialog must not wait for. Run this again
when a block's example or the built-in style changes; tests check every entry has its picture.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QTWEBENGINE_CHROMIUM_FLAGS", "--disable-gpu")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

WIDTH, HEIGHT = 760, 434  # the preview at a narrow page width; scaled to 2× the picker's size


def _wait(app: object, until: float) -> None:
    from PySide6.QtCore import QCoreApplication

    while time.monotonic() < until:
        QCoreApplication.processEvents()
        time.sleep(0.01)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("resources/blocks"))
    args = parser.parse_args(argv)

    from PySide6.QtCore import QSize, Qt
    from PySide6.QtWidgets import QApplication

    from modu_desktop.core.brochure.catalog import CATALOG
    from modu_desktop.ui.editing.block_picker import PICTURE
    from modu_desktop.ui.preview import engine
    from modu_desktop.ui.preview.pane import PreviewPane

    engine.prepare_engine()
    app = QApplication.instance() or QApplication([])
    pane = PreviewPane()
    pane.resize(WIDTH, HEIGHT)
    pane.show()
    args.out.mkdir(parents=True, exist_ok=True)
    target = QSize(PICTURE.width() * 2, PICTURE.height() * 2)
    for spec in CATALOG:
        rendered: list[int] = []
        pane.rendered.connect(lambda box=rendered: box.append(1))
        pane.render_now(spec.example)
        deadline = time.monotonic() + 30
        while not rendered and time.monotonic() < deadline:
            _wait(app, time.monotonic() + 0.05)
        pane.rendered.disconnect()
        seen: list[str] = []
        image = None
        for _ in range(40):  # a finished picture: the same grab three times, 0.3 s apart
            _wait(app, time.monotonic() + 0.3)
            image = pane.view.grab().toImage()
            seen.append(hashlib.blake2b(bytes(image.constBits()), digest_size=16).hexdigest())
            if len(seen) >= 3 and len(set(seen[-3:])) == 1:
                break
        assert image is not None
        image = image.copy(0, 0, image.width() - 16, image.height())  # not the scroll bar
        scaled = image.scaled(
            target,
            Qt.AspectRatioMode.KeepAspectRatioByExpanding,
            Qt.TransformationMode.SmoothTransformation,
        ).copy(0, 0, target.width(), target.height())
        path = args.out / f"{spec.entry}.png"
        scaled.save(str(path))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
