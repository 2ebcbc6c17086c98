"""Every page of the real site, opened in the app as cards (the default view), its every card
visited, and saved without a change: the repository holds the same bytes as before (the sample
brochure's pages the same, in ``test_page_editor.py`` and here through a save too)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EDITOR1, EDITOR2, VIEWER

SITE = Path(__file__).resolve().parents[3] / "fixtures" / "pnu-modu-site"
SITE_DOCS = sorted(p.stem for p in (SITE / "docs").glob("*.md"))


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[object]:
    """The sandbox seeded with the whole real site (its documents as they are published)."""
    from modu_desktop.sandbox import Sandbox, SandboxUser

    sb = Sandbox(
        tmp_path / "site-repo",
        users=[
            SandboxUser(*EDITOR1, push=True),
            SandboxUser(*EDITOR2, push=True),
            SandboxUser(*VIEWER, push=False),
        ],
        seed=SITE,
    )
    sb.start()
    try:
        yield sb
    finally:
        sb.stop()


def test_every_page_of_the_site_saved_untouched_keeps_its_bytes(
    make_window: Any, sandbox: Any, ui: Any
) -> None:
    assert len(SITE_DOCS) == 9
    win = make_window()
    for doc in SITE_DOCS:
        path = f"docs/{doc}.md"
        before = sandbox.read_file(path)
        assert ui.run(win.open_document(doc))
        pane = win.editor_pane
        assert not pane.raw_view
        page = pane.page_editor
        page.build_all()
        for card in page.cards:
            card.focus_in()
        assert not pane.is_modified()
        assert ui.run(win.save(), timeout=30000)
        assert sandbox.read_file(path) == before, doc
