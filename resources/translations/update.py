"""Rebuild the Korean catalogue: extract (pyside6-lupdate) → fill from ko.json → compile (lrelease).

    uv run python resources/translations/update.py [--check]

Source strings are English in the code (``self.tr`` / ``QCoreApplication.translate``); ``ko.json``
maps each English source text to Korean. ``--check`` fails if any source text lacks a translation.
Writes ``modu_ko.ts`` (the Qt Linguist source) and ``modu_ko.qm`` (what the app loads).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
UI = ROOT / "modu_desktop" / "ui"
SKIP = {"highlighter.py", "preview.py"}  # other owners; they have no user-facing tr() texts


def _tool(name: str) -> str:
    exe = shutil.which(f"pyside6-{name}") or str(Path(sys.executable).parent / f"pyside6-{name}")
    return exe


def main(argv: list[str]) -> int:
    ts = HERE / "modu_ko.ts"
    qm = HERE / "modu_ko.qm"
    sources = sorted(str(p) for p in UI.glob("*.py") if p.name not in SKIP)
    subprocess.run(
        [_tool("lupdate"), "-no-obsolete", "-locations", "none", *sources, "-ts", str(ts)],
        check=True,
        capture_output=True,
    )
    table: dict[str, str] = {}
    for part in [HERE / "ko.json", *sorted((HERE / "ko").glob("*.json"))]:
        table.update(json.loads(part.read_text("utf-8")))  # as modu_desktop.i18n reads them
    tree = ET.parse(ts)
    root = tree.getroot()
    root.set("language", "ko_KR")
    missing: list[str] = []
    for msg in root.iter("message"):
        src_el = msg.find("source")
        tr_el = msg.find("translation")
        if src_el is None or tr_el is None:
            continue
        src = src_el.text or ""
        ko = table.get(src)
        if ko is None:
            missing.append(src)
            continue
        tr_el.attrib.pop("type", None)
        if msg.get("numerus") == "yes":
            for child in list(tr_el):
                tr_el.remove(child)
            tr_el.text = None
            form = ET.SubElement(tr_el, "numerusform")
            form.text = ko
        else:
            tr_el.text = ko
    tree.write(ts, encoding="utf-8", xml_declaration=True)
    subprocess.run([_tool("lrelease"), str(ts), "-qm", str(qm)], check=True, capture_output=True)
    if missing:
        print("untranslated:", *missing, sep="\n  ")
        if "--check" in argv:
            return 1
    print(f"{ts.name}: {len(table)} entries; {qm.name} written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
