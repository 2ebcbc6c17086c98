"""The preview reads every document of the Markdown corpus as the real site build does (needs
Node and npm; skips without them). The site's build of the corpus is cached (see
``tests/helpers/site_oracle.py``), so only the first run builds. The same figure:
``uv run python scripts/markdown_differential.py``."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.helpers.nodetools import require_node
from tests.helpers.site_oracle import corpus

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "markdown_differential.py"


def _tool():
    spec = importlib.util.spec_from_file_location("markdown_differential", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_corpus_covers_what_staff_write() -> None:
    names = " ".join(corpus())
    assert len(corpus()) >= 80
    for topic in ("emphasis", "list", "table", "break", "link", "image", "date", "tilde",
                  "quote", "heading", "entities", "block", "admonition", "footnotes"):  # fmt: skip
        assert topic in names, topic


@pytest.mark.timeout(1800)
def test_the_preview_reads_the_corpus_as_the_site_build_does() -> None:
    require_node()
    tool = _tool()
    result = tool.compare()
    differ = {n: d for n, d in result.items() if d is not None and n not in tool.EXCEPTIONS}
    assert not differ, "\n".join(f"{n}: {d}" for n, d in differ.items())
