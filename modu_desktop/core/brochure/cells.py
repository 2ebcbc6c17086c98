"""A data table's cell as the site reads it (Qt-free): runs of plain, bold, accent-coloured and
italic text; a column's alignment.

The site's ``DataTableSection`` cuts a row at every ``|`` and trims each cell; inside a cell it
draws ``**굵게**`` bold in the theme's main colour, ``[!강조]`` bold in its accent colour and
``[~기울임]`` in italics, and nothing else is markup to it. :func:`read_cell` is that reading
(the preview draws cells from it too); :func:`write_cell` writes runs back so that the site reads
them as they were, and ``write_cell(read_cell(t)) == t`` for every cell ``t`` a row can hold.
A character the site would take for markup inside a run (a ``|`` anywhere, a ``*`` in bold, a
``]`` in a marked run) is written as its full-width twin, which reads the same to a person.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

PLAIN = ""
BOLD = "bold"
ACCENT = "accent"
ITALIC = "italic"

_PARTS = re.compile(r"(\*\*[^*]+\*\*|\[![^\]]+\]|\[~[^\]]+\])")
_WRAP = {BOLD: ("**", "**"), ACCENT: ("[!", "]"), ITALIC: ("[~", "]")}
_TWINS = {BOLD: {"*": "＊"}, ACCENT: {"]": "］"}, ITALIC: {"]": "］"}}


@dataclass(frozen=True, slots=True)
class CellRun:
    text: str
    style: str = PLAIN  # PLAIN, BOLD, ACCENT or ITALIC


Cell = tuple[CellRun, ...]


def read_cell(text: str) -> Cell:
    """A cell's text (as written between two ``|``) as the site draws it."""
    runs: list[CellRun] = []
    for n, part in enumerate(_PARTS.split(text)):
        if not part:
            continue
        if n % 2 == 0:
            runs.append(CellRun(part))
            continue
        style = BOLD if part.startswith("**") else ACCENT if part[1] == "!" else ITALIC
        opening, closing = _WRAP[style]
        runs.append(CellRun(part[len(opening) : -len(closing)], style))
    return tuple(runs)


def plain_text(text: str) -> str:
    """What a person reads in the cell: its words without the marks."""
    return "".join(run.text for run in read_cell(text))


def merged(runs: Iterable[CellRun]) -> Cell:
    """Neighbouring runs of one style as one run, empty runs left out."""
    out: list[CellRun] = []
    for run in runs:
        if not run.text:
            continue
        if out and out[-1].style == run.style:
            out[-1] = CellRun(out[-1].text + run.text, run.style)
        else:
            out.append(run)
    return tuple(out)


def write_cell(runs: Iterable[CellRun]) -> str:
    """The cell's text for a row: each run wrapped in its style's marks."""
    out: list[str] = []
    for run in runs:
        if not run.text:
            continue
        text = " ".join(run.text.splitlines()).replace("|", "｜")
        if run.style == PLAIN:
            out.append(text)
            continue
        for char, twin in _TWINS[run.style].items():
            text = text.replace(char, twin)
        opening, closing = _WRAP[run.style]
        out.append(f"{opening}{text}{closing}")
    return "".join(out).strip()


ALIGNMENTS = ("left", "center", "right")


def alignment(word: str) -> str:
    """One ``align:`` entry as the site's table reads it: ``center`` or ``c``, ``right`` or
    ``r``, anything else ``left``."""
    word = word.strip()
    if word in ("center", "c"):
        return "center"
    if word in ("right", "r"):
        return "right"
    return "left"
