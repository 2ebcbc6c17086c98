"""PDF export (Qt WebEngine's PDF backend): the template as real text with its Korean title, and
the paper size taken from the document's layout unless one is given."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.core.preview import builtin_style, style_from_checkout
from modu_desktop.ui.preview.pdf import export_pdf_blocking
from tests.helpers.paths import SITE_FIXTURE

TEMPLATE = SITE_FIXTURE / "docs" / "99-template.md"


def _pdf_text(path: Path) -> str | None:
    if shutil.which("pdftotext"):
        done = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, timeout=60
        )
        return done.stdout.decode("utf-8", "replace")
    try:
        import pypdf
    except ImportError:
        return None
    return "\n".join(p.extract_text() or "" for p in pypdf.PdfReader(str(path)).pages)


def _pdf_pages(path: Path) -> int:
    data = path.read_bytes()
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


def test_pdf_export_of_the_template(qtbot: Any, tmp_path: Path) -> None:
    out = tmp_path / "template.pdf"
    ok = export_pdf_blocking(
        TEMPLATE.read_text("utf-8"), out, style=style_from_checkout(SITE_FIXTURE)
    )
    assert ok and out.stat().st_size > 10_000
    assert out.read_bytes().startswith(b"%PDF")
    assert _pdf_pages(out) >= 3
    text = _pdf_text(out)
    if text is None:
        pytest.skip("neither pdftotext (poppler-utils) nor pypdf is installed")
    flat = " ".join(text.split())
    assert "브로슈어 블록 작성 가이드" in flat  # the document's Korean title, as text
    assert "SW학과 정원" in flat


def test_pdf_paper_follows_layout_unless_given(qtbot: Any, tmp_path: Path) -> None:
    doc = "---\ntitle: 포스터\nlayout: poster\n---\n\n본문 한 줄\n"
    a3, b5 = tmp_path / "a3.pdf", tmp_path / "b5.pdf"
    assert export_pdf_blocking(doc, a3, style=builtin_style())
    assert export_pdf_blocking(doc, b5, style=builtin_style(), paper="B5")

    def media_box(path: Path) -> tuple[float, float]:
        m = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", path.read_bytes())
        assert m, path
        return float(m.group(1)), float(m.group(2))

    w, h = media_box(a3)
    assert abs(w - 297 / 25.4 * 72) < 3 and abs(h - 420 / 25.4 * 72) < 3
    w, h = media_box(b5)
    assert abs(w - 176 / 25.4 * 72) < 3 and abs(h - 250 / 25.4 * 72) < 3
