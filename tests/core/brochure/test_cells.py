"""A data table's cell read as the site's table draws it, and written back so that it reads
the same: bold, accent-coloured and italic words, never their marks."""

from __future__ import annotations

from pathlib import Path

import pytest

from modu_desktop.core.brochure import block_model, syntax
from modu_desktop.core.brochure.cells import (
    ACCENT,
    BOLD,
    ITALIC,
    CellRun,
    plain_text,
    read_cell,
    write_cell,
)

ROOT = Path(__file__).resolve().parents[3]
SITE_DOCS = sorted((ROOT / "tests/fixtures/pnu-modu-site/docs").glob("*.md"))


def test_a_cell_reads_as_the_site_draws_it() -> None:
    assert read_cell("**수시** 학생부 교과") == (CellRun("수시", BOLD), CellRun(" 학생부 교과"))
    assert read_cell("[!80명]") == (CellRun("80명", ACCENT),)
    assert read_cell("정원 [~의생명 전공] 안") == (
        CellRun("정원 "),
        CellRun("의생명 전공", ITALIC),
        CellRun(" 안"),
    )
    assert plain_text("**기초 과정** | x") == "기초 과정 | x"
    # what the site's pattern does not take stays words
    assert read_cell("[!] ** [x]") == (CellRun("[!] ** [x]"),)


def _site_cells() -> list[str]:
    cells: list[str] = []
    for path in SITE_DOCS:
        text = path.read_text("utf-8")
        for span in syntax.block_spans(text):
            if span.name != "datatable":
                continue
            model = block_model.parse(text[span.start : span.end])
            cells.extend(c for row in model.rows() for c in row)
    return cells


def test_every_cell_of_the_site_is_written_back_as_it_was() -> None:
    cells = _site_cells()
    assert len(cells) > 100 and any("[!" in c for c in cells) and any("[~" in c for c in cells)
    for cell in cells:
        assert write_cell(read_cell(cell)) == cell


@pytest.mark.parametrize(
    ("runs", "written"),
    [
        ((CellRun("가"), CellRun("나", BOLD)), "가**나**"),
        ((CellRun("a|b"),), "a｜b"),  # a bar would cut the cell in two
        ((CellRun("5*3", BOLD),), "**5＊3**"),
        ((CellRun("[참고]", ACCENT),), "[![참고］]"),
        ((CellRun(""), CellRun("둘째\n줄", ITALIC)), "[~둘째 줄]"),
    ],
)
def test_runs_are_written_so_the_site_reads_them_back(
    runs: tuple[CellRun, ...], written: str
) -> None:
    assert write_cell(runs) == written
    assert plain_text(written).replace("｜", "|").replace("＊", "*").replace("］", "]") == "".join(
        r.text for r in runs
    ).replace("\n", " ")
