"""The practice brochure shows what the site shows: every field of its blocks is one the site's
block component draws, and a chapter heading's ``chapter`` is its number — the site writes
"CHAPTER" and pads it itself ("chapter: CHAPTER 02" came out as "CHAPTER CHAPTER 02")."""

from __future__ import annotations

from pathlib import Path

import pytest

from modu_desktop.core.brochure import block_model
from modu_desktop.core.brochure.catalog import spec_for
from modu_desktop.core.brochure.syntax import block_spans

SEED = (
    Path(__file__).resolve().parents[3] / "modu_desktop" / "sandbox" / "repo" / "seed_data" / "docs"
)
DOCS = sorted(SEED.glob("*.md"))


def _blocks(path: Path) -> list[block_model.BlockModel]:
    text = path.read_text("utf-8")
    return [block_model.parse(text[b.start : b.end]) for b in block_spans(text)]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_every_block_field_is_one_the_site_shows(path: Path) -> None:
    for block in _blocks(path):
        spec = spec_for(block.kind, [it.values() for it in block.body.items] if block.body else [])
        shown = {f.key for f in spec.fields}
        assert [k for k in block.values() if k not in shown] == [], block.kind


def test_chapter_headings_give_their_number() -> None:
    chapters = [
        b.get("chapter") for path in DOCS for b in _blocks(path) if b.kind == "chapter-header"
    ]
    assert chapters
    assert all(c is not None and c.strip().isdigit() for c in chapters), chapters
